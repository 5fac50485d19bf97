#pragma once

#include "dct/model/enums.h"

#include <Eigen/Core>
#include <string>

namespace dct::solvers {

/** IT power, rack layout, power-chain losses and facility power of a cluster. */
struct PowerResult
{
    double clockFactor = 1.0;           ///< GPU clock factor the power was computed at.
    double powerLimitClockFactor = 1.0; ///< Top clock: what the GPUs' power limit allows (1: none).
    double gpuPowerW = 0.0;             ///< One GPU at its utilization and clock.
    double nodePowerKw = 0.0;           ///< One node at its utilization and clock.
    double nodeDesignPowerKw = 0.0;     ///< One node at its utilization and top clock (layout).
    /** One node's nameplate maximum, less what the GPUs' power limit holds back. */
    double nodeNameplateKw = 0.0;
    double nodesPowerKw = 0.0;   ///< All nodes.
    double networkPowerKw = 0.0; ///< Switches, NICs and optics (from the network solver).
    double storagePowerKw = 0.0;
    double itPowerKw = 0.0;       ///< Nodes + network + storage.
    double itDesignPowerKw = 0.0; ///< IT power at the top clock: sizes the power chain.

    int nodesPerRack = 0;
    int nodesPerRackByPower = 0;   ///< Rack power limit over node nameplate.
    int nodesPerRackByUnits = 0;   ///< Rack units over node height.
    int nodesPerRackByCooling = 0; ///< Cooling capacity over the node's design heat.
    std::string rackLimit;         ///< What set nodesPerRack: "power", "units" or "cooling".
    model::RackLayout rackLayout = model::RackLayout::Dense; ///< As laid out.
    int racks = 0;                                           ///< Compute racks.
    int rows = 0;
    double floorM2 = 0.0;
    double rackPowerKw = 0.0;       ///< Heat of the fullest rack at the operating point.
    double rackDesignPowerKw = 0.0; ///< Heat of the fullest rack at full clocks (layout, flags).
    double rackNameplateKw = 0.0;   ///< Nameplate of the fullest rack.
    double rackCoolingCapacityKw = 0.0; ///< The cooling system's max_rack_kw.
    int racksOverCapacity = 0;          ///< Racks whose heat exceeds the cooling capacity.

    double pduLossKw = 0.0;
    double upsLossKw = 0.0;        ///< UPS, or the rectifier of an HVDC system.
    double upsLoadKw = 0.0;        ///< The UPS's design load: IT at full clocks plus the PDU loss.
    double upsInstalledKw = 0.0;   ///< Rating of every installed UPS module (redundancy.h).
    double upsLoadFraction = 0.0;  ///< Load of each module over its rating, as it runs.
    double upsEfficiency = 0.0;    ///< At that part load.
    double upsEfficiencyAtN = 0.0; ///< The same load on N modules only.
    double lightingKw = 0.0;
    double indoorHeatKw = 0.0; ///< IT + PDU + UPS losses + lighting: heat the cooling removes.

    // Filled by completeFacilityPower() once cooling is known (annual, hours-weighted).
    double transformerLossKw = 0.0;
    double lossesKw = 0.0; ///< PDU + UPS + transformer.
    double coolingPowerKw = 0.0;
    double facilityPowerKw = 0.0;       ///< IT + cooling + losses + lighting, annual average.
    double peakFacilityPowerKw = 0.0;   ///< In the hour of highest facility power.
    double hottestHourFacilityKw = 0.0; ///< In the hottest hour of the year.
    double peakPue = 0.0;               ///< Facility over IT power in the highest hour.
    double bestPue = 0.0;               ///< Facility over IT power in the lowest hour.
    /** Facility power entry by entry of the site's year (CoolingResult::year). */
    Eigen::ArrayXd hourlyFacilityKw;
    double itNameplateKw = 0.0;    ///< IT load with every node at its nameplate maximum.
    double designFacilityKw = 0.0; ///< Peak hour at nameplate IT: what a feed is sized on.
    double pue = 0.0;              ///< Annual facility energy over IT energy.
    double annualItEnergyMwh = 0.0;
    double annualFacilityEnergyMwh = 0.0;
};

} // namespace dct::solvers
