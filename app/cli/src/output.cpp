#include "dct/cli/output.h"

#include "dct/model/textformat.h"
#include "dct/solvers/metricsection.h"

#include <cmath>
#include <fmt/format.h>
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
        out += fmt::format("  {:<{}}  {:>16} {}\n", m.label, labelWidth, formatNumber(m.value),
                           m.unit);
    }
    return out;
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

std::string evaluationCsvRows(const solvers::Evaluation& e, const std::string& file)
{
    std::string out =
        fmt::format("{},{},verdict,Verdict,{},\n", csvField(file), csvField(e.scenarioName),
                    solvers::feasibilityKey(e.verdict().feasibility));
    for (const auto& m : e.metrics)
        out += fmt::format("{},{},{},{},{},{}\n", csvField(file), csvField(e.scenarioName), m.key,
                           csvField(m.label), formatExact(m.value), csvField(m.unit));
    return out;
}

} // namespace dct::cli
