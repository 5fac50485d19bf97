#include "dct/solvers/costsolver.h"

#include <algorithm>

namespace dct::solvers {

CostResult solveCost(const model::ResolvedScenario& r, const PowerResult& power,
                     const EgressResult& egress, const ComputeResult& compute, const CostInputs& in,
                     Diagnostics& diagnostics)
{
    CostResult out;
    const auto& e = r.scenario.economics;
    const int nodes = r.scenario.compute.nodeCount;
    out.capexNodesUsd = nodes * r.node.priceUsd;
    if (r.node.priceUsd <= 0.0)
        diagnostics.note("/compute/node", "the node '" + r.node.id + "' has no price",
                         "set price_usd on the node to count it in capex", "no-price");
    out.capexNetworkUsd = std::max(0.0, in.networkCapexUsd);
    out.capexStorageUsd = r.scenario.storage.capacityTb * r.scenario.storage.priceUsdPerTb;
    out.capexRacksUsd = power.racks * e.rackPriceUsd;
    // Cooling plant is priced per kW of the IT heat it is designed for; the power plant
    // (switchgear, UPS, generators) per kW of the peak facility power it delivers.
    out.capexCoolingUsd = r.cooling.capexUsdPerKw * power.itDesignPowerKw;
    out.capexPowerUsd = e.powerCapexUsdPerKw * power.peakFacilityPowerKw;
    // Those prices are of a plant built for the load (N); the redundant units come on top, at
    // the plant units' own prices (data/catalog/plant.json, docs/redundancy.md).
    out.capexRedundancyUsd = std::max(0.0, in.redundancyCapexUsd);
    out.hardwareCapexUsd = out.capexNodesUsd + out.capexNetworkUsd + out.capexStorageUsd;
    out.capexUsd = out.hardwareCapexUsd + out.capexRacksUsd + out.capexCoolingUsd +
                   out.capexPowerUsd + out.capexRedundancyUsd;

    const double priceUsdPerKwh =
        in.hasGrid ? in.averagePriceUsdPerKwh : r.site.electricityPriceUsdPerKwh;
    out.energyUsdPerYear = in.hasGrid ? in.electricityUsdPerYear
                                      : power.annualFacilityEnergyMwh * 1000.0 * priceUsdPerKwh;
    out.egressUsdPerYear = 12.0 * egress.egressUsdPerMonth;
    out.maintenanceUsdPerYear = e.maintenanceFractionPerYear * out.hardwareCapexUsd;
    out.opexUsdPerYear = out.energyUsdPerYear + out.egressUsdPerYear + out.maintenanceUsdPerYear;

    // Straight-line amortization, no cost of capital.
    out.amortizedCapexUsdPerYear =
        e.amortizationYears > 0.0 ? out.capexUsd / e.amortizationYears : out.capexUsd;
    out.tcoUsdPerYear = out.amortizedCapexUsdPerYear + out.opexUsdPerYear;
    const double gpuHoursPerYear = static_cast<double>(r.gpuCount()) * 8760.0;
    out.usdPerGpuHour = gpuHoursPerYear > 0.0 ? out.tcoUsdPerYear / gpuHoursPerYear : 0.0;
    out.trainingRunUsd = out.usdPerGpuHour * compute.gpuHours;
    out.trainingRunEnergyMwh = power.facilityPowerKw * compute.trainingDays * 24.0 / 1000.0;
    out.trainingRunEnergyUsd = out.trainingRunEnergyMwh * 1000.0 * priceUsdPerKwh;
    out.carbonTonnesPerYear =
        in.hasGrid ? in.carbonTonnesPerYear : power.annualFacilityEnergyMwh * r.site.carbonKgPerKwh;
    return out;
}

} // namespace dct::solvers
