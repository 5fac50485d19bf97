#pragma once

#include <iosfwd>
#include <memory>
#include <string>
#include <vector>

namespace CLI {
class App;
}

namespace dct::cli {

/** The global options of dctwin-cli, the same for every command. */
struct CommandContext
{
    std::string catalogDirectory; ///< The --catalog option; empty for the default catalog.
};

/**
 * One subcommand of dctwin-cli. The constructor registers the subcommand and its options on the
 * program's CLI::App; run() is called when the command line chose it.
 */
class Command
{
public:
    virtual ~Command();

    /** Returns the subcommand this command registered. */
    virtual CLI::App* subcommand() const = 0;

    /**
     * Runs the command with the parsed options and the global \a context, writing results to
     * \a out and messages to \a err. Returns the exit code (an ExitCode).
     */
    virtual int run(const CommandContext& context, std::ostream& out, std::ostream& err) = 0;

protected:
    Command() = default;
    Command(const Command&) = delete;
    Command& operator=(const Command&) = delete;
};

/** Creates one command, registering its subcommand on \a app. */
using CommandFactory = std::unique_ptr<Command> (*)(CLI::App& app);

/** Returns the factory of every command of dctwin-cli, in the order --help lists them. */
const std::vector<CommandFactory>& commandTable();

} // namespace dct::cli
