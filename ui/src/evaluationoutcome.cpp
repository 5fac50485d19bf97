#include "dct/ui/evaluationoutcome.h"

#include "dct/model/resolver.h"
#include "dct/model/scenarioio.h"
#include "dct/solvers/collectives.h"
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

/** Adds the all-reduce curves of the evaluation's network result, when it has one. */
template <class E> void addCurves(const E& e, EvaluationOutcome& outcome)
{
    if constexpr (requires {
                      e.network.valid;
                      e.network.worldInputs;
                  }) {
        if (!e.network.valid)
            return;
        using solvers::CollectiveAlgorithm;
        for (auto algorithm : {CollectiveAlgorithm::Ring, CollectiveAlgorithm::DoubleBinaryTree,
                               CollectiveAlgorithm::Hierarchical, CollectiveAlgorithm::InNetwork}) {
            // 1 KiB to 16 GiB, the range nccl-tests sweeps for large clusters.
            const auto timings =
                solvers::collectiveCurve(solvers::CollectiveOp::AllReduce, algorithm,
                                         e.network.worldInputs, 1024.0, 17179869184.0);
            AllReduceCurve curve;
            curve.algorithm = solvers::collectiveAlgorithmName(algorithm);
            for (const auto& t : timings)
                if (t.available)
                    curve.points.emplace_back(t.bytes, t.seconds);
            if (curve.points.size() > 1)
                outcome.allReduceCurves.push_back(std::move(curve));
        }
    }
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

        addCurves(*outcome.evaluation, outcome);

        // The PUE of every cooling system of the catalog for the same cluster, side by side:
        // the cooling solver's own "cooling.option_pue.<id>" figures, else one evaluation each.
        const std::string optionPrefix = "cooling.option_pue.";
        for (const auto& m : outcome.evaluation->metrics)
            if (m.key.rfind(optionPrefix, 0) == 0) {
                const std::string id = m.key.substr(optionPrefix.size());
                outcome.coolingOptions.push_back(
                    {id, m.value, id == outcome.scenario->cooling.system.id});
            }
        const auto* pue = outcome.metric(pueKeys());
        if (pue && outcome.coolingOptions.empty()) {
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
