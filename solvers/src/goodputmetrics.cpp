#include "dct/solvers/goodputmetrics.h"

namespace dct::solvers {

void addReliabilityMetrics(Evaluation& e)
{
    const GoodputResult& g = e.goodput;
    if (!g.valid)
        return;
    // The interruption rate depends on the job's size (GPUs, nodes, the fabric) and the
    // catalog's per-component rates; the time lost also on the checkpoint and restart inputs.
    const MetricInputs size = metricInputs<"/compute/node_count", "/compute/node", "/network">();
    const MetricInputs checkpoint =
        metricInputs<"/workload/parameters_billion", "/workload/checkpoint_bytes_per_parameter",
                     "/storage/write_gbyte_per_s", "/compute/node_count", "/network">();
    const MetricInputs recovery =
        metricInputs<"/workload/restart_minutes", "/workload/node_repair_hours",
                     "/workload/hot_spare_nodes", "/storage/read_gbyte_per_s",
                     "/compute/node_count", "/network">();
    const MetricInputs run =
        metricInputs<"/workload", "/storage/write_gbyte_per_s", "/storage/read_gbyte_per_s",
                     "/compute/node_count", "/compute/node", "/network">();
    const MetricInputs money = metricInputs<"/workload", "/storage", "/compute/node_count",
                                            "/compute/node", "/network", "/economics">();
    e.add("reliability.interruptions_per_day", "Job interruption rate",
          g.interruptionsPerHour * 24.0, "1/day", Better::Lower, size);
    e.add("reliability.gpu_interruptions_per_day", "From GPUs (GPU, HBM, SRAM, GSP)",
          g.gpus.perHour * 24.0, "1/day", Better::Lower, size);
    e.add("reliability.node_interruptions_per_day", "From hosts (CPU, memory, PSU, software)",
          g.nodes.perHour * 24.0, "1/day", Better::Lower, size);
    e.add("reliability.network_interruptions_per_day", "From the fabric (NICs, switches, links)",
          (g.nics.perHour + g.switches.perHour + g.links.perHour) * 24.0, "1/day", Better::Lower,
          size);
    e.add("reliability.job_mtbf_hours", "Job MTBF", g.jobMtbfHours, "h", Better::Higher, size);
    e.add("reliability.interruptions", "Interruptions per run", g.interruptions, "", Better::Lower,
          run);
    e.add("reliability.checkpoint_load_seconds", "Checkpoint load at restart",
          g.checkpointLoadSeconds, "s", Better::Lower,
          metricInputs<"/workload/parameters_billion", "/workload/checkpoint_bytes_per_parameter",
                       "/storage/read_gbyte_per_s">());
    e.add("reliability.spare_wait_probability", "Node failures waiting for repair",
          g.spareWaitProbability, "", Better::Lower, recovery);
    e.add("reliability.restart_seconds", "Recovery per interruption", g.restartSeconds, "s",
          Better::Lower, recovery);
    e.add("reliability.young_interval_hours", "Checkpoint interval, Young (sqrt(2 delta M))",
          g.youngIntervalHours, "h", Better::Neither, checkpoint);
    e.add("reliability.optimal_interval_hours", "Optimal checkpoint interval (Daly)",
          g.optimalIntervalHours, "h", Better::Neither, checkpoint);
    e.add("reliability.checkpoint_interval_hours",
          g.userInterval ? "Checkpoint interval (set)" : "Checkpoint interval (optimal)",
          g.intervalHours, "h", Better::Neither,
          metricInputs<"/workload/checkpoint_interval_hours">());
    e.add("reliability.interval_over_optimal", "Checkpoint interval / optimal",
          g.intervalOverOptimal, "", Better::Neither, run);
    e.add("reliability.interval_excess_hours", "Time the interval adds over the optimum",
          g.intervalExcessHours, "h", Better::Lower, run);
    e.add("reliability.checkpoint_hours", "Time lost writing checkpoints", g.checkpointHours, "h",
          Better::Lower, run);
    e.add("reliability.lost_work_hours", "Work redone since the last checkpoint", g.lostWorkHours,
          "h", Better::Lower, run);
    e.add("reliability.restart_hours", "Time lost restarting", g.restartHours, "h", Better::Lower,
          run);
    e.add("reliability.lost_hours", "Time lost in all", g.lostHours, "h", Better::Lower, run);
    e.add("reliability.goodput", "Goodput (work / wall time)", g.goodput, "", Better::Higher, run);
    e.add("reliability.failure_free_training_days", "Training time, failure-free",
          g.failureFreeDays, "days", Better::Lower, run);
    e.add("reliability.effective_training_days", "Training time with failures", g.effectiveDays,
          "days", Better::Lower, run);
    e.add("reliability.failure_cost_usd", "Cost of failures", g.failureCostUsd, "USD",
          Better::Lower, money);
}

} // namespace dct::solvers
