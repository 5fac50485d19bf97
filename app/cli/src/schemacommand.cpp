#include "dct/cli/schemacommand.h"

#include "dct/cli/cli.h"
#include "dct/model/jsonread.h"
#include "dct/model/schema.h"

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>
#include <ostream>

namespace dct::cli {

SchemaCommand::SchemaCommand(CLI::App& app)
{
    m_subcommand = app.add_subcommand("schema", "Print the JSON Schema of scenario files");
}

CLI::App* SchemaCommand::subcommand() const
{
    return m_subcommand;
}

int SchemaCommand::run(const CommandContext&, std::ostream& out, std::ostream&)
{
    out << model::jsonText(model::scenarioJsonSchema()) << "\n";
    return ExitOk;
}

} // namespace dct::cli
