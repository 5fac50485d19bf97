// The hall's cables counted per rack pair in closed form (the evaluation's path) against the same
// links run one by one as the fabric graph wires them (the reference): every count, every rack,
// every bundle and every finding must agree, on each kind of fabric the model builds.
#include "dct/model/catalog.h"
#include "dct/model/resolver.h"
#include "dct/model/scenarioio.h"
#include "dct/solvers/fabricbuilder.h"
#include "dct/solvers/hallayout.h"
#include "dct/solvers/networksolver.h"
#include "testsupport.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <fstream>
#include <string>

using namespace dct;
using namespace dct::solvers;

namespace {

using test::catalog;

nlohmann::json exampleJson(const std::string& name)
{
    std::ifstream file(test::dataDir() / "examples" / name);
    REQUIRE(file);
    return nlohmann::json::parse(file);
}

model::ResolvedScenario resolve(const nlohmann::json& doc)
{
    auto read = model::readScenario(doc);
    REQUIRE(read.scenario);
    auto resolved = model::resolveScenario(*read.scenario, catalog());
    REQUIRE(resolved.resolved);
    return *resolved.resolved;
}

/** Sums agree to rounding: a product of a count and a length against the count's additions. */
bool close(double a, double b)
{
    return std::fabs(a - b) <= 1e-12 * std::max({1.0, std::fabs(a), std::fabs(b)});
}

struct Layouts
{
    HallResult fast;
    HallResult reference;
    Diagnostics fastFindings;
    Diagnostics referenceFindings;
};

Layouts layOut(const model::ResolvedScenario& r)
{
    Layouts out;
    Diagnostics scratch;
    const FabricPlan plan = planFabric(fabricSpec(r), scratch);
    REQUIRE(plan.valid);
    out.fast = layoutHall(r, plan, out.fastFindings, HallCabling::ByRackPair);
    out.reference = layoutHall(r, plan, out.referenceFindings, HallCabling::PerLink);
    return out;
}

/** Checks that the two layouts of \a r agree in every field; returns the links laid. */
long long checkSame(const model::ResolvedScenario& r)
{
    const Layouts l = layOut(r);
    const HallResult& a = l.fast;
    const HallResult& b = l.reference;
    REQUIRE(a.valid == b.valid);
    REQUIRE(a.valid);
    CHECK(a.computeRacks == b.computeRacks);
    CHECK(a.networkRacks == b.networkRacks);
    CHECK(a.mdaRacks == b.mdaRacks);
    CHECK(a.areaM2 == b.areaM2);
    REQUIRE(a.racks.size() == b.racks.size());
    for (std::size_t i = 0; i < a.racks.size(); ++i) {
        INFO("rack " << b.racks[i].name);
        CHECK(a.racks[i].name == b.racks[i].name);
        CHECK(a.racks[i].xM == b.racks[i].xM);
        CHECK(a.racks[i].yM == b.racks[i].yM);
        CHECK(a.racks[i].nodes == b.racks[i].nodes);
        CHECK(a.racks[i].leaves == b.racks[i].leaves);
        CHECK(a.racks[i].spines == b.racks[i].spines);
        CHECK(a.racks[i].cores == b.racks[i].cores);
        CHECK(a.racks[i].managerPorts == b.racks[i].managerPorts);
    }
    REQUIRE(a.rows.size() == b.rows.size());
    for (std::size_t i = 0; i < a.rows.size(); ++i)
        CHECK(a.rows[i].racks == b.rows[i].racks);
    REQUIRE(a.bill.size() == b.bill.size());
    for (std::size_t i = 0; i < a.bill.size(); ++i) {
        INFO("bill line " << i << " " << b.bill[i].cableId);
        CHECK(a.bill[i].linkClass == b.bill[i].linkClass);
        CHECK(a.bill[i].cableId == b.bill[i].cableId);
        CHECK(a.bill[i].switchModuleId == b.bill[i].switchModuleId);
        CHECK(a.bill[i].links == b.bill[i].links);
        CHECK(a.bill[i].cables == b.bill[i].cables);
        CHECK(a.bill[i].transceivers == b.bill[i].transceivers);
        CHECK(a.bill[i].maxLengthM == b.bill[i].maxLengthM);
        CHECK(close(a.bill[i].lengthM, b.bill[i].lengthM));
        CHECK(close(a.bill[i].powerW, b.bill[i].powerW));
        CHECK(close(a.bill[i].costUsd, b.bill[i].costUsd));
    }
    // The floor plan's bundles: the same pairs, in the same order, with the same links.
    REQUIRE(a.bundles.size() == b.bundles.size());
    for (std::size_t i = 0; i < a.bundles.size(); ++i) {
        INFO("bundle " << i);
        CHECK(a.bundles[i].linkClass == b.bundles[i].linkClass);
        CHECK(a.bundles[i].rackA == b.bundles[i].rackA);
        CHECK(a.bundles[i].rackB == b.bundles[i].rackB);
        CHECK(a.bundles[i].links == b.bundles[i].links);
        CHECK(a.bundles[i].lengthM == b.bundles[i].lengthM);
    }
    REQUIRE(a.classes.size() == b.classes.size());
    long long links = 0;
    for (std::size_t i = 0; i < a.classes.size(); ++i) {
        INFO("class " << hallLinkClassName(b.classes[i].linkClass));
        CHECK(a.classes[i].links == b.classes[i].links);
        CHECK(a.classes[i].maxLengthM == b.classes[i].maxLengthM);
        CHECK(close(a.classes[i].meanLengthM, b.classes[i].meanLengthM));
        CHECK(close(a.classes[i].meanLatencyNs, b.classes[i].meanLatencyNs));
        CHECK(a.classes[i].longestLink == b.classes[i].longestLink);
        links += b.classes[i].links;
    }
    CHECK(a.cables == b.cables);
    CHECK(a.transceivers == b.transceivers);
    CHECK(a.linksBeyondReach == b.linksBeyondReach);
    CHECK(close(a.cableLengthM, b.cableLengthM));
    CHECK(close(a.cablePowerW, b.cablePowerW));
    CHECK(close(a.cableCostUsd, b.cableCostUsd));
    // The same findings, word for word (the first link beyond reach is named).
    REQUIRE(l.fastFindings.size() == l.referenceFindings.size());
    auto x = l.fastFindings.begin();
    for (const Diagnostic& y : l.referenceFindings) {
        CHECK(x->code == y.code);
        CHECK(x->message == y.message);
        ++x;
    }
    return links;
}

} // namespace

TEST_CASE("Hall cables counted per rack pair match the per-link run on every example",
          "[hall][cabling]")
{
    for (const char* name :
         {"seed-h100-dallas-d2c.json", "multiplane-16k-h100.json", "dgx-superpod-4su.json",
          "gb200-nvl72-liquid.json", "legacy-air-h100-dallas.json"}) {
        INFO(name);
        CHECK(checkSame(resolve(exampleJson(name))) > 0);
    }
}

TEST_CASE("Hall cables per rack pair match per link: 2-tier, 3-tier and breakout fat trees",
          "[hall][cabling]")
{
    nlohmann::json doc = exampleJson("seed-h100-dallas-d2c.json");
    SECTION("2-tier, oversubscribed, end of row")
    {
        doc["compute"]["node_count"] = 96;
        doc["network"]["tiers"] = 2;
        doc["network"]["oversubscription"] = 3;
        doc["hall"]["network_placement"] = "end_of_row";
    }
    SECTION("3-tier of several pods, a partial last pod, central network racks")
    {
        doc["compute"]["node_count"] = 300;
        doc["network"]["tiers"] = 3;
        doc["hall"]["network_placement"] = "central";
    }
    SECTION("3-tier, middle of row, MDA in front")
    {
        doc["compute"]["node_count"] = 520;
        doc["network"]["tiers"] = 3;
        doc["hall"]["network_placement"] = "middle_of_row";
        doc["hall"]["mda_position"] = "front";
    }
    SECTION("800G switch ports broken out into 2 x 400G")
    {
        doc["compute"]["node_count"] = 512;
        doc["network"]["tiers"] = 0;
        doc["network"]["switch"] = "sn5600";
        doc["network"]["nic"] = "connectx-7-400g";
        doc["network"]["port_breakout"] = 2;
    }
    SECTION("Long rows: links beyond every catalog reach")
    {
        doc["hall"]["racks_per_row"] = 60;
        doc["hall"]["network_placement"] = "end_of_row";
    }
    const model::ResolvedScenario r = resolve(doc);
    CHECK(checkSame(r) > 0);
}

TEST_CASE("Hall cables per rack pair match per link: multi-plane and rail-optimized fabrics",
          "[hall][cabling]")
{
    SECTION("multi-plane, planes fewer than rails, 3 tiers")
    {
        nlohmann::json doc = exampleJson("multiplane-16k-h100.json");
        doc["compute"]["node_count"] = 700;
        doc["network"]["planes"] = 3;
        doc["network"]["tiers"] = 3;
        CHECK(checkSame(resolve(doc)) > 0);
    }
    SECTION("multi-plane, end of row, a rack of switches per plane")
    {
        nlohmann::json doc = exampleJson("multiplane-16k-h100.json");
        doc["compute"]["node_count"] = 1000;
        doc["hall"]["network_placement"] = "end_of_row";
        doc["hall"]["switches_per_network_rack"] = 5;
        CHECK(checkSame(resolve(doc)) > 0);
    }
    SECTION("rail-optimized, several scalable units, the fabric manager's ports")
    {
        nlohmann::json doc = exampleJson("dgx-superpod-4su.json");
        doc["compute"]["node_count"] = 100;
        CHECK(checkSame(resolve(doc)) > 0);
    }
    SECTION("rail-optimized, 3 tiers")
    {
        nlohmann::json doc = exampleJson("dgx-superpod-4su.json");
        doc["compute"]["node_count"] = 255;
        doc["network"]["tiers"] = 3;
        CHECK(checkSame(resolve(doc)) > 0);
    }
}
