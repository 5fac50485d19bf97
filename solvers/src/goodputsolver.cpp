// Failures and goodput of a synchronous training job. A failure of any GPU, node, NIC or link
// stops every rank, so the job's interruption rate is the sum over its components of the
// per-unit rate times the units it holds (a series system): it grows linearly with the job, as
// Kokolis et al. 2024 ("Revisiting Reliability in Large-Scale Machine Learning Research
// Clusters", arXiv:2410.21680, failure model and MTTF projection) fit on Meta's RSC clusters.
// The wall time, the optimal checkpoint interval and what is lost follow Daly 2006.
#include "dct/solvers/goodputsolver.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

namespace dct::solvers {

namespace {

/** Returns P(N >= k) for N Poisson with mean \a mean. */
double poissonTailAtLeast(double mean, long long k)
{
    if (k <= 0)
        return 1.0;
    if (mean <= 0.0)
        return 0.0;
    // 1 - sum_{n<k} e^-a a^n / n!, term by term; past the mean the terms fall geometrically, so
    // the sum stops once they no longer move it.
    double term = std::exp(-mean);
    double below = 0.0;
    for (long long n = 0; n < k; ++n) {
        below += term;
        if (static_cast<double>(n) > mean && term < 1e-17 * below)
            break;
        term *= mean / static_cast<double>(n + 1);
    }
    return std::clamp(1.0 - below, 0.0, 1.0);
}

/** Returns a figure as text with up to 3 significant digits, for diagnostics. */
std::string shortNumber(double value)
{
    char text[32];
    std::snprintf(text, sizeof text, "%.3g", value);
    return text;
}

} // namespace

double youngCheckpointInterval(double deltaSeconds, double mtbfSeconds)
{
    return std::sqrt(2.0 * deltaSeconds * mtbfSeconds);
}

double dalyCheckpointInterval(double deltaSeconds, double mtbfSeconds)
{
    // Daly 2006, "A higher order estimate of the optimum checkpoint interval for restart
    // dumps", Future Generation Computer Systems 22(3):303-312: the higher-order optimum.
    if (deltaSeconds >= 2.0 * mtbfSeconds)
        return mtbfSeconds;
    const double x = deltaSeconds / (2.0 * mtbfSeconds);
    return std::sqrt(2.0 * deltaSeconds * mtbfSeconds) * (1.0 + std::sqrt(x) / 3.0 + x / 9.0) -
           deltaSeconds;
}

double dalyWallTime(double workSeconds, double intervalSeconds, double deltaSeconds,
                    double restartSeconds, double mtbfSeconds)
{
    const double segments = workSeconds / intervalSeconds;
    if (!std::isfinite(mtbfSeconds))
        return workSeconds + segments * deltaSeconds;
    // Daly 2006, the complete model of the wall time: each of the T_s / tau segments (work tau plus
    // a checkpoint delta) is retried until it runs through without a failure; each failure costs
    // the time since the segment began plus a restart R, itself exposed to failures. expm1 keeps
    // the small-rate limit T_s (1 + delta / tau) exact.
    return mtbfSeconds * std::exp(restartSeconds / mtbfSeconds) *
           std::expm1((intervalSeconds + deltaSeconds) / mtbfSeconds) * segments;
}

GoodputResult solveGoodput(const model::ResolvedScenario& r, const ComputeResult& compute,
                           const NetworkResult& network, const CostResult& cost,
                           Diagnostics& diagnostics)
{
    GoodputResult out;
    const auto& w = r.scenario.workload;

    // Failure-free progress: the compute result's training time without its checkpoints.
    const double workSeconds =
        compute.trainingDays * 86400.0 - compute.checkpoints * compute.checkpointWriteSeconds;
    out.failureFreeDays = compute.trainingDays;
    if (!(workSeconds > 0.0) || !std::isfinite(workSeconds))
        return out;
    out.valid = true;
    out.workHours = workSeconds / 3600.0;

    // The units the job holds; the fabric's counts come from the network result.
    const double nodes = static_cast<double>(r.scenario.compute.nodeCount);
    out.gpus.units = static_cast<double>(compute.gpuCount);
    out.nodes.units = nodes;
    if (network.valid) {
        out.nics.units = static_cast<double>(network.topology.nics);
        out.switches.units = static_cast<double>(network.topology.switches);
        out.links.units =
            static_cast<double>(network.topology.endpointLinks + network.topology.switchLinks);
    } else {
        out.nics.units = nodes * r.rails;
        out.links.units = out.nics.units;
    }

    double replacingPerHour = 0.0;
    for (const auto& rate : r.failureRates) {
        UnitInterruptions* unit = nullptr;
        switch (rate.per) {
        case model::FailureUnit::Gpu:
            unit = &out.gpus;
            break;
        case model::FailureUnit::Node:
            unit = &out.nodes;
            break;
        case model::FailureUnit::Nic:
            unit = &out.nics;
            break;
        case model::FailureUnit::Switch:
            unit = &out.switches;
            break;
        case model::FailureUnit::Link:
            unit = &out.links;
            break;
        }
        const double perHour = rate.failuresPerMillionHours * 1e-6 * unit->units;
        unit->perHour += perHour;
        out.interruptionsPerHour += perHour;
        if (rate.replacesNode)
            replacingPerHour += perHour;
    }
    const double mtbfSeconds = out.interruptionsPerHour > 0.0
                                   ? 3600.0 / out.interruptionsPerHour
                                   : std::numeric_limits<double>::infinity();
    out.jobMtbfHours = out.interruptionsPerHour > 0.0 ? 1.0 / out.interruptionsPerHour : 0.0;
    out.nodeReplacingShare =
        out.interruptionsPerHour > 0.0 ? replacingPerHour / out.interruptionsPerHour : 0.0;

    // Hot spares: failed nodes are in repair for node_repair_hours each, so the nodes out at
    // any moment are Poisson with mean (node-replacing rate x repair time) (an M/G/infinity
    // queue; Little's law). A failure waits for repair only when every spare is out already.
    const double repairHours = w.nodeRepairHours;
    out.spareWaitProbability = poissonTailAtLeast(replacingPerHour * repairHours, w.hotSpareNodes);

    // Recovery: re-launch and re-init, read the last checkpoint back, and for a node failure
    // without a free spare wait for the repair.
    out.checkpointWriteSeconds = compute.checkpointWriteSeconds;
    out.checkpointLoadSeconds = compute.checkpointGb / r.scenario.storage.readGbytePerS;
    out.restartSeconds = w.restartMinutes * 60.0 + out.checkpointLoadSeconds +
                         out.nodeReplacingShare * out.spareWaitProbability * repairHours * 3600.0;

    // Checkpoint interval: Daly's optimum, or the user's when the scenario sets one (a sweep
    // patches the value without marking it set, so a value off the default counts as set).
    const double delta = std::max(out.checkpointWriteSeconds, 1e-3);
    const double optimal =
        std::isfinite(mtbfSeconds) ? dalyCheckpointInterval(delta, mtbfSeconds) : workSeconds;
    const double young =
        std::isfinite(mtbfSeconds) ? youngCheckpointInterval(delta, mtbfSeconds) : workSeconds;
    out.userInterval =
        r.scenario.present.count("/workload/checkpoint_interval_hours") > 0 ||
        w.checkpointIntervalHours != model::WorkloadSection{}.checkpointIntervalHours;
    const double interval =
        std::max(out.userInterval ? w.checkpointIntervalHours * 3600.0 : optimal, 1e-3);
    out.youngIntervalHours = young / 3600.0;
    out.optimalIntervalHours = optimal / 3600.0;
    out.intervalHours = interval / 3600.0;
    out.intervalOverOptimal = interval / optimal;

    const double wall = dalyWallTime(workSeconds, interval, delta, out.restartSeconds, mtbfSeconds);
    const double wallAtOptimum =
        dalyWallTime(workSeconds, optimal, delta, out.restartSeconds, mtbfSeconds);
    if (!std::isfinite(wall) || !std::isfinite(wallAtOptimum)) {
        // e^((tau + delta + R) / M) overflows: the run, in expectation, never finishes.
        diagnostics.error(
            "/workload",
            "the training run never finishes: recovery (" +
                shortNumber(out.restartSeconds / 3600.0) + " h) or a checkpoint segment (" +
                shortNumber((interval + delta) / 3600.0) + " h) lasts hundreds of job MTBFs (" +
                shortNumber(mtbfSeconds / 3600.0) + " h)",
            "keep hot spares (/workload/hot_spare_nodes), shorten "
            "/workload/node_repair_hours or /workload/checkpoint_interval_hours, "
            "or write checkpoints faster",
            "run-never-finishes");
        out.valid = false;
        return out;
    }
    out.effectiveHours = wall / 3600.0;
    out.effectiveDays = wall / 86400.0;
    out.intervalExcessHours = (wall - wallAtOptimum) / 3600.0;

    // What the wall time is spent on beyond the work, from the same model (exponential
    // failures, as Daly 2006): each of the N = T_s / tau segments fails e^x - 1 times on average (x
    // = (tau + delta) / M), losing M - (tau + delta) / (e^x - 1) each time (the expected time to a
    // failure within the segment), then restarts; a restart of R is itself retried until it runs
    // through, which takes M (e^(R/M) - 1). Checkpoints cost delta per segment. The three add up to
    // Daly's wall time minus the work; interruptions (restarts included) come at the job's rate.
    const double segments = workSeconds / interval;
    out.checkpointHours = segments * delta / 3600.0;
    out.interruptions = out.interruptionsPerHour * out.effectiveHours;
    if (std::isfinite(mtbfSeconds)) {
        const double retries = std::expm1((interval + delta) / mtbfSeconds);
        out.lostWorkHours =
            std::max(0.0, segments * (retries * mtbfSeconds - (interval + delta))) / 3600.0;
        out.restartHours = segments * retries * mtbfSeconds *
                           std::expm1(out.restartSeconds / mtbfSeconds) / 3600.0;
    }
    out.lostHours = out.checkpointHours + out.lostWorkHours + out.restartHours;
    out.goodput = out.workHours / out.effectiveHours;

    // Cost: the job's GPUs at the cost per GPU-hour over the hours lost, plus the spares'
    // price written off over the run (straight line, as the cost solver amortizes).
    out.clusterUsdPerHour = cost.usdPerGpuHour * compute.gpuCount;
    const double years = r.scenario.economics.amortizationYears;
    out.spareUsdPerHour = years > 0.0 ? w.hotSpareNodes * r.node.priceUsd / (years * 8760.0) : 0.0;
    out.failureCostUsd =
        out.clusterUsdPerHour * out.lostHours + out.spareUsdPerHour * out.effectiveHours;

    if (out.userInterval && (out.intervalOverOptimal > 2.0 || out.intervalOverOptimal < 0.5))
        diagnostics.note("/workload/checkpoint_interval_hours",
                         "the checkpoint interval is " + shortNumber(out.intervalOverOptimal) +
                             " x the optimum of " + shortNumber(out.optimalIntervalHours) +
                             " h (Daly 2006): it adds " + shortNumber(out.intervalExcessHours) +
                             " h to the run",
                         "remove the field to checkpoint at the optimum, or set it near it",
                         "checkpoint-interval-off-optimum");
    if (out.interruptions >= 1.0 && out.nodeReplacingShare * out.spareWaitProbability > 0.1 &&
        repairHours * 3600.0 > w.restartMinutes * 60.0 + out.checkpointLoadSeconds)
        diagnostics.note("/workload/hot_spare_nodes",
                         "recovery from a node failure waits " + shortNumber(repairHours) +
                             " h for repair in " + shortNumber(100.0 * out.spareWaitProbability) +
                             "% of node failures: restarts take " + shortNumber(out.restartHours) +
                             " h of the run",
                         "keep hot spare nodes: a few replace failed nodes at once",
                         "no-hot-spares");
    return out;
}

void applyGoodputToCost(const model::ResolvedScenario& r, const GoodputResult& goodput,
                        const ComputeResult& compute, double facilityPowerKw, CostResult& cost)
{
    if (!goodput.valid)
        return;
    // The run occupies the cluster for its effective (with failures) time.
    cost.trainingRunUsd = cost.usdPerGpuHour * compute.gpuCount * goodput.effectiveHours;
    cost.trainingRunEnergyMwh = facilityPowerKw * goodput.effectiveHours / 1000.0;
    cost.trainingRunEnergyUsd =
        cost.trainingRunEnergyMwh * 1000.0 * r.site.electricityPriceUsdPerKwh;
}

} // namespace dct::solvers
