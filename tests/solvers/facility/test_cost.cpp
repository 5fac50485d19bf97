#include "dct/solvers/evaluator.h"
#include "facilitysupport.h"

using namespace dct;
using namespace dct::solvers;

TEST_CASE("Cost: capex and opex add up, TCO per GPU-hour and the training run follow", "[cost]")
{
    const auto r = test::resolvedExample("seed-h100-dallas-d2c");
    const Evaluation e = evaluate(r);
    REQUIRE(e.ok());
    const CostResult& c = e.cost;
    CHECK(c.capexNodesUsd == Approx(32 * r.node.priceUsd).epsilon(1e-12));
    CHECK(c.capexRacksUsd ==
          Approx(e.power.racks * r.scenario.economics.rackPriceUsd).epsilon(1e-12));
    CHECK(c.capexCoolingUsd ==
          Approx(r.cooling.capexUsdPerKw * e.power.itDesignPowerKw).epsilon(1e-12));
    CHECK(c.capexUsd ==
          Approx(c.capexNodesUsd + c.capexNetworkUsd + c.capexStorageUsd + c.capexRacksUsd +
                 c.capexCoolingUsd + c.capexPowerUsd + c.capexRedundancyUsd)
              .epsilon(1e-12));
    // The redundant plant units beyond N (docs/redundancy.md).
    CHECK(c.capexRedundancyUsd == Approx(e.redundancy.redundancyCapexUsd).epsilon(1e-12));
    // Energy: the site's tariff hour by hour plus its demand charges (gridsolver).
    CHECK(c.energyUsdPerYear ==
          Approx(e.grid.energyUsdPerYear + e.grid.demandUsdPerYear).epsilon(1e-12));
    CHECK(c.energyUsdPerYear ==
          Approx(e.power.annualFacilityEnergyMwh * 1000.0 * e.grid.averagePriceUsdPerKwh)
              .epsilon(1e-9));
    CHECK(c.egressUsdPerYear == Approx(12.0 * e.egress.egressUsdPerMonth).epsilon(1e-12));
    CHECK(c.opexUsdPerYear ==
          Approx(c.energyUsdPerYear + c.egressUsdPerYear + c.maintenanceUsdPerYear).epsilon(1e-12));
    CHECK(c.tcoUsdPerYear ==
          Approx(c.capexUsd / r.scenario.economics.amortizationYears + c.opexUsdPerYear)
              .epsilon(1e-12));
    CHECK(c.usdPerGpuHour == Approx(c.tcoUsdPerYear / (256 * 8760.0)).epsilon(1e-12));
    // The run pays for its time with failures (failure-free GPU-hours stretched by goodput).
    CHECK(c.trainingRunUsd ==
          Approx(c.usdPerGpuHour * 256 * e.goodput.effectiveHours).epsilon(1e-12));
    CHECK(c.trainingRunUsd > c.usdPerGpuHour * e.compute.gpuHours);
    // The network's switches, cables and optics are in capex and power; its NICs are not, since
    // the node's price and base power already hold them (NodeSpec).
    const auto& t = e.network.topology;
    REQUIRE(t.costUsd > 0);
    CHECK(c.capexNetworkUsd == Approx(t.costUsd - t.nicCostUsd).epsilon(1e-9));
    CHECK(e.value("network.capex_usd") == Approx(t.costUsd).epsilon(1e-9));
    CHECK(e.power.networkPowerKw == Approx((t.powerW - t.nicPowerW) / 1000.0).epsilon(1e-9));
}

TEST_CASE("Air cooling costs more energy per year than D2C+RDHx for the same cluster", "[cost]")
{
    const Evaluation d2c = evaluate(test::resolvedExample("seed-h100-dallas-d2c"));
    const Evaluation air = evaluate(test::resolvedExample("legacy-air-h100-dallas"));
    CHECK(air.cost.energyUsdPerYear > d2c.cost.energyUsdPerYear);
    CHECK(air.power.itPowerKw == Approx(d2c.power.itPowerKw).epsilon(1e-9));
}
