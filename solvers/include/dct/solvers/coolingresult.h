#pragma once

#include <string>
#include <vector>

namespace dct::solvers {

/** The cooling plant in one climate bin. */
struct CoolingBinResult
{
    double dryBulbC = 0.0;
    double wetBulbC = 0.0;
    double hours = 0.0;
    double economizerShareAir = 0.0;    ///< Share of the air loop's heat taken by free cooling.
    double economizerShareLiquid = 0.0; ///< Share of the liquid loop's heat taken by free cooling.
    double chillerCop = 0.0;            ///< Of the air loop's chiller (0 when off).
    double chillerKw = 0.0;
    double heatRejectionKw = 0.0;
    double coolingKw = 0.0; ///< Fans + pumps + chillers + heat rejection.
};

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
    double peakCoolingKw = 0.0;        ///< In the hottest bin.
    double fullFreeCoolingHours = 0.0; ///< Hours without any chiller (both loops).
    double partialFreeCoolingHours = 0.0; ///< Hours with the economizer sharing the load.
    double economizerHeatShare = 0.0;     ///< Share of the year's heat removed without chillers.
    double averageChillerCop = 0.0;       ///< Chiller heat over chiller energy, over the year.
    double climateHours = 0.0;
    std::vector<CoolingBinResult> bins;

    double rackCapacityKw = 0.0;    ///< The system's max_rack_kw.
    double rackOverloadRatio = 0.0; ///< Fullest rack's heat over capacity.
    double inletTempC = 0.0;        ///< Server inlet air, with recirculation when overloaded.
    double coolantTempC = 0.0;      ///< Coolant at the cold plates (D2C), else 0.
    double gpuTempC = 0.0;          ///< GPU temperature at the operating clock.
    ThrottleResult throttle;        ///< Clock the temperatures allow.

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
