#pragma once

namespace dct::solvers {

/** Interruptions of the training job from the components of one unit kind. */
struct UnitInterruptions
{
    double units = 0.0;   ///< GPUs, nodes, NICs, switches or links of the job.
    double perHour = 0.0; ///< Interruptions per hour these units cause.
};

/** Failures and goodput: how much of the training run interruptions and checkpoints take. */
struct GoodputResult
{
    bool valid = false; ///< False when there was nothing to train (no work time).

    UnitInterruptions gpus;
    UnitInterruptions nodes;
    UnitInterruptions nics;
    UnitInterruptions switches;
    UnitInterruptions links;
    double interruptionsPerHour = 0.0; ///< Of the whole job: the sum over components.
    double jobMtbfHours = 0.0;         ///< 1 / interruptionsPerHour (0 when nothing fails).
    double nodeReplacingShare = 0.0;   ///< Share of interruptions that swap a node out.
    double spareWaitProbability = 0.0; ///< Chance a node failure finds no hot spare free.

    double checkpointWriteSeconds = 0.0; ///< delta: one checkpoint written (compute result).
    double checkpointLoadSeconds = 0.0;  ///< Reading it back at restart (storage read rate).
    double restartSeconds = 0.0;         ///< R: mean recovery per interruption.

    double youngIntervalHours = 0.0;   ///< sqrt(2 delta M) (Young 1974).
    double optimalIntervalHours = 0.0; ///< Daly's (2006) higher-order optimum.
    double intervalHours = 0.0;        ///< Interval in effect: the user's, else the optimum.
    bool userInterval = false;         ///< True when the scenario sets the interval.
    double intervalOverOptimal = 1.0;  ///< Interval in effect / optimum.
    double intervalExcessHours = 0.0;  ///< Wall time the interval in effect adds over optimum.

    double workHours = 0.0;       ///< Failure-free progress: steps x step time.
    double failureFreeDays = 0.0; ///< Training time of the compute result.
    double effectiveHours = 0.0;  ///< Expected wall time with failures (Daly 2006).
    double effectiveDays = 0.0;
    double interruptions = 0.0;   ///< Expected over the run: effective hours / MTBF.
    double checkpointHours = 0.0; ///< Writing checkpoints.
    double lostWorkHours = 0.0;   ///< Work redone since the last checkpoint.
    double restartHours = 0.0;    ///< Restarts: re-launch, re-init, load, repair waits.
    double lostHours = 0.0;       ///< checkpoint + lost work + restart hours.
    double goodput = 1.0;         ///< workHours / effectiveHours.

    double clusterUsdPerHour = 0.0; ///< The job's GPUs at the cost per GPU-hour.
    double spareUsdPerHour = 0.0;   ///< Hot spares' price amortized per hour.
    double failureCostUsd = 0.0;    ///< Lost hours at the cluster rate, plus the spares.
};

} // namespace dct::solvers
