#include "dct/solvers/documentevaluation.h"

#include "dct/model/resolver.h"
#include "dct/model/scenarioio.h"
#include "dct/solvers/finitecheck.h"

#include <algorithm>
#include <cstdio>
#include <exception>
#include <filesystem>
#include <functional>

namespace dct::solvers {

namespace {

/** Returns the factors of a profile as "launch x1.2, network bandwidth x0.91" (fitted only). */
std::string factorsText(const model::CalibrationProfile& p)
{
    std::string text;
    char buffer[64];
    for (std::size_t i = 0; i < model::CollectiveCalibration::count; ++i) {
        if (!p.fitted[i])
            continue;
        std::snprintf(buffer, sizeof buffer, " x%.3g", p.factors.at(i));
        text += (text.empty() ? "" : ", ") + std::string(model::CollectiveCalibration::label(i)) +
                buffer;
    }
    return text.empty() ? "no factor fitted" : text;
}

/**
 * Applies the calibration profile the scenario names, found through \a options: its factors go
 * to the collectives engine and the provenance of /network/calibration_profile says where they
 * came from. A profile that cannot be found or was fitted on another system is an error of that
 * field. Returns false on error.
 */
bool applyCalibrationProfile(model::ResolvedScenario& r, const EvaluateOptions& options,
                             Diagnostics& diagnostics,
                             std::optional<model::CalibrationProfile>& applied)
{
    const std::string& name = r.scenario.network.calibrationProfile;
    if (name.empty())
        return true;
    const std::string pointer = "/network/calibration_profile";
    const std::string accepted =
        "the name of a profile that `dctwin-cli calibrate nccl-tests --name NAME` stored in the "
        "scenario library (--store or DCT_STORE), or no calibration_profile";
    if (!options.calibrationProfile) {
        diagnostics.error(pointer,
                          "names the calibration profile '" + name +
                              "', but no scenario library is open to find it",
                          accepted, "calibration-profile-missing");
        return false;
    }
    auto profile = options.calibrationProfile(name);
    if (!profile) {
        diagnostics.error(pointer, profile.error().toString(),
                          profile.error().accepted.empty() ? accepted : std::string(),
                          "calibration-profile-missing");
        return false;
    }
    const std::string mismatch =
        model::calibrationMismatch(profile->system, model::CalibrationSystem::of(r));
    if (!mismatch.empty()) {
        diagnostics.error(pointer,
                          "the calibration profile '" + name +
                              "' was fitted on another system: " + mismatch,
                          "a profile calibrated on this scenario's GPUs and fabric "
                          "(dctwin-cli calibrate nccl-tests LOG --scenario THIS_FILE)",
                          "calibration-profile-mismatch");
        return false;
    }
    r.collectiveCalibration = profile->factors;
    r.collectiveTiming = profile->timing;
    r.appliedCalibrationProfile = name;
    std::string logs;
    for (const auto& log : profile->logs)
        logs += (logs.empty() ? "" : ", ") + std::filesystem::path(log).filename().string();
    char rms[32];
    std::snprintf(rms, sizeof rms, "%.2g%%", profile->rmsResidualPercent);
    r.provenance[pointer] = {model::Provenance::Origin::User,
                             "calibration profile '" + name + "' of the scenario library (" +
                                 factorsText(*profile) + "), fitted on " +
                                 (logs.empty() ? std::string("nccl-tests logs") : logs) +
                                 (profile->createdAt.empty() ? "" : " at " + profile->createdAt) +
                                 ", rms busbw residual " + rms + "; each collective timed with " +
                                 profile->timing.text() + ", as in the fit"};
    diagnostics.note(pointer,
                     "the collectives use the calibration profile '" + name + "' (" +
                         factorsText(*profile) + ", rms busbw residual " + rms + "), timed with " +
                         profile->timing.text(),
                     {}, "calibration-profile");
    applied = std::move(*profile);
    return true;
}

/** Returns "compute" for "/compute/node_count"; the root of a top-level key is the key. */
std::string sectionOf(const std::string& pointer)
{
    const std::size_t start = pointer.empty() || pointer[0] != '/' ? 0 : 1;
    const std::size_t end = pointer.find('/', start);
    return pointer.substr(start, end == std::string::npos ? std::string::npos : end - start);
}

/**
 * With fields in error, the evaluation still runs on the scenario as read (every field that
 * could not be read at its default), so that the limits the design breaks elsewhere (a
 * parallel layout the cluster cannot hold, a switch with too few ports) come out in the same
 * pass. Its errors are kept where they are independent of the fields in error: not in a section
 * holding one, and none at all when the cluster itself (/compute, /network) or the site is in
 * error, since every figure follows from those. The evaluation itself is not kept.
 */
void addIndependentEvaluationErrors(DocumentEvaluation& result, model::ResolveResult& resolved,
                                    const std::vector<std::string>& broken,
                                    const EvaluateOptions& options)
{
    if (!resolved.resolved || resolved.diagnostics.hasErrors() ||
        !result.scenario->network.calibrationProfile.empty())
        return;
    std::vector<std::string> sections;
    for (const auto& path : broken) {
        const std::string section = sectionOf(path);
        if (section.empty() || section == "compute" || section == "network" || section == "site" ||
            section == "schema_version")
            return;
        sections.push_back(section);
    }
    const Evaluation evaluation = evaluate(*resolved.resolved, options);
    for (const auto& d : evaluation.diagnostics) {
        if (d.severity != Severity::Error)
            continue;
        const std::string section = sectionOf(d.path);
        if (std::find(sections.begin(), sections.end(), section) != sections.end())
            continue;
        const bool duplicate = std::any_of(
            result.diagnostics.begin(), result.diagnostics.end(),
            [&](const Diagnostic& x) { return x.path == d.path && x.message == d.message; });
        if (!duplicate)
            result.diagnostics.add(d);
    }
}

/** Resolves and evaluates the scenario of \a result; the read diagnostics are already in it. */
void resolveAndEvaluate(DocumentEvaluation& result, const model::Catalog& catalog,
                        const EvaluateOptions& options)
{
    if (!result.scenario)
        return;
    if (result.diagnostics.hasErrors()) {
        // Every error at once: a field that cannot be read leaves its default, and the catalog
        // ids are still looked up, so that an unknown id shows beside the bad value instead of
        // after it is fixed. Nothing is evaluated; a finding about a field already in error is
        // left out.
        auto resolved = model::resolveScenario(*result.scenario, catalog, result.origin);
        std::vector<std::string> broken;
        for (const auto& d : result.diagnostics)
            if (d.severity == Severity::Error)
                broken.push_back(d.path);
        for (const auto& d : resolved.diagnostics) {
            if (d.severity != Severity::Error)
                continue;
            const bool known = std::any_of(broken.begin(), broken.end(), [&](const auto& path) {
                return d.path.rfind(path, 0) == 0 || path.rfind(d.path, 0) == 0;
            });
            if (!known)
                result.diagnostics.add(d);
        }
        addIndependentEvaluationErrors(result, resolved, broken, options);
        return;
    }
    auto resolved = model::resolveScenario(*result.scenario, catalog, result.origin);
    result.diagnostics.append(resolved.diagnostics);
    if (!resolved.resolved || resolved.diagnostics.hasErrors())
        return;
    if (!applyCalibrationProfile(*resolved.resolved, options, result.diagnostics,
                                 result.calibration))
        return;
    result.resolved = std::move(resolved.resolved);
    result.evaluation = evaluate(*result.resolved, options);
    checkFiniteMetrics(*result.evaluation);
    result.diagnostics.append(result.evaluation->diagnostics);
}

/** Runs \a read, then resolves and evaluates; any exception becomes an error diagnostic. */
DocumentEvaluation run(const std::string& origin, const model::Catalog& catalog,
                       const EvaluateOptions& options,
                       const std::function<model::ScenarioReadResult()>& read)
{
    DocumentEvaluation result;
    result.origin = origin;
    try {
        auto document = read();
        result.diagnostics.append(document.diagnostics);
        result.scenario = std::move(document.scenario);
        resolveAndEvaluate(result, catalog, options);
    } catch (const std::exception& e) {
        result.resolved.reset();
        result.evaluation.reset();
        result.diagnostics.error("", std::string("evaluation failed: ") + e.what(), {}, "internal");
    }
    result.diagnostics.setFile(origin);
    if (result.evaluation)
        result.evaluation->diagnostics = result.diagnostics;
    return result;
}

} // namespace

DocumentEvaluation evaluateDocument(const nlohmann::json& document, const model::Catalog& catalog,
                                    const std::string& origin, const EvaluateOptions& options)
{
    return run(origin, catalog, options, [&] { return model::readScenario(document, origin); });
}

DocumentEvaluation evaluateDocumentText(const std::string& text, const model::Catalog& catalog,
                                        const std::string& origin, const EvaluateOptions& options)
{
    return run(origin, catalog, options, [&] { return model::readScenarioText(text, origin); });
}

DocumentEvaluation evaluateDocumentFile(const std::filesystem::path& path,
                                        const model::Catalog& catalog,
                                        const EvaluateOptions& options)
{
    return run(path.string(), catalog, options, [&] { return model::readScenarioFile(path); });
}

DocumentEvaluation evaluateScenario(const model::Scenario& scenario, const model::Catalog& catalog,
                                    const std::string& origin, const EvaluateOptions& options)
{
    return run(origin, catalog, options, [&] {
        model::ScenarioReadResult read;
        read.scenario = scenario;
        return read;
    });
}

} // namespace dct::solvers
