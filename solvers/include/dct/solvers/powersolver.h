#pragma once

#include "dct/model/diagnostics.h"
#include "dct/model/resolvedscenario.h"
#include "dct/solvers/powerresult.h"

namespace dct::solvers {

struct CoolingResult;

/** What the power solver takes from the solvers upstream of it. */
struct PowerInputs
{
    double clockFactor = 1.0;    ///< GPU clock factor from the thermal loop (<= 1).
    double networkPowerKw = 0.0; ///< Switches, NICs and optics; the evaluator fills it.
};

/** Returns one GPU's power in W at \a utilization of its idle-to-TDP range and \a clockFactor. */
double gpuPowerW(const model::GpuSpec& gpu, double utilization, double clockFactor);

/** Returns the clock factor at which one GPU draws \a powerW (inverse of gpuPowerW()), in [0, 1].
 */
double clockFactorForGpuPowerW(const model::GpuSpec& gpu, double utilization, double powerW);

/**
 * Returns the clock factor at which the GPUs of \a scenario meet their enforced power limit
 * (compute.gpu_power_limit_w) at full load, in (0, 1]; 1 without a limit.
 */
double powerLimitClockFactor(const model::ResolvedScenario& scenario);

/**
 * Returns the loss of one power-chain stage in kW: rated x (no-load + proportional x f +
 * square x f^2) at load fraction f = load / rated.
 */
double stageLossKw(double loadKw, double ratedKw, double noLoadFraction,
                   double proportionalFraction, double squareFraction);

/**
 * Computes IT power, the rack layout and the PDU/UPS losses and lighting. Transformer losses and
 * facility power need the cooling power: completeFacilityPower() adds them.
 */
PowerResult solvePower(const model::ResolvedScenario& scenario, const PowerInputs& inputs,
                       Diagnostics& diagnostics);

/** Returns solvePower() without its diagnostics (the thermal loop's passes discard them). */
PowerResult solvePower(const model::ResolvedScenario& scenario, const PowerInputs& inputs);

/** The two figures of solvePower() the hall's layout reads, as solvePower() gives them. */
struct RackFit
{
    int nodesPerRack = 0;         ///< PowerResult::nodesPerRack.
    double itDesignPowerKw = 0.0; ///< PowerResult::itDesignPowerKw.
};

/** Returns solvePower(scenario, {any clock, networkPowerKw})'s rack fit, without the rest of
 *  the power chain (the network solve asks it of every fabric edit). */
RackFit rackFit(const model::ResolvedScenario& scenario, double networkPowerKw);

/**
 * Adds the transformer losses, cooling and facility power, PUE and annual energy to \a power,
 * hour by hour of the site's year in \a cooling.
 */
PowerResult completeFacilityPower(const model::ResolvedScenario& scenario, PowerResult power,
                                  const CoolingResult& cooling);

} // namespace dct::solvers
