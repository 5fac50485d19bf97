#pragma once

#include "dct/cli/command.h"

#include <string>

namespace dct::cli {

/**
 * The `catalog` subcommand: lists the catalog's kinds and ids, the ids of one kind, or one
 * entry as JSON with its sources.
 */
class CatalogCommand : public Command
{
public:
    /** Registers `catalog` and its options on \a app. */
    explicit CatalogCommand(CLI::App& app);

    /** Returns the `catalog` subcommand. */
    CLI::App* subcommand() const override;
    /** Runs it and returns the exit code. */
    int run(const CommandContext& context, std::ostream& out, std::ostream& err) override;

private:
    CLI::App* m_subcommand = nullptr;
    std::string m_kind;
    std::string m_id;
};

} // namespace dct::cli
