#pragma once

#include "dct/cli/command.h"

#include <string>
#include <vector>

namespace dct::cli {

/**
 * The `validate` subcommand: reads scenario files, resolves them against the catalog and
 * checks them; exit code 1 when a scenario has errors, 2 when a file cannot be read.
 */
class ValidateCommand : public Command
{
public:
    /** Registers `validate` and its options on \a app. */
    explicit ValidateCommand(CLI::App& app);

    /** Returns the `validate` subcommand. */
    CLI::App* subcommand() const override;
    /** Runs it and returns the exit code. */
    int run(const CommandContext& context, std::ostream& out, std::ostream& err) override;

private:
    CLI::App* m_subcommand = nullptr;
    std::vector<std::string> m_files;
    std::string m_format = "table";
};

} // namespace dct::cli
