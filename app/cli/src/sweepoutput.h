#pragma once

// Helpers shared by the `sweep` and `sweep-merge` commands (private to dct_cli).

#include "dct/model/atomicfile.h"
#include "dct/model/catalog.h"
#include "dct/model/scenarioio.h"
#include "dct/study/sweeprunner.h"

#include <atomic>
#include <csignal>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <ostream>
#include <string>

namespace dct::cli {

/**
 * Most variants one sweep run evaluates without --force: about the rows a spreadsheet opens
 * (Excel holds 1,048,576 rows a sheet; Microsoft, "Excel specifications and limits"). More is a
 * job for --shard over a cluster, or a deliberate --force.
 */
inline constexpr std::uint64_t maxVariantsWithoutForce = 1'000'000;
/**
 * Most bytes one sweep run writes without --force (estimated before it starts): 2 GB, a
 * thousandfold the ~2 MB of the bundled example sweep, and a size that still fits in memory
 * when a notebook loads it.
 */
inline constexpr std::uint64_t maxOutputBytesWithoutForce = 2'000'000'000;

/** The signal (SIGINT, SIGTERM) that asked a running sweep or merge to stop; 0 when none. */
inline std::atomic<int> sweepStopSignal{0};
static_assert(std::atomic<int>::is_always_lock_free, "the signal handler stores to it");

extern "C" inline void onSweepStopSignal(int signal)
{
    sweepStopSignal.store(signal);
}

/**
 * While it lives, SIGINT and SIGTERM only set sweepStopSignal: the sweep stops its workers,
 * the atomic writer removes its temporary file, and the command exits 128 + the signal (130,
 * 143). A SIGINT that the caller ignores (a background job of a shell) stays ignored.
 */
class SweepStopGuard
{
public:
    SweepStopGuard()
    {
        sweepStopSignal.store(0);
        struct sigaction action = {};
        action.sa_handler = onSweepStopSignal;
        sigemptyset(&action.sa_mask);
        action.sa_flags = 0;
        for (std::size_t i = 0; i < 2; ++i) {
            ::sigaction(signals[i], nullptr, &m_previous[i]);
            m_installed[i] = !(signals[i] == SIGINT && m_previous[i].sa_handler == SIG_IGN);
            if (m_installed[i])
                ::sigaction(signals[i], &action, nullptr);
        }
    }
    ~SweepStopGuard()
    {
        for (std::size_t i = 0; i < 2; ++i)
            if (m_installed[i])
                ::sigaction(signals[i], &m_previous[i], nullptr);
    }
    SweepStopGuard(const SweepStopGuard&) = delete;
    SweepStopGuard& operator=(const SweepStopGuard&) = delete;

    /** Returns true once a stop signal arrived. */
    static bool stopped() { return sweepStopSignal.load() != 0; }
    /** Returns the exit code of a stopped command: 128 + the signal. */
    static int exitCode() { return 128 + sweepStopSignal.load(); }
    /** Returns the signal's name. */
    static const char* signalName()
    {
        return sweepStopSignal.load() == SIGTERM ? "SIGTERM" : "SIGINT";
    }

private:
    static constexpr int signals[2] = {SIGINT, SIGTERM};
    struct sigaction m_previous[2] = {};
    bool m_installed[2] = {false, false};
};

/** Thrown inside writeSweepOutput's writer to abandon the output (its temporary file goes). */
struct SweepOutputAbandoned
{
    std::optional<Error> error; ///< Why, or nothing when a stop signal asked for it.
};

/** Prints \a error to \a err as a dctwin-cli error line. */
inline void printSweepError(std::ostream& err, const Error& error)
{
    err << "dctwin-cli: error: " << error.toString() << "\n";
}

/**
 * Prepares the sweep of \a spec (read from \a specFile): loads the catalog from
 * \a catalogDirectory (the default when empty), reads the base scenario and resolves it. Prints
 * what went wrong to \a err and returns nothing on failure.
 */
inline std::optional<study::SweepRunner> prepareSweepRunner(const std::string& specFile,
                                                            const study::SweepSpec& spec,
                                                            const std::string& catalogDirectory,
                                                            std::ostream& err)
{
    auto catalog =
        model::Catalog::load(catalogDirectory.empty() ? model::Catalog::defaultDirectory()
                                                      : std::filesystem::path(catalogDirectory));
    if (!catalog) {
        printSweepError(err, catalog.error());
        return std::nullopt;
    }
    auto base = model::readScenarioFile(spec.base);
    if (!base.scenario || base.diagnostics.hasErrors()) {
        err << "dctwin-cli: error: " << specFile << ": /base: the base scenario "
            << spec.base.string() << " cannot be read\n";
        for (const auto& d : base.diagnostics)
            err << d.toString() << "\n";
        return std::nullopt;
    }
    auto runner = study::SweepRunner::create(spec, *base.scenario, *catalog);
    if (!runner) {
        printSweepError(err, runner.error());
        return std::nullopt;
    }
    return std::move(*runner);
}

/**
 * Writes the text that \a write produces to \a path atomically, or to \a out when it is empty.
 * \a write may throw SweepOutputAbandoned: nothing is left at \a path (the exception goes on).
 */
template <class F>
Result<void> writeSweepOutput(const std::string& path, std::ostream& out, F&& write)
{
    if (path.empty()) {
        write(out);
        return {};
    }
    // Beside the target, renamed at the end: a killed job leaves no half file that looks
    // finished, and the next run writing the target removes it.
    return writeFileAtomically(path, [&write](std::ostream& file) { write(file); });
}

} // namespace dct::cli
