// The hall's cooling units and MDA room on the floor: CDUs counted as the cooling plant counts
// them, room air units for an air hall, rear doors as rack depth, the walled MDA room and how
// its position moves the runs.
#include "dct/model/catalog.h"
#include "dct/model/resolver.h"
#include "dct/model/scenarioio.h"
#include "dct/solvers/documentevaluation.h"
#include "dct/solvers/evaluator.h"
#include "dct/solvers/hallayout.h"
#include "testsupport.h"

#include <catch2/catch.hpp>
#include <cmath>
#include <fstream>
#include <map>
#include <string>
#include <vector>

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

const Diagnostic* findCode(const Diagnostics& diagnostics, const std::string& code)
{
    for (const auto& d : diagnostics)
        if (d.code == code)
            return &d;
    return nullptr;
}

int unitsOf(const HallResult& h, HallUnitKind kind)
{
    int n = 0;
    for (const HallUnit& u : h.units)
        n += u.kind == kind ? 1 : 0;
    return n;
}

/** Checks that every unit stands on the floor and overlaps no rack. */
void checkOnFloor(const HallResult& h)
{
    for (const HallUnit& u : h.units) {
        INFO(u.name);
        CHECK(u.xM >= -1e-9);
        CHECK(u.yM >= -1e-9);
        CHECK(u.xM + u.widthM <= h.widthM + 1e-9);
        CHECK(u.yM + u.depthM <= h.depthM + 1e-9);
        for (const HallRack& r : h.racks) {
            const bool apart = u.xM + u.widthM <= r.xM + 1e-9 ||
                               r.xM + h.rackWidthM <= u.xM + 1e-9 ||
                               u.yM + u.depthM <= r.yM + 1e-9 || r.yM + h.rackDepthM <= u.yM + 1e-9;
            if (!apart)
                FAIL_CHECK(u.name << " overlaps rack " << r.name);
        }
    }
}

} // namespace

TEST_CASE("CDUs stand at the row ends, as many as the cooling plant installs", "[hall][units]")
{
    for (const char* name : {"seed-h100-dallas-d2c.json", "multiplane-16k-h100.json"}) {
        INFO(name);
        const DocumentEvaluation e = evaluateJson(exampleJson(name));
        REQUIRE(e.evaluated());
        const Evaluation& ev = *e.evaluation;
        const HallResult& h = ev.network.hall;
        REQUIRE(h.valid);
        // One sizing: the floor's CDUs are those the redundancy design installs, the CDUs that
        // carry the loop (designCduCount) and the spare of the default N+1.
        REQUIRE(ev.cooling.cduCount > 0);
        CHECK(ev.redundancy.cdus.requiredUnits == ev.cooling.cduCount);
        CHECK(h.cdus == ev.redundancy.cdus.installedUnits);
        CHECK(h.cdus == ev.cooling.cduCount + 1);
        CHECK(unitsOf(h, HallUnitKind::Cdu) == h.cdus);
        CHECK(unitsOf(h, HallUnitKind::Crah) == 0);
        CHECK(h.cduCapacityKw == Approx(1350.0));
        // The rear door of d2c-rdhx adds its depth to every rack.
        CHECK(h.rdhxDepthM == Approx(0.25));
        CHECK(h.rackDepthM == Approx(1.2 + 0.25));
        for (const HallUnit& u : h.units) {
            INFO(u.name);
            REQUIRE(u.row >= 0);
            const HallRow& row = h.rows[static_cast<std::size_t>(u.row)];
            CHECK_FALSE(row.mda);
            CHECK(u.xM >= row.xEndM - 1e-9); // after the row's last rack
            CHECK(u.yM == Approx(row.yM));
            CHECK(u.widthM == Approx(1.2));
            CHECK(u.serves.find("rows R") == 0);
        }
        checkOnFloor(h);
        // The seed's one row has its CDU; the 16k example's plant counts its CDUs for one loop,
        // but its five blocks each feed their own: the blocks given fewer than their heat needs
        // (largest remainder) are named, with the rows short.
        const Diagnostic* shortRows = findCode(e.diagnostics, "hall-row-over-cdu");
        if (std::string(name) == "seed-h100-dallas-d2c.json") {
            CHECK(shortRows == nullptr);
        } else {
            REQUIRE(shortRows);
            CHECK_THAT(shortRows->message,
                       Catch::Contains("block ") && Catch::Contains("CDU(s) of 1350 kW"));
        }
    }
    // The seed: 32 nodes in one row, 266 kW on cold plates: one CDU carries it and the spare of
    // N+1 stands beside it, both at the end of R01.
    const DocumentEvaluation seed = evaluateJson(exampleJson("seed-h100-dallas-d2c.json"));
    const HallResult& s = seed.evaluation->network.hall;
    REQUIRE(s.units.size() == 2);
    CHECK(s.units[0].name == "CDU01");
    CHECK(s.units[1].name == "CDU02");
    for (const HallUnit& u : s.units)
        CHECK(s.rows[static_cast<std::size_t>(u.row)].name == "R01");
    // The 16k example: 35 rows in 5 blocks; the CDUs over the blocks by their racks.
    const DocumentEvaluation big = evaluateJson(exampleJson("multiplane-16k-h100.json"));
    const HallResult& b = big.evaluation->network.hall;
    CHECK(b.rowBlocks == 5);
    std::vector<int> perBlock(static_cast<std::size_t>(b.rowBlocks), 0);
    for (const HallUnit& u : b.units)
        perBlock[static_cast<std::size_t>(u.block)] += 1;
    for (const int n : perBlock)
        CHECK(n >= b.cdus / b.rowBlocks);
}

TEST_CASE("The floor draws the spare CDUs cdu_redundancy asks for", "[hall][units]")
{
    nlohmann::json doc = exampleJson("seed-h100-dallas-d2c.json");
    const DocumentEvaluation base = evaluateJson(doc);
    REQUIRE(base.evaluated());
    const int carrying = base.evaluation->cooling.cduCount;
    REQUIRE(carrying > 0);
    struct Case
    {
        const char* redundancy;
        int installed;
    };
    for (const Case& c : {Case{"N", carrying}, Case{"N+1", carrying + 1}, Case{"N+2", carrying + 2},
                          Case{"2N", 2 * carrying}}) {
        INFO(c.redundancy);
        doc["cooling"]["cdu_redundancy"] = c.redundancy;
        const DocumentEvaluation e = evaluateJson(doc);
        REQUIRE(e.evaluated());
        const HallResult& h = e.evaluation->network.hall;
        CHECK(h.cdus == c.installed);
        CHECK(unitsOf(h, HallUnitKind::Cdu) == c.installed);
        CHECK(h.cdus == e.evaluation->redundancy.cdus.installedUnits);
        // The same cold-plate heat, shared by every unit standing on the floor.
        double loadKw = 0.0;
        for (const HallUnit& u : h.units)
            if (u.kind == HallUnitKind::Cdu) {
                loadKw += u.loadKw;
                CHECK(u.loadKw == Approx(h.units.front().loadKw));
            }
        double baseKw = 0.0;
        for (const HallUnit& u : base.evaluation->network.hall.units)
            baseKw += u.loadKw;
        CHECK(loadKw == Approx(baseKw));
    }
}

TEST_CASE("An air hall's room units stand along the side walls and widen the hall", "[hall][units]")
{
    const nlohmann::json doc = exampleJson("legacy-air-h100-dallas.json");
    const DocumentEvaluation e = evaluateJson(doc);
    REQUIRE(e.evaluated());
    const HallResult& h = e.evaluation->network.hall;
    REQUIRE(h.valid);
    // Count from the air-side heat at full clocks over the catalog's 29 kW unit.
    const double itDesignKw = e.evaluation->power.itDesignPowerKw;
    CHECK(h.crahs == static_cast<int>(std::ceil(itDesignKw / 29.0 - 1e-9)));
    CHECK(h.crahs > 0);
    CHECK(unitsOf(h, HallUnitKind::Crah) == h.crahs);
    CHECK(h.cdus == 0);
    CHECK(h.rdhxDepthM == 0.0);
    int left = 0, right = 0;
    for (const HallUnit& u : h.units) {
        CHECK(u.widthM == Approx(0.9)); // out from the wall
        CHECK(u.depthM == Approx(1.2)); // along it
        left += u.xM == 0.0 ? 1 : 0;
        right += std::fabs(u.xM + u.widthM - h.widthM) < 1e-9 ? 1 : 0;
        CHECK(u.loadKw > 0.0);
        CHECK(u.loadKw <= u.capacityKw + 1e-9);
    }
    CHECK(left + right == h.crahs);
    CHECK(left - right <= 1);
    checkOnFloor(h);
    // The units take floor: the rows start beyond them.
    for (const HallRow& row : h.rows)
        CHECK(row.xM >= 0.9 + 1.2 - 1e-9);
    CHECK(findCode(e.diagnostics, "hall-over-room-units") == nullptr);
}

TEST_CASE("A block whose CDUs cannot carry its rows' heat names the rows", "[hall][units][checks]")
{
    // The seed on 100 kW CDUs without spares (N) over four blocks of rows: a block of the rows
    // short of its share.
    nlohmann::json doc = exampleJson("seed-h100-dallas-d2c.json");
    doc["cooling"]["system"] = {{"id", "d2c-rdhx"}, {"cdu_capacity_kw", 100}};
    doc["cooling"]["cdu_redundancy"] = "N";
    doc["hall"]["racks_per_row"] = 2;
    doc["hall"]["row_blocks"] = 4;
    const DocumentEvaluation e = evaluateJson(doc);
    REQUIRE(e.evaluated());
    const HallResult& h = e.evaluation->network.hall;
    CHECK(h.cdus == e.evaluation->cooling.cduCount);
    CHECK(h.cdus == 3);
    CHECK(h.rowBlocks == 4);
    const Diagnostic* d = findCode(e.diagnostics, "hall-row-over-cdu");
    REQUIRE(d);
    CHECK(d->path == "/cooling/system");
    CHECK_THAT(d->message, Catch::Contains("R0") && Catch::Contains("block ") &&
                               Catch::Contains("CDU(s) of 100 kW"));
    CHECK_THAT(d->hint, Catch::Contains("cdu_capacity_kw"));
    // The same hall in one block shares its three CDUs: no row short.
    doc["hall"]["row_blocks"] = 1;
    const DocumentEvaluation one = evaluateJson(doc);
    CHECK(findCode(one.diagnostics, "hall-row-over-cdu") == nullptr);
}

TEST_CASE("The MDA is a walled room, and its position moves the runs to it", "[hall][mda]")
{
    nlohmann::json doc = exampleJson("multiplane-16k-h100.json");
    std::map<std::string, double> leafSpine;
    for (const char* position : {"center", "front", "back", "side"}) {
        INFO(position);
        doc["hall"]["mda_position"] = position;
        const DocumentEvaluation e = evaluateJson(doc);
        REQUIRE(e.evaluated());
        const HallResult& h = e.evaluation->network.hall;
        REQUIRE(h.mdaRoom.present);
        CHECK(h.mdaRoom.position == position);
        const HallRoom& m = h.mdaRoom;
        CHECK(m.xM >= -1e-9);
        CHECK(m.xM + m.widthM <= h.widthM + 1e-9);
        CHECK(m.yM + m.depthM <= h.depthM + 1e-9);
        // Every MDA rack inside the room's walls, and no other rack.
        int inside = 0;
        for (const HallRack& r : h.racks) {
            const bool in = r.xM >= m.xM + m.wallM - 1e-9 &&
                            r.xM + h.rackWidthM <= m.xM + m.widthM - m.wallM + 1e-9 &&
                            r.yM >= m.yM + m.wallM - 1e-9 &&
                            r.yM + h.rackDepthM <= m.yM + m.depthM - m.wallM + 1e-9;
            CHECK(in == (r.kind == HallRackKind::Mda));
            inside += in ? 1 : 0;
        }
        CHECK(inside == h.mdaRacks);
        if (std::string(position) == "front")
            CHECK(m.yM == 0.0);
        if (std::string(position) == "back")
            CHECK(m.yM + m.depthM == Approx(h.depthM));
        if (std::string(position) == "side")
            CHECK(m.xM + m.widthM == Approx(h.widthM));
        REQUIRE(h.summary(HallLinkClass::LeafSpine));
        leafSpine[position] = h.summary(HallLinkClass::LeafSpine)->meanLengthM;
    }
    // The 2-tier fabric's spines stand in the room: its position moves every leaf-spine run.
    // (Between blocks the runs follow the trays along the front and back aisles, so a room
    // against one of those is no farther than one across the middle of the middle block.)
    for (const char* a : {"center", "front", "back", "side"})
        for (const char* b : {"center", "front", "back", "side"})
            if (std::string(a) < std::string(b))
                CHECK(std::fabs(leafSpine[a] - leafSpine[b]) > 0.1);
    doc["hall"]["mda_position"] = "center";
    const HallResult center = evaluateJson(doc).evaluation->network.hall;
    doc["hall"]["mda_position"] = "front";
    const HallResult front = evaluateJson(doc).evaluation->network.hall;
    CHECK(front.summary(HallLinkClass::LeafSpine)->meanLengthM == Approx(leafSpine["front"]));
    // The room at the front wall: the rows start behind it.
    for (const HallRow& row : front.rows)
        if (!row.mda)
            CHECK(row.yM >= front.mdaRoom.depthM + 1.2 - 1e-9);
    // In the middle, the room spans the middle block.
    bool inBlock = false;
    for (const HallRow& row : center.rows)
        inBlock |= !row.mda && row.block == (center.rowBlocks - 1) / 2 &&
                   std::fabs(row.xM - center.mdaRoom.xM) < 1e-9;
    CHECK(inBlock);
}

TEST_CASE("Bad floor-unit and MDA fields are errors naming the JSON path", "[hall][mda][input]")
{
    nlohmann::json doc = exampleJson("multiplane-16k-h100.json");
    doc["hall"]["mda_position"] = "north";
    auto read = model::readScenario(doc);
    CHECK(read.diagnostics.hasErrors());
    bool named = false;
    for (const auto& d : read.diagnostics)
        if (d.path == "/hall/mda_position") {
            named = true;
            CHECK_THAT(d.hint, Catch::Contains("'center'") && Catch::Contains("'front'") &&
                                   Catch::Contains("'back'") && Catch::Contains("'side'"));
        }
    CHECK(named);
    // A catalog override of a unit's footprint out of range.
    doc["hall"]["mda_position"] = "side";
    doc["cooling"]["system"] = {{"id", "d2c-rdhx"}, {"cdu_width_m", -1}};
    const DocumentEvaluation e = evaluateJson(doc);
    CHECK_FALSE(e.evaluated());
    bool widthNamed = false;
    for (const auto& d : e.diagnostics)
        widthNamed |= d.path.find("cdu_width_m") != std::string::npos;
    CHECK(widthNamed);
}
