#pragma once

#include "dct/cli/command.h"
#include "dct/model/resolvedscenario.h"
#include "dct/solvers/evaluation.h"

#include <string>
#include <vector>

namespace dct::cli {

/**
 * The `eval` subcommand: evaluates scenario files and prints every figure as a table, JSON
 * or CSV; exit code 1 when an evaluation has errors, 2 when a file cannot be read.
 */
class EvalCommand : public Command
{
public:
    /** Registers `eval` and its options on \a app. */
    explicit EvalCommand(CLI::App& app);

    /** Returns the `eval` subcommand. */
    CLI::App* subcommand() const override;
    /** Runs it and returns the exit code. */
    int run(const CommandContext& context, std::ostream& out, std::ostream& err) override;

private:
    /** Writes the hours of \a evaluation to m_hourly; returns the exit code. */
    int writeHourly(const model::ResolvedScenario& resolved, const solvers::Evaluation& evaluation,
                    const std::string& file, std::ostream& err) const;

    CLI::App* m_subcommand = nullptr;
    std::vector<std::string> m_files;
    std::string m_format = "table";
    std::string m_store; ///< Scenario library of the calibration profiles scenarios name.
    std::string m_precision = "display";
    std::string m_hourly; ///< CSV file of the 8,760 hours of the site year; empty for none.
};

} // namespace dct::cli
