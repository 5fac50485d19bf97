#pragma once

#include "dct/model/error.h"

#include <filesystem>
#include <functional>
#include <iosfwd>
#include <string>

namespace dct {

/**
 * Writes \a text to \a path atomically: a sibling temporary file, flushed to disk (fsync), then
 * renamed over the target. A crash or a failed write leaves the old file whole, never half of
 * the new one. The one writer of every file DC Twin saves (scenarios, sweeps, reports).
 */
Result<void> writeFileAtomically(const std::filesystem::path& path, const std::string& text);

/** As above for output made by \a write, streamed to the temporary file (large sweeps). */
Result<void> writeFileAtomically(const std::filesystem::path& path,
                                 const std::function<void(std::ostream&)>& write);

} // namespace dct
