#pragma once

#include "dct/ui/reportscenario.h"

#include <functional>
#include <string>
#include <vector>

namespace dct::ui {

/**
 * Renders a report of one scenario, or a comparison of several, as self-contained HTML (inline
 * CSS and SVG charts, no external files) and as PDF: headline figures, charts, the topology,
 * every metric grouped by section, the assumptions with their sources, and the diagnostics.
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
    /** Writes the PDF report (A4) to \a path; needs a QGuiApplication. Returns "" or an error. */
    std::string writePdf(const std::string& path) const;

private:
    /** Returns the body; each chart's SVG goes through \a chart to become HTML. */
    std::string body(const std::function<std::string(const std::string& svg, int widthPx)>& chart,
                     bool forPdf) const;

    std::vector<ReportScenario> m_scenarios;
};

} // namespace dct::ui
