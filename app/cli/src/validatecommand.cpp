#include "dct/cli/validatecommand.h"

#include "dct/cli/cli.h"
#include "dct/cli/output.h"
#include "dct/cli/scenariofile.h"
#include "dct/model/validator.h"

#include <CLI/CLI.hpp>
#include <algorithm>
#include <nlohmann/json.hpp>
#include <ostream>

namespace dct::cli {

using nlohmann::json;

ValidateCommand::ValidateCommand(CLI::App& app)
{
    m_subcommand = app.add_subcommand("validate", "Check scenario files and report problems");
    m_subcommand->add_option("files", m_files, "Scenario JSON files")->required();
    m_subcommand->add_option("--format", m_format, "Output format")
        ->check(CLI::IsMember({"table", "json"}));
}

CLI::App* ValidateCommand::subcommand() const
{
    return m_subcommand;
}

int ValidateCommand::run(const CommandContext& context, std::ostream& out, std::ostream& err)
{
    auto catalog = loadCatalog(context.catalogDirectory, err);
    if (!catalog)
        return ExitUsage;
    int code = ExitOk;
    json report = json::array();
    for (const auto& file : m_files) {
        LoadedScenario loaded = loadScenario(file, *catalog);
        Diagnostics all = loaded.diagnostics;
        int fileCode = ExitOk;
        if (!loaded.resolved) {
            fileCode = ExitUsage;
        } else {
            Diagnostics checks = model::validateScenario(*loaded.resolved);
            checks.setFile(file);
            all.append(checks);
            if (checks.hasErrors())
                fileCode = ExitEvaluation;
        }
        code = std::max(code, fileCode);
        if (m_format == "json") {
            report.push_back({{"file", file},
                              {"valid", fileCode == ExitOk},
                              {"diagnostics", diagnosticsJson(all)}});
        } else {
            std::ostream& stream = fileCode == ExitOk ? out : err;
            for (const auto& item : all)
                stream << item.toString() << "\n";
            if (fileCode == ExitOk)
                out << file << ": valid (" << all.count(Severity::Warning) << " warnings)\n";
        }
    }
    if (m_format == "json")
        out << (report.size() == 1 ? report[0] : report).dump(2) << "\n";
    return code;
}

} // namespace dct::cli
