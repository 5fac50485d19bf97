#include "dct/model/catalog.h"
#include "dct/model/resolver.h"
#include "dct/model/scenarioio.h"
#include "dct/model/validator.h"
#include "dct/solvers/networksolver.h"

#include <catch2/catch.hpp>
#include <string>

using namespace dct;
using namespace dct::solvers;

namespace {

/** 512 HGX H100 nodes (4,096 GPUs, eight 400G NICs each) on 64 x 800G Ethernet switches. */
model::ResolvedScenario roce4k(int breakout)
{
    auto catalog = model::Catalog::load(std::string(DCT_TEST_DATA_DIR) + "/catalog");
    REQUIRE(catalog);
    auto read = model::readScenarioFile(std::string(DCT_TEST_DATA_DIR) +
                                        "/examples/seed-h100-dallas-d2c.json");
    REQUIRE(read.scenario);
    model::Scenario s = *read.scenario;
    s.compute.nodeCount = 512;
    s.network.tiers = 0;
    s.network.fabricSwitch.id = "sn5600";
    s.network.nic.id = "connectx-7-400g";
    s.network.portBreakout = breakout;
    auto resolved = model::resolveScenario(s, *catalog);
    REQUIRE_FALSE(resolved.diagnostics.hasErrors());
    REQUIRE(resolved.resolved);
    return *resolved.resolved;
}

} // namespace

TEST_CASE("800G ports split into 2 x 400G for 400G NICs when left automatic", "[network][breakout]")
{
    const model::ResolvedScenario r = roce4k(0);
    CHECK(r.portBreakout == 2);
    CHECK(r.fabricPorts() == 128);
    CHECK(r.fabricPortRateGbps() == Approx(400.0));
    Diagnostics d;
    const NetworkResult n = solveNetwork(r, 1e9, d);
    REQUIRE(n.valid);
    // 4,096 NICs on 128-port (logical) leaves with 64 down and 64 up: 64 leaves, 2 tiers; the
    // spines take 64 x 64 uplinks on 128 ports each: 32 spines (3k/2 for a full 2-tier tree
    // of k = 128 would be 192 for 8,192 endpoints; half of it here).
    CHECK(n.topology.tiers == 2);
    CHECK(n.topology.breakout == 2);
    CHECK(n.topology.tier(FabricTier::Leaf).switches == 64);
    CHECK(n.topology.tier(FabricTier::Spine).switches == 32);
    CHECK(n.topology.switches == 96);
    // Every link runs at the NIC's 400G: the cables and optics are bought at 400G.
    REQUIRE(n.topology.cables.size() == 2);
    CHECK(n.topology.cables[0].rateGbps == Approx(400.0));
    CHECK(n.topology.cables[1].rateGbps == Approx(400.0));
    CHECK(n.topology.cables[1].links == 64 * 64);
}

TEST_CASE("Without breakout the same cluster needs a third tier and 320 switches",
          "[network][breakout]")
{
    const model::ResolvedScenario r = roce4k(1);
    CHECK(r.portBreakout == 1);
    Diagnostics d;
    const NetworkResult unsplit = solveNetwork(r, 1e9, d);
    REQUIRE(unsplit.valid);
    // 64 ports of 800G: 32 down, 32 up; 128 leaves exceed a 2-tier tree's 64 leaves. Al-Fares
    // pods of 32 leaves: 4 pods with 32 aggregation switches each (128), 32 core groups of 2
    // (64): 128 + 128 + 64 = 320, the count the planner found.
    CHECK(unsplit.topology.tiers == 3);
    CHECK(unsplit.topology.switches == 320);
    const NetworkResult split = solveNetwork(roce4k(0), 1e9, d);
    CHECK(split.topology.switches < unsplit.topology.switches);
    CHECK(split.topology.costUsd < unsplit.topology.costUsd);
    CHECK(split.topology.powerW < unsplit.topology.powerW);
}

TEST_CASE("A breakout beyond what the switch allows is an error of its field",
          "[network][breakout]")
{
    model::ResolvedScenario r = roce4k(0);
    r.scenario.network.portBreakout = 8;
    model::applyDerivedRules(r);
    const Diagnostics d = model::validateScenario(r);
    REQUIRE(d.hasCode("port-breakout"));
    bool named = false;
    for (const auto& item : d)
        named |= item.code == "port-breakout" && item.path == "/network/port_breakout";
    CHECK(named);
}

TEST_CASE("A breakout below the NIC's rate is flagged as a rate mismatch", "[network][breakout]")
{
    model::ResolvedScenario r = roce4k(4); // 4 x 200G logical ports for 400G NICs
    CHECK(r.fabricPortRateGbps() == Approx(200.0));
    const Diagnostics d = model::validateScenario(r);
    CHECK(d.hasCode("rate-mismatch"));
    CHECK_FALSE(d.hasErrors());
}

TEST_CASE("No breakout where the NIC already runs at the port's rate", "[network][breakout]")
{
    model::ResolvedScenario r = roce4k(0);
    r.nic.rateGbps = 800.0;
    model::applyDerivedRules(r);
    CHECK(r.portBreakout == 1);
    r.nic.rateGbps = 200.0;
    model::applyDerivedRules(r);
    CHECK(r.portBreakout == 4); // SN5600: 256 x 200GbE
    r.fabricSwitch.maxBreakout = 1;
    model::applyDerivedRules(r);
    CHECK(r.portBreakout == 1);
}
