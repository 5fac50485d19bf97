#pragma once

#include <string>
#include <string_view>

namespace dct::model {

class Catalog;

/**
 * Returns a 128-bit content hash of \a text as 32 hex digits (two FNV-1a 64 passes with
 * different offsets). Not cryptographic: it detects changed inputs and torn records.
 */
std::string contentHash(std::string_view text);

/** Returns a hash of every entry of \a catalog as read, for invalidating cached results. */
std::string catalogFingerprint(const Catalog& catalog);

} // namespace dct::model
