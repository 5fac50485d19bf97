#pragma once

#include "dct/cli/command.h"

#include <iosfwd>
#include <string>

namespace dct::cli {

/**
 * The `topology` subcommand: the fabric of a scenario, its counts per tier, cables, power and
 * cost, checked against the explicit graph (max-flow bisection, BFS hops, failure what-ifs);
 * optionally its Graphviz DOT and an NCCL environment for its rails.
 */
class TopologyCommand : public Command
{
public:
    /** Registers `topology` on \a app. */
    explicit TopologyCommand(CLI::App& app);

    /** Returns the `topology` subcommand. */
    CLI::App* subcommand() const override;
    /** Runs it and returns the exit code. */
    int run(const CommandContext& context, std::ostream& out, std::ostream& err) override;

private:
    CLI::App* m_command = nullptr;
    std::string m_file;
    std::string m_dotPath;
    std::string m_format = "table";
    bool m_ncclEnv = false;
    bool m_noGraph = false;
};

} // namespace dct::cli
