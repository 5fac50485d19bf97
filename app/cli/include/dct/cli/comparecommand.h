#pragma once

#include "dct/cli/command.h"
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

/**
 * Returns the scenarios side by side as a table, with deltas against the first; with
 * \a differencesOnly, only the figures that differ (also for the JSON and CSV forms below).
 */
std::string comparisonTable(const std::vector<ComparedScenario>& scenarios,
                            bool differencesOnly = false);

/** Returns the comparison as JSON: per metric, the values and the deltas against the first. */
nlohmann::json comparisonJson(const std::vector<ComparedScenario>& scenarios,
                              bool differencesOnly = false);

/** Returns the comparison as CSV: one line per metric, values then deltas against the first. */
std::string comparisonCsv(const std::vector<ComparedScenario>& scenarios,
                          bool differencesOnly = false);

/**
 * The `compare` subcommand: evaluates two or more scenario files and prints them side by side,
 * with deltas against the first, as a table, JSON or CSV.
 */
class CompareCommand : public Command
{
public:
    /** Registers `compare` and its options on \a app. */
    explicit CompareCommand(CLI::App& app);

    /** Returns the `compare` subcommand. */
    CLI::App* subcommand() const override;
    /** Runs it and returns the exit code. */
    int run(const CommandContext& context, std::ostream& out, std::ostream& err) override;

private:
    CLI::App* m_subcommand = nullptr;
    std::vector<std::string> m_files;
    std::string m_format = "table";
    bool m_differencesOnly = false;
};

} // namespace dct::cli
