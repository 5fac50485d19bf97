#pragma once

#include "dct/model/diagnostics.h"
#include "dct/model/resolvedscenario.h"
#include "dct/solvers/computeresult.h"
#include "dct/solvers/networkresult.h"

namespace dct::solvers {

/** What the compute solver takes from the solvers upstream of it. */
struct ComputeInputs
{
    double allReduceSecondsPerStep = 0.0; ///< Gradient all-reduce of one step over the fabric.
    double clockFactor = 1.0;             ///< Thermal clock factor from cooling (<= 1).
    /// The solved fabric, on which the step model times its collectives; without it the step
    /// is not predicted and only an explicit /workload/mfu gives a training time.
    const NetworkResult* network = nullptr;
};

/**
 * Computes training time: the step predicted by the step model (stepmodel.h), or the model
 * FLOPs at an explicit /workload/mfu, plus straggler loss from jitter, data-loader limits and
 * checkpoint writes.
 */
ComputeResult solveCompute(const model::ResolvedScenario& scenario, const ComputeInputs& inputs,
                           Diagnostics& diagnostics);

/** Returns the expected maximum of \a n independent standard normal variables. */
double expectedMaxOfNormals(double n);

} // namespace dct::solvers
