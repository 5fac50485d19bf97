#pragma once

#include "dct/model/diagnostics.h"
#include "dct/model/resolvedscenario.h"
#include "dct/solvers/coolingresult.h"
#include "dct/solvers/powerresult.h"

#include <vector>

namespace dct::solvers {

/**
 * Returns the clock a GPU settles at with coolant or inlet at \a environmentTempC and a thermal
 * resistance \a resistanceCPerW to it: full clocks below max_operating_temp_c; SW thermal
 * slowdown holding max_operating_temp_c down to the base clock; HW slowdown (clocks halved)
 * when even the base clock passes slowdown_temp_c.
 */
ThrottleResult thermalThrottle(const model::GpuSpec& gpu, double utilization,
                               double environmentTempC, double resistanceCPerW);

/** Returns a chiller's COP at chilled-water supply \a supplyC and condenser entering \a condenserC.
 */
double chillerCop(const model::CoolingSystemSpec& system, double supplyC, double condenserC);

/** Returns a chiller's power over its full-load power at part-load ratio \a plr. */
double chillerPartLoadPowerFraction(double plr);

/**
 * Returns the share of a loop's heat a water-side economizer in series removes, with supply
 * \a supplyC, return \a returnC and the economizer's leaving temperature \a economizerC.
 */
double economizerShare(double supplyC, double returnC, double economizerC);

/**
 * Returns the CDUs a liquid loop needs for \a itDesignPowerKw of IT heat at full clocks: the
 * cold plates' share of it over one CDU's capacity, rounded up (N, no redundancy); 0 for a
 * system without cold plates or CDUs. The cooling plant and the hall's floor plan both count
 * them so.
 */
int designCduCount(const model::CoolingSystemSpec& system, double itDesignPowerKw);

/**
 * Returns the room air units (CRAH/CRAC) an air-cooled hall needs for \a itDesignPowerKw of IT
 * heat at full clocks: the heat left to room air over one unit's capacity (crah_capacity_kw),
 * rounded up (N); 0 for a system with cold plates and rear doors, or without a unit capacity.
 */
int designCrahCount(const model::CoolingSystemSpec& system, double itDesignPowerKw);

/**
 * Computes the cooling plant's power hour by hour of the site's year (component model: fans, pumps,
 * chillers, economizer, heat rejection), rack capacity, temperatures and the clock they allow.
 */
CoolingResult solveCooling(const model::ResolvedScenario& scenario,
                           const model::CoolingSystemSpec& system, const PowerResult& power,
                           Diagnostics& diagnostics);

/** Returns solveCooling() without its diagnostics (what-if passes that would discard them). */
CoolingResult solveCooling(const model::ResolvedScenario& scenario,
                           const model::CoolingSystemSpec& system, const PowerResult& power);

/**
 * Returns solveCooling() (without diagnostics) run hour by hour over the site's 8,760 hours
 * instead of over its distinct climate states: the reference the grouped year is checked against.
 */
CoolingResult solveCoolingHourByHour(const model::ResolvedScenario& scenario,
                                     const model::CoolingSystemSpec& system,
                                     const PowerResult& power);

/**
 * Returns the throttle of solveCooling() alone: the clock the rack and coolant temperatures of
 * \a system allow at \a power, without the plant over the year (the thermal loop).
 */
ThrottleResult coolingThrottle(const model::ResolvedScenario& scenario,
                               const model::CoolingSystemSpec& system, const PowerResult& power);

/** Returns the annual PUE of every cooling option of \a scenario for the same IT load. */
std::vector<CoolingOptionPue> coolingOptionPues(const model::ResolvedScenario& scenario,
                                                const PowerResult& power);

} // namespace dct::solvers
