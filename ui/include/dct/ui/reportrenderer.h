#pragma once

#include "dct/model/diagnostics.h"
#include "dct/model/resolvedscenario.h"
#include "dct/solvers/evaluation.h"

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace dct::report {

/** One scenario of a report: where it came from, its resolved inputs and its evaluation. */
struct ReportScenario
{
    std::string file;
    std::optional<model::ResolvedScenario> resolved; ///< Empty when it could not be resolved.
    solvers::Evaluation evaluation;
    Diagnostics diagnostics; ///< Reading, resolving and evaluating, together.
};

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

} // namespace dct::report
