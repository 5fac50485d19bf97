#include "dct/cli/comparecommand.h"

#include "dct/cli/cli.h"
#include "dct/cli/output.h"
#include "dct/cli/scenariofile.h"
#include "dct/model/catalog.h"
#include "dct/model/jsonread.h"
#include "dct/model/textformat.h"
#include "dct/solvers/documentevaluation.h"
#include "dct/solvers/evaluator.h"
#include "dct/solvers/metricsection.h"
#include "dct/store/calibrationlookup.h"
#include "dct/store/scenariostore.h"

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <map>
#include <optional>
#include <ostream>

namespace dct::cli {

using nlohmann::json;

namespace {

/** One row of the comparison: a metric and its value in each scenario (if it has it). */
struct Row
{
    std::string key;
    std::string label;
    std::string unit;
    std::vector<std::optional<double>> values;
};

/**
 * Returns true when every scenario has the row's figure and they all read the same: a
 * difference below the display precision (differsAtDisplay()) is no difference.
 */
bool unchanged(const Row& row)
{
    for (const auto& v : row.values)
        if (!v || !row.values.front() || differsAtDisplay(*v, *row.values.front(), row.unit))
            return false;
    return true;
}

/**
 * Metric keys in the order of the first scenario, then those only later ones have; with
 * \a differencesOnly, only the figures that differ between the scenarios.
 */
std::vector<Row> rows(const std::vector<ComparedScenario>& scenarios, bool differencesOnly)
{
    std::vector<Row> out;
    std::map<std::string, std::size_t> index;
    for (std::size_t s = 0; s < scenarios.size(); ++s) {
        for (const auto& m : scenarios[s].evaluation.metrics) {
            auto it = index.find(m.key);
            if (it == index.end()) {
                it = index.emplace(m.key, out.size()).first;
                out.push_back(
                    {m.key, m.label, m.unit, std::vector<std::optional<double>>(scenarios.size())});
            }
            out[it->second].values[s] = m.value;
        }
    }
    if (differencesOnly)
        std::erase_if(out, unchanged);
    return out;
}

/** The change of scenario \a s from the first; zero when it does not show at display precision. */
std::optional<double> delta(const Row& row, std::size_t s)
{
    if (!row.values[0] || !row.values[s])
        return std::nullopt;
    if (!differsAtDisplay(*row.values[s], *row.values[0], row.unit))
        return 0.0;
    return *row.values[s] - *row.values[0];
}

std::optional<double> deltaPercent(const Row& row, std::size_t s)
{
    const auto d = delta(row, s);
    if (!d || *row.values[0] == 0.0)
        return std::nullopt;
    return 100.0 * *d / std::fabs(*row.values[0]);
}

/** Returns a value by the one number rule, under a column headed with columnUnit(\a unit). */
std::string text(const std::optional<double>& v, const std::string& unit = {})
{
    return v ? formatCell(*v, unit) : std::string("-");
}

std::string signedText(const std::optional<double>& v, const char* suffix = "",
                       const std::string& unit = {})
{
    if (!v)
        return "-";
    if (*v == 0.0)
        return std::string("0") + suffix;
    if (unit == "yes/no")
        return "changed";
    return (*v > 0 ? "+" : "") + formatCell(*v, unit) + suffix;
}

std::string scenarioTitle(const ComparedScenario& s)
{
    return printableText(s.evaluation.scenarioName.empty() ? s.file : s.evaluation.scenarioName);
}

} // namespace

std::string comparisonTable(const std::vector<ComparedScenario>& scenarios, bool differencesOnly)
{
    const auto table = rows(scenarios, differencesOnly);
    std::string out;
    for (std::size_t s = 0; s < scenarios.size(); ++s)
        out +=
            fmt::format("[{}] {} ({}): {}\n", static_cast<char>('A' + std::min<std::size_t>(s, 25)),
                        scenarioTitle(scenarios[s]), printableText(scenarios[s].file),
                        solvers::feasibilityLabel(scenarios[s].evaluation.verdict().feasibility));
    // Every scenario's errors and warnings up front, each naming its file and field.
    bool anyDiagnostic = false;
    for (const auto& s : scenarios)
        for (const auto& d : s.evaluation.diagnostics)
            if (d.severity != Severity::Note) {
                if (!anyDiagnostic)
                    out += "\nDiagnostics\n";
                anyDiagnostic = true;
                out += "  " + d.toString() + "\n";
            }
    std::size_t labelWidth = 6;
    for (const auto& row : table)
        labelWidth = std::max(labelWidth, row.label.size() + row.unit.size() + 3);
    labelWidth = std::min<std::size_t>(labelWidth, 60);
    const std::size_t columnWidth = 14;
    std::string header = fmt::format("\n{:<{}}", "metric", labelWidth);
    for (std::size_t s = 0; s < scenarios.size(); ++s) {
        const char letter = static_cast<char>('A' + std::min<std::size_t>(s, 25));
        header += fmt::format(" {:>{}}", std::string(1, letter), columnWidth);
        if (s > 0)
            header += fmt::format(" {:>{}} {:>{}}", std::string("d") + letter, columnWidth,
                                  std::string("d") + letter + " %", 9);
    }
    out += header + "\n";
    std::string section;
    for (const auto& row : table) {
        const std::string rowSection = row.key.substr(0, row.key.find('.'));
        if (rowSection != section) {
            section = rowSection;
            out += "\n" + std::string(solvers::metricSectionTitle(section)) + "\n";
        }
        const std::string unit = columnUnit(row.unit);
        std::string label = row.label + (unit.empty() ? "" : " [" + unit + "]");
        if (label.size() > labelWidth - 2)
            label = label.substr(0, labelWidth - 5) + "...";
        std::string line = fmt::format("  {:<{}}", label, labelWidth - 2);
        for (std::size_t s = 0; s < scenarios.size(); ++s) {
            line += fmt::format(" {:>{}}", text(row.values[s], row.unit), columnWidth);
            if (s > 0)
                line += fmt::format(" {:>{}} {:>{}}", signedText(delta(row, s), "", row.unit),
                                    columnWidth, signedText(deltaPercent(row, s), "%"), 9);
        }
        out += line + "\n";
    }
    return out;
}

json comparisonJson(const std::vector<ComparedScenario>& scenarios, bool differencesOnly)
{
    json doc;
    doc["scenarios"] = json::array();
    for (const auto& s : scenarios)
        doc["scenarios"].push_back({{"file", s.file},
                                    {"name", s.evaluation.scenarioName},
                                    {"ok", s.evaluation.ok()},
                                    {"verdict", verdictJson(s.evaluation.verdict())},
                                    {"diagnostics", diagnosticsJson(s.evaluation.diagnostics)}});
    doc["metrics"] = json::array();
    auto orNull = [](const std::optional<double>& v) { return v ? json(*v) : json(nullptr); };
    for (const auto& row : rows(scenarios, differencesOnly)) {
        json values = json::array();
        json deltas = json::array();
        json percents = json::array();
        for (std::size_t s = 0; s < scenarios.size(); ++s) {
            values.push_back(orNull(row.values[s]));
            deltas.push_back(orNull(delta(row, s)));
            percents.push_back(orNull(deltaPercent(row, s)));
        }
        doc["metrics"].push_back({{"key", row.key},
                                  {"label", row.label},
                                  {"unit", row.unit},
                                  {"values", values},
                                  {"deltas", deltas},
                                  {"delta_percent", percents}});
    }
    return doc;
}

std::string comparisonCsv(const std::vector<ComparedScenario>& scenarios, bool differencesOnly)
{
    std::string out = "key,label,unit";
    for (const auto& s : scenarios)
        out += "," + csvField(s.file);
    for (std::size_t s = 1; s < scenarios.size(); ++s)
        out += "," + csvField("delta " + scenarios[s].file);
    out += "\n";
    auto cell = [](const std::optional<double>& v) {
        return v ? fmt::format("{:.10g}", *v) : std::string();
    };
    for (const auto& row : rows(scenarios, differencesOnly)) {
        out += csvField(row.key) + "," + csvField(row.label) + "," + csvField(row.unit);
        for (std::size_t s = 0; s < scenarios.size(); ++s)
            out += "," + cell(row.values[s]);
        for (std::size_t s = 1; s < scenarios.size(); ++s)
            out += "," + cell(delta(row, s));
        out += "\n";
    }
    return out;
}

CompareCommand::CompareCommand(CLI::App& app)
{
    m_subcommand = app.add_subcommand(
        "compare", "Evaluate scenario files and print them side by side with deltas to the first");
    m_subcommand->add_option("files", m_files, "Scenario JSON files (at least two)")
        ->required()
        ->expected(2, -1);
    m_subcommand->add_flag("-d,--differences-only", m_differencesOnly,
                           "Only the figures that differ between the scenarios");
    m_subcommand->add_option("-f,--format", m_format, "Output format: table, json or csv")
        ->check(CLI::IsMember({"table", "json", "csv"}));
}

CLI::App* CompareCommand::subcommand() const
{
    return m_subcommand;
}

int CompareCommand::run(const CommandContext& context, std::ostream& out, std::ostream& err)
{
    if (m_files.size() < 2) {
        err << "dctwin-cli: error: compare needs at least two scenario files\n";
        return ExitUsage;
    }
    auto catalog = loadCatalog(context.catalogDirectory, err);
    if (!catalog)
        return ExitUsage;
    std::vector<ComparedScenario> scenarios;
    int code = ExitOk;
    // Calibration profiles the scenarios name come from the default library (DCT_STORE).
    solvers::EvaluateOptions options;
    options.calibrationProfile = store::calibrationLookup(store::ScenarioStore::defaultPath());
    for (const auto& file : m_files) {
        solvers::DocumentEvaluation document =
            solvers::evaluateDocumentFile(file, *catalog, options);
        if (!document.evaluated()) {
            for (const auto& d : document.diagnostics)
                err << d.toString() << "\n";
            return ExitUsage;
        }
        ComparedScenario s{file, std::move(*document.evaluation)};
        if (!s.evaluation.ok()) {
            code = ExitEvaluation;
            for (const auto& d : s.evaluation.diagnostics)
                if (d.severity == Severity::Error)
                    err << d.toString() << "\n";
        }
        scenarios.push_back(std::move(s));
    }
    if (m_format == "json")
        out << model::jsonText(comparisonJson(scenarios, m_differencesOnly)) << "\n";
    else if (m_format == "csv")
        out << comparisonCsv(scenarios, m_differencesOnly);
    else
        out << comparisonTable(scenarios, m_differencesOnly);
    return code;
}

} // namespace dct::cli
