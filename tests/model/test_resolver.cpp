#include "dct/model/resolver.h"
#include "dct/model/scenarioio.h"
#include "dct/model/validator.h"
#include "testsupport.h"

using namespace dct;
using namespace dct::model;
using nlohmann::json;

namespace {

json baseScenario()
{
    return json::parse(R"({
        "schema_version": 2,
        "name": "resolve",
        "site": "dallas",
        "compute": {"node": "dgx-h100", "node_count": 4},
        "network": {"switch": "qm9700", "protocol": "infiniband"},
        "cooling": {"system": "d2c-rdhx"}
    })");
}

ResolveResult resolveJson(const json& j)
{
    auto read = readScenario(j, "s.json");
    REQUIRE_FALSE(read.diagnostics.hasErrors());
    return resolveScenario(*read.scenario, test::catalog(), "s.json");
}

} // namespace

TEST_CASE("Resolution fills GPU and NIC from the node and tags provenance", "[model][resolve]")
{
    auto r = resolveJson(baseScenario());
    REQUIRE(r.resolved);
    const ResolvedScenario& s = *r.resolved;
    CHECK(s.gpu.id == s.node.gpu);
    CHECK(s.nic.id == s.node.nic);
    CHECK(s.gpuCount() == 32);
    CHECK(s.dataParallel == 4);
    CHECK(s.provenance.at("/compute/node_count").origin == Provenance::Origin::User);
    CHECK(s.provenance.at("/workload/mfu").origin == Provenance::Origin::Default);
    const Provenance& tdp = s.provenance.at("/compute/gpu/tdp_w");
    CHECK(tdp.origin == Provenance::Origin::Catalog);
    CHECK_THAT(tdp.source, Catch::Contains("h100-sxm5"));
}

TEST_CASE("Overrides replace catalog values and are tagged as the user's", "[model][resolve]")
{
    json j = baseScenario();
    j["compute"]["gpu"] = {{"id", "h100-sxm5"}, {"tdp_w", 600}};
    j["site"] = {{"id", "dallas"}, {"electricity_price_usd_per_kwh", 0.05}};
    auto r = resolveJson(j);
    REQUIRE(r.resolved);
    CHECK(r.resolved->gpu.tdpW == Approx(600.0));
    CHECK(r.resolved->site.electricityPriceUsdPerKwh == Approx(0.05));
    CHECK(r.resolved->provenance.at("/compute/gpu/tdp_w").origin == Provenance::Origin::User);
    CHECK(r.resolved->provenance.at("/compute/gpu/memory_gb").origin ==
          Provenance::Origin::Catalog);
}

TEST_CASE("A missing catalog id is an error listing the ids there are",
          "[model][resolve][bad-input]")
{
    json j = baseScenario();
    j["network"]["switch"] = "qm9999";
    auto r = resolveJson(j);
    CHECK_FALSE(r.resolved);
    REQUIRE(r.diagnostics.hasErrors());
    const Diagnostic& d = r.diagnostics.items().front();
    CHECK(d.path == "/network/switch");
    CHECK(d.code == "unknown-id");
    CHECK_THAT(d.hint, Catch::Contains("qm9700"));
    CHECK(d.file == "s.json");
}

TEST_CASE("An override of an unknown or invalid field is an error at its path",
          "[model][resolve][bad-input]")
{
    json j = baseScenario();
    j["compute"]["gpu"] = {{"id", "h100-sxm5"}, {"tdp_watts", 600}};
    auto r = resolveJson(j);
    CHECK_FALSE(r.resolved);
    CHECK(r.diagnostics.items().front().path == "/compute/gpu/tdp_watts");
    j["compute"]["gpu"] = {{"id", "h100-sxm5"}, {"tdp_w", -1}};
    r = resolveJson(j);
    CHECK_FALSE(r.resolved);
    CHECK(r.diagnostics.items().front().path == "/compute/gpu/tdp_w");
}

TEST_CASE("Impossible clusters are validation errors", "[model][validate]")
{
    SECTION("parallelism that does not tile the GPUs")
    {
        json j = baseScenario();
        j["workload"] = {{"tensor_parallel", 8}, {"pipeline_parallel", 1}, {"data_parallel", 3}};
        auto d = validateScenario(*resolveJson(j).resolved);
        CHECK(d.hasCode("parallelism"));
        CHECK(d.hasErrors());
        // No data-parallel size tiles the GPUs: the batch's split over one is not judged.
        j["workload"] = {
            {"tensor_parallel", 1}, {"pipeline_parallel", 3}, {"global_batch_sequences", 1001}};
        d = validateScenario(*resolveJson(j).resolved);
        CHECK(d.hasCode("parallelism"));
        CHECK_FALSE(d.hasCode("batch-split"));
    }
    SECTION("a node heavier than the rack power limit")
    {
        json j = baseScenario();
        j["facility"] = {{"rack_power_limit_kw", 5}};
        auto d = validateScenario(*resolveJson(j).resolved);
        CHECK(d.hasCode("rack-power"));
    }
    SECTION("a switch of the wrong protocol")
    {
        json j = baseScenario();
        j["network"]["protocol"] = "roce_v2";
        auto d = validateScenario(*resolveJson(j).resolved);
        CHECK(d.hasCode("protocol"));
    }
    SECTION("more endpoints than a 3-tier fat tree holds")
    {
        json j = baseScenario();
        j["compute"]["node_count"] = 20000; // 160k endpoints > 64^3/4 = 65,536
        auto d = validateScenario(*resolveJson(j).resolved);
        CHECK(d.hasCode("fabric-capacity"));
    }
    SECTION("an RDMA MTU that does not exist")
    {
        json j = baseScenario();
        j["network"]["mtu_bytes"] = 1500;
        auto d = validateScenario(*resolveJson(j).resolved);
        CHECK(d.hasCode("mtu"));
    }
    SECTION("in-network reduction asked of a switch that has none")
    {
        json j = baseScenario();
        j["network"]["in_network_reduction"] = true;
        CHECK_FALSE(validateScenario(*resolveJson(j).resolved).hasCode("in-network-reduction"));
        j["network"] = {{"switch", "sn5600"},
                        {"protocol", "roce_v2"},
                        {"nic", "connectx-7-400g"},
                        {"in_network_reduction", true}};
        auto d = validateScenario(*resolveJson(j).resolved);
        REQUIRE(d.hasCode("in-network-reduction"));
        for (const auto& item : d)
            if (item.code == "in-network-reduction") {
                CHECK(item.severity == Severity::Error);
                CHECK(item.path == "/network/in_network_reduction");
                CHECK(item.message.find("sn5600") != std::string::npos);
            }
    }
}

TEST_CASE("Every example resolves and validates without errors", "[model][validate][examples]")
{
    for (const auto& file : test::examples()) {
        INFO(file.string());
        auto read = readScenarioFile(file);
        REQUIRE_FALSE(read.diagnostics.hasErrors());
        auto r = resolveScenario(*read.scenario, test::catalog(), file.string());
        for (const auto& d : r.diagnostics)
            UNSCOPED_INFO(d.toString());
        REQUIRE(r.resolved);
        auto v = validateScenario(*r.resolved);
        for (const auto& d : v)
            UNSCOPED_INFO(d.toString());
        CHECK_FALSE(v.hasErrors());
    }
}

TEST_CASE("A GPU power limit outside the board's range is an error at its path",
          "[model][validate][power-limit]")
{
    json j = baseScenario();
    j["compute"]["gpu_power_limit_w"] = 800; // H100 SXM5: TDP 700 W
    auto d = validateScenario(*resolveJson(j).resolved);
    REQUIRE(d.hasCode("gpu-power-limit"));
    CHECK(d.hasErrors());
    CHECK(d.items().front().path == "/compute/gpu_power_limit_w");
    j["compute"]["gpu_power_limit_w"] = 60; // below its 72 W idle draw
    d = validateScenario(*resolveJson(j).resolved);
    CHECK(d.hasCode("gpu-power-limit"));
    j["compute"]["gpu_power_limit_w"] = 500;
    CHECK_FALSE(validateScenario(*resolveJson(j).resolved).hasCode("gpu-power-limit"));
    // A limit lowers the nameplate the rack power check reads: 10.2 kW less 8 x 0.2 kW.
    j["facility"] = {{"rack_power_limit_kw", 9}};
    CHECK_FALSE(validateScenario(*resolveJson(j).resolved).hasCode("rack-power"));
    j["compute"]["gpu_power_limit_w"] = 0;
    CHECK(validateScenario(*resolveJson(j).resolved).hasCode("rack-power"));
    // A negative limit is refused when the file is read.
    j["compute"]["gpu_power_limit_w"] = -5;
    CHECK(readScenario(j, "s.json").diagnostics.hasErrors());
}
