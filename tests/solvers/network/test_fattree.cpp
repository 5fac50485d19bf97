#include "dct/solvers/fabricbuilder.h"
#include "dct/solvers/fabricgraph.h"

#include <catch2/catch.hpp>

using namespace dct;
using namespace dct::solvers;
using model::TopologyKind;

namespace {

FabricSpec fatTree(int nodes, int rails, int ports, int tiers = 0, double oversub = 1.0)
{
    FabricSpec s;
    s.kind = TopologyKind::FatTree;
    s.nodes = nodes;
    s.railsPerNode = rails;
    s.switchPorts = ports;
    s.tiers = tiers;
    s.oversubscription = oversub;
    return s;
}

/** Checks that the closed-form counts equal the counts read off the explicit graph. */
void requireClosedFormMatchesGraph(const FabricSpec& spec)
{
    Diagnostics d;
    const FabricPlan plan = planFabric(spec, d);
    REQUIRE(plan.valid);
    const TopologyResult closed = topologyCounts(plan);
    const FabricGraph graph = buildFabricGraph(plan, true);
    const TopologyResult counted = graphCounts(graph);
    INFO("nodes " << spec.nodes << " rails " << spec.railsPerNode << " k " << spec.switchPorts
                  << " planes " << spec.planes << " tiers " << plan.tiers);
    CHECK(counted.endpoints == closed.endpoints);
    CHECK(counted.endpointLinks == closed.endpointLinks);
    CHECK(counted.switches == closed.switches);
    CHECK(counted.switchLinks == closed.switchLinks);
    REQUIRE(counted.tiersCounts.size() == closed.tiersCounts.size());
    for (std::size_t i = 0; i < closed.tiersCounts.size(); ++i) {
        CHECK(counted.tiersCounts[i].switches == closed.tiersCounts[i].switches);
        CHECK(counted.tiersCounts[i].portsUsed == closed.tiersCounts[i].portsUsed);
        CHECK(counted.tiersCounts[i].portsFree == closed.tiersCounts[i].portsFree);
        CHECK(counted.tiersCounts[i].linksDown == closed.tiersCounts[i].linksDown);
        CHECK(counted.tiersCounts[i].portsFree >= 0);
    }
}

} // namespace

TEST_CASE("Full fat trees match Al-Fares et al. (SIGCOMM 2008) closed forms", "[network][fattree]")
{
    for (int k : {4, 8, 16, 32, 64}) {
        Diagnostics d;
        // 2 tiers: k^2/2 hosts, 3k/2 switches, k^2/2 switch-to-switch links.
        const auto two = topologyCounts(planFabric(fatTree(k * k / 2, 1, k, 2), d));
        CHECK(two.endpoints == k * k / 2);
        CHECK(two.switches == 3 * k / 2);
        CHECK(two.switchLinks == k * k / 2);
        // 3 tiers: k^3/4 hosts, 5k^2/4 switches, k^3/2 switch-to-switch links.
        const auto three = topologyCounts(planFabric(fatTree(k * k * k / 4, 1, k, 3), d));
        CHECK(three.endpoints == k * k * k / 4);
        CHECK(three.switches == 5 * k * k / 4);
        CHECK(three.switchLinks == k * k * k / 2);
        CHECK(three.tier(FabricTier::Core).portsFree == 0);
        CHECK_FALSE(d.hasErrors());
    }
}

TEST_CASE("Closed-form counts equal the explicit graph over many sizes", "[network][fattree]")
{
    for (int k : {4, 8, 16}) {
        const int maxHosts = k * k * k / 4;
        for (int nodes = 1; nodes <= maxHosts; nodes += std::max(1, maxHosts / 23))
            requireClosedFormMatchesGraph(fatTree(nodes, 1, k));
        requireClosedFormMatchesGraph(fatTree(maxHosts, 1, k));
        requireClosedFormMatchesGraph(fatTree(k * k / 2 / 4, 4, k, 2, 3.0));
        requireClosedFormMatchesGraph(fatTree(maxHosts / 2, 2, k, 3, 1.0));
        requireClosedFormMatchesGraph(fatTree(maxHosts / 3, 1, k, 3, 3.0));
    }
    // Multi-plane, rail-only and rail-optimized fabrics.
    for (int nodes : {3, 17, 64, 100}) {
        FabricSpec mp = fatTree(nodes, 8, 16);
        mp.kind = TopologyKind::MultiPlane;
        mp.planes = 4;
        requireClosedFormMatchesGraph(mp);
        FabricSpec ro = fatTree(nodes, 4, 16);
        ro.kind = TopologyKind::RailOnly;
        requireClosedFormMatchesGraph(ro);
        FabricSpec su = fatTree(nodes, 8, 16);
        su.kind = TopologyKind::RailOptimized;
        su.scalableUnitNodes = 8;
        su.reservedSlotsPerUnit = nodes % 2;
        requireClosedFormMatchesGraph(su);
    }
}

TEST_CASE("The fewest tiers that hold the endpoints are chosen", "[network][fattree]")
{
    Diagnostics d;
    CHECK(planFabric(fatTree(8, 8, 64), d).tiers == 1);
    CHECK(planFabric(fatTree(9, 8, 64), d).tiers == 2);
    CHECK(planFabric(fatTree(256, 8, 64), d).tiers == 2);
    CHECK(planFabric(fatTree(257, 8, 64), d).tiers == 3);
    CHECK_FALSE(d.hasErrors());
    planFabric(fatTree(100000, 8, 64, 2), d);
    CHECK(d.hasCode("fabric-too-large"));
}

TEST_CASE("Bisection by max-flow equals the closed form", "[network][graph]")
{
    for (int k : {4, 8}) {
        for (int tiers : {2, 3}) {
            const int hosts = tiers == 2 ? k * k / 2 : k * k * k / 4;
            Diagnostics d;
            const FabricPlan plan = planFabric(fatTree(hosts, 1, k, tiers), d);
            const FabricGraph g = buildFabricGraph(plan);
            const TopologyResult closed = topologyCounts(plan);
            CHECK(bisectionGbps(g) == Approx(closed.fullBisectionGbps).epsilon(1e-9));
            CHECK(closed.fullBisectionGbps == Approx(hosts / 2 * 400.0).epsilon(1e-12));
        }
    }
    // A 3:1 oversubscribed full 2-tier fabric: the uplinks cap the bisection.
    Diagnostics d;
    const FabricPlan plan = planFabric(fatTree(16 * 12, 1, 16, 2, 3.0), d);
    const FabricGraph g = buildFabricGraph(plan);
    CHECK(bisectionGbps(g) == Approx(16 * 12 / 2 * 400.0 / 3.0).epsilon(1e-9));
}

TEST_CASE("Hop counts by BFS follow the tiers", "[network][graph]")
{
    Diagnostics d;
    const FabricGraph two = buildFabricGraph(planFabric(fatTree(32, 1, 8, 2), d));
    CHECK(hopStats(two).diameterSwitchHops == 3);
    const FabricGraph three = buildFabricGraph(planFabric(fatTree(128, 1, 8, 3), d));
    const HopStats h = hopStats(three, 8);
    CHECK(h.diameterSwitchHops == 5);
    CHECK(h.averageSwitchHops > 3.0);
    CHECK(h.averageSwitchHops < 5.0);
}

TEST_CASE("What-if failures report what is lost", "[network][graph]")
{
    Diagnostics d;
    FabricSpec mp = fatTree(32, 4, 8);
    mp.kind = TopologyKind::MultiPlane;
    mp.planes = 2;
    const FabricGraph g = buildFabricGraph(planFabric(mp, d), true);

    SECTION("a whole plane down halves the bisection but disconnects no host")
    {
        FailureSet plane;
        plane.plane = 1;
        const FailureImpact impact = failureImpact(g, plane);
        CHECK(impact.endpointsDisconnected == 64);
        CHECK(impact.hostsDisconnected == 0);
        CHECK(impact.bisectionLostGbps == Approx(impact.bisectionBeforeGbps / 2).epsilon(1e-9));
    }
    SECTION("a leaf down cuts its NICs off")
    {
        FailureSet leaf;
        for (auto [v, end] = boost::vertices(g.graph); v != end; ++v)
            if (g.graph[*v].kind == VertexKind::Leaf && g.graph[*v].plane == 0 &&
                g.graph[*v].index == 0)
                leaf.vertices.push_back(static_cast<long long>(*v));
        const FailureImpact impact = failureImpact(g, leaf);
        CHECK(impact.endpointsDisconnected == mp.switchPorts / 2);
        CHECK(impact.hostsDisconnected == 0);
        CHECK(impact.bisectionLostGbps > 0.0);
    }
    SECTION("one uplink down costs one link of bisection at most")
    {
        FailureSet link;
        for (const auto& e : g.edges)
            if (g.graph[e].kind == LinkKind::LeafSpine) {
                link.edges.push_back(g.graph[e].id);
                break;
            }
        const FailureImpact impact = failureImpact(g, link);
        CHECK(impact.endpointsDisconnected == 0);
        CHECK(impact.bisectionLostGbps <= 400.0 + 1e-9);
    }
}

TEST_CASE("The graph exports as Graphviz DOT", "[network][graph]")
{
    Diagnostics d;
    const FabricGraph g = buildFabricGraph(planFabric(fatTree(8, 1, 4, 2), d));
    const std::string dot = fabricDot(g);
    CHECK(dot.rfind("graph fabric {", 0) == 0);
    CHECK(dot.find("leaf") != std::string::npos);
    CHECK(dot.find(" -- ") != std::string::npos);
}

TEST_CASE("A partial 3-tier fat tree gets the core its aggregation uplinks need",
          "[network][fattree][core]")
{
    // k = 8: a full 3-tier plane holds 128 hosts under (k/2)^2 = 16 cores. 100 hosts fill 25
    // leaves; their aggregation switches have 25 x 4 = 100 uplinks, which 13 cores of 8 ports
    // hold (not the full 16).
    Diagnostics d;
    const FabricPlan plan = planFabric(fatTree(100, 1, 8, 3), d);
    REQUIRE(plan.valid);
    CHECK(plan.leavesPerPlane == 25);
    CHECK(plan.coresPerPlane == 13);
    const TopologyResult closed = topologyCounts(plan);
    CHECK(closed.tier(FabricTier::Core).switches == 13);
    CHECK(closed.tier(FabricTier::Core).linksDown == 100);
    CHECK(closed.tier(FabricTier::Core).portsFree == 13 * 8 - 100);
    CHECK(closed.switches == 25 + 7 * 4 + 13);
    requireClosedFormMatchesGraph(fatTree(100, 1, 8, 3));
    // Still non-blocking: the bisection is half the hosts at line rate.
    const FabricGraph g = buildFabricGraph(plan);
    CHECK(bisectionGbps(g) == Approx(closed.fullBisectionGbps).epsilon(1e-9));
    CHECK(hopStats(g, 8).diameterSwitchHops == 5);
    // A full plane keeps Al-Fares' full core, each core one link from every pod.
    const FabricPlan full = planFabric(fatTree(128, 1, 8, 3), d);
    CHECK(full.coresPerPlane == 16);
    const TopologyResult fullCounts = graphCounts(buildFabricGraph(full));
    CHECK(fullCounts.tier(FabricTier::Core).portsFree == 0);
    CHECK_FALSE(d.hasErrors());
    // Partial planes of every size: counts, graph and ports agree.
    for (int hosts = 33; hosts <= 128; hosts += 7)
        requireClosedFormMatchesGraph(fatTree(hosts, 1, 8, 3));
}

TEST_CASE("A rail-optimized unit fills a leaf's down ports unless set, and a leaf's uplinks match "
          "the ports its unit uses",
          "[network][fattree][railoptimized]")
{
    auto railOptimized = [](int nodes, int ports, int unit) {
        FabricSpec s = fatTree(nodes, 8, ports);
        s.kind = TopologyKind::RailOptimized;
        s.scalableUnitNodes = unit;
        return s;
    };
    Diagnostics d;
    // No unit set on 64-port switches: DGX SuperPOD's 32 nodes a unit.
    const FabricPlan superPod = planFabric(railOptimized(127, 64, 0), d);
    CHECK(superPod.spec.scalableUnitNodes == 32);
    CHECK(superPod.scalableUnits == 4);
    CHECK(superPod.leafDownPorts == 32);
    CHECK(superPod.leafUpPorts == 32);
    // 1,024 nodes of 8 NICs on 128-port leaves (a 64 x 800G switch split in two): units of 64,
    // 128 leaves under 64 spines in two tiers. With the 32-node unit of a 64-port leaf and every
    // leaf wired for a full 64 uplinks, the same nodes took 256 leaves, 256 spines and 128 cores.
    const FabricPlan wide = planFabric(railOptimized(1024, 128, 0), d);
    const TopologyResult t = topologyCounts(wide);
    CHECK(wide.spec.scalableUnitNodes == 64);
    CHECK(t.tiers == 2);
    CHECK(t.tier(FabricTier::Leaf).switches == 128);
    CHECK(t.tier(FabricTier::Spine).switches == 64);
    CHECK(t.switches == 192);
    // A unit set smaller than a leaf: 32 nodes on a 128-port leaf use 32 down ports and the leaf
    // takes 32 uplinks (non-blocking), not 64; its 256 leaves outgrow two tiers of 128-port
    // spines.
    const FabricPlan narrow = planFabric(railOptimized(1024, 128, 32), d);
    CHECK(narrow.leafDownPorts == 32);
    CHECK(narrow.leafUpPorts == 32);
    const TopologyResult n = topologyCounts(narrow);
    CHECK(n.tier(FabricTier::Leaf).switches == 256);
    CHECK(n.tier(FabricTier::Leaf).portsUsed == 256 * 64);
    CHECK(n.tiers == 3);
    CHECK(n.fullBisectionGbps == Approx(1024 * 8 / 2 * 400.0));
    // Oversubscribed 3:1, the uplinks follow the used ports: 24 down, 8 up.
    FabricSpec over = railOptimized(96, 128, 24);
    over.oversubscription = 3.0;
    const FabricPlan o = planFabric(over, d);
    CHECK(o.leafDownPorts == 24);
    CHECK(o.leafUpPorts == 8);
    // A fabric smaller than a leaf: the unit is the nodes it has.
    const FabricPlan small = planFabric(railOptimized(20, 128, 0), d);
    CHECK(small.spec.scalableUnitNodes == 20);
    CHECK(small.leafDownPorts == 20);
    CHECK(small.leafUpPorts == 20);
    CHECK_FALSE(d.hasErrors());
    // The explicit graph agrees, and its max-flow bisection equals the closed form.
    for (const FabricSpec& s :
         {railOptimized(200, 32, 8), railOptimized(300, 64, 0), railOptimized(20, 128, 0), over}) {
        requireClosedFormMatchesGraph(s);
        const FabricPlan plan = planFabric(s, d);
        CHECK(bisectionGbps(buildFabricGraph(plan)) ==
              Approx(topologyCounts(plan).fullBisectionGbps).epsilon(1e-9));
    }
}
