#pragma once

#include "dct/cli/command.h"

#include <iosfwd>
#include <string>
#include <vector>

namespace dct::cli {

/** What a merge of sharded sweep outputs reads and writes. */
struct SweepMergeRequest
{
    std::vector<std::string> parts; ///< The shard outputs.
    std::string output;             ///< The merged output file; stdout when empty.
    std::string spec;               ///< The sweep spec, for the Pareto front; may be empty.
    std::string pareto;             ///< Where to write the Pareto front; not written when empty.
    std::string catalogDirectory;   ///< For objectives whose goal comes from their metric.
};

/**
 * Joins the shard outputs of \a request into exactly the unsharded output (and its Pareto front
 * when asked). Returns the exit code. `sweep-merge` and `sweep --merge` both run it.
 */
int mergeSweepShards(const SweepMergeRequest& request, std::ostream& out, std::ostream& err);

/** The `sweep-merge` subcommand: joins the outputs of sharded sweeps. */
class SweepMergeCommand : public Command
{
public:
    /** Registers `sweep-merge` and its options on \a app. */
    explicit SweepMergeCommand(CLI::App& app);

    /** Returns the `sweep-merge` subcommand. */
    CLI::App* subcommand() const override;
    /** Runs it and returns the exit code. */
    int run(const CommandContext& context, std::ostream& out, std::ostream& err) override;

private:
    CLI::App* m_subcommand = nullptr;
    SweepMergeRequest m_request;
};

} // namespace dct::cli
