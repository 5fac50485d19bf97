#pragma once

#include "dct/cli/command.h"

namespace dct::cli {

/** The `schema` subcommand: prints the JSON Schema of scenario files. */
class SchemaCommand : public Command
{
public:
    /** Registers `schema` on \a app. */
    explicit SchemaCommand(CLI::App& app);

    /** Returns the `schema` subcommand. */
    CLI::App* subcommand() const override;
    /** Runs it and returns the exit code. */
    int run(const CommandContext& context, std::ostream& out, std::ostream& err) override;

private:
    CLI::App* m_subcommand = nullptr;
};

} // namespace dct::cli
