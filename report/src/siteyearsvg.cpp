#include "dct/report/siteyearsvg.h"

#include "dct/report/svgchart.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

namespace dct::report {

namespace {

constexpr std::array<const char*, 12> kMonthNames = {"Jan", "Feb", "Mar", "Apr", "May", "Jun",
                                                     "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};
constexpr std::array<int, 12> kMonthDays = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
/** Colour steps of a heat map: neighbouring hours of one step merge into one rectangle. */
constexpr int kColorSteps = 32;

std::string fmt(const char* format, double v)
{
    char buffer[64];
    std::snprintf(buffer, sizeof buffer, format, v);
    return buffer;
}

std::string hex(const std::array<int, 3>& c)
{
    char buffer[16];
    std::snprintf(buffer, sizeof buffer, "#%02x%02x%02x", c[0], c[1], c[2]);
    return buffer;
}

/** A short number for scale labels: 3 significant digits. */
std::string shortNumber(double v)
{
    return fmt(std::fabs(v) >= 100.0 ? "%.0f" : (std::fabs(v) >= 10.0 ? "%.1f" : "%.3g"), v);
}

} // namespace

std::array<int, 3> heatColor(double t)
{
    // Stops of a perceptually ordered scale, cool to hot.
    static constexpr std::array<std::array<double, 3>, 5> stops = {
        {{49, 54, 149}, {69, 160, 200}, {120, 198, 121}, {254, 224, 100}, {215, 48, 39}}};
    const double x = std::clamp(t, 0.0, 1.0) * (stops.size() - 1);
    const auto i = std::min(static_cast<std::size_t>(x), stops.size() - 2);
    const double w = x - static_cast<double>(i);
    std::array<int, 3> c{};
    for (std::size_t k = 0; k < 3; ++k)
        c[k] = static_cast<int>(std::lround((1.0 - w) * stops[i][k] + w * stops[i + 1][k]));
    return c;
}

std::string yearHeatMapSvg(const std::string& title, const Eigen::ArrayXd& values,
                           const std::string& unit, int widthPx)
{
    const int days = static_cast<int>(values.size() / 24);
    const double lo = values.size() > 0 ? values.minCoeff() : 0.0;
    const double hi = values.size() > 0 ? values.maxCoeff() : 0.0;
    const bool flat = !(hi - lo > 1e-9 * std::max(1.0, std::fabs(hi)));
    const double left = 44.0;
    const double top = 30.0;
    const double legendWidth = 100.0;
    const double plotWidth = std::max(100.0, widthPx - left - legendWidth);
    const double cellW = days > 0 ? plotWidth / days : 1.0;
    const double cellH = 7.0;
    const double plotHeight = 24 * cellH;
    const double height = top + plotHeight + 30.0;
    std::string svg = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" +
                      std::to_string(widthPx) + "\" height=\"" +
                      std::to_string(static_cast<int>(height)) + "\" viewBox=\"0 0 " +
                      std::to_string(widthPx) + " " + std::to_string(static_cast<int>(height)) +
                      "\" font-family=\"DejaVu Sans, sans-serif\" font-size=\"10\">\n";
    std::string heading = title;
    if (flat)
        heading += " - " + shortNumber(lo) + " " + unit + " every hour";
    svg += "<text x=\"" + fmt("%.0f", left) + "\" y=\"16\" font-size=\"13\" font-weight=\"bold\">" +
           escapeXml(heading) + "</text>\n";
    auto level = [&](double v) {
        return flat ? kColorSteps / 2
                    : std::clamp(static_cast<int>((v - lo) / (hi - lo) * kColorSteps), 0,
                                 kColorSteps - 1);
    };
    // One rectangle per run of hours of one day in one colour step.
    for (int d = 0; d < days; ++d) {
        int h = 0;
        while (h < 24) {
            const int step = level(values(d * 24 + h));
            int end = h + 1;
            while (end < 24 && level(values(d * 24 + end)) == step)
                ++end;
            const auto color = heatColor((step + 0.5) / kColorSteps);
            svg += "<rect x=\"" + fmt("%.2f", left + d * cellW) + "\" y=\"" +
                   fmt("%.1f", top + h * cellH) + "\" width=\"" + fmt("%.2f", cellW + 0.3) +
                   "\" height=\"" + fmt("%.1f", (end - h) * cellH) + "\" fill=\"" + hex(color) +
                   "\"/>\n";
            h = end;
        }
    }
    // Hour ticks on the left, month ticks below.
    for (int h = 0; h <= 24; h += 6)
        svg += "<text x=\"" + fmt("%.0f", left - 4) + "\" y=\"" +
               fmt("%.1f", top + h * cellH + (h == 24 ? 0.0 : 3.5)) + "\" text-anchor=\"end\">" +
               std::to_string(h) + ":00</text>\n";
    int day = 0;
    for (std::size_t m = 0; m < 12; ++m) {
        const double x = left + day * cellW;
        svg += "<line x1=\"" + fmt("%.1f", x) + "\" y1=\"" + fmt("%.1f", top + plotHeight) +
               "\" x2=\"" + fmt("%.1f", x) + "\" y2=\"" + fmt("%.1f", top + plotHeight + 4) +
               "\" stroke=\"#555\"/>\n";
        svg += "<text x=\"" + fmt("%.1f", x + kMonthDays[m] * cellW / 2) + "\" y=\"" +
               fmt("%.1f", top + plotHeight + 15) + "\" text-anchor=\"middle\">" + kMonthNames[m] +
               "</text>\n";
        day += kMonthDays[m];
    }
    // Colour scale.
    const double lx = left + plotWidth + 10.0;
    for (int i = 0; i < kColorSteps; ++i) {
        const double y = top + plotHeight - (i + 1) * plotHeight / kColorSteps;
        svg += "<rect x=\"" + fmt("%.1f", lx) + "\" y=\"" + fmt("%.2f", y) +
               "\" width=\"12\" height=\"" + fmt("%.2f", plotHeight / kColorSteps + 0.3) +
               "\" fill=\"" + hex(heatColor((i + 0.5) / kColorSteps)) + "\"/>\n";
    }
    svg += "<text x=\"" + fmt("%.1f", lx + 15) + "\" y=\"" + fmt("%.1f", top + 8) + "\">" +
           escapeXml(shortNumber(hi)) + "</text>\n";
    svg += "<text x=\"" + fmt("%.1f", lx + 15) + "\" y=\"" + fmt("%.1f", top + plotHeight) + "\">" +
           escapeXml(shortNumber(lo)) + "</text>\n";
    svg += "<text x=\"" + fmt("%.1f", lx) + "\" y=\"" + fmt("%.1f", top + plotHeight + 15) + "\">" +
           escapeXml(unit) + "</text>\n";
    svg += "</svg>\n";
    return svg;
}

std::string monthlyWaterCarbonSvg(const std::array<double, 12>& waterM3,
                                  const std::array<double, 12>& carbonTonnes, int widthPx)
{
    const double left = 60.0;
    const double panelHeight = 90.0;
    const double plotWidth = widthPx - left - 70.0; // the PDF page keeps about 600 px
    const double slot = plotWidth / 12.0;
    const double height = 30.0 + 2 * (panelHeight + 40.0);
    std::string svg = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" +
                      std::to_string(widthPx) + "\" height=\"" +
                      std::to_string(static_cast<int>(height)) + "\" viewBox=\"0 0 " +
                      std::to_string(widthPx) + " " + std::to_string(static_cast<int>(height)) +
                      "\" font-family=\"DejaVu Sans, sans-serif\" font-size=\"10\">\n";
    svg += "<text x=\"" + fmt("%.0f", left) +
           "\" y=\"16\" font-size=\"13\" font-weight=\"bold\">Water and carbon by month</text>\n";
    auto panel = [&](const std::array<double, 12>& values, double top, const std::string& what,
                     const char* color) {
        const double peak = std::max(1e-12, *std::max_element(values.begin(), values.end()));
        double total = 0.0;
        for (double v : values)
            total += v;
        svg += "<text x=\"" + fmt("%.0f", left) + "\" y=\"" + fmt("%.1f", top - 6) +
               "\" font-weight=\"bold\">" + escapeXml(what) +
               " (year: " + escapeXml(shortNumber(total)) + ")</text>\n";
        for (std::size_t m = 0; m < 12; ++m) {
            const double h = values[m] / peak * panelHeight;
            const double x = left + static_cast<double>(m) * slot + slot * 0.15;
            svg += "<rect x=\"" + fmt("%.1f", x) + "\" y=\"" + fmt("%.1f", top + panelHeight - h) +
                   "\" width=\"" + fmt("%.1f", slot * 0.7) + "\" height=\"" + fmt("%.1f", h) +
                   "\" fill=\"" + color + "\"/>\n";
            svg += "<text x=\"" + fmt("%.1f", x + slot * 0.35) + "\" y=\"" +
                   fmt("%.1f", top + panelHeight - h - 2) + "\" text-anchor=\"middle\" " +
                   "font-size=\"8\">" + escapeXml(shortNumber(values[m])) + "</text>\n";
            svg += "<text x=\"" + fmt("%.1f", x + slot * 0.35) + "\" y=\"" +
                   fmt("%.1f", top + panelHeight + 12) + "\" text-anchor=\"middle\">" +
                   kMonthNames[m] + "</text>\n";
        }
        svg += "<line x1=\"" + fmt("%.0f", left) + "\" y1=\"" + fmt("%.1f", top + panelHeight) +
               "\" x2=\"" + fmt("%.0f", left + plotWidth) + "\" y2=\"" +
               fmt("%.1f", top + panelHeight) + "\" stroke=\"#555\"/>\n";
    };
    panel(waterM3, 44.0, "Water, m³", "#3b82c4");
    panel(carbonTonnes, 44.0 + panelHeight + 40.0, "Carbon, t CO2e", "#6b6b6b");
    svg += "</svg>\n";
    return svg;
}

} // namespace dct::report
