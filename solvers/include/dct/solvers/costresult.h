#pragma once

namespace dct::solvers {

/** Capital and operating cost, amortized, per GPU-hour and per training run. */
struct CostResult
{
    double capexNodesUsd = 0.0;
    double capexNetworkUsd = 0.0; ///< Switches, NICs, cables and optics (network solver).
    double capexStorageUsd = 0.0;
    double capexRacksUsd = 0.0;
    double capexCoolingUsd = 0.0;    ///< Cooling plant per kW of design IT heat.
    double capexPowerUsd = 0.0;      ///< Power plant per kW of peak facility power.
    double capexRedundancyUsd = 0.0; ///< UPS, generators, chillers and CDUs beyond N.
    double capexUsd = 0.0;
    double hardwareCapexUsd = 0.0; ///< Nodes + network + storage: what maintenance scales with.

    double energyUsdPerYear = 0.0; ///< Facility energy at the site's price.
    double egressUsdPerYear = 0.0;
    double maintenanceUsdPerYear = 0.0;
    double opexUsdPerYear = 0.0;

    double amortizedCapexUsdPerYear = 0.0;
    double tcoUsdPerYear = 0.0;        ///< Amortized capex + opex.
    double usdPerGpuHour = 0.0;        ///< TCO per year over GPU-hours in a year.
    double trainingRunUsd = 0.0;       ///< GPU-hours of the run at the cost per GPU-hour.
    double trainingRunEnergyMwh = 0.0; ///< Facility energy over the run's days.
    double trainingRunEnergyUsd = 0.0;
    double carbonTonnesPerYear = 0.0; ///< Facility energy at the site's carbon intensity.
};

} // namespace dct::solvers
