#pragma once

#include <string>
#include <utility>
#include <vector>

namespace dct::report {

/** One bar of a chart: its label and value. */
struct ChartBar
{
    ChartBar() = default;
    /** A bar; without \a barColor it takes the chart's palette by position. */
    ChartBar(std::string barLabel, double barValue, std::string barColor = {})
        : label(std::move(barLabel)), value(barValue), color(std::move(barColor))
    {}

    std::string label;
    double value = 0.0;
    std::string color; ///< "#rrggbb"; empty: the chart's palette by position.
};

/**
 * Returns a horizontal bar chart as standalone SVG text (no external files), \a widthPx wide:
 * a title, one labelled bar per item scaled to the largest, and each value with \a unit.
 */
std::string horizontalBarChartSvg(const std::string& title, const std::vector<ChartBar>& bars,
                                  const std::string& unit, int widthPx = 640);

/** Returns \a text escaped for XML and HTML: &, <, > and quotes as entities, control characters
 *  made visible (printableText, line feeds and tabs kept). */
std::string escapeXml(const std::string& text);

} // namespace dct::report
