#pragma once

#include "dct/solvers/siteyear.h"

#include <Eigen/Core>
#include <array>
#include <memory>
#include <string>
#include <vector>

namespace dct::solvers {

/** A GPU's thermal clock state, named after NVML's clock event reasons. */
enum class ThrottleState
{
    None,           ///< Full clocks.
    SwThermal,      ///< Software thermal slowdown to the clock that holds the temperature.
    SwThermalFloor, ///< Software slowdown held at the base clock.
    HwSlowdown      ///< Hardware slowdown (half the base clock).
};

/** Returns "none", "sw-thermal", "sw-thermal-floor" or "hw-slowdown". */
const char* throttleStateName(ThrottleState state);

/** GPU clock throttling by temperature (NVML clock event reasons). */
struct ThrottleResult
{
    double clockFactor = 1.0; ///< Clock the thermal state allows, over the boost clock.
    double gpuTempC = 0.0;    ///< GPU temperature at that clock.
    ThrottleState state = ThrottleState::None;
};

/** The cooling system's power, temperatures and capacity for one cluster and site. */
struct CoolingResult
{
    std::string systemId;
    std::string systemType;    ///< "air_crac" or "d2c_rdhx".
    double liquidHeatKw = 0.0; ///< Captured at the cold plates.
    double airHeatKw = 0.0;    ///< Carried by air, including fan heat.
    double fanKw = 0.0;
    double pumpKw = 0.0;
    double chillerKw = 0.0;            ///< Annual average.
    double heatRejectionKw = 0.0;      ///< Annual average.
    double coolingKw = 0.0;            ///< Annual average of fans + pumps + chillers + rejection.
    double peakCoolingKw = 0.0;        ///< In the hour of most cooling power.
    double hottestHourCoolingKw = 0.0; ///< In the hottest hour (design hour).
    double fullFreeCoolingHours = 0.0; ///< Hours without any chiller (both loops).
    double partialFreeCoolingHours = 0.0; ///< Hours with the economizer sharing the load.
    double chillerHours = 0.0;            ///< Hours with a chiller running.
    double economizerHeatShare = 0.0;     ///< Share of the year's heat removed without chillers.
    double averageChillerCop = 0.0;       ///< Chiller heat over chiller energy, over the year.
    double climateHours = 0.0;
    double throttleHours = 0.0; ///< Hours the GPUs run below full clocks for temperature.

    /** The site's year the plant ran over (hours, or climate bins weighted by their hours). */
    std::shared_ptr<const SiteYear> year;
    // Entry by entry of the year (8,760 hours, or one per climate bin).
    Eigen::ArrayXd hourlyEconomizerShareAir;    ///< Share of the air loop's heat free-cooled.
    Eigen::ArrayXd hourlyEconomizerShareLiquid; ///< Share of the liquid loop's heat free-cooled.
    /** Per entry: the water the heat rejection gives the chillers' condensers, C (a tower's:
     *  its approach above the wet bulb; a dry cooler's: its approach above the air). */
    Eigen::ArrayXd hourlyCondenserWaterC;
    Eigen::ArrayXd hourlyChillerKw;
    Eigen::ArrayXd hourlyHeatRejectionKw;
    Eigen::ArrayXd hourlyCoolingKw; ///< Fans + pumps + chillers + heat rejection.

    // Liquid plant (systems with cold plates; docs/siteyear.md).
    int cduCount = 0;                  ///< CDUs for the design liquid heat (N, no redundancy).
    double cduCapacityKw = 0.0;        ///< Heat one CDU moves.
    double coolantFlowLPerS = 0.0;     ///< Secondary coolant to the cold plates.
    double cduPumpKw = 0.0;            ///< Of the pump power: the CDUs' secondary loops.
    double facilityWaterSupplyC = 0.0; ///< Facility water to the CDUs.
    double facilityWaterReturnC = 0.0; ///< Facility water back from the CDUs.
    double chillerFreeOutdoorC = 0.0;  ///< Outdoor temperature up to which no chiller is needed.
    /** Cooling towers: the heat they carry over their design heat (their range shrinks with it;
     *  1 without towers). */
    double towerLoad = 1.0;
    /** Cooling towers: their water's mean approach above the wet bulb over the year, K (0
     *  without towers). */
    double meanTowerApproachK = 0.0;
    double liquidChillerHours = 0.0; ///< Hours the liquid loop needs a chiller.

    // Water of the heat rejection (docs/siteyear.md).
    std::string heatRejection; ///< "cooling_tower", "dry_cooler" or "dry_cooler_adiabatic".
    double waterM3PerYear = 0.0;
    double evaporationM3PerYear = 0.0; ///< Tower evaporation or adiabatic spray.
    double blowdownM3PerYear = 0.0;
    double driftM3PerYear = 0.0;
    double wueLPerKwh = 0.0; ///< Site water over IT energy (The Green Grid WUE).
    double waterHours = 0.0; ///< Hours drawing water.
    double peakWaterM3PerHour = 0.0;
    std::array<double, 12> monthlyWaterM3{};
    Eigen::ArrayXd hourlyWaterL; ///< Entry by entry of the year (litres in that entry).

    double rackCapacityKw = 0.0;    ///< The system's max_rack_kw.
    double rackOverloadRatio = 0.0; ///< Fullest rack's heat over capacity.
    double inletTempC = 0.0;        ///< Server inlet air, with recirculation when overloaded.
    /** The plant holds the air and coolant supply at their setpoints in every hour: its chillers
     *  are sized on the hottest hour. These are the temperatures of that hour. */
    double hottestHourDryBulbC = 0.0;
    double hottestHourWetBulbC = 0.0;
    double coolantTempC = 0.0; ///< Coolant at the cold plates (D2C), else 0.
    double gpuTempC = 0.0;     ///< GPU temperature at the operating clock.
    ThrottleResult throttle;   ///< Clock the temperatures allow.

    double pue = 0.0; ///< Annual PUE with this system (filled with the facility power).
};

/** The annual PUE of one cooling option for the same cluster, for side-by-side charts. */
struct CoolingOptionPue
{
    std::string systemId;
    std::string systemType;
    double pue = 0.0;
    double coolingKw = 0.0;
    bool rackOverCapacity = false;
};

} // namespace dct::solvers
