#pragma once

#include <iosfwd>
#include <string>

namespace CLI {
class App;
}

namespace dct::cli {

/**
 * The `topology` subcommand: the fabric of a scenario, its counts per tier, cables, power and
 * cost, checked against the explicit graph (max-flow bisection, BFS hops, failure what-ifs);
 * optionally its Graphviz DOT and an NCCL environment for its rails.
 */
class TopologyCommand
{
public:
    /** Registers `topology` on \a app. */
    explicit TopologyCommand(CLI::App& app);

    /** Returns true when the command line chose `topology`. */
    bool parsed() const;
    /** Runs it; \a catalogDir is the --catalog option (may be empty). Returns the exit code. */
    int run(const std::string& catalogDir, std::ostream& out, std::ostream& err);

private:
    CLI::App* m_command = nullptr;
    std::string m_file;
    std::string m_dotPath;
    std::string m_format = "table";
    bool m_ncclEnv = false;
    bool m_noGraph = false;
};

} // namespace dct::cli
