#pragma once

#include "dct/model/diagnostics.h"
#include "dct/model/resolvedscenario.h"
#include "dct/solvers/computeresult.h"
#include "dct/solvers/costresult.h"
#include "dct/solvers/goodputresult.h"
#include "dct/solvers/networkresult.h"

namespace dct::solvers {

/**
 * Returns Young's first-order optimum checkpoint interval sqrt(2 delta M) for checkpoint time
 * \a deltaSeconds and job MTBF \a mtbfSeconds (Young 1974, CACM 17(9)).
 */
double youngCheckpointInterval(double deltaSeconds, double mtbfSeconds);

/**
 * Returns Daly's higher-order optimum checkpoint interval (Daly 2006, FGCS 22(3)):
 * sqrt(2 delta M) [1 + sqrt(delta / 2M) / 3 + (delta / 2M) / 9] - delta for delta < 2M, M
 * otherwise. Both arguments and the result are in seconds.
 */
double dalyCheckpointInterval(double deltaSeconds, double mtbfSeconds);

/**
 * Returns the expected wall time of \a workSeconds of failure-free work checkpointed every
 * \a intervalSeconds, with checkpoint time \a deltaSeconds, restart time \a restartSeconds and
 * exponentially distributed failures of mean \a mtbfSeconds (Daly 2006, the complete model):
 * M e^(R/M) (e^((tau + delta)/M) - 1) T_s / tau. An infinite MTBF gives T_s (1 + delta / tau).
 */
double dalyWallTime(double workSeconds, double intervalSeconds, double deltaSeconds,
                    double restartSeconds, double mtbfSeconds);

/**
 * Computes the job's interruption rate from the catalog's per-component failure rates and the
 * units the job has (GPUs, nodes, the fabric's NICs, switches and links), the checkpoint
 * interval, the time lost and the goodput, from the failure-free training time of \a compute
 * and the cost rate of \a cost.
 */
GoodputResult solveGoodput(const model::ResolvedScenario& scenario, const ComputeResult& compute,
                           const NetworkResult& network, const CostResult& cost,
                           Diagnostics& diagnostics);

/** Makes the training run's cost and energy take the effective (with failures) days. */
void applyGoodputToCost(const model::ResolvedScenario& scenario, const GoodputResult& goodput,
                        const ComputeResult& compute, double facilityPowerKw, CostResult& cost);

} // namespace dct::solvers
