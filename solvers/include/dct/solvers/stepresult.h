#pragma once

namespace dct::solvers {

/** One collective of the step: what it moves, over how many ranks, and its time. */
struct StepCollective
{
    double bytes = 0.0;   ///< Per call, the nccl-tests size.
    int ranks = 1;        ///< Ranks in the group.
    int ranksPerNode = 1; ///< Of them on one node (the NVLink domain).
    double seconds = 0.0; ///< One call.
    double perStep = 0.0; ///< Calls per step on one GPU.
    int channels = 0;     ///< NCCL's channels of one call: one CUDA block, one SM, each.
};

/** Per-GPU memory of a training layout (bytes as GB, 1e9). */
struct StepMemory
{
    double weightsGb = 0.0;
    double gradientsGb = 0.0;
    double optimizerGb = 0.0;
    double activationsGb = 0.0;
    double buffersGb = 0.0; ///< Logits, ZeRO-3 gather buffers, CUDA context.
    double totalGb = 0.0;
    double capacityGb = 0.0;         ///< The GPU's HBM.
    double layerActivationsGb = 0.0; ///< One layer's activations of one micro-batch.
    double offloadedGb = 0.0;        ///< Activations in host memory (activation offloading).
};

/**
 * The predicted optimizer step of a training job on its layout: where the time goes on one GPU
 * (the pipeline's critical path) and the memory it needs.
 */
struct StepResult
{
    bool valid = false;
    double parameters = 0.0;            ///< Every weight of the model.
    double activeParameters = 0.0;      ///< Weights one token meets.
    double modelFlopsPerStep = 0.0;     ///< Forward and backward, no recomputation, whole cluster.
    double hardwareFlopsPerStep = 0.0;  ///< With recomputation.
    double narayananFlopsPerStep = 0.0; ///< 96 B s l h^2 (1 + s/6h + V/16lh), dense check.
    double microBatches = 0.0;          ///< Per pipeline per step (m).
    double pacingStageLayers = 0.0;     ///< Layers of the stage that sets the pace.
    bool pacingStageHasOutputLayer = false; ///< The pace is the last stage's (output layer).
    double microBatchSeconds = 0.0;         ///< One micro-batch through one GPU's stage(s).
    // Seconds per step on one GPU, by part (their sum is stepSeconds).
    double computeSeconds = 0.0;   ///< Matrix math at the achievable rate, recompute included.
    double recomputeSeconds = 0.0; ///< The part of computeSeconds that is recomputation.
    /// Matrix math at the achievable rate over the time its shapes take (tile and wave
    /// quantization, the HBM roofline of small GEMMs): 1 when every GEMM fills the GPU.
    double matmulShapeEfficiency = 1.0;
    double memoryBoundSeconds = 0.0;    ///< Element-wise work through HBM bandwidth.
    double kernelOverheadSeconds = 0.0; ///< The fixed cost of every kernel launched.
    double tensorParallelSeconds = 0.0;
    double contextParallelSeconds = 0.0; ///< Exposed beyond the attention it overlaps.
    double expertParallelSeconds = 0.0;
    /// Copies of a token one expert dispatch sends: top-k rows on the all-to-all dispatcher, the
    /// ranks (within a node) or nodes its experts reach on a flex one; 0 without expert
    /// parallelism.
    double expertDispatchCopies = 0.0;
    double pipelineSendRecvSeconds = 0.0;
    double bubbleSeconds = 0.0;
    double dataParallelSeconds = 0.0;      ///< Data-parallel traffic of the step, exposed part.
    double dataParallelTotalSeconds = 0.0; ///< All of it, hidden or not.
    double optimizerSeconds = 0.0;         ///< Optimizer update through HBM.
    /// Activation offloading's copies to and from host memory the computation waits for.
    double offloadSeconds = 0.0;
    /// The computation's slowdown under the data- and context-parallel collectives it hides:
    /// their channels' SMs are taken from its kernels while they run.
    double overlapContentionSeconds = 0.0;
    /// The GPU idle while the host issues kernels it runs faster than they come (host-bound
    /// layers: many small kernels, a device-to-host sync each MoE layer).
    double hostWaitSeconds = 0.0;
    double stepSeconds = 0.0; ///< Without stragglers, data loading, checkpoints.
    double mfu = 0.0;         ///< Model FLOPs / (step x GPUs x peak).
    double hfu = 0.0;         ///< Hardware FLOPs (recomputation counted) / (step x GPUs x peak).
    double achievedTflopsPerGpu = 0.0; ///< Hardware FLOPs per GPU per second.
    StepCollective tensorParallel;     ///< One activation all-reduce (or reduce-scatter).
    StepCollective pipeline;           ///< One activation send/recv between stages.
    StepCollective dataParallel;       ///< The dense gradient reduction of a step.
    StepCollective expertDataParallel; ///< The expert gradient reduction of a step.
    StepCollective expertDispatch;     ///< One all-to-all of an MoE layer.
    StepCollective contextParallel;    ///< One key/value all-gather of a layer.
    StepMemory memory;
};

} // namespace dct::solvers
