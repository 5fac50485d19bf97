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

/**
 * As above for output made by \a write, streamed to the temporary file (large sweeps). When
 * \a write throws, the temporary file is removed and the exception goes on to the caller (an
 * interrupted sweep leaves nothing behind).
 */
Result<void> writeFileAtomically(const std::filesystem::path& path,
                                 const std::function<void(std::ostream&)>& write);

/**
 * Returns the temporary file that this process writes beside \a path:
 * "<path>.part-<host>-<pid>", so that a file left by a killed process can be told from one that
 * is being written.
 */
std::filesystem::path temporaryPathFor(const std::filesystem::path& path);

/**
 * Removes the temporary files of \a path left by processes of this host that no longer run (a
 * kill -9 or a power cut). Returns how many it removed. writeFileAtomically() calls it first.
 */
int removeStaleTemporaries(const std::filesystem::path& path);

} // namespace dct
