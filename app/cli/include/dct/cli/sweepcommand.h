#pragma once

#include <iosfwd>
#include <string>
#include <vector>

namespace CLI {
class App;
}

namespace dct::cli {

/**
 * The `sweep` and `sweep-merge` subcommands: evaluate the grid of a sweep spec on every core
 * (optionally one shard of it) and join shard outputs into the unsharded result.
 */
class SweepCommand
{
public:
    /** Registers `sweep` and `sweep-merge` on \a app. */
    explicit SweepCommand(CLI::App& app);

    /** Returns true when the command line chose `sweep` or `sweep-merge`. */
    bool parsed() const;
    /** Runs the chosen subcommand; \a catalogDir is the --catalog option (may be empty). */
    int run(const std::string& catalogDir, std::ostream& out, std::ostream& err);

private:
    int runSweep(const std::string& catalogDir, std::ostream& out, std::ostream& err);
    int runMerge(std::ostream& out, std::ostream& err);

    CLI::App* m_sweep = nullptr;
    CLI::App* m_mergeCommand = nullptr;
    std::string m_spec;
    std::string m_format = "csv";
    std::string m_output;
    std::string m_pareto;
    std::string m_shard;
    std::vector<std::string> m_parts;
    unsigned m_threads = 0;
    bool m_quiet = false;
    bool m_progress = false;
};

} // namespace dct::cli
