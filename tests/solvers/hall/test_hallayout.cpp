#include "dct/model/catalog.h"
#include "dct/model/resolver.h"
#include "dct/model/scenarioio.h"
#include "dct/solvers/documentevaluation.h"
#include "dct/solvers/evaluator.h"
#include "dct/solvers/hallayout.h"
#include "dct/solvers/networksolver.h"
#include "dct/solvers/verdict.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <fstream>
#include <string>

using namespace dct;
using namespace dct::solvers;

namespace {

const model::Catalog& catalog()
{
    static const auto loaded = model::Catalog::load(std::string(DCT_TEST_DATA_DIR) + "/catalog");
    REQUIRE(loaded);
    return *loaded;
}

nlohmann::json exampleJson(const std::string& name)
{
    std::ifstream file(std::string(DCT_TEST_DATA_DIR) + "/examples/" + name);
    REQUIRE(file);
    return nlohmann::json::parse(file);
}

DocumentEvaluation evaluateJson(const nlohmann::json& doc)
{
    return evaluateDocument(doc, catalog(), "test.json");
}

model::ResolvedScenario resolve(const nlohmann::json& doc)
{
    auto read = model::readScenario(doc);
    REQUIRE(read.scenario);
    auto resolved = model::resolveScenario(*read.scenario, catalog());
    REQUIRE(resolved.resolved);
    return *resolved.resolved;
}

const Diagnostic* findCode(const Diagnostics& diagnostics, const std::string& code)
{
    for (const auto& d : diagnostics)
        if (d.code == code)
            return &d;
    return nullptr;
}

long long billLinks(const HallResult& h, HallLinkClass c)
{
    long long links = 0;
    for (const auto& l : h.bill)
        if (l.linkClass == c)
            links += l.links;
    return links;
}

} // namespace

TEST_CASE("The hall runs one cable per link of the fabric and places every switch",
          "[hall][layout]")
{
    for (const char* name : {"dgx-superpod-4su.json", "multiplane-16k-h100.json",
                             "gb200-nvl72-liquid.json", "seed-h100-dallas-d2c.json"}) {
        INFO(name);
        const model::ResolvedScenario r = resolve(exampleJson(name));
        Diagnostics d;
        const NetworkResult n = solveNetwork(r, 1e9, d);
        REQUIRE(n.valid);
        const HallResult& h = n.hall;
        REQUIRE(h.valid);
        CHECK(billLinks(h, HallLinkClass::NodeLeaf) == n.topology.endpointLinks);
        CHECK(billLinks(h, HallLinkClass::LeafSpine) + billLinks(h, HallLinkClass::SpineCore) ==
              n.topology.switchLinks);
        long long leaves = 0, spines = 0, cores = 0, nodes = 0;
        for (const auto& rack : h.racks) {
            leaves += rack.leaves;
            spines += rack.spines;
            cores += rack.cores;
            nodes += rack.nodes;
        }
        CHECK(leaves == n.topology.tier(FabricTier::Leaf).switches);
        CHECK(spines == n.topology.tier(FabricTier::Spine).switches);
        CHECK(cores == n.topology.tier(FabricTier::Core).switches);
        CHECK(nodes == r.scenario.compute.nodeCount);
        // The fabric is priced by the hall's bill.
        CHECK(n.topology.cableCostUsd == Approx(h.cableCostUsd).epsilon(1e-12));
        // No two racks overlap on the floor.
        for (std::size_t i = 1; i < h.racks.size(); ++i)
            CHECK_FALSE((h.racks[i].row == h.racks[i - 1].row &&
                         h.racks[i].position == h.racks[i - 1].position));
    }
}

TEST_CASE("The 16,384-GPU example's 35 rows need optics: transceivers are counted",
          "[hall][layout]")
{
    const DocumentEvaluation doc = evaluateJson(exampleJson("multiplane-16k-h100.json"));
    REQUIRE(doc.ok());
    const Evaluation& e = *doc.evaluation;
    CHECK(e.network.hall.computeRows >= 20);
    CHECK(e.value("network.transceivers") > 0.0);
    CHECK(e.value("hall.transceivers") == e.value("network.transceivers"));
    // The leaf-spine runs cross the hall to the MDA: longer than any copper reaches (7 m).
    const HallClassSummary* up = e.network.hall.summary(HallLinkClass::LeafSpine);
    REQUIRE(up);
    CHECK(up->maxLengthM > 7.0);
}

TEST_CASE("Cable media follow reach: copper in the rack, optics across the hall", "[hall][media]")
{
    nlohmann::json doc = exampleJson("seed-h100-dallas-d2c.json");
    // One node per rack, its leaf at the end of a long row: the last racks need optics.
    doc["hall"]["racks_per_row"] = 60;
    const model::ResolvedScenario r = resolve(doc);
    Diagnostics d;
    const NetworkResult n = solveNetwork(r, 1e9, d);
    REQUIRE(n.hall.valid);
    double copperMax = 0.0, opticsMin = 1e9;
    for (const auto& l : n.hall.bill) {
        if (l.cableKind == "dac" || l.cableKind == "aec")
            copperMax = std::max(copperMax, l.maxLengthM);
        else if (!l.cableId.empty())
            opticsMin = std::min(opticsMin, l.lengthM / static_cast<double>(l.links));
    }
    CHECK(copperMax <= 7.0);
    CHECK(opticsMin > 2.0);
    // Each medium on the bill reaches its longest link.
    for (const auto& l : n.hall.bill) {
        if (l.cableId.empty())
            continue;
        const auto it = std::find_if(r.cables.begin(), r.cables.end(),
                                     [&](const model::CableSpec& c) { return c.id == l.cableId; });
        REQUIRE(it != r.cables.end());
        CHECK(l.maxLengthM <= it->reachM);
    }
}

TEST_CASE("Middle-of-row network racks shorten the longest node-to-leaf run", "[hall][layout]")
{
    nlohmann::json doc = exampleJson("multiplane-16k-h100.json");
    doc["hall"]["network_placement"] = "end_of_row";
    const model::ResolvedScenario endOfRow = resolve(doc);
    doc["hall"]["network_placement"] = "middle_of_row";
    const model::ResolvedScenario middle = resolve(doc);
    Diagnostics d;
    const HallResult a = solveNetwork(endOfRow, 1e9, d).hall;
    const HallResult b = solveNetwork(middle, 1e9, d).hall;
    REQUIRE(a.summary(HallLinkClass::NodeLeaf));
    REQUIRE(b.summary(HallLinkClass::NodeLeaf));
    CHECK(b.summary(HallLinkClass::NodeLeaf)->maxLengthM <
          a.summary(HallLinkClass::NodeLeaf)->maxLengthM);
}

TEST_CASE("Longer cable runs raise the collectives' latency through the hall hook",
          "[hall][collectives]")
{
    nlohmann::json doc = exampleJson("multiplane-16k-h100.json");
    const model::ResolvedScenario tight = resolve(doc);
    doc["hall"]["rack_pitch_m"] = 2.5;
    doc["hall"]["cold_aisle_m"] = 4.0;
    const model::ResolvedScenario sparse = resolve(doc);
    Diagnostics d;
    const NetworkResult a = solveNetwork(tight, 1e9, d);
    const NetworkResult b = solveNetwork(sparse, 1e9, d);
    CHECK(b.fabricAlphaUs > a.fabricAlphaUs);
    CHECK(b.worldInputs.cableAcrossRowsM > a.worldInputs.cableAcrossRowsM);
    CHECK(a.worldInputs.cableInRowM ==
          Approx(a.hall.summary(HallLinkClass::NodeLeaf)->meanLengthM +
                 a.hall.summary(HallLinkClass::NodeLeaf)->meanLatencyNs / 5.0)
              .epsilon(1e-9));
}

TEST_CASE("Typical cable lengths keep the network section's two lengths", "[hall][layout]")
{
    nlohmann::json doc = exampleJson("dgx-superpod-4su.json");
    doc["hall"]["cable_lengths"] = "typical";
    const model::ResolvedScenario r = resolve(doc);
    Diagnostics d;
    const NetworkResult n = solveNetwork(r, 1e9, d);
    REQUIRE(n.hall.valid);
    CHECK_FALSE(n.hall.pricesFabric);
    REQUIRE(n.topology.cables.size() == 2);
    CHECK(n.topology.cables[0].lengthM == r.scenario.network.cableLengthInRowM);
    CHECK(n.worldInputs.cableInRowM == r.scenario.network.cableLengthInRowM);
}

TEST_CASE("A row over its busway is a hard limit naming the row and the field", "[hall][checks]")
{
    nlohmann::json doc = exampleJson("dgx-superpod-4su.json");
    doc["hall"]["row_busway_kw"] = 100;
    const DocumentEvaluation e = evaluateJson(doc);
    REQUIRE(e.evaluated());
    const Diagnostic* d = findCode(e.diagnostics, "hall-row-over-busway");
    REQUIRE(d);
    CHECK(d->path == "/hall/row_busway_kw");
    CHECK_THAT(d->message, Catch::Contains("R01"));
    CHECK(assessVerdict(e.diagnostics).feasibility == Feasibility::Infeasible);
}

TEST_CASE("A hall larger than its floor is a hard limit", "[hall][checks]")
{
    nlohmann::json doc = exampleJson("dgx-superpod-4su.json");
    doc["hall"]["floor_area_m2"] = 50;
    const DocumentEvaluation e = evaluateJson(doc);
    const Diagnostic* d = findCode(e.diagnostics, "hall-over-floor-area");
    REQUIRE(d);
    CHECK(d->path == "/hall/floor_area_m2");
    CHECK(assessVerdict(e.diagnostics).feasibility == Feasibility::Infeasible);
    doc["hall"]["floor_area_m2"] = 100000;
    CHECK_FALSE(findCode(evaluateJson(doc).diagnostics, "hall-over-floor-area"));
}

TEST_CASE("A network rack over its feeds names the rack", "[hall][checks]")
{
    nlohmann::json doc = exampleJson("dgx-superpod-4su.json");
    // All 48 QM9700 (747 W each) in one central rack: 36 kW against 30 kW feeds.
    doc["hall"]["switches_per_network_rack"] = 100;
    doc["hall"]["network_placement"] = "central";
    doc["facility"]["rack_power_limit_kw"] = 30;
    const DocumentEvaluation e = evaluateJson(doc);
    const Diagnostic* d = findCode(e.diagnostics, "hall-rack-over-power");
    REQUIRE(d);
    CHECK(d->path == "/facility/rack_power_limit_kw");
    CHECK_THAT(d->message, Catch::Contains("MDA1-01"));
}

TEST_CASE("A rack over its cooling names the rack", "[hall][checks]")
{
    nlohmann::json doc = exampleJson("overpacked-air-h100-dallas.json");
    const DocumentEvaluation e = evaluateJson(doc);
    REQUIRE(e.evaluated());
    const Diagnostic* d = findCode(e.diagnostics, "hall-rack-over-cooling");
    REQUIRE(d);
    CHECK_THAT(d->message, Catch::Contains("R01-01"));
}

TEST_CASE("A link beyond every medium's reach is a hard limit naming the link", "[hall][checks]")
{
    nlohmann::json doc = exampleJson("multiplane-16k-h100.json");
    doc["hall"]["rack_pitch_m"] = 3.0;
    doc["hall"]["racks_per_row"] = 40;
    doc["hall"]["mda_position"] = "front";
    const DocumentEvaluation e = evaluateJson(doc);
    REQUIRE(e.evaluated());
    const Diagnostic* d = findCode(e.diagnostics, "hall-link-beyond-reach");
    REQUIRE(d);
    CHECK(d->path == "/hall");
    // The first link beyond reach, both its ends and their racks.
    CHECK_THAT(d->message, Catch::Contains("link from a NIC in rack R01-") &&
                               Catch::Contains("to leaf") && Catch::Contains("in rack R"));
    CHECK(e.evaluation->network.hall.linksBeyondReach > 0);
    CHECK(assessVerdict(e.diagnostics).feasibility == Feasibility::Infeasible);
}

TEST_CASE("Rows that cannot hold the racks are an error of /hall/rows", "[hall][checks]")
{
    nlohmann::json doc = exampleJson("dgx-superpod-4su.json");
    doc["hall"]["rows"] = 1;
    doc["hall"]["racks_per_row"] = 4;
    const DocumentEvaluation e = evaluateJson(doc);
    const Diagnostic* d = findCode(e.diagnostics, "hall-racks-do-not-fit");
    REQUIRE(d);
    CHECK(d->path == "/hall/rows");
    CHECK(d->severity == Severity::Error);
}

TEST_CASE("Every hall field is optional and bad values name their pointer", "[hall][fields]")
{
    nlohmann::json doc = exampleJson("dgx-superpod-4su.json");
    doc.erase("hall");
    CHECK(evaluateJson(doc).ok());
    doc["hall"] = {{"network_placement", "somewhere"}};
    const DocumentEvaluation bad = evaluateJson(doc);
    REQUIRE(bad.diagnostics.hasErrors());
    bool named = false;
    for (const auto& d : bad.diagnostics)
        named |= d.path == "/hall/network_placement" &&
                 (d.message + d.hint).find("end_of_row") != std::string::npos;
    CHECK(named);
}
