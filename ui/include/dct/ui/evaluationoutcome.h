#pragma once

#include "dct/model/calibrationprofile.h"
#include "dct/model/catalog.h"
#include "dct/model/scenario.h"
#include "dct/solvers/evaluation.h"
#include "dct/solvers/hourlyyear.h"

#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace dct::ui {

/** All-reduce time against message size for one algorithm over every GPU of the cluster. */
struct AllReduceCurve
{
    std::string algorithm;                         ///< "ring", "tree", "hierarchical", ...
    std::vector<std::pair<double, double>> points; ///< (bytes, seconds).
};

/**
 * Everything one evaluation of a scenario document produced: the scenario as read, the
 * evaluation, and every diagnostic of reading, resolving, validating and solving, each with the
 * JSON pointer of the field it concerns. Made on a worker thread, read on the UI thread.
 */
struct EvaluationOutcome
{
    unsigned long long generation = 0;             ///< Which edit of the document this answers.
    std::optional<model::Scenario> scenario;       ///< Empty when the JSON could not be read.
    std::optional<solvers::Evaluation> evaluation; ///< Empty when it could not be resolved.
    Diagnostics diagnostics;
    std::vector<AllReduceCurve> allReduceCurves; ///< Empty without a network result.
    /** The site year hour by hour (docs/siteyear.md); null without an evaluation. */
    std::shared_ptr<const solvers::HourlyYear> hourly;
    /** The calibration profile the scenario names, when applied: its measured points. */
    std::optional<model::CalibrationProfile> calibration;

    /** Returns the first metric among \a keys that the evaluation has, or nullptr. */
    const solvers::Metric* metric(const std::vector<std::string>& keys) const;
    /** Returns the metrics of the evaluation (empty when there is none). */
    const std::vector<solvers::Metric>& metrics() const;
};

/**
 * Reads, resolves and evaluates the scenario \a document against \a catalog. Never throws: an
 * exception of a solver becomes an error diagnostic. \a file names the document in diagnostics.
 */
EvaluationOutcome evaluateScenarioJson(const nlohmann::json& document,
                                       std::shared_ptr<const model::Catalog> catalog,
                                       const std::string& file = {});

} // namespace dct::ui
