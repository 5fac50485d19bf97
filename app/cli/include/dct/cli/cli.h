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

/** One command or subcommand of dctwin-cli and the names of its options. */
struct CommandOptions
{
    std::string command;               ///< "eval", "store list"; empty for the program itself.
    std::vector<std::string> names;    ///< "-f", "--format", ... of every option but --help.
    std::vector<std::string> commands; ///< The names of its own subcommands ("list", "show", ...).
};

/**
 * Returns the program and every command and subcommand with the names of their options, as
 * parsed from the command table (what the man page and the bash completion must describe).
 */
std::vector<CommandOptions> commandOptions();

} // namespace dct::cli
