#pragma once

#include "dct/model/diagnostics.h"
#include "dct/model/resolvedscenario.h"
#include "dct/solvers/computeresult.h"

namespace dct::solvers {

/** What the compute solver takes from the solvers upstream of it. */
struct ComputeInputs
{
    double allReduceSecondsPerStep = 0.0; ///< Gradient all-reduce of one step over the fabric.
    double clockFactor = 1.0;             ///< Thermal clock factor from cooling (<= 1).
};

/**
 * Computes training time: 6PD FLOPs at the GPU's peak, MFU and clock factor, plus exposed
 * gradient communication, straggler loss from jitter, data-loader limits and checkpoint writes.
 */
ComputeResult solveCompute(const model::ResolvedScenario& scenario, const ComputeInputs& inputs,
                           Diagnostics& diagnostics);

/** Returns the expected maximum of \a n independent standard normal variables. */
double expectedMaxOfNormals(double n);

} // namespace dct::solvers
