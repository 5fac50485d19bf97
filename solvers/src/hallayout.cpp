#include "dct/solvers/hallayout.h"

#include "dct/model/textformat.h"
#include "dct/solvers/coolingsolver.h"
#include "dct/solvers/networksolver.h"
#include "dct/solvers/powersolver.h"
#include "dct/solvers/redundancy.h"
#include "nccltuning.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <string>
#include <unordered_map>
#include <utility>

namespace dct::solvers {

using model::CableKind;
using model::TopologyKind;

const char* cableKindName(CableKind kind)
{
    switch (kind) {
    case CableKind::Dac:
        return "dac";
    case CableKind::Aec:
        return "aec";
    case CableKind::Aoc:
        return "aoc";
    case CableKind::Transceiver:
        return "transceiver";
    }
    return "dac";
}

namespace {

// A rack unit is 1.75 in = 44.45 mm (EIA-310).
constexpr double rackUnitM = 0.04445;
// Network racks keep a third of their units for patch panels and cable managers (assumption:
// DGX SuperPOD leaf racks hold their 8 to 16 1U switches with most of the rack left to fiber
// management, RA-11333-001 Figure 3).
constexpr double networkRackSwitchShare = 2.0 / 3.0;
// The MDA room's walls: a 200 mm partition (assumption: a fire-rated stud or block partition of
// 150 to 200 mm, the separation TIA-942 asks of a room for the MDA).
constexpr double mdaWallM = 0.2;

/** Appends \a n (>= 0) to \a text with at least two digits, as "%02lld" prints it. */
void appendTwoDigits(std::string& text, long long n)
{
    char buffer[24];
    char* end = buffer + sizeof buffer;
    char* p = end;
    do {
        *--p = static_cast<char>('0' + n % 10);
        n /= 10;
    } while (n > 0);
    if (end - p < 2)
        *--p = '0';
    text.append(p, static_cast<std::size_t>(end - p));
}

std::string twoDigits(long long n)
{
    if (n < 0) {
        char buffer[32];
        std::snprintf(buffer, sizeof buffer, "%02lld", n);
        return buffer;
    }
    std::string text;
    appendTwoDigits(text, n);
    return text;
}

std::string metres(double m)
{
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%.1f m", m);
    return buffer;
}

std::string kilowatts(double kw)
{
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%.1f kW", kw);
    return buffer;
}

/** A switch of the fabric by tier, plane and index within its plane. */
struct SwitchId
{
    int tier = 0; ///< 0 leaf, 1 spine, 2 core.
    int plane = 0;
    long long index = 0;
};

const char* tierWord(int tier)
{
    return tier == 0 ? "leaf" : tier == 1 ? "spine" : "core";
}

/**
 * The place of each rack pair met so far, by its 64-bit key: open addressing with linear
 * probing over a power-of-two table grown at half full (no allocation per pair, no division).
 */
class PairIndex
{
public:
    explicit PairIndex(std::size_t expected)
    {
        std::size_t size = 64;
        while (size < 2 * expected)
            size *= 2;
        m_slots.assign(size, Slot{});
    }

    /** Returns the place stored under \a key, storing \a next there when there is none (then
     *  \a inserted is true). */
    std::size_t findOrAdd(std::uint64_t key, std::size_t next, bool& inserted)
    {
        if (2 * (m_used + 1) > m_slots.size())
            grow();
        Slot& slot = find(key);
        inserted = slot.place == empty;
        if (inserted) {
            slot = Slot{key, next};
            ++m_used;
        }
        return slot.place;
    }

private:
    static constexpr std::size_t empty = static_cast<std::size_t>(-1);
    struct Slot
    {
        std::uint64_t key = 0;
        std::size_t place = empty;
    };

    Slot& find(std::uint64_t key)
    {
        const std::size_t mask = m_slots.size() - 1;
        // Fibonacci hashing: the key's bits spread over the table's index.
        std::size_t i = static_cast<std::size_t>((key * 0x9E3779B97F4A7C15ULL) >> 32) & mask;
        while (m_slots[i].place != empty && m_slots[i].key != key)
            i = (i + 1) & mask;
        return m_slots[i];
    }

    void grow()
    {
        std::vector<Slot> old(2 * m_slots.size());
        old.swap(m_slots);
        for (const Slot& s : old)
            if (s.place != empty)
                find(s.key) = s;
    }

    std::vector<Slot> m_slots;
    std::size_t m_used = 0;
};

/** Where a cable's ends are: racks, and what the ends are for naming. */
struct LinkEnds
{
    int rackA = 0;
    int rackB = 0;
    bool nicEnd = false; ///< End A is a NIC or manager port (one module of its own).
};

/** Everything the layout needs while it runs. */
class HallBuilder
{
public:
    HallBuilder(const model::ResolvedScenario& r, const FabricPlan& plan, Diagnostics& d,
                HallCabling cabling, double networkPowerKw)
        : m_r(r), m_plan(plan), m_d(d), m_hall(r.scenario.hall), m_cabling(cabling),
          m_networkPowerKw(networkPowerKw)
    {}

    HallResult build();

private:
    void placeRacks();
    void runCables();
    void runCablesPerLink();
    bool runCablesByRackPair();
    void finishCables();
    double cableLengthM(int a, int b) const;
    void addLinks(HallLinkClass cls, int rackA, int rackB, bool nicEnd, double rateGbps,
                  long long count, const SwitchId* switchA, const SwitchId& switchB, bool newPair);
    MediumChoice medium(double lengthM, double rateGbps, bool nicEnd);
    bool endpointSpan(int plane, long long leaf, long long& first, long long& last) const;
    int leafRack(int plane, long long leaf) const
    {
        return m_switchRack[0][static_cast<std::size_t>(plane * m_plan.leavesPerPlane + leaf)];
    }
    int spineRack(int plane, long long spine) const
    {
        return m_switchRack[1][static_cast<std::size_t>(plane * m_plan.spinesPerPlane + spine)];
    }
    int coreRack(int plane, long long core) const
    {
        return m_switchRack[2][static_cast<std::size_t>(plane * m_plan.coresPerPlane + core)];
    }
    template <class F> void forEachEndpoint(F&& visit) const;
    std::string switchName(const SwitchId& s) const;

    const model::ResolvedScenario& m_r;
    const FabricPlan& m_plan;
    Diagnostics& m_d;
    const model::HallSection& m_hall;
    const HallCabling m_cabling;
    const double m_networkPowerKw; ///< Switches and optics, for the cooling units' IT heat.
    HallResult m_out;
    double m_pitch = 0.6;
    double m_rackDepth = 1.2; ///< A rack's footprint: the rack and its rear door.
    int m_managerRack = -1;
    /** The index in m_out.racks of each compute rack, by its ordinal (node / nodes per rack):
     *  the racks list holds each row's network racks after its compute racks. */
    std::vector<int> m_computeRack;
    std::vector<int> m_switchRack[3];
    std::unordered_map<std::uint64_t, std::size_t> m_bundleIndex;
    /** The media of one socket kind. */
    struct SocketMenu
    {
        double rateGbps = 0.0;
        bool nicEnd = false;
        MediumMenu menu;
    };
    std::vector<SocketMenu> m_menus;
    /** The links of one class from one rack to another, counted before they are run. */
    struct PairRun
    {
        int rackB = 0;
        long long links = 0;
        long long firstVisit = 0; ///< Where its first link falls in the per-link order.
        SwitchId a;               ///< The switches at the ends of its first link.
        SwitchId b;
    };
    struct LineWork
    {
        const model::CableSpec* cable = nullptr;
        const model::CableSpec* shared = nullptr; ///< The module of a shared switch cage.
        bool nicEnd = false;                      ///< Its links run from NICs to switches.
        double fiberM = 0.0;
    };
    std::vector<LineWork> m_work;
    struct Longest
    {
        double lengthM = -1.0;
        int rackA = 0;
        int rackB = 0;
        SwitchId a;
        SwitchId b;
        bool nicEnd = false;
    };
    Longest m_longest[3];
    double m_latencyNs[3] = {0.0, 0.0, 0.0};
    double m_lengthM[3] = {0.0, 0.0, 0.0};
    long long m_links[3] = {0, 0, 0};
    bool m_reachReported[3] = {false, false, false};
    int m_pack = 1;
};

template <class F> void HallBuilder::forEachEndpoint(F&& visit) const
{
    // The same wiring as buildFabricGraph (fabricgraph.cpp): visit(node or -1 for a manager
    // port, plane, leaf).
    const FabricSpec& s = m_plan.spec;
    const int rails = std::max(1, s.railsPerNode);
    if (s.kind == TopologyKind::RailOptimized) {
        const int slots = std::max(1, s.scalableUnitNodes);
        const int usable = slots - std::max(0, s.reservedSlotsPerUnit);
        const int d = std::max(1, m_plan.leafDownPorts);
        auto leafOf = [&](long long unit, int rail, long long slot) {
            return (unit * rails + rail) * m_plan.leavesPerRailPerUnit + slot / d;
        };
        for (long long n = 0; n < m_plan.nodes; ++n)
            for (int rail = 0; rail < rails; ++rail)
                visit(n, 0, leafOf(n / usable, rail, n % usable));
        const int managerPorts = std::min(s.fabricManagerPorts, rails);
        for (long long unit = 0; unit < m_plan.scalableUnits; ++unit)
            for (int i = usable; i < slots; ++i)
                for (int rail = 0; rail < managerPorts; ++rail)
                    visit(-1LL, 0, leafOf(unit, rail, i));
        for (int i = 0; i < s.reservedSlotsPerFabric; ++i) {
            const long long flat = static_cast<long long>(m_plan.scalableUnits) * usable - 1 - i;
            for (int rail = 0; rail < managerPorts; ++rail)
                visit(-1LL, 0, leafOf(flat / usable, rail, flat % usable));
        }
        return;
    }
    const int P = std::max(1, m_plan.planes);
    const int perPlane = (rails + P - 1) / P;
    std::vector<long long> counter(static_cast<std::size_t>(P), 0);
    for (long long n = 0; n < m_plan.nodes; ++n)
        for (int rail = 0; rail < rails; ++rail) {
            const int plane = rail % P;
            auto& c = counter[static_cast<std::size_t>(plane)];
            if (c >= (n + 1) * perPlane)
                continue;
            const long long e = c++;
            visit(n, plane, e / std::max(1, m_plan.leafDownPorts));
        }
}

std::string HallBuilder::switchName(const SwitchId& s) const
{
    std::string text = std::string(tierWord(s.tier)) + " " + std::to_string(s.index);
    if (m_plan.planes > 1)
        text += " of plane " + std::to_string(s.plane);
    return text;
}

HallResult HallBuilder::build()
{
    placeRacks();
    if (!m_out.valid)
        return std::move(m_out);
    runCables();
    return std::move(m_out);
}

void HallBuilder::placeRacks()
{
    const model::FacilitySection& fac = m_r.scenario.facility;
    const PowerResult power = solvePower(m_r, PowerInputs{1.0, m_networkPowerKw});
    const long long nodes = std::max<long long>(0, m_plan.nodes);
    const int perRack = std::max(1, power.nodesPerRack);
    m_out.nodesPerRack = perRack;
    const long long computeRacks = (nodes + perRack - 1) / perRack;
    int perRow = m_hall.racksPerRow > 0 ? m_hall.racksPerRow : std::max(1, fac.racksPerRow);
    if (m_hall.rows > 0 && m_hall.racksPerRow == 0)
        perRow = std::max(perRow, static_cast<int>((computeRacks + m_hall.rows - 1) / m_hall.rows));
    perRow = std::max(1, perRow);
    const long long neededRows = (computeRacks + perRow - 1) / perRow;
    const long long rows = m_hall.rows > 0 ? m_hall.rows : std::max<long long>(1, neededRows);
    if (rows * perRow < computeRacks) {
        m_d.error("/hall/rows",
                  "the " + std::to_string(computeRacks) + " compute racks do not fit in " +
                      std::to_string(rows) + " rows of " + std::to_string(perRow) + " racks",
                  "at least " + std::to_string(neededRows) +
                      " rows, more racks per row, or 0 to derive the rows",
                  "hall-racks-do-not-fit");
        return;
    }
    m_out.racksPerRow = perRow;
    m_out.computeRows = static_cast<int>(rows);
    m_out.computeRacks = static_cast<int>(computeRacks);

    // Switches per network rack: by rack units (a third kept for patching) and by the feeds.
    const model::SwitchSpec& sw = m_r.fabricSwitch;
    int byUnits = static_cast<int>(
        std::floor(fac.rackUnits * networkRackSwitchShare / std::max(1, sw.heightU)));
    int byPower = sw.powerW > 0.0
                      ? static_cast<int>(std::floor(fac.rackPowerLimitKw * 1000.0 / sw.powerW))
                      : byUnits;
    int perNetworkRack = m_hall.switchesPerNetworkRack > 0
                             ? m_hall.switchesPerNetworkRack
                             : std::max(1, std::min(byUnits, byPower));
    m_out.switchesPerNetworkRack = perNetworkRack;

    // Home row of every switch: the row holding the middle of its nodes; -1 is the MDA.
    const int P = std::max(1, m_plan.planes);
    const long long L = m_plan.leavesPerPlane;
    const bool central = m_hall.networkPlacement == model::NetworkPlacement::Central;
    std::vector<long long> firstNode(static_cast<std::size_t>(L * P), -1);
    std::vector<long long> lastNode(static_cast<std::size_t>(L * P), -1);
    if (m_cabling == HallCabling::ByRackPair) {
        // Each leaf's nodes in closed form (a rail-optimized fabric is one plane).
        const int spanPlanes = m_plan.spec.kind == TopologyKind::RailOptimized ? 1 : P;
        for (int p = 0; p < spanPlanes; ++p)
            for (long long l = 0; l < L; ++l) {
                const auto i = static_cast<std::size_t>(p * L + l);
                if (!endpointSpan(p, l, firstNode[i], lastNode[i]))
                    firstNode[i] = lastNode[i] = -1;
            }
    } else {
        forEachEndpoint([&](long long node, int plane, long long leaf) {
            if (node < 0)
                return;
            const auto i = static_cast<std::size_t>(plane * L + leaf);
            if (firstNode[i] < 0)
                firstNode[i] = node;
            lastNode[i] = node;
        });
    }
    auto rowOfNode = [&](long long node) { return static_cast<int>((node / perRack) / perRow); };
    std::vector<int> leafRow(static_cast<std::size_t>(L * P), -1);
    if (!central)
        for (std::size_t i = 0; i < leafRow.size(); ++i)
            if (firstNode[i] >= 0)
                leafRow[i] = rowOfNode((firstNode[i] + lastNode[i]) / 2);
    const long long S = m_plan.spinesPerPlane;
    std::vector<int> spineRow(static_cast<std::size_t>(S * P), -1);
    if (!central && m_plan.tiers == 3) {
        // Aggregation switches stand with their pod: the row of the pod's middle leaf.
        const long long u = m_plan.leafUpPorts;
        for (int p = 0; p < P; ++p)
            for (long long s = 0; s < S; ++s) {
                const long long pod = s / std::max<long long>(1, u);
                const long long leaf =
                    std::min(L - 1, pod * m_plan.leavesPerPod + m_plan.leavesPerPod / 2);
                spineRow[static_cast<std::size_t>(p * S + s)] =
                    leafRow[static_cast<std::size_t>(p * L + leaf)];
            }
    }
    // Switches per row (leaves then spines) and in the MDA.
    const long long C = m_plan.coresPerPlane;
    std::vector<std::vector<SwitchId>> rowSwitches(static_cast<std::size_t>(rows));
    std::vector<SwitchId> mdaSwitches;
    {
        // Each row's switches counted first: one allocation a row.
        std::vector<std::size_t> perRowSwitches(static_cast<std::size_t>(rows), 0);
        std::size_t inMda = static_cast<std::size_t>(C * P);
        for (const std::vector<int>* homes : {&leafRow, &spineRow})
            for (const int row : *homes)
                ++(row < 0 ? inMda : perRowSwitches[static_cast<std::size_t>(row)]);
        for (std::size_t i = 0; i < rowSwitches.size(); ++i)
            rowSwitches[i].reserve(perRowSwitches[i]);
        mdaSwitches.reserve(inMda);
    }
    auto place = [&](int row, SwitchId id) {
        if (row < 0)
            mdaSwitches.push_back(id);
        else
            rowSwitches[static_cast<std::size_t>(row)].push_back(id);
    };
    for (int p = 0; p < P; ++p)
        for (long long l = 0; l < L; ++l)
            place(leafRow[static_cast<std::size_t>(p * L + l)], SwitchId{0, p, l});
    for (int p = 0; p < P; ++p)
        for (long long s = 0; s < S; ++s)
            place(spineRow[static_cast<std::size_t>(p * S + s)], SwitchId{1, p, s});
    for (int p = 0; p < P; ++p)
        for (long long c = 0; c < C; ++c)
            place(-1, SwitchId{2, p, c});
    const bool manager = m_plan.reservedSlots > 0;
    const long long mdaRacks =
        mdaSwitches.empty() && !manager
            ? 0
            : std::max<long long>(
                  1, (static_cast<long long>(mdaSwitches.size()) + perNetworkRack - 1) /
                         perNetworkRack);
    // Row lengths: compute positions plus the row's network racks.
    std::vector<int> networkRacksInRow(static_cast<std::size_t>(rows), 0);
    int longestRow = perRow;
    for (long long i = 0; i < rows; ++i) {
        const auto n = static_cast<long long>(rowSwitches[static_cast<std::size_t>(i)].size());
        networkRacksInRow[static_cast<std::size_t>(i)] =
            static_cast<int>((n + perNetworkRack - 1) / perNetworkRack);
        longestRow = std::max(longestRow, perRow + networkRacksInRow[static_cast<std::size_t>(i)]);
    }
    const int mdaRows =
        mdaRacks > 0 ? static_cast<int>((mdaRacks + longestRow - 1) / longestRow) : 0;

    // The cooling plant's floor units (docs/hall.md, "Cooling units"): the CDUs the plant
    // installs for the liquid loop (the designCduCount that carry it and the spares of
    // cooling.cdu_redundancy, counted as the redundancy design counts them), room air units
    // (CRAH/CRAC) for the heat an air-cooled hall gives off (designCrahCount), and a rear door on
    // every rack of a cold-plate hall as depth added to the rack. Footprints from the cooling
    // system's entry.
    const model::CoolingSystemSpec& sys = m_r.cooling;
    const bool liquid = sys.type == model::CoolingType::LiquidD2cRdhx;
    const double rdhx = liquid ? sys.rdhxDepthM : 0.0;
    m_rackDepth = m_hall.rackDepthM + rdhx;
    const int cdus = installedUnits(designCduCount(sys, power.itDesignPowerKw),
                                    m_r.scenario.cooling.cduRedundancy);
    const int crahs = designCrahCount(sys, power.itDesignPowerKw);
    // More cooling units than four for every compute rack is no plant but a unit capacity far
    // below any CDU or room unit (tens to thousands of kW): said, not drawn.
    const long long unitLimit = 4 * computeRacks + 16;
    if (cdus > unitLimit || crahs > unitLimit) {
        const bool cdu = cdus > unitLimit;
        m_d.error(cdu ? "/cooling/system/cdu_capacity_kw" : "/cooling/system/crah_capacity_kw",
                  "a unit of " +
                      formatQuantity(cdu ? sys.cduCapacityKw : sys.crahCapacityKw, "kW") +
                      " needs " + std::to_string(cdu ? cdus : crahs) + " units for " +
                      std::to_string(computeRacks) + " compute racks",
                  "a unit capacity of the tens to thousands of kW one unit moves, or 0 for none",
                  "hall-too-many-cooling-units");
        return;
    }
    m_out.cdus = cdus;
    m_out.crahs = crahs;
    m_out.cduCapacityKw = cdus > 0 ? sys.cduCapacityKw : 0.0;
    m_out.crahCapacityKw = crahs > 0 ? sys.crahCapacityKw : 0.0;
    m_out.rdhxDepthM = rdhx;

    m_pitch = m_hall.rackPitchM > 0.0 ? std::max(m_hall.rackPitchM, m_hall.rackWidthM)
                                      : m_hall.rackWidthM;
    const double rackSpan = longestRow * m_pitch;
    // CDUs stand at the row ends, after the racks: until the blocks are known, as if spread
    // evenly over the rows.
    const long long cdusPerRowGuess = cdus > 0 ? (cdus + rows - 1) / rows : 0;
    double blockWidth = rackSpan + static_cast<double>(cdusPerRowGuess) * sys.cduWidthM;
    const double cross = m_hall.crossAisleM;
    const double endAisle = m_hall.endAisleM;
    // Depth of a block of n rows: an aisle in front, racks, cold and hot aisles by turns (rows
    // face each other across the cold aisle), an aisle behind the last.
    auto rowsDepth = [&](long long n) {
        const long long gaps = std::max<long long>(0, n - 1);
        return static_cast<double>(n) * m_rackDepth +
               static_cast<double>((gaps + 1) / 2) * m_hall.coldAisleM +
               static_cast<double>(gaps / 2) * m_hall.hotAisleM;
    };
    auto blockDepth = [&](long long n) { return 2.0 * endAisle + rowsDepth(n); };
    // Row blocks side by side, a cross aisle between them. Unset, the count that brings the hall
    // closest to square: for a given area a square floor has the shortest perimeter and the
    // shortest longest run between two racks (an assumption of this model; halls are built from
    // about square to 2:1, docs/hall.md).
    auto hallWidth = [&](long long b) {
        return 2.0 * endAisle + static_cast<double>(b) * blockWidth +
               static_cast<double>(b - 1) * cross;
    };
    auto rowsInBlock = [&](long long b) { return (rows + b - 1) / b; };
    long long blocks = m_hall.rowBlocks > 0 ? std::min<long long>(m_hall.rowBlocks, rows) : 1;
    if (m_hall.rowBlocks == 0) {
        double best = 1e300;
        for (long long b = 1; b <= rows; ++b) {
            if (b > 1 && rowsInBlock(b) == rowsInBlock(b - 1))
                continue;
            const double w = hallWidth(b);
            const double d = blockDepth(rowsInBlock(b) + mdaRows);
            const double aspect = std::max(w / d, d / w);
            if (aspect < best - 1e-9) {
                best = aspect;
                blocks = b;
            }
        }
    }
    const long long perBlock = rowsInBlock(blocks);
    blocks = (rows + perBlock - 1) / perBlock;
    m_out.rowBlocks = static_cast<int>(blocks);
    m_out.crossAisleM = cross;

    // CDUs over the blocks by their compute racks (largest remainder): the rows of a block share
    // the secondary loop its CDUs feed (an assumption: one loop per block, its header along the
    // block's row ends); in a block, each CDU at the end of the row in the middle of its share.
    std::vector<int> blockCdus(static_cast<std::size_t>(blocks), 0);
    std::vector<int> rowCdus(static_cast<std::size_t>(rows), 0);
    if (cdus > 0) {
        std::vector<std::pair<double, long long>> remainders;
        int given = 0;
        for (long long b = 0; b < blocks; ++b) {
            const long long first = b * perBlock * perRow;
            const long long last = std::min(computeRacks, (b + 1) * perBlock * perRow);
            const double share = static_cast<double>(cdus) *
                                 static_cast<double>(std::max(0LL, last - first)) /
                                 static_cast<double>(std::max(1LL, computeRacks));
            const int whole = static_cast<int>(std::floor(share + 1e-9));
            blockCdus[static_cast<std::size_t>(b)] = whole;
            given += whole;
            remainders.emplace_back(share - whole, b);
        }
        std::stable_sort(remainders.begin(), remainders.end(),
                         [](const auto& x, const auto& y) { return x.first > y.first; });
        for (int i = 0; given < cdus && !remainders.empty(); ++i, ++given)
            blockCdus[static_cast<std::size_t>(
                remainders[static_cast<std::size_t>(i) % remainders.size()].second)] += 1;
        for (long long b = 0; b < blocks; ++b) {
            const long long first = b * perBlock;
            const long long n = std::min(perBlock, rows - first);
            const int c = blockCdus[static_cast<std::size_t>(b)];
            for (int j = 0; j < c; ++j) {
                const long long local =
                    std::min(n - 1, static_cast<long long>((j + 0.5) * static_cast<double>(n) / c));
                rowCdus[static_cast<std::size_t>(first + local)] += 1;
            }
        }
    }
    int cdusPerRow = 0;
    for (const int c : rowCdus)
        cdusPerRow = std::max(cdusPerRow, c);
    blockWidth = rackSpan + cdusPerRow * sys.cduWidthM;

    // The MDA: a walled room (a meet-me room) holding its racks in rows, a clearance aisle
    // inside its walls all round (TIA-942 circulation), in the middle of the middle block
    // (TIA-942 places the MDA centrally to keep the longest runs short), across the front or
    // back wall, or beside the blocks.
    const model::MdaPosition roomAt = m_hall.mdaPosition;
    const bool room = mdaRacks > 0;
    const bool roomCenter = room && roomAt == model::MdaPosition::Center;
    const bool roomFront = room && roomAt == model::MdaPosition::Front;
    const bool roomBack = room && roomAt == model::MdaPosition::Back;
    const bool roomSide = room && roomAt == model::MdaPosition::Side;
    const double wall = mdaWallM;
    long long roomPerRow = std::max<long long>(1, std::min<long long>(mdaRacks, longestRow));
    if (roomCenter)
        roomPerRow = std::max<long long>(
            1, std::min<long long>(mdaRacks,
                                   static_cast<long long>(std::floor(
                                       (blockWidth - 2.0 * (wall + endAisle)) / m_pitch + 1e-9))));
    const long long roomRows = room ? (mdaRacks + roomPerRow - 1) / roomPerRow : 0;
    const double roomDepth = room ? 2.0 * (wall + endAisle) + rowsDepth(roomRows) : 0.0;
    const double roomWidth =
        !room        ? 0.0
        : roomCenter ? blockWidth
                     : static_cast<double>(roomPerRow) * m_pitch + 2.0 * (wall + endAisle);
    // The MDA stands in the middle block, in the middle of its rows (after an even count).
    const long long mdaBlock = (blocks - 1) / 2;
    std::vector<std::vector<int>> blockOrder(static_cast<std::size_t>(blocks));
    for (long long b = 0; b < blocks; ++b) {
        auto& order = blockOrder[static_cast<std::size_t>(b)];
        const long long first = b * perBlock;
        const long long n = std::min(perBlock, rows - first);
        const long long mdaAfter = roomCenter && b == mdaBlock ? (n / 2) - (n / 2) % 2 : -1;
        for (long long i = 0; i <= n; ++i) {
            if (i == mdaAfter)
                order.push_back(-1);
            if (i < n)
                order.push_back(static_cast<int>(first + i));
        }
    }

    // Room air units along the left and right walls: their depth out from the walls.
    const double wallUnits = crahs > 0 ? sys.crahDepthM : 0.0;
    const double yOffset = roomFront ? roomDepth : 0.0;
    const double blocksWidth = hallWidth(blocks);
    m_out.widthM = 2.0 * wallUnits + blocksWidth + (roomSide ? roomWidth : 0.0);
    if ((roomFront || roomBack) && roomWidth > blocksWidth)
        m_out.widthM = 2.0 * wallUnits + roomWidth;
    m_out.rackWidthM = m_hall.rackWidthM;
    m_out.rackDepthM = m_rackDepth;
    auto blockX = [&](long long b) {
        return wallUnits + endAisle + static_cast<double>(b) * (blockWidth + cross);
    };
    // Trays across the rows over the aisles left and right of every block (the cross aisle's
    // shared by its two blocks), and mid-row when the network racks stand there.
    const bool middleTray = m_hall.networkPlacement == model::NetworkPlacement::MiddleOfRow;
    m_out.blockTraysXM.assign(static_cast<std::size_t>(blocks), {});
    for (long long b = 0; b < blocks; ++b) {
        const double bx = blockX(b);
        auto& trays = m_out.blockTraysXM[static_cast<std::size_t>(b)];
        trays.push_back(b == 0 ? wallUnits + endAisle / 2.0 : bx - cross / 2.0);
        trays.push_back(b + 1 == blocks ? bx + blockWidth + endAisle / 2.0
                                        : bx + blockWidth + cross / 2.0);
        if (middleTray)
            trays.push_back(bx + (perRow / 2) * m_pitch + m_pitch / 2.0);
        for (const double t : trays)
            if (std::find(m_out.crossTraysXM.begin(), m_out.crossTraysXM.end(), t) ==
                m_out.crossTraysXM.end())
                m_out.crossTraysXM.push_back(t);
    }

    const bool containCold = m_hall.containment == model::Containment::ColdAisle;
    const bool containHot = m_hall.containment == model::Containment::HotAisle;
    m_out.aisles.push_back(HallAisle{false, false, yOffset, endAisle, 0.0, m_out.widthM});
    std::vector<int> rowIndexOfCompute(static_cast<std::size_t>(rows), 0);
    std::vector<int> rowIndexOfMda(static_cast<std::size_t>(roomRows), 0);
    // The MDA room's rows from \a y (inside its walls and clearance), from the left at \a x.
    auto addRoomRows = [&](double x, double y, int block) {
        const double innerWidth = static_cast<double>(roomPerRow) * m_pitch;
        for (long long k = 0; k < roomRows; ++k) {
            HallRow row;
            row.mda = true;
            row.name = "MDA" + std::to_string(k + 1);
            row.xM = x;
            row.yM = y;
            row.block = block;
            row.facesUp = k % 2 == 0;
            rowIndexOfMda[static_cast<std::size_t>(k)] = static_cast<int>(m_out.rows.size());
            m_out.rows.push_back(row);
            y += m_rackDepth;
            if (k + 1 < roomRows) {
                const bool cold = k % 2 == 0;
                const double w = cold ? m_hall.coldAisleM : m_hall.hotAisleM;
                m_out.aisles.push_back(
                    HallAisle{!cold, cold ? containCold : containHot, y, w, x, innerWidth});
                y += w;
            }
        }
    };
    double deepest = yOffset + endAisle;
    for (long long b = 0; b < blocks; ++b) {
        const double bx = blockX(b);
        const auto& order = blockOrder[static_cast<std::size_t>(b)];
        double y = yOffset + endAisle;
        std::size_t parity = 0;
        for (std::size_t k = 0; k < order.size(); ++k) {
            const int o = order[k];
            if (o < 0) {
                // The room in the block: walls, clearance, its rows; a circulation aisle on.
                m_out.mdaRoom = HallRoom{true, "center", bx, y, roomWidth, roomDepth, wall};
                addRoomRows(bx + wall + endAisle, y + wall + endAisle, static_cast<int>(b));
                y += roomDepth;
                if (k + 1 < order.size()) {
                    m_out.aisles.push_back(HallAisle{false, false, y, endAisle, bx, blockWidth});
                    y += endAisle;
                }
                parity = 0;
                continue;
            }
            HallRow row;
            row.name = "R" + twoDigits(o + 1);
            row.yM = y;
            row.xM = bx;
            row.block = static_cast<int>(b);
            row.facesUp = parity % 2 == 0;
            rowIndexOfCompute[static_cast<std::size_t>(o)] = static_cast<int>(m_out.rows.size());
            m_out.rows.push_back(row);
            y += m_rackDepth;
            if (k + 1 < order.size()) {
                const bool cold = parity % 2 == 0;
                const double w = cold ? m_hall.coldAisleM : m_hall.hotAisleM;
                m_out.aisles.push_back(
                    HallAisle{!cold, cold ? containCold : containHot, y, w, bx, blockWidth});
                y += w;
            }
            ++parity;
        }
        deepest = std::max(deepest, y);
    }
    // The back aisle, widened when the wall units need more wall than the rows give.
    double rowsEnd = deepest + endAisle;
    const long long unitsPerWall = (crahs + 1) / 2;
    if (crahs > 0)
        rowsEnd = std::max(rowsEnd, yOffset + static_cast<double>(unitsPerWall) * sys.crahWidthM);
    m_out.depthM = rowsEnd;
    m_out.frontTrayYM = yOffset + endAisle / 2.0;
    m_out.backTrayYM = deepest + endAisle / 2.0;
    if (room && !roomCenter) {
        // A room of its own across a wall or beside the blocks: its own trays inside its walls
        // (a block of its own for the routes), joined to the hall's by the front or back tray.
        double rx = 0.0, ry = 0.0;
        if (roomSide) {
            rx = wallUnits + blocksWidth;
            ry = yOffset + std::max(0.0, (rowsEnd - yOffset - roomDepth) / 2.0);
            m_out.depthM = std::max(m_out.depthM, ry + roomDepth);
        } else {
            rx = (m_out.widthM - roomWidth) / 2.0;
            ry = roomFront ? 0.0 : rowsEnd;
            if (roomBack)
                m_out.depthM = rowsEnd + roomDepth;
        }
        const char* where = roomFront ? "front" : roomBack ? "back" : "side";
        m_out.mdaRoom = HallRoom{true, where, rx, ry, roomWidth, roomDepth, wall};
        const int roomBlock = static_cast<int>(blocks);
        m_out.blockTraysXM.push_back(
            {rx + wall + endAisle / 2.0, rx + roomWidth - wall - endAisle / 2.0});
        for (const double t : m_out.blockTraysXM.back())
            m_out.crossTraysXM.push_back(t);
        addRoomRows(rx + wall + endAisle, ry + wall + endAisle, roomBlock);
    }
    // The back aisle last: the plan draws the aisles between the first and the last.
    m_out.aisles.push_back(HallAisle{false, false, deepest, rowsEnd - deepest, 0.0, m_out.widthM});
    m_out.areaM2 = m_out.widthM * m_out.depthM;

    // Racks. Compute positions fill a row from the left; end-of-row network racks follow them,
    // middle-of-row ones stand between the two halves.
    const bool middle = m_hall.networkPlacement == model::NetworkPlacement::MiddleOfRow;
    auto addRack = [&](HallRackKind kind, int rowIndex, int position) {
        // Built in its place in the list (the list is reserved for every rack below).
        HallRack& rack = m_out.racks.emplace_back();
        HallRow& row = m_out.rows[static_cast<std::size_t>(rowIndex)];
        rack.kind = kind;
        rack.row = rowIndex;
        rack.position = position;
        rack.xM = row.xM + position * m_pitch;
        rack.yM = row.yM;
        rack.name.reserve(row.name.size() + 4);
        rack.name = row.name;
        rack.name += '-';
        appendTwoDigits(rack.name, position + 1);
        rack.powerLimitKw = fac.rackPowerLimitKw;
        rack.coolingLimitKw = m_r.cooling.maxRackKw;
        row.racks += 1;
        row.xEndM = std::max(row.xEndM, rack.xM + m_hall.rackWidthM);
        return static_cast<int>(m_out.racks.size() - 1);
    };
    for (auto& v : m_switchRack)
        v.clear();
    m_switchRack[0].assign(static_cast<std::size_t>(L * P), 0);
    m_switchRack[1].assign(static_cast<std::size_t>(S * P), 0);
    m_switchRack[2].assign(static_cast<std::size_t>(C * P), 0);
    long long allRacks = computeRacks + mdaRacks;
    for (const int n : networkRacksInRow)
        allRacks += n;
    m_out.racks.reserve(static_cast<std::size_t>(allRacks));
    auto assign = [&](const SwitchId& s, int rack) {
        const long long perPlane = s.tier == 0 ? L : s.tier == 1 ? S : C;
        m_switchRack[s.tier][static_cast<std::size_t>(s.plane * perPlane + s.index)] = rack;
        HallRack& r = m_out.racks[static_cast<std::size_t>(rack)];
        (s.tier == 0 ? r.leaves : s.tier == 1 ? r.spines : r.cores) += 1;
    };
    m_computeRack.clear();
    m_computeRack.reserve(static_cast<std::size_t>(computeRacks));
    for (long long i = 0; i < rows; ++i) {
        const int rowIndex = rowIndexOfCompute[static_cast<std::size_t>(i)];
        const int network = networkRacksInRow[static_cast<std::size_t>(i)];
        const long long first = i * perRow;
        const long long count = std::min<long long>(perRow, computeRacks - first);
        const int half = middle ? static_cast<int>(count / 2) : static_cast<int>(count);
        for (long long j = 0; j < count; ++j) {
            const int position = static_cast<int>(j) + (middle && j >= half ? network : 0);
            const int rack = addRack(HallRackKind::Compute, rowIndex, position);
            m_computeRack.push_back(rack);
            HallRack& r = m_out.racks[static_cast<std::size_t>(rack)];
            r.firstNode = (first + j) * perRack;
            r.nodes = static_cast<int>(std::min<long long>(perRack, nodes - r.firstNode));
        }
        const auto& switches = rowSwitches[static_cast<std::size_t>(i)];
        int rack = -1;
        for (std::size_t s = 0; s < switches.size(); ++s) {
            if (s % static_cast<std::size_t>(perNetworkRack) == 0)
                rack =
                    addRack(HallRackKind::Network, rowIndex,
                            half + static_cast<int>(s / static_cast<std::size_t>(perNetworkRack)));
            assign(switches[s], rack);
        }
        m_out.networkRacks += network;
    }
    int mdaRack = -1;
    for (long long k = 0; k < mdaRacks; ++k) {
        const int rowIndex = rowIndexOfMda[static_cast<std::size_t>(k / roomPerRow)];
        const int rack = addRack(HallRackKind::Mda, rowIndex, static_cast<int>(k % roomPerRow));
        if (k == 0)
            mdaRack = rack;
        for (long long s = k * perNetworkRack;
             s < std::min<long long>((k + 1) * perNetworkRack,
                                     static_cast<long long>(mdaSwitches.size()));
             ++s)
            assign(mdaSwitches[static_cast<std::size_t>(s)], rack);
    }
    m_out.mdaRacks = static_cast<int>(mdaRacks);
    m_managerRack = mdaRack;

    // The cooling units on the floor: CDUs at the ends of their rows, after the racks; room air
    // units spread along the left and right walls, half on each.
    m_out.units.reserve(static_cast<std::size_t>(cdus + crahs));
    auto unitName = [](const char* prefix, int n) {
        std::string name = prefix;
        appendTwoDigits(name, n);
        return name;
    };
    for (long long b = 0; b < blocks; ++b) {
        const long long first = b * perBlock;
        const long long last = std::min(rows, first + perBlock) - 1;
        const std::string serves = "rows R" + twoDigits(first + 1) + "-R" + twoDigits(last + 1) +
                                   " (block " + std::to_string(b + 1) + ")";
        for (long long i = first; i <= last; ++i) {
            const int rowIndex = rowIndexOfCompute[static_cast<std::size_t>(i)];
            const HallRow& row = m_out.rows[static_cast<std::size_t>(rowIndex)];
            for (int j = 0; j < rowCdus[static_cast<std::size_t>(i)]; ++j) {
                HallUnit unit;
                unit.kind = HallUnitKind::Cdu;
                unit.name = unitName("CDU", static_cast<int>(m_out.units.size()) + 1);
                unit.xM = row.xM + rackSpan + j * sys.cduWidthM;
                unit.yM = row.yM;
                unit.widthM = sys.cduWidthM;
                unit.depthM = sys.cduDepthM;
                unit.capacityKw = sys.cduCapacityKw;
                unit.row = rowIndex;
                unit.block = static_cast<int>(b);
                unit.serves = serves;
                m_out.units.push_back(std::move(unit));
            }
        }
    }
    const double wallLength = m_out.depthM - yOffset;
    for (int k = 0; k < crahs; ++k) {
        const bool left = k < unitsPerWall;
        const long long j = left ? k : k - unitsPerWall;
        const long long onWall = left ? unitsPerWall : crahs - unitsPerWall;
        const double spacing = (roomBack ? rowsEnd - yOffset : wallLength) /
                               static_cast<double>(std::max<long long>(1, onWall));
        HallUnit unit;
        unit.kind = HallUnitKind::Crah;
        unit.name = unitName("CRAH", k + 1);
        unit.xM = left ? 0.0 : m_out.widthM - sys.crahDepthM;
        unit.yM = yOffset + (static_cast<double>(j) + 0.5) * spacing - sys.crahWidthM / 2.0;
        unit.widthM = sys.crahDepthM;
        unit.depthM = sys.crahWidthM;
        unit.capacityKw = sys.crahCapacityKw;
        unit.serves = "room air of the hall";
        m_out.units.push_back(std::move(unit));
    }
    m_out.valid = true;
}

double HallBuilder::cableLengthM(int a, int b) const
{
    const HallRack& ra = m_out.racks[static_cast<std::size_t>(a)];
    const HallRack& rb = m_out.racks[static_cast<std::size_t>(b)];
    double routed = 0.0;
    if (a == b) {
        // Inside one rack, along its vertical cable manager: a third of the rack's height on
        // average between two ports.
        routed = m_r.scenario.facility.rackUnits * rackUnitM / 3.0;
    } else {
        // Up from the port to the overhead tray and down again at the other end.
        const double vertical = 2.0 * std::max(0.0, m_hall.trayHeightM - m_hall.portHeightM);
        const double xa = ra.xM + m_hall.rackWidthM / 2.0;
        const double xb = rb.xM + m_hall.rackWidthM / 2.0;
        double horizontal = 0.0;
        if (ra.row == rb.row) {
            horizontal = std::fabs(xa - xb);
        } else {
            // Trays run along every row and cross the rows over the aisles beside each row block
            // (and the middle of the rows when the network racks stand there): along the first
            // row to a cross tray, across, and back along the second row. Between two blocks
            // the run follows the tray along the front or back aisle from one block's cross tray
            // to the other's, unless the two share the tray over their cross aisle.
            const double ya = ra.yM + m_rackDepth / 2.0;
            const double yb = rb.yM + m_rackDepth / 2.0;
            const auto& rowA = m_out.rows[static_cast<std::size_t>(ra.row)];
            const auto& rowB = m_out.rows[static_cast<std::size_t>(rb.row)];
            const auto& traysA = m_out.blockTraysXM[static_cast<std::size_t>(rowA.block)];
            const auto& traysB = m_out.blockTraysXM[static_cast<std::size_t>(rowB.block)];
            const double viaEnd =
                std::min(std::fabs(ya - m_out.frontTrayYM) + std::fabs(yb - m_out.frontTrayYM),
                         std::fabs(ya - m_out.backTrayYM) + std::fabs(yb - m_out.backTrayYM));
            horizontal = 1e300;
            for (const double ta : traysA)
                for (const double tb : traysB) {
                    const double across =
                        ta == tb ? std::fabs(ya - yb) : std::fabs(ta - tb) + viaEnd;
                    horizontal =
                        std::min(horizontal, std::fabs(xa - ta) + std::fabs(xb - tb) + across);
                }
        }
        routed = vertical + horizontal;
    }
    return routed * (1.0 + m_hall.slackFraction) + 2.0 * m_hall.serviceLoopM;
}

MediumChoice HallBuilder::medium(double lengthM, double rateGbps, bool nicEnd)
{
    // A hall has a socket kind or two (NIC to leaf, switch to switch): the media that plug into
    // each are listed once, then each run picks from its list by length.
    for (const SocketMenu& m : m_menus)
        if (m.rateGbps == rateGbps && m.nicEnd == nicEnd)
            return m.menu.choose(lengthM);
    const LinkSockets sockets{rateGbps,
                              nicEnd,
                              m_pack,
                              m_r.scenario.network.protocol,
                              m_r.fabricPortRateGbps(),
                              m_r.fabricSwitch.portsPerCage > 1};
    m_menus.push_back(SocketMenu{rateGbps, nicEnd, MediumMenu(m_r.cables, sockets)});
    return m_menus.back().menu.choose(lengthM);
}

void HallBuilder::addLinks(HallLinkClass cls, int rackA, int rackB, bool nicEnd, double rateGbps,
                           long long count, const SwitchId* switchA, const SwitchId& switchB,
                           bool newPair)
{
    // `count` links of one class between the same two racks: one length, one medium. Run one by
    // one (count 1) the sums below are the per-link sums exactly; counted, each is the product.
    const double length = cableLengthM(rackA, rackB);
    const double links = static_cast<double>(count);
    const auto c = static_cast<std::size_t>(cls);
    const MediumChoice chosen = medium(length, rateGbps, nicEnd);
    const model::CableSpec* cable = chosen.cable;
    const model::CableSpec* shared = chosen.shared;
    std::size_t line = m_out.bill.size();
    for (std::size_t i = 0; i < m_out.bill.size(); ++i)
        if (m_work[i].cable == cable && m_work[i].shared == shared && m_work[i].nicEnd == nicEnd &&
            m_out.bill[i].linkClass == cls && m_out.bill[i].rateGbps == rateGbps) {
            line = i;
            break;
        }
    if (line == m_out.bill.size()) {
        CableBillLine l;
        l.linkClass = cls;
        l.rateGbps = rateGbps;
        if (cable) {
            l.cableId = cable->id;
            l.cableKind = cableKindName(cable->cableKind);
            l.latencyNs = cable->latencyNs;
        }
        if (shared)
            l.switchModuleId = shared->id;
        m_out.bill.push_back(l);
        m_work.push_back(LineWork{cable, shared, nicEnd, 0.0});
    }
    CableBillLine& l = m_out.bill[line];
    LineWork& w = m_work[line];
    l.links += count;
    l.lengthM += links * length;
    l.maxLengthM = std::max(l.maxLengthM, length);
    m_lengthM[c] += links * length;
    m_links[c] += count;
    if (cable && cable->cableKind == CableKind::Transceiver)
        w.fiberM += links * length;
    if (cable)
        m_latencyNs[c] += links * cable->latencyNs;
    if (length > m_longest[c].lengthM) {
        Longest& lo = m_longest[c];
        lo.lengthM = length;
        lo.rackA = rackA;
        lo.rackB = rackB;
        lo.nicEnd = nicEnd;
        if (switchA)
            lo.a = *switchA;
        lo.b = switchB;
    }
    if (!cable) {
        m_out.linksBeyondReach += count;
        if (!m_reachReported[c]) {
            m_reachReported[c] = true;
            const std::string a = nicEnd ? std::string("a NIC") : switchName(*switchA);
            m_d.warning("/hall",
                        std::string("no catalog cable carries ") +
                            std::to_string(static_cast<int>(rateGbps)) + "G over " +
                            metres(length) + ": the " + hallLinkClassName(cls) + " link from " + a +
                            " in rack " + m_out.racks[static_cast<std::size_t>(rackA)].name +
                            " to " + switchName(switchB) + " in rack " +
                            m_out.racks[static_cast<std::size_t>(rackB)].name +
                            " (and any other beyond reach) cannot be cabled",
                        "bring the network racks closer (/hall/network_placement, "
                        "/hall/mda_position), shorter rows, or a longer-reach entry in the "
                        "catalog",
                        "hall-link-beyond-reach");
        }
    }
    // The bundle between the two racks, for the floor plan (a pair counted in closed form is
    // met once).
    if (newPair) {
        m_out.bundles.push_back(CableBundle{cls, rackA, rackB, count, length});
        return;
    }
    const std::uint64_t key = (static_cast<std::uint64_t>(c) << 60) ^
                              (static_cast<std::uint64_t>(static_cast<unsigned>(rackA)) << 30) ^
                              static_cast<std::uint64_t>(static_cast<unsigned>(rackB));
    auto [it, inserted] = m_bundleIndex.try_emplace(key, m_out.bundles.size());
    if (inserted)
        m_out.bundles.push_back(CableBundle{cls, rackA, rackB, 0, length});
    m_out.bundles[it->second].links += count;
}

void HallBuilder::runCables()
{
    m_pack = std::max(1, m_r.fabricSwitch.portsPerCage) * std::max(1, m_r.portBreakout);
    m_out.bill.reserve(8);
    m_work.reserve(8);
    if (m_cabling != HallCabling::ByRackPair || !runCablesByRackPair())
        runCablesPerLink();
    finishCables();
}

void HallBuilder::runCablesPerLink()
{
    const FabricSpec& s = m_plan.spec;
    const double nicRate = s.endpointRateGbps;
    const double linkRate = s.switchLinkRateGbps;
    m_bundleIndex.reserve(1024);
    const auto addLink = [this](HallLinkClass cls, int rackA, int rackB, bool nicEnd,
                                double rateGbps, const SwitchId* switchA, const SwitchId& switchB) {
        addLinks(cls, rackA, rackB, nicEnd, rateGbps, 1, switchA, switchB, false);
    };
    forEachEndpoint([&](long long node, int plane, long long leaf) {
        const int rackA = node < 0
                              ? std::max(0, m_managerRack)
                              : m_computeRack[static_cast<std::size_t>(node / m_out.nodesPerRack)];
        if (node < 0 && m_managerRack >= 0)
            m_out.racks[static_cast<std::size_t>(m_managerRack)].managerPorts += 1;
        addLink(HallLinkClass::NodeLeaf, rackA, leafRack(plane, leaf), true, nicRate, nullptr,
                SwitchId{0, plane, leaf});
    });
    const int P = std::max(1, m_plan.planes);
    const long long L = m_plan.leavesPerPlane;
    const long long u = m_plan.tiers > 1 ? m_plan.leafUpPorts : 0;
    for (int p = 0; p < P; ++p) {
        if (m_plan.tiers == 2) {
            for (long long l = 0; l < L; ++l)
                for (long long j = 0; j < u; ++j) {
                    const SwitchId a{0, p, l};
                    const long long spine = j % std::max<long long>(1, m_plan.spinesPerPlane);
                    addLink(HallLinkClass::LeafSpine, leafRack(p, l), spineRack(p, spine), false,
                            linkRate, &a, SwitchId{1, p, spine});
                }
        } else if (m_plan.tiers == 3) {
            const long long perPod = m_plan.leavesPerPod;
            // The cores as fabricgraph.cpp wires them: the plane's spine uplinks, pod by pod,
            // dealt over the c = ceil(L u / k) cores in turn.
            const long long c = std::max<long long>(1, m_plan.coresPerPlane);
            long long next = 0;
            for (long long l = 0; l < L; ++l)
                for (long long j = 0; j < u; ++j) {
                    const SwitchId a{0, p, l};
                    const long long spine = (l / perPod) * u + j;
                    addLink(HallLinkClass::LeafSpine, leafRack(p, l), spineRack(p, spine), false,
                            linkRate, &a, SwitchId{1, p, spine});
                }
            for (long long pod = 0; pod < m_plan.podsPerPlane; ++pod) {
                const long long inPod = std::min(perPod, L - pod * perPod);
                for (long long j = 0; j < u; ++j)
                    for (long long t = 0; t < inPod; ++t) {
                        const SwitchId a{1, p, pod * u + j};
                        const long long core = next++ % c;
                        addLink(HallLinkClass::SpineCore, spineRack(p, pod * u + j),
                                coreRack(p, core), false, linkRate, &a, SwitchId{2, p, core});
                    }
            }
        }
    }
}

bool HallBuilder::endpointSpan(int plane, long long leaf, long long& first, long long& last) const
{
    // The nodes a leaf serves, from the wiring forEachEndpoint walks: a contiguous range.
    const FabricSpec& s = m_plan.spec;
    const int rails = std::max(1, s.railsPerNode);
    const long long d = std::max(1, m_plan.leafDownPorts);
    long long begin = 0, end = 0; // nodes [begin, end)
    if (s.kind == TopologyKind::RailOptimized) {
        const long long usable =
            std::max(1, s.scalableUnitNodes) - std::max(0, s.reservedSlotsPerUnit);
        const long long perRail = std::max(1, m_plan.leavesPerRailPerUnit);
        const long long unit = leaf / (rails * perRail);
        const long long slot = (leaf % perRail) * d;
        begin = unit * usable + slot;
        end = std::min(unit * usable + std::min(usable, slot + d), m_plan.nodes);
    } else {
        // Node n's NICs on plane p are endpoints [n k, (n + 1) k) of the plane, k its rails
        // there; endpoint e plugs into leaf e / d.
        const int P = std::max(1, m_plan.planes);
        const long long k = plane < rails ? (rails - plane + P - 1) / P : 0;
        if (k == 0)
            return false;
        const long long e0 = leaf * d;
        const long long e1 = std::min((leaf + 1) * d, m_plan.nodes * k);
        if (e1 <= e0)
            return false;
        begin = e0 / k;
        end = (e1 - 1) / k + 1;
    }
    if (end <= begin)
        return false;
    first = begin;
    last = end - 1;
    return true;
}

bool HallBuilder::runCablesByRackPair()
{
    // The same links as runCablesPerLink, counted per pair of racks instead of run one by one:
    // the links of one class between two racks share their length, medium and price. Each pair
    // is met in the order of its first link in the per-link walk, and keeps that link's
    // switches, so that bill lines, the longest link and the first link beyond reach come out
    // as the per-link walk finds them.
    const FabricSpec& s = m_plan.spec;
    const int rails = std::max(1, s.railsPerNode);
    const int P = std::max(1, m_plan.planes);
    const long long L = m_plan.leavesPerPlane;
    const long long d = std::max(1, m_plan.leafDownPorts);
    const long long nodes = std::max<long long>(0, m_plan.nodes);
    const long long perRack = std::max(1, m_out.nodesPerRack);
    const bool railOptimized = s.kind == TopologyKind::RailOptimized;
    const long long slots = std::max(1, s.scalableUnitNodes);
    const long long usable = slots - std::max(0, s.reservedSlotsPerUnit);
    if (railOptimized && usable <= 0)
        return false;
    // Manager ports (rail-optimized only) count from the manager's rack; without one they would
    // share compute rack 0's pairs: the per-link walk handles that case.
    const int managerPorts = railOptimized ? std::min(s.fabricManagerPorts, rails) : 0;
    const long long managerLinks =
        railOptimized
            ? managerPorts * (static_cast<long long>(m_plan.scalableUnits) * (slots - usable) +
                              std::max(0, s.reservedSlotsPerFabric))
            : 0;
    if (managerLinks > 0 && m_managerRack < 0)
        return false;

    std::vector<PairRun> local;
    local.reserve(32);
    auto addLocal = [&local](int rackB, long long count, long long visit, const SwitchId& a,
                             const SwitchId& b) {
        if (count <= 0)
            return;
        for (PairRun& run : local)
            if (run.rackB == rackB) {
                run.links += count;
                if (visit < run.firstVisit) {
                    run.firstVisit = visit;
                    run.a = a;
                    run.b = b;
                }
                return;
            }
        // Written in place, field by field: a run built aside and copied in is read back
        // before its stores land.
        PairRun& run = local.emplace_back();
        run.rackB = rackB;
        run.links = count;
        run.firstVisit = visit;
        run.a = a;
        run.b = b;
    };
    auto byFirstVisit = [](const PairRun& x, const PairRun& y) {
        return x.firstVisit < y.firstVisit;
    };

    // Node to leaf: compute rack by compute rack (the rack of the node / nodes per rack'th
    // compute rack, as the per-link walk takes it), each plane's or rail's nodes of the rack
    // over the leaves they plug into.
    const double nicRate = s.endpointRateGbps;
    const long long computeRacks = (nodes + perRack - 1) / perRack;
    m_out.bundles.reserve(static_cast<std::size_t>(2 * computeRacks + 256));
    // Per plane: a node's NICs on it, and the leaf the current rack's first NIC plugs into
    // (racks are taken in order, so it only moves on: no division per rack).
    std::vector<long long> planeNics(railOptimized ? 0 : static_cast<std::size_t>(P), 0);
    std::vector<long long> planeLeaf(planeNics.size(), 0);
    for (int p = 0; p < static_cast<int>(planeNics.size()); ++p)
        planeNics[static_cast<std::size_t>(p)] = p < rails ? (rails - p + P - 1) / P : 0;
    for (long long rack = 0; rack < computeRacks; ++rack) {
        const long long a = rack * perRack;
        const long long b = std::min(nodes, a + perRack);
        local.clear();
        if (railOptimized) {
            const long long perRail = m_plan.leavesPerRailPerUnit;
            for (int rail = 0; rail < rails; ++rail)
                for (long long n = a; n < b;) {
                    const long long unit = n / usable;
                    const long long slot = n % usable;
                    const long long end =
                        std::min({b, unit * usable + usable, unit * usable + (slot / d + 1) * d});
                    const long long leaf = (unit * rails + rail) * perRail + slot / d;
                    const SwitchId sw{0, 0, leaf};
                    addLocal(leafRack(0, leaf), end - n, n * rails + rail, sw, sw);
                    n = end;
                }
        } else {
            for (int p = 0; p < P; ++p) {
                const long long k = planeNics[static_cast<std::size_t>(p)];
                if (k == 0)
                    continue; // no NIC of the node on this plane
                const long long e0 = a * k, e1 = b * k;
                long long& first = planeLeaf[static_cast<std::size_t>(p)];
                while ((first + 1) * d <= e0)
                    ++first; // first = e0 / d
                // Endpoint lo is NIC lo mod k of node lo / k on the plane, the node's rail
                // p + (lo mod k) P. One NIC a plane (multi-plane fabrics) is node lo's rail p:
                // a loop of its own, without the division.
                if (k == 1) {
                    for (long long leaf = first; leaf * d < e1; ++leaf) {
                        const long long lo = std::max(leaf * d, e0);
                        const long long hi = std::min((leaf + 1) * d, e1);
                        const SwitchId sw{0, p, leaf};
                        addLocal(leafRack(p, leaf), hi - lo, lo * rails + p, sw, sw);
                    }
                    continue;
                }
                for (long long leaf = first; leaf * d < e1; ++leaf) {
                    const long long lo = std::max(leaf * d, e0);
                    const long long hi = std::min((leaf + 1) * d, e1);
                    const long long rail = p + (lo % k) * P;
                    const SwitchId sw{0, p, leaf};
                    addLocal(leafRack(p, leaf), hi - lo, (lo / k) * rails + rail, sw, sw);
                }
            }
        }
        std::sort(local.begin(), local.end(), byFirstVisit);
        for (const PairRun& run : local)
            addLinks(HallLinkClass::NodeLeaf, m_computeRack[static_cast<std::size_t>(rack)],
                     run.rackB, true, nicRate, run.links, nullptr, run.b, true);
    }
    if (managerLinks > 0) {
        // The manager's ports, few: one by one, in the per-link order.
        local.clear();
        long long visit = nodes * rails;
        const long long perRail = m_plan.leavesPerRailPerUnit;
        auto leafOf = [&](long long unit, int rail, long long slot) {
            return (unit * rails + rail) * perRail + slot / d;
        };
        auto manager = [&](long long leaf) {
            const SwitchId sw{0, 0, leaf};
            addLocal(leafRack(0, leaf), 1, visit++, sw, sw);
        };
        for (long long unit = 0; unit < m_plan.scalableUnits; ++unit)
            for (long long i = usable; i < slots; ++i)
                for (int rail = 0; rail < managerPorts; ++rail)
                    manager(leafOf(unit, rail, i));
        for (int i = 0; i < s.reservedSlotsPerFabric; ++i) {
            const long long flat = static_cast<long long>(m_plan.scalableUnits) * usable - 1 - i;
            for (int rail = 0; rail < managerPorts; ++rail)
                manager(leafOf(flat / usable, rail, flat % usable));
        }
        m_out.racks[static_cast<std::size_t>(m_managerRack)].managerPorts +=
            static_cast<int>(managerLinks);
        for (const PairRun& run : local)
            addLinks(HallLinkClass::NodeLeaf, m_managerRack, run.rackB, true, nicRate, run.links,
                     nullptr, run.b, true);
    }

    // Between switch tiers: the rack pairs of every plane, met in the per-link order (a
    // switch's uplinks in turn), merged when a pair comes back (a rack of leaves of several
    // planes).
    struct SwitchRun
    {
        HallLinkClass cls;
        int rackA;
        PairRun run;
    };
    std::vector<SwitchRun> runs;
    PairIndex runIndex(256);
    runs.reserve(256);
    local.clear();
    int blockRack = -1;
    HallLinkClass blockClass = HallLinkClass::LeafSpine;
    auto flush = [&]() {
        for (const PairRun& run : local) {
            const std::uint64_t key =
                (static_cast<std::uint64_t>(blockClass) << 60) ^
                (static_cast<std::uint64_t>(static_cast<unsigned>(blockRack)) << 30) ^
                static_cast<std::uint64_t>(static_cast<unsigned>(run.rackB));
            bool inserted = false;
            const std::size_t at = runIndex.findOrAdd(key, runs.size(), inserted);
            if (inserted)
                runs.push_back(SwitchRun{blockClass, blockRack, run});
            else
                runs[at].run.links += run.links;
        }
        local.clear();
    };
    auto block = [&](HallLinkClass cls, int rackA) {
        if (rackA != blockRack || cls != blockClass) {
            flush();
            blockRack = rackA;
            blockClass = cls;
        }
    };
    // The racks of a tier's switches of one plane, as ranges [begin, end) of switch indices.
    struct Segment
    {
        long long begin;
        long long end;
        int rack;
    };
    auto segments = [&](int tier, int p, long long perPlane) {
        std::vector<Segment> out;
        const auto& racks = m_switchRack[tier];
        for (long long i = 0; i < perPlane; ++i) {
            const int rack = racks[static_cast<std::size_t>(p * perPlane + i)];
            if (out.empty() || out.back().rack != rack)
                out.push_back(Segment{i, i + 1, rack});
            else
                out.back().end = i + 1;
        }
        return out;
    };
    const long long u = m_plan.tiers > 1 ? m_plan.leafUpPorts : 0;
    const long long S = m_plan.spinesPerPlane;
    for (int p = 0; p < P && u > 0; ++p) {
        const std::vector<Segment> spines = segments(1, p, S);
        if (m_plan.tiers == 2) {
            // Uplink j of a leaf goes to spine j mod S: spine t carries u / S links, one more
            // when t < u mod S.
            const long long q = u / std::max<long long>(1, S);
            const long long r = u % std::max<long long>(1, S);
            for (long long l = 0; l < L; ++l) {
                block(HallLinkClass::LeafSpine, leafRack(p, l));
                for (const Segment& g : spines) {
                    const long long count =
                        (g.end - g.begin) * q + std::max(0LL, std::min(g.end, r) - g.begin);
                    addLocal(g.rack, count, 0, SwitchId{0, p, l}, SwitchId{1, p, g.begin});
                }
            }
        } else if (m_plan.tiers == 3) {
            const long long perPod = m_plan.leavesPerPod;
            for (long long l = 0; l < L; ++l) {
                // A leaf's u uplinks go to its pod's u spines, one each.
                block(HallLinkClass::LeafSpine, leafRack(p, l));
                const long long s0 = (l / perPod) * u;
                for (const Segment& g : spines) {
                    const long long lo = std::max(g.begin, s0);
                    const long long hi = std::min(g.end, s0 + u);
                    if (hi > lo)
                        addLocal(g.rack, hi - lo, 0, SwitchId{0, p, l}, SwitchId{1, p, lo});
                }
            }
            // Spine (pod, j) takes the next inPod cores in turn, modulo c: each core
            // inPod / c of them, one more for the first inPod mod c from where it starts.
            const long long c = std::max<long long>(1, m_plan.coresPerPlane);
            const std::vector<Segment> cores = segments(2, p, m_plan.coresPerPlane);
            long long next = 0;
            for (long long pod = 0; pod < m_plan.podsPerPlane; ++pod) {
                const long long inPod = std::min(perPod, L - pod * perPod);
                const long long q = inPod / c;
                const long long r = inPod % c;
                for (long long j = 0; j < u; ++j) {
                    const long long spine = pod * u + j;
                    block(HallLinkClass::SpineCore, spineRack(p, spine));
                    const long long start = next % c;
                    // Cores [start, c) at offsets 0.., then [0, start) at offsets c - start..
                    for (int half = 0; half < 2; ++half) {
                        const long long from = half == 0 ? start : 0;
                        const long long to = half == 0 ? c : start;
                        const long long shift = half == 0 ? -start : c - start;
                        for (const Segment& g : cores) {
                            const long long lo = std::max(g.begin, from);
                            const long long hi = std::min(g.end, to);
                            if (hi <= lo)
                                continue;
                            const long long o0 = lo + shift;
                            const long long count =
                                (hi - lo) * q + std::max(0LL, std::min(hi + shift, r) - o0);
                            addLocal(g.rack, count, 0, SwitchId{1, p, spine}, SwitchId{2, p, lo});
                        }
                    }
                    next += inPod;
                }
            }
        }
    }
    flush();
    const double linkRate = s.switchLinkRateGbps;
    for (const SwitchRun& w : runs)
        addLinks(w.cls, w.rackA, w.run.rackB, false, linkRate, w.run.links, &w.run.a, w.run.b,
                 true);
    return true;
}

void HallBuilder::finishCables()
{
    // Modules, power and cost of every line.
    for (std::size_t i = 0; i < m_out.bill.size(); ++i) {
        CableBillLine& l = m_out.bill[i];
        const LineWork& w = m_work[i];
        if (!w.cable) {
            continue;
        }
        const MediumBill b =
            billMedium(MediumChoice{w.cable, w.shared, 0.0},
                       LinkSockets{l.rateGbps, w.nicEnd, m_pack, m_r.scenario.network.protocol,
                                   m_r.fabricPortRateGbps(), m_r.fabricSwitch.portsPerCage > 1},
                       l.links, w.fiberM);
        l.cables = b.cables;
        l.transceivers = b.transceivers;
        l.powerW = b.powerW;
        l.costUsd = b.costUsd;
        m_out.cables += l.cables;
        m_out.transceivers += l.transceivers;
        m_out.cablePowerW += l.powerW;
        m_out.cableCostUsd += l.costUsd;
    }
    for (const auto& l : m_out.bill)
        m_out.cableLengthM += l.lengthM;
    for (std::size_t c = 0; c < 3; ++c) {
        if (m_links[c] == 0)
            continue;
        HallClassSummary sum;
        sum.linkClass = static_cast<HallLinkClass>(c);
        sum.links = m_links[c];
        sum.meanLengthM = m_lengthM[c] / static_cast<double>(m_links[c]);
        sum.maxLengthM = m_longest[c].lengthM;
        sum.meanLatencyNs = m_latencyNs[c] / static_cast<double>(m_links[c]);
        const Longest& lo = m_longest[c];
        sum.longestLink = (lo.nicEnd ? std::string("NIC") : switchName(lo.a)) + " (" +
                          m_out.racks[static_cast<std::size_t>(lo.rackA)].name + ") - " +
                          switchName(lo.b) + " (" +
                          m_out.racks[static_cast<std::size_t>(lo.rackB)].name + ")";
        m_out.classes.push_back(sum);
    }
}

/**
 * Returns what one standard row busway delivers: the largest STARLINE Track Busway (Universal
 * Electric Corporation, STARLINE Track Busway Product Selection Guide: T5 Series 250, 400 and
 * 800 A) at 415 V three-phase (the 415/240 V distribution of most data halls), loaded to 80% of
 * its rating for a continuous load (NFPA 70 NEC 215.3: continuous loads at 125%) at unity power
 * factor (server supplies: PF >= 0.95, 80 PLUS Titanium): sqrt(3) x 415 V x 800 A x 0.8 = 460
 * kW. A/B busways feeding the racks redundantly each carry the whole row, so the row gets
 * one's.
 */
double standardRowBuswayKw()
{
    constexpr double amps = 800.0;
    constexpr double volts = 415.0;
    constexpr double continuousShare = 0.8;
    return std::sqrt(3.0) * volts * amps * continuousShare / 1000.0;
}

std::string rackList(const std::vector<std::string>& names)
{
    std::string text;
    for (std::size_t i = 0; i < names.size() && i < 3; ++i)
        text += (i ? ", " : "") + names[i];
    if (names.size() > 3)
        text += " and " + std::to_string(names.size() - 3) + " more";
    return text;
}

} // namespace

const char* hallUnitKindName(HallUnitKind kind)
{
    return kind == HallUnitKind::Cdu ? "CDU" : "CRAH";
}

const char* hallLinkClassName(HallLinkClass linkClass)
{
    switch (linkClass) {
    case HallLinkClass::NodeLeaf:
        return "node-leaf";
    case HallLinkClass::LeafSpine:
        return "leaf-spine";
    case HallLinkClass::SpineCore:
        return "spine-core";
    }
    return "node-leaf";
}

std::vector<std::pair<double, double>> HallResult::route(int rackA, int rackB) const
{
    const HallRack& ra = racks[static_cast<std::size_t>(rackA)];
    const HallRack& rb = racks[static_cast<std::size_t>(rackB)];
    const double xa = ra.xM + rackWidthM / 2.0, ya = ra.yM + rackDepthM / 2.0;
    const double xb = rb.xM + rackWidthM / 2.0, yb = rb.yM + rackDepthM / 2.0;
    std::vector<std::pair<double, double>> points{{xa, ya}};
    if (ra.row != rb.row) {
        // The same choice as the layout's lengths (HallBuilder::cableLengthM).
        const auto& traysA =
            blockTraysXM[static_cast<std::size_t>(rows[static_cast<std::size_t>(ra.row)].block)];
        const auto& traysB =
            blockTraysXM[static_cast<std::size_t>(rows[static_cast<std::size_t>(rb.row)].block)];
        const double yEnd = std::fabs(ya - frontTrayYM) + std::fabs(yb - frontTrayYM) <=
                                    std::fabs(ya - backTrayYM) + std::fabs(yb - backTrayYM)
                                ? frontTrayYM
                                : backTrayYM;
        double best = 1e300, bestA = xa, bestB = xb;
        for (const double ta : traysA)
            for (const double tb : traysB) {
                const double across =
                    ta == tb ? std::fabs(ya - yb)
                             : std::fabs(ta - tb) + std::fabs(ya - yEnd) + std::fabs(yb - yEnd);
                const double d = std::fabs(xa - ta) + std::fabs(xb - tb) + across;
                if (d < best) {
                    best = d;
                    bestA = ta;
                    bestB = tb;
                }
            }
        points.emplace_back(bestA, ya);
        if (bestA != bestB) {
            points.emplace_back(bestA, yEnd);
            points.emplace_back(bestB, yEnd);
        }
        points.emplace_back(bestB, yb);
    }
    points.emplace_back(xb, yb);
    return points;
}

const HallClassSummary* HallResult::summary(HallLinkClass linkClass) const
{
    for (const auto& c : classes)
        if (c.linkClass == linkClass)
            return &c;
    return nullptr;
}

HallResult layoutHall(const model::ResolvedScenario& scenario, const FabricPlan& plan,
                      Diagnostics& diagnostics, HallCabling cabling, double networkPowerKw)
{
    if (!plan.valid)
        return {};
    HallBuilder builder(scenario, plan, diagnostics, cabling, networkPowerKw);
    return builder.build();
}

void applyHallCables(TopologyResult& t, HallResult& hall)
{
    if (!hall.valid)
        return;
    hall.pricesFabric = true;
    // One line per link class (the metrics key them by class), its medium the one carrying most
    // of its links; the hall's bill keeps every medium apart.
    t.cables.clear();
    for (const HallClassSummary& sum : hall.classes) {
        CableLine line;
        line.linkClass = hallLinkClassName(sum.linkClass);
        line.lengthM = sum.meanLengthM;
        long long most = -1;
        for (const CableBillLine& l : hall.bill) {
            if (l.linkClass != sum.linkClass)
                continue;
            line.links += l.links;
            line.rateGbps = l.rateGbps;
            line.cables += l.cables;
            line.transceivers += l.transceivers;
            line.powerW += l.powerW;
            line.costUsd += l.costUsd;
            if (l.links > most && !l.cableId.empty()) {
                most = l.links;
                line.cableId = l.cableId;
                line.cableKind = l.cableKind;
            }
        }
        t.cables.push_back(std::move(line));
    }
    t.cablePowerW = hall.cablePowerW;
    t.cableCostUsd = hall.cableCostUsd;
    t.powerW = t.switchPowerW + t.nicPowerW + t.cablePowerW;
    t.costUsd = t.switchCostUsd + t.nicCostUsd + t.cableCostUsd;
}

void applyHallLatency(CollectiveInputs& in, const HallResult& hall)
{
    if (!hall.valid || !hall.pricesFabric)
        return;
    // The electronics of a medium (retimers, DSPs) delay a hop as a longer cable would: their
    // nanoseconds become metres at the propagation the collectives engine charges per metre.
    const double nsPerM = nccl::cableUsPerM * 1000.0;
    if (const HallClassSummary* s = hall.summary(HallLinkClass::NodeLeaf))
        in.cableInRowM = s->meanLengthM + s->meanLatencyNs / nsPerM;
    double metres = 0.0;
    long long links = 0;
    for (const HallClassSummary& s : hall.classes)
        if (s.linkClass != HallLinkClass::NodeLeaf) {
            metres += static_cast<double>(s.links) * (s.meanLengthM + s.meanLatencyNs / nsPerM);
            links += s.links;
        }
    if (links > 0)
        in.cableAcrossRowsM = metres / static_cast<double>(links);
}

void checkHall(HallResult& hall, const model::ResolvedScenario& r, const PowerResult& power,
               Diagnostics& d)
{
    if (!hall.valid)
        return;
    const model::HallSection& h = r.scenario.hall;
    const double switchKw = r.fabricSwitch.powerW / 1000.0;
    for (HallRow& row : hall.rows) {
        row.nameplateKw = 0.0;
        row.designKw = 0.0;
        row.buswayKw = 0.0;
        row.coolingKw = 0.0;
    }
    // The power solver has warned of compute racks over their cooling already (with the
    // rack layout to change): the hall adds only the network racks, so each rack is named once.
    bool computeWarned = false;
    for (const Diagnostic& x : d)
        computeWarned |= x.code == "rack-over-capacity" || x.code == "node-over-cooling-capacity";
    std::vector<std::string> overPower, overCooling;
    bool overCoolingCompute = false;
    double worstPower = 0.0, worstCooling = 0.0;
    for (HallRack& rack : hall.racks) {
        const double switchesKw = (rack.leaves + rack.spines + rack.cores) * switchKw;
        rack.nameplateKw = rack.nodes * power.nodeNameplateKw + switchesKw;
        rack.designKw = rack.nodes * power.nodeDesignPowerKw + switchesKw;
        HallRow& row = hall.rows[static_cast<std::size_t>(rack.row)];
        row.nameplateKw += rack.nameplateKw;
        row.designKw += rack.designKw;
        row.buswayKw += rack.powerLimitKw;
        row.coolingKw += rack.coolingLimitKw;
        if (rack.nameplateKw > rack.powerLimitKw + 1e-9) {
            overPower.push_back(rack.name);
            worstPower = std::max(worstPower, rack.nameplateKw);
        }
        if (rack.designKw > rack.coolingLimitKw + 1e-9 &&
            !(computeWarned && rack.kind == HallRackKind::Compute)) {
            overCoolingCompute |= rack.kind == HallRackKind::Compute;
            overCooling.push_back(rack.name);
            worstCooling = std::max(worstCooling, rack.designKw);
        }
    }
    if (!overPower.empty())
        d.warning("/facility/rack_power_limit_kw",
                  std::to_string(overPower.size()) + " rack(s) draw more at nameplate than " +
                      "their feeds deliver (" + rackList(overPower) + ": up to " +
                      kilowatts(worstPower) + " over " +
                      std::to_string(static_cast<int>(r.scenario.facility.rackPowerLimitKw)) +
                      " kW)",
                  "fewer switches per network rack (/hall/switches_per_network_rack) or stronger "
                  "rack feeds",
                  "hall-rack-over-power");
    if (!overCooling.empty())
        d.warning(overCoolingCompute ? "/facility/rack_layout" : "/hall/switches_per_network_rack",
                  std::to_string(overCooling.size()) + " rack(s) give off more heat than their " +
                      "cooling removes (" + rackList(overCooling) + ": up to " +
                      kilowatts(worstCooling) + " against " +
                      std::to_string(static_cast<int>(r.cooling.maxRackKw)) +
                      " kW of /cooling/system)",
                  overCoolingCompute
                      ? "set /facility/rack_layout to \"spread\" or choose a cooling system "
                        "(/cooling/system) for denser racks"
                      : "fewer switches per network rack (/hall/switches_per_network_rack) or a "
                        "cooling system (/cooling/system) for denser racks",
                  "hall-rack-over-cooling");
    // A row's limits: the scenario's, else the largest standard row busway and the cooling
    // system's row unit (an in-row CDU). Rows of racks fed and cooled rack by rack are still
    // bounded by what one row's distribution carries. A rating the scenario states is a hard
    // limit; an assumed one is a warning naming the field that states the real rating. Without
    // a row unit (room CRACs/CRAHs) the racks' own limits are the check.
    const bool buswayStated = h.rowBuswayKw > 0.0;
    const bool coolingStated = h.rowCoolingKw > 0.0;
    const double buswayKw = buswayStated ? h.rowBuswayKw : standardRowBuswayKw();
    const double rowCoolingKw = coolingStated ? h.rowCoolingKw : r.cooling.maxRowKw;
    std::vector<std::string> overBusway, overRowCooling;
    for (HallRow& row : hall.rows) {
        row.buswayKw = buswayKw;
        if (rowCoolingKw > 0.0)
            row.coolingKw = rowCoolingKw;
        if (row.nameplateKw > row.buswayKw + 1e-9)
            overBusway.push_back(
                row.name + " " +
                std::to_string(static_cast<long long>(std::lround(row.nameplateKw))) + " kW");
        if (rowCoolingKw > 0.0 && row.designKw > row.coolingKw + 1e-9)
            overRowCooling.push_back(
                row.name + " " + std::to_string(static_cast<long long>(std::lround(row.designKw))) +
                " kW");
    }
    const auto kw = [](double v) {
        return std::to_string(static_cast<long long>(std::lround(v))) + " kW";
    };
    if (!overBusway.empty())
        d.warning("/hall/row_busway_kw",
                  std::to_string(overBusway.size()) + " row(s) draw more at nameplate than " +
                      (buswayStated ? "the " + kw(buswayKw) + " busway delivers ("
                                    : "one standard 800 A track busway delivers (" + kw(buswayKw) +
                                          " at 415 V; ") +
                      rackList(overBusway) + ")",
                  buswayStated ? "fewer racks per row (/hall/racks_per_row) or a heavier busway"
                               : "set /hall/row_busway_kw to the rating of the row's busways, or "
                                 "fewer racks per row (/hall/racks_per_row)",
                  buswayStated ? "hall-row-over-busway" : "hall-row-over-assumed-busway");
    if (!overRowCooling.empty())
        d.warning("/hall/row_cooling_kw",
                  std::to_string(overRowCooling.size()) + " row(s) give off more heat than " +
                      (coolingStated ? "the " + kw(rowCoolingKw) + " their cooling removes ("
                                     : "the " + kw(rowCoolingKw) + " in-row unit of '" +
                                           r.cooling.id + "' removes (") +
                      rackList(overRowCooling) + ")",
                  coolingStated ? "more cooling per row or fewer racks per row "
                                  "(/hall/racks_per_row)"
                                : "set /hall/row_cooling_kw to the row's cooling rating, or fewer "
                                  "racks per row (/hall/racks_per_row)",
                  coolingStated ? "hall-row-over-cooling" : "hall-row-over-assumed-cooling");
    // The cooling units on the floor: a block's rows share the secondary loop its CDUs feed, so
    // a row is short when its block's CDUs carry less than the block's cold plates give off; the
    // room air units carry the air of the whole hall.
    if (!hall.units.empty()) {
        const bool liquid = r.cooling.type == model::CoolingType::LiquidD2cRdhx;
        const double capture = liquid ? r.cooling.liquidCaptureFraction : 0.0;
        const std::size_t groups = hall.blockTraysXM.size() + 1;
        std::vector<double> blockLiquidKw(groups, 0.0);
        std::vector<int> blockCdus(groups, 0);
        double airKw = 0.0;
        for (const HallRack& rack : hall.racks) {
            const double liquidKw = capture * rack.nodes * power.nodeDesignPowerKw;
            const auto block = static_cast<std::size_t>(
                std::max(0, hall.rows[static_cast<std::size_t>(rack.row)].block));
            blockLiquidKw[std::min(block, groups - 1)] += liquidKw;
            airKw += rack.designKw - liquidKw;
        }
        for (const HallUnit& unit : hall.units)
            if (unit.kind == HallUnitKind::Cdu && unit.block >= 0)
                blockCdus[static_cast<std::size_t>(unit.block)] += 1;
        for (HallUnit& unit : hall.units)
            unit.loadKw = unit.kind == HallUnitKind::Crah
                              ? airKw / std::max(1, hall.crahs)
                              : blockLiquidKw[static_cast<std::size_t>(unit.block)] /
                                    std::max(1, blockCdus[static_cast<std::size_t>(unit.block)]);
        std::vector<std::string> shortRows;
        std::string worst;
        double worstShortKw = 0.0;
        if (hall.cdus > 0)
            for (const HallRow& row : hall.rows) {
                if (row.mda)
                    continue;
                const auto b = static_cast<std::size_t>(row.block);
                const double capacityKw = blockCdus[b] * hall.cduCapacityKw;
                const double shortKw = blockLiquidKw[b] - capacityKw;
                if (shortKw <= 1e-9)
                    continue;
                shortRows.push_back(row.name);
                if (shortKw > worstShortKw) {
                    worstShortKw = shortKw;
                    worst = "block " + std::to_string(b + 1) + ": " + kw(blockLiquidKw[b]) +
                            " on " + std::to_string(blockCdus[b]) + " CDU(s) of " +
                            kw(hall.cduCapacityKw);
                }
            }
        if (!shortRows.empty()) {
            // The plant's count covers the hall's heat as one pool (as the redundancy solver
            // pools them): short blocks are then a matter of the piping, a note; beyond the
            // pool, a warning.
            double liquidKw = 0.0;
            for (const double v : blockLiquidKw)
                liquidKw += v;
            const bool poolShort = liquidKw > hall.cdus * hall.cduCapacityKw + 1e-9;
            const std::string message =
                std::to_string(shortRows.size()) +
                " row(s) stand in row blocks whose CDUs cannot carry their cold plates' heat (" +
                rackList(shortRows) + "; " + worst + ")";
            const std::string hint =
                "the plant installs " + std::to_string(hall.cdus) +
                " CDUs (spares included) for the hall as one loop, but a block's rows share only "
                "its own CDUs: "
                "a larger CDU (cdu_capacity_kw of /cooling/system), fewer row blocks "
                "(/hall/row_blocks), or a secondary loop joining the blocks";
            if (poolShort)
                d.warning("/cooling/system", message, hint, "hall-row-over-cdu");
            else
                d.note("/cooling/system", message, hint, "hall-row-over-cdu");
        }
        if (hall.crahs > 0 && airKw > hall.crahs * hall.crahCapacityKw + 1e-9)
            d.warning("/cooling/system",
                      "the hall gives off " + kw(airKw) + " to room air, more than its " +
                          std::to_string(hall.crahs) + " room air units of " +
                          kw(hall.crahCapacityKw) + " remove",
                      "room air units of a larger capacity (crah_capacity_kw of /cooling/system)",
                      "hall-over-room-units");
    }
    if (h.floorAreaM2 > 0.0 && hall.areaM2 > h.floorAreaM2 + 1e-9)
        d.warning("/hall/floor_area_m2",
                  "the hall needs " +
                      std::to_string(static_cast<long long>(std::lround(hall.areaM2))) + " m² (" +
                      std::to_string(static_cast<long long>(std::lround(hall.widthM))) + " x " +
                      std::to_string(static_cast<long long>(std::lround(hall.depthM))) +
                      " m), more than the " +
                      std::to_string(static_cast<long long>(std::lround(h.floorAreaM2))) +
                      " m² available",
                  "denser racks, narrower aisles, or more floor", "hall-over-floor-area");
}

} // namespace dct::solvers
