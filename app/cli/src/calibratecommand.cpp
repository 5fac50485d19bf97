#include "dct/cli/calibratecommand.h"

#include "dct/cli/cli.h"
#include "dct/cli/scenariofile.h"
#include "dct/model/calibrationprofile.h"
#include "dct/model/jsonread.h"
#include "dct/model/nccltestslog.h"
#include "dct/model/scenarioio.h"
#include "dct/model/textformat.h"
#include "dct/solvers/collectivecalibration.h"
#include "dct/solvers/documentevaluation.h"
#include "dct/solvers/modelversion.h"
#include "dct/solvers/nccltuner.h"
#include "dct/store/scenariostore.h"

#include <CLI/CLI.hpp>
#include <chrono>
#include <cmath>
#include <ctime>
#include <fmt/format.h>
#include <optional>
#include <ostream>

namespace dct::cli {

using nlohmann::json;

namespace {

void printError(std::ostream& err, const Error& error)
{
    err << "dctwin-cli: error: " << error.toString() << "\n";
}

/** Returns \a bytes as nccl-tests sizes read: "8 B", "64 KiB", "8 GiB". */
std::string sizeText(double bytes)
{
    const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
    int unit = 0;
    while (bytes >= 1024.0 && unit < 4 && std::fmod(bytes, 1024.0) == 0.0) {
        bytes /= 1024.0;
        ++unit;
    }
    return fmt::format("{:g} {}", bytes, units[unit]);
}

std::string utcNow()
{
    const std::time_t now = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
    std::tm tm{};
    gmtime_r(&now, &tm);
    char text[32];
    std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &tm);
    return text;
}

std::string systemText(const model::CalibrationSystem& s)
{
    return fmt::format("{} GPUs ({} per node) of {}, {} rails of {}, switch {}, {}, {}", s.gpus,
                       s.gpusPerNode, s.gpu, s.rails, s.nic, s.fabricSwitch, s.protocol,
                       s.topology);
}

} // namespace

CalibrateCommand::CalibrateCommand(CLI::App& app)
{
    m_subcommand = app.add_subcommand(
        "calibrate", "Fit the collectives engine to measured runs and store the fit as a "
                     "calibration profile in the scenario library");
    m_subcommand->require_subcommand(1);
    m_ncclTests = m_subcommand->add_subcommand(
        "nccl-tests", "Fit to the standard output of all_reduce_perf, all_gather_perf, "
                      "reduce_scatter_perf, alltoall_perf or sendrecv_perf");
    m_ncclTests->add_option("logs", m_logs, "nccl-tests logs of the system the scenario describes")
        ->required();
    m_ncclTests->add_option("-s,--scenario", m_scenario, "Scenario file of the measured system")
        ->required();
    m_ncclTests->add_option("-n,--name", m_name,
                            "Name of the profile (default: the scenario file's stem)");
    m_ncclTests->add_option("--store", m_store,
                            "Store file (default: $DCT_STORE, else "
                            "$XDG_DATA_HOME/dctwin/scenarios.sqlite or "
                            "~/.local/share/dctwin/scenarios.sqlite)");
    m_ncclTests->add_option("-f,--format", m_format, "Output format: text or json")
        ->check(CLI::IsMember({"text", "json"}));
    m_ncclTests
        ->add_option("--nccl-choice", m_ncclChoice,
                     "What is timed at each size: the engine's fastest algorithm and protocol "
                     "(engine) or what the logs' NCCL release's tuner picks (release)")
        ->check(CLI::IsMember({"engine", "release"}));
}

CLI::App* CalibrateCommand::subcommand() const
{
    return m_subcommand;
}

int CalibrateCommand::run(const CommandContext& context, std::ostream& out, std::ostream& err)
{
    auto catalog = loadCatalog(context.catalogDirectory, err);
    if (!catalog)
        return ExitUsage;

    // The measured system: the scenario, evaluated uncalibrated (the fit starts from the
    // published engine, whatever profile the scenario names).
    auto read = model::readScenarioFile(m_scenario);
    if (!read.scenario || read.diagnostics.hasErrors()) {
        for (const auto& d : read.diagnostics)
            err << d.toString() << "\n";
        return ExitUsage;
    }
    model::Scenario scenario = *read.scenario;
    scenario.network.calibrationProfile.clear();
    const solvers::DocumentEvaluation document =
        solvers::evaluateScenario(scenario, *catalog, m_scenario);
    if (!document.evaluated() || !document.resolved) {
        for (const auto& d : document.diagnostics)
            err << d.toString() << "\n";
        return ExitUsage;
    }
    const model::ResolvedScenario& resolved = *document.resolved;
    const model::CalibrationSystem system = model::CalibrationSystem::of(resolved);

    // The logs: each of one collective on the scenario's GPUs, all from one NCCL release when
    // they name it.
    std::vector<solvers::MeasuredCollective> measured;
    std::optional<model::NcclVersion> release;
    std::string releaseFile;
    for (const auto& file : m_logs) {
        auto log = model::readNcclTestsLog(file);
        if (!log) {
            printError(err, log.error());
            return ExitUsage;
        }
        if (log->gpus() != system.gpus || log->gpusPerNode() != system.gpusPerNode) {
            printError(
                err,
                Error{file, "",
                      fmt::format("line {}: the run has {} GPUs ({} nodes of {}), the "
                                  "scenario {} has {} ({} per node)",
                                  log->devices.front().line, log->gpus(), log->nodes(),
                                  log->gpusPerNode(), m_scenario, system.gpus, system.gpusPerNode),
                      "logs of the system the scenario describes (/compute/node_count and "
                      "/compute/gpus_per_node)"});
            return ExitUsage;
        }
        if (log->ncclVersion) {
            if (release && release->text() != log->ncclVersion->text()) {
                printError(err, Error{file, "",
                                      fmt::format("line {}: NCCL {}, but {} ran NCCL {}",
                                                  log->ncclVersion->line, log->ncclVersion->text(),
                                                  releaseFile, release->text()),
                                      "logs of one NCCL release (fit each release apart)"});
                return ExitUsage;
            }
            release = log->ncclVersion;
            releaseFile = file;
        }
        const auto sizes = solvers::measuredCollectives(*log);
        measured.insert(measured.end(), sizes.begin(), sizes.end());
    }

    // NCCL's choice as the logs' release made it, where its tuner is restated; else the
    // engine's fastest (docs/collectives.md, "NCCL's choice by release").
    const bool byRelease = m_ncclChoice == "release" && release &&
                           solvers::hasNcclTuner(*release) &&
                           scenario.network.allReduceAlgorithm == model::CollectiveChoice::Auto;
    auto fit = solvers::fitCollectiveCalibration(
        measured, document.evaluation->network.worldInputs,
        byRelease
            ? solvers::ncclReleaseCollectiveTimer(*release, scenario.network.allReduceAlgorithm)
            : solvers::scenarioCollectiveTimer(scenario.network.allReduceAlgorithm));
    if (!fit) {
        printError(err, fit.error());
        return ExitUsage;
    }

    model::CalibrationProfile profile;
    profile.name =
        m_name.empty() ? std::filesystem::path(m_scenario).stem().string() : std::string(m_name);
    profile.createdAt = utcNow();
    for (const auto& file : m_logs)
        profile.logs.push_back(std::filesystem::path(file).filename().string());
    profile.system = system;
    profile.factors = fit->factors;
    // How the sizes were timed, so that eval times them the same way.
    if (byRelease)
        profile.timing.choice = model::CalibrationTiming::Choice::NcclRelease;
    if (release) {
        profile.timing.ncclMajor = release->major;
        profile.timing.ncclMinor = release->minor;
        profile.timing.ncclPatch = release->patch;
    }
    profile.fitted = fit->fitted;
    profile.relativeError = fit->relativeError;
    profile.rmsResidualPercent = fit->rmsResidualPercent;
    profile.modelVersion = solvers::modelVersion;
    profile.points = fit->points;
    const json profileJson = model::calibrationProfileJson(profile);

    // Stored before printing, so that the output says where it went.
    const std::filesystem::path storePath =
        m_store.empty() ? store::ScenarioStore::defaultPath() : std::filesystem::path(m_store);
    store::StoreOpenOptions options;
    options.seedDirectory = model::Catalog::dataDirectory() / "examples";
    auto opened = store::ScenarioStore::open(storePath, options);
    if (!opened) {
        printError(err, opened.error());
        return ExitUsage;
    }
    if (auto saved = opened->saveCalibrationProfile(profile.name, profileJson.dump(2)); !saved) {
        printError(err, saved.error());
        return ExitUsage;
    }

    // The "within 5%" read both ways: rms over the sizes and the largest size.
    constexpr double target = 5.0;
    std::size_t worst = 0;
    int within = 0;
    int noisy = 0;
    for (std::size_t i = 0; i < fit->points.size(); ++i) {
        const double r = std::fabs(fit->points[i].residualPercent());
        if (r > std::fabs(fit->points[worst].residualPercent()))
            worst = i;
        if (r <= target)
            ++within;
        if (solvers::measurementSpread(measured[i]) * 100.0 > target)
            ++noisy;
    }
    const double maxResidual =
        fit->points.empty() ? 0.0 : std::fabs(fit->points[worst].residualPercent());
    std::string choice;
    if (byRelease)
        choice = fmt::format("the algorithm and protocol NCCL {}'s tuner picks (line {} of {})",
                             release->text(), release->line, releaseFile);
    else if (!release)
        choice = "the engine's fastest (the logs do not name their NCCL release)";
    else if (m_ncclChoice == "engine")
        choice = fmt::format("the engine's fastest (the logs ran NCCL {}{})", release->text(),
                             solvers::hasNcclTuner(*release)
                                 ? "; --nccl-choice release times its tuner's picks"
                                 : "");
    else if (!solvers::hasNcclTuner(*release))
        choice =
            fmt::format("the engine's fastest (NCCL {}'s tuner is not restated)", release->text());
    else
        choice = "the engine's fastest (the scenario pins the all-reduce algorithm)";

    if (m_format == "json") {
        json result = profileJson;
        result["uncalibrated_rms_residual_percent"] = fit->uncalibratedRmsResidualPercent;
        result["max_abs_residual_percent"] = maxResidual;
        result["sizes_within_5_percent"] = within;
        result["sizes_noisier_than_5_percent"] = noisy;
        result["nccl_version"] = release ? json(release->text()) : json(nullptr);
        result["choice"] = byRelease ? "nccl_release" : "engine";
        result["store"] = storePath.string();
        out << model::jsonText(result) << "\n";
        return ExitOk;
    }
    out << fmt::format("Calibration profile '{}' of {}\n", profile.name, m_scenario);
    out << fmt::format("System: {}\n", systemText(system));
    out << fmt::format("Fitted on {} sizes of {}\n", measured.size(),
                       fmt::join(profile.logs, ", "));
    out << fmt::format("Timed at each size: {}\n", choice);
    out << fmt::format("rms busbw residual: {:.2f}% (uncalibrated: {:.2f}%)\n",
                       fit->rmsResidualPercent, fit->uncalibratedRmsResidualPercent);
    if (!fit->points.empty())
        out << fmt::format("largest |residual|: {:.2f}% at {}; {} of {} sizes within {:g}%\n",
                           maxResidual, sizeText(fit->points[worst].bytes), within,
                           fit->points.size(), target);
    if (noisy > 0)
        out << fmt::format("{} sizes (marked *) time in place and out of place more than {:g}% "
                           "apart: the run itself repeats no better there; the faster of the "
                           "two is fitted, as at every size, and counts for less the further "
                           "apart they are\n",
                           noisy, target);
    out << "\n";
    out << fmt::format("{:<30}  {:>8}  {:>8}  {}\n", "Parameter", "Factor", "+/-", "");
    for (std::size_t i = 0; i < model::CollectiveCalibration::count; ++i) {
        if (fit->fitted[i])
            out << fmt::format("{:<30}  {:>8.4f}  {:>7.1f}%  fitted\n",
                               model::CollectiveCalibration::label(i), fit->factors.at(i),
                               fit->relativeError[i] * 100.0);
        else
            out << fmt::format("{:<30}  {:>8.4f}  {:>8}  held at {:g}: {}\n",
                               model::CollectiveCalibration::label(i), fit->factors.at(i), "",
                               model::CollectiveCalibration::heldValue(i),
                               fit->sensitive[i]
                                   ? "the sizes cannot tell it from the other parameters"
                                   : "no measured size depends on it");
    }
    out << fmt::format("\n{:<16}  {:>9}  {:>12}  {:>12}  {:>9}  {:>7}  {}\n", "Test", "Size",
                       "Measured", "Model", "Residual", "Spread", "Model's choice");
    out << fmt::format("{:<16}  {:>9}  {:>12}  {:>12}  {:>9}  {:>7}\n", "", "", "busbw GB/s",
                       "busbw GB/s", "", "");
    for (std::size_t i = 0; i < fit->points.size(); ++i) {
        const auto& pt = fit->points[i];
        const double spread = solvers::measurementSpread(measured[i]) * 100.0;
        out << fmt::format("{:<16}  {:>9}  {:>12.3f}  {:>12.3f}  {:>8.2f}%  {:>6.1f}%{} {}\n",
                           pt.test, sizeText(pt.bytes), pt.measuredBusbwGbytePerS,
                           pt.modelBusbwGbytePerS, pt.residualPercent(), spread,
                           spread > target ? "*" : " ", pt.algorithm);
    }
    out << fmt::format("\nStored as calibration profile '{}' in {}.\n", profile.name,
                       storePath.string());
    out << fmt::format("A scenario uses it with \"network\": {{\"calibration_profile\": \"{}\"}}"
                       " (eval and store eval read it from this store).\n",
                       profile.name);
    return ExitOk;
}

} // namespace dct::cli
