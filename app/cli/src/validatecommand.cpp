#include "dct/cli/validatecommand.h"

#include "dct/cli/cli.h"
#include "dct/cli/output.h"
#include "dct/cli/scenariofile.h"
#include "dct/model/jsonread.h"
#include "dct/model/textformat.h"
#include "dct/solvers/documentevaluation.h"
#include "dct/store/calibrationlookup.h"
#include "dct/store/scenariostore.h"

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
    // Calibration profiles the scenarios name come from the default library (DCT_STORE).
    solvers::EvaluateOptions options;
    options.calibrationProfile = store::calibrationLookup(store::ScenarioStore::defaultPath());
    for (const auto& file : m_files) {
        // The same checks as eval: read, resolve, and evaluate (the solvers find the limits a
        // design breaks: heat, inlet air, ports, memory); only the figures are left out.
        const solvers::DocumentEvaluation document =
            solvers::evaluateDocumentFile(file, *catalog, options);
        const solvers::Verdict verdict = solvers::assessVerdict(document.diagnostics);
        int fileCode = ExitOk;
        if (!document.evaluated())
            fileCode = ExitUsage;
        else if (verdict.feasibility == solvers::Feasibility::Infeasible)
            fileCode = ExitEvaluation;
        code = std::max(code, fileCode);
        if (m_format == "json") {
            report.push_back({{"file", file},
                              {"valid", fileCode == ExitOk},
                              {"verdict", verdictJson(verdict)},
                              {"diagnostics", diagnosticsJson(document.diagnostics)}});
        } else {
            std::ostream& stream = fileCode == ExitOk ? out : err;
            for (const auto& item : document.diagnostics)
                stream << item.toString() << "\n";
            if (fileCode == ExitOk)
                out << printableText(file) << ": valid, "
                    << (verdict.feasibility == solvers::Feasibility::Feasible
                            ? std::string("feasible")
                            : "feasible with " +
                                  std::to_string(document.diagnostics.count(Severity::Warning)) +
                                  " warning(s)")
                    << "\n";
            else if (fileCode == ExitEvaluation)
                err << printableText(file) << ": " << verdict.summary() << "\n";
        }
    }
    if (m_format == "json")
        out << model::jsonText((report.size() == 1 ? report[0] : report)) << "\n";
    return code;
}

} // namespace dct::cli
