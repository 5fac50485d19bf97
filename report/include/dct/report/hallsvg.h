#pragma once

#include "dct/solvers/hallresult.h"

#include <string>

namespace dct::report {

/** How the floor plan colours its racks. */
enum class HallColoring
{
    Kilowatts, ///< By each rack's design heat, on one scale for the hall.
    RowLimit   ///< By each rack's nameplate against its share of the row's busway.
};

/** What the floor plan shows. */
struct HallSvgOptions
{
    HallColoring coloring = HallColoring::Kilowatts;
    bool nodeLeafRuns = true;   ///< Overlay the node-to-leaf cable runs.
    bool switchRuns = true;     ///< Overlay the leaf-spine and spine-core runs.
    double maxWidthPx = 1200.0; ///< The plan is scaled to fit this width.
    std::string title;
};

/**
 * Returns the floor plan of \a hall as a standalone SVG document: aisles (hot, cold, contained),
 * racks coloured by kW or by kW against the row's busway, network and MDA racks, and the cable
 * runs per link class through the overhead trays, each class in its own group
 * (id "runs-node-leaf", "runs-leaf-spine", "runs-spine-core"). Every rack carries a tooltip.
 */
std::string hallSvg(const solvers::HallResult& hall, const HallSvgOptions& options = {});

} // namespace dct::report
