#include "dct/cli/evalcommand.h"

#include "dct/cli/cli.h"
#include "dct/cli/output.h"
#include "dct/cli/scenariofile.h"
#include "dct/model/jsonread.h"
#include "dct/solvers/documentevaluation.h"
#include "dct/solvers/evaluator.h"
#include "dct/solvers/hourlyyear.h"
#include "dct/store/calibrationlookup.h"
#include "dct/store/scenariostore.h"

#include <CLI/CLI.hpp>
#include <algorithm>
#include <fstream>
#include <nlohmann/json.hpp>
#include <ostream>

namespace dct::cli {

using nlohmann::json;

namespace {

void printDiagnostics(const Diagnostics& diagnostics, std::ostream& err)
{
    for (const auto& item : diagnostics)
        err << item.toString() << "\n";
}

} // namespace

int EvalCommand::writeHourly(const model::ResolvedScenario& resolved,
                             const solvers::Evaluation& evaluation, const std::string& file,
                             std::ostream& err) const
{
    const solvers::HourlyYear year = solvers::expandHourly(resolved, evaluation);
    if (!year.hourly) {
        err << file << ": /site: eval --hourly needs a site with climate_normals (an hourly "
            << "year); '" << resolved.site.id << "' has climate bins only\n";
        return ExitUsage;
    }
    std::ofstream csv(m_hourly, std::ios::binary | std::ios::trunc);
    if (csv)
        solvers::writeHourlyCsv(csv, year);
    if (!csv) {
        err << m_hourly << ": cannot write the hourly CSV (a writable file path)\n";
        return ExitUsage;
    }
    return ExitOk;
}

EvalCommand::EvalCommand(CLI::App& app)
{
    m_subcommand = app.add_subcommand("eval", "Evaluate scenario files and print every figure");
    m_subcommand->add_option("files", m_files, "Scenario JSON files")->required();
    m_subcommand->add_option("-f,--format", m_format, "Output format: table, json or csv")
        ->check(CLI::IsMember({"table", "json", "csv"}));
    m_subcommand->add_option("--store", m_store,
                             "Scenario library of the calibration profiles the scenarios name "
                             "(/network/calibration_profile; default: $DCT_STORE, else "
                             "$XDG_DATA_HOME/dctwin/scenarios.sqlite or "
                             "~/.local/share/dctwin/scenarios.sqlite)");
    m_subcommand
        ->add_option("--precision", m_precision,
                     "Digits of CSV values: display (the significant digits of the table) or "
                     "full (every digit, for machine reading)")
        ->check(CLI::IsMember({"display", "full"}));
    m_subcommand->add_option("--hourly", m_hourly,
                             "Write the site year hour by hour (8,760 rows: climate, IT and "
                             "facility power, PUE, cooling, water, carbon, energy cost, "
                             "temperatures, throttling) to this CSV file; one scenario only");
}

CLI::App* EvalCommand::subcommand() const
{
    return m_subcommand;
}

int EvalCommand::run(const CommandContext& context, std::ostream& out, std::ostream& err)
{
    if (!m_hourly.empty() && m_files.size() != 1) {
        err << "eval --hourly " << m_hourly << ": takes exactly one scenario file, got "
            << m_files.size() << "\n";
        return ExitUsage;
    }
    auto catalog = loadCatalog(context.catalogDirectory, err);
    if (!catalog)
        return ExitUsage;
    int code = ExitOk;
    json documents = json::array();
    if (m_format == "csv")
        out << evaluationCsvHeader();
    bool first = true;
    // Opened only when a scenario names a calibration profile.
    solvers::EvaluateOptions options;
    options.calibrationProfile = store::calibrationLookup(
        m_store.empty() ? store::ScenarioStore::defaultPath() : std::filesystem::path(m_store));
    for (const auto& file : m_files) {
        solvers::DocumentEvaluation document =
            solvers::evaluateDocumentFile(file, *catalog, options);
        if (!document.evaluated()) {
            printDiagnostics(document.diagnostics, err);
            if (m_format == "json")
                documents.push_back({{"file", file},
                                     {"ok", false},
                                     {"diagnostics", diagnosticsJson(document.diagnostics)}});
            code = std::max(code, static_cast<int>(ExitUsage));
            continue;
        }
        const solvers::Evaluation& evaluation = *document.evaluation;
        if (!m_hourly.empty()) {
            const int written = writeHourly(*document.resolved, evaluation, file, err);
            if (written != ExitOk)
                return written;
        }
        const solvers::Verdict verdict = evaluation.verdict();
        if (!evaluation.ok()) {
            code = std::max(code, static_cast<int>(ExitEvaluation));
            printDiagnostics(evaluation.diagnostics, err);
        } else if (verdict.feasibility == solvers::Feasibility::Infeasible) {
            // Evaluated, but a hard limit is broken: the figures are shown, the exit says no.
            code = std::max(code, static_cast<int>(ExitEvaluation));
            err << file << ": " << verdict.summary() << "\n";
        }
        if (m_format == "json") {
            documents.push_back(evaluationJson(evaluation, file));
        } else if (m_format == "csv") {
            out << evaluationCsvRows(evaluation, file,
                                     m_precision == "full" ? CsvPrecision::Full
                                                           : CsvPrecision::Display);
        } else if (!evaluation.metrics.empty()) {
            // Also with workload errors: what does not depend on the workload was evaluated.
            out << (first ? "" : "\n") << evaluationTable(evaluation, file);
            first = false;
        }
    }
    if (m_format == "json")
        out << model::jsonText((documents.size() == 1 ? documents[0] : documents)) << "\n";
    return code;
}

} // namespace dct::cli
