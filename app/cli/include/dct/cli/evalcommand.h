#pragma once

#include "dct/cli/command.h"

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
    CLI::App* m_subcommand = nullptr;
    std::vector<std::string> m_files;
    std::string m_format = "table";
    std::string m_store; ///< Scenario library of the calibration profiles scenarios name.
    std::string m_precision = "display";
};

} // namespace dct::cli
