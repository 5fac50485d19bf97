#include "dct/cli/sweepmergecommand.h"

#include "dct/cli/cli.h"
#include "dct/study/sweepmerge.h"
#include "dct/study/sweepspec.h"
#include "sweepoutput.h"

#include <CLI/CLI.hpp>
#include <algorithm>
#include <filesystem>
#include <ostream>

namespace dct::cli {

int mergeSweepShards(const SweepMergeRequest& request, std::ostream& out, std::ostream& err)
{
    std::vector<std::filesystem::path> parts(request.parts.begin(), request.parts.end());
    auto merged = study::mergeSweepParts(parts);
    if (!merged) {
        printSweepError(err, merged.error());
        return ExitUsage;
    }
    if (!request.pareto.empty() && request.spec.empty()) {
        err << "dctwin-cli: error: --pareto needs --spec (the objectives come from the spec)\n";
        return ExitUsage;
    }
    auto written = writeSweepOutput(request.output, out, [&](std::ostream& stream) {
        stream << merged->header;
        for (const auto& row : merged->rows)
            stream << row.second;
    });
    if (!written) {
        printSweepError(err, written.error());
        return ExitUsage;
    }
    if (!request.pareto.empty()) {
        auto spec = study::readSweepSpecFile(request.spec);
        if (!spec) {
            printSweepError(err, spec.error());
            return ExitUsage;
        }
        std::vector<study::SweepObjective> objectives = spec->objectives;
        if (std::any_of(objectives.begin(), objectives.end(),
                        [](const auto& o) { return !o.goalGiven; })) {
            // A goal left out goes the way the metric declares: prepare the sweep (it evaluates
            // the base once) as `sweep` did, so both fronts agree.
            auto runner = prepareSweepRunner(request.spec, *spec, request.catalogDirectory, err);
            if (!runner)
                return ExitUsage;
            objectives = runner->objectives();
        }
        auto front = study::paretoRows(*merged, objectives);
        if (!front) {
            Error error = front.error();
            error.file = request.spec;
            printSweepError(err, error);
            return ExitUsage;
        }
        auto frontWritten = writeSweepOutput(request.pareto, out, [&](std::ostream& stream) {
            stream << merged->header;
            for (const auto& row : *front)
                stream << row;
        });
        if (!frontWritten) {
            printSweepError(err, frontWritten.error());
            return ExitUsage;
        }
    }
    return ExitOk;
}

SweepMergeCommand::SweepMergeCommand(CLI::App& app)
{
    m_subcommand = app.add_subcommand(
        "sweep-merge", "Join the outputs of sharded sweeps into exactly the unsharded output");
    m_subcommand->add_option("parts", m_request.parts, "Shard outputs")->required();
    m_subcommand->add_option("-o,--output", m_request.output, "Output file; stdout if absent");
    m_subcommand->add_option("--spec", m_request.spec,
                             "The sweep spec, to compute the Pareto front of the whole sweep");
    m_subcommand->add_option("--pareto", m_request.pareto,
                             "Write the Pareto front here (needs --spec)");
}

CLI::App* SweepMergeCommand::subcommand() const
{
    return m_subcommand;
}

int SweepMergeCommand::run(const CommandContext&, std::ostream& out, std::ostream& err)
{
    return mergeSweepShards(m_request, out, err);
}

} // namespace dct::cli
