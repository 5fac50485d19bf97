#include "dct/report/svgchart.h"

#include "dct/model/textformat.h"
#include "reportnumber.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace dct::report {

std::string escapeXml(const std::string& text)
{
    std::string out;
    out.reserve(text.size());
    // Control characters are not allowed in XML 1.0 and could reach a terminal: made visible.
    for (const char c : printableText(text, LineBreaks::Keep)) {
        switch (c) {
        case '&':
            out += "&amp;";
            break;
        case '<':
            out += "&lt;";
            break;
        case '>':
            out += "&gt;";
            break;
        case '"':
            out += "&quot;";
            break;
        default:
            out += c;
        }
    }
    return out;
}

std::string horizontalBarChartSvg(const std::string& title, const std::vector<ChartBar>& bars,
                                  const std::string& unit, int widthPx)
{
    constexpr int rowHeight = 26;
    constexpr int top = 36;
    // Room for the longest label (about 7 px a character at 12 px), within reason.
    std::size_t longest = 0;
    for (const auto& bar : bars)
        longest = std::max(longest, bar.label.size());
    const int labelWidth = std::clamp(static_cast<int>(longest) * 7 + 12, 120, widthPx / 2);
    constexpr int valueWidth = 170;
    const int height = top + rowHeight * static_cast<int>(bars.size()) + 12;
    const int barSpace = std::max(40, widthPx - labelWidth - valueWidth - 20);
    double largest = 0.0;
    for (const auto& bar : bars)
        if (std::isfinite(bar.value))
            largest = std::max(largest, std::fabs(bar.value));
    static const char* colors[] = {"#2f6fb0", "#e08a2c", "#3c9a5f", "#b5443b",
                                   "#7a5ea8", "#8c6d46", "#c25b9c", "#6b7b8c"};
    std::string svg;
    char line[512];
    std::snprintf(line, sizeof line,
                  "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
                  "viewBox=\"0 0 %d %d\" font-family=\"DejaVu Sans, Arial, sans-serif\">\n",
                  widthPx, height, widthPx, height);
    svg += line;
    svg += "<rect width=\"100%\" height=\"100%\" fill=\"#ffffff\"/>\n";
    svg += "<text x=\"4\" y=\"20\" font-size=\"15\" font-weight=\"bold\" fill=\"#222\">" +
           escapeXml(title) + "</text>\n";
    for (std::size_t i = 0; i < bars.size(); ++i) {
        const int y = top + rowHeight * static_cast<int>(i);
        const double share =
            largest > 0 && std::isfinite(bars[i].value) ? std::fabs(bars[i].value) / largest : 0.0;
        const int barWidth = std::max(1, static_cast<int>(share * barSpace));
        std::snprintf(line, sizeof line,
                      "<text x=\"%d\" y=\"%d\" font-size=\"12\" text-anchor=\"end\" "
                      "fill=\"#333\">",
                      labelWidth - 8, y + 16);
        // Long labels are shortened with an ellipsis rather than cut at the edge.
        const std::size_t fits = static_cast<std::size_t>(std::max(4, (labelWidth - 12) / 7));
        std::string label = bars[i].label;
        if (label.size() > fits)
            label = label.substr(0, fits - 3) + "...";
        svg += line + escapeXml(label) + "</text>\n";
        std::snprintf(line, sizeof line,
                      "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"%s\"/>\n",
                      labelWidth, y + 4, barWidth, rowHeight - 8,
                      bars[i].color.empty() ? colors[i % 8] : escapeXml(bars[i].color).c_str());
        svg += line;
        std::snprintf(line, sizeof line, "<text x=\"%d\" y=\"%d\" font-size=\"12\" fill=\"#222\">",
                      labelWidth + barWidth + 6, y + 16);
        svg += line + escapeXml(reportQuantity(bars[i].value, unit)) + "</text>\n";
    }
    svg += "</svg>\n";
    return svg;
}

} // namespace dct::report
