#include "dct/report/reportrenderer.h"

#include "dct/model/atomicfile.h"
#include "dct/model/textformat.h"
#include "dct/report/hallsvg.h"
#include "dct/report/siteyearsvg.h"
#include "dct/report/stepbreakdownsvg.h"
#include "dct/report/svgchart.h"
#include "dct/solvers/hourlyyear.h"
#include "dct/solvers/metricsection.h"
#include "reportnumber.h"

#include <algorithm>
#include <cctype>
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

/**
 * Returns the pictures of the site year (docs/siteyear.md): heat maps of the PUE and of the
 * server inlet (or coolant) temperature by day and hour, and the water and carbon of each month;
 * empty for a site without an hourly year.
 */
std::string siteYearCharts(const ReportScenario& s,
                           const std::function<std::string(const std::string&, int)>& chart)
{
    if (!s.resolved || !s.evaluation.ok())
        return {};
    const solvers::HourlyYear year = solvers::expandHourly(*s.resolved, s.evaluation);
    if (!year.hourly)
        return {};
    std::string out = "<h2>The site year</h2>\n";
    out += "<p class=\"meta\">Each hour of the year takes the figures of its climate state "
           "(docs/siteyear.md); the plant holds the supply setpoints in every hour.</p>\n";
    out += chart(yearHeatMapSvg("PUE by day and hour", year.pue, "PUE", 640), 640);
    const bool liquid = s.evaluation.cooling.coolantTempC > 0.0;
    out += chart(yearHeatMapSvg(liquid ? "Coolant at the cold plates by day and hour"
                                       : "Server inlet air by day and hour",
                                liquid ? year.coolantC : year.inletC, "°C", 640),
                 640);
    out += chart(yearHeatMapSvg("Outdoor dry bulb by day and hour", year.dryBulbC, "°C", 640), 640);
    out += chart(monthlyWaterCarbonSvg(s.evaluation.cooling.monthlyWaterM3,
                                       s.evaluation.grid.monthlyCarbonTonnes, 640),
                 640);
    return out;
}

std::string valueWithUnit(const solvers::Metric& m)
{
    return reportQuantity(m.value, m.unit);
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
    return {{"Capex: nodes", c.capexNodesUsd},
            {"Capex: network", c.capexNetworkUsd},
            {"Capex: storage", c.capexStorageUsd},
            {"Capex: racks", c.capexRacksUsd},
            {"Capex: cooling plant", c.capexCoolingUsd},
            {"Capex: power plant", c.capexPowerUsd},
            {"Capex: redundant plant units", c.capexRedundancyUsd}};
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
td.fine { font-size: 7pt; padding: 1px 4px; }
.error { color: #a01818; font-weight: bold; }
.warning { color: #a06000; font-weight: bold; }
.verdict { padding: 4px 8px; font-weight: bold; }
.verdict.feasible { color: #116329; background: #dafbe1; }
.verdict.feasible_with_warnings { color: #7d4e00; background: #fff8c5; }
.verdict.infeasible { color: #a40e26; background: #ffebe9; }
.note { color: #345; }
.better { color: #1a7a33; font-weight: bold; }
.worse { color: #a01818; font-weight: bold; }
.change { color: #555; }
.decision { font-size: 11pt; }
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
    // A table's first row is its header (<thead>): browsers and the PDF repeat it on every page
    // the table runs over.
    const std::string table = forPdf ? "<table border=\"1\" cellspacing=\"0\" cellpadding=\"3\" "
                                       "width=\"100%\">"
                                     : "<table>";
    const auto head = [&](std::initializer_list<const char*> columns) {
        std::string row = table + "<thead><tr>";
        for (const char* c : columns)
            row += std::string("<th>") + c + "</th>";
        return row + "</tr></thead>\n";
    };

    out += "<h1>DC Twin " + std::string(comparison ? "comparison report" : "scenario report") +
           "</h1>\n";
    out += "<p class=\"meta\">Generated " + std::string(date) +
           " by DC Twin. Every figure comes from the coupled evaluation of the scenario " +
           std::string(comparison ? "files" : "file") +
           " named below; the assumptions list where each input came from.</p>\n";

    // The executive summary: the decision, the headline figures, the verdict and the warnings,
    // on the first page.
    out += "<h2>Executive summary</h2>\n";
    if (!comparison) {
        const ReportScenario& s = m_scenarios.front();
        const solvers::Verdict verdict = solvers::assessVerdict(s.diagnostics);
        out += "<p><b>" + h(displayName(s)) + "</b></p>\n";
        out += verdictParagraph(verdict);
        out += "<p class=\"decision\">" + h(decisionText(s, verdict)) + "</p>\n";
        const std::vector<const solvers::Metric*> headline = summaryFigures(s.evaluation);
        if (!headline.empty()) {
            out += head({"Headline figure", "Value"});
            for (const solvers::Metric* m : headline)
                out += "<tr><td>" + h(m->label) + "</td><td class=\"num\"><b>" +
                       h(valueWithUnit(*m)) + "</b></td></tr>\n";
            out += "</table>\n";
        }
        out += warningList(s);
    } else {
        out += comparisonSummary(table);
    }

    for (std::size_t index = 0; index < m_scenarios.size(); ++index) {
        const ReportScenario& s = m_scenarios[index];
        const solvers::Evaluation& e = s.evaluation;
        // Each scenario's details on a new page, after the summary.
        out += "<h1 style=\"page-break-before: always\">" +
               (comparison ? std::string(1, static_cast<char>('A' + index % 26)) + ": "
                           : std::string()) +
               h(displayName(s)) + "</h1>\n";
        out += "<p class=\"meta\">File: " + h(s.file) + "</p>\n";
        if (s.resolved && !s.resolved->scenario.description.empty())
            out += "<p>" + h(s.resolved->scenario.description) + "</p>\n";
        if (!e.ok())
            out += "<p class=\"error\">The scenario has errors and was not fully evaluated; "
                   "see the diagnostics.</p>\n";

        if (!comparison) {
            // Every headline figure (the summary holds the first five).
            out += "<h2>Headline figures</h2>\n";
            out += head({"Figure", "Value", "Figure", "Value"});
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
        }

        // Charts.
        if (e.ok()) {
            out += "<h2>Charts</h2>\n";
            const auto power = powerBars(e.power);
            out += chart(horizontalBarChartSvg("Power breakdown", power, "kW", 640), 640);
            if (const std::string step = stepBreakdownChartSvg(e, 640); !step.empty())
                out += chart(step, 640);
            const auto capex = capexBars(e.cost);
            if (!capex.empty())
                out +=
                    chart(horizontalBarChartSvg("Capital cost breakdown", capex, "USD", 640), 640);
            // Ranked as the dashboard ranks them, the lowest PUE first: the best green, the
            // worst red, the others grey, so that a nearly-best option is never painted red.
            auto options = e.coolingOptions;
            std::stable_sort(options.begin(), options.end(),
                             [](const auto& a, const auto& b) { return a.pue < b.pue; });
            std::vector<ChartBar> pue;
            std::size_t ownRank = 0;
            for (std::size_t i = 0; i < options.size(); ++i) {
                const auto& option = options[i];
                const bool own = option.systemId == e.cooling.systemId;
                if (own)
                    ownRank = i + 1;
                const bool spread = options.back().pue > options.front().pue;
                const char* color = !spread                             ? "#8fa3ad"
                                    : option.pue == options.front().pue ? "#2da44e"
                                    : option.pue == options.back().pue  ? "#cf222e"
                                                                        : "#b0bec5";
                pue.push_back({own ? option.systemId + " (this scenario)" : option.systemId,
                               option.pue, color});
            }
            if (!pue.empty())
                out +=
                    chart(horizontalBarChartSvg(
                              ownRank > 0 ? "PUE of the cooling options at this site (this "
                                            "scenario: #" +
                                                std::to_string(ownRank) + " of " +
                                                std::to_string(pue.size()) + ")"
                                          : std::string("PUE of the cooling options at this site"),
                              pue, "", 640),
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
            if (!comparison)
                out += siteYearCharts(s, chart);
        }

        // Every figure by section; the topology once, in the network fabric section.
        if (!comparison) {
            // A page of its own: the charts above end where they end, and the first table
            // would otherwise start with a row or two at the foot of their page.
            out += "<h2 style=\"page-break-before: always\">Results by section</h2>\n";
            std::map<std::string, std::vector<const solvers::Metric*>> bySection;
            for (const auto& m : e.metrics)
                bySection[m.section()].push_back(&m);
            auto writeSection = [&](const std::string& section, const std::string& title) {
                auto it = bySection.find(section);
                if (it == bySection.end())
                    return;
                out += "<h3>" + h(title) + "</h3>\n";
                out += head({"Figure", "Value"});
                for (const auto* m : it->second)
                    out += "<tr><td>" + h(m->label) + "</td><td class=\"num\">" +
                           h(valueWithUnit(*m)) + "</td></tr>\n";
                out += "</table>\n";
                bySection.erase(it);
            };
            for (const auto& section : solvers::metricSections())
                writeSection(std::string(section.key), std::string(section.title));
            while (!bySection.empty()) {
                const std::string section = bySection.begin()->first;
                writeSection(section, section);
            }
        }

        // The calibration the collectives use: every measured size against the model. On a
        // page of its own: the heading and its note would otherwise end the page the results
        // end on, and the tables start the next.
        if (s.calibration) {
            const model::CalibrationProfile& c = *s.calibration;
            out += "<h2 style=\"page-break-before: always\">Calibration of the "
                   "collectives</h2>\n";
            // One nccl-tests program for every size (the usual case) is named once here
            // rather than in a column that the PDF's narrow table wraps letter by letter.
            std::string test = c.points.empty() ? std::string() : c.points.front().test;
            for (const auto& p : c.points)
                if (p.test != test)
                    test.clear();
            // "2026-11-26T13:02:25Z" as the report's own date reads: "2026-11-26 13:02 UTC".
            std::string when = c.createdAt;
            if (when.size() == 20 && when[10] == 'T' && when.back() == 'Z')
                when = when.substr(0, 10) + " " + when.substr(11, 5) + " UTC";
            out += "<p class=\"meta\">Calibration profile '" + h(c.name) + "', fitted " +
                   (when.empty() ? std::string() : h(when) + " ") + "on " +
                   h(std::to_string(c.points.size())) + " sizes of " +
                   (test.empty() ? std::string("nccl-tests runs") : h(test) + " runs") +
                   ": rms busbw residual " + h(reportNumber(c.rmsResidualPercent)) +
                   "%. Each collective is timed with " + h(c.timing.text()) +
                   ", as in the fit: the factors hold for that timing only.</p>\n";
            out += head({"Parameter", "Factor", "In the fit"});
            for (std::size_t i = 0; i < model::CollectiveCalibration::count; ++i)
                out += "<tr><td>" + h(model::CollectiveCalibration::label(i)) +
                       "</td><td class=\"num\">" + h(reportNumber(c.factors.at(i))) + "</td><td>" +
                       (c.fitted[i] ? std::string("fitted")
                        : model::CollectiveCalibration::heldValue(i) == 0.0
                            ? std::string("held at 0 (off)")
                            : std::string("held at 1")) +
                       "</td></tr>\n";
            out += "</table>\n";
            if (test.empty())
                out += head({"Test", "Size", "Measured busbw (GB/s)", "Model busbw (GB/s)",
                             "Residual (%)", "Timed with"});
            else
                out += head({"Size", "Measured busbw (GB/s)", "Model busbw (GB/s)", "Residual (%)",
                             "Timed with"});
            for (const auto& p : c.points)
                out += "<tr>" + (test.empty() ? "<td>" + h(p.test) + "</td>" : std::string()) +
                       "<td class=\"num\">" + h(formatBytes(p.bytes)) + "</td><td class=\"num\">" +
                       h(reportNumber(p.measuredBusbwGbytePerS)) + "</td><td class=\"num\">" +
                       h(reportNumber(p.modelBusbwGbytePerS)) + "</td><td class=\"num\">" +
                       h(reportNumber(p.residualPercent())) +
                       "</td><td style=\"white-space: nowrap\">" + h(p.algorithm) + "</td></tr>\n";
            out += "</table>\n";
        }

        // The floor plan of the hall: racks by kW, network racks and the switch cable runs.
        if (e.network.hall.valid) {
            HallSvgOptions plan;
            plan.maxWidthPx = 640;
            plan.nodeLeafRuns = false;
            // On a page of its own: the plan is too tall to share one, and its heading would
            // otherwise end the page before it.
            out += "<h2 style=\"page-break-before: always\">Floor plan</h2>\n";
            out += chart(hallSvg(e.network.hall, plan), 640);
        }

        // Assumptions, one row per source with the inputs it gave.
        if (s.resolved) {
            out += "<h2>Assumptions and their sources</h2>\n";
            out += "<p class=\"meta\">Every input of the evaluation, grouped by where it came "
                   "from: the scenario file, a catalog entry (with the catalog's source) or the "
                   "program's default.</p>\n";
            out += head({"Source", "Inputs"});
            // In small print: the list is long (a catalog entry's every datasheet sentence).
            for (const auto& group : assumptionGroups(*s.resolved))
                out += "<tr><td class=\"fine\">" + h(group.source) + "</td><td class=\"fine\">" +
                       h(group.inputs) + "</td></tr>\n";
            out += "</table>\n";
        }

        // Diagnostics.
        out += "<h2>Diagnostics</h2>\n";
        if (s.diagnostics.empty()) {
            out += "<p>None: no errors, warnings or notes.</p>\n";
        } else {
            out += head({"Severity", "Field to fix", "Message"});
            for (const auto& d : s.diagnostics) {
                const std::string severity = severityName(d.severity);
                out += "<tr><td class=\"" + severity + "\">" + severity + "</td><td>" +
                       h(d.path.empty() ? "(scenario)" : d.path) + "</td><td>" + h(d.message) +
                       (d.hint.empty() ? "" : " <i>(" + h(d.hint) + ")</i>") + "</td></tr>\n";
            }
            out += "</table>\n";
        }
    }
    return out;
}

std::string ReportRenderer::comparisonSummary(const std::string& table) const
{
    std::string out;
    const ReportScenario& base = m_scenarios.front();
    // The decision: the cheapest feasible design by total cost of ownership.
    const ReportScenario* cheapest = nullptr;
    double cheapestTco = 0.0;
    std::size_t feasible = 0;
    for (const auto& s : m_scenarios) {
        if (solvers::assessVerdict(s.diagnostics).feasibility == solvers::Feasibility::Infeasible)
            continue;
        ++feasible;
        if (const auto* m = s.evaluation.metric("cost.tco_usd_per_year"))
            if (!cheapest || m->value < cheapestTco) {
                cheapest = &s;
                cheapestTco = m->value;
            }
    }
    std::string decision = reportNumber(static_cast<double>(feasible)) + " of " +
                           reportNumber(static_cast<double>(m_scenarios.size())) +
                           " designs can be built as described.";
    if (cheapest)
        decision += " The lowest total cost of ownership among them: " + displayName(*cheapest) +
                    ", " + reportQuantity(cheapestTco, "USD/year") + ".";
    else
        decision += " None can be built as described: see the reasons below.";
    out += "<p class=\"decision\">" + h(decision) + "</p>\n";

    out += "<p class=\"meta\">Changes are against A, the first scenario: green when better, red "
           "when worse, by the direction each figure declares.</p>\n";
    // Every column's width given: the figure column a third, the scenarios share the rest.
    const std::string columnWidth =
        " width=\"" + std::to_string(66 / std::max<std::size_t>(1, m_scenarios.size())) + "%\"";
    out += table + "<thead><tr><th width=\"34%\">Figure</th>";
    for (std::size_t i = 0; i < m_scenarios.size(); ++i)
        out += "<th" + columnWidth + ">" + std::string(1, static_cast<char>('A' + i % 26)) + ": " +
               h(displayName(m_scenarios[i])) + "</th>";
    out += "</tr></thead>\n<tr><td>Verdict</td>";
    for (const auto& s : m_scenarios) {
        const solvers::Feasibility f = solvers::assessVerdict(s.diagnostics).feasibility;
        out += "<td class=\"verdict " + std::string(solvers::feasibilityKey(f)) + "\">" +
               h(solvers::feasibilityLabel(f)) + "</td>";
    }
    out += "</tr>\n";
    for (const solvers::Metric* first : base.evaluation.headlines())
        out += comparisonRow(*first);
    out += "</table>\n";

    // The warnings of every scenario, up front.
    out += "<h2>Warnings of every scenario</h2>\n";
    for (std::size_t i = 0; i < m_scenarios.size(); ++i) {
        out += "<h3>" + std::string(1, static_cast<char>('A' + i % 26)) + ": " +
               h(displayName(m_scenarios[i])) + "</h3>\n";
        out += warningList(m_scenarios[i]);
    }

    // Every other figure that differs, side by side, by section.
    out += "<h2>Every figure that differs</h2>\n";
    out += table + "<thead><tr><th width=\"34%\">Figure</th>";
    for (std::size_t i = 0; i < m_scenarios.size(); ++i)
        out +=
            "<th" + columnWidth + ">" + std::string(1, static_cast<char>('A' + i % 26)) + "</th>";
    out += "</tr></thead>\n";
    std::string section;
    std::size_t shown = 0;
    for (const auto& first : base.evaluation.metrics) {
        if (first.headline())
            continue;
        bool differs = false;
        for (const auto& s : m_scenarios) {
            const solvers::Metric* m = s.evaluation.metric(first.key);
            differs = differs || !m || differsAtDisplay(m->value, first.value, first.unit);
        }
        if (!differs)
            continue;
        if (first.section() != section) {
            section = first.section();
            out += "<tr><td colspan=\"" + std::to_string(m_scenarios.size() + 1) + "\"><b>" +
                   h(std::string(solvers::metricSectionTitle(section))) + "</b></td></tr>\n";
        }
        out += comparisonRow(first);
        ++shown;
    }
    out += "</table>\n";
    if (shown == 0)
        out += "<p>None: every other figure is the same in every scenario.</p>\n";
    return out;
}

std::string ReportRenderer::comparisonRow(const solvers::Metric& first) const
{
    std::string out = "<tr><td>" + h(first.label) + "</td>";
    for (std::size_t i = 0; i < m_scenarios.size(); ++i) {
        const solvers::Metric* m = m_scenarios[i].evaluation.metric(first.key);
        out += "<td class=\"num\">";
        if (!m) {
            out += "n/a</td>";
            continue;
        }
        out += h(valueWithUnit(*m));
        // A difference below the display precision is none: "same", not coloured.
        if (i > 0 && differsAtDisplay(m->value, first.value, m->unit)) {
            const double delta = m->value - first.value;
            const int direction = m->traits.better == solvers::Better::Lower    ? -1
                                  : m->traits.better == solvers::Better::Higher ? +1
                                                                                : 0;
            const bool better = direction != 0 && (delta > 0) == (direction > 0);
            const char* cls = direction == 0 ? "change" : better ? "better" : "worse";
            std::string change = m->unit == "yes/no"
                                     ? std::string("changed")
                                     : (delta > 0 ? "+" : "") + reportQuantity(delta, m->unit);
            if (first.value != 0.0 && m->unit != "yes/no") {
                char text[32];
                std::snprintf(text, sizeof text, ", %+.1f%%",
                              100.0 * delta / std::fabs(first.value));
                change += text;
            }
            out += "<br><span class=\"" + std::string(cls) + "\">" + h(change) + "</span>";
        } else if (i > 0) {
            out += "<br><span class=\"change\">same</span>";
        }
        out += "</td>";
    }
    return out + "</tr>\n";
}

std::vector<const solvers::Metric*> ReportRenderer::summaryFigures(const solvers::Evaluation& e)
{
    // The five figures a decision is taken on: size, the feed to contract, the money up front
    // and a year, and the time to train; the headline ranks fill a figure that is missing.
    std::vector<const solvers::Metric*> list;
    for (const char* key : {"compute.gpus", "power.design_facility_kw", "cost.capex_usd",
                            "cost.tco_usd_per_year", "compute.training_days"})
        if (const solvers::Metric* m = e.metric(key))
            list.push_back(m);
    for (const solvers::Metric* m : e.headlines())
        if (list.size() < 5 && std::find(list.begin(), list.end(), m) == list.end())
            list.push_back(m);
    return list;
}

std::string ReportRenderer::verdictParagraph(const solvers::Verdict& verdict)
{
    const std::string key = solvers::feasibilityKey(verdict.feasibility);
    return "<p class=\"verdict " + key +
           "\"><b>Verdict: " + h(solvers::feasibilityLabel(verdict.feasibility)) + "</b></p>\n";
}

std::string ReportRenderer::decisionText(const ReportScenario& s, const solvers::Verdict& verdict)
{
    switch (verdict.feasibility) {
    case solvers::Feasibility::Feasible:
        return "Decision: the design can be built and run as described; no limit is broken and "
               "nothing needs a second look.";
    case solvers::Feasibility::FeasibleWithWarnings: {
        const auto findings =
            std::count_if(s.diagnostics.begin(), s.diagnostics.end(),
                          [](const Diagnostic& d) { return d.severity != Severity::Note; });
        return "Decision: the design can be built, but " +
               reportNumber(static_cast<double>(findings)) +
               (findings == 1 ? " warning below needs" : " warnings below need") +
               " a decision first.";
    }
    case solvers::Feasibility::Infeasible:
        break;
    }
    std::string text = "Decision: the design cannot be built as described";
    if (!verdict.reasons.empty()) {
        const Diagnostic& first = verdict.reasons.front();
        text += ": " + first.message;
        if (!first.path.empty())
            text += " (change " + first.path + ")";
    }
    return text + ".";
}

std::string ReportRenderer::warningList(const ReportScenario& s)
{
    std::string out;
    std::size_t shown = 0;
    for (const auto& d : s.diagnostics) {
        if (d.severity == Severity::Note)
            continue;
        if (shown++ == 0)
            out += "<ul class=\"reasons\">\n";
        const std::string severity = severityName(d.severity);
        out += "<li><span class=\"" + severity + "\">" + severity + "</span>: " + h(d.message) +
               (d.path.empty() ? "" : " <i>(field to fix: " + h(d.path) + ")</i>") +
               (d.hint.empty() ? "" : "<br>" + h(d.hint)) + "</li>\n";
    }
    if (shown == 0)
        return "<p>No errors and no warnings.</p>\n";
    return out + "</ul>\n";
}

std::vector<ReportRenderer::AssumptionGroup>
ReportRenderer::assumptionGroups(const model::ResolvedScenario& resolved)
{
    // One row per source: a catalog entry's datasheet sentence stands once, with every input it
    // gave, instead of once per input.
    std::vector<AssumptionGroup> groups;
    std::map<std::string, std::size_t> indexOf;
    for (const auto& [pointer, provenance] : resolved.provenance) {
        std::string source = provenance.source;
        if (provenance.origin == model::Provenance::Origin::User)
            source = "Set in the scenario file (" + provenance.source + ")";
        else if (provenance.origin == model::Provenance::Origin::Default)
            source = "The program's default: " + (provenance.source.rfind("default: ", 0) == 0
                                                      ? provenance.source.substr(9)
                                                      : provenance.source);
        auto it = indexOf.find(source);
        if (it == indexOf.end()) {
            it = indexOf.emplace(source, groups.size()).first;
            groups.push_back({source, {}});
        }
        std::string& inputs = groups[it->second].inputs;
        inputs += (inputs.empty() ? "" : ", ") + inputName(pointer);
    }
    return groups;
}

std::string ReportRenderer::inputName(const std::string& pointer)
{
    // "/compute/gpu/peak_tflops_bf16" reads "Compute GPU: peak TFLOPS BF16", the labels of the
    // desktop's form; a unit suffix reads as its unit ("tdp_w": "TDP (W)").
    std::vector<std::string> parts;
    for (std::size_t start = 1; start <= pointer.size();) {
        std::size_t end = pointer.find('/', start);
        if (end == std::string::npos)
            end = pointer.size();
        if (end > start)
            parts.push_back(pointer.substr(start, end - start));
        start = end + 1;
    }
    if (parts.empty())
        return pointer;
    // Only the first word keeps its capital; acronyms ("GPU") stay upper case.
    const auto lowerFirst = [](std::string word) {
        if (word.size() > 1 && !std::isupper(static_cast<unsigned char>(word[1])))
            word[0] = static_cast<char>(std::tolower(static_cast<unsigned char>(word[0])));
        return word;
    };
    std::string where;
    for (std::size_t i = 0; i + 1 < parts.size(); ++i) {
        const std::string word = humanLabel(parts[i], {});
        where += where.empty() ? word : " " + lowerFirst(word);
    }
    const std::string name = labelWithUnit(parts.back());
    return where.empty() ? name : where + ": " + lowerFirst(name);
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
