#include "dct/model/catalog.h"
#include "dct/model/resolver.h"
#include "dct/model/scenarioio.h"
#include "dct/solvers/evaluator.h"
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
    // 5 m in the row is past a 400G DAC's 2 m: an active copper cable; 30 m across rows: optics.
    CHECK(n.topology.cables[0].cableKind == "aec");
    // 30 m across rows: optics; a 400G AOC (30 m reach) is cheaper than two SR4 transceivers.
    CHECK(n.topology.cables[1].cableKind == "aoc");
    CHECK(n.topology.cables[1].transceivers == 0);
    model::ResolvedScenario longer = r;
    longer.scenario.network.cableLengthAcrossRowsM = 45.0;
    const NetworkResult far = solveNetwork(longer, 1e9, d);
    CHECK(far.topology.cables[1].cableKind == "transceiver");
    CHECK(far.topology.cables[1].transceivers == 2 * 1024);
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
    // Automatic is the fastest of those that apply, as NCCL's tuner picks.
    for (auto choice : {model::CollectiveChoice::Ring, model::CollectiveChoice::Tree,
                        model::CollectiveChoice::Hierarchical}) {
        model::ResolvedScenario pinned = r;
        pinned.scenario.network.allReduceAlgorithm = choice;
        Diagnostics pd;
        const NetworkResult p = solveNetwork(pinned, 1e9, pd);
        CHECK_FALSE(pd.hasErrors());
        CHECK(p.gradientAllReduce.seconds >= automatic.gradientAllReduce.seconds * (1 - 1e-12));
    }
    model::ResolvedScenario ring = r;
    ring.scenario.network.allReduceAlgorithm = model::CollectiveChoice::Ring;
    const NetworkResult pinnedRing = solveNetwork(ring, 1e9, d);
    CHECK(pinnedRing.gradientAllReduce.algorithm == CollectiveAlgorithm::Ring);

    // In-network reduction on a switch that cannot reduce is an error of the field.
    model::ResolvedScenario sharp = loadExample("seed-h100-dallas-d2c.json");
    REQUIRE_FALSE(sharp.fabricSwitch.inNetworkReduction);
    sharp.scenario.network.allReduceAlgorithm = model::CollectiveChoice::InNetwork;
    Diagnostics sd;
    solveNetwork(sharp, 1e9, sd);
    REQUIRE(sd.hasCode("collective-unavailable"));
    bool named = false;
    for (const auto& item : sd)
        named |= item.path == "/network/allreduce_algorithm" &&
                 item.message.find(sharp.fabricSwitch.id) != std::string::npos;
    CHECK(named);
}
