#include "dct/report/hallsvg.h"

#include "dct/report/svgchart.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace dct::report {

namespace {

using solvers::HallLinkClass;
using solvers::HallRack;
using solvers::HallRackKind;
using solvers::HallResult;
using solvers::HallUnit;
using solvers::HallUnitKind;

// Colours of the cooling units and the MDA room (ColorBrewer blues and greens, apart from the
// racks' heat palette).
constexpr const char* cduColor = "#0570b0";
constexpr const char* crahColor = "#1a9850";
constexpr const char* rdhxColor = "#74a9cf";
constexpr const char* roomFill = "#efedf5";
constexpr const char* roomWall = "#54278f";

std::string fmt(const char* format, double a)
{
    char buffer[64];
    std::snprintf(buffer, sizeof buffer, format, a);
    return buffer;
}

/** Returns a colour from pale yellow (0) through orange to dark red (1). */
std::string heatColor(double t)
{
    t = std::clamp(t, 0.0, 1.0);
    // Three stops of a sequential palette (ColorBrewer YlOrRd: #ffffb2, #fd8d3c, #bd0026).
    const double stops[3][3] = {{255, 255, 178}, {253, 141, 60}, {189, 0, 38}};
    const double u = t < 0.5 ? t * 2.0 : (t - 0.5) * 2.0;
    const double* a = stops[t < 0.5 ? 0 : 1];
    const double* b = stops[t < 0.5 ? 1 : 2];
    char buffer[16];
    std::snprintf(buffer, sizeof buffer, "#%02x%02x%02x",
                  static_cast<unsigned>(std::lround(a[0] + (b[0] - a[0]) * u)),
                  static_cast<unsigned>(std::lround(a[1] + (b[1] - a[1]) * u)),
                  static_cast<unsigned>(std::lround(a[2] + (b[2] - a[2]) * u)));
    return buffer;
}

/** Returns green below 80% of the limit, amber to 100%, red beyond. */
std::string limitColor(double share)
{
    if (share > 1.0 + 1e-9)
        return "#d7301f";
    if (share > 0.8)
        return "#fdae61";
    return "#66bd63";
}

const char* classColor(HallLinkClass c)
{
    switch (c) {
    case HallLinkClass::NodeLeaf:
        return "#1b9e77";
    case HallLinkClass::LeafSpine:
        return "#d95f02";
    case HallLinkClass::SpineCore:
        return "#7570b3";
    }
    return "#1b9e77";
}

} // namespace

std::string hallSvg(const HallResult& hall, const HallSvgOptions& options)
{
    const double margin = 20.0;
    const double top = options.title.empty() ? 30.0 : 52.0;
    const double legendHeight = 84.0;
    // A hall much deeper than wide is drawn turned a quarter: its rows run up the page.
    const bool turned = hall.depthM > 1.5 * hall.widthM;
    const double planW = turned ? hall.depthM : hall.widthM;
    const double planH = turned ? hall.widthM : hall.depthM;
    const double scale =
        planW > 0.0 ? std::min(40.0, (options.maxWidthPx - 2 * margin) / planW) : 1.0;
    const double width = std::max(760.0, planW * scale + 2 * margin);
    const double height = planH * scale + top + legendHeight + margin;
    // Floor metres to page pixels. Unturned, the hall's front (y = 0) is at the bottom, as a plan
    // is read from its entrance; turned, the front is at the left.
    auto px = [&](double xm, double ym) {
        return turned ? std::pair{margin + ym * scale, top + xm * scale}
                      : std::pair{margin + xm * scale, top + (hall.depthM - ym) * scale};
    };
    auto rect = [&](double xm, double ym, double wm, double hm) {
        const auto [ax, ay] = px(xm, ym);
        const auto [bx, by] = px(xm + wm, ym + hm);
        return "x=\"" + fmt("%.2f", std::min(ax, bx)) + "\" y=\"" + fmt("%.2f", std::min(ay, by)) +
               "\" width=\"" + fmt("%.2f", std::fabs(bx - ax)) + "\" height=\"" +
               fmt("%.2f", std::fabs(by - ay)) + "\"";
    };
    auto point = [&](double xm, double ym) {
        const auto [x, y] = px(xm, ym);
        return fmt("%.1f", x) + "," + fmt("%.1f", y);
    };
    std::string svg;
    svg.reserve(4096 + hall.racks.size() * 200 + hall.bundles.size() * 120);
    svg += "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" + fmt("%.0f", width) +
           "\" height=\"" + fmt("%.0f", height) + "\" viewBox=\"0 0 " + fmt("%.0f", width) + " " +
           fmt("%.0f", height) + "\" font-family=\"DejaVu Sans, Arial, sans-serif\">\n";
    svg += "<rect width=\"100%\" height=\"100%\" fill=\"#ffffff\"/>\n";
    if (!options.title.empty())
        svg += "<text x=\"" + fmt("%.0f", margin) + "\" y=\"24\" font-size=\"16\">" +
               escapeXml(options.title) + "</text>\n";
    svg += "<text x=\"" + fmt("%.0f", margin) + "\" y=\"" + fmt("%.0f", top - 10) +
           "\" font-size=\"12\" fill=\"#444\">" + fmt("%.1f", hall.widthM) + " m x " +
           fmt("%.1f", hall.depthM) + " m = " + fmt("%.0f", hall.areaM2) + " m², " +
           std::to_string(hall.computeRacks) + " compute racks, " +
           std::to_string(hall.networkRacks) + " network racks, " + std::to_string(hall.mdaRacks) +
           " MDA racks" +
           (hall.cdus > 0 ? ", " + std::to_string(hall.cdus) + (hall.cdus == 1 ? " CDU" : " CDUs")
                          : "") +
           (hall.crahs > 0 ? ", " + std::to_string(hall.crahs) +
                                 (hall.crahs == 1 ? " CRAH/CRAC unit" : " CRAH/CRAC units")
                           : "") +
           (turned ? ", front at the left" : "") + "</text>\n";
    // Floor and aisles.
    svg +=
        "<rect " + rect(0, 0, hall.widthM, hall.depthM) + " fill=\"#f4f4f4\" stroke=\"#999\"/>\n";
    if (hall.mdaRoom.present) {
        const auto& m = hall.mdaRoom;
        svg += "<g id=\"mda-room\"><rect " + rect(m.xM, m.yM, m.widthM, m.depthM) + " fill=\"" +
               roomFill + "\" stroke=\"" + roomWall + "\" stroke-width=\"" +
               fmt("%.1f", std::max(1.5, m.wallM * scale)) + "\"><title>MDA room (" +
               escapeXml(m.position) + "): " + fmt("%.1f", m.widthM) + " m x " +
               fmt("%.1f", m.depthM) + " m, " + std::to_string(hall.mdaRacks) +
               " racks</title></rect></g>\n";
    }
    svg += "<g id=\"aisles\">\n";
    for (std::size_t i = 1; i + 1 < hall.aisles.size(); ++i) {
        const auto& a = hall.aisles[i];
        svg += "<rect " + rect(a.xM, a.yM, a.lengthM, a.widthM) + " fill=\"" +
               (a.hot ? "#fde0dd" : "#deebf7") + "\"" +
               (a.contained ? " stroke=\"#555\" stroke-dasharray=\"4 3\"" : "") + "><title>" +
               (a.hot ? "hot aisle" : "cold aisle") + (a.contained ? " (contained)" : "") +
               "</title></rect>\n";
    }
    svg += "</g>\n";
    // Racks, by heat on one scale up to the racks' cooling limit (or the hottest rack).
    double maxKw = 0.0;
    for (const HallRack& r : hall.racks)
        maxKw =
            std::max({maxKw, r.designKw, r.kind == HallRackKind::Compute ? r.coolingLimitKw : 0.0});
    svg += "<g id=\"racks\" stroke=\"#333\" stroke-width=\"0.6\">\n";
    for (const HallRack& r : hall.racks) {
        const auto& row = hall.rows[static_cast<std::size_t>(r.row)];
        std::string fill;
        if (r.kind == HallRackKind::Mda)
            fill = "#54278f";
        else if (r.kind == HallRackKind::Network)
            fill = "#9e9ac8";
        else if (options.coloring == HallColoring::RowLimit)
            fill = limitColor(row.racks > 0 && row.buswayKw > 0.0
                                  ? r.nameplateKw / (row.buswayKw / row.racks)
                                  : 0.0);
        else
            fill = heatColor(maxKw > 0.0 ? r.designKw / maxKw : 0.0);
        std::string tip = r.name;
        if (r.nodes > 0)
            tip += ": " + std::to_string(r.nodes) + " nodes (" + std::to_string(r.firstNode) +
                   " to " + std::to_string(r.firstNode + r.nodes - 1) + ")";
        if (r.leaves + r.spines + r.cores > 0)
            tip += ": " + std::to_string(r.leaves) + " leaf, " + std::to_string(r.spines) +
                   " spine, " + std::to_string(r.cores) + " core switches";
        if (r.managerPorts > 0)
            tip += ", fabric manager (" + std::to_string(r.managerPorts) + " ports)";
        tip += "; " + fmt("%.1f", r.nameplateKw) + " kW nameplate, " + fmt("%.1f", r.designKw) +
               " kW heat";
        svg += "<rect " + rect(r.xM, r.yM, hall.rackWidthM, hall.rackDepthM) + " fill=\"" + fill +
               "\"><title>" + escapeXml(tip) + "</title></rect>\n";
    }
    svg += "</g>\n";
    // Rear doors: a strip on the back of every rack (the side away from its cold aisle).
    if (hall.rdhxDepthM > 0.0) {
        svg += "<g id=\"rear-doors\" fill=\"" + std::string(rdhxColor) + "\" stroke=\"none\">\n";
        for (const HallRack& r : hall.racks) {
            const auto& row = hall.rows[static_cast<std::size_t>(r.row)];
            const double y = row.facesUp ? r.yM : r.yM + hall.rackDepthM - hall.rdhxDepthM;
            svg += "<rect " + rect(r.xM, y, hall.rackWidthM, hall.rdhxDepthM) + "/>\n";
        }
        svg += "</g>\n";
    }
    // Cooling units: CDUs at the row ends, room air units along the walls.
    if (!hall.units.empty()) {
        svg += "<g id=\"cooling-units\" stroke=\"#222\" stroke-width=\"0.6\">\n";
        for (const HallUnit& u : hall.units) {
            const std::string tip =
                u.name + ": " + solvers::hallUnitKindName(u.kind) + ", " +
                fmt("%.0f", u.capacityKw) + " kW, serves " + u.serves +
                (u.loadKw > 0.0 ? "; carries " + fmt("%.0f", u.loadKw) + " kW" : std::string());
            svg += "<rect class=\"" + std::string(u.kind == HallUnitKind::Cdu ? "cdu" : "crah") +
                   "\" " + rect(u.xM, u.yM, u.widthM, u.depthM) + " fill=\"" +
                   (u.kind == HallUnitKind::Cdu ? cduColor : crahColor) + "\"><title>" +
                   escapeXml(tip) + "</title></rect>\n";
        }
        svg += "</g>\n";
    }
    // Row names beside the rows' first racks.
    svg += "<g id=\"rows\" font-size=\"" + fmt("%.0f", std::clamp(scale * 0.8, 6.0, 11.0)) +
           "\" fill=\"#333\">\n";
    for (const auto& row : hall.rows) {
        // In the aisle left of the row: the end aisle, or the cross aisle of a later block.
        const double lx = row.xM - std::min(row.xM, hall.crossAisleM) + 0.1;
        const auto [x, y] = turned ? px(lx, row.yM) : px(lx, row.yM + hall.rackDepthM / 2);
        svg += "<text x=\"" + fmt("%.1f", x + (turned ? 1 : 0)) + "\" y=\"" +
               fmt("%.1f", y + (turned ? 9 : 3)) + "\">" + escapeXml(row.name) + "</text>\n";
    }
    svg += "</g>\n";
    // Cable runs through the trays, one group per link class; the stroke grows with the count.
    for (const HallLinkClass c :
         {HallLinkClass::NodeLeaf, HallLinkClass::LeafSpine, HallLinkClass::SpineCore}) {
        const bool wanted =
            c == HallLinkClass::NodeLeaf ? options.nodeLeafRuns : options.switchRuns;
        if (!wanted)
            continue;
        svg += std::string("<g id=\"runs-") + solvers::hallLinkClassName(c) +
               "\" fill=\"none\" stroke=\"" + classColor(c) + "\" stroke-opacity=\"0.35\">\n";
        for (const auto& b : hall.bundles) {
            if (b.linkClass != c || b.rackA == b.rackB)
                continue;
            const HallRack& a = hall.racks[static_cast<std::size_t>(b.rackA)];
            const HallRack& z = hall.racks[static_cast<std::size_t>(b.rackB)];
            std::string points;
            for (const auto& [xm, ym] : hall.route(b.rackA, b.rackB))
                points += (points.empty() ? "" : " ") + point(xm, ym);
            const double w = 0.5 + std::log2(1.0 + static_cast<double>(b.links)) * 0.4;
            svg += "<polyline points=\"" + points + "\" stroke-width=\"" + fmt("%.2f", w) +
                   "\"><title>" + std::to_string(b.links) + " " + solvers::hallLinkClassName(c) +
                   " links " + escapeXml(a.name) + " - " + escapeXml(z.name) + ", " +
                   fmt("%.1f", b.lengthM) + " m</title></polyline>\n";
        }
        svg += "</g>\n";
    }
    // Legend.
    const double ly = top + planH * scale + 18;
    auto swatch = [&](double x, const std::string& color, const std::string& label) {
        svg += "<rect x=\"" + fmt("%.0f", x) + "\" y=\"" + fmt("%.0f", ly - 10) +
               "\" width=\"12\" height=\"12\" fill=\"" + color + "\" stroke=\"#333\"/>";
        svg += "<text x=\"" + fmt("%.0f", x + 16) + "\" y=\"" + fmt("%.0f", ly) +
               "\" font-size=\"11\">" + escapeXml(label) + "</text>\n";
    };
    if (options.coloring == HallColoring::RowLimit) {
        swatch(margin, limitColor(0.5), "< 80% of row share");
        swatch(margin + 150, limitColor(0.9), "80-100%");
        swatch(margin + 230, limitColor(1.2), "over");
    } else {
        swatch(margin, heatColor(0.0), "0 kW");
        swatch(margin + 70, heatColor(0.5), fmt("%.0f kW", maxKw / 2));
        swatch(margin + 150, heatColor(1.0), fmt("%.0f kW", maxKw));
    }
    swatch(margin + 300, "#9e9ac8", "network rack");
    swatch(margin + 410, "#54278f", "MDA rack");
    const double ly2 = ly + 20;
    double x = margin;
    for (const HallLinkClass c :
         {HallLinkClass::NodeLeaf, HallLinkClass::LeafSpine, HallLinkClass::SpineCore}) {
        // Only the runs drawn: a class the options leave out, or the fabric has none of (no
        // spine-core links in a 2-tier fabric), has no line in the legend.
        const bool drawn =
            (c == HallLinkClass::NodeLeaf ? options.nodeLeafRuns : options.switchRuns) &&
            hall.summary(c) != nullptr;
        if (!drawn)
            continue;
        svg += "<line x1=\"" + fmt("%.0f", x) + "\" y1=\"" + fmt("%.0f", ly2 - 4) + "\" x2=\"" +
               fmt("%.0f", x + 20) + "\" y2=\"" + fmt("%.0f", ly2 - 4) + "\" stroke=\"" +
               classColor(c) + "\" stroke-width=\"3\"/>";
        svg += "<text x=\"" + fmt("%.0f", x + 24) + "\" y=\"" + fmt("%.0f", ly2) +
               "\" font-size=\"11\">" + solvers::hallLinkClassName(c) + " runs</text>\n";
        x += 130;
    }
    svg += "<rect x=\"" + fmt("%.0f", x) + "\" y=\"" + fmt("%.0f", ly2 - 10) +
           "\" width=\"12\" height=\"12\" fill=\"#deebf7\"/><text x=\"" + fmt("%.0f", x + 16) +
           "\" y=\"" + fmt("%.0f", ly2) + "\" font-size=\"11\">cold aisle</text>";
    svg += "<rect x=\"" + fmt("%.0f", x + 90) + "\" y=\"" + fmt("%.0f", ly2 - 10) +
           "\" width=\"12\" height=\"12\" fill=\"#fde0dd\"/><text x=\"" + fmt("%.0f", x + 106) +
           "\" y=\"" + fmt("%.0f", ly2) + "\" font-size=\"11\">hot aisle</text>\n";
    // The cooling units and the MDA room, those on the plan.
    const double ly3 = ly2 + 20;
    double x3 = margin;
    auto swatch3 = [&](const std::string& color, const std::string& label, bool wall) {
        svg += "<rect x=\"" + fmt("%.0f", x3) + "\" y=\"" + fmt("%.0f", ly3 - 10) +
               "\" width=\"12\" height=\"12\" fill=\"" + color + "\" stroke=\"" +
               (wall ? roomWall : "#333") + "\"" + (wall ? " stroke-width=\"2\"" : "") +
               "/><text x=\"" + fmt("%.0f", x3 + 16) + "\" y=\"" + fmt("%.0f", ly3) +
               "\" font-size=\"11\">" + escapeXml(label) + "</text>\n";
        x3 += 24 + 6.5 * static_cast<double>(label.size());
    };
    if (hall.cdus > 0)
        swatch3(cduColor, "CDU (" + fmt("%.0f", hall.cduCapacityKw) + " kW)", false);
    if (hall.crahs > 0)
        swatch3(crahColor, "CRAH/CRAC (" + fmt("%.0f", hall.crahCapacityKw) + " kW)", false);
    if (hall.rdhxDepthM > 0.0)
        swatch3(rdhxColor, "rear door (RDHx)", false);
    if (hall.mdaRoom.present)
        swatch3(roomFill, "MDA room", true);
    svg += "</svg>\n";
    return svg;
}

} // namespace dct::report
