#include "dct/solvers/hallayout.h"

#include "dct/solvers/networksolver.h"
#include "dct/solvers/powersolver.h"
#include "nccltuning.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <string>
#include <unordered_map>

namespace dct::solvers {

using model::CableKind;
using model::TopologyKind;

namespace {

// A rack unit is 1.75 in = 44.45 mm (EIA-310).
constexpr double rackUnitM = 0.04445;
// Network racks keep a third of their units for patch panels and cable managers (assumption:
// DGX SuperPOD leaf racks hold their 8 to 16 1U switches with most of the rack left to fiber
// management, RA-11333-001 Figure 3).
constexpr double networkRackSwitchShare = 2.0 / 3.0;

const char* kindName(CableKind kind)
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

std::string twoDigits(long long n)
{
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%02lld", n);
    return buffer;
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
    HallBuilder(const model::ResolvedScenario& r, const FabricPlan& plan, Diagnostics& d)
        : m_r(r), m_plan(plan), m_d(d), m_hall(r.scenario.hall)
    {}

    HallResult build();

private:
    void placeRacks();
    void runCables();
    double cableLengthM(int a, int b) const;
    void addLink(HallLinkClass cls, int rackA, int rackB, bool nicEnd, double rateGbps,
                 const SwitchId* switchA, const SwitchId& switchB);
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
    HallResult m_out;
    double m_pitch = 0.6;
    double m_crossTrayLeft = 0.0;
    double m_crossTrayRight = 0.0;
    double m_crossTrayMiddle = -1.0;
    int m_managerRack = -1;
    std::vector<int> m_switchRack[3];
    std::unordered_map<std::uint64_t, std::size_t> m_bundleIndex;
    struct LineWork
    {
        const model::CableSpec* cable = nullptr;
        const model::CableSpec* shared = nullptr; ///< The module of a shared switch cage.
        long long singleEnds = 0;                 ///< Ends with a module of their own.
        long long sharedEnds = 0; ///< Ends in a shared cage (pack of them per module).
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
    const PowerResult power = solvePower(m_r, PowerInputs{});
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
    forEachEndpoint([&](long long node, int plane, long long leaf) {
        if (node < 0)
            return;
        const auto i = static_cast<std::size_t>(plane * L + leaf);
        if (firstNode[i] < 0)
            firstNode[i] = node;
        lastNode[i] = node;
    });
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

    // The order of rows from the front of the hall: the MDA in front or in the middle.
    std::vector<int> order; // >= 0: compute row; < 0: MDA row -(k + 1)
    const long long mdaAfter =
        m_hall.mdaPosition == model::MdaPosition::Front ? 0 : (rows / 2) - (rows / 2) % 2;
    for (long long i = 0; i <= rows; ++i) {
        if (i == mdaAfter)
            for (int k = 0; k < mdaRows; ++k)
                order.push_back(-(k + 1));
        if (i < rows)
            order.push_back(static_cast<int>(i));
    }

    m_pitch = m_hall.rackPitchM > 0.0 ? std::max(m_hall.rackPitchM, m_hall.rackWidthM)
                                      : m_hall.rackWidthM;
    const double x0 = m_hall.endAisleM;
    m_crossTrayLeft = x0 / 2.0;
    m_crossTrayRight = x0 + longestRow * m_pitch + m_hall.endAisleM / 2.0;
    if (m_hall.networkPlacement == model::NetworkPlacement::MiddleOfRow)
        m_crossTrayMiddle = x0 + (perRow / 2) * m_pitch + m_pitch / 2.0;
    m_out.widthM = 2.0 * m_hall.endAisleM + longestRow * m_pitch;
    m_out.rackWidthM = m_hall.rackWidthM;
    m_out.rackDepthM = m_hall.rackDepthM;
    m_out.crossTraysXM = {m_crossTrayLeft, m_crossTrayRight};
    if (m_crossTrayMiddle >= 0.0)
        m_out.crossTraysXM.push_back(m_crossTrayMiddle);

    // Rows stacked front to back: an aisle in front, racks, then cold and hot aisles by turns
    // (rows face each other across the cold aisle), an aisle behind the last.
    const bool containCold = m_hall.containment == model::Containment::ColdAisle;
    const bool containHot = m_hall.containment == model::Containment::HotAisle;
    double y = m_hall.endAisleM;
    m_out.aisles.push_back(HallAisle{false, false, 0.0, m_hall.endAisleM});
    std::vector<int> rowIndexOfCompute(static_cast<std::size_t>(rows), 0);
    std::vector<int> rowIndexOfMda(static_cast<std::size_t>(mdaRows), 0);
    for (std::size_t k = 0; k < order.size(); ++k) {
        HallRow row;
        const int o = order[k];
        row.mda = o < 0;
        row.name = row.mda ? "MDA" + std::to_string(-o) : "R" + twoDigits(o + 1);
        row.yM = y;
        row.facesUp = k % 2 == 0;
        if (row.mda)
            rowIndexOfMda[static_cast<std::size_t>(-o - 1)] = static_cast<int>(m_out.rows.size());
        else
            rowIndexOfCompute[static_cast<std::size_t>(o)] = static_cast<int>(m_out.rows.size());
        m_out.rows.push_back(row);
        y += m_hall.rackDepthM;
        if (k + 1 < order.size()) {
            const bool cold = k % 2 == 0;
            const double w = cold ? m_hall.coldAisleM : m_hall.hotAisleM;
            m_out.aisles.push_back(HallAisle{!cold, cold ? containCold : containHot, y, w});
            y += w;
        }
    }
    m_out.aisles.push_back(HallAisle{false, false, y, m_hall.endAisleM});
    m_out.depthM = y + m_hall.endAisleM;
    m_out.areaM2 = m_out.widthM * m_out.depthM;

    // Racks. Compute positions fill a row from the left; end-of-row network racks follow them,
    // middle-of-row ones stand between the two halves.
    const bool middle = m_hall.networkPlacement == model::NetworkPlacement::MiddleOfRow;
    auto addRack = [&](HallRackKind kind, int rowIndex, int position) {
        HallRack rack;
        rack.kind = kind;
        rack.row = rowIndex;
        rack.position = position;
        rack.xM = x0 + position * m_pitch;
        rack.yM = m_out.rows[static_cast<std::size_t>(rowIndex)].yM;
        rack.name =
            m_out.rows[static_cast<std::size_t>(rowIndex)].name + "-" + twoDigits(position + 1);
        rack.powerLimitKw = fac.rackPowerLimitKw;
        rack.coolingLimitKw = m_r.cooling.maxRackKw;
        m_out.racks.push_back(rack);
        HallRow& row = m_out.rows[static_cast<std::size_t>(rowIndex)];
        row.racks += 1;
        row.xEndM = std::max(row.xEndM, rack.xM + m_hall.rackWidthM);
        return static_cast<int>(m_out.racks.size() - 1);
    };
    for (auto& v : m_switchRack)
        v.clear();
    m_switchRack[0].assign(static_cast<std::size_t>(L * P), 0);
    m_switchRack[1].assign(static_cast<std::size_t>(S * P), 0);
    m_switchRack[2].assign(static_cast<std::size_t>(C * P), 0);
    auto assign = [&](const SwitchId& s, int rack) {
        const long long perPlane = s.tier == 0 ? L : s.tier == 1 ? S : C;
        m_switchRack[s.tier][static_cast<std::size_t>(s.plane * perPlane + s.index)] = rack;
        HallRack& r = m_out.racks[static_cast<std::size_t>(rack)];
        (s.tier == 0 ? r.leaves : s.tier == 1 ? r.spines : r.cores) += 1;
    };
    for (long long i = 0; i < rows; ++i) {
        const int rowIndex = rowIndexOfCompute[static_cast<std::size_t>(i)];
        const int network = networkRacksInRow[static_cast<std::size_t>(i)];
        const long long first = i * perRow;
        const long long count = std::min<long long>(perRow, computeRacks - first);
        const int half = middle ? static_cast<int>(count / 2) : static_cast<int>(count);
        for (long long j = 0; j < count; ++j) {
            const int position = static_cast<int>(j) + (middle && j >= half ? network : 0);
            const int rack = addRack(HallRackKind::Compute, rowIndex, position);
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
        const int rowIndex = rowIndexOfMda[static_cast<std::size_t>(k / longestRow)];
        const int rack = addRack(HallRackKind::Mda, rowIndex, static_cast<int>(k % longestRow));
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
            // Trays run along every row and cross the rows over the end aisles (and the middle
            // of the rows when the network racks stand there): along the first row to a cross
            // tray, across, and back along the second row.
            const double ya = ra.yM + m_hall.rackDepthM / 2.0;
            const double yb = rb.yM + m_hall.rackDepthM / 2.0;
            double along =
                std::min(std::fabs(xa - m_crossTrayLeft) + std::fabs(xb - m_crossTrayLeft),
                         std::fabs(xa - m_crossTrayRight) + std::fabs(xb - m_crossTrayRight));
            if (m_crossTrayMiddle >= 0.0)
                along = std::min(along, std::fabs(xa - m_crossTrayMiddle) +
                                            std::fabs(xb - m_crossTrayMiddle));
            horizontal = along + std::fabs(ya - yb);
        }
        routed = vertical + horizontal;
    }
    return routed * (1.0 + m_hall.slackFraction) + 2.0 * m_hall.serviceLoopM;
}

void HallBuilder::addLink(HallLinkClass cls, int rackA, int rackB, bool nicEnd, double rateGbps,
                          const SwitchId* switchA, const SwitchId& switchB)
{
    const double length = cableLengthM(rackA, rackB);
    const auto c = static_cast<std::size_t>(cls);
    const model::CableSpec* cable = chooseCable(m_r.cables, rateGbps, length);
    // The switch end of an optical link shares a cage module (a twin-port OSFP) with the next
    // port when the catalog holds one of the same fiber that reaches.
    const model::CableSpec* shared = nullptr;
    if (cable && cable->cableKind == CableKind::Transceiver && m_pack > 1)
        for (const auto& e : m_r.cables)
            if (e.cableKind == CableKind::Transceiver && e.medium == cable->medium &&
                std::fabs(e.rateGbps - rateGbps * m_pack) < 1e-6 && e.reachM + 1e-9 >= length &&
                (!shared || e.priceUsd < shared->priceUsd))
                shared = &e;
    std::size_t line = m_out.bill.size();
    for (std::size_t i = 0; i < m_out.bill.size(); ++i)
        if (m_work[i].cable == cable && m_work[i].shared == shared &&
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
            l.cableKind = kindName(cable->cableKind);
            l.latencyNs = cable->latencyNs;
        }
        if (shared)
            l.switchModuleId = shared->id;
        m_out.bill.push_back(l);
        m_work.push_back(LineWork{cable, shared, 0, 0, 0.0});
    }
    CableBillLine& l = m_out.bill[line];
    LineWork& w = m_work[line];
    l.links += 1;
    l.lengthM += length;
    l.maxLengthM = std::max(l.maxLengthM, length);
    m_lengthM[c] += length;
    m_links[c] += 1;
    if (cable && cable->cableKind == CableKind::Transceiver) {
        const long long switchEnds = nicEnd ? 1 : 2;
        w.singleEnds += (nicEnd ? 1 : 0) + (shared ? 0 : switchEnds);
        w.sharedEnds += shared ? switchEnds : 0;
        w.fiberM += length;
    }
    if (cable)
        m_latencyNs[c] += cable->latencyNs;
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
        m_out.linksBeyondReach += 1;
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
    // The bundle between the two racks, for the floor plan.
    const std::uint64_t key = (static_cast<std::uint64_t>(c) << 60) ^
                              (static_cast<std::uint64_t>(static_cast<unsigned>(rackA)) << 30) ^
                              static_cast<std::uint64_t>(static_cast<unsigned>(rackB));
    auto [it, inserted] = m_bundleIndex.try_emplace(key, m_out.bundles.size());
    if (inserted)
        m_out.bundles.push_back(CableBundle{cls, rackA, rackB, 0, length});
    m_out.bundles[it->second].links += 1;
}

void HallBuilder::runCables()
{
    const FabricSpec& s = m_plan.spec;
    const double nicRate = s.endpointRateGbps;
    const double linkRate = s.switchLinkRateGbps;
    m_pack = std::max(1, m_r.fabricSwitch.portsPerCage) * std::max(1, m_r.portBreakout);
    m_out.bill.reserve(8);
    m_work.reserve(8);
    m_bundleIndex.reserve(1024);
    forEachEndpoint([&](long long node, int plane, long long leaf) {
        const int rackA =
            node < 0 ? std::max(0, m_managerRack) : static_cast<int>(node / m_out.nodesPerRack);
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

    // Modules, power and cost of every line.
    for (std::size_t i = 0; i < m_out.bill.size(); ++i) {
        CableBillLine& l = m_out.bill[i];
        const LineWork& w = m_work[i];
        if (!w.cable) {
            continue;
        }
        if (w.cable->cableKind == CableKind::Transceiver) {
            const long long sharedModules = (w.sharedEnds + m_pack - 1) / m_pack;
            l.transceivers = w.singleEnds + sharedModules;
            l.cables = l.links;
            l.powerW = static_cast<double>(w.singleEnds) * w.cable->powerW +
                       (w.shared ? static_cast<double>(sharedModules) * w.shared->powerW : 0.0);
            l.costUsd = static_cast<double>(w.singleEnds) * w.cable->priceUsd +
                        (w.shared ? static_cast<double>(sharedModules) * w.shared->priceUsd : 0.0) +
                        w.fiberM * w.cable->fiberUsdPerM;
        } else {
            l.cables = l.links;
            l.powerW = static_cast<double>(l.links) * w.cable->powerW;
            l.costUsd = static_cast<double>(l.links) * w.cable->priceUsd;
        }
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

const HallClassSummary* HallResult::summary(HallLinkClass linkClass) const
{
    for (const auto& c : classes)
        if (c.linkClass == linkClass)
            return &c;
    return nullptr;
}

HallResult layoutHall(const model::ResolvedScenario& scenario, const FabricPlan& plan,
                      Diagnostics& diagnostics)
{
    if (!plan.valid)
        return {};
    HallBuilder builder(scenario, plan, diagnostics);
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
        t.cables.push_back(line);
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
    std::vector<std::string> overPower, overCooling;
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
        if (rack.designKw > rack.coolingLimitKw + 1e-9) {
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
        d.warning("/cooling/system",
                  std::to_string(overCooling.size()) + " rack(s) give off more heat than their " +
                      "cooling removes (" + rackList(overCooling) + ": up to " +
                      kilowatts(worstCooling) + " against " +
                      std::to_string(static_cast<int>(r.cooling.maxRackKw)) + " kW)",
                  "spread the racks (/facility/rack_layout) or a cooling system for denser racks",
                  "hall-rack-over-cooling");
    std::vector<std::string> overBusway, overRowCooling;
    for (HallRow& row : hall.rows) {
        if (h.rowBuswayKw > 0.0)
            row.buswayKw = h.rowBuswayKw;
        if (h.rowCoolingKw > 0.0)
            row.coolingKw = h.rowCoolingKw;
        if (row.nameplateKw > row.buswayKw + 1e-9)
            overBusway.push_back(
                row.name + " " +
                std::to_string(static_cast<long long>(std::lround(row.nameplateKw))) + " kW");
        if (row.designKw > row.coolingKw + 1e-9)
            overRowCooling.push_back(
                row.name + " " + std::to_string(static_cast<long long>(std::lround(row.designKw))) +
                " kW");
    }
    if (!overBusway.empty())
        d.warning("/hall/row_busway_kw",
                  std::to_string(overBusway.size()) + " row(s) draw more at nameplate than the " +
                      std::to_string(static_cast<long long>(std::lround(h.rowBuswayKw))) +
                      " kW busway delivers (" + rackList(overBusway) + ")",
                  "a larger busway, fewer racks per row (/hall/racks_per_row) or two busways",
                  "hall-row-over-busway");
    if (!overRowCooling.empty())
        d.warning("/hall/row_cooling_kw",
                  std::to_string(overRowCooling.size()) + " row(s) give off more heat than the " +
                      std::to_string(static_cast<long long>(std::lround(h.rowCoolingKw))) +
                      " kW their cooling removes (" + rackList(overRowCooling) + ")",
                  "more cooling per row or fewer racks per row (/hall/racks_per_row)",
                  "hall-row-over-cooling");
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
