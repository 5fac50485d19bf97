#pragma once

// Helpers shared by the `sweep` and `sweep-merge` commands (private to dct_cli).

#include "dct/model/atomicfile.h"

#include <ostream>
#include <string>

namespace dct::cli {

/** Prints \a error to \a err as a dctwin-cli error line. */
inline void printSweepError(std::ostream& err, const Error& error)
{
    err << "dctwin-cli: error: " << error.toString() << "\n";
}

/** Writes the text that \a write produces to \a path atomically, or to \a out when it is empty. */
template <class F>
Result<void> writeSweepOutput(const std::string& path, std::ostream& out, F&& write)
{
    if (path.empty()) {
        write(out);
        return {};
    }
    // Beside the target, renamed at the end: a killed job leaves no half file that looks
    // finished.
    return writeFileAtomically(path, [&write](std::ostream& file) { write(file); });
}

} // namespace dct::cli
