#pragma once

#include "dct/cli/command.h"

#include <iosfwd>
#include <string>
#include <vector>

namespace dct::cli {

/**
 * The `sweep` subcommand: evaluates the grid of a sweep spec on every core (optionally one shard
 * of it); with --merge, joins shard outputs instead, as `sweep-merge` does.
 */
class SweepCommand : public Command
{
public:
    /** Registers `sweep` and its options on \a app. */
    explicit SweepCommand(CLI::App& app);

    /** Returns the `sweep` subcommand. */
    CLI::App* subcommand() const override;
    /** Runs the sweep (or the merge) and returns the exit code. */
    int run(const CommandContext& context, std::ostream& out, std::ostream& err) override;

private:
    CLI::App* m_sweep = nullptr;
    std::string m_spec;
    std::string m_format = "csv";
    std::string m_precision = "display";
    std::string m_output;
    std::string m_pareto;
    std::string m_shard;
    std::vector<std::string> m_parts;
    unsigned m_threads = 0;
    bool m_quiet = false;
    bool m_feasibleOnly = false;
    bool m_progress = false;
    bool m_force = false;
};

} // namespace dct::cli
