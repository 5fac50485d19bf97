#pragma once

#include "dct/model/diagnostics.h"
#include "dct/model/resolvedscenario.h"
#include "dct/solvers/evaluation.h"
#include "dct/solvers/evaluator.h"

#include <filesystem>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

namespace dct::model {
class Catalog;
}

namespace dct::report {

/** One scenario of a report: where it came from, its resolved inputs and its evaluation. */
struct ReportScenario
{
    std::string file;
    std::optional<model::ResolvedScenario> resolved; ///< Empty when it could not be resolved.
    solvers::Evaluation evaluation;
    Diagnostics diagnostics; ///< Reading, resolving and evaluating, together.
    /** The calibration profile the scenario names, when applied (measured against model). */
    std::optional<model::CalibrationProfile> calibration;

    /** Returns true when the scenario was read and resolved (its evaluation may still have
     *  errors, which the report shows). */
    bool usable() const { return resolved.has_value(); }

    /**
     * Reads, resolves against \a catalog and evaluates the scenario document \a json; \a file
     * names it in the report and its diagnostics. Never throws: a failure is an error diagnostic.
     */
    static ReportScenario fromJson(const nlohmann::json& json, const model::Catalog& catalog,
                                   const std::string& file = {},
                                   const solvers::EvaluateOptions& options = {});
    /** As fromJson() for the scenario file \a path (older schema versions are migrated). */
    static ReportScenario fromFile(const std::filesystem::path& path, const model::Catalog& catalog,
                                   const solvers::EvaluateOptions& options = {});
};

} // namespace dct::report
