#include "dct/ui/evaluationoutcome.h"

#include "dct/model/resolver.h"
#include "dct/model/scenarioio.h"
#include "dct/solvers/collectives.h"
#include "dct/solvers/documentevaluation.h"
#include "dct/solvers/evaluator.h"
#include "dct/store/calibrationlookup.h"
#include "dct/store/scenariostore.h"

namespace dct::ui {

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

/** Adds the all-reduce curves of \a network when the fabric could be planned. */
void addCurves(const solvers::NetworkResult& network, EvaluationOutcome& outcome)
{
    if (!network.valid)
        return;
    using solvers::CollectiveAlgorithm;
    // NVLS and the NVLS tree too, where the NVSwitch reduces: what NCCL runs at large sizes on
    // such clusters. On one node (or NVLink domain) in_network is NVLS: drawn once.
    const solvers::CollectiveInputs& in = network.worldInputs;
    const bool oneDomain = in.ranks <= in.ranksPerNode;
    for (auto algorithm : {CollectiveAlgorithm::Ring, CollectiveAlgorithm::DoubleBinaryTree,
                           CollectiveAlgorithm::Hierarchical, CollectiveAlgorithm::Nvls,
                           CollectiveAlgorithm::NvlsTree, CollectiveAlgorithm::InNetwork}) {
        if (algorithm == CollectiveAlgorithm::InNetwork && oneDomain)
            continue;
        // 1 KiB to 16 GiB, the range nccl-tests sweeps for large clusters.
        const auto timings = solvers::collectiveCurve(solvers::CollectiveOp::AllReduce, algorithm,
                                                      network.worldInputs, 1024.0, 17179869184.0);
        AllReduceCurve curve;
        curve.algorithm = solvers::collectiveAlgorithmName(algorithm);
        for (const auto& t : timings)
            if (t.available)
                curve.points.emplace_back(t.bytes, t.seconds);
        if (curve.points.size() > 1)
            outcome.allReduceCurves.push_back(std::move(curve));
    }
}

} // namespace

EvaluationOutcome evaluateScenarioJson(const nlohmann::json& document,
                                       std::shared_ptr<const model::Catalog> catalog,
                                       const std::string& file)
{
    EvaluationOutcome outcome;
    try {
        if (!catalog) {
            auto read = model::readScenario(document, file);
            outcome.diagnostics.append(read.diagnostics);
            outcome.scenario = std::move(read.scenario);
            outcome.diagnostics.error("", "the catalog could not be read",
                                      "a data/catalog folder (set DCT_DATA_DIR)", "catalog");
            return outcome;
        }
        // A calibration profile the scenario names comes from the library (DCT_STORE).
        solvers::EvaluateOptions options;
        options.calibrationProfile = store::calibrationLookup(store::ScenarioStore::defaultPath());
        solvers::DocumentEvaluation result =
            solvers::evaluateDocument(document, *catalog, file, options);
        outcome.scenario = std::move(result.scenario);
        outcome.diagnostics = std::move(result.diagnostics);
        outcome.evaluation = std::move(result.evaluation);
        outcome.calibration = std::move(result.calibration);
        if (!outcome.evaluation)
            return outcome;
        if (result.resolved && outcome.evaluation->ok())
            outcome.hourly = std::make_shared<const solvers::HourlyYear>(
                solvers::expandHourly(*result.resolved, *outcome.evaluation));

        addCurves(outcome.evaluation->network, outcome);
    } catch (const std::exception& e) {
        outcome.diagnostics.error("", std::string("evaluation failed: ") + e.what(), {},
                                  "internal");
    }
    return outcome;
}

} // namespace dct::ui
