#include "dct/report/reportrenderer.h"

#include "dct/model/atomicfile.h"
#include "dct/model/textformat.h"
#include "dct/report/hallsvg.h"
#include "dct/report/svgchart.h"
#include "dct/solvers/metricsection.h"

#include <algorithm>
#include <cmath>
#include <ctime>
#include <map>

namespace dct::report {

namespace {

// A report shows text of any length in bounded time: longer text is shortened with a note.
/** A scenario name in a heading: 18 pt on A4 holds about 50 characters a line, so four lines. */
constexpr std::size_t nameLimitBytes = 200;
/** Any other text (a description, a message): about one A4 page at 10 pt, some 4,000 characters. */
constexpr std::size_t textLimitBytes = 4000;

std::string h(const std::string& text)
{
    return escapeXml(shortenedText(text, textLimitBytes));
}

/** Returns the name a report gives the scenario: its own, or its file's, shortened. */
std::string displayName(const ReportScenario& s)
{
    return shortenedText(s.evaluation.scenarioName.empty() ? s.file : s.evaluation.scenarioName,
                         nameLimitBytes);
}

std::string valueWithUnit(const solvers::Metric& m)
{
    return formatQuantity(m.value, m.unit);
}

/** The parts of the facility's power, from the power solver's typed result. */
std::vector<ChartBar> powerBars(const solvers::PowerResult& p)
{
    return {{"Nodes power", p.nodesPowerKw},
            {"Network power", p.networkPowerKw},
            {"Storage power", p.storagePowerKw},
            {"PDU loss", p.pduLossKw},
            {"UPS (or HVDC rectifier) loss", p.upsLossKw},
            {"Transformer loss", p.transformerLossKw},
            {"Lighting", p.lightingKw},
            {"Cooling power", p.coolingPowerKw}};
}

/** The parts of the capital cost, from the cost solver's typed result. */
std::vector<ChartBar> capexBars(const solvers::CostResult& c)
{
    return {{"Capex: nodes", c.capexNodesUsd},           {"Capex: network", c.capexNetworkUsd},
            {"Capex: storage", c.capexStorageUsd},       {"Capex: racks", c.capexRacksUsd},
            {"Capex: cooling plant", c.capexCoolingUsd}, {"Capex: power plant", c.capexPowerUsd}};
}

const char* css = R"(
body { font-family: 'DejaVu Sans', Arial, sans-serif; color: #222; margin: 24px; font-size: 10pt; }
h1 { font-size: 18pt; color: #1d3f66; margin-bottom: 4px; }
h2 { font-size: 13pt; color: #1d3f66; border-bottom: 1px solid #9bb; margin-top: 18px; }
h3 { font-size: 11pt; color: #333; margin-top: 12px; }
p.meta { color: #555; font-size: 9pt; }
table { border-collapse: collapse; margin: 6px 0; }
th, td { border: 1px solid #c8d0d8; padding: 3px 6px; font-size: 9pt; vertical-align: top; }
th { background: #e8eef4; text-align: left; }
td.num { text-align: right; white-space: nowrap; }
td.key { color: #667; font-size: 8pt; }
.error { color: #a01818; font-weight: bold; }
.warning { color: #a06000; font-weight: bold; }
.verdict { padding: 4px 8px; font-weight: bold; }
.verdict.feasible { color: #116329; background: #dafbe1; }
.verdict.feasible_with_warnings { color: #7d4e00; background: #fff8c5; }
.verdict.infeasible { color: #a40e26; background: #ffebe9; }
.note { color: #345; }
.better { color: #1a7a33; }
.worse { color: #a01818; }
)";

} // namespace

ReportRenderer::ReportRenderer(std::vector<ReportScenario> scenarios)
    : m_scenarios(std::move(scenarios))
{}

std::string ReportRenderer::body(const std::function<std::string(const std::string&, int)>& chart,
                                 bool forPdf) const
{
    std::string out;
    const std::time_t now = std::time(nullptr);
    char date[32];
    std::strftime(date, sizeof date, "%Y-%m-%d %H:%M UTC", std::gmtime(&now));
    const bool comparison = m_scenarios.size() > 1;
    const char* table = forPdf ? "<table border=\"1\" cellspacing=\"0\" cellpadding=\"3\" "
                                 "width=\"100%\">"
                               : "<table>";

    out += "<h1>DC Twin " + std::string(comparison ? "comparison report" : "scenario report") +
           "</h1>\n";
    out += "<p class=\"meta\">Generated " + std::string(date) +
           " by DC Twin. Every figure "
           "comes from the coupled evaluation of the scenario files below; the assumptions "
           "section lists where each input came from.</p>\n";

    if (comparison) {
        out += "<h2>Comparison of headline figures</h2>\n";
        out += "<p class=\"meta\">Deltas are relative to the first scenario.</p>\n";
        out += table;
        out += "<tr><th>Figure</th>";
        for (const auto& s : m_scenarios)
            out += "<th>" + h(displayName(s)) + "</th>";
        out += "</tr>\n";
        out += "<tr><td>Verdict</td>";
        for (const auto& s : m_scenarios) {
            const solvers::Feasibility f = solvers::assessVerdict(s.diagnostics).feasibility;
            out += "<td class=\"verdict " + std::string(solvers::feasibilityKey(f)) + "\">" +
                   h(solvers::feasibilityLabel(f)) + "</td>";
        }
        out += "</tr>\n";
        for (const solvers::Metric* headline : m_scenarios.front().evaluation.headlines()) {
            const std::string& key = headline->key;
            const solvers::Metric* first = headline;
            out += "<tr><td>" + h(first->label) +
                   (first->unit.empty() ? "" : " (" + h(first->unit) + ")") + "</td>";
            for (std::size_t i = 0; i < m_scenarios.size(); ++i) {
                const solvers::Metric* m = m_scenarios[i].evaluation.metric(key);
                out += "<td class=\"num\">";
                if (m) {
                    out += h(formatNumber(m->value));
                    if (i > 0 && first->value != 0.0) {
                        const double delta = (m->value - first->value) / std::fabs(first->value);
                        char text[32];
                        std::snprintf(text, sizeof text, " (%+.1f%%)", delta * 100.0);
                        out += text;
                    }
                } else {
                    out += "n/a";
                }
                out += "</td>";
            }
            out += "</tr>\n";
        }
        out += "</table>\n";
        std::vector<ChartBar> tco;
        for (const auto& s : m_scenarios)
            if (const auto* m = s.evaluation.metric("cost.tco_usd_per_year"))
                tco.push_back({displayName(s), m->value});
        if (!tco.empty())
            out += chart(
                horizontalBarChartSvg("Total cost of ownership per year", tco, "USD/yr", 640), 640);
    }

    for (std::size_t index = 0; index < m_scenarios.size(); ++index) {
        const ReportScenario& s = m_scenarios[index];
        const solvers::Evaluation& e = s.evaluation;
        const std::string name = displayName(s);
        out += std::string(comparison || index > 0 ? "<h1 style=\"page-break-before: always\">"
                                                   : "<h1>") +
               h(name) + "</h1>\n";
        out += "<p class=\"meta\">File: " + h(s.file) + "</p>\n";
        if (s.resolved && !s.resolved->scenario.description.empty())
            out += "<p>" + h(s.resolved->scenario.description) + "</p>\n";
        if (!e.ok())
            out += "<p class=\"error\">The scenario has errors and was not fully evaluated; "
                   "see the diagnostics.</p>\n";

        {
            // The verdict before any figure: can this design be built and run as described?
            const solvers::Verdict verdict = solvers::assessVerdict(s.diagnostics);
            const std::string key = solvers::feasibilityKey(verdict.feasibility);
            out += "<p class=\"verdict " + key +
                   "\"><b>Verdict: " + h(solvers::feasibilityLabel(verdict.feasibility)) + "</b>";
            if (verdict.reasons.empty())
                out += ": no error, no broken limit, no warning.";
            out += "</p>\n";
            if (!verdict.reasons.empty()) {
                out += "<ul class=\"reasons\">\n";
                for (const auto& d : verdict.reasons)
                    out += "<li>" + h(d.message) +
                           (d.path.empty() ? "" : " <i>(" + h(d.path) + ")</i>") + "</li>\n";
                out += "</ul>\n";
            }
        }

        // Headline figures.
        out += "<h2>Headline figures</h2>\n";
        out += table;
        out += "<tr><th>Figure</th><th>Value</th><th>Figure</th><th>Value</th></tr>\n";
        const std::vector<const solvers::Metric*> headline = e.headlines();
        for (std::size_t i = 0; i < headline.size(); i += 2) {
            out += "<tr>";
            for (std::size_t k = i; k < i + 2; ++k) {
                if (k < headline.size())
                    out += "<td>" + h(headline[k]->label) + "</td><td class=\"num\"><b>" +
                           h(valueWithUnit(*headline[k])) + "</b></td>";
                else
                    out += "<td></td><td></td>";
            }
            out += "</tr>\n";
        }
        out += "</table>\n";

        // Charts.
        if (e.ok()) {
            out += "<h2>Charts</h2>\n";
            const auto power = powerBars(e.power);
            out += chart(horizontalBarChartSvg("Power breakdown", power, "kW", 640), 640);
            const auto capex = capexBars(e.cost);
            if (!capex.empty())
                out +=
                    chart(horizontalBarChartSvg("Capital cost breakdown", capex, "USD", 640), 640);
            std::vector<ChartBar> pue;
            for (const auto& option : e.coolingOptions)
                pue.push_back({option.systemId, option.pue});
            if (!pue.empty())
                out += chart(
                    horizontalBarChartSvg("PUE of the cooling options at this site", pue, "", 640),
                    640);
            std::vector<ChartBar> collectives;
            for (const auto& c : e.network.collectives)
                if (c.available)
                    collectives.push_back({std::string(solvers::collectiveOpName(c.op)) + " " +
                                               solvers::collectiveAlgorithmName(c.algorithm),
                                           c.seconds * 1e3});
            if (!collectives.empty())
                out += chart(
                    horizontalBarChartSvg("Collective time for 1 GiB", collectives, "ms", 640),
                    640);
        }

        // Topology: the fabric's counts per tier and per link class, from the typed result.
        const solvers::TopologyResult& t = e.network.topology;
        if (e.network.valid && !t.tiersCounts.empty()) {
            std::vector<std::pair<std::string, double>> rows = {
                {"Fabric planes", t.planes},
                {"Switch tiers", t.tiers},
                {"Fabric endpoints (NIC ports)", static_cast<double>(t.endpoints)},
                {"NICs", static_cast<double>(t.nics)}};
            for (const auto& c : t.tiersCounts) {
                const std::string tier = solvers::fabricTierName(c.tier);
                rows.push_back({"Switches, " + tier, static_cast<double>(c.switches)});
                rows.push_back({"Ports used, " + tier, static_cast<double>(c.portsUsed)});
                rows.push_back({"Ports free, " + tier, static_cast<double>(c.portsFree)});
            }
            rows.push_back({"Switches", static_cast<double>(t.switches)});
            rows.push_back({"Switch-to-switch links", static_cast<double>(t.switchLinks)});
            rows.push_back({"NIC-to-leaf links", static_cast<double>(t.endpointLinks)});
            long long transceivers = 0;
            for (const auto& line : t.cables) {
                rows.push_back({"Cables " + line.linkClass + " (" + line.cableKind + ")",
                                static_cast<double>(line.cables)});
                transceivers += line.transceivers;
            }
            rows.push_back({"Optical transceivers", static_cast<double>(transceivers)});
            out += "<h2>Topology</h2>\n";
            out += table;
            out += "<tr><th>Item</th><th>Count</th></tr>\n";
            for (const auto& [label, count] : rows)
                out += "<tr><td>" + h(label) + "</td><td class=\"num\">" + h(formatNumber(count)) +
                       "</td></tr>\n";
            out += "</table>\n";
        }

        // The floor plan of the hall: racks by kW, network racks and the switch cable runs.
        if (e.network.hall.valid) {
            HallSvgOptions plan;
            plan.maxWidthPx = 640;
            plan.nodeLeafRuns = false;
            out += "<h2>Floor plan</h2>\n";
            out += chart(hallSvg(e.network.hall, plan), 640);
        }

        // Every metric by section.
        out += "<h2>Results by section</h2>\n";
        std::map<std::string, std::vector<const solvers::Metric*>> bySection;
        for (const auto& m : e.metrics)
            bySection[m.section()].push_back(&m);
        auto writeSection = [&](const std::string& section, const std::string& title) {
            auto it = bySection.find(section);
            if (it == bySection.end())
                return;
            out += "<h3>" + h(title) + "</h3>\n";
            out += table;
            out += "<tr><th>Figure</th><th>Value</th><th>Key</th></tr>\n";
            for (const auto* m : it->second)
                out += "<tr><td>" + h(m->label) + "</td><td class=\"num\">" + h(valueWithUnit(*m)) +
                       "</td><td class=\"key\">" + h(m->key) + "</td></tr>\n";
            out += "</table>\n";
            bySection.erase(it);
        };
        for (const auto& section : solvers::metricSections())
            writeSection(std::string(section.key), std::string(section.title));
        while (!bySection.empty()) {
            const std::string section = bySection.begin()->first;
            writeSection(section, section);
        }

        // Assumptions with their sources.
        if (s.resolved) {
            out += "<h2>Assumptions and their sources</h2>\n";
            out += "<p class=\"meta\">Every input of the evaluation: set in the scenario file "
                   "(user), taken from the catalog (with the catalog's source), or the "
                   "program's default.</p>\n";
            out += table;
            out += "<tr><th>Input</th><th>Origin</th><th>Source</th></tr>\n";
            for (const auto& [pointer, provenance] : s.resolved->provenance)
                out += "<tr><td class=\"key\">" + h(pointer) + "</td><td>" +
                       model::Provenance::originName(provenance.origin) + "</td><td>" +
                       h(provenance.source) + "</td></tr>\n";
            out += "</table>\n";
        }

        // Diagnostics.
        out += "<h2>Diagnostics</h2>\n";
        if (s.diagnostics.empty()) {
            out += "<p>None: no errors, warnings or notes.</p>\n";
        } else {
            out += table;
            out += "<tr><th>Severity</th><th>Field</th><th>Message</th></tr>\n";
            for (const auto& d : s.diagnostics) {
                const std::string severity = severityName(d.severity);
                out += "<tr><td class=\"" + severity + "\">" + severity +
                       "</td><td class=\"key\">" + h(d.path) + "</td><td>" + h(d.message) +
                       (d.hint.empty() ? "" : " <i>(" + h(d.hint) + ")</i>") + "</td></tr>\n";
            }
            out += "</table>\n";
        }
    }
    return out;
}

std::string ReportRenderer::html() const
{
    std::string out = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n";
    out += "<title>DC Twin report</title>\n<style>" + std::string(css) + "</style>\n</head>\n";
    out += "<body>\n";
    out += body([](const std::string& svg, int) { return "<div>\n" + svg + "</div>\n"; }, false);
    out += "</body>\n</html>\n";
    return out;
}

std::string ReportRenderer::writeHtml(const std::string& path) const
{
    // Atomic: a failed or interrupted write never leaves a half report in place of a good one.
    if (auto written = writeFileAtomically(path, html()); !written)
        return written.error().toString();
    return {};
}

std::string ReportRenderer::pdfBody(
    const std::function<std::string(const std::string& svg, int widthPx)>& chart) const
{
    return body(chart, true);
}

const char* ReportRenderer::styleSheet()
{
    return css;
}

} // namespace dct::report
