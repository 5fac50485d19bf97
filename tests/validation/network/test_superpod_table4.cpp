// NVIDIA DGX SuperPOD with DGX H100, reference architecture RA-11333-001, Table 4: compute
// fabric of 1 to 4 scalable units of 32 DGX H100 on QM9700 (64 x 400G) switches.

#include "dct/solvers/fabricbuilder.h"
#include "dct/solvers/fabricgraph.h"

#include <catch2/catch.hpp>

using namespace dct;
using namespace dct::solvers;

namespace {

FabricSpec superPod(int nodes)
{
    FabricSpec s;
    s.kind = model::TopologyKind::RailOptimized;
    s.nodes = nodes;
    s.railsPerNode = 8; // 8 x ConnectX-7 NDR per DGX H100
    s.switchPorts = 64; // QM9700
    s.scalableUnitNodes = 32;
    s.reservedSlotsPerFabric = 1; // the UFM's slot
    s.fabricManagerPorts = 4;     // UFM cables
    return s;
}

} // namespace

TEST_CASE("DGX SuperPOD RA-11333-001 Table 4: nodes, GPUs, leaves, spines and cables per SU count",
          "[validation][network][superpod]")
{
    struct Column
    {
        int units, nodes, gpus, leaves, spines, nodeCables, spineLeafCables;
    };
    const Column table[] = {
        {1, 31, 248, 8, 4, 252, 256},
        {2, 63, 504, 16, 8, 508, 512},
        {3, 95, 760, 24, 16, 764, 768},
        {4, 127, 1016, 32, 16, 1020, 1024},
    };
    for (const Column& c : table) {
        INFO(c.units << " SUs");
        Diagnostics d;
        const FabricPlan plan = planFabric(superPod(c.nodes), d);
        REQUIRE(plan.valid);
        const TopologyResult t = topologyCounts(plan);
        CHECK(t.scalableUnits == c.units);
        CHECK(t.nodes == c.nodes);
        CHECK(t.nodes * 8 == c.gpus);
        CHECK(t.tiers == 2);
        CHECK(t.tier(FabricTier::Leaf).switches == c.leaves);
        CHECK(t.tier(FabricTier::Spine).switches == c.spines);
        CHECK(t.endpointLinks == c.nodeCables);
        CHECK(t.switchLinks == c.spineLeafCables);

        // The explicit graph agrees, and the pod is non-blocking.
        const FabricGraph g = buildFabricGraph(plan, true);
        const TopologyResult counted = graphCounts(g);
        CHECK(counted.tier(FabricTier::Leaf).switches == c.leaves);
        CHECK(counted.tier(FabricTier::Spine).switches == c.spines);
        CHECK(counted.endpointLinks == c.nodeCables);
        CHECK(counted.switchLinks == c.spineLeafCables);
        CHECK(counted.tier(FabricTier::Spine).portsUsed == t.tier(FabricTier::Spine).portsUsed);
        CHECK(hopStats(g, 4).diameterSwitchHops == 3);
    }
}

TEST_CASE("DGX SuperPOD RA-11333-001 Table 4: spines follow the even-spread rule, not a lookup",
          "[validation][network][superpod]")
{
    // 3 SUs: 24 leaves x 32 uplinks = 768 need 12 spines by ports, but 12 does not divide a
    // leaf's 32 uplinks; the smallest count that does is 16, two links from each leaf to each.
    CHECK(smallestDivisorAtLeast(32, 768 / 64) == 16);
    Diagnostics d;
    const FabricPlan three = planFabric(superPod(95), d);
    CHECK(three.spinesPerPlane == 16);
    CHECK(three.leafUpPorts % three.spinesPerPlane == 0);
    // Beyond Table 4: 8 SUs (64 leaves) still fit two tiers with 32 spines; 9 need three.
    CHECK(planFabric(superPod(8 * 32 - 1), d).spinesPerPlane == 32);
    CHECK(planFabric(superPod(9 * 32 - 1), d).tiers == 3);
    CHECK_FALSE(d.hasErrors());
}
