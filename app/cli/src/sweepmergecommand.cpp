#include "dct/cli/sweepmergecommand.h"

#include "dct/cli/cli.h"
#include "dct/study/sweepmerge.h"
#include "dct/study/sweepspec.h"
#include "sweepoutput.h"

#include <CLI/CLI.hpp>
#include <algorithm>
#include <filesystem>
#include <optional>
#include <ostream>

namespace dct::cli {

int mergeSweepShards(const SweepMergeRequest& request, std::ostream& out, std::ostream& err)
{
    // SIGINT and SIGTERM remove the temporary output (exit 130, 143); `sweep --merge` has one.
    const SweepStopGuard stopGuard;
    if (!request.pareto.empty() && request.spec.empty()) {
        err << "dctwin-cli: error: --pareto needs --spec (the objectives come from the spec)\n";
        return ExitUsage;
    }
    std::vector<std::filesystem::path> parts(request.parts.begin(), request.parts.end());
    auto merged = study::mergeSweepParts(parts);
    if (!merged) {
        printSweepError(err, merged.error());
        return ExitUsage;
    }
    std::optional<study::SweepSpec> spec;
    std::vector<study::SweepObjective> objectives;
    if (!request.spec.empty()) {
        auto read = study::readSweepSpecFile(request.spec);
        if (!read) {
            printSweepError(err, read.error());
            return ExitUsage;
        }
        spec = std::move(*read);
        // Prepared as `sweep` does (it evaluates the base once): the spec hash says whether the
        // parts are this spec's, and a goal left out goes the way the metric declares, so that
        // both fronts agree.
        auto runner = prepareSweepRunner(request.spec, *spec, request.catalogDirectory, err);
        if (!runner)
            return ExitUsage;
        if (runner->specHash() != merged->record.specHash) {
            printSweepError(err, Error{request.spec, "",
                                       "the parts were not written from this spec, its base "
                                       "scenario, catalog and model version (spec hash " +
                                           runner->specHash() + "; the parts' is " +
                                           merged->record.specHash + ")",
                                       "the spec the shards were run from"});
            return ExitUsage;
        }
        objectives = runner->objectives();
    }
    const auto stop = [] { return SweepStopGuard::stopped(); };
    std::optional<study::SweepPartRecord> mergedRecord;
    Result<void> written;
    try {
        written = writeSweepOutput(request.output, out, [&](std::ostream& stream) {
            auto record = merged->write(stream, stop);
            if (!record)
                throw SweepOutputAbandoned{
                    SweepStopGuard::stopped() ? std::nullopt : std::optional(record.error())};
            mergedRecord = std::move(*record);
        });
    } catch (const SweepOutputAbandoned& abandoned) {
        if (abandoned.error) {
            printSweepError(err, *abandoned.error);
            return ExitUsage;
        }
        err << "dctwin-cli: stopped by " << SweepStopGuard::signalName()
            << (request.output.empty()
                    ? std::string()
                    : "; " + request.output + " not written, its temporary file removed")
            << "\n";
        return SweepStopGuard::exitCode();
    }
    if (!written) {
        printSweepError(err, written.error());
        return ExitUsage;
    }
    if (!request.output.empty() && mergedRecord) {
        // The merged output is the whole sweep: shard 0/1, as the unsharded run records it.
        auto record = mergedRecord->writeBeside(request.output);
        if (!record) {
            printSweepError(err, record.error());
            return ExitUsage;
        }
    }
    if (!request.pareto.empty()) {
        auto front = study::paretoRows(*merged, objectives, spec && spec->paretoIncludeInfeasible);
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
        "sweep-merge",
        "Check that the parts are the shards of one sweep, each whole (their .shard.json "
        "records), and join them into exactly the unsharded output");
    m_subcommand->add_option("parts", m_request.parts, "Shard outputs (each with FILE.shard.json)")
        ->required();
    m_subcommand->add_option("-o,--output", m_request.output, "Output file; stdout if absent");
    m_subcommand->add_option("--spec", m_request.spec,
                             "The sweep spec: checked against the parts' spec hash; gives the "
                             "objectives of the Pareto front");
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
