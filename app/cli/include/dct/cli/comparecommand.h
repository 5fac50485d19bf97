#pragma once

#include "dct/solvers/evaluation.h"

#include <iosfwd>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace dct::cli {

/** One scenario of a comparison: its file and evaluation. */
struct ComparedScenario
{
    std::string file;
    solvers::Evaluation evaluation;
};

/** Returns the scenarios side by side as a table, with deltas against the first. */
std::string comparisonTable(const std::vector<ComparedScenario>& scenarios);

/** Returns the comparison as JSON: per metric, the values and the deltas against the first. */
nlohmann::json comparisonJson(const std::vector<ComparedScenario>& scenarios);

/** Returns the comparison as CSV: one line per metric, values then deltas against the first. */
std::string comparisonCsv(const std::vector<ComparedScenario>& scenarios);

/**
 * Runs `dctwin-cli compare`: evaluates \a files against the catalog in \a catalogDir (empty for
 * the default) and prints them side by side in \a format ("table", "json" or "csv"). Returns the
 * exit code.
 */
int commandCompare(const std::vector<std::string>& files, const std::string& catalogDir,
                   const std::string& format, std::ostream& out, std::ostream& err);

} // namespace dct::cli
