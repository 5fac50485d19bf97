#include "dct/solvers/documentevaluation.h"

#include "dct/model/resolver.h"
#include "dct/model/scenarioio.h"
#include "dct/solvers/finitecheck.h"

#include <algorithm>
#include <exception>
#include <functional>

namespace dct::solvers {

namespace {

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
        return;
    }
    auto resolved = model::resolveScenario(*result.scenario, catalog, result.origin);
    result.diagnostics.append(resolved.diagnostics);
    if (!resolved.resolved || resolved.diagnostics.hasErrors())
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
