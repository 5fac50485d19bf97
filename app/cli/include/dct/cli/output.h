#pragma once

#include "dct/model/textformat.h"
#include "dct/solvers/evaluation.h"

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace dct::cli {

/** Returns the evaluation as a human table, grouped by section, with its diagnostics. */
std::string evaluationTable(const solvers::Evaluation& evaluation, const std::string& file);

/** Returns evaluationTable() of an evaluation kept as evaluationJson() (a cached result). */
std::string evaluationTableFromJson(const nlohmann::json& result);

/** Returns the evaluation as JSON: metrics by key with value, unit, label and inputs. */
nlohmann::json evaluationJson(const solvers::Evaluation& evaluation, const std::string& file);

/** Returns the CSV header line of evaluationCsvRows(). */
std::string evaluationCsvHeader();
/** How many digits a CSV value keeps. */
enum class CsvPrecision
{
    Display, ///< The significant digits people read (formatPlain): "8960000", "0.3581".
    Full     ///< Every digit, for machine reading (formatExact, "%.10g").
};

/**
 * Returns one CSV line per metric: file, scenario, key, label, value, unit; the first line is
 * the verdict (key "verdict", its feasibility key in the value column).
 */
std::string evaluationCsvRows(const solvers::Evaluation& evaluation, const std::string& file,
                              CsvPrecision precision = CsvPrecision::Display);

/** Returns a verdict as JSON: feasibility key, label and the diagnostics that decided it. */
nlohmann::json verdictJson(const solvers::Verdict& verdict);

/** Returns a diagnostic list as JSON. */
nlohmann::json diagnosticsJson(const Diagnostics& diagnostics);

} // namespace dct::cli
