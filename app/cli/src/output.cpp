#include "dct/cli/output.h"

#include <fmt/format.h>

#include <cmath>
#include <map>

namespace dct::cli {

using nlohmann::json;

namespace {

const std::map<std::string, std::string>& sectionTitles()
{
    static const std::map<std::string, std::string> titles = {
        {"compute", "Compute and workload"}, {"network", "Network fabric"},
        {"collectives", "Collectives"},      {"power", "Power"},
        {"cooling", "Cooling"},              {"egress", "Egress and WAN"},
        {"cost", "Cost"},                    {"coupling", "Coupling"}};
    return titles;
}

std::string csvField(const std::string& text)
{
    if (text.find_first_of(",\"\n") == std::string::npos)
        return text;
    std::string quoted = "\"";
    for (char c : text)
        quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
    return quoted + "\"";
}

std::string groupThousands(const std::string& digits)
{
    std::string out;
    const int n = static_cast<int>(digits.size());
    for (int i = 0; i < n; ++i) {
        out += digits[static_cast<std::size_t>(i)];
        if ((n - i - 1) % 3 == 0 && i != n - 1)
            out += ',';
    }
    return out;
}

} // namespace

std::string formatNumber(double value)
{
    if (!std::isfinite(value))
        return std::isnan(value) ? "n/a" : (value > 0 ? "inf" : "-inf");
    const double a = std::fabs(value);
    if (a != 0.0 && (a >= 1e15 || a < 1e-4))
        return fmt::format("{:.4g}", value);
    if (a >= 1000.0) {
        const auto rounded = static_cast<long long>(std::llround(a));
        return (value < 0 ? "-" : "") + groupThousands(std::to_string(rounded));
    }
    const int decimals = a >= 100 ? 1 : a >= 10 ? 2 : a >= 1 ? 3 : 4;
    std::string text = fmt::format("{:.{}f}", value, decimals);
    if (text.find('.') != std::string::npos) {
        while (text.back() == '0')
            text.pop_back();
        if (text.back() == '.')
            text.pop_back();
    }
    return text == "-0" ? "0" : text;
}

std::string evaluationTable(const solvers::Evaluation& e, const std::string& file)
{
    std::string out = fmt::format("Scenario: {}{}\n", e.scenarioName.empty() ? "(unnamed)"
                                                                             : e.scenarioName,
                                  file.empty() ? "" : "  [" + file + "]");
    std::size_t labelWidth = 10;
    for (const auto& m : e.metrics)
        labelWidth = std::max(labelWidth, m.label.size());
    std::string section;
    for (const auto& m : e.metrics) {
        if (m.section() != section) {
            section = m.section();
            auto it = sectionTitles().find(section);
            out += "\n" + (it != sectionTitles().end() ? it->second : section) + "\n";
        }
        out += fmt::format("  {:<{}}  {:>16} {}\n", m.label, labelWidth, formatNumber(m.value),
                           m.unit);
    }
    if (!e.diagnostics.empty()) {
        out += "\nDiagnostics\n";
        for (const auto& d : e.diagnostics)
            out += "  " + d.toString() + "\n";
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
    std::string out;
    for (const auto& m : e.metrics)
        out += fmt::format("{},{},{},{},{},{}\n", csvField(file), csvField(e.scenarioName), m.key,
                           csvField(m.label), fmt::format("{:.10g}", m.value), csvField(m.unit));
    return out;
}

} // namespace dct::cli
