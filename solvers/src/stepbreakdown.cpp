#include "dct/solvers/stepbreakdown.h"

namespace dct::solvers {

std::vector<StepPart> stepBreakdown(const ComputeResult& c, const GoodputResult* goodput)
{
    std::vector<StepPart> parts;
    parts.reserve(15);
    const StepResult& s = c.step;
    if (s.valid && !c.mfuOverride) {
        parts.push_back({"compute", "Matrix math", s.computeSeconds, false});
        parts.push_back({"memory_bound", "Element-wise (HBM)", s.memoryBoundSeconds, false});
        parts.push_back({"kernel_overhead", "Kernel launches", s.kernelOverheadSeconds, false});
        parts.push_back({"tensor_parallel", "Exposed TP", s.tensorParallelSeconds, true});
        parts.push_back({"context_parallel", "Exposed CP", s.contextParallelSeconds, true});
        parts.push_back({"expert_parallel", "Exposed EP", s.expertParallelSeconds, true});
        parts.push_back({"pipeline_sendrecv", "Exposed PP", s.pipelineSendRecvSeconds, true});
        parts.push_back({"data_parallel", "Exposed DP", s.dataParallelSeconds, true});
        // Only where collectives run beside the computation (data and context parallel): the SMs
        // they take from it.
        if (s.overlapContentionSeconds > 0.0)
            parts.push_back(
                {"overlap_contention", "Overlap slowdown", s.overlapContentionSeconds, false});
        // Only where the host sets the pace of some kernels: the GPU's wait for their launches.
        if (s.hostWaitSeconds > 0.0)
            parts.push_back({"host_wait", "Host overhead", s.hostWaitSeconds, false});
        parts.push_back({"bubble", "Pipeline bubble", s.bubbleSeconds, false});
        parts.push_back({"optimizer", "Optimizer", s.optimizerSeconds, false});
        // Only where activations are offloaded: the copies the computation waits for.
        if (s.memory.offloadedGb > 0.0)
            parts.push_back({"offload", "Activation offload", s.offloadSeconds, false});
    } else {
        parts.push_back({"compute", "Compute (at MFU)", c.computeSecondsPerStep, false});
        parts.push_back({"data_parallel", "Exposed DP", c.exposedCommSecondsPerStep, true});
    }
    parts.push_back({"stragglers", "Stragglers", c.stragglerSecondsPerStep, false});
    // The data loader only shows when it sets the pace (compute.cpp takes the larger).
    const double beforeData =
        c.computeSecondsPerStep + c.exposedCommSecondsPerStep + c.stragglerSecondsPerStep;
    if (c.dataLoaderSecondsPerStep > beforeData)
        parts.push_back(
            {"data_loader", "Data loader wait", c.dataLoaderSecondsPerStep - beforeData, false});
    if (goodput && goodput->valid && c.steps > 0.0) {
        // The run's checkpoint writes and failure losses (lost work, restarts) per step.
        parts.push_back(
            {"checkpoints", "Checkpoints", goodput->checkpointHours * 3600.0 / c.steps, false});
        parts.push_back({"failures", "Failures",
                         (goodput->lostWorkHours + goodput->restartHours) * 3600.0 / c.steps,
                         false});
    }
    return parts;
}

} // namespace dct::solvers
