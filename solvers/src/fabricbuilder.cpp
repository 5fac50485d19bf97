#include "dct/solvers/fabricbuilder.h"

#include <algorithm>
#include <cmath>
#include <string>

namespace dct::solvers {

using model::TopologyKind;

const char* fabricTierName(FabricTier tier)
{
    switch (tier) {
    case FabricTier::Leaf:
        return "leaf";
    case FabricTier::Spine:
        return "spine";
    case FabricTier::Core:
        return "core";
    }
    return "leaf";
}

TierCounts TopologyResult::tier(FabricTier t) const
{
    for (const auto& c : tiersCounts)
        if (c.tier == t)
            return c;
    TierCounts none;
    none.tier = t;
    return none;
}

long long smallestDivisorAtLeast(long long n, long long atLeast)
{
    if (n <= 0)
        return 0;
    for (long long d = std::max(1LL, atLeast); d <= n; ++d)
        if (n % d == 0)
            return d;
    return 0;
}

namespace {

long long ceilDiv(long long a, long long b)
{
    return b > 0 ? (a + b - 1) / b : 0;
}

} // namespace

int leafDownPortsOf(int ports, double ratio)
{
    const double r = std::max(1.0, ratio);
    const int down = static_cast<int>(std::lround(ports * r / (r + 1.0)));
    return std::clamp(down, 1, std::max(1, ports - 1));
}

FabricPlan planFabric(const FabricSpec& spec, Diagnostics& diagnostics)
{
    FabricPlan p;
    p.spec = spec;
    p.switchPorts = spec.switchPorts;
    p.nodes = spec.nodes;
    const int k = spec.switchPorts;
    const int rails = std::max(1, spec.railsPerNode);
    if (k < 2 || spec.nodes < 1) {
        diagnostics.error("/network/switch/ports",
                          "a fabric needs switches of at least 2 ports "
                          "and at least one node",
                          "ports >= 2", "fabric-invalid");
        return p;
    }

    // Leaf ports split by the oversubscription ratio r = down / up (r = 1: k/2 and k/2).
    const double r = std::max(1.0, spec.oversubscription);
    const int down = leafDownPortsOf(k, r);
    p.leafDownPorts = down;
    p.leafUpPorts = k - down;

    if (spec.kind == TopologyKind::RailOptimized) {
        // NVIDIA DGX SuperPOD (RA-11333-001): a scalable unit of node slots; NIC r of every node
        // of the unit goes to the leaf (or leaves) of rail r. The fabric manager takes node slots
        // and wires fabricManagerPorts of them to the first rails' leaves.
        p.planes = 1;
        // No unit size set: as many node slots as a leaf has down ports (DGX SuperPOD's 32 on
        // 64-port switches; 64 on 128 ports), or as the fabric has nodes if it has fewer.
        const int slots =
            spec.scalableUnitNodes > 0
                ? spec.scalableUnitNodes
                : std::min(down,
                           std::max(1, spec.nodes + std::max(0, spec.reservedSlotsPerFabric)));
        p.spec.scalableUnitNodes = slots;
        const int usable = slots - std::max(0, spec.reservedSlotsPerUnit);
        if (usable < 1) {
            diagnostics.error("/network/scalable_unit_nodes",
                              "the fabric manager takes every node slot of a unit",
                              "more node slots per unit than reserved ones", "fabric-invalid");
            return p;
        }
        p.scalableUnits = static_cast<int>(
            ceilDiv(spec.nodes + std::max(0, spec.reservedSlotsPerFabric), usable));
        p.reservedSlots =
            static_cast<long long>(p.scalableUnits) * std::max(0, spec.reservedSlotsPerUnit) +
            std::max(0, spec.reservedSlotsPerFabric);
        p.leavesPerRailPerUnit = static_cast<int>(ceilDiv(slots, down));
        // A unit smaller than a leaf's ports (32 node slots on a 128-port leaf) leaves the rest
        // of its down ports empty, and the leaf takes the uplinks its used ports need at the
        // oversubscription, not those of a full leaf: a rail's leaf of a unit serves its share
        // of the unit's slots.
        const int used = static_cast<int>(ceilDiv(slots, p.leavesPerRailPerUnit));
        if (used < down) {
            p.leafDownPorts = used;
            p.leafUpPorts = std::max(1, static_cast<int>(std::ceil(used / r - 1e-9)));
        }
        p.leavesPerPlane = static_cast<long long>(p.scalableUnits) * rails * p.leavesPerRailPerUnit;
        p.managerPortsPerPlane = p.reservedSlots * std::min(spec.fabricManagerPorts, rails);
        p.endpointsPerPlane = static_cast<long long>(spec.nodes) * rails + p.managerPortsPerPlane;
    } else {
        // Multi-plane (DeepSeek-V3 MPFT): NIC r of a node joins plane r mod P. Rail-only: one
        // plane per rail. A plain fat tree is one plane holding every NIC.
        p.planes = spec.kind == TopologyKind::RailOnly ? rails : std::max(1, spec.planes);
        if (rails % p.planes != 0)
            diagnostics.warning(
                "/network/planes", "the NICs of a node do not split evenly over the planes",
                "make the rails per node a multiple of the planes", "fabric-uneven-planes");
        p.endpointsPerPlane = static_cast<long long>(spec.nodes) * ceilDiv(rails, p.planes);
        p.leavesPerPlane = ceilDiv(p.endpointsPerPlane, down);
    }

    // Tiers: the fewest that hold the leaves. Two tiers hold up to k leaves (each spine has one
    // port per leaf at most); three tiers up to k * k/2 leaves (k pods of k/2 leaves).
    const long long L = p.leavesPerPlane;
    int tiers = spec.tiers;
    const bool singleSwitch = spec.kind != TopologyKind::RailOptimized && p.endpointsPerPlane <= k;
    if (tiers == 0)
        tiers = (singleSwitch || L == 1) ? 1 : (L <= k ? 2 : 3);
    if (tiers == 1 && singleSwitch) {
        p.leafDownPorts = k;
        p.leafUpPorts = 0;
        p.leavesPerPlane = 1;
    }
    p.tiers = tiers;
    const long long maxThreeTier = static_cast<long long>(k) * (k / 2);
    if ((tiers == 1 && p.leavesPerPlane > 1) || (tiers == 2 && L > k) ||
        (tiers == 3 && L > maxThreeTier) || tiers > 3) {
        diagnostics.error(
            "/network/tiers",
            "the endpoints do not fit in " + std::to_string(tiers) + " tiers of " +
                std::to_string(k) + "-port switches (" + std::to_string(L) + " leaves per plane)",
            "more tiers, more planes or switches with more ports", "fabric-too-large");
        return p;
    }

    const long long u = p.leafUpPorts;
    if (tiers == 2) {
        // Spread each leaf's u uplinks evenly: the spine count divides u, and the spines' ports
        // hold every uplink. DGX SuperPOD Table 4: 24 leaves x 32 uplinks = 768 need 12 spines
        // by ports, but 12 does not divide 32, so 16 (2 links from every leaf to every spine).
        p.spinesPerPlane = smallestDivisorAtLeast(u, ceilDiv(L * u, k));
    } else if (tiers == 3) {
        // Al-Fares et al. (SIGCOMM 2008) pods: k/2 leaves and u aggregation switches per pod,
        // non-blocking at the aggregation: each aggregation switch has one uplink per leaf of
        // its pod, L u uplinks in the plane. The core is what those uplinks need, k per core:
        // (k/2)^2 cores for a full plane, fewer for a partial one (buildFabricGraph deals the
        // uplinks over the cores in turn, so that a full plane is Al-Fares' core groups).
        p.leavesPerPod = k / 2;
        p.podsPerPlane = ceilDiv(L, p.leavesPerPod);
        p.spinesPerPlane = p.podsPerPlane * u;
        p.coresPerPlane = ceilDiv(L * u, k);
    }
    p.valid = true;
    return p;
}

TopologyResult topologyCounts(const FabricPlan& p)
{
    TopologyResult t;
    t.planes = p.planes;
    t.tiers = p.tiers;
    t.switchPorts = p.switchPorts;
    t.breakout = std::max(1, p.spec.breakout);
    t.nodes = p.nodes;
    t.nics = p.nodes * std::max(1, p.spec.railsPerNode);
    t.scalableUnits = p.scalableUnits;
    t.scalableUnitNodes = p.scalableUnits > 0 ? p.spec.scalableUnitNodes : 0;
    t.reservedSlots = p.reservedSlots;
    t.leafDownPorts = p.leafDownPorts;
    t.leafUpPorts = p.leafUpPorts;
    t.pods = p.podsPerPlane;
    if (!p.valid)
        return t;
    const long long P = p.planes;
    const long long k = p.switchPorts;
    const long long L = p.leavesPerPlane;
    const long long u = p.tiers > 1 ? p.leafUpPorts : 0;
    t.endpoints = p.endpointsPerPlane * P;
    t.endpointLinks = t.endpoints;
    t.tiersCounts.reserve(static_cast<std::size_t>(p.tiers));

    TierCounts leaf;
    leaf.tier = FabricTier::Leaf;
    leaf.switches = L * P;
    leaf.linksDown = t.endpoints;
    leaf.portsUsed = t.endpoints + L * u * P;
    leaf.portsFree = leaf.switches * k - leaf.portsUsed;
    t.tiersCounts.push_back(leaf);
    if (p.tiers >= 2) {
        TierCounts spine;
        spine.tier = FabricTier::Spine;
        spine.switches = p.spinesPerPlane * P;
        spine.linksDown = L * u * P;
        spine.portsUsed = (p.tiers == 3 ? 2 : 1) * L * u * P;
        spine.portsFree = spine.switches * k - spine.portsUsed;
        t.tiersCounts.push_back(spine);
    }
    if (p.tiers == 3) {
        TierCounts core;
        core.tier = FabricTier::Core;
        core.switches = p.coresPerPlane * P;
        core.linksDown = L * u * P;
        core.portsUsed = L * u * P;
        core.portsFree = core.switches * k - core.portsUsed;
        t.tiersCounts.push_back(core);
    }
    for (const auto& c : t.tiersCounts) {
        t.switches += c.switches;
        if (c.tier != FabricTier::Leaf)
            t.switchLinks += c.linksDown;
    }
    // Bisection of a Clos: half the endpoints at line rate, divided by the leaf oversubscription
    // (a single switch is non-blocking).
    const double oversub =
        p.tiers > 1 ? static_cast<double>(p.leafDownPorts) / static_cast<double>(p.leafUpPorts)
                    : 1.0;
    const double nicHalf = std::floor(static_cast<double>(p.endpointsPerPlane) / 2.0);
    t.fullBisectionGbps =
        static_cast<double>(P) * nicHalf * p.spec.endpointRateGbps / std::max(1.0, oversub);
    return t;
}

} // namespace dct::solvers
