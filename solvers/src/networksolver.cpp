#include "dct/solvers/networksolver.h"

#include "dct/model/scaleupdomain.h"
#include "dct/solvers/ecmp.h"
#include "dct/solvers/fabricbuilder.h"
#include "dct/solvers/hallayout.h"
#include "dct/solvers/memokey.h"
#include "dct/solvers/powersolver.h"

#include <algorithm>
#include <cmath>
#include <sstream>
#include <utility>

namespace dct::solvers {

using model::CableKind;
using model::Protocol;
using model::Routing;
using model::TopologyKind;

namespace {

// Signal propagation in fiber and twinax: about 5 ns per metre (light at ~2/3 c).
constexpr double wireNsPerM = 5.0;
// NVLink step latency of NCCL's ring with the LL128 protocol, about 1.9 us (NCCL
// src/graph/tuning.cc hwLat, NVLink ring LL128); an assumption carried from NCCL's tuner.
constexpr double nvlinkAlphaUs = 1.9;
// Adaptive routing / packet spraying spreads per packet; the residual imbalance and reordering
// cost is taken as 5% (assumption).
constexpr double adaptiveEfficiency = 0.95;
// The size at which collectives are reported (1 GiB, as nccl-tests runs reach their plateau).
constexpr double reportBytes = 1073741824.0;

bool soldFor(const model::CableSpec& c, model::Protocol protocol)
{
    if (c.protocols == model::CableProtocols::Any)
        return true;
    return protocol == model::Protocol::Infiniband
               ? c.protocols == model::CableProtocols::Infiniband
               : c.protocols == model::CableProtocols::Ethernet;
}

bool sameRate(double a, double b)
{
    return std::fabs(a - b) < 1e-6;
}

/**
 * Returns whether the fabric switches reduce in the network: the switch can, and the scenario
 * turns it on (NCCL leaves CollNet off unless NCCL_COLLNET_ENABLE=1: src/init.cc,
 * NCCL_PARAM(CollNetEnable, "COLLNET_ENABLE", 0)). validateScenario refuses the setting on a
 * switch that cannot.
 */
bool reducesInNetwork(const model::ResolvedScenario& r)
{
    return r.fabricSwitch.inNetworkReduction && r.scenario.network.inNetworkReduction;
}

/**
 * Sets \a kept to the diagnostics of \a diagnostics from index \a from on, copying them only
 * when they differ from those kept: an edit of the fabric mostly gives the same notes again, and
 * copying their text allocates.
 */
void keepDiagnostics(std::vector<Diagnostic>& kept, const Diagnostics& diagnostics,
                     std::size_t from)
{
    const auto first = diagnostics.begin() + static_cast<std::ptrdiff_t>(from);
    if (!std::equal(kept.begin(), kept.end(), first, diagnostics.end()))
        kept.assign(first, diagnostics.end());
}

} // namespace

FabricSpec fabricSpec(const model::ResolvedScenario& r)
{
    const model::NetworkSection& n = r.scenario.network;
    FabricSpec s;
    s.kind = n.topology;
    s.nodes = r.scenario.compute.nodeCount;
    s.railsPerNode = std::max(1, r.rails);
    s.planes = std::max(1, n.planes);
    s.tiers = n.tiers;
    s.switchPorts = r.fabricPorts();
    s.breakout = r.portBreakout;
    s.oversubscription = n.oversubscription;
    s.scalableUnitNodes = n.scalableUnitNodes; // 0: planFabric sizes the unit to a leaf
    // DGX SuperPOD RA-11333-001 Table 4 counts 32 x SUs - 1 nodes and 4 UFM cables for 1 to 4
    // units: the fabric manager takes one node slot of the pod (in its last unit), not one per
    // unit, so that is what the flag reserves.
    s.reservedSlotsPerFabric = n.reserveNodePerUnit ? 1 : 0;
    s.endpointRateGbps = std::min(r.nic.rateGbps, r.fabricPortRateGbps());
    s.switchLinkRateGbps = r.fabricPortRateGbps();
    return s;
}

namespace {

/**
 * Lists the media that plug into \a k, in the menu's order: offer(cable, shared, fixedUsd,
 * fiberUsdPerM, powerW, reachM, fallback) for each, first those at the link's own rate, then
 * (fallback) the faster parts run at the lower rate. Before the fallbacks it asks
 * wantFallbacks(): a choice that found a medium at the link's rate takes none of them.
 */
template <class Offer, class WantFallbacks>
void listMedia(const std::vector<model::CableSpec>& cables, const LinkSockets& k, Offer&& offer,
               WantFallbacks&& wantFallbacks)
{
    const int pack = std::max(1, k.switchPortsPerCage);
    const double rate = k.linkRateGbps;
    const double cageRate = (k.switchPortRateGbps > 0.0 ? k.switchPortRateGbps : rate) * pack;
    auto sold = [&](const model::CableSpec& c) { return soldFor(c, k.protocol); };
    for (int pass = 0; pass < 2; ++pass) {
        if (pass == 1 && !wantFallbacks())
            return;
        const bool fallback = pass != 0;
        // First at the link's own rate; failing that (one port per cage), a faster part run at
        // the lower rate.
        auto rateOk = [&](double partRate, double wanted) {
            return pass == 0 ? sameRate(partRate, wanted) : partRate >= wanted;
        };
        for (const auto& c : cables) {
            if (!sold(c))
                continue;
            if (c.cableKind != CableKind::Transceiver) {
                if (pack == 1 || !k.twinPortCage) {
                    // A straight cable between single-port cages (or one leg of a breakout
                    // cable from a single-port cage split into several ports).
                    if (c.farPlugs == 1 && rateOk(c.rateGbps, rate))
                        offer(&c, nullptr, c.priceUsd, 0.0, c.powerW, c.reachM, fallback);
                }
                if (pack > 1 && pass == 0 && sameRate(c.rateGbps, cageRate) &&
                    c.farPlugs == (k.nicEnd ? pack : 1)) {
                    // A shared cage takes one plug for all its ports: a splitter whose legs go
                    // to NICs, or a straight twin-port cable to another switch's shared cage
                    // (the cabling pairs a cage's ports toward one switch). It carries `pack`
                    // links.
                    offer(&c, nullptr, c.priceUsd / pack, 0.0, c.powerW / pack, c.reachM, fallback);
                }
                continue;
            }
            if (pack == 1) {
                // The same module at both ends.
                if (c.farPlugs == 1 && rateOk(c.rateGbps, rate))
                    offer(&c, nullptr, 2.0 * c.priceUsd, c.fiberUsdPerM, 2.0 * c.powerW, c.reachM,
                          fallback);
                continue;
            }
            // Shared cages: the switch end is a module of the cage's rate serving `pack` ports.
            if (pass != 0 || !sameRate(c.rateGbps, cageRate))
                continue;
            if (!k.nicEnd) {
                offer(&c, &c, 2.0 * c.priceUsd / pack, c.fiberUsdPerM, 2.0 * c.powerW / pack,
                      c.reachM, fallback);
                continue;
            }
            // The NIC end: a single-port module of one port of the cage, of the same optics.
            for (const auto& n : cables)
                if (n.cableKind == CableKind::Transceiver && sold(n) && n.farPlugs == 1 &&
                    sameRate(n.rateGbps, cageRate / pack) && n.optics == c.optics &&
                    n.medium == c.medium)
                    offer(&n, &c, n.priceUsd + c.priceUsd / pack, c.fiberUsdPerM,
                          n.powerW + c.powerW / pack, std::min(n.reachM, c.reachM), fallback);
        }
    }
}

/** The cheapest medium met so far for a run of one length (ties to the lower power). */
struct Cheapest
{
    double lengthM = 0.0;
    MediumChoice best;
    double bestPowerW = 0.0;

    void consider(const model::CableSpec* cable, const model::CableSpec* shared, double fixedUsd,
                  double fiberUsdPerM, double powerW, double reachM)
    {
        if (!(reachM + 1e-9 >= lengthM))
            return;
        // The fiber between two modules is bought by the metre.
        const double cost = fiberUsdPerM != 0.0 ? fixedUsd + fiberUsdPerM * lengthM : fixedUsd;
        if (!best.cable || cost < best.costPerLinkUsd - 1e-9 ||
            (std::fabs(cost - best.costPerLinkUsd) <= 1e-9 && powerW < bestPowerW)) {
            best = MediumChoice{cable, shared, cost};
            bestPowerW = powerW;
        }
    }
};

} // namespace

MediumMenu::MediumMenu(const std::vector<model::CableSpec>& cables, const LinkSockets& k)
{
    // About one offer a cable and pass at most but for the NIC ends' pairs: one allocation.
    m_offers.reserve(2 * cables.size());
    listMedia(
        cables, k,
        [this](const model::CableSpec* cable, const model::CableSpec* shared, double fixedUsd,
               double fiberUsdPerM, double powerW, double reachM, bool fallback) {
            m_offers.push_back(
                Offer{cable, shared, fixedUsd, fiberUsdPerM, powerW, reachM, fallback});
        },
        [] { return true; });
}

MediumChoice MediumMenu::choose(double lengthM) const
{
    Cheapest c;
    c.lengthM = lengthM;
    for (int pass = 0; pass < 2 && !c.best.cable; ++pass)
        for (const Offer& o : m_offers)
            if (o.fallback == (pass != 0))
                c.consider(o.cable, o.shared, o.fixedUsd, o.fiberUsdPerM, o.powerW, o.reachM);
    return c.best;
}

MediumChoice chooseMedium(const std::vector<model::CableSpec>& cables, const LinkSockets& k,
                          double lengthM)
{
    // The menu's choice without the menu: the offers are listed at the link's rate first, then
    // the fallbacks, so each is considered as it is listed (no list kept, no allocation).
    Cheapest c;
    c.lengthM = lengthM;
    listMedia(
        cables, k,
        [&c](const model::CableSpec* cable, const model::CableSpec* shared, double fixedUsd,
             double fiberUsdPerM, double powerW, double reachM,
             bool) { c.consider(cable, shared, fixedUsd, fiberUsdPerM, powerW, reachM); },
        [&c] { return !c.best.cable; });
    return c.best;
}

MediumBill billMedium(const MediumChoice& m, const LinkSockets& k, long long links, double fiberM)
{
    MediumBill b;
    if (!m.cable || links <= 0)
        return b;
    const int pack = std::max(1, k.switchPortsPerCage);
    const model::CableSpec& c = *m.cable;
    if (c.cableKind != CableKind::Transceiver) {
        // A cable of the cage's rate into shared cages carries all of a cage's ports.
        const double cageRate =
            (k.switchPortRateGbps > 0.0 ? k.switchPortRateGbps : k.linkRateGbps) * pack;
        const long long perCable = pack > 1 && sameRate(c.rateGbps, cageRate) ? pack : 1;
        b.cables = (links + perCable - 1) / perCable;
        b.powerW = static_cast<double>(b.cables) * c.powerW;
        b.costUsd = static_cast<double>(b.cables) * c.priceUsd;
        return b;
    }
    b.cables = links;
    const long long switchEnds = (k.nicEnd ? 1 : 2) * links;
    const long long singleEnds = (k.nicEnd ? links : 0) + (m.shared ? 0 : switchEnds);
    const long long sharedModules = m.shared ? (switchEnds + pack - 1) / pack : 0;
    b.transceivers = singleEnds + sharedModules;
    b.powerW = static_cast<double>(singleEnds) * c.powerW +
               (m.shared ? static_cast<double>(sharedModules) * m.shared->powerW : 0.0);
    b.costUsd = static_cast<double>(singleEnds) * c.priceUsd +
                (m.shared ? static_cast<double>(sharedModules) * m.shared->priceUsd : 0.0) +
                fiberM * c.fiberUsdPerM;
    return b;
}

namespace {

/**
 * priceTopology(), each run's medium from \a choose(sockets, lengthM). Without \a lines the
 * figures alone: no cable lines, no diagnostics (a hall that prices the fabric replaces both).
 */
template <bool lines, class Choose>
void priceTopologyWith(TopologyResult& t, const model::ResolvedScenario& r,
                       Diagnostics& diagnostics, Choose&& choose)
{
    const model::NetworkSection& n = r.scenario.network;
    const double nicRate = std::min(r.nic.rateGbps, r.fabricPortRateGbps());
    struct LinkClass
    {
        const char* name;
        long long links;
        double rate;
        double length;
    };
    // At most three classes: kept on the stack, no allocation.
    LinkClass classes[3] = {{"node-leaf", t.endpointLinks, nicRate, n.cableLengthInRowM},
                            {"", 0, 0.0, 0.0},
                            {"", 0, 0.0, 0.0}};
    std::size_t classCount = 1;
    const TierCounts spine = t.tier(FabricTier::Spine);
    const TierCounts core = t.tier(FabricTier::Core);
    if (spine.linksDown > 0)
        classes[classCount++] = {"leaf-spine", spine.linksDown, r.fabricPortRateGbps(),
                                 n.cableLengthAcrossRowsM};
    if (core.linksDown > 0)
        classes[classCount++] = {"spine-core", core.linksDown, r.fabricPortRateGbps(),
                                 n.cableLengthAcrossRowsM};
    t.cables.clear();
    if (lines)
        t.cables.reserve(classCount);
    t.cablePowerW = 0.0;
    t.cableCostUsd = 0.0;
    for (std::size_t i = 0; i < classCount; ++i) {
        const LinkClass& lc = classes[i];
        CableLine line;
        if (lines)
            line.linkClass = lc.name;
        line.links = lc.links;
        line.rateGbps = lc.rate;
        line.lengthM = lc.length;
        line.cables = lc.links;
        const LinkSockets sockets{lc.rate,
                                  i == 0,
                                  std::max(1, r.fabricSwitch.portsPerCage) *
                                      std::max(1, r.portBreakout),
                                  n.protocol,
                                  r.fabricPortRateGbps(),
                                  r.fabricSwitch.portsPerCage > 1};
        const MediumChoice m = choose(sockets, lc.length);
        if (m.cable) {
            if (lines) {
                line.cableId = m.cable->id;
                line.cableKind = cableKindName(m.cable->cableKind);
            }
            const MediumBill b =
                billMedium(m, sockets, lc.links, static_cast<double>(lc.links) * lc.length);
            line.cables = b.cables;
            line.transceivers = b.transceivers;
            line.powerW = b.powerW;
            line.costUsd = b.costUsd;
        } else if (lines && lc.links > 0) {
            diagnostics.warning(
                "/network/cable_length_" +
                    std::string(lc.length == n.cableLengthInRowM ? "in_row_m" : "across_rows_m"),
                std::string("no catalog cable carries ") +
                    std::to_string(static_cast<int>(lc.rate)) + "G over " +
                    std::to_string(lc.length) + " m for the " + lc.name +
                    " links; their cost and power are left out",
                "add a cable or transceiver of that rate and reach to the catalog",
                "network-no-cable");
        }
        t.cablePowerW += line.powerW;
        t.cableCostUsd += line.costUsd;
        if (lines)
            t.cables.push_back(std::move(line));
    }
    t.switchPowerW = static_cast<double>(t.switches) * r.fabricSwitch.powerW;
    t.switchCostUsd = static_cast<double>(t.switches) * r.fabricSwitch.priceUsd;
    t.nicPowerW = static_cast<double>(t.nics) * r.nic.powerW;
    t.nicCostUsd = static_cast<double>(t.nics) * r.nic.priceUsd;
    t.powerW = t.switchPowerW + t.nicPowerW + t.cablePowerW;
    t.costUsd = t.switchCostUsd + t.nicCostUsd + t.cableCostUsd;
}

} // namespace

void priceTopology(TopologyResult& t, const model::ResolvedScenario& r, Diagnostics& diagnostics)
{
    priceTopologyWith<true>(t, r, diagnostics, [&r](const LinkSockets& sockets, double lengthM) {
        return chooseMedium(r.cables, sockets, lengthM);
    });
}

CollectiveInputs collectiveInputs(const model::ResolvedScenario& r, const NetworkResult& net,
                                  int ranks, int ranksPerNode)
{
    CollectiveInputs in;
    in.ranks = std::max(1, ranks);
    in.ranksPerNode = std::max(1, std::min(ranksPerNode, in.ranks));
    in.scaleUpGbytePerS = net.scaleUpGbytePerSPerGpu;
    in.scaleUpAlphaUs = nvlinkAlphaUs;
    // The node's rails are shared by the ranks on it that talk at once: more NICs than GPUs give
    // a rank several, fewer NICs than GPUs (AWS p4d: 4 EFA NICs for 8 A100) a part of one.
    const double railsPerRank =
        static_cast<double>(std::max(1, r.rails)) / std::max(1, r.gpusPerNode);
    in.fabricGbytePerS = net.fabricGbytePerSPerGpu * railsPerRank;
    in.fabricAlphaUs = net.fabricAlphaUs;
    in.fabricSwitchHops = net.worstSwitchHops;
    in.switchLatencyUs = r.fabricSwitch.latencyUs;
    in.inNetworkReduction = reducesInNetwork(r);
    // The parts of the collectives engine's latency and the fabric's layout (same leaf, across
    // leaves, across spine blocks), as solveNetwork counts nodes per leaf.
    const model::NetworkSection& n = r.scenario.network;
    in.nicLatencyUs = r.nic.latencyUs;
    in.llAcrossNodes = r.nic.llAcrossNodes;
    in.ll128AcrossNodes = r.nic.ll128AcrossNodes;
    in.cableInRowM = n.cableLengthInRowM;
    in.cableAcrossRowsM = n.cableLengthAcrossRowsM;
    applyHallLatency(in, net.hall);
    // Where NVLink spans nodes (a GB200 NVL72 domain of 18 trays) NCCL takes the domain for the
    // node: its ranks meet over NVLink and it reaches the fabric through all its nodes' NICs.
    const int domainNodes = model::nodesPerScaleUpDomain(r);
    in.railsPerNode = std::max(1, r.rails) * domainNodes;
    in.nicGbytePerS = net.nicRateGbps / 8.0;
    in.fabricTiers = std::max(1, net.topology.tiers);
    const int planes = std::max(1, net.topology.planes);
    const long long railsPerPlane = (in.railsPerNode + planes - 1) / planes;
    const long long down = std::max<long long>(1, net.topology.leafDownPorts);
    // A rail-optimized leaf's down ports are its unit's nodes (planFabric), one NIC each.
    const long long perLeaf = n.topology == TopologyKind::RailOptimized
                                  ? down
                                  : std::max<long long>(1, down / railsPerPlane);
    in.nodesPerLeaf = static_cast<int>(
        std::min<long long>(std::max<long long>(1, perLeaf / domainNodes), 1 << 30));
    const long long nodes = std::max(1, r.scenario.compute.nodeCount);
    in.nodesPerPod =
        net.topology.pods > 0
            ? static_cast<int>(std::max<long long>(1, (nodes + net.topology.pods - 1) /
                                                          net.topology.pods / domainNodes))
            : 0;
    // NVLink SHARP came with third-generation NVSwitch (NVIDIA H100 Tensor Core GPU
    // Architecture whitepaper, 2022): NVIDIA parts with NVLink 4 (450 GB/s per direction) on.
    const bool nvidia = r.gpu.vendor == "NVIDIA";
    in.nvls = nvidia && r.gpu.scaleUpGbytePerS >= 450.0 && r.node.scaleUpDomainGpus > 2;
    // The domain's NVSwitch adders (catalog nvls_reduce_gbyte_per_s), shared by every group of
    // this shape in the domain: the tensor-parallel groups of a step reduce at the same time.
    in.nvlsReduceGbytePerS = in.nvls ? r.node.nvlsReduceGbytePerS : 0.0;
    in.nvlsGroups = std::max(1, model::scaleUpDomainGpus(r) / in.ranksPerNode);
    in.generation = !nvidia || r.gpu.scaleUpGbytePerS < 450.0 ? GpuGeneration::Ampere
                    : r.gpu.scaleUpGbytePerS >= 900.0         ? GpuGeneration::Blackwell
                                                              : GpuGeneration::Hopper;
    // Rails on separate planes or leaves: a peer on another rail is reached through PXN.
    in.pxn = n.topology != TopologyKind::FatTree || planes > 1;
    // A calibration profile's factors, when the scenario names one (docs/collectives.md).
    in.calibration = r.collectiveCalibration;
    // ... timed as its fit timed them: a release's own picks and chunk pipeline, or the fastest.
    const model::CalibrationTiming& timing = r.collectiveTiming;
    if (timing.choice == model::CalibrationTiming::Choice::NcclRelease && timing.ncclMajor == 2) {
        in.ncclMinor = timing.ncclMinor;
        in.ncclReleaseChoice = true;
    }
    return in;
}

double gradientAllReduceBytes(const model::ResolvedScenario& r)
{
    const auto& w = r.scenario.workload;
    return 2.0 * r.model.parameters() / (w.tensorParallel * w.pipelineParallel);
}

namespace {

/**
 * The fabric's rates on \a plan (solveFabric's last part, all that the routing, the MTU and
 * the calibration reach): shares, path latency, the fabric's bandwidth per GPU and the
 * collectives' inputs. Gives no diagnostics.
 */
void solveRates(const model::ResolvedScenario& r, const FabricPlan& plan, NetworkResult& net,
                FabricMemo* memo);

/**
 * Solves the fabric part of the network (all but the gradient all-reduce) into \a net and
 * returns its plan. With \a memo, the hall \a net holds is kept when its inputs did not change,
 * and the reported collectives are left to solveReportedCollectives() (kept in \a net while
 * their inputs stay the same); without, both are solved.
 */
FabricPlan solveFabric(const model::ResolvedScenario& r, NetworkResult& net,
                       Diagnostics& diagnostics, FabricMemo* memo)
{
    // What a memo may keep of the last solve, taken out before the result is reset.
    HallResult keptHall = memo ? std::move(net.hall) : HallResult{};
    std::vector<CableLine> keptCableLines =
        memo ? std::move(net.topology.cables) : std::vector<CableLine>{};
    std::vector<CollectiveTiming> keptCollectives =
        memo ? std::move(net.collectives) : std::vector<CollectiveTiming>{};
    net = NetworkResult{};
    net.spec = fabricSpec(r);
    const FabricPlan plan = planFabric(net.spec, diagnostics);
    net.topology = topologyCounts(plan);
    net.valid = plan.valid;
    if (plan.valid) {
        // The hall lays out the racks and runs every link; its cable bill replaces the typical
        // lengths unless the scenario asks for them (/hall/cable_lengths).
        const bool typical = r.scenario.hall.cableLengths == model::CableLengthModel::Typical;
        Diagnostics quiet;
        if (memo) {
            auto kept = [&](const LinkSockets& sockets, double lengthM) {
                return memo->medium(r, sockets, lengthM);
            };
            // The hall's bill replaces the typical lines: their figures alone are wanted here.
            if (typical)
                priceTopologyWith<true>(net.topology, r, diagnostics, kept);
            else
                priceTopologyWith<false>(net.topology, r, quiet, kept);
        } else {
            priceTopology(net.topology, r, typical ? diagnostics : quiet);
        }
        // The switches and optics as the evaluator adds them to the IT power (before the hall's
        // own cables): the cooling units on the floor are counted for the same heat.
        const double networkKw = (net.topology.powerW - net.topology.nicPowerW) / 1000.0;
        bool hallKept = false;
        if (memo) {
            // The hall is a stage of its own: laid out again only when what it reads changed
            // (the racks' nodes and the IT heat its cooling units are counted for among it).
            const RackFit power = rackFit(r, networkKw);
            if (memo->replayHall(r, net.spec, power.nodesPerRack, power.itDesignPowerKw,
                                 diagnostics)) {
                net.hall = std::move(keptHall);
                hallKept = true;
            } else {
                const std::size_t from = diagnostics.size();
                net.hall = layoutHall(r, plan, diagnostics, HallCabling::ByRackPair, networkKw);
                memo->keepHall(r, net.spec, power.nodesPerRack, power.itDesignPowerKw, diagnostics,
                               from);
            }
        } else {
            net.hall = layoutHall(r, plan, diagnostics, HallCabling::ByRackPair, networkKw);
        }
        if (!typical && hallKept && net.hall.valid && net.hall.pricesFabric) {
            // The hall kept priced the fabric in the last solve (the same hall section, hence
            // the same cable_lengths): its lines are the ones applyHallCables() gave then.
            TopologyResult& t = net.topology;
            t.cables = std::move(keptCableLines);
            t.cablePowerW = net.hall.cablePowerW;
            t.cableCostUsd = net.hall.cableCostUsd;
            t.powerW = t.switchPowerW + t.nicPowerW + t.cablePowerW;
            t.costUsd = t.switchCostUsd + t.nicCostUsd + t.cableCostUsd;
        } else if (!typical && memo && !net.hall.valid) {
            // No hall to price the fabric: the typical lines stay, as without a memo.
            priceTopology(net.topology, r, quiet);
        } else if (!typical) {
            applyHallCables(net.topology, net.hall);
        }
    } else if (memo) {
        memo->dropHall();
    }
    networkRiskDiagnostics(r, diagnostics);
    solveRates(r, plan, net, memo);
    if (memo)
        net.collectives = std::move(keptCollectives); // solveReportedCollectives() checks them
    else
        net.collectives = reportedCollectives(net.worldInputs);
    return plan;
}

void solveRates(const model::ResolvedScenario& r, const FabricPlan& plan, NetworkResult& net,
                FabricMemo* memo)
{
    const model::NetworkSection& n = r.scenario.network;
    net.wire = wireOverhead(n.protocol, n.mtuBytes);
    net.nvlink = nvlinkEfficiency();
    net.nicRateGbps = net.spec.endpointRateGbps;
    // A link measured for what a collective library reaches on it (AMD's xGMI: 48 of 64 GB/s,
    // catalog scale_up_link_efficiency) takes that share; NVLink its flits and LL128's lines.
    net.scaleUpGbytePerSPerGpu =
        r.gpu.scaleUpGbytePerS *
        (r.gpu.scaleUpLinkEfficiency > 0.0 ? r.gpu.scaleUpLinkEfficiency : net.nvlink.efficiency);
    net.fabricLineGbytePerSPerGpu = net.nicRateGbps / 8.0;

    // Oversubscription: traffic leaving a leaf gets uplink/downlink capacity.
    const int up = plan.tiers > 1 ? plan.leafUpPorts : 0;
    const int down = std::max(1, plan.leafDownPorts);
    net.oversubscriptionShare =
        plan.tiers > 1 ? std::min(1.0, static_cast<double>(up) / down) : 1.0;
    // Elephant flows leaving a leaf in a ring: one per distinct rail on the leaf (a ring per
    // rail enters and leaves each leaf once). Rail-optimized leaves carry one rail.
    const int railsPerPlane = std::max(1, (std::max(1, r.rails) + plan.planes - 1) / plan.planes);
    net.leafUplinkFlows =
        n.topology == TopologyKind::RailOptimized ? 1 : std::min(railsPerPlane, down);
    const int uplinks = std::max(1, up);
    const int rails = std::max(1, r.rails);
    net.ecmpShare = memo ? memo->ecmpShare(uplinks, net.leafUplinkFlows, 1)
                         : ecmpThroughputShare(uplinks, net.leafUplinkFlows, 1);
    net.multiRailShare = memo ? memo->ecmpShare(uplinks, net.leafUplinkFlows, rails)
                              : ecmpThroughputShare(uplinks, net.leafUplinkFlows, rails);
    net.pinnedShare = 1.0;
    net.adaptiveShare = adaptiveEfficiency;
    // Static ECMP delivers ecmpShare, just computed (the binomial sum is the costly part).
    net.routingShare =
        n.routing == Routing::Ecmp
            ? net.ecmpShare
            : routingShare(n.routing, uplinks, net.leafUplinkFlows, 1, adaptiveEfficiency);

    // Alpha: NIC at both ends, every switch on the longest path, and the wire
    // (node-leaf runs at both ends plus the runs between tiers, up and down, their lengths from
    // the hall's cable runs). The longest path is the graph's (hopStats): it climbs no higher
    // than it must, so one leaf is one switch and one spine block (a 3-tier plane of one pod)
    // turns at its spines, three switches.
    int climb = 0;
    if (plan.valid && plan.tiers > 1 && plan.leavesPerPlane > 1)
        climb = plan.tiers == 3 && plan.podsPerPlane > 1 ? 2 : 1;
    net.worstSwitchHops = 2 * climb + 1;
    CollectiveInputs cableRuns;
    cableRuns.cableInRowM = n.cableLengthInRowM;
    cableRuns.cableAcrossRowsM = n.cableLengthAcrossRowsM;
    applyHallLatency(cableRuns, net.hall);
    const double wireM = 2.0 * cableRuns.cableInRowM + 2.0 * climb * cableRuns.cableAcrossRowsM;
    net.fabricAlphaUs = 2.0 * r.nic.latencyUs + net.worstSwitchHops * r.fabricSwitch.latencyUs +
                        wireM * wireNsPerM * 1e-3;
    // Fabric share: crossing leaves costs the oversubscription and the routing loss, once the
    // cluster outgrows a leaf.
    const long long nodesPerLeaf = n.topology == TopologyKind::RailOptimized
                                       ? down
                                       : std::max<long long>(1, down / railsPerPlane);
    const bool crossesLeaves = plan.tiers > 1 && r.scenario.compute.nodeCount > nodesPerLeaf;
    const double share = crossesLeaves ? net.oversubscriptionShare * net.routingShare : 1.0;
    net.fabricGbytePerSPerGpu = net.fabricLineGbytePerSPerGpu * net.wire.efficiency * share;

    net.worldInputs = collectiveInputs(r, net, r.gpuCount(), model::scaleUpDomainGpus(r));
}

/** gradientAllReduce(), on the engine \a memo keeps when there is one (defined below). */
CollectiveTiming gradientAllReduceOn(const model::ResolvedScenario& r, const NetworkResult& net,
                                     double bytes, Diagnostics* diagnostics, FabricMemo* memo);

/** Times the gradient all-reduce of the workload on the fabric \a net holds; with \a memo on
 *  the engine it keeps. */
void timeGradient(const model::ResolvedScenario& r, double gradientBytes, NetworkResult& net,
                  Diagnostics& diagnostics, FabricMemo* memo)
{
    net.gradientAllReduce = gradientAllReduceOn(r, net, gradientBytes, &diagnostics, memo);
    const int domain = model::scaleUpDomainGpus(r);
    net.gradientRanksPerNode =
        std::max(1, domain / std::min(std::max(1, r.scenario.workload.tensorParallel), domain));
}

} // namespace

NetworkResult solveNetwork(const model::ResolvedScenario& r, double gradientBytes,
                           Diagnostics& diagnostics)
{
    NetworkResult net;
    solveFabric(r, net, diagnostics, nullptr);
    timeGradient(r, gradientBytes, net, diagnostics, nullptr);
    return net;
}

bool SharedFabricInputs::sameAs(const model::ResolvedScenario& r) const
{
    const model::Scenario& s = r.scenario;
    // The catalog's cables last: the longest to compare.
    return portBreakout == r.portBreakout && hall == s.hall && facility == s.facility &&
           fabricSwitch == r.fabricSwitch && coolingSystem == r.cooling && cables == r.cables;
}

void SharedFabricInputs::assign(const model::ResolvedScenario& r)
{
    assignKey(hall, r.scenario.hall);
    assignKey(facility, r.scenario.facility);
    assignKey(fabricSwitch, r.fabricSwitch);
    assignKey(coolingSystem, r.cooling);
    assignKey(cables, r.cables);
    portBreakout = r.portBreakout;
}

bool FabricInputs::sameAs(const model::ResolvedScenario& r) const
{
    return sameShapeAs(r) && sameRatesAs(r);
}

bool FabricInputs::sameShapeAs(const model::ResolvedScenario& r) const
{
    const model::Scenario& s = r.scenario;
    // The cheap counts first.
    if (gpusPerNode != r.gpusPerNode || rails != r.rails || !(compute == s.compute))
        return false;
    if (network.routing == s.network.routing && network.mtuBytes == s.network.mtuBytes &&
        network.calibrationProfile == s.network.calibrationProfile) {
        if (!(network == s.network))
            return false;
    } else {
        // The section but for the fields only the rates read (sameRatesAs()).
        model::NetworkSection shape = s.network;
        shape.routing = network.routing;
        shape.mtuBytes = network.mtuBytes;
        shape.calibrationProfile = network.calibrationProfile;
        if (!(network == shape))
            return false;
    }
    return storage == s.storage && cooling == s.cooling && gpu == r.gpu && node == r.node &&
           nic == r.nic;
}

bool FabricInputs::sameRatesAs(const model::ResolvedScenario& r) const
{
    const model::NetworkSection& n = r.scenario.network;
    return network.routing == n.routing && network.mtuBytes == n.mtuBytes &&
           calibrationTiming == r.collectiveTiming && calibration == r.collectiveCalibration &&
           network.calibrationProfile == n.calibrationProfile;
}

void FabricInputs::assignRates(const model::ResolvedScenario& r)
{
    const model::NetworkSection& n = r.scenario.network;
    network.routing = n.routing;
    network.mtuBytes = n.mtuBytes;
    network.calibrationProfile = n.calibrationProfile;
    assignKey(calibration, r.collectiveCalibration);
    calibrationTiming = r.collectiveTiming;
}

void FabricInputs::assign(const model::ResolvedScenario& r)
{
    const model::Scenario& s = r.scenario;
    assignKey(compute, s.compute);
    assignKey(network, s.network);
    assignKey(storage, s.storage);
    assignKey(cooling, s.cooling);
    assignKey(gpu, r.gpu);
    assignKey(node, r.node);
    assignKey(nic, r.nic);
    gpusPerNode = r.gpusPerNode;
    rails = r.rails;
    assignKey(calibration, r.collectiveCalibration);
    calibrationTiming = r.collectiveTiming;
}

bool FabricMemo::sharedSame(const model::ResolvedScenario& r)
{
    if (m_sharedState == SharedState::Unchecked) {
        m_sharedState =
            m_sharedValid && m_shared.sameAs(r) ? SharedState::Same : SharedState::Differs;
        // The media kept were chosen in other cables: forget them.
        if (m_sharedState == SharedState::Differs)
            m_mediaCount = 0;
    }
    return m_sharedState == SharedState::Same;
}

void FabricMemo::keepShared(const model::ResolvedScenario& r)
{
    if (m_sharedState == SharedState::Same)
        return;
    m_sharedValid = false;
    m_shared.assign(r);
    m_sharedValid = true;
    m_sharedState = SharedState::Same;
}

FabricReplay FabricMemo::replay(const model::ResolvedScenario& r, Diagnostics& diagnostics)
{
    m_sharedState = SharedState::Unchecked;
    if (!m_valid || !m_inputs.sameShapeAs(r) || !sharedSame(r))
        return FabricReplay::None;
    // The fabric kept keeps the hall it was solved around (and its collectives, if timed); its
    // diagnostics are all the shape's (the rates give none).
    m_hallKept = m_hallValid;
    for (const Diagnostic& d : m_diagnostics)
        diagnostics.add(d);
    return m_inputs.sameRatesAs(r) ? FabricReplay::All : FabricReplay::Shape;
}

void FabricMemo::keep(const model::ResolvedScenario& r, const FabricPlan& plan,
                      const Diagnostics& diagnostics, std::size_t from)
{
    m_valid = false;
    ++m_fabricPlans;
    m_plan = plan;
    m_inputs.assign(r);
    keepShared(r);
    keepDiagnostics(m_diagnostics, diagnostics, from);
    m_valid = true;
}

MediumChoice FabricMemo::medium(const model::ResolvedScenario& r, const LinkSockets& sockets,
                                double lengthM)
{
    const model::CableSpec* const first = r.cables.data();
    if (sharedSame(r))
        for (std::size_t i = 0; i < m_mediaCount; ++i) {
            const KeptMedium& k = m_media[i];
            if (k.lengthM == lengthM && k.sockets == sockets)
                return MediumChoice{k.cable >= 0 ? first + k.cable : nullptr,
                                    k.shared >= 0 ? first + k.shared : nullptr, k.costPerLinkUsd};
        }
    const MediumChoice m = chooseMedium(r.cables, sockets, lengthM);
    // Kept by index: the same cables of another scenario object are the same choice. The cables
    // are the scenario's: kept as shared inputs by the end of this solve.
    KeptMedium& k = m_media[m_nextMedium];
    m_nextMedium = (m_nextMedium + 1) % kKeptMedia;
    m_mediaCount = std::min(kKeptMedia, m_mediaCount + 1);
    k.sockets = sockets;
    k.lengthM = lengthM;
    k.cable = m.cable ? m.cable - first : -1;
    k.shared = m.shared ? m.shared - first : -1;
    k.costPerLinkUsd = m.costPerLinkUsd;
    return m;
}

double FabricMemo::ecmpShare(int uplinks, int flows, int rails)
{
    for (const KeptShare& k : m_shares)
        if (k.uplinks == uplinks && k.flows == flows && k.rails == rails)
            return k.share;
    KeptShare& k = m_shares[m_nextShare];
    m_nextShare = (m_nextShare + 1) % 2;
    k = KeptShare{uplinks, flows, rails, ecmpThroughputShare(uplinks, flows, rails)};
    return k.share;
}

bool solveNetwork(const model::ResolvedScenario& r, double gradientBytes, Diagnostics& diagnostics,
                  NetworkResult& net, FabricMemo& memo)
{
    const FabricReplay kept = memo.replay(r, diagnostics);
    try {
        if (kept == FabricReplay::None) {
            const std::size_t from = diagnostics.size();
            const FabricPlan plan = solveFabric(r, net, diagnostics, &memo);
            memo.keep(r, plan, diagnostics, from);
        } else if (kept == FabricReplay::Shape) {
            solveRates(r, memo.plan(), net, &memo);
            memo.keepRates(r);
        }
    } catch (...) {
        memo.clear(); // net holds a part-solved fabric: keep nothing of it
        throw;
    }
    timeGradient(r, gradientBytes, net, diagnostics, &memo);
    return kept == FabricReplay::All;
}

void solveReportedCollectives(NetworkResult& net, FabricMemo& memo)
{
    if (memo.collectivesTimedOn(net.worldInputs))
        return;
    net.collectives = reportedCollectives(net.worldInputs);
    memo.keepCollectives(net.worldInputs);
}

bool HallInputs::sameAs(const model::ResolvedScenario& r, const FabricSpec& fabric, int racked,
                        double itDesignKw) const
{
    return nodesPerRack == racked && itDesignPowerKw == itDesignKw &&
           cduRedundancy == r.scenario.cooling.cduRedundancy &&
           protocol == r.scenario.network.protocol && spec == fabric;
}

void HallInputs::assign(const model::ResolvedScenario& r, const FabricSpec& fabric, int racked,
                        double itDesignKw)
{
    spec = fabric;
    nodesPerRack = racked;
    itDesignPowerKw = itDesignKw;
    cduRedundancy = r.scenario.cooling.cduRedundancy;
    protocol = r.scenario.network.protocol;
}

bool FabricMemo::replayHall(const model::ResolvedScenario& r, const FabricSpec& spec,
                            int nodesPerRack, double itDesignPowerKw, Diagnostics& diagnostics)
{
    m_hallKept =
        m_hallValid && m_hallInputs.sameAs(r, spec, nodesPerRack, itDesignPowerKw) && sharedSame(r);
    if (m_hallKept)
        for (const Diagnostic& d : m_hallDiagnostics)
            diagnostics.add(d);
    return m_hallKept;
}

void FabricMemo::keepHall(const model::ResolvedScenario& r, const FabricSpec& spec,
                          int nodesPerRack, double itDesignPowerKw, const Diagnostics& diagnostics,
                          std::size_t from)
{
    m_hallValid = false;
    m_hallKept = false;
    m_hallInputs.assign(r, spec, nodesPerRack, itDesignPowerKw);
    keepShared(r);
    keepDiagnostics(m_hallDiagnostics, diagnostics, from);
    ++m_hallLayouts;
    m_hallValid = true;
}

bool FabricMemo::collectivesTimedOn(const CollectiveInputs& inputs)
{
    m_collectivesKept = m_collectivesValid && m_collectiveInputs == inputs;
    return m_collectivesKept;
}

void FabricMemo::keepCollectives(const CollectiveInputs& inputs)
{
    m_collectiveInputs = inputs;
    m_collectivesValid = true;
}

std::vector<CollectiveTiming> reportedCollectives(const CollectiveInputs& worldInputs)
{
    // One engine for the sixteen: the fabric's paths and tree levels are worked out once.
    const CollectiveEngine world(worldInputs);
    std::vector<CollectiveTiming> out;
    out.reserve(16);
    for (auto op : {CollectiveOp::AllReduce, CollectiveOp::ReduceScatter, CollectiveOp::AllGather,
                    CollectiveOp::AllToAll})
        for (auto a : {CollectiveAlgorithm::Ring, CollectiveAlgorithm::DoubleBinaryTree,
                       CollectiveAlgorithm::Hierarchical, CollectiveAlgorithm::InNetwork})
            out.push_back(world.time(op, a, reportBytes));
    return out;
}

namespace {

CollectiveTiming gradientAllReduceOn(const model::ResolvedScenario& r, const NetworkResult& net,
                                     double bytes, Diagnostics* diagnostics, FabricMemo* memo)
{
    CollectiveTiming none;
    none.bytes = bytes;
    const int ranks = r.dataParallel;
    if (ranks <= 1)
        return none; // one replica: nothing to reduce
    // Tensor parallelism fills a node (the NVLink domain, where it spans nodes) first, so a
    // node holds its GPUs / TP ranks of one data-parallel group (one when TP spans the node);
    // the node's other GPUs run the other groups' all-reduces at the same time, on their own
    // rails.
    const int tp = std::max(1, r.scenario.workload.tensorParallel);
    const int domain = model::scaleUpDomainGpus(r);
    const int perNode = std::max(1, domain / std::min(tp, domain));
    const CollectiveInputs in = collectiveInputs(r, net, ranks, perNode);
    std::optional<CollectiveEngine> fresh;
    const CollectiveEngine& engine = memo ? memo->gradientEngine(in) : fresh.emplace(in);
    const model::CollectiveChoice choice = r.scenario.network.allReduceAlgorithm;
    if (choice == model::CollectiveChoice::Auto) {
        // As NCCL's tuner: the fastest algorithm that applies at this size.
        CollectiveTiming best = engine.best(CollectiveOp::AllReduce, bytes);
        best.bytes = bytes;
        return best.available ? best : none;
    }
    const CollectiveAlgorithm pinned = pinnedAlgorithm(choice);
    const CollectiveTiming t = engine.time(CollectiveOp::AllReduce, pinned, bytes);
    if (!t.available) {
        std::string why = " (its ranks do not span nodes)";
        if (pinned == CollectiveAlgorithm::InNetwork && !r.fabricSwitch.inNetworkReduction)
            why = ": the switch '" + r.fabricSwitch.id + "' does not reduce in the network";
        else if (pinned == CollectiveAlgorithm::InNetwork && !reducesInNetwork(r))
            why = ": in-network reduction is off (/network/in_network_reduction)";
        if (diagnostics)
            diagnostics->error("/network/allreduce_algorithm",
                               std::string("the gradient all-reduce cannot run as '") +
                                   collectiveAlgorithmName(pinned) + "' here" + why,
                               "\"auto\", or an algorithm this fabric and layout support",
                               "collective-unavailable");
        return none;
    }
    return t;
}

} // namespace

CollectiveTiming gradientAllReduce(const model::ResolvedScenario& r, const NetworkResult& net,
                                   double bytes, Diagnostics* diagnostics)
{
    return gradientAllReduceOn(r, net, bytes, diagnostics, nullptr);
}

const CollectiveEngine& FabricMemo::gradientEngine(const CollectiveInputs& inputs)
{
    if (m_gradientEngine)
        m_gradientEngine->reset(inputs);
    else
        m_gradientEngine.emplace(inputs);
    return *m_gradientEngine;
}

double gradientAllReduceSeconds(const model::ResolvedScenario& r, const NetworkResult& net,
                                double bytes)
{
    return gradientAllReduce(r, net, bytes, nullptr).seconds;
}

void networkRiskDiagnostics(const model::ResolvedScenario& r, Diagnostics& d)
{
    const model::NetworkSection& n = r.scenario.network;
    if (n.protocol == Protocol::RoceV2 && !n.pfcEnabled && !n.ecnEnabled)
        d.warning("/network/pfc_enabled",
                  "RoCE v2 without PFC or ECN is lossy under congestion: dropped packets stall "
                  "RDMA go-back-N retransmission",
                  "enable PFC on the RDMA traffic class and ECN with DCQCN", "network-roce-lossy");
    if (n.protocol == Protocol::RoceV2 && n.pfcEnabled && !n.pfcWatchdog)
        d.warning("/network/pfc_watchdog",
                  "PFC without a storm watchdog: a stuck receiver's pause frames can spread and "
                  "deadlock the fabric",
                  "enable the PFC watchdog on every switch", "network-pfc-deadlock");
    if (n.layer2DomainNodes > 8)
        d.warning("/network/layer2_domain_nodes",
                  "a flat layer-2 domain of " + std::to_string(n.layer2DomainNodes) +
                      " nodes floods broadcasts and risks loops and MAC table churn",
                  "route at the leaf (BGP) and use VXLAN where layer 2 must stretch",
                  "network-flat-l2");
    if (n.rdmaPubliclyRoutable)
        d.warning("/network/rdma_publicly_routable",
                  "RDMA interfaces are publicly routable: kernel bypass defeats host firewalls",
                  "keep the RDMA fabric on private, unrouted address space",
                  "network-rdma-exposed");
    if (!n.managementSeparated)
        d.warning("/network/management_separated",
                  "management shares the compute fabric: a fabric fault also cuts management",
                  "put management (BMC, provisioning, monitoring) on its own network",
                  "network-management-shared");
}

std::string ncclEnvironment(const model::ResolvedScenario& r, const NetworkResult& net)
{
    const model::NetworkSection& n = r.scenario.network;
    std::ostringstream out;
    out << "# NCCL settings for " << r.rails << " rails of " << r.nic.id << " ("
        << (n.protocol == Protocol::RoceV2 ? "RoCE v2" : "InfiniBand") << ", "
        << net.topology.planes << " plane(s))\n";
    out << "NCCL_IB_HCA=";
    for (int i = 0; i < r.rails; ++i)
        out << (i ? "," : "=") << "mlx5_" << i << ":1";
    out << "\n";
    out << "NCCL_SOCKET_IFNAME=" << (n.managementSeparated ? "eth0" : "bond0")
        << "   # bootstrap over the management interface\n";
    if (n.protocol == Protocol::RoceV2) {
        out << "NCCL_IB_GID_INDEX=3   # RoCE v2 over IPv4 in the default GID table\n";
        out << "NCCL_IB_TC=106        # DSCP 26, the lossless (PFC) traffic class\n";
    }
    out << "NCCL_NET_GDR_LEVEL=PIX   # GPUDirect RDMA when GPU and NIC share a PCIe switch\n";
    if (n.topology == TopologyKind::RailOptimized || n.topology == TopologyKind::RailOnly ||
        n.topology == TopologyKind::MultiPlane)
        out << "NCCL_CROSS_NIC=0         # keep each ring on its rail / plane\n";
    if (n.routing == Routing::Ecmp)
        out << "NCCL_IB_QPS_PER_CONNECTION=4   # more queue pairs, more ECMP hashes\n";
    if (n.routing == Routing::Adaptive && n.protocol == Protocol::Infiniband)
        out << "NCCL_IB_ADAPTIVE_ROUTING=1\n";
    if (reducesInNetwork(r))
        out << "NCCL_COLLNET_ENABLE=1    # in-network reduction (SHARP)\n";
    return out.str();
}

} // namespace dct::solvers
