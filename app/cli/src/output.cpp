#include "dct/cli/output.h"

#include "dct/model/textformat.h"
#include "dct/solvers/metricsection.h"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <limits>
#include <map>

namespace dct::cli {

using nlohmann::json;

std::string evaluationTable(const solvers::Evaluation& e, const std::string& file)
{
    std::string out = fmt::format(
        "Scenario: {}{}\n", e.scenarioName.empty() ? "(unnamed)" : printableText(e.scenarioName),
        file.empty() ? "" : "  [" + printableText(file) + "]");
    // The verdict and every diagnostic first, whole, each with the field to fix; then figures.
    const solvers::Verdict verdict = e.verdict();
    out += fmt::format("Verdict: {}\n", solvers::feasibilityLabel(verdict.feasibility));
    if (!e.diagnostics.empty()) {
        out += "\nDiagnostics\n";
        for (const auto& d : e.diagnostics)
            out += fmt::format("  {}{}\n", d.toString(),
                               solvers::breaksConstraint(d) && d.severity != Severity::Error
                                   ? "  [makes the design infeasible]"
                                   : "");
    }
    std::size_t labelWidth = 10;
    for (const auto& m : e.metrics)
        labelWidth = std::max(labelWidth, m.label.size());
    std::string section;
    for (const auto& m : e.metrics) {
        if (m.section() != section) {
            section = m.section();
            out += "\n" + std::string(solvers::metricSectionTitle(section)) + "\n";
        }
        // The one number rule: money in k/M/B, shares as %, yes/no; the number column aligned.
        const QuantityText text = formatQuantityParts(m.value, m.unit);
        out += fmt::format("  {:<{}}  {:>16} {}\n", m.label, labelWidth, text.number, text.unit);
    }
    return out;
}

std::string evaluationTableFromJson(const json& result)
{
    // The same table as evaluationTable(): a cached result and a fresh one print alike.
    solvers::Evaluation e;
    e.scenarioName = result.value("scenario", std::string());
    if (result.contains("diagnostics") && result["diagnostics"].is_array())
        for (const auto& d : result["diagnostics"]) {
            Severity severity = Severity::Note;
            for (Severity candidate : {Severity::Error, Severity::Warning, Severity::Note})
                if (d.value("severity", std::string()) == severityName(candidate))
                    severity = candidate;
            e.diagnostics.add({severity, d.value("path", std::string()),
                               d.value("message", std::string()), d.value("hint", std::string()),
                               d.value("code", std::string()), d.value("file", std::string())});
        }
    if (result.contains("metrics") && result["metrics"].is_object())
        for (const auto& [key, m] : result["metrics"].items()) {
            solvers::Metric metric;
            metric.key = key;
            metric.label = m.value("label", key);
            metric.unit = m.value("unit", std::string());
            metric.value = m.contains("value") && m["value"].is_number()
                               ? m["value"].get<double>()
                               : std::numeric_limits<double>::quiet_NaN();
            e.metrics.push_back(std::move(metric));
        }
    // Sections in the order every face shows them; within one, by key (JSON keeps no order).
    const auto& sections = solvers::metricSections();
    const auto rank = [&](const solvers::Metric& m) {
        const std::string section = m.section();
        for (std::size_t i = 0; i < sections.size(); ++i)
            if (sections[i].key == section)
                return i;
        return sections.size();
    };
    std::stable_sort(e.metrics.begin(), e.metrics.end(),
                     [&](const solvers::Metric& a, const solvers::Metric& b) {
                         return rank(a) != rank(b) ? rank(a) < rank(b) : a.key < b.key;
                     });
    return evaluationTable(e, result.value("file", std::string()));
}

json diagnosticsJson(const Diagnostics& diagnostics)
{
    json list = json::array();
    for (const auto& d : diagnostics)
        list.push_back({{"severity", severityName(d.severity)},
                        {"path", d.path},
                        {"message", d.message},
                        {"hint", d.hint},
                        {"code", d.code},
                        {"file", d.file}});
    return list;
}

json verdictJson(const solvers::Verdict& verdict)
{
    Diagnostics reasons;
    for (const auto& d : verdict.reasons)
        reasons.add(d);
    return {{"feasibility", solvers::feasibilityKey(verdict.feasibility)},
            {"label", solvers::feasibilityLabel(verdict.feasibility)},
            {"reasons", diagnosticsJson(reasons)}};
}

json evaluationJson(const solvers::Evaluation& e, const std::string& file)
{
    json metrics = json::object();
    for (const auto& m : e.metrics)
        metrics[m.key] = {{"value", std::isfinite(m.value) ? json(m.value) : json(nullptr)},
                          {"unit", m.unit},
                          {"label", m.label},
                          {"inputs", std::vector<std::string>(m.inputs.begin(), m.inputs.end())}};
    return {{"file", file},
            {"scenario", e.scenarioName},
            {"ok", e.ok()},
            {"verdict", verdictJson(e.verdict())},
            {"coupling",
             {{"iterations", e.coupling.iterations},
              {"converged", e.coupling.converged},
              {"residual", e.coupling.residual},
              {"tolerance", e.coupling.tolerance}}},
            {"metrics", metrics},
            {"diagnostics", diagnosticsJson(e.diagnostics)}};
}

std::string evaluationCsvHeader()
{
    return "file,scenario,key,label,value,unit\n";
}

std::string evaluationCsvRows(const solvers::Evaluation& e, const std::string& file,
                              CsvPrecision precision)
{
    const auto number = [precision](double value, std::string_view unit) {
        return precision == CsvPrecision::Full ? formatExact(value) : formatPlain(value, unit);
    };
    std::string out =
        fmt::format("{},{},verdict,Verdict,{},\n", csvField(file), csvField(e.scenarioName),
                    solvers::feasibilityKey(e.verdict().feasibility));
    for (const auto& m : e.metrics)
        out += fmt::format("{},{},{},{},{},{}\n", csvField(file), csvField(e.scenarioName), m.key,
                           csvField(m.label), number(m.value, m.unit), csvField(m.unit));
    return out;
}

} // namespace dct::cli
