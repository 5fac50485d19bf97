// Optics and fiber bill of one NVIDIA DGX SuperPOD H100 scalable unit.
//
// Published figures: Vitex, "H100 SuperPOD Optics: a 256-GPU Fabric Case Study"
// (vitextech.com/blogs/case-studies/h100-superpod-optics-a-256-gpu-fabric-case-study), Table 1:
// the compute-fabric optics of one scalable unit (32 nodes x 8 ConnectX-7 at 400G, 8 QM9700
// leaves) are 256 single-port 400G OSFP modules at the NICs, 128 twin-port 800G OSFP modules in
// the leaf cages (16 per leaf, 2 x 400G each) and 256 MPO single-mode fiber runs (one per GPU).
// The leaf-spine side follows NVIDIA RA-11333-001 Table 4 (256 leaf-spine cables for one SU).
// Rack arrangement as the published SU wiring (shke.com.cn, "Understanding SuperPOD
// construction", Figure 1): eight racks of four nodes, four on either side of the leaf rack.
//
// The test offers the chooser the media that bill used (NVIDIA's single-mode DR4 family: the
// MMS4X00-NS400 single-port and MMS4X00-NS twin-port OSFP); what it checks is the counting: the
// model lays out the racks, runs every link, puts one module at each NIC and packs the leaf and
// spine ends two to a twin-port cage (QM9700: 32 cages of 2 x 400G). Nothing is looked up.

#include "dct/model/catalog.h"
#include "dct/model/resolver.h"
#include "dct/model/scenarioio.h"
#include "dct/solvers/networksolver.h"

#include <catch2/catch.hpp>
#include <fstream>
#include <string>

using namespace dct;
using namespace dct::solvers;

namespace {

model::ResolvedScenario scalableUnit()
{
    const auto catalog = model::Catalog::load(std::string(DCT_TEST_DATA_DIR) + "/catalog");
    REQUIRE(catalog);
    nlohmann::json doc = {
        {"schema_version", 2},
        {"name", "one SuperPOD scalable unit"},
        {"site", "frankfurt"},
        {"compute", {{"node", "hgx-h100"}, {"node_count", 32}}},
        {"network",
         {{"protocol", "infiniband"},
          {"topology", "rail_optimized"},
          {"tiers", 2},
          {"switch", "qm9700"},
          {"nic", "connectx-7-400g"},
          {"scalable_unit_nodes", 32}}},
        {"facility", {{"rack_power_limit_kw", 45}, {"racks_per_row", 8}}},
        {"hall", {{"network_placement", "middle_of_row"}}},
        {"cooling", {{"system", "d2c-rdhx"}}},
    };
    auto read = model::readScenario(doc);
    for (const auto& d : read.diagnostics)
        INFO(d.toString());
    REQUIRE_FALSE(read.diagnostics.hasErrors());
    auto resolved = model::resolveScenario(*read.scenario, *catalog);
    REQUIRE(resolved.resolved);
    model::ResolvedScenario r = *resolved.resolved;
    std::erase_if(r.cables, [](const model::CableSpec& c) {
        return c.id != "transceiver-400g-osfp-dr4" && c.id != "transceiver-800g-osfp-2xdr4";
    });
    REQUIRE(r.cables.size() == 2);
    return r;
}

} // namespace

TEST_CASE("SuperPOD H100 scalable unit optics (Vitex case study Table 1, RA-11333-001 Table 4)",
          "[validation][network][hall][superpod]")
{
    const model::ResolvedScenario r = scalableUnit();
    Diagnostics d;
    const NetworkResult n = solveNetwork(r, 1e9, d);
    REQUIRE(n.valid);
    const HallResult& h = n.hall;
    REQUIRE(h.valid);
    CHECK(h.nodesPerRack == 4);
    CHECK(h.computeRacks == 8);
    CHECK(h.linksBeyondReach == 0);

    long long nicModules = 0, nodeLeafFibers = 0, leafSpineFibers = 0, leafSpineModules = 0;
    long long nodeLeafModules = 0;
    for (const auto& l : h.bill) {
        INFO(hallLinkClassName(l.linkClass) << " " << l.cableId << " + " << l.switchModuleId);
        if (l.linkClass == HallLinkClass::NodeLeaf) {
            CHECK(l.cableId == "transceiver-400g-osfp-dr4");
            CHECK(l.switchModuleId == "transceiver-800g-osfp-2xdr4");
            nodeLeafFibers += l.cables;
            nicModules += l.links;
            nodeLeafModules += l.transceivers;
        } else {
            CHECK(l.switchModuleId == "transceiver-800g-osfp-2xdr4");
            leafSpineFibers += l.cables;
            leafSpineModules += l.transceivers;
        }
    }
    // Vitex Table 1: 256 NIC modules, 128 twin-port leaf modules, 256 fiber runs.
    CHECK(nicModules == 256);
    CHECK(nodeLeafModules - nicModules == 128);
    CHECK(nodeLeafFibers == 256);
    // RA-11333-001 Table 4: 256 leaf-spine cables for one SU; both ends in twin-port cages.
    CHECK(leafSpineFibers == 256);
    CHECK(leafSpineModules == 256);
}
