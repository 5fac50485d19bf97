#pragma once

#include <string>
#include <utility>
#include <vector>

namespace dct::solvers {

/** What a rack of the hall holds. */
enum class HallRackKind
{
    Compute, ///< GPU nodes.
    Network, ///< Leaf (and pod) switches standing in a compute row.
    Mda      ///< Spines, cores, central switches and the fabric manager (main distribution area).
};

/** One rack on the floor plan. */
struct HallRack
{
    std::string name; ///< "R03-07": row 3, position 7 (both from 1); "MDA1-02" in the MDA.
    HallRackKind kind = HallRackKind::Compute;
    int row = 0;      ///< Index into HallResult::rows.
    int position = 0; ///< Position along its row, from 0.
    double xM = 0.0;  ///< Left edge on the floor.
    double yM = 0.0;  ///< Front (lower) edge on the floor.
    int nodes = 0;
    long long firstNode = 0;
    int leaves = 0;
    int spines = 0;
    int cores = 0;
    int managerPorts = 0;      ///< Fabric-manager (UFM) ports cabled from this rack.
    double nameplateKw = 0.0;  ///< What its feeds must deliver (nodes at nameplate, switches).
    double designKw = 0.0;     ///< Its heat at full clocks (what cooling removes).
    double powerLimitKw = 0.0; ///< /facility/rack_power_limit_kw.
    double coolingLimitKw = 0.0;
};

/** One row of racks (compute rows and MDA rows). */
struct HallRow
{
    std::string name; ///< "R03" or "MDA1".
    bool mda = false;
    int block = 0;   ///< The row block (column of rows) it stands in, from the left.
    double xM = 0.0; ///< Left edge of its first position.
    double yM = 0.0;
    double xEndM = 0.0;  ///< Right edge of its last rack.
    bool facesUp = true; ///< Fronts toward +y (a cold aisle above it).
    int racks = 0;
    double nameplateKw = 0.0;
    double designKw = 0.0;
    double buswayKw = 0.0;  ///< Limit of the row's busway.
    double coolingKw = 0.0; ///< Limit of the row's cooling.
};

/** What a cooling unit on the floor is. */
enum class HallUnitKind
{
    Cdu, ///< A coolant distribution unit at a row end (direct-to-chip liquid).
    Crah ///< A room air unit (CRAH/CRAC) along a side wall (air-cooled halls).
};

/** Returns "CDU" or "CRAH". */
const char* hallUnitKindName(HallUnitKind kind);

/** A cooling unit standing on the floor: its footprint, capacity and what it serves. */
struct HallUnit
{
    HallUnitKind kind = HallUnitKind::Cdu;
    std::string name; ///< "CDU03", "CRAH07".
    double xM = 0.0;  ///< Left edge on the floor.
    double yM = 0.0;  ///< Front (lower) edge.
    double widthM = 0.0;
    double depthM = 0.0;
    double capacityKw = 0.0;
    int row = -1;        ///< The row it stands at the end of (CDUs); -1 along a wall.
    int block = -1;      ///< The row block whose loop it feeds (CDUs); -1: the whole room.
    double loadKw = 0.0; ///< Heat of what it serves over the units serving it (checkHall).
    std::string serves;  ///< "rows R01-R08 (block 1)", "room air of the hall".
};

/** The walled room of the main distribution area (meet-me room) on the floor. */
struct HallRoom
{
    bool present = false;
    std::string position; ///< "center", "front", "back" or "side".
    double xM = 0.0;      ///< Outer faces of its walls.
    double yM = 0.0;
    double widthM = 0.0;
    double depthM = 0.0;
    double wallM = 0.0; ///< Wall thickness.
};

/** An aisle between two rows (or in front of the first and behind the last). */
struct HallAisle
{
    bool hot = false;
    bool contained = false;
    double yM = 0.0;
    double widthM = 0.0;
    double xM = 0.0;      ///< Left end (its row block's; 0 for the front and back aisles).
    double lengthM = 0.0; ///< Along x: its block's width, or the hall's.
};

/** The link classes of a fabric, from the endpoints up. */
enum class HallLinkClass
{
    NodeLeaf,
    LeafSpine,
    SpineCore
};

/** Returns "node-leaf", "leaf-spine" or "spine-core". */
const char* hallLinkClassName(HallLinkClass linkClass);

/** A line of the cable bill: the links of one class carried by one catalog medium. */
struct CableBillLine
{
    HallLinkClass linkClass = HallLinkClass::NodeLeaf;
    std::string cableId;        ///< Catalog entry; empty for links no entry reaches.
    std::string cableKind;      ///< "dac", "aec", "aoc" or "transceiver".
    std::string switchModuleId; ///< Transceivers: the module in a shared (twin-port) cage.
    double rateGbps = 0.0;
    long long links = 0;
    long long cables = 0;       ///< Cables, or fibers between two transceivers.
    long long transceivers = 0; ///< Pluggable optical modules, every end.
    double lengthM = 0.0;       ///< Summed over the links.
    double maxLengthM = 0.0;
    double powerW = 0.0;
    double costUsd = 0.0;
    double latencyNs = 0.0; ///< Electronics of one link (beyond propagation).
};

/** The cables between two racks of one link class, summed, for the floor plan's overlay. */
struct CableBundle
{
    HallLinkClass linkClass = HallLinkClass::NodeLeaf;
    int rackA = 0;
    int rackB = 0;
    long long links = 0;
    double lengthM = 0.0; ///< Of one cable.
};

/** What one link class adds to a path: its typical length and the electronics' latency. */
struct HallClassSummary
{
    HallLinkClass linkClass = HallLinkClass::NodeLeaf;
    long long links = 0;
    double meanLengthM = 0.0;
    double maxLengthM = 0.0;
    double meanLatencyNs = 0.0; ///< Electronics (retimers, DSPs), mean over the links.
    std::string longestLink;    ///< "leaf 3 of plane 0 (R01-11) - spine 2 (MDA1-01)".
};

/** The floor plan of the hall and the cable run of every fabric link. */
struct HallResult
{
    bool valid = false;
    bool pricesFabric = false; ///< Its cables replace the typical lengths (/hall/cable_lengths).
    int nodesPerRack = 0;
    int racksPerRow = 0; ///< Compute positions per row.
    int computeRows = 0;
    int rowBlocks = 1;        ///< Blocks of rows side by side (/hall/row_blocks).
    double crossAisleM = 0.0; ///< Between two blocks.
    int computeRacks = 0;
    int networkRacks = 0;
    int mdaRacks = 0;
    int switchesPerNetworkRack = 0;
    double widthM = 0.0;
    double depthM = 0.0;
    double areaM2 = 0.0;
    std::vector<HallRack> racks;
    std::vector<HallRow> rows;
    std::vector<HallAisle> aisles;
    /// Trays across the rows (over the end and cross aisles, mid-row); trays along the front and
    /// back aisles join them across the blocks.
    std::vector<double> crossTraysXM;
    std::vector<std::vector<double>> blockTraysXM; ///< The cross trays of each row block.
    double frontTrayYM = 0.0; ///< The tray along the front aisle, across the blocks.
    double backTrayYM = 0.0;  ///< Along the back aisle.
    double rackWidthM = 0.6;
    double rackDepthM = 1.2;     ///< The rack's footprint, its rear door (rdhxDepthM) included.
    double rdhxDepthM = 0.0;     ///< The rear door's share of rackDepthM (0: no rear doors).
    std::vector<HallUnit> units; ///< CDUs and room air units.
    int cdus = 0;
    int crahs = 0;
    double cduCapacityKw = 0.0;
    double crahCapacityKw = 0.0;
    HallRoom mdaRoom;
    std::vector<CableBillLine> bill;
    std::vector<CableBundle> bundles;
    std::vector<HallClassSummary> classes;
    long long cables = 0;
    long long transceivers = 0;
    long long linksBeyondReach = 0;
    double cableLengthM = 0.0;
    double cablePowerW = 0.0;
    double cableCostUsd = 0.0;

    /** Returns the route through the trays from rack \a rackA to rack \a rackB, as floor points
     *  (x, y in metres) from the centre of one to the centre of the other: the route whose
     *  length the layout charges (up and down the racks aside). */
    std::vector<std::pair<double, double>> route(int rackA, int rackB) const;

    /** Returns the summary of \a linkClass, or nullptr when the fabric has none. */
    const HallClassSummary* summary(HallLinkClass linkClass) const;
};

} // namespace dct::solvers
