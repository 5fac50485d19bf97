#include "dct/ui/evaluationoutcome.h"

#include "dct/model/resolver.h"
#include "dct/model/scenarioio.h"
#include "dct/solvers/evaluator.h"

namespace dct::ui {

const std::vector<std::string>& pueKeys()
{
    static const std::vector<std::string> keys = {"power.pue", "cooling.pue", "facility.pue"};
    return keys;
}

const solvers::Metric* EvaluationOutcome::metric(const std::vector<std::string>& keys) const
{
    if (!evaluation)
        return nullptr;
    for (const auto& key : keys)
        if (const auto* m = evaluation->metric(key))
            return m;
    return nullptr;
}

const std::vector<solvers::Metric>& EvaluationOutcome::metrics() const
{
    static const std::vector<solvers::Metric> none;
    return evaluation ? evaluation->metrics : none;
}

namespace {

/** Returns the PUE of \a scenario with cooling system \a systemId, or nullopt. */
std::optional<double> pueWith(model::Scenario scenario, const std::string& systemId,
                               const model::Catalog& catalog)
{
    scenario.cooling.system.id = systemId;
    scenario.cooling.system.overrides = nlohmann::json::object();
    auto resolved = model::resolveScenario(scenario, catalog);
    if (!resolved.resolved)
        return std::nullopt;
    const auto evaluation = solvers::evaluate(*resolved.resolved);
    for (const auto& key : pueKeys())
        if (const auto* m = evaluation.metric(key))
            return m->value;
    return std::nullopt;
}

} // namespace

EvaluationOutcome evaluateScenarioJson(const nlohmann::json& document,
                                       std::shared_ptr<const model::Catalog> catalog,
                                       const std::string& file)
{
    EvaluationOutcome outcome;
    try {
        auto read = model::readScenario(document, file);
        outcome.diagnostics.append(read.diagnostics);
        if (!read.scenario || read.diagnostics.hasErrors())
            return outcome;
        outcome.scenario = std::move(read.scenario);
        if (!catalog) {
            outcome.diagnostics.error("", "the catalog could not be read",
                                      "a data/catalog folder (set DCT_DATA_DIR)", "catalog");
            return outcome;
        }
        auto resolved = model::resolveScenario(*outcome.scenario, *catalog, file);
        outcome.diagnostics.append(resolved.diagnostics);
        if (!resolved.resolved || resolved.diagnostics.hasErrors())
            return outcome;
        outcome.evaluation = solvers::evaluate(*resolved.resolved);
        outcome.diagnostics.append(outcome.evaluation->diagnostics);

        // The PUE of every cooling system of the catalog for the same cluster, side by side.
        const auto* pue = outcome.metric(pueKeys());
        if (pue) {
            for (const auto& [id, spec] : catalog->coolingSystems().entries) {
                (void)spec;
                const bool selected = id == outcome.scenario->cooling.system.id;
                if (selected) {
                    outcome.coolingOptions.push_back({id, pue->value, true});
                } else if (auto value = pueWith(*outcome.scenario, id, *catalog)) {
                    outcome.coolingOptions.push_back({id, *value, false});
                }
            }
        }
    } catch (const std::exception& e) {
        outcome.diagnostics.error("", std::string("evaluation failed: ") + e.what(), {},
                                  "internal");
    }
    return outcome;
}

} // namespace dct::ui
