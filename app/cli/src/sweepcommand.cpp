#include "dct/cli/sweepcommand.h"

#include "dct/cli/cli.h"
#include "dct/cli/sweepmergecommand.h"
#include "dct/model/catalog.h"
#include "dct/model/scenarioio.h"
#include "dct/solvers/siteyear.h"
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

/** Returns \a bytes as "41 kB", "3.1 GB" (decimal units). */
std::string byteSize(double bytes)
{
    static const char* units[] = {"bytes", "kB", "MB", "GB", "TB", "PB", "EB"};
    std::size_t unit = 0;
    while (bytes >= 1000.0 && unit + 1 < std::size(units)) {
        bytes /= 1000.0;
        ++unit;
    }
    if (unit > 0 && bytes < 10.0 && std::round(bytes * 10.0) != std::round(bytes) * 10.0)
        return fmt::format("{:.1f} {}", bytes, units[unit]);
    return fmt::format("{:.0f} {}", bytes, units[unit]);
}

/** "1234567" as "1,234,567". */
std::string grouped(std::uint64_t n)
{
    std::string digits = std::to_string(n);
    for (std::size_t at = digits.size(); at > 3; at -= 3)
        digits.insert(at - 3, ",");
    return digits;
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
    m_sweep
        ->add_option("--precision", m_precision,
                     "Digits of CSV metric values: display (the significant digits of the "
                     "table) or full (every digit, for machine reading; JSON lines always "
                     "keep every digit)")
        ->check(CLI::IsMember({"display", "full"}));
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
    m_sweep->add_flag("--feasible-only", m_feasibleOnly,
                      "Leave out infeasible variants (as \"feasible_only\": true in the spec)");
    m_sweep->add_flag("--progress", m_progress,
                      "Show the progress bar even when stderr is not "
                      "a terminal");
    m_sweep->add_flag("--force", m_force,
                      "Run even above 1,000,000 variants per run or an estimated 2 GB of output");
}

CLI::App* SweepCommand::subcommand() const
{
    return m_sweep;
}

int SweepCommand::run(const CommandContext& context, std::ostream& out, std::ostream& err)
{
    // SIGINT and SIGTERM stop the workers and remove the temporary output (exit 130, 143).
    const SweepStopGuard stopGuard;
    if (!m_parts.empty())
        return mergeSweepShards({m_parts, m_output, m_spec, m_pareto, context.catalogDirectory},
                                out, err);
    study::SweepShard shard;
    if (!m_shard.empty()) {
        auto parsedShard = study::SweepShard::parse(m_shard);
        if (!parsedShard) {
            printSweepError(err, parsedShard.error());
            return ExitUsage;
        }
        shard = *parsedShard;
        if (m_output.empty()) {
            err << "dctwin-cli: error: --shard needs -o FILE: the part's record (FILE.shard.json, "
                   "which sweep-merge checks) is written beside it\n";
            return ExitUsage;
        }
    }
    // The grid is counted before any axis is expanded: a spec over the cap costs no memory.
    study::SweepSpecLimits limits;
    if (!m_force) {
        limits.maxVariantsPerRun = maxVariantsWithoutForce;
        limits.shards = static_cast<std::uint64_t>(shard.count);
        limits.accepted = "at most " + grouped(maxVariantsWithoutForce) +
                          " variants per run: fewer values, more shards (--shard i/N), or "
                          "--force to run it anyway";
    }
    auto spec = study::readSweepSpecFile(m_spec, limits);
    if (!spec) {
        printSweepError(err, spec.error());
        return ExitUsage;
    }
    if (m_feasibleOnly)
        spec->feasibleOnly = true;
    auto runner = prepareSweepRunner(m_spec, *spec, context.catalogDirectory, err);
    if (!runner)
        return ExitUsage;
    const auto format = m_format == "jsonl" ? study::SweepFormat::Jsonl : study::SweepFormat::Csv;
    const auto precision =
        m_precision == "full" ? study::SweepPrecision::Full : study::SweepPrecision::Display;

    // What the run will write, said before it starts; over the cap it needs --force.
    const auto [firstVariant, endVariant] = runner->shardRange(shard);
    const std::uint64_t estimate = runner->estimateOutputBytes(format, shard, precision);
    const std::string what =
        fmt::format("{} variants{}", grouped(endVariant - firstVariant),
                    shard.count > 1 ? fmt::format(" (shard {} of {})", shard.toString(),
                                                  grouped(runner->variantCount()))
                                    : std::string());
    const std::string size =
        fmt::format("about {} of {}", byteSize(static_cast<double>(estimate)),
                    format == study::SweepFormat::Jsonl ? "JSON lines" : "CSV");
    if (!m_quiet)
        err << "sweep: " << what << ", " << size << "\n";
    if (!m_force && estimate > maxOutputBytesWithoutForce) {
        printSweepError(err, Error{m_spec, "",
                                   "the output would be " + size + " for " + what + ", more than " +
                                       byteSize(static_cast<double>(maxOutputBytesWithoutForce)),
                                   "fewer variants or metrics, more shards (--shard i/N), or "
                                   "--force to run it anyway"});
        return ExitUsage;
    }
    if (SweepStopGuard::stopped()) {
        err << "dctwin-cli: stopped by " << SweepStopGuard::signalName() << "\n";
        return SweepStopGuard::exitCode();
    }

    study::SweepRunOptions options;
    options.shard = shard;
    options.threads = m_threads;
    options.precision = precision;
    options.stop = [] { return SweepStopGuard::stopped(); };
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
    const solvers::SiteYearPathCounts pathsBefore = solvers::siteYearPathCounts();
    study::SweepSummary summary;
    Result<void> written;
    try {
        written = writeSweepOutput(m_output, out, [&](std::ostream& stream) {
            summary = runner->run(options, format, stream);
            if (summary.stopped)
                throw SweepOutputAbandoned{};
        });
    } catch (const SweepOutputAbandoned&) {
        if (bar)
            err << "\n";
        err << "dctwin-cli: stopped by " << SweepStopGuard::signalName() << " after "
            << grouped(summary.written) << " rows"
            << (m_output.empty() ? std::string()
                                 : "; " + m_output + " not written, its temporary file removed")
            << "\n";
        return SweepStopGuard::exitCode();
    }
    if (bar)
        err << "\n";
    if (!written) {
        printSweepError(err, written.error());
        return ExitUsage;
    }
    if (!m_output.empty()) {
        // Written once the output is whole: sweep-merge checks the part against it.
        auto record = runner->partRecord(shard, format, summary).writeBeside(m_output);
        if (!record) {
            printSweepError(err, record.error());
            return ExitUsage;
        }
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
        // Which path the site year took: the grouped climate states are the fast path.
        const solvers::SiteYearPathCounts paths = solvers::siteYearPathCounts();
        const solvers::SiteYearPathCounts since{paths.climateStates - pathsBefore.climateStates,
                                                paths.hourByHour - pathsBefore.hourByHour,
                                                paths.climateBins - pathsBefore.climateBins};
        err << "sweep: site year: " << solvers::siteYearPathText(since) << "\n";
    }
    return summary.failed > 0 ? ExitEvaluation : ExitOk;
}

} // namespace dct::cli
