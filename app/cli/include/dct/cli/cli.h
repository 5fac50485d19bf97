#pragma once

#include <iosfwd>
#include <string>
#include <vector>

namespace dct::cli {

/** Exit codes of dctwin-cli. */
enum ExitCode
{
    ExitOk = 0,         ///< Success.
    ExitEvaluation = 1, ///< An evaluation has errors (an inconsistent or impossible scenario).
    ExitUsage = 2       ///< Bad usage or unreadable input (a malformed file, an unknown id).
};

/** Runs dctwin-cli with \a argv, writing results to \a out and messages to \a err. */
int run(int argc, char** argv, std::ostream& out, std::ostream& err);

/** Returns the name of every command registered in the command table, in the order of --help. */
std::vector<std::string> commandNames();

} // namespace dct::cli
