#include "dct/model/catalog.h"
#include "dct/model/resolver.h"
#include "dct/model/scenarioio.h"
#include "dct/solvers/documentevaluation.h"
#include "dct/solvers/evaluator.h"
#include "dct/solvers/hallayout.h"
#include "dct/solvers/networksolver.h"
#include "dct/solvers/verdict.h"
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

TEST_CASE("The 16,384-GPU example's rows need optics: transceivers are counted", "[hall][layout]")
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

TEST_CASE("A big hall's rows stand in blocks side by side, the hall about square",
          "[hall][layout][blocks]")
{
    nlohmann::json doc = exampleJson("multiplane-16k-h100.json");
    Diagnostics d;
    const model::ResolvedScenario blocked = resolve(doc);
    const NetworkResult n = solveNetwork(blocked, 1e9, d);
    const HallResult& h = n.hall;
    REQUIRE(h.valid);
    // Derived: more than one block, the hall within 2:1 (one column of 52 rows was 17:1).
    CHECK(h.rowBlocks > 1);
    CHECK(std::max(h.widthM / h.depthM, h.depthM / h.widthM) < 2.0);
    // Blocks of 8-rack rows (4.8 m) with 1.2 m cross aisles and end aisles at both sides.
    const double blockWidthM = (h.rows.front().xEndM - h.rows.front().xM);
    CHECK(blockWidthM > 0.0);
    // No two racks overlap on the floor, and every rack stands inside the hall.
    for (std::size_t i = 0; i < h.racks.size(); ++i) {
        const HallRack& a = h.racks[i];
        CHECK(a.xM >= 0.0);
        CHECK(a.xM + h.rackWidthM <= h.widthM + 1e-9);
        CHECK(a.yM + h.rackDepthM <= h.depthM + 1e-9);
        if (i > 0) {
            const HallRack& b = h.racks[i - 1];
            const bool apart =
                a.xM + h.rackWidthM <= b.xM + 1e-9 || b.xM + h.rackWidthM <= a.xM + 1e-9 ||
                a.yM + h.rackDepthM <= b.yM + 1e-9 || b.yM + h.rackDepthM <= a.yM + 1e-9;
            CHECK(apart);
        }
    }
    // A run between two blocks follows the trays: its length is the drawn route's (plus the
    // vertical drops, slack and loops), and longer than the straight line between the racks.
    const HallRack* first = &h.racks.front();
    const HallRack* last = nullptr;
    for (const auto& r : h.racks)
        if (h.rows[static_cast<std::size_t>(r.row)].block != h.rows[0].block)
            last = &r;
    REQUIRE(last);
    const int ia = 0;
    const int ib = static_cast<int>(last - h.racks.data());
    const auto route = h.route(ia, ib);
    REQUIRE(route.size() >= 4);
    double routed = 0.0;
    for (std::size_t i = 1; i < route.size(); ++i)
        routed += std::fabs(route[i].first - route[i - 1].first) +
                  std::fabs(route[i].second - route[i - 1].second);
    CHECK(routed >= std::hypot(first->xM - last->xM, first->yM - last->yM));

    // One block, as before: the strip of 52 rows.
    doc["hall"]["row_blocks"] = 1;
    Diagnostics d1;
    const NetworkResult strip = solveNetwork(resolve(doc), 1e9, d1);
    REQUIRE(strip.hall.valid);
    CHECK(strip.hall.rowBlocks == 1);
    CHECK(strip.hall.depthM > 10.0 * strip.hall.widthM);
    CHECK(strip.hall.areaM2 < h.areaM2); // blocks cost the cross aisles
    // The blocked hall's longest leaf-spine run is shorter than the strip's.
    const HallClassSummary* up = h.summary(HallLinkClass::LeafSpine);
    const HallClassSummary* upStrip = strip.hall.summary(HallLinkClass::LeafSpine);
    REQUIRE(up);
    REQUIRE(upStrip);
    CHECK(up->maxLengthM < upStrip->maxLengthM);
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

TEST_CASE("A rack over its cooling is warned once, with the field to fix", "[hall][checks]")
{
    const DocumentEvaluation e = evaluateJson(exampleJson("overpacked-air-h100-dallas.json"));
    REQUIRE(e.evaluated());
    int warnings = 0;
    for (const auto& d : e.diagnostics)
        if (d.code == "rack-over-capacity" || d.code == "node-over-cooling-capacity" ||
            d.code == "hall-rack-over-cooling") {
            INFO(d.toString());
            ++warnings;
            CHECK_THAT(d.hint, Catch::Contains("/facility/rack_layout"));
        }
    CHECK(warnings == 1);
    // A network rack over its cooling is the hall's to name, with its own field.
    nlohmann::json doc = exampleJson("dgx-superpod-4su.json");
    doc["hall"]["switches_per_network_rack"] = 100;
    doc["hall"]["network_placement"] = "central";
    doc["cooling"]["system"] = "crac-air";
    doc["facility"]["rack_power_limit_kw"] = 60;
    const DocumentEvaluation central = evaluateJson(doc);
    const Diagnostic* d = findCode(central.diagnostics, "hall-rack-over-cooling");
    REQUIRE(d);
    CHECK_THAT(d->message, Catch::Contains("MDA1-01"));
    CHECK(d->path == "/hall/switches_per_network_rack");
}

TEST_CASE("A link beyond every medium's reach is a hard limit naming the link", "[hall][checks]")
{
    nlohmann::json doc = exampleJson("multiplane-16k-h100.json");
    doc["hall"]["rack_pitch_m"] = 3.0;
    doc["hall"]["racks_per_row"] = 40;
    doc["hall"]["mda_position"] = "front";
    model::ResolvedScenario r = resolve(doc);
    // A catalog without the long-reach single-mode optics (500 m DR4, 2 km FR4).
    std::erase_if(r.cables, [](const model::CableSpec& c) { return c.reachM > 100.0; });
    const Evaluation e = evaluate(r);
    const Diagnostic* d = findCode(e.diagnostics, "hall-link-beyond-reach");
    REQUIRE(d);
    CHECK(d->path == "/hall");
    // The first link beyond reach, both its ends and their racks.
    CHECK_THAT(d->message, Catch::Contains("link from a NIC in rack R01-") &&
                               Catch::Contains("to leaf") && Catch::Contains("in rack R"));
    CHECK(e.network.hall.linksBeyondReach > 0);
    CHECK(assessVerdict(e.diagnostics).feasibility == Feasibility::Infeasible);
}

namespace {

/** The 65,536-endpoint 3-tier fat tree of the hall benchmark (tests/bench/bench_hall.cpp). */
nlohmann::json fatTree65k()
{
    return {
        {"schema_version", 2},
        {"name", "65,536-endpoint 3-tier fat tree"},
        {"site", "frankfurt"},
        {"compute", {{"node", "hgx-h100"}, {"node_count", 8192}}},
        {"network",
         {{"protocol", "infiniband"},
          {"topology", "fat_tree"},
          {"tiers", 3},
          {"switch", "qm9700"},
          {"nic", "connectx-7-400g"}}},
        {"facility", {{"rack_power_limit_kw", 45}, {"racks_per_row", 16}}},
        {"hall", {{"network_placement", "middle_of_row"}}},
        {"cooling", {{"system", "d2c-rdhx"}}},
    };
}

const model::CableSpec& cableById(const model::ResolvedScenario& r, const std::string& id)
{
    const auto it = std::find_if(r.cables.begin(), r.cables.end(),
                                 [&](const model::CableSpec& c) { return c.id == id; });
    REQUIRE(it != r.cables.end());
    return *it;
}

} // namespace

TEST_CASE("The 65,536-endpoint 3-tier hall is cabled: single-mode optics on the long runs",
          "[hall][media][65k]")
{
    const model::ResolvedScenario r = resolve(fatTree65k());
    Diagnostics d;
    const NetworkResult n = solveNetwork(r, 1e9, d);
    REQUIRE(n.hall.valid);
    const HallResult& h = n.hall;
    CHECK(h.linksBeyondReach == 0);
    CHECK_FALSE(findCode(d, "hall-link-beyond-reach"));
    const HallClassSummary* core = h.summary(HallLinkClass::SpineCore);
    REQUIRE(core);
    // Beyond the 100 m of multimode SR and the short DR4: long-reach single mode carries them.
    CHECK(core->maxLengthM > 100.0);
    bool longReach = false;
    for (const auto& l : h.bill) {
        INFO(hallLinkClassName(l.linkClass) << " " << l.cableId << " + " << l.switchModuleId);
        REQUIRE_FALSE(l.cableId.empty());
        const model::CableSpec& c = cableById(r, l.cableId);
        CHECK(c.reachM >= l.maxLengthM - 1e-6); // the chooser allows rounding at the reach
        if (l.maxLengthM > 100.0) {
            CHECK(c.medium == model::CableMedium::Singlemode);
            CHECK(c.cableKind == model::CableKind::Transceiver);
            longReach = true;
        }
    }
    CHECK(longReach);
    CHECK(h.transceivers > 0);
}

TEST_CASE("A twin-port switch cage takes no single-port AOC: the SuperPOD buys optics",
          "[hall][media][superpod]")
{
    const DocumentEvaluation doc = evaluateJson(exampleJson("dgx-superpod-4su.json"));
    REQUIRE(doc.ok());
    const Evaluation& e = *doc.evaluation;
    const model::ResolvedScenario& r = *doc.resolved;
    REQUIRE(r.fabricSwitch.portsPerCage == 2);
    // NDR InfiniBand has no AOCs (NVIDIA DGX SuperPOD cabling guide): optics across the rows.
    CHECK(e.value("network.transceivers") > 0.0);
    for (const auto& l : e.network.hall.bill) {
        INFO(hallLinkClassName(l.linkClass) << " " << l.cableId << " + " << l.switchModuleId);
        REQUIRE_FALSE(l.cableId.empty());
        const model::CableSpec& c = cableById(r, l.cableId);
        CHECK(c.cableKind != model::CableKind::Aoc);
        CHECK(c.protocols != model::CableProtocols::Ethernet);
        if (c.cableKind == model::CableKind::Transceiver) {
            // The switch end is a twin-port module serving both ports of a cage.
            REQUIRE_FALSE(l.switchModuleId.empty());
            CHECK(cableById(r, l.switchModuleId).rateGbps == Approx(800.0));
        } else {
            // Copper into a twin-port cage: an 800G plug (splitter to the NICs or twin to twin).
            CHECK(c.rateGbps == Approx(800.0));
            CHECK(l.cables * 2 >= l.links);
        }
    }
}

TEST_CASE("The medium chooser fits the plug to the cage and the part to the protocol",
          "[hall][media]")
{
    const model::ResolvedScenario r = resolve(exampleJson("dgx-superpod-4su.json"));
    // 20 m from a NIC to a twin-port NDR cage: a single-port 400G AOC does not fit, and AOCs
    // are not sold for NDR; a NIC module and a twin-port module carry it.
    const MediumChoice twin = chooseMedium(
        r.cables, LinkSockets{400.0, true, 2, model::Protocol::Infiniband, 400.0, true}, 20.0);
    REQUIRE(twin.cable);
    CHECK(twin.cable->cableKind == model::CableKind::Transceiver);
    REQUIRE(twin.shared);
    CHECK(twin.shared->rateGbps == Approx(800.0));
    CHECK(twin.shared->optics == twin.cable->optics);
    // The same run between single-port 400GbE cages: the Ethernet AOC is the cheapest.
    const MediumChoice single =
        chooseMedium(r.cables, LinkSockets{400.0, true, 1, model::Protocol::RoceV2, 400.0}, 20.0);
    REQUIRE(single.cable);
    CHECK(single.cable->id == "aoc-400g");
    // Between switches 1.5 km apart, only the 2 km 2xFR4 twin-port module reaches.
    const MediumChoice far = chooseMedium(
        r.cables, LinkSockets{400.0, false, 2, model::Protocol::Infiniband, 400.0, true}, 1500.0);
    REQUIRE(far.cable);
    CHECK(far.cable->id == "transceiver-800g-osfp-2xfr4");
    CHECK(far.shared == far.cable);
    // 3 km: nothing.
    CHECK_FALSE(chooseMedium(r.cables,
                             LinkSockets{400.0, false, 2, model::Protocol::Infiniband, 400.0, true},
                             3000.0)
                    .cable);
}

TEST_CASE("A dense row exceeds the standard busway and the in-row CDU without row fields",
          "[hall][checks][rows]")
{
    nlohmann::json doc = exampleJson("dgx-superpod-4su.json");
    // 32 racks of about 41 kW in one row: 1.3 MW, over an 800 A, 415 V busway (460 kW) and a
    // 1 MW in-row CDU, though every rack is within its own feeds and cooling.
    doc["hall"]["racks_per_row"] = 40;
    const DocumentEvaluation e = evaluateJson(doc);
    REQUIRE(e.evaluated());
    // Assumed ratings: warnings naming the field that states the row's own.
    const Diagnostic* busway = findCode(e.diagnostics, "hall-row-over-assumed-busway");
    REQUIRE(busway);
    CHECK(busway->path == "/hall/row_busway_kw");
    CHECK_THAT(busway->message, Catch::Contains("460 kW") && Catch::Contains("R01"));
    const Diagnostic* cooling = findCode(e.diagnostics, "hall-row-over-assumed-cooling");
    REQUIRE(cooling);
    CHECK(cooling->path == "/hall/row_cooling_kw");
    CHECK_THAT(cooling->message, Catch::Contains("1000 kW"));
    CHECK_FALSE(findCode(e.diagnostics, "hall-rack-over-power"));
    CHECK(assessVerdict(e.diagnostics).feasibility == Feasibility::FeasibleWithWarnings);
    // Stated ratings are hard limits.
    doc["hall"]["row_busway_kw"] = 1000;
    doc["hall"]["row_cooling_kw"] = 600;
    const DocumentEvaluation stated = evaluateJson(doc);
    CHECK(findCode(stated.diagnostics, "hall-row-over-busway"));
    CHECK(findCode(stated.diagnostics, "hall-row-over-cooling"));
    CHECK(assessVerdict(stated.diagnostics).feasibility == Feasibility::Infeasible);
    doc["hall"]["row_busway_kw"] = 2000;
    doc["hall"]["row_cooling_kw"] = 2000;
    const DocumentEvaluation rated = evaluateJson(doc);
    CHECK_FALSE(findCode(rated.diagnostics, "hall-row-over-busway"));
    CHECK_FALSE(findCode(rated.diagnostics, "hall-row-over-cooling"));
    CHECK_FALSE(findCode(rated.diagnostics, "hall-row-over-assumed-busway"));
}

TEST_CASE("The fabric's cable metrics name the hall among their inputs", "[hall][metrics]")
{
    const DocumentEvaluation doc = evaluateJson(exampleJson("multiplane-16k-h100.json"));
    REQUIRE(doc.ok());
    int cableMetrics = 0;
    for (const auto& m : doc.evaluation->metrics) {
        if (m.key.rfind("network.cables_", 0) != 0 && m.key != "network.transceivers" &&
            m.key != "network.capex_usd")
            continue;
        INFO(m.key);
        ++cableMetrics;
        CHECK(std::find(m.inputs.begin(), m.inputs.end(), std::string("/hall")) != m.inputs.end());
        CHECK(std::find(m.inputs.begin(), m.inputs.end(),
                        std::string("/network/cable_length_in_row_m")) == m.inputs.end());
    }
    CHECK(cableMetrics >= 4);
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

TEST_CASE("Cable kinds are named as the catalog spells them", "[hall]")
{
    CHECK(std::string(dct::solvers::cableKindName(dct::model::CableKind::Dac)) == "dac");
    CHECK(std::string(dct::solvers::cableKindName(dct::model::CableKind::Aec)) == "aec");
    CHECK(std::string(dct::solvers::cableKindName(dct::model::CableKind::Aoc)) == "aoc");
    CHECK(std::string(dct::solvers::cableKindName(dct::model::CableKind::Transceiver)) ==
          "transceiver");
}
