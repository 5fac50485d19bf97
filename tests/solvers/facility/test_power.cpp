#include "dct/solvers/coolingsolver.h"
#include "dct/solvers/evaluator.h"
#include "dct/solvers/powersolver.h"
#include "facilitysupport.h"

#include <cstring>

using namespace dct;
using namespace dct::solvers;

TEST_CASE("GPU power: idle + utilization x (TDP - idle) x clock V^2, the voltage tracking the "
          "clock down to its floor at 0.8",
          "[power]")
{
    model::GpuSpec gpu;
    gpu.tdpW = 700.0;
    gpu.idleW = 70.0;
    CHECK(gpuPowerW(gpu, 0.85, 1.0) == Approx(70.0 + 0.85 * 630.0).epsilon(1e-12));
    CHECK(gpuPowerW(gpu, 0.0, 1.0) == Approx(70.0).epsilon(1e-12));
    // Above the floor the dynamic power goes as the cube of the clock ...
    CHECK(gpuPowerW(gpu, 1.0, 0.9) == Approx(70.0 + 630.0 * 0.729).epsilon(1e-12));
    // ... at the floor the two laws meet, and below it the power falls as the clock alone.
    CHECK(gpuPowerW(gpu, 1.0, 0.8) == Approx(70.0 + 630.0 * 0.512).epsilon(1e-12));
    CHECK(gpuPowerW(gpu, 1.0, 0.5) == Approx(70.0 + 630.0 * 0.5 * 0.64).epsilon(1e-12));
    CHECK(gpuPowerW(gpu, 1.0, 0.0) == Approx(70.0).epsilon(1e-12));
    // The inverse gives the clock back on both sides of the floor.
    for (const double c : {0.3, 0.5, 0.79, 0.8, 0.81, 0.95, 1.0})
        CHECK(clockFactorForGpuPowerW(gpu, 0.85, gpuPowerW(gpu, 0.85, c)) ==
              Approx(c).epsilon(1e-12));
    CHECK(clockFactorForGpuPowerW(gpu, 1.0, 800.0) == 1.0);
    CHECK(clockFactorForGpuPowerW(gpu, 1.0, 60.0) == 0.0);
}

TEST_CASE("Power-chain stage loss: no-load + proportional + square law at the load fraction",
          "[power]")
{
    // 500 kW rated at 400 kW load: f = 0.8; 500 x (0.01 + 0.02 x 0.8 + 0.01 x 0.64) = 16.2 kW.
    CHECK(stageLossKw(400.0, 500.0, 0.01, 0.02, 0.01) == Approx(16.2).epsilon(1e-12));
    CHECK(stageLossKw(0.0, 500.0, 0.01, 0.02, 0.01) == Approx(5.0).epsilon(1e-12));
}

TEST_CASE("Seed case: IT power from the nodes at their utilization, racks and floor follow",
          "[power]")
{
    const auto r = test::resolvedExample("seed-h100-dallas-d2c");
    Diagnostics d;
    PowerInputs in;
    in.networkPowerKw = 9.0;
    const PowerResult p = solvePower(r, in, d);
    const double gpuW = r.gpu.idleW + r.scenario.compute.utilization * (r.gpu.tdpW - r.gpu.idleW);
    const double nodeKw = r.node.basePowerKw + r.gpusPerNode * gpuW / 1000.0;
    CHECK(p.nodePowerKw == Approx(nodeKw).epsilon(1e-12));
    CHECK(p.itPowerKw == Approx(32 * nodeKw + 9.0 + r.scenario.storage.powerKw).epsilon(1e-12));
    // An 8-GPU H100 chassis stays under its nameplate (seed: up to 10 kW).
    CHECK(p.nodePowerKw < r.node.maxPowerKw);
    // 50 kW feeds / 10 kW nameplate = 5 nodes; 42U / 8U = 5 nodes; D2C+RDHx holds the heat.
    CHECK(p.nodesPerRack == std::min(static_cast<int>(50.0 / r.node.maxPowerKw),
                                     r.scenario.facility.rackUnits / r.node.heightU));
    CHECK(p.racks == (32 + p.nodesPerRack - 1) / p.nodesPerRack);
    CHECK(p.racksOverCapacity == 0);
    CHECK(p.floorM2 == Approx(p.racks * r.scenario.facility.floorM2PerRack).epsilon(1e-12));
    CHECK(p.rows ==
          (p.racks + r.scenario.facility.racksPerRow - 1) / r.scenario.facility.racksPerRow);
    CHECK_FALSE(d.hasCode("rack-over-capacity"));
}

TEST_CASE("Air cooling past its rack capacity: 'dense' flags the racks, 'spread' spreads them",
          "[power][cooling]")
{
    auto edit = [](model::RackLayout layout) {
        return [layout](model::Scenario& s) {
            s.cooling.system.id = "crac-air";
            s.facility.rackPowerLimitKw = 40.0;
            s.facility.rackLayout = layout;
        };
    };
    const auto dense =
        test::resolvedExample("seed-h100-dallas-d2c", edit(model::RackLayout::Dense));
    const auto spread =
        test::resolvedExample("seed-h100-dallas-d2c", edit(model::RackLayout::Spread));
    Diagnostics dd;
    Diagnostics ds;
    const PowerResult pd = solvePower(dense, {}, dd);
    const PowerResult ps = solvePower(spread, {}, ds);
    CHECK(pd.nodesPerRack == 4);
    CHECK(pd.rackLayout == model::RackLayout::Dense);
    CHECK(pd.rackDesignPowerKw > dense.cooling.maxRackKw);
    CHECK(pd.racksOverCapacity == pd.racks);
    REQUIRE(dd.hasCode("rack-over-capacity"));
    for (const auto& item : dd)
        if (item.code == "rack-over-capacity") {
            CHECK(item.path == "/cooling/system");
            CHECK(item.message.find("dense") != std::string::npos);
        }
    CHECK(ps.rackLayout == model::RackLayout::Spread);
    CHECK(ps.rackLimit == "cooling");
    CHECK(ps.nodesPerRack < pd.nodesPerRack);
    CHECK(ps.rackDesignPowerKw <= spread.cooling.maxRackKw);
    CHECK(ps.racks > pd.racks);
    CHECK(ps.racksOverCapacity == 0);
    CHECK(ds.hasCode("rack-layout-spread"));
    CHECK_FALSE(ds.hasCode("rack-over-capacity"));
}

TEST_CASE("Facility power adds up: IT + cooling + losses + lighting, PUE >= 1", "[power]")
{
    for (const auto& file : test::examples()) {
        INFO(file.string());
        auto read = model::readScenarioFile(file);
        REQUIRE(read.scenario);
        auto r = model::resolveScenario(*read.scenario, test::catalog(), file.string());
        REQUIRE(r.resolved);
        const Evaluation e = evaluate(*r.resolved);
        REQUIRE(e.ok());
        const PowerResult& p = e.power;
        CHECK(p.facilityPowerKw ==
              Approx(p.itPowerKw + p.coolingPowerKw + p.lossesKw + p.lightingKw).epsilon(1e-9));
        CHECK(p.lossesKw == Approx(p.pduLossKw + p.upsLossKw + p.transformerLossKw).epsilon(1e-9));
        CHECK(p.pue >= 1.0);
        CHECK(e.value("cooling.pue") == Approx(p.pue).epsilon(1e-12));
        CHECK(p.peakFacilityPowerKw >= p.facilityPowerKw);
        CHECK(p.annualFacilityEnergyMwh == Approx(p.facilityPowerKw * 8.76).epsilon(1e-9));
        CHECK(e.cooling.coolingKw == Approx(e.cooling.fanKw + e.cooling.pumpKw +
                                            e.cooling.chillerKw + e.cooling.heatRejectionKw)
                                         .epsilon(1e-9));
    }
}

TEST_CASE("HVDC distribution loses less than AC UPS and PDUs", "[power]")
{
    const auto ac = test::resolvedExample("seed-h100-dallas-d2c");
    const auto dc = test::resolvedExample("seed-h100-dallas-d2c",
                                          [](model::Scenario& s) { s.facility.hvdc = true; });
    Diagnostics d;
    const PowerResult pac = solvePower(ac, {}, d);
    const PowerResult pdc = solvePower(dc, {}, d);
    CHECK(pdc.upsLossKw == Approx(0.5 * pac.upsLossKw).epsilon(0.02));
    CHECK(pdc.pduLossKw < pac.pduLossKw);
    CHECK(evaluate(dc).power.pue < evaluate(ac).power.pue);
}

TEST_CASE("Nameplate design load: every node at its maximum in the peak hour", "[power]")
{
    const auto r = test::resolvedExample("seed-h100-dallas-d2c");
    const Evaluation e = evaluate(r);
    const PowerResult& p = e.power;
    CHECK(p.itNameplateKw == Approx(r.scenario.compute.nodeCount * r.node.maxPowerKw +
                                    p.networkPowerKw + p.storagePowerKw)
                                 .epsilon(1e-12));
    // Nameplate exceeds the load at 85% utilization; the design load exceeds the peak hour's,
    // which exceeds the annual average.
    CHECK(p.itNameplateKw > p.itPowerKw);
    CHECK(p.designFacilityKw > p.peakFacilityPowerKw);
    CHECK(p.peakFacilityPowerKw >= p.facilityPowerKw);
    // Losses and cooling scale with the heat: design = lighting + (peak - lighting) x ratio.
    CHECK(p.designFacilityKw == Approx(p.lightingKw + (p.peakFacilityPowerKw - p.lightingKw) *
                                                          p.itNameplateKw / p.itPowerKw)
                                    .epsilon(1e-12));
    REQUIRE(e.metric("power.design_facility_kw") != nullptr);
}

TEST_CASE("rackFit gives solvePower's nodes per rack and IT design power, bit for bit", "[power]")
{
    // The network solve asks rackFit() for the two figures the hall reads; they must be the
    // power solve's own, for dense and spread rack layouts and any network power.
    for (const char* name :
         {"seed-h100-dallas-d2c", "dgx-superpod-4su", "gb200-nvl72-liquid",
          "legacy-air-h100-dallas", "overpacked-air-h100-dallas", "multiplane-16k-h100"})
        for (const auto layout : {model::RackLayout::Dense, model::RackLayout::Spread})
            for (const double networkKw : {0.0, 37.5, 1234.0}) {
                INFO(name << ", network " << networkKw << " kW");
                auto r = test::resolvedExample(name);
                r.scenario.facility.rackLayout = layout;
                const PowerResult p = solvePower(r, PowerInputs{0.9, networkKw});
                const RackFit f = rackFit(r, networkKw);
                CHECK(f.nodesPerRack == p.nodesPerRack);
                CHECK(std::memcmp(&f.itDesignPowerKw, &p.itDesignPowerKw, sizeof(double)) == 0);
            }
    // A spread layout that the cooling limits: the fit follows it.
    auto r = test::resolvedExample("overpacked-air-h100-dallas");
    r.scenario.facility.rackLayout = model::RackLayout::Spread;
    const PowerResult p = solvePower(r, PowerInputs{1.0, 10.0});
    CHECK(p.rackLimit == "cooling");
    CHECK(rackFit(r, 10.0).nodesPerRack == p.nodesPerRack);
}

TEST_CASE("A GPU power limit: the clock its full load meets it at, less heat, a lower nameplate",
          "[power][power-limit]")
{
    const auto full = test::resolvedExample("seed-h100-dallas-d2c");
    const auto capped = test::resolvedExample(
        "seed-h100-dallas-d2c", [](model::Scenario& s) { s.compute.gpuPowerLimitW = 500.0; });
    // The limiter holds a fully loaded GPU's draw at the limit: idle + (TDP - idle) c^3 = 500
    // (0.68 of the dynamic power: above the voltage floor's 0.512).
    const double c = std::cbrt((500.0 - full.gpu.idleW) / (full.gpu.tdpW - full.gpu.idleW));
    CHECK(c > 0.8);
    CHECK(powerLimitClockFactor(capped) == Approx(c).epsilon(1e-12));
    CHECK(gpuPowerW(capped.gpu, 1.0, powerLimitClockFactor(capped)) == Approx(500.0));
    CHECK(powerLimitClockFactor(full) == 1.0);
    // A limit at the TDP is none.
    auto atTdp = full;
    atTdp.scenario.compute.gpuPowerLimitW = full.gpu.tdpW;
    CHECK(powerLimitClockFactor(atTdp) == 1.0);

    Diagnostics d;
    const PowerResult p = solvePower(capped, PowerInputs{1.0, 9.0}, d);
    const PowerResult q = solvePower(full, PowerInputs{1.0, 9.0});
    // The thermal loop's clock is capped at the limit's.
    CHECK(p.clockFactor == Approx(c).epsilon(1e-12));
    CHECK(p.powerLimitClockFactor == Approx(c).epsilon(1e-12));
    // At 85% utilization the average draw is idle + 0.85 (limit - idle), under the limit.
    CHECK(p.gpuPowerW == Approx(full.gpu.idleW + 0.85 * (500.0 - full.gpu.idleW)).epsilon(1e-12));
    CHECK(p.gpuPowerW < q.gpuPowerW);
    CHECK(p.nodeDesignPowerKw < q.nodeDesignPowerKw);
    // Each GPU may draw 200 W less: the node's nameplate is 8 x 0.2 = 1.6 kW lower.
    CHECK(p.nodeNameplateKw == Approx(full.node.maxPowerKw - 1.6).epsilon(1e-12));
    CHECK(p.itNameplateKw < q.itNameplateKw);
    CHECK(d.hasCode("gpu-power-limited"));
    // rackFit() reads the same figures.
    CHECK(rackFit(capped, 9.0).nodesPerRack == p.nodesPerRack);
    CHECK(rackFit(capped, 9.0).itDesignPowerKw == p.itDesignPowerKw);
}

TEST_CASE("Racks provisioned to the GPUs' power limit hold more nodes", "[power][power-limit]")
{
    // The seed's 50 kW feeds over HGX H100 nameplates of 10 kW hold 5 nodes; at a 450 W limit
    // (8 x 250 W = 2 kW less a node) 6 fit (racks of 60U, so that the units do not bind).
    auto edit = [](double cap) {
        return test::resolvedExample("seed-h100-dallas-d2c", [cap](model::Scenario& s) {
            s.compute.gpuPowerLimitW = cap;
            s.facility.rackUnits = 60;
        });
    };
    const PowerResult full = solvePower(edit(0.0), PowerInputs{1.0, 0.0});
    const PowerResult capped = solvePower(edit(450.0), PowerInputs{1.0, 0.0});
    CHECK(full.nodesPerRackByPower == 5);
    CHECK(capped.nodesPerRackByPower == 6);
    CHECK(capped.nodesPerRack == 6);
    CHECK(capped.racks < full.racks);
}
