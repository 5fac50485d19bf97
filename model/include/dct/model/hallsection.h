#pragma once

#include "dct/model/field.h"

namespace dct::model {

/** Where the leaf (and pod) switches of a row stand. */
enum class NetworkPlacement
{
    EndOfRow,    ///< Network racks at the far end of each row.
    MiddleOfRow, ///< Network racks in the middle of each row, halving the longest run.
    Central      ///< Every switch in the main distribution area (MDA).
};

/** Which aisle the containment closes, if any. */
enum class Containment
{
    None,
    ColdAisle,
    HotAisle
};

/** Where the main distribution area (spines, cores) stands: a walled room of its own. */
enum class MdaPosition
{
    Center, ///< In the middle of the middle row block: the shortest longest run (TIA-942).
    Front,  ///< Across the front wall, in front of the first rows.
    Back,   ///< Across the back wall, behind the last rows.
    Side    ///< Beside the row blocks, along the right-hand wall.
};

/** How the fabric's cable lengths are found. */
enum class CableLengthModel
{
    Layout, ///< Every link from its two racks' positions on the floor plan.
    Typical ///< The network section's two typical lengths (in-row and across-rows).
};

/**
 * The physical hall: rows of racks, aisles, per-row power and cooling limits, where the network
 * racks stand and how cables are routed. Every field is optional; zeros are derived from the
 * rest of the scenario (solvers/hallayout.h).
 */
struct HallSection
{
    int rows = 0;        ///< Compute rows; 0 takes as many as the racks need.
    int racksPerRow = 0; ///< Compute rack positions per row; 0 takes /facility/racks_per_row.
    // A 600 mm wide, 1200 mm deep rack: the size of NVIDIA's DGX SuperPOD racks (RA-11333-001
    // Table 7, Legrand NVIDPD13) and of most GPU racks; EIA-310 19" equipment fits a 600 mm rack.
    double rackWidthM = 0.6;
    double rackDepthM = 1.2;
    double rackPitchM = 0.0; ///< Centre-to-centre along a row; 0 takes the rack width.
    // Aisles: TIA-942 recommends at least 1.2 m (4 ft, two floor tiles) of cold aisle in front of
    // the racks and at least 0.6 m behind them (1 m preferred); circulation paths of 1.2 m. A
    // 1.2 m hot aisle is taken, the common practice for rear-door and in-row cooling service.
    double coldAisleM = 1.2;
    double hotAisleM = 1.2;
    double endAisleM = 1.2; ///< Cross aisle at both ends of the rows (TIA-942 circulation).
    /// Blocks of rows side by side; 0: the count that makes the hall closest to square.
    int rowBlocks = 0;
    // The aisle between two blocks: a circulation path, at least 1.2 m wide (BICSI 002 as
    // adopted in RISA's data center directives, "Circulation"; TIA-942 likewise).
    double crossAisleM = 1.2;
    Containment containment = Containment::HotAisle;
    /// Power one row's busway delivers; 0: the largest standard track busway (hallayout.cpp).
    double rowBuswayKw = 0.0;
    /// Heat one row's CDUs/RDHx/CRAHs remove; 0: the cooling system's max_row_kw, else the racks'.
    double rowCoolingKw = 0.0;
    NetworkPlacement networkPlacement = NetworkPlacement::EndOfRow;
    MdaPosition mdaPosition = MdaPosition::Center;
    int switchesPerNetworkRack = 0; ///< 0: by rack units and power.
    // Cable routing (docs/hall.md, "Routing assumptions"): overhead trays 0.6 m above a 2.0 m
    // (42U) rack (an assumption within BICSI 002's 300 mm of headroom above a pathway, as
    // adopted in RISA's data center directives), ports at mid height, a service loop at each
    // end and slack (assumptions: structured cabling leaves planned slack at both ends).
    double trayHeightM = 2.6;
    double portHeightM = 1.0;
    double serviceLoopM = 0.5;
    double slackFraction = 0.1;
    double floorAreaM2 = 0.0; ///< White space available; 0: not limited.
    CableLengthModel cableLengths = CableLengthModel::Layout;

    static const FieldTable<HallSection>& fields();

    bool operator==(const HallSection&) const = default;
};

} // namespace dct::model
