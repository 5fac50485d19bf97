#pragma once

#include "dct/solvers/stepresult.h"

namespace dct::solvers {

/** Training time and what it is made of. */
struct ComputeResult
{
    int gpuCount = 0;
    double peakTflopsPerGpu = 0.0; ///< At the workload's precision, full clocks.
    double clusterPeakPflops = 0.0;
    double trainingFlops = 0.0; ///< Model FLOPs of the run (forward and backward).
    double tokensPerStep = 0.0;
    double steps = 0.0;
    double computeSecondsPerStep = 0.0; ///< The step before stragglers and data loading.
    double gradientBytes = 0.0;         ///< All-reduced per data-parallel group per step.
    double allReduceSecondsPerStep = 0.0;
    double exposedCommSecondsPerStep = 0.0;
    double stragglerSecondsPerStep = 0.0;
    double dataLoaderSecondsPerStep = 0.0; ///< Time storage needs to deliver one step's data.
    double stepSeconds = 0.0;
    double clockFactor = 1.0;       ///< Thermal clock factor applied (1 = full clocks).
    double idealTrainingDays = 0.0; ///< Model FLOPs / (GPUs x peak x MFU), nothing else.
    double checkpointGb = 0.0;
    double checkpointWriteSeconds = 0.0;
    double checkpoints = 0.0;
    double trainingDays = 0.0; ///< With communication, stragglers, throttle, checkpoints.
    double gpuHours = 0.0;
    double effectiveMfu = 0.0; ///< Achieved model FLOPs over peak at full clocks.
    double tokensPerSecond = 0.0;
    double dataLoaderGbytePerS = 0.0; ///< Read bandwidth the data loader needs.
    double dataLoaderIops = 0.0;      ///< Read operations per second it needs.
    double mfu = 0.0;                 ///< Predicted, or the explicit /workload/mfu.
    bool mfuOverride = false;         ///< True when /workload/mfu sets it.
    StepResult step;                  ///< The predicted step, its breakdown and memory.
};

} // namespace dct::solvers
