#pragma once

#include "dct/report/reportscenario.h"

#include <functional>
#include <initializer_list>
#include <string>
#include <vector>

namespace dct::report {

/**
 * Renders a report of one scenario, or a comparison of several, as self-contained HTML (inline
 * CSS and SVG charts, no external files), and the body of the PDF that ui/ prints (pdfreport.h):
 * headline figures, charts, the topology, every metric grouped by section, the assumptions with
 * their sources, and the diagnostics.
 */
class ReportRenderer
{
public:
    /** Prepares a report of \a scenarios (one: a scenario report; more: a comparison). */
    explicit ReportRenderer(std::vector<ReportScenario> scenarios);

    /** Returns the report as one HTML document. */
    std::string html() const;
    /** Writes the HTML report to \a path; returns "" or what went wrong. */
    std::string writeHtml(const std::string& path) const;
    /**
     * Returns the body for a paged document (the PDF, drawn in ui/): each chart's SVG goes
     * through \a chart, which returns the HTML that shows it (an image resource).
     */
    std::string
    pdfBody(const std::function<std::string(const std::string& svg, int widthPx)>& chart) const;
    /** Returns the CSS of the report, shared by the HTML and the PDF. */
    static const char* styleSheet();

    /** Returns the input at \a pointer as people read it ("Compute GPU: peak TFLOPS BF16"). */
    static std::string inputName(const std::string& pointer);

private:
    /** Returns the body; each chart's SVG goes through \a chart to become HTML. */
    std::string body(const std::function<std::string(const std::string& svg, int widthPx)>& chart,
                     bool forPdf) const;

    /** One row of the assumptions: a source and the inputs it gave, by name. */
    struct AssumptionGroup
    {
        std::string source;
        std::string inputs;
    };

    /** Returns the comparison's summary: the decision, the headline figures side by side with
     *  coloured changes, the verdicts and the warnings of every scenario. */
    std::string comparisonSummary(const std::string& table) const;
    /** Returns the row of figure \a first (of the first scenario) with every scenario's value
     *  and its change against the first, coloured by the direction the figure declares. */
    std::string comparisonRow(const solvers::Metric& first) const;
    /** Returns the five figures of the executive summary: GPUs, design facility load, capex,
     *  TCO a year and training time (headline figures fill any that is missing). */
    static std::vector<const solvers::Metric*> summaryFigures(const solvers::Evaluation& e);
    /** Returns the verdict as a coloured paragraph. */
    static std::string verdictParagraph(const solvers::Verdict& verdict);
    /** Returns what the verdict means for the decision to build \a s. */
    static std::string decisionText(const ReportScenario& s, const solvers::Verdict& verdict);
    /** Returns the errors and warnings of \a s, each whole with the field to fix. */
    static std::string warningList(const ReportScenario& s);
    /** Returns the inputs of \a resolved grouped by their source. */
    static std::vector<AssumptionGroup> assumptionGroups(const model::ResolvedScenario& resolved);

    std::vector<ReportScenario> m_scenarios;
};

} // namespace dct::report
