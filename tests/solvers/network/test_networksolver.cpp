#include "dct/model/catalog.h"
#include "dct/model/resolver.h"
#include "dct/model/scenarioio.h"
#include "dct/solvers/evaluator.h"
#include "dct/solvers/fabricbuilder.h"
#include "dct/solvers/fabricgraph.h"
#include "dct/solvers/networksolver.h"

#include <catch2/catch.hpp>
#include <string>

using namespace dct;
using namespace dct::solvers;

namespace {

model::ResolvedScenario loadExample(const std::string& name)
{
    auto catalog = model::Catalog::load(std::string(DCT_TEST_DATA_DIR) + "/catalog");
    REQUIRE(catalog);
    auto read = model::readScenarioFile(std::string(DCT_TEST_DATA_DIR) + "/examples/" + name);
    REQUIRE_FALSE(read.diagnostics.hasErrors());
    REQUIRE(read.scenario);
    auto resolved = model::resolveScenario(*read.scenario, *catalog);
    REQUIRE_FALSE(resolved.diagnostics.hasErrors());
    REQUIRE(resolved.resolved);
    return *resolved.resolved;
}

} // namespace

TEST_CASE("The SuperPOD example solves to Table 4's 4-SU column with cables and cost",
          "[network][solver]")
{
    // The network section's two typical lengths (the hall's own runs: tests/solvers/hall).
    model::ResolvedScenario r = loadExample("dgx-superpod-4su.json");
    r.scenario.hall.cableLengths = model::CableLengthModel::Typical;
    Diagnostics d;
    const NetworkResult n = solveNetwork(r, 1e9, d);
    REQUIRE(n.valid);
    CHECK(n.topology.tier(FabricTier::Leaf).switches == 32);
    CHECK(n.topology.tier(FabricTier::Spine).switches == 16);
    CHECK(n.topology.endpointLinks == 1020);
    REQUIRE(n.topology.cables.size() == 2);
    // The QM9700's cages each hold two ports (twin-port OSFP): only 800G plugs fit. 5 m in the
    // row is past a passive splitter's 3 m: an active copper splitter, one per two NICs.
    CHECK(n.topology.cables[0].cableId == "acc-800g-2x400g-splitter");
    CHECK(n.topology.cables[0].cables == 1020 / 2);
    CHECK(n.topology.cables[0].transceivers == 0);
    // 30 m across rows: no NDR AOC exists; twin-port modules, one per cage at either end.
    CHECK(n.topology.cables[1].cableKind == "transceiver");
    CHECK(n.topology.cables[1].transceivers == 1024);
    model::ResolvedScenario longer = r;
    longer.scenario.network.cableLengthAcrossRowsM = 60.0;
    const NetworkResult far = solveNetwork(longer, 1e9, d);
    // Past multimode's 50 m: single-mode twin-port DR4.
    CHECK(far.topology.cables[1].cableId == "transceiver-800g-osfp-2xdr4");
    CHECK(far.topology.cables[1].transceivers == 1024);
    CHECK(n.topology.costUsd > 48 * 33000.0);
    CHECK(n.topology.powerW > 48 * 747.0);
    CHECK(n.wire.efficiency == Approx(4096.0 / 4122.0).epsilon(1e-12));
    CHECK(n.gradientAllReduce.seconds > 0.0);
}

TEST_CASE("Routing and topology change the gradient all-reduce", "[network][solver][ecmp]")
{
    model::ResolvedScenario r = loadExample("dgx-superpod-4su.json");
    r.scenario.network.topology = model::TopologyKind::FatTree;
    r.scenario.network.routing = model::Routing::Ecmp;
    Diagnostics d;
    const NetworkResult ecmp = solveNetwork(r, 1e9, d);
    r.scenario.network.routing = model::Routing::StaticPinned;
    const NetworkResult pinned = solveNetwork(r, 1e9, d);
    r.scenario.network.routing = model::Routing::Adaptive;
    const NetworkResult adaptive = solveNetwork(r, 1e9, d);
    CHECK(ecmp.routingShare < adaptive.routingShare);
    CHECK(adaptive.routingShare < pinned.routingShare);
    CHECK(ecmp.gradientAllReduce.seconds > pinned.gradientAllReduce.seconds);
    CHECK(ecmp.multiRailShare > ecmp.ecmpShare);
}

TEST_CASE("Risky fabric settings are warned about at their JSON paths", "[network][risk]")
{
    model::ResolvedScenario r = loadExample("dgx-superpod-4su.json");
    Diagnostics clean;
    networkRiskDiagnostics(r, clean);
    CHECK(clean.empty());

    model::NetworkSection& n = r.scenario.network;
    n.protocol = model::Protocol::RoceV2;
    n.pfcEnabled = false;
    n.ecnEnabled = false;
    n.layer2DomainNodes = 64;
    n.rdmaPubliclyRoutable = true;
    n.managementSeparated = false;
    Diagnostics d;
    networkRiskDiagnostics(r, d);
    auto warnedAt = [&](const std::string& path, const std::string& code) {
        for (const auto& item : d)
            if (item.path == path && item.code == code && item.severity == Severity::Warning)
                return true;
        return false;
    };
    CHECK(warnedAt("/network/pfc_enabled", "network-roce-lossy"));
    CHECK(warnedAt("/network/layer2_domain_nodes", "network-flat-l2"));
    CHECK(warnedAt("/network/rdma_publicly_routable", "network-rdma-exposed"));
    CHECK(warnedAt("/network/management_separated", "network-management-shared"));

    n.pfcEnabled = true;
    n.pfcWatchdog = false;
    n.layer2DomainNodes = 8;
    Diagnostics d2;
    networkRiskDiagnostics(r, d2);
    CHECK(d2.hasCode("network-pfc-deadlock"));
    CHECK_FALSE(d2.hasCode("network-flat-l2"));
    CHECK_FALSE(d2.hasCode("network-roce-lossy"));
}

TEST_CASE("The evaluator reports network and collectives metrics and uses the fabric",
          "[network][solver]")
{
    const model::ResolvedScenario r = loadExample("multiplane-16k-h100.json");
    const Evaluation e = evaluate(r);
    REQUIRE(e.ok());
    CHECK(e.value("network.switches") == Approx(768.0).epsilon(1e-12));
    CHECK(e.value("network.planes") == 8.0);
    CHECK(e.metric("collectives.all_reduce_ring_1gib_seconds") != nullptr);
    CHECK(e.compute.allReduceSecondsPerStep ==
          Approx(e.network.gradientAllReduce.seconds).epsilon(1e-12));
    CHECK(e.value("collectives.gradient_allreduce_seconds") > 0.0);
}

TEST_CASE("The NCCL environment names the rails", "[network][nccl]")
{
    model::ResolvedScenario r = loadExample("dgx-superpod-4su.json");
    Diagnostics d;
    const NetworkResult n = solveNetwork(r, 1e9, d);
    const std::string env = ncclEnvironment(r, n);
    CHECK(env.find("NCCL_IB_HCA==mlx5_0:1,") != std::string::npos);
    CHECK(env.find("mlx5_7:1") != std::string::npos);
    CHECK(env.find("NCCL_IB_GID_INDEX") == std::string::npos);
    // CollNet (SHARP) only where the scenario turns the switches' reduction on: NCCL's default
    // leaves it off.
    CHECK(env.find("NCCL_COLLNET_ENABLE") == std::string::npos);
    r.scenario.network.inNetworkReduction = true;
    CHECK(ncclEnvironment(r, n).find("NCCL_COLLNET_ENABLE=1") != std::string::npos);
    r.scenario.network.inNetworkReduction = false;
    r.scenario.network.protocol = model::Protocol::RoceV2;
    CHECK(ncclEnvironment(r, n).find("NCCL_IB_GID_INDEX=3") != std::string::npos);
}

TEST_CASE("The gradient all-reduce says which algorithm it chose and can be pinned",
          "[network][solver][collectives]")
{
    model::ResolvedScenario r = loadExample("dgx-superpod-4su.json");
    Diagnostics d;
    const NetworkResult automatic = solveNetwork(r, 1e9, d);
    REQUIRE(automatic.gradientAllReduce.available);
    REQUIRE(automatic.gradientAllReduce.seconds > 0.0);
    // Automatic is the fastest of NCCL's algorithms that apply, as NCCL's tuner picks. The
    // hierarchical ring of rings is no NCCL algorithm: it runs only when pinned, and may beat
    // NCCL's pick (here, by a hair).
    for (auto choice : {model::CollectiveChoice::Ring, model::CollectiveChoice::Tree,
                        model::CollectiveChoice::Hierarchical}) {
        model::ResolvedScenario pinned = r;
        pinned.scenario.network.allReduceAlgorithm = choice;
        Diagnostics pd;
        const NetworkResult p = solveNetwork(pinned, 1e9, pd);
        CHECK_FALSE(pd.hasErrors());
        REQUIRE(p.gradientAllReduce.available);
        if (choice != model::CollectiveChoice::Hierarchical)
            CHECK(p.gradientAllReduce.seconds >= automatic.gradientAllReduce.seconds * (1 - 1e-12));
    }
    model::ResolvedScenario ring = r;
    ring.scenario.network.allReduceAlgorithm = model::CollectiveChoice::Ring;
    const NetworkResult pinnedRing = solveNetwork(ring, 1e9, d);
    CHECK(pinnedRing.gradientAllReduce.algorithm == CollectiveAlgorithm::Ring);

    // The error of the gradient all-reduce pinned to in-network reduction ("" when it runs).
    auto pinnedInNetworkError = [](model::ResolvedScenario s) {
        s.scenario.network.allReduceAlgorithm = model::CollectiveChoice::InNetwork;
        Diagnostics e;
        solveNetwork(s, 1e9, e);
        std::string text;
        for (const auto& item : e)
            if (item.code == "collective-unavailable" &&
                item.path == "/network/allreduce_algorithm")
                text += item.message;
        return text;
    };

    // The SuperPOD's switches can reduce, but in-network reduction is off until the scenario
    // turns it on: pinned to it, the error names the field; on, it runs and auto takes it.
    REQUIRE(r.fabricSwitch.inNetworkReduction);
    CHECK_THAT(pinnedInNetworkError(r), Catch::Contains("/network/in_network_reduction"));
    model::ResolvedScenario collnet = r;
    collnet.scenario.network.inNetworkReduction = true;
    CHECK(pinnedInNetworkError(collnet).empty());
    collnet.scenario.network.allReduceAlgorithm = model::CollectiveChoice::InNetwork;
    Diagnostics on;
    const NetworkResult reduced = solveNetwork(collnet, 1e9, on);
    CHECK_FALSE(on.hasErrors());
    CHECK(reduced.gradientAllReduce.algorithm == CollectiveAlgorithm::InNetwork);
    collnet.scenario.network.allReduceAlgorithm = model::CollectiveChoice::Auto;
    Diagnostics ad;
    const NetworkResult best = solveNetwork(collnet, 1e9, ad);
    CHECK(best.gradientAllReduce.seconds < automatic.gradientAllReduce.seconds);

    // In-network reduction on a switch that cannot reduce is an error of the field that names
    // the switch.
    const model::ResolvedScenario seed = loadExample("seed-h100-dallas-d2c.json");
    REQUIRE_FALSE(seed.fabricSwitch.inNetworkReduction);
    CHECK_THAT(pinnedInNetworkError(seed), Catch::Contains(seed.fabricSwitch.id));
}

TEST_CASE("tiers 3 on a one-pod SuperPOD: switch hops and alpha follow the graph's longest path",
          "[network][solver][hops]")
{
    // Four scalable units fill 32 leaves, one pod of 64-port switches: a third tier adds cores
    // but no path needs them; leaves meet at their pod's spines (3 switches), as the graph's
    // diameter says.
    model::ResolvedScenario r = loadExample("dgx-superpod-4su.json");
    r.scenario.network.tiers = 3;
    // The network section's two typical lengths (the hall's own runs: tests/solvers/hall).
    r.scenario.hall.cableLengths = model::CableLengthModel::Typical;
    Diagnostics d;
    const NetworkResult n = solveNetwork(r, 1e9, d);
    REQUIRE(n.valid);
    REQUIRE(n.topology.tiers == 3);
    REQUIRE(n.topology.pods == 1);
    const FabricPlan plan = planFabric(n.spec, d);
    const HopStats hops = hopStats(buildFabricGraph(plan), 8);
    CHECK(hops.diameterSwitchHops == 3);
    CHECK(n.worstSwitchHops == hops.diameterSwitchHops);
    CHECK(n.worldInputs.fabricSwitchHops == 3);
    const auto& net = r.scenario.network;
    CHECK(n.fabricAlphaUs ==
          Approx(2.0 * r.nic.latencyUs + 3.0 * r.fabricSwitch.latencyUs +
                 (2.0 * net.cableLengthInRowM + 2.0 * net.cableLengthAcrossRowsM) * 0.005)
              .epsilon(1e-12));
    // The collectives never cross a core: the longest path they take is leaf-spine-leaf.
    CHECK(fabricPathLatency(n.worldInputs, FabricPath::CrossLeaf).switchUs ==
          Approx(3.0 * r.fabricSwitch.latencyUs));
    // Two pods (a fabric of 8 SUs) do cross the core: five switches.
    model::ResolvedScenario big = r;
    big.scenario.compute.nodeCount = 255;
    const NetworkResult two = solveNetwork(big, 1e9, d);
    REQUIRE(two.valid);
    REQUIRE(two.topology.pods == 2);
    CHECK(two.worstSwitchHops == 5);
    CHECK(hopStats(buildFabricGraph(planFabric(two.spec, d)), 8).diameterSwitchHops == 5);
}

TEST_CASE("A partial 3-tier fat tree prices the core its uplinks need", "[network][solver][core]")
{
    // 40 nodes of 8 NICs on 64-port switches forced to 3 tiers: 10 leaves, one pod, 32
    // aggregation switches with 10 uplinks each: 320 uplinks, 5 cores of 64 ports (not 32).
    model::ResolvedScenario r = loadExample("dgx-superpod-4su.json");
    r.scenario.network.topology = model::TopologyKind::FatTree;
    r.scenario.network.tiers = 3;
    r.scenario.compute.nodeCount = 40;
    r.rails = 8;
    Diagnostics d;
    const NetworkResult n = solveNetwork(r, 1e9, d);
    REQUIRE(n.valid);
    const TierCounts core = n.topology.tier(FabricTier::Core);
    const long long leaves = n.topology.tier(FabricTier::Leaf).switches;
    CHECK(leaves == 10);
    CHECK(core.linksDown == leaves * 32);
    CHECK(core.switches == (core.linksDown + 63) / 64);
    CHECK(n.topology.switches ==
          leaves + n.topology.tier(FabricTier::Spine).switches + core.switches);
    CHECK(n.topology.switchCostUsd ==
          Approx(static_cast<double>(n.topology.switches) * r.fabricSwitch.priceUsd));
    CHECK(n.topology.switchPowerW ==
          Approx(static_cast<double>(n.topology.switches) * r.fabricSwitch.powerW));
    REQUIRE(n.topology.cables.size() == 3);
    CHECK(n.topology.cables[2].links == core.linksDown);
    const TopologyResult graph = graphCounts(buildFabricGraph(planFabric(n.spec, d)));
    CHECK(graph.tier(FabricTier::Core).switches == core.switches);
    CHECK(graph.tier(FabricTier::Core).portsFree >= 0);
}

TEST_CASE("A gradient all-reduce of one rank per node charges no NVLink step",
          "[network][solver][latency]")
{
    // Tensor parallelism of 8 fills each DGX H100: one rank of a data-parallel group per node.
    model::ResolvedScenario r = loadExample("dgx-superpod-4su.json");
    REQUIRE(r.scenario.workload.tensorParallel == 8);
    Diagnostics d;
    for (double bytes : {64.0, 1e6, 1e9}) {
        const NetworkResult n = solveNetwork(r, bytes, d);
        REQUIRE(n.gradientRanksPerNode == 1);
        INFO(bytes << " B: " << collectiveAlgorithmName(n.gradientAllReduce.algorithm));
        REQUIRE(n.gradientAllReduce.available);
        CHECK(n.gradientAllReduce.latency.nvlinkUs == 0.0);
        CHECK(n.gradientAllReduce.latency.nicUs > 0.0);
    }
    // Tensor parallelism of 4: two ranks per node, NVLink steps again.
    r.scenario.workload.tensorParallel = 4;
    const NetworkResult two = solveNetwork(r, 1e6, d);
    REQUIRE(two.gradientRanksPerNode == 2);
    CHECK(two.gradientAllReduce.latency.nvlinkUs > 0.0);
}

TEST_CASE("The NVL72 domain's NVSwitch adders reach the collectives, shared by the groups in it",
          "[network][solver][nvls]")
{
    // data/catalog/nodes.json: 18 NVLink 5 switch chips a GB200 NVL72 rack, 1,690.5 GB/s each.
    const model::ResolvedScenario r = loadExample("gb200-nvl72-liquid.json");
    Diagnostics d;
    const NetworkResult n = solveNetwork(r, 1e9, d);
    REQUIRE(n.valid);
    REQUIRE(n.worldInputs.nvls);
    CHECK(n.worldInputs.nvlsReduceGbytePerS == Approx(18 * 1690.5));
    // Every GPU at once: one group of the domain's 72 ranks a domain.
    CHECK(n.worldInputs.ranksPerNode == 72);
    CHECK(n.worldInputs.nvlsGroups == 1);
    // Tensor-parallel groups of 8: nine reduce on the rack's switches at once.
    const CollectiveInputs tp = collectiveInputs(r, n, 8, 8);
    CHECK(tp.nvlsGroups == 9);
    CHECK(tp.nvlsReduceGbytePerS == n.worldInputs.nvlsReduceGbytePerS);
    // A Hopper node leaves the adders unset: its links alone bound NVLS.
    const model::ResolvedScenario h = loadExample("dgx-superpod-4su.json");
    const NetworkResult hn = solveNetwork(h, 1e9, d);
    REQUIRE(hn.valid);
    CHECK(hn.worldInputs.nvls);
    CHECK(hn.worldInputs.nvlsReduceGbytePerS == 0.0);
}

TEST_CASE("A scale-up link measured for what collectives reach takes that share, NVLink its flits",
          "[network][solver]")
{
    // data/catalog/gpus.json: MI300X's xGMI realizes 45 of its 64 GB/s a link (AMD ROCm blog,
    // 2025); NVLink parts keep the 16-byte header a 128-byte write and LL128's 120 of 128.
    model::ResolvedScenario r = loadExample("dgx-superpod-4su.json");
    Diagnostics d;
    const NetworkResult nvlink = solveNetwork(r, 1e9, d);
    REQUIRE(nvlink.valid);
    CHECK(nvlink.scaleUpGbytePerSPerGpu ==
          Approx(r.gpu.scaleUpGbytePerS * 128.0 / 144.0 * 120.0 / 128.0));
    r.gpu.scaleUpGbytePerS = 448.0;
    r.gpu.scaleUpLinkEfficiency = 0.703;
    const NetworkResult xgmi = solveNetwork(r, 1e9, d);
    REQUIRE(xgmi.valid);
    CHECK(xgmi.scaleUpGbytePerSPerGpu == Approx(448.0 * 0.703));
    CHECK(xgmi.worldInputs.scaleUpGbytePerS == Approx(448.0 * 0.703));
}
