#include "dct/cli/sweepcommand.h"

#include "dct/cli/cli.h"
#include "dct/cli/sweepmergecommand.h"
#include "dct/model/catalog.h"
#include "dct/model/scenarioio.h"
#include "dct/study/sweeprunner.h"
#include "sweepoutput.h"

#include <CLI/CLI.hpp>
#include <cmath>
#include <fmt/format.h>
#include <fstream>
#include <ostream>
#include <sstream>
#include <unistd.h>

namespace dct::cli {

namespace {

std::string shortCount(double n)
{
    if (n >= 1e6)
        return fmt::format("{:.2f}M", n / 1e6);
    if (n >= 1e4)
        return fmt::format("{:.1f}k", n / 1e3);
    return fmt::format("{:.0f}", n);
}

std::string duration(double seconds)
{
    if (!std::isfinite(seconds) || seconds < 0)
        return "--:--";
    const auto s = static_cast<long long>(std::llround(seconds));
    if (s >= 3600)
        return fmt::format("{}:{:02}:{:02}", s / 3600, (s / 60) % 60, s % 60);
    return fmt::format("{}:{:02}", s / 60, s % 60);
}

} // namespace

SweepCommand::SweepCommand(CLI::App& app)
{
    m_sweep = app.add_subcommand(
        "sweep", "Evaluate every variant of a sweep spec (grid of JSON-pointer fields) on all "
                 "cores; one row per variant");
    m_sweep->add_option("spec", m_spec, "Sweep spec JSON file")->required();
    m_sweep->add_option("-f,--format", m_format, "Row format: csv or jsonl")
        ->check(CLI::IsMember({"csv", "jsonl"}));
    m_sweep->add_option("-o,--output", m_output,
                        "Output file (written atomically); stdout if "
                        "absent");
    m_sweep->add_option("--shard", m_shard,
                        "Run part i of N (0 <= i < N), e.g. --shard "
                        "$SLURM_ARRAY_TASK_ID/$SLURM_ARRAY_TASK_COUNT");
    m_sweep->add_option("-j,--threads", m_threads, "Threads (default: all cores)");
    m_sweep->add_option("--pareto", m_pareto,
                        "Also write the rows on the Pareto front of the spec's objectives here");
    m_sweep->add_option("--merge", m_parts,
                        "Instead of running, join these shard outputs (as sweep-merge)");
    m_sweep->add_flag("-q,--quiet", m_quiet, "No progress bar and no summary");
    m_sweep->add_flag("--progress", m_progress,
                      "Show the progress bar even when stderr is not "
                      "a terminal");
}

CLI::App* SweepCommand::subcommand() const
{
    return m_sweep;
}

int SweepCommand::run(const CommandContext& context, std::ostream& out, std::ostream& err)
{
    if (!m_parts.empty())
        return mergeSweepShards({m_parts, m_output, m_spec, m_pareto, context.catalogDirectory},
                                out, err);
    auto spec = study::readSweepSpecFile(m_spec);
    if (!spec) {
        printSweepError(err, spec.error());
        return ExitUsage;
    }
    study::SweepShard shard;
    if (!m_shard.empty()) {
        auto parsedShard = study::SweepShard::parse(m_shard);
        if (!parsedShard) {
            printSweepError(err, parsedShard.error());
            return ExitUsage;
        }
        shard = *parsedShard;
    }
    auto runner = prepareSweepRunner(m_spec, *spec, context.catalogDirectory, err);
    if (!runner)
        return ExitUsage;

    study::SweepRunOptions options;
    options.shard = shard;
    options.threads = m_threads;
    const bool bar = !m_quiet && (m_progress || ::isatty(STDERR_FILENO));
    const auto started = std::chrono::steady_clock::now();
    if (bar)
        options.progress = [&](std::uint64_t done, std::uint64_t total) {
            const double elapsed =
                std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
            const double rate = elapsed > 0 ? static_cast<double>(done) / elapsed : 0.0;
            const double left = rate > 0 ? static_cast<double>(total - done) / rate : NAN;
            const double share =
                total ? static_cast<double>(done) / static_cast<double>(total) : 1.0;
            constexpr int width = 30;
            const int filled = static_cast<int>(share * width);
            err << "\r[" << std::string(static_cast<std::size_t>(filled), '#')
                << std::string(static_cast<std::size_t>(width - filled), '.') << "] "
                << fmt::format("{:5.1f}%  {}/{}  {}/s  {} left   ", share * 100.0,
                               shortCount(static_cast<double>(done)),
                               shortCount(static_cast<double>(total)), shortCount(rate),
                               duration(left))
                << std::flush;
        };
    const auto format = m_format == "jsonl" ? study::SweepFormat::Jsonl : study::SweepFormat::Csv;
    study::SweepSummary summary;
    auto written = writeSweepOutput(m_output, out, [&](std::ostream& stream) {
        summary = runner->run(options, format, stream);
    });
    if (bar)
        err << "\n";
    if (!written) {
        printSweepError(err, written.error());
        return ExitUsage;
    }
    if (!m_pareto.empty()) {
        auto front = writeSweepOutput(m_pareto, out, [&](std::ostream& stream) {
            stream << runner->header(format);
            for (const auto& row : summary.paretoRows)
                stream << row;
        });
        if (!front) {
            printSweepError(err, front.error());
            return ExitUsage;
        }
    }
    if (!m_quiet) {
        const double rate =
            summary.seconds > 0 ? static_cast<double>(summary.variants) / summary.seconds : 0.0;
        err << fmt::format("sweep: {} variants{} in {:.2f} s ({}/s): {} rows, {} filtered out, "
                           "{} failed",
                           summary.variants,
                           shard.count > 1 ? fmt::format(" (shard {}/{} of {})", shard.index,
                                                         shard.count, runner->variantCount())
                                           : std::string(),
                           summary.seconds, shortCount(rate), summary.written, summary.filteredOut,
                           summary.failed);
        if (spec->objectives.size() >= 2)
            err << fmt::format(", {} on the Pareto front{}", summary.paretoRows.size(),
                               shard.count > 1 ? " of this shard" : "");
        err << "\n";
    }
    return summary.failed > 0 ? ExitEvaluation : ExitOk;
}

} // namespace dct::cli
