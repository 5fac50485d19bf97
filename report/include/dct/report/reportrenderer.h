#pragma once

#include "dct/report/reportscenario.h"

#include <functional>
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

private:
    /** Returns the body; each chart's SVG goes through \a chart to become HTML. */
    std::string body(const std::function<std::string(const std::string& svg, int widthPx)>& chart,
                     bool forPdf) const;

    std::vector<ReportScenario> m_scenarios;
};

} // namespace dct::report
