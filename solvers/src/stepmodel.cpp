// The training step of a transformer on its parallel layout, per GPU, on the pipeline's
// critical path. The mechanisms and their sources:
// - Matrix FLOPs per part (attention projections, attention scores, MLP or experts, logits),
//   forward once and backward twice (Narayanan et al., "Efficient Large-Scale Language Model
//   Training on GPU Clusters Using Megatron-LM", SC'21, section 5.1 and its appendix), at the
//   GPU's achievable matrix rate (the catalog's matmul_efficiency) and the thermal clock.
// - Each matrix multiply by its shape: the output is cut into tiles, one per SM at a time, so a
//   GEMM takes whole waves of sm_count tiles and a partial last tile or wave costs a whole one
//   (NVIDIA, "Matrix Multiplication Background User's Guide", sections 3.1 and 3.2: tile and
//   wave quantization); and it takes at least the time to stream its operands and result
//   through HBM (the roofline, Williams, Waterman and Patterson, CACM 52(4), 2009), which binds
//   the attention scores' batched GEMMs of head dimension 64-128 when they are not fused.
// - Element-wise work through HBM bandwidth: the tensors each layer's norms, activations,
//   dropouts and residual adds read and write, counted as Korthikanti et al., "Reducing
//   Activation Recomputation in Large Transformer Models" (MLSys 2023, arXiv 2205.05198),
//   section 4.1 counts the activations they keep.
// - Tensor parallelism: two all-reduces per layer forward and two backward (Shoeybi et al. 2019,
//   Megatron-LM, figure 4); with sequence parallelism each becomes a reduce-scatter and an
//   all-gather (Korthikanti et al., section 4.2.2).
// - Pipeline: bubble (p - 1) / (m v) of the ideal time (Narayanan et al., sections 2.2.1 and
//   2.2.2) and an activation send/recv per chunk per micro-batch each way, scattered over the
//   tensor-parallel ranks (section 4.1).
// - Data parallelism: gradients reduced as ZeRO stage 0-3 does (Rajbhandari et al., "ZeRO:
//   Memory Optimizations Toward Training Trillion Parameter Models", SC'20, section 7), bucketed
//   so that overlap_fraction of it can run under backward compute.
// - Context parallelism: keys and values all-gathered forward, gathered and reduce-scattered
//   backward (Megatron-Core context parallelism), hidden under the attention they feed.
// - Expert parallelism: dispatch and combine all-to-all per MoE layer each way (Lepikhin et al.
//   2020, GShard), node-limited routing sending a token to at most M nodes (DeepSeek-V3
//   technical report, section 2.1.2).
// Every communication time comes from the collectives engine (collectives.h) on the solved
// fabric: the group's ranks and how many of them share a node decide NVLink or the rails.
#include "dct/solvers/stepmodel.h"

#include "dct/model/pipelinesplit.h"
#include "dct/model/scaleupdomain.h"
#include "dct/solvers/collectives.h"
#include "dct/solvers/networksolver.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

namespace dct::solvers {

using model::Recompute;

namespace {

constexpr double kBf16Bytes = 2.0;
// Mixed-precision Adam: fp32 master weights, momentum and variance, K = 12 bytes per parameter
// (Rajbhandari et al. 2020, section 3.1), beside 2-byte weights and 2-byte gradients.
constexpr double kOptimizerBytes = 12.0;
// The optimizer update reads the fp32 states and the gradient and writes the states and the
// bf16 weight: 4 x 3 + 2 read, 4 x 3 + 2 written per parameter of the rank's shard.
constexpr double kOptimizerUpdateBytes = 28.0;
// The fixed cost of one kernel, paid whatever its size: the CUDA driver's launch of a kernel,
// 3.0 us for a raw cuLaunchKernel measured on GB200 (meta-pytorch/tritonbench pull request
// 1017, 2026, "nop_triton_direct_culaunch", the irreducible driver cost); PyTorch's own launch
// path costs more, 5-20 us on the CPU (facebookresearch/HolisticTraceAnalysis, docs, "CUDA
// kernel launch statistics"), but the CPU runs ahead of long kernels, so the driver's share is
// taken. Megatron-LM's runs of 2021-2024 launch every kernel eagerly (no CUDA graphs).
constexpr double kKernelFixedSeconds = 3.0e-6;
// DualPipe's communication kernels (the expert all-to-all's dispatch and combine over
// InfiniBand and NVLink) run on 20 of the H800's 132 SMs beside the computation of the paired
// chunk, which keeps the rest (DeepSeek-V3 technical report, arXiv 2412.19437, 3.2.2: "only 20
// SMs are sufficient to fully utilize the bandwidths of IB and NVLink").
constexpr double kDualPipeCommunicationSms = 20.0;
// Megatron-Core's expert all-to-all overlap merges one micro-batch's forward with another's
// backward layer by layer (megatron/core/models/common/model_chunk_schedule_plan.py,
// TransformerLayerSchedulePlan.run): on the communication stream the backward's combine, the
// forward's dispatch then the backward's, the forward's combine, each issued behind the
// computation it depends on, beside the attention and the experts of the other. How much of the
// communication that lets run beside computation was measured: NVIDIA's matched Nsight Systems
// comparison of Qwen3-30B-A3B on 16 H100 (EP 16, HybridEP, BF16) found 36.55% of the
// communication time concurrent with GEMMs and attention with the overlap on, 0.11% without
// (NVIDIA-NeMo/Megatron-Bridge, skills/nemo-mbridge-perf-expert-parallel-overlap/SKILL.md,
// "HybridEP Production-Shape Benchmark", 2026-07-25). The rest stays exposed.
constexpr double kEpOverlapConcurrentShare = 0.3655;
// CUDA context, cuBLAS workspaces and NCCL buffers (assumption: about 1 GB per GPU; the CUDA
// context of a PyTorch process alone takes 0.3-0.5 GB).
constexpr double kRuntimeBufferGb = 1.0;

/**
 * Bytes of one gradient as it is accumulated, kept and reduced. Auto: fp32 when training in bf16
 * or fp8 (Megatron-LM forces gradient accumulation and all-reduce to fp32 for bfloat16,
 * megatron/training/arguments.py, accumulate_allreduce_grads_in_fp32; Llama 3 reduce-scatters its
 * gradients in FP32, Dubey et al. 2024, 3.3.4), the weights' 2 bytes in fp16 mixed precision
 * (Rajbhandari et al. 2020, 3.1). Bf16: the gradient buffer in the weights' bf16, as NeMo's
 * distributed Adam keeps it with optim.grad_sync_dtype bf16 (Apex DistributedFusedAdam allocates
 * its gradient buffers in grad_sync_dtype, apex/contrib/optimizers/distributed_fused_adam.py) and
 * Megatron-Core's DistributedDataParallel without grad_reduce_in_fp32.
 */
double gradientBytes(const model::WorkloadSection& w)
{
    switch (w.gradientPrecision) {
    case model::GradientPrecision::Fp32:
        return 4.0;
    case model::GradientPrecision::Bf16:
        return kBf16Bytes;
    case model::GradientPrecision::Auto:
        break;
    }
    switch (w.precision) {
    case model::Precision::Bf16:
    case model::Precision::Fp8:
    case model::Precision::Tf32:
    case model::Precision::Fp64:
        return 4.0;
    case model::Precision::Fp16:
        break;
    }
    return kBf16Bytes;
}

/** The gradients add up as DeepSpeed's BF16 optimizer adds them (gradient_accumulation). */
bool deepSpeedBf16(const model::WorkloadSection& w)
{
    return w.gradientAccumulation == model::GradientAccumulation::DeepSpeedBf16;
}

/**
 * HBM bytes a weight's gradient moves per micro-batch as it is accumulated. Fused (Megatron-LM's
 * main_grad, added by the weight-gradient GEMM): the buffer read and written, 8. DeepSpeed's BF16
 * optimizer (deepspeed/runtime/bf16_optimizer.py, update_hp_grads, which its pipeline engine
 * calls after every micro-batch's backward, deepspeed/runtime/pipe/engine.py
 * _exec_backward_pass, from PR 1801 of April 2022): the backward writes a fresh bf16 gradient
 * (2; the optimizer clears the last one first), `lp.grad.to(fp32)` reads it and writes an fp32
 * copy (2 + 4), and `hp_grad.add_()` reads the fp32 gradient and the copy and writes the sum
 * (4 + 4 + 4): 20.
 */
double accumulationBytesPerWeight(const model::WorkloadSection& w)
{
    return deepSpeedBf16(w) ? 2.0 + 6.0 + 12.0 : 8.0;
}

/**
 * Kernels a layer's gradient accumulation launches per micro-batch beyond the backward's own:
 * DeepSpeed's BF16 optimizer casts and adds tensor by tensor (two kernels a parameter tensor:
 * the four projections' weights and the two norms' scales, and with linear biases the four
 * projections' biases; the norms' biases, where a model has them, are not counted). Fused: none.
 */
double accumulationKernels(const model::ModelSpec& m, const model::WorkloadSection& w)
{
    return deepSpeedBf16(w) ? 2.0 * (6.0 + (m.linearBias ? 4.0 : 0.0)) : 0.0;
}

/** Bytes of optimizer state per parameter: the fp32 master weight and Adam's two moments. */
double optimizerBytes(const model::WorkloadSection& w)
{
    return w.optimizerMoments == model::OptimizerMoments::Bf16 ? kOptimizerBytes - 2.0 * kBf16Bytes
                                                               : kOptimizerBytes;
}

/** The layout as the step model reads it. */
struct Layout
{
    int t = 1, p = 1, d = 1, c = 1, e = 1, v = 1;
    int et = 1; ///< Expert tensor parallelism: ranks that split each expert's weights.
    double b = 1.0;
    double s = 1.0;
    double m = 1.0; ///< Micro-batches per pipeline per step.
    bool sp = false;
    int scaleUpGpus = 8; ///< GPUs on one NVLink domain: the node, or the domain spanning nodes.
    int gpus = 1;
    double stageLayers = 1.0;      ///< Transformer layers of the fullest stage.
    double lastStageLayers = 1.0;  ///< Of the last stage, which also runs the output and loss.
    double firstStageLayers = 1.0; ///< Of the first stage, which also holds the embedding.
    int f = 0;         ///< 1: the embedding and the loss each take a layer's slot in the split.
    double mtp = 0.0;  ///< Multi-token prediction layers, on the last stage (mtp_layers).
    bool dual = false; ///< DualPipe: each GPU holds stages i and p - 1 - i.
    /// The interleaved schedule's steady-state send/recv under the computation
    /// (overlap_p2p_comm with p > 1 and v > 1).
    bool p2pOverlap = false;
    /// The expert all-to-all overlapped by merged forward-backward steps (moe_a2a_overlap).
    bool a2aOverlap = false;
    /// The shared experts' GEMMs under the dispatch and combine (moe_shared_expert_overlap).
    bool sharedExpertOverlap = false;
    /// Share of each chunk's layers recomputed whole (recompute full; the block method's
    /// recompute_num_layers of a chunk's layers), 0 without full recomputation.
    double wholeShare = 0.0;
    int modules = 0; ///< RecomputeModule bits recomputed (recompute selective), else 0.
    /// Layers whose activations go to host memory (activation_offload_layers): one stage only.
    double offload = 0.0;

    bool recomputes(int module) const { return (modules & module) != 0; }

    /// Forward chunks the first stage runs before its first backward (Megatron-Core's
    /// get_pp_rank_microbatches): 2 (p - 1) + (v - 1) p when pipelined, one more with the
    /// expert all-to-all overlap so that each merged pair is independent.
    double warmupChunks() const
    {
        return (p > 1 ? 2.0 * (p - 1.0) + (v - 1.0) * p : 0.0) + (a2aOverlap ? 1.0 : 0.0);
    }

    /// Replicas of each expert shard: the expert grid (expert tensor x expert x expert data
    /// parallel) covers the tensor x context x data ranks of a stage.
    /// In 64 bits: a layout read without validation may multiply past an int.
    int expertReplicas() const
    {
        const long long ranks =
            static_cast<long long>(d) * c * t / (static_cast<long long>(e) * et);
        return static_cast<int>(std::clamp<long long>(ranks, 1, std::numeric_limits<int>::max()));
    }
};

Layout layoutOf(const model::ResolvedScenario& r)
{
    const auto& w = r.scenario.workload;
    Layout l;
    l.t = std::max(1, w.tensorParallel);
    l.p = std::max(1, w.pipelineParallel);
    l.d = std::max(1, r.dataParallel);
    l.c = std::max(1, w.contextParallel);
    l.e = std::max(1, w.expertParallel);
    l.et = w.effectiveExpertTensorParallel();
    l.v = w.pipelineSchedule == model::PipelineSchedule::Interleaved ? std::max(1, w.virtualStages)
                                                                     : 1;
    l.dual = w.pipelineSchedule == model::PipelineSchedule::DualPipe && l.p > 1;
    l.p2pOverlap = w.overlapP2pComm && l.p > 1 && l.v > 1;
    l.b = std::max(1, w.microBatchSize);
    l.s = std::max(1, r.sequenceLength);
    l.m = std::max(1.0, std::ceil(static_cast<double>(w.globalBatchSequences) / (l.d * l.b)));
    l.sp = w.sequenceParallel && l.t > 1;
    l.scaleUpGpus = std::max(1, model::scaleUpDomainGpus(r));
    l.gpus = std::max(1, r.gpuCount());
    // Layers are whole: the L layers (plus the embedding's and the loss's slots when they count
    // as layers, Dubey et al. 2024, 3.3.2) are cut into p v model chunks of at most
    // ceil(slots / p v) layers each, so the fullest stage holds v of them; the last stage takes
    // what is left and also runs the output layer and the loss (Megatron-LM's uneven split,
    // --decoder-last-pipeline-num-layers). The first stage loses one slot to the embedding.
    // The split is the validator's (model/pipelinesplit.h).
    l.f = w.embeddingAndLossAsLayers && l.p > 1 ? 1 : 0;
    l.mtp = std::max(0, w.mtpLayers);
    const model::PipelineSplit split = model::pipelineSplit(r.model.layers, l.p, l.v, l.f == 1);
    const double slots = split.slots;
    l.stageLayers = std::min<double>(r.model.layers, split.fullStage);
    if (l.p == 1) {
        l.lastStageLayers = r.model.layers;
        l.firstStageLayers = r.model.layers;
    } else {
        const double rest = slots - (l.p - 1.0) * l.stageLayers;
        l.lastStageLayers = std::max(0.0, std::min(l.stageLayers, rest) - l.f);
        l.firstStageLayers = std::max(0.0, l.stageLayers - l.f);
    }
    // Megatron-Core's block method recomputes the first recompute_num_layers layers of each
    // model chunk whole and keeps every activation of the others (megatron/core/transformer/
    // transformer_block.py, _checkpointed_forward); the fullest chunk sets the share.
    if (w.recompute == model::Recompute::Full) {
        const double chunkLayers = std::max(1.0, l.stageLayers / l.v);
        l.wholeShare = w.recomputeNumLayers > 0
                           ? std::min(1.0, static_cast<double>(w.recomputeNumLayers) / chunkLayers)
                           : 1.0;
    }
    if (w.recompute == model::Recompute::Selective)
        l.modules = w.recomputeModules;
    if (l.p == 1)
        l.offload = std::min<double>(std::max(0, w.activationOffloadLayers), r.model.layers);
    // The expert all-to-all overlap where Megatron-Core runs it; a layout outside its rules is
    // timed without it.
    l.a2aOverlap = w.moeA2aOverlap && expertOverlapRuns(r.model.moe(), l.e, l.p, l.v, l.dual,
                                                        w.recompute, w.recomputeModules);
    // The validator refuses it beside the merged-step overlap and DualPipe; without shared
    // experts or expert parallelism there is nothing to overlap.
    l.sharedExpertOverlap = w.moeSharedExpertOverlap && r.model.moe() &&
                            r.model.sharedExperts > 0 && l.e > 1 && !l.a2aOverlap && !l.dual;
    return l;
}

/** Forward FLOPs of one layer's parts for one micro-batch (all tensor-parallel ranks). */
struct LayerFlops
{
    double projections = 0.0; ///< Attention's Q, K, V and output projections.
    double scores = 0.0;      ///< Q K^T and scores x V over the full s x s square.
    /// The share of that square a fused causal kernel computes, averaged over the layers: the
    /// causal half, less with sliding windows (the kernel skips the blocks outside the band).
    double fusedShare = 0.5;
    /// A windowed layer's share of that square (0: no window shorter than the sequence).
    double windowBand = 0.0;
    double mlp = 0.0;     ///< Dense MLP or experts, averaged over the layers.
    double lastMlp = 0.0; ///< The last layer's (the experts' in an MoE model), as an MTP layer's.
    double logits = 0.0;  ///< The output layer.
    double mtpProjection = 0.0; ///< An MTP layer's projection of the pair (2 h to h).
};

LayerFlops layerFlops(const model::ModelSpec& m, const Layout& l)
{
    LayerFlops f;
    const double tokens = l.b * l.s;
    const double h = m.hiddenSize;
    const double a = m.heads;
    const double dh = m.effectiveHeadDim();
    const double qk = m.kvLoraRank > 0 ? dh + m.ropeHeadDim : dh;
    f.projections = 2.0 * tokens * (m.attentionParameters() - 4.0 * h);
    f.scores = 2.0 * l.b * l.s * l.s * a * (qk + dh);
    // A window of w keys: query i attends to min(i + 1, w) of them, w s - w^2 / 2 of the s^2
    // square for w < s (FlashAttention-2's and cuDNN's sliding-window masks skip the blocks
    // outside the band).
    const double windowed = m.windowedLayerShare();
    if (windowed > 0.0 && m.slidingWindow < l.s) {
        const double window = m.slidingWindow;
        f.windowBand = (window * l.s - 0.5 * window * window) / (l.s * l.s);
        f.fusedShare = (1.0 - windowed) * 0.5 + windowed * f.windowBand;
    }
    const double moeShare = static_cast<double>(m.moeLayers()) / std::max(1, m.layers);
    const double moeMlp = 2.0 * tokens *
                          ((m.activeExperts + m.sharedExperts) * m.expertParameters() +
                           h * static_cast<double>(m.experts));
    f.mlp = (1.0 - moeShare) * 2.0 * tokens * m.denseMlpParameters() + moeShare * moeMlp;
    f.lastMlp = m.moeLayers() > 0 ? moeMlp : 2.0 * tokens * m.denseMlpParameters();
    f.logits = 2.0 * tokens * m.vocabSize * h;
    f.mtpProjection = 2.0 * tokens * 2.0 * h * h;
    return f;
}

/**
 * Exponentials a streaming multiprocessor computes per clock on its special-function units:
 * 16 on Hopper (Shah et al., "FlashAttention-3", arXiv 2407.08608, 2024, section 3.1: the H100
 * SXM5 has 989 TFLOPS of FP16 matrix math but only 3.9 TFLOPS of special functions, i.e. 16 a
 * clock on each of its 132 SMs at 1.83 GHz) and on Blackwell, whose tensor cores doubled while
 * the exponential units did not (Zadouri et al., "FlashAttention-4", arXiv 2603.05451, 2026).
 */
constexpr double kExponentialsPerClockPerSm = 16.0;

} // namespace

double attentionHeadDimFactor(double flopsPerScore, double referenceFlopsPerScore,
                              double flopsPerExponential)
{
    // Time per score: the products at the matrix rate, then one exponential: (F + F_e) / P with
    // F_e the matrix FLOPs one exponential's time is worth. The rate in FLOPs is F over that.
    if (flopsPerScore <= 0.0 || referenceFlopsPerScore <= 0.0)
        return 1.0;
    const double e = std::max(0.0, flopsPerExponential);
    return flopsPerScore / referenceFlopsPerScore * (referenceFlopsPerScore + e) /
           (flopsPerScore + e);
}

double attentionFlopsPerExponential(const model::GpuSpec& gpu, double peakTflops)
{
    if (gpu.smCount <= 0 || gpu.boostClockMhz <= 0.0)
        return 0.0;
    return peakTflops * 1e12 / (gpu.smCount * gpu.boostClockMhz * 1e6) / kExponentialsPerClockPerSm;
}

double attentionTileEfficiency(double sequence, double window)
{
    // Useful scores over the scores the kernel computes, in units of a block's B x B: a causal
    // sequence of n = s / B blocks computes n (n + 1) / 2 tiles and pays 1.5 tiles' worth a
    // query block for n^2 / 2 useful; a window of w = W / B blocks (W < s) touches w + 1 key
    // blocks a query block (w at the start ramp) for W s - W^2 / 2 useful scores.
    constexpr double kBlock = 128.0;
    constexpr double kFixedBlocks = 1.5;
    const auto efficiency = [&](double s, double w) {
        const double n = std::max(s, 1.0) / kBlock;
        if (w <= 0.0 || w >= s)
            return n / (n + 1.0 + 2.0 * kFixedBlocks);
        const double wb = w / kBlock;
        const double useful = (w * s - 0.5 * w * w) / (kBlock * kBlock);
        const double computed = n * (wb + 1.0) - 0.5 * wb * (wb + 1.0) + kFixedBlocks * n;
        return useful / std::max(computed, 1e-12);
    };
    return efficiency(sequence, window) / efficiency(4096.0, 0.0);
}

AttentionEfficiencies attentionEfficiencies(const model::GpuSpec& gpu,
                                            model::AttentionKernel kernel)
{
    // The fused kernel's rates as the catalog has them; another kernel's where both are measured.
    const model::GpuSpec::AttentionRates own = gpu.attentionRates(kernel);
    if (kernel == model::AttentionKernel::Fused || (own.forward > 0.0 && own.backward > 0.0))
        return {own.forward, own.backward, false};
    const model::GpuSpec::AttentionRates fused = gpu.attentionRates(model::AttentionKernel::Fused);
    return {fused.forward, fused.backward, true};
}

namespace {

/** A clamped gated activation's eager kernels: two clamps and a concatenation; two gradients. */
constexpr double kClampKernelsForward = 3.0;
constexpr double kClampKernelsBackward = 2.0;

/** Returns whether \a m's gated activation is clamped in eager kernels (activation_clamp). */
bool clampsActivation(const model::ModelSpec& m)
{
    return m.activationClamp > 0.0 && m.gatedMlp;
}

/** Kernels one MoE layer launches, forward and backward (recomputation aside). */
struct MoeKernels
{
    double forward = 0.0;
    double backward = 0.0;
    double router = 0.0;     ///< The router's, each way (with the shared experts' where graphed).
    double preprocess = 0.0; ///< The dispatcher's metadata before the dispatch, forward.
    double shared = 0.0;     ///< The shared experts', forward.
    double sharedBackward = 0.0;
    /// Of the experts' kernels each way, the quantizations TE's C++ launches split by split,
    /// beyond one call an input (FP8 recipes other than delayed; counted in forward, backward).
    double splitCasts = 0.0;
};

/**
 * The kernels of one MoE layer of \a m on the layout \a l as Megatron-Core runs it (MoELayer
 * with Transformer Engine's grouped experts), by \a w's dispatcher and router fusion:
 * - the router: 72 kernels forward and backward together, 31 with --moe-router-fusion (NVIDIA,
 *   "Optimizing DeepSeek-V3 Training Performance on NVIDIA GB200 NVL72", NVIDIA/Megatron-LM
 *   docs/discussions/deepseek-v3-gb200-optimization, 2.1.4), taken half each way;
 * - the all-to-all dispatcher (megatron/core/transformer/moe/token_dispatcher.py,
 *   MoEAlltoAllTokenDispatcher): forward the routing map's counts, their all-gather and the
 *   splits (4, the metadata), the first permutation (4: the sort, the gathers of tokens and
 *   probabilities, the index), the tokens' and probabilities' all-to-all (2), the sort by local
 *   expert (2), its inverse (2), the combine all-to-all (1) and the unpermutation (3): 18;
 *   backward the same less the metadata: 14; with --moe-permute-fusion each permutation and
 *   its inverse is one kernel (Transformer Engine's moe_permute and moe_unpermute): 11 and 7.
 *   A flex dispatcher (DeepEP, HybridEP) fuses the permutation into its dispatch and combine
 *   kernels (2 each way, and the local sort and its inverse) and the metadata into the
 *   router's, which with router fusion come to 17 (the same write-up, 2.2.1: 14 fewer);
 * - the experts: one GEMM per local expert per projection (GroupedLinear runs a cuBLAS GEMM
 *   per expert over four streams, transformer_engine/common/gemm/cublaslt_gemm.cu,
 *   multi_stream_cublas_gemm): 2 forward, 4 backward per local expert; the activation and the
 *   probabilities' product (2 each way); in FP8 the quantization of each grouped GEMM's input
 *   (2 each way: FC1's and FC2's inputs forward, their output gradients backward), one
 *   split_quantize call each (transformer_engine/pytorch/csrc/extensions/cast.cpp, v2.10 to
 *   v2.14, the releases of Megatron-Bridge 25.11 to 26.04): under delayed scaling one fused
 *   multi-tensor cast-transpose of every split (multi_tensor_quantize_impl:
 *   nvte_multi_cast_transpose, "only ... for FP8 delayed scaling"), under the other recipes
 *   each split quantized apart, a local expert's rows each (Quantizer::quantize in a C++
 *   loop): current scaling zeroes the split's amax, computes it, derives the scale and casts
 *   (common/recipe/current_scaling.cu: zero_amax_kernel, the amax kernel,
 *   compute_scale_from_amax_kernel; then nvte_quantize_v2): 4 kernels a split; MXFP8 and
 *   blockwise one (their scales written by the cast);
 * - shared experts as a dense MLP: two GEMMs and the activation forward, four and the
 *   activation's gradient backward, FP8 casts beside;
 * - GPT-OSS's projections (stepTime: the element-wise bytes): a clamped activation's two clamps
 *   and concatenation forward, the clamps' gradients backward (3 and 2, each gated activation);
 *   FC2's bias per local expert, t + b * p forward (2 each and the concatenation) and the
 *   product's two gradients, each written and reduced, backward (4 each and the rows'
 *   concatenation).
 */
MoeKernels moeKernels(const model::ModelSpec& m, const model::WorkloadSection& w, const Layout& l,
                      bool fp8)
{
    MoeKernels k;
    if (!m.moe())
        return k;
    const bool flex = w.moeDispatcher == model::MoeDispatcher::Flex;
    const double localExperts = std::max(1.0, static_cast<double>(m.experts) / l.e);
    const double casts = fp8 ? 2.0 : 0.0;
    if (fp8 && w.fp8Recipe != model::Fp8Recipe::Delayed) {
        const double perSplit = w.fp8Recipe == model::Fp8Recipe::Tensorwise ? 4.0 : 1.0;
        k.splitCasts = 2.0 * (perSplit * localExperts - 1.0);
    }
    k.router = ((w.moeRouterFusion ? 31.0 : 72.0) - (flex ? 14.0 : 0.0)) / 2.0;
    k.preprocess = flex ? 0.0 : 4.0;
    const double dispatchForward = flex ? 4.0 : w.moePermuteFusion ? 11.0 : 18.0;
    const double dispatchBackward = flex ? 4.0 : w.moePermuteFusion ? 7.0 : 14.0;
    const double experts = 2.0 * localExperts + 2.0 + casts + k.splitCasts;
    const bool clamped = clampsActivation(m);
    const double clampForward = clamped ? kClampKernelsForward : 0.0;
    const double clampBackward = clamped ? kClampKernelsBackward : 0.0;
    const double biasForward = m.linearBias ? 2.0 * localExperts + 1.0 : 0.0;
    const double biasBackward = m.linearBias ? 4.0 * localExperts + 1.0 : 0.0;
    k.forward = k.router + dispatchForward + experts + clampForward + biasForward;
    k.backward =
        k.router + dispatchBackward + 2.0 * localExperts + experts + clampBackward + biasBackward;
    if (m.sharedExperts > 0) {
        k.shared = 3.0 + casts + clampForward;
        k.sharedBackward = 5.0 + casts + clampBackward;
        k.forward += k.shared;
        k.backward += k.sharedBackward;
    }
    return k;
}

/** What a GPU's matrix multiplies run at. */
struct GemmRates
{
    double flopsPerSecond = 0.0; ///< The achievable matrix rate at the clock.
    double bytesPerSecond = 0.0; ///< The achievable HBM bandwidth (its own clock).
    double sms = 0.0;            ///< Tiles in one wave; 0: shapes not modelled.
    double tileM = 256.0;
    double tileN = 128.0;
};

/** A multiply of an m x k by a k x n matrix, \a batch times (attention: one per head). */
struct Gemm
{
    double m = 0.0;
    double n = 0.0;
    double k = 0.0;
    double batch = 1.0;
};

/** Returns the seconds of \a g: its tiles in whole waves, or its HBM traffic if slower. */
double gemmSeconds(const Gemm& g, const GemmRates& rates)
{
    if (g.m <= 0.0 || g.n <= 0.0 || g.k <= 0.0 || g.batch <= 0.0)
        return 0.0;
    double compute = 2.0 * g.m * g.n * g.k * g.batch / rates.flopsPerSecond;
    if (rates.sms > 0.0) {
        // Tile quantization (a partial tile costs a whole one) and wave quantization (a partial
        // last wave costs a whole one), for the tile laid either way over the output; the
        // library picks the faster (Matrix Multiplication Background User's Guide, 3.1-3.2).
        auto quantized = [&](double rows, double columns) {
            const double tiles = std::ceil(g.m / rows) * std::ceil(g.n / columns) * g.batch;
            const double waves = std::ceil(tiles / rates.sms);
            return waves * rates.sms * 2.0 * rows * columns * g.k / rates.flopsPerSecond;
        };
        compute =
            std::min(quantized(rates.tileM, rates.tileN), quantized(rates.tileN, rates.tileM));
    }
    // Roofline: both operands read and the result written once, in bf16.
    const double bytes = kBf16Bytes * (g.m * g.k + g.k * g.n + g.m * g.n) * g.batch;
    return std::max(compute, bytes / rates.bytesPerSecond);
}

/** Returns the seconds of the backward pass of \a g: the input and the weight gradients. */
double gemmBackwardSeconds(const Gemm& g, const GemmRates& rates)
{
    return gemmSeconds(Gemm{g.m, g.k, g.n, g.batch}, rates) +
           gemmSeconds(Gemm{g.k, g.n, g.m, g.batch}, rates);
}

/** Forward and backward seconds of a list of GEMMs. */
struct GemmTimes
{
    double forward = 0.0;
    double backward = 0.0;
    double ideal = 0.0; ///< Forward and backward at the achievable rate, shapes ignored.
    void add(const Gemm& g, const GemmRates& rates, double weight = 1.0)
    {
        forward += weight * gemmSeconds(g, rates);
        backward += weight * gemmBackwardSeconds(g, rates);
        ideal += weight * 6.0 * g.m * g.n * g.k * g.batch / rates.flopsPerSecond;
    }
    GemmTimes& operator+=(const GemmTimes& o)
    {
        forward += o.forward;
        backward += o.backward;
        ideal += o.ideal;
        return *this;
    }
};

/** One collective on the solved fabric; 0 for a group of one. */
StepCollective timed(const model::ResolvedScenario& r, const NetworkResult& net, CollectiveOp op,
                     double bytes, int ranks, int ranksPerNode, double perStep)
{
    StepCollective c;
    c.bytes = bytes;
    c.ranks = std::max(1, ranks);
    c.ranksPerNode = std::max(1, std::min(ranksPerNode, c.ranks));
    c.perStep = perStep;
    if (c.ranks <= 1 || bytes <= 0.0)
        return c;
    const CollectiveInputs in = collectiveInputs(r, net, c.ranks, c.ranksPerNode);
    const CollectiveTiming timing = bestCollective(op, bytes, in);
    c.seconds = timing.available ? timing.seconds : 0.0;
    c.channels = timing.available ? timing.channels : 0;
    return c;
}

/**
 * A flex dispatcher's calls copy the tokens on a fixed number of SMs, each SM moving at most so
 * many GB/s, and no library reaches the NVLink's whole rate: a call within an NVLink domain
 * takes the longest of the fabric's time (the collective engine's all-to-all), its SMs' and the
 * library's ceiling, a share of the GPU's NVLink rate a direction. Bytes are those a rank
 * receives, its own rank's copy counted, as DeepEP's and HybridEP's benchmarks count them.
 * HybridEP's README (deepseek-ai/DeepEP, branch hybrid-ep, docs/README_Hybrid-EP.md; 4,096
 * tokens of 7,168, top 8, 8 local experts a rank, BF16) measured both libraries:
 * - DeepEP's normal kernels (warps copying the tokens) through its Torch API on 8 B200, by SM
 *   count: dispatch 348, 494, 560 and 619 GB/s on 16, 24, 28 and 32 SMs, combine 302, 420, 477
 *   and 524: about 21 and 18 GB/s an SM (taken: 21.0 and 18.0), flattening at 640 and 586 from
 *   44 SMs (0.71 and 0.65 of the 900 GB/s a direction NVLink 5 gives). Megatron-Core's default
 *   is 20 SMs (transformer_config.py at 3df2009, moe_deepep_num_sms). DeepEP's intranode
 *   kernels serve at most 8 NVLink peers; beyond, on GB200's NVL72 through a community change
 *   (DeepEP pull request 218), NVIDIA's DeepSeek-V3 write-up measured EP 32 at about 400 GB/s
 *   dispatch and 190 combine on 24 SMs (NVIDIA/Megatron-LM, docs/discussions/deepseek-v3-
 *   gb200-optimization/deepseek-v3-gb200-optimization.md, 2.2.1 "DeepEP", at 3c1b98e^):
 *   16.7 and 7.9 GB/s an SM.
 * - HybridEP (TMA copies), its kernels alone: on 8 B200 with 16 SMs (Megatron-Core's default,
 *   moe_hybridep_num_sms) dispatch 734.95, combine 673.84 GB/s, 45.9 and 42.1 an SM; on 8 GB200
 *   with 32 SMs 764.03 and 737.13 (0.85 and 0.82 of 900), little faster than with 16 (750.15,
 *   684.27): its ceiling. Its Torch API figures add a device-to-device copy out of its receive
 *   buffer; Megatron-Core fuses that copy into the permutation after it (the same write-up,
 *   2.5 "HybridEP"), which the step counts apart (the element-wise passes).
 * On Hopper the same SMs copy faster than the ceiling: DeepEP's 0.71 and 0.65 of H800's 200
 * GB/s a direction give 142 and 130 GB/s against the 153 and 158 DeepEP measured there
 * (docs/legacy.md, "Normal kernels with NVLink and RDMA forwarding": FP8 dispatch, BF16
 * combine), of H20's 450 GB/s 320 against the 337 measured (deepseek-ai/DeepEP issue 16).
 * Across nodes the bound is not applied: the scale-out leg binds there (stepTime, the flex
 * dispatcher's node copies at the NIC's rate).
 */
struct FlexRates
{
    double dispatchPerSm;   ///< GB/s an SM.
    double combinePerSm;    ///< GB/s an SM.
    double dispatchCeiling; ///< Share of the NVLink's GB/s a direction.
    double combineCeiling;  ///< Share of the NVLink's GB/s a direction.
    int defaultSms;
};

constexpr FlexRates kDeepEpRates{21.0, 18.0, 640.0 / 900.0, 586.0 / 900.0, 20};
constexpr FlexRates kDeepEpBeyondEightRates{400.0 / 24.0, 190.0 / 24.0, 640.0 / 900.0,
                                            586.0 / 900.0, 20};
constexpr FlexRates kHybridEpRates{734.95 / 16.0, 673.84 / 16.0, 764.03 / 900.0, 737.13 / 900.0,
                                   16};
/// The NVLink peers DeepEP's intranode kernels serve (csrc/kernels/configs.cuh,
/// NUM_MAX_NVL_PEERS).
constexpr int kDeepEpNvlPeers = 8;

/**
 * Bounds \a c, a flex dispatcher's dispatch or combine of \a bytes over \a ranks of one NVLink
 * domain, by the library's SMs and ceiling (FlexRates): a layer runs as many dispatches as
 * combines each way, so the call is their mean. The call holds its SMs.
 */
void boundByFlexLibrary(StepCollective& c, double bytes, int ranks, const model::WorkloadSection& w,
                        const model::GpuSpec& gpu)
{
    if (c.seconds <= 0.0 || bytes <= 0.0)
        return;
    const bool hybrid = w.moeFlexBackend == model::MoeFlexBackend::HybridEp;
    const FlexRates& rates = hybrid                    ? kHybridEpRates
                             : ranks > kDeepEpNvlPeers ? kDeepEpBeyondEightRates
                                                       : kDeepEpRates;
    const double sms = w.moeFlexSms > 0 ? w.moeFlexSms : rates.defaultSms;
    const double link = gpu.scaleUpGbytePerS;
    const double dispatch = std::min(sms * rates.dispatchPerSm, rates.dispatchCeiling * link);
    const double combine = std::min(sms * rates.combinePerSm, rates.combineCeiling * link);
    const double library = 0.5 * bytes * (1.0 / dispatch + 1.0 / combine) / 1e9;
    c.seconds = std::max(c.seconds, library);
    c.channels = static_cast<int>(sms);
}

/** Ranks of a group of \a size whose consecutive members are \a stride ranks apart, per node. */
int ranksPerNode(int size, long long stride, int gpusPerNode)
{
    const long long perNode = std::max<long long>(1, gpusPerNode / std::max<long long>(1, stride));
    return static_cast<int>(std::min<long long>(size, perNode));
}

/**
 * Returns the probability that none of \a k experts drawn without repetition from \a pool
 * falls among \a size of them: C(pool - size, k) / C(pool, k).
 */
double noneAmong(double pool, double size, int k)
{
    double p = 1.0;
    for (int i = 0; i < k && p > 0.0; ++i)
        p *= std::max(0.0, (pool - size - i) / (pool - i));
    return p;
}

/** Returns n choose r (small counts: routing groups). */
double binomial(int n, int r)
{
    if (r < 0 || r > n)
        return 0.0;
    double b = 1.0;
    for (int i = 1; i <= r; ++i)
        b = b * (n - r + i) / i;
    return b;
}

} // namespace

/*
 * How many of \a units equal parts of an expert-parallel group (its ranks, or its
 * nodes), each holding consecutive experts, one token's routed experts reach on average, with
 * the routing's group limit: Megatron-Core's group_limited_topk (megatron/core/transformer/moe/
 * moe_utils.py) picks routingMaxNodes of routingGroups groups of consecutive experts, then the
 * top-k experts among those groups; DeepSeek-V3 (n_group 8, topk_group 4) is deployed with a
 * group a node, its node-limited routing (technical report, arXiv 2412.19437, section 2.1.2).
 * Without routing_groups the groups are the \a nodes of the group. The routed experts are taken
 * as evenly loaded (the auxiliary-loss-free balancing's aim), each equally likely.
 */
double expertUnitsReached(const model::ModelSpec& m, int units, int nodes)
{
    const double experts = m.experts;
    const int k = m.activeExperts;
    const int groups = m.routingGroups > 0 ? m.routingGroups : nodes;
    const int limit = m.routingMaxNodes;
    const double unitExperts = experts / units;
    if (limit <= 0 || limit >= groups || groups <= 1)
        return units * (1.0 - noneAmong(experts, unitExperts, k));
    const double groupExperts = experts / groups;
    const double chosen = limit * groupExperts; // The experts of the token's chosen groups.
    if (unitExperts < groupExperts)
        return units * static_cast<double>(limit) / groups *
               (1.0 - noneAmong(chosen, unitExperts, k));
    // A unit holds whole groups: j of its c groups chosen (hypergeometric), then a miss among
    // the chosen groups' experts.
    const int c = std::max(1, static_cast<int>(std::lround(unitExperts / groupExperts)));
    double reached = 0.0;
    for (int j = std::max(1, limit - (groups - c)); j <= std::min(c, limit); ++j) {
        const double pj =
            binomial(c, j) * binomial(groups - c, limit - j) / binomial(groups, limit);
        reached += pj * (1.0 - noneAmong(chosen, j * groupExperts, k));
    }
    return units * reached;
}

namespace {

/** Collectives run beside computation: how long they run under it and what they slow it. */
struct SharedSms
{
    double hidden = 0.0;   ///< Communication seconds under the (slowed) computation.
    double slowdown = 0.0; ///< Seconds the computation takes longer for it.
};

/**
 * Returns what \a communication seconds of collectives on \a channels channels cost when they
 * run beside \a computation seconds of work on a GPU of \a sms SMs: they run until the slowed
 * computation ends or they do, and what runs longer stays exposed.
 *
 * NCCL runs a collective as one CUDA block per channel, each holding an SM until the call ends
 * (NCCL's channels are its CTAs: Hu et al. 2025, "Demystifying NCCL", arXiv 2507.04786), and a
 * GEMM's or an attention kernel's blocks take one SM each at a time: while a collective runs
 * beside them they have the SMs its channels leave, and the computation slows by that share.
 * Measured, the overlap of NCCL's collectives slows the computation beside them 18.9% on
 * average and 40% at most on 4 A100 and 4 H100 (arXiv 2507.03114, abstract); 16 channels leave
 * 116 of an H100's 132 SMs, 13.8% slower. Not counted, so this is the lower bound: the HBM and
 * L2 the collectives' copies share, and wave quantization (a GEMM sized for every SM runs a
 * second wave).
 */
SharedSms shareSms(double communication, double computation, double channels, double sms)
{
    const double taken = std::clamp(channels / std::max(1.0, sms), 0.0, 0.5);
    SharedSms s;
    s.hidden = std::clamp(computation / (1.0 - taken), 0.0, std::max(0.0, communication));
    s.slowdown = s.hidden * taken;
    return s;
}

/** What chunked tensor-parallel overlap does to one layer, per micro-batch on one rank. */
struct TpOverlap
{
    double forwardGemmDelta = 0.0;  ///< The chunked GEMMs' time beyond the whole ones'.
    double backwardGemmDelta = 0.0; ///< Likewise backward.
    double forwardExposed = 0.0;    ///< Communication the forward GEMMs do not hide.
    double backwardExposed = 0.0;   ///< Likewise backward.
};

// Transformer Engine's userbuffers as Megatron-LM's --tp-comm-overlap drives them (TE 1.8-1.9,
// July 2024: transformer_engine/pytorch/module/base.py, initialize_ub, default methods; the
// chunking in transformer_engine/pytorch/csrc/comm_gemm_overlap.h): the all-gather into the
// QKV and FC1 GEMMs and of the output gradient into the projection's and FC2's input-gradient
// GEMMs is a ring exchange, t chunks of the sequence, each GEMM'd while the next one arrives
// from the neighbour (one SM drives the copies); the reduce-scatter out of the projection and
// FC2 is pipelined, the GEMM split into 4 chunks along the tokens and each chunk's
// reduce-scatter run on 16 SMs under the next chunk's GEMM; backward, QKV's and FC1's
// all-gather of the norm output for the weight gradient runs in bulk under their input-gradient
// GEMM and the reduce-scatter of that input gradient under their weight-gradient GEMM, both on
// 16 SMs. The SMs are not reserved (set_sm_margin 0), so the GEMM loses them while they
// communicate. The chunks' GEMMs run on up to three compute streams (_NUM_MAX_UB_STREAMS).
constexpr double kRingExchangeSms = 1.0;
constexpr double kPipelineSms = 16.0;
constexpr double kPipelineSplits = 4.0;
constexpr double kBulkSms = 16.0;
constexpr double kComputeStreams = 3.0;

/**
 * Returns what overlapping the tensor-parallel collectives of one layer with its GEMMs costs:
 * the GEMMs of \a tokens tokens (the gathered sequence) through the column-parallel QKV
 * (\a qkvColumns wide on the rank) and FC1 (\a fc1Columns), and the row-parallel projection
 * (\a projectionRows deep) and FC2 (\a fc2Rows). The MLP counts for 1 - \a moeShare.
 */
TpOverlap overlapTensorParallel(const model::ResolvedScenario& r, const NetworkResult& net,
                                const GemmRates& rates, const Layout& l, double tokens, double h,
                                double qkvColumns, double projectionRows, double fc1Columns,
                                double fc2Rows, double moeShare)
{
    TpOverlap o;
    const double t = l.t;
    const int perNode = std::min(l.t, l.scaleUpGpus);
    const double bytes = kBf16Bytes * tokens * h;
    const double ringStep =
        timed(r, net, CollectiveOp::SendRecv, bytes / t, l.t, perNode, 0.0).seconds;
    const double rsChunk =
        timed(r, net, CollectiveOp::ReduceScatter, bytes / kPipelineSplits, l.t, perNode, 0.0)
            .seconds;
    const double agBulk = timed(r, net, CollectiveOp::AllGather, bytes, l.t, perNode, 0.0).seconds;
    const double rsBulk =
        timed(r, net, CollectiveOp::ReduceScatter, bytes, l.t, perNode, 0.0).seconds;
    // The chunks' GEMMs go round-robin on kComputeStreams streams, so a chunk whose data is
    // there fills the SMs the previous chunk's last wave leaves idle: the tiles of that many
    // chunks are quantized together.
    auto chunked = [&](const Gemm& g, double chunks) {
        const double group = std::min(kComputeStreams, chunks);
        return gemmSeconds(Gemm{g.m / chunks, g.n, g.k, g.batch * group}, rates) / group;
    };
    // The communication kernels' SMs are lost to the GEMM while they run.
    const double sms = std::max(rates.sms, 1.0);
    auto smLoss = [&](double commSms, double comm, double gemm) {
        return rates.sms > 0.0 ? commSms / sms * std::min(comm, gemm) : 0.0;
    };
    // Ring exchange: the local chunk first, then each of the t - 1 others as it arrives.
    auto gatherGemm = [&](const Gemm& g, double& seconds, double& exposed) {
        const double chunk = chunked(g, t);
        seconds += t * chunk + smLoss(kRingExchangeSms, (t - 1.0) * ringStep, t * chunk);
        exposed += (t - 1.0) * std::max(0.0, ringStep - chunk);
    };
    // Pipelined reduce-scatter: each chunk's under the next chunk's GEMM; the last one exposed.
    auto gemmScatter = [&](const Gemm& g, double& seconds, double& exposed) {
        const double chunk = chunked(g, kPipelineSplits);
        seconds += kPipelineSplits * chunk + smLoss(kPipelineSms, (kPipelineSplits - 1.0) * rsChunk,
                                                    (kPipelineSplits - 1.0) * chunk);
        exposed += rsChunk + (kPipelineSplits - 1.0) * std::max(0.0, rsChunk - chunk);
    };
    auto pair = [&](double columns, double rows, double weight) {
        if (weight <= 0.0)
            return;
        const Gemm column{tokens, columns, h, 1.0};
        const Gemm row{tokens, h, rows, 1.0};
        double forward = 0.0, backward = 0.0, forwardExposed = 0.0, backwardExposed = 0.0;
        gatherGemm(column, forward, forwardExposed);
        gemmScatter(row, forward, forwardExposed);
        // The row-parallel layer's input gradient, fed by the gathered output gradient; its
        // weight gradient needs no communication.
        gatherGemm(Gemm{tokens, rows, h, 1.0}, backward, backwardExposed);
        backward += gemmSeconds(Gemm{rows, h, tokens, 1.0}, rates);
        // The column-parallel layer: input gradient beside the norm output's all-gather, weight
        // gradient beside the input gradient's reduce-scatter.
        const double inputGradient = gemmSeconds(Gemm{tokens, h, columns, 1.0}, rates);
        const double weightGradient = gemmSeconds(Gemm{h, columns, tokens, 1.0}, rates);
        backward += inputGradient + weightGradient + smLoss(kBulkSms, agBulk, inputGradient) +
                    smLoss(kBulkSms, rsBulk, weightGradient);
        backwardExposed +=
            std::max(0.0, agBulk - inputGradient) + std::max(0.0, rsBulk - weightGradient);
        o.forwardGemmDelta +=
            weight * (forward - gemmSeconds(column, rates) - gemmSeconds(row, rates));
        o.backwardGemmDelta += weight * (backward - gemmBackwardSeconds(column, rates) -
                                         gemmBackwardSeconds(row, rates));
        o.forwardExposed += weight * forwardExposed;
        o.backwardExposed += weight * backwardExposed;
    };
    pair(qkvColumns, projectionRows, 1.0);
    pair(fc1Columns, fc2Rows, 1.0 - moeShare);
    return o;
}

} // namespace

namespace {

/** The memory of one pipeline stage: \a rank, holding \a layers layers (and the embedding). */
StepMemory stageMemory(const model::ResolvedScenario& r, const Layout& l, double layersPerStage,
                       bool holdsEmbedding, int rank, bool holdsOutput = false)
{
    const model::ModelSpec& m = r.model;
    const auto& w = r.scenario.workload;
    StepMemory mem;
    mem.capacityGb = r.gpu.memoryGb;
    const double h = m.hiddenSize;
    const double moeShare = static_cast<double>(m.moeLayers()) / std::max(1, m.layers);

    // Weights of the stage on one GPU, split into the dense part (sharded by ZeRO over data x
    // context ranks) and the experts (over the expert-data-parallel ranks).
    // DualPipe keeps two stages a GPU, i and p - 1 - i: twice the weights, and the first GPU
    // holds the output layer beside the embedding (the DualPipe README's table: parameters 2x).
    const double copies = l.dual ? 2.0 : 1.0;
    // The last stage of a pipeline holds the output layer, and with MTP layers a copy of the
    // embedding beside it (Megatron-Core's GPTModel builds the embedding where the MTP runs).
    const double vocabularyWeights = static_cast<double>(m.vocabSize) * h / l.t;
    const double embedding =
        (holdsEmbedding ? (l.p == 1 || l.dual ? m.embeddingParameters() / l.t : vocabularyWeights)
                        : 0.0) +
        (holdsOutput && l.p > 1 ? (l.mtp > 0.0 ? 2.0 : 1.0) * vocabularyWeights : 0.0);
    const double dense =
        copies * layersPerStage *
            (m.attentionParameters() / l.t + (1.0 - moeShare) * m.denseMlpParameters() / l.t +
             moeShare *
                 (m.sharedExperts * m.expertParameters() + h * static_cast<double>(m.experts)) /
                 l.t) +
        embedding;
    const double experts = copies * layersPerStage * moeShare *
                           (static_cast<double>(m.experts) / l.e) * m.expertParameters() / l.et;
    const double denseRanks = static_cast<double>(l.d) * l.c;
    const double expertRanks = l.expertReplicas();
    const int zero = w.zeroStage;
    auto sharded = [&](int stage) {
        return zero >= stage ? dense / denseRanks + experts / expertRanks : dense + experts;
    };
    mem.weightsGb = kBf16Bytes * sharded(3) / 1e9;
    // DeepSpeed's BF16 optimizer keeps the backward's bf16 gradients beside its fp32 ones.
    mem.gradientsGb = (gradientBytes(w) * sharded(2) +
                       (deepSpeedBf16(w) ? kBf16Bytes * (dense + experts) : 0.0)) /
                      1e9;
    mem.optimizerGb = optimizerBytes(w) * sharded(1) / 1e9;

    // Activations per layer per micro-batch, in bytes per s b h (Korthikanti et al. 2022,
    // section 4.1 and Table 2: 34 + 5 a s / h without parallelism; 10 of the 34 replicated on
    // every tensor-parallel rank unless sequence parallelism splits them).
    const double a = m.heads;
    const double kvShare = static_cast<double>(m.effectiveKvHeads()) * m.effectiveHeadDim() / h;
    const double qShare = a * m.effectiveHeadDim() / h;
    // FP8 training keeps each FP8 GEMM's input for its weight gradient as the 1-byte cast it made
    // (Transformer Engine's Linear and LayerNormLinear save the quantized input, column-wise only:
    // transformer_engine/pytorch/module/linear.py, _Linear.forward, saved_inputmat), where BF16
    // keeps the 2-byte input: the QKV and FC1 inputs (the norms' outputs), FC2's (the
    // activation's output) and the routed experts' (GroupedLinear alike). The attention's output
    // stays in BF16 for the fused attention's backward and the projection keeps its cast beside
    // it; unfused, the projection's cast is all that is kept of it.
    const bool fp8 = w.precision == model::Precision::Fp8;
    const double gemmInput = fp8 ? 1.0 : 2.0;
    const double projectionInput = !fp8 ? 2.0 : w.flashAttention ? 3.0 : 1.0;
    // Two norm inputs, two 1-byte dropout masks (none when the layers apply no dropout: PyTorch's
    // dropout with p = 0 returns its input, aten/src/ATen/native/Dropout.cpp), QKV and MLP inputs
    // (the norms' outputs, which layernorm recomputation discards and runs again).
    const double normOutputs = l.recomputes(model::RecomputeLayerNorm) ? 0.0 : 2.0 * gemmInput;
    const double replicated = 4.0 + (w.dropout ? 2.0 : 0.0) + normOutputs;
    // Q, K and V kept for the attention's backward, and the projection's input. Multi-head latent
    // attention (DeepSeek-V2, arXiv 2405.04434, 2.1) keeps queries and keys of head_dim +
    // rope_head_dim and values of head_dim, up-projected from two latents whose norm inputs and
    // up-projection inputs are kept beside them; mla_up_proj recomputation discards the
    // up-projected Q, K and V and runs the up-projections again (Megatron-Core's
    // multi_latent_attention.py, recompute_up_proj).
    double qkv = 2.0 * qShare + 4.0 * kvShare;
    if (m.kvLoraRank > 0) {
        const double qk = a * (m.effectiveHeadDim() + m.ropeHeadDim) / h;
        const double latents = (2.0 + gemmInput) * (m.qLoraRank + m.kvLoraRank) / h;
        qkv = (l.recomputes(model::RecomputeMlaUpProjection) ? 0.0 : 2.0 * (2.0 * qk + qShare)) +
              latents;
    }
    const double attentionSplit = qkv + projectionInput * qShare;
    const double gate = m.gatedMlp ? 2.0 : 1.0;
    // An MLP keeps its GEMMs' inputs and the activation's input (FC1's output); mlp
    // recomputation keeps only the dense MLP's input, moe the MoE layer's, shared_experts the
    // shared experts' input, and moe_act discards the routed experts' activation output.
    const double denseMlp =
        l.recomputes(model::RecomputeMlp)
            ? 0.0
            : 2.0 * gate * m.effectiveFfn() / h + gemmInput * m.effectiveFfn() / h;
    const double expertFfn = static_cast<double>(m.expertFfnHiddenSize) / h;
    const double routedExpert =
        gemmInput + 2.0 * gate * expertFfn +
        (l.recomputes(model::RecomputeMoeActivation) ? 0.0 : gemmInput * expertFfn);
    const double sharedExpert = gemmInput + 2.0 * gate * expertFfn + gemmInput * expertFfn;
    const double expertMlp =
        l.recomputes(model::RecomputeMoe)
            ? 0.0
            : m.activeExperts * routedExpert + (l.recomputes(model::RecomputeSharedExperts)
                                                    ? 0.0
                                                    : m.sharedExperts * sharedExpert);
    const double mlpSplit = (1.0 - moeShare) * denseMlp + moeShare * expertMlp;
    const bool keepScores = !w.flashAttention && !l.recomputes(model::RecomputeCoreAttention) &&
                            w.recompute != Recompute::Full;
    // The softmax output (2 a s / h), and with dropout its 1-byte mask and 2-byte output.
    const double scores = keepScores ? (w.dropout ? 5.0 : 2.0) * a * l.s / h : 0.0;
    // Layers recomputed whole keep only their input; with the block method the others keep all.
    const double kept = replicated / (l.sp ? l.t : 1) + (attentionSplit + mlpSplit + scores) / l.t;
    const double units = l.wholeShare * 2.0 / (l.sp ? l.t : 1) + (1.0 - l.wholeShare) * kept;
    const double sbh = l.s / l.c * l.b * h;
    const double perLayer = units * sbh;
    // Model chunks whose activations a stage holds at its peak, one chunk being a micro-batch
    // through layers / v of its layers: 1F1B runs p - rank - 1 warm-up forwards, the interleaved
    // schedule 2 (p - rank - 1) + (v - 1) p, and one more starts before the first backward
    // (Megatron-LM, megatron/core/pipeline_parallel/schedules.py, num_warmup_microbatches; for
    // the first stage this is Narayanan et al. 2021, 2.2.2's 1 + (p - 1) / (p v) times p).
    const double warmup = l.v > 1 ? 2.0 * (l.p - rank - 1.0) + (l.v - 1.0) * l.p
                                  : static_cast<double>(l.p - rank - 1);
    // DualPipe holds p + 1 micro-batches' activations of a stage on every GPU (its README's
    // table), the two directions' warm-ups together. The expert all-to-all overlap runs one
    // forward more before its first merged step when pipelined (solveStep); without pipelining
    // the next micro-batch's forward starts as the backward begins to free the layers in
    // reverse, one layer ahead of them.
    const double overlapChunk = l.a2aOverlap && l.p > 1 ? 1.0 : 0.0;
    const double overlapLayers = l.a2aOverlap && l.p == 1 ? 1.0 : 0.0;
    const double chunksInFlight =
        l.dual ? std::min(l.m, l.p + 1.0)
               : std::min(l.m * l.v, std::max(1.0, warmup + 1.0 + overlapChunk));
    mem.layerActivationsGb = perLayer / 1e9;
    // Activation offloading (pipeline_parallel 1, one micro-batch at a time): Transformer
    // Engine's CPU offload copies the activations of the first k layers to host memory, each
    // freed once its copy is done (transformer_engine/pytorch/cpu_offload.py,
    // AsyncDoubleBufferGroupOffloadHandler, synchronize_on_group_commit_forward). The peak comes
    // as the backward starts: the L - k layers kept, and the last offloaded layer's reload begun
    // beside them (on_group_commit_backward, bulk_reload_group).
    const double resident = l.offload > 0.0 ? layersPerStage - l.offload + 1.0 : layersPerStage;
    mem.offloadedGb = perLayer * l.offload / 1e9;
    mem.activationsGb = perLayer * ((resident / l.v) * chunksInFlight + overlapLayers) / 1e9;

    // Buffers: fp32 logits and their gradient on the last stage (counted where its memory is:
    // with one stage, or with MTP layers), ZeRO-3's gathered weights of two layers (current and
    // prefetched), the runtime. A fused cross entropy keeps the bf16 logits and writes a bf16
    // gradient instead (flash-attention's xentropy, csrc/xentropy: bf16 in and out, the softmax
    // statistics in fp32 per token only).
    double buffers = kRuntimeBufferGb * 1e9;
    // An MTP layer's logits and their gradient beside the output layer's.
    if (l.p == 1 || holdsOutput)
        buffers += (1.0 + l.mtp) * 2.0 * (w.fusedCrossEntropy ? kBf16Bytes : 4.0) * l.b * l.s /
                   l.c * m.vocabSize / l.t;
    if (zero >= 3)
        buffers += 2.0 * kBf16Bytes * (dense + experts) / std::max(1.0, layersPerStage);
    mem.buffersGb = buffers / 1e9;
    mem.totalGb =
        mem.weightsGb + mem.gradientsGb + mem.optimizerGb + mem.activationsGb + mem.buffersGb;
    return mem;
}

} // namespace

bool expertOverlapRuns(bool moe, int expertParallel, int pipelineParallel, int virtualStages,
                       bool dualPipe, model::Recompute recompute, int recomputeModules)
{
    return moe && expertParallel > 1 && !dualPipe && (pipelineParallel <= 1 || virtualStages > 1) &&
           recompute != model::Recompute::Full &&
           !(recompute == model::Recompute::Selective && (recomputeModules & model::RecomputeMoe));
}

StepMemory stepMemory(const model::ResolvedScenario& r)
{
    // The first stage holds the embedding and the most micro-batches in flight; the second, when
    // the embedding takes a layer's slot, one layer more and two chunks fewer in flight.
    // With MTP layers the last stage holds them, their activations and a copy of the embedding
    // beside the output layer: it can hold the most.
    const Layout l = layoutOf(r);
    const StepMemory first =
        stageMemory(r, l, l.firstStageLayers + (l.p == 1 ? l.mtp : 0.0), true, 0);
    StepMemory most = first;
    if (l.p > 1 && l.stageLayers > l.firstStageLayers) {
        const StepMemory second = stageMemory(r, l, l.stageLayers, false, 1);
        if (second.totalGb > most.totalGb)
            most = second;
    }
    if (l.p > 1 && l.mtp > 0.0 && !l.dual) {
        const StepMemory last = stageMemory(r, l, l.lastStageLayers + l.mtp, false, l.p - 1, true);
        if (last.totalGb > most.totalGb)
            most = last;
    }
    return most;
}

StepResult solveStep(const model::ResolvedScenario& r, const NetworkResult& net, double clockFactor,
                     Diagnostics& diagnostics)
{
    StepResult out;
    const model::ModelSpec& m = r.model;
    const auto& w = r.scenario.workload;
    const Layout l = layoutOf(r);
    const double gradBytes = gradientBytes(w);
    const double peak = r.gpu.peakTflops(w.precision) * 1e12;
    const double clock = std::clamp(clockFactor, 1e-3, 1.0);
    // FP8 GEMMs at their own measured share of the FP8 peak where the catalog has one: they
    // reach a smaller share of it than BF16 GEMMs of theirs (H100 SXM: 70.9% against 80.3%, the
    // same mamf-finder search; data/catalog/gpus.json, matmul_efficiency_fp8). MXFP8 GEMMs at the
    // MXFP8 share (their 32-element scales loaded beside the operands), as blockwise-scaled ones
    // on a GPU that has it: Transformer Engine emulates FP8 block scaling with MXFP8 on
    // Blackwell (docs/examples/gemm_profiling/gemm_profiling.rst).
    const bool fp8 = w.precision == model::Precision::Fp8;
    const bool fp8Measured = fp8 && r.gpu.matmulEfficiencyFp8 > 0.0;
    const bool mxfp8Gemms =
        fp8 && r.gpu.matmulEfficiencyMxfp8 > 0.0 &&
        (w.fp8Recipe == model::Fp8Recipe::Mxfp8 || w.fp8Recipe == model::Fp8Recipe::Blockwise);
    const double rate = peak *
                        (mxfp8Gemms    ? r.gpu.matmulEfficiencyMxfp8
                         : fp8Measured ? r.gpu.matmulEfficiencyFp8
                                       : r.gpu.matmulEfficiency) *
                        clock;
    // The HBM runs on its own clock, which neither a power limit nor a temperature's throttle
    // lowers: both act on the SM (graphics) clock, and the memory-bound passes draw well below
    // the limit (Ma et al., "The Illusion of Power Capping in LLM Decode", arXiv 2605.11999,
    // 2026: H200 decode, HBM-bound, draws 137-300 W of 700 and loses little throughput with the
    // SM clock locked low). So the matrix math slows with the clock and the HBM-bound passes
    // do not.
    const double hbm =
        r.gpu.memoryBandwidthTbps * 1e12 * std::clamp(r.gpu.memoryBandwidthEfficiency, 0.05, 1.0);
    if (rate <= 0.0 || hbm <= 0.0 || m.layers <= 0 || m.hiddenSize <= 0)
        return out;
    out.valid = true;
    out.parameters = m.parameters();
    out.activeParameters = m.activeParameters();
    out.microBatches = l.m;
    const double h = m.hiddenSize;
    // Recomputation: the share of layers run again whole (recompute full, wholly or by the
    // block method), and with selective recomputation the modules it runs again.
    const double whole = l.wholeShare;
    const double attentionAgainShare = l.recomputes(model::RecomputeCoreAttention) ? 1.0 : whole;

    // FLOPs. The attention square counts as the kernel computes it: whole without fused
    // attention (Narayanan et al.'s 96 B s l h^2 (1 + s/6h + V/16lh) counts it so), its causal
    // half with a fused causal kernel (FlashAttention-2, Dao 2023, skips the masked blocks).
    const LayerFlops f = layerFlops(m, l);
    const double scoreTime = w.flashAttention ? f.fusedShare : 1.0;
    const double layerForward = f.projections + scoreTime * f.scores + f.mlp;
    // Each MTP layer: the projection, a transformer layer like the last (Megatron-LM's
    // num_floating_point_operations counts it as the last layer's kind) and the logits again.
    const double mtpForward =
        l.mtp * (f.mtpProjection + f.projections + scoreTime * f.scores + f.lastMlp + f.logits);
    const double microBatchForward = m.layers * layerForward + f.logits + mtpForward;
    const double perStepMicroBatches = static_cast<double>(w.globalBatchSequences) / l.b;
    out.modelFlopsPerStep = 3.0 * microBatchForward * perStepMicroBatches;
    double recomputeForward =
        m.layers * (whole * layerForward +
                    (l.recomputes(model::RecomputeCoreAttention) ? scoreTime * f.scores : 0.0));
    {
        const double tokensAll = l.b * l.s;
        const double a = m.heads;
        const double dh = m.effectiveHeadDim();
        const double expertMatmul = 2.0 * tokensAll * m.expertParameters();
        if (l.recomputes(model::RecomputeMlaUpProjection) && m.kvLoraRank > 0)
            recomputeForward +=
                m.layers * 2.0 * tokensAll *
                (m.qLoraRank * a * (dh + m.ropeHeadDim) + m.kvLoraRank * a * 2.0 * dh);
        if (l.recomputes(model::RecomputeMlp))
            recomputeForward +=
                (m.layers - m.moeLayers()) * 2.0 * tokensAll * m.denseMlpParameters();
        if (l.recomputes(model::RecomputeMoe))
            recomputeForward +=
                m.moeLayers() * ((m.activeExperts + m.sharedExperts) * expertMatmul +
                                 2.0 * tokensAll * m.hiddenSize * m.experts);
        else if (l.recomputes(model::RecomputeSharedExperts))
            recomputeForward += m.moeLayers() * m.sharedExperts * expertMatmul;
    }
    out.hardwareFlopsPerStep = out.modelFlopsPerStep + recomputeForward * perStepMicroBatches;
    if (!m.moe()) {
        const double B = w.globalBatchSequences, s = l.s, L = m.layers, V = m.vocabSize;
        out.narayananFlopsPerStep =
            96.0 * B * s * L * h * h * (1.0 + s / (6.0 * h) + V / (16.0 * L * h));
    }
    const double split = static_cast<double>(l.t) * l.c;
    // The GEMMs of one layer and of the output layer on one rank, by shape: tokens of the rank's
    // sequence chunk times the rank's share of each weight (Megatron's column- and row-parallel
    // split, Shoeybi et al. 2019, section 3). Forward m x k by k x n; backward the input
    // gradient (m x n by n x k) and the weight gradient (k x m by m x n).
    GemmRates rates;
    rates.flopsPerSecond = rate;
    rates.bytesPerSecond = hbm;
    rates.sms = std::max(0, r.gpu.smCount);
    rates.tileM = std::max(1, r.gpu.gemmTileM);
    rates.tileN = std::max(1, r.gpu.gemmTileN);
    const double tokens = l.b * l.s / l.c;
    const double t = l.t;
    const double outputWidth = static_cast<double>(m.heads) * m.effectiveHeadDim();
    const double qk = m.kvLoraRank > 0 ? m.effectiveHeadDim() + m.ropeHeadDim
                                       : static_cast<double>(m.effectiveHeadDim());
    // Q, K and V (or the latent projections) from the attention weights, beside the output one.
    const double qkvWidth = std::max(0.0, (m.attentionParameters() - 4.0 * h) / h - outputWidth);
    const double moeShare = static_cast<double>(m.moeLayers()) / std::max(1, m.layers);
    GemmTimes layer;
    layer.add(Gemm{tokens, qkvWidth / t, h, 1.0}, rates);
    layer.add(Gemm{tokens, h, outputWidth / t, 1.0}, rates);
    GemmTimes scores;
    // A fused kernel keeps the scores on chip and computes their causal half, below the rate of
    // the large GEMMs: its softmax and the exponentials run beside the matrix units. Forward and
    // backward at the GPU's measured fused-attention rates (attention_forward_efficiency and
    // attention_backward_efficiency in data/catalog/gpus.json: cuDNN's fused attention, which
    // Transformer Engine prefers on Hopper, "Disabling FlashAttention to give FusedAttention
    // preference on Hopper+", transformer_engine/pytorch/attention.py, get_attention_backend;
    // H100: 518 and 499 TFLOP/s at head dim 128 and sequence 4k, Shah et al. 2024,
    // FlashAttention-3, Figures 5 and 6), or the matrix rate where the catalog has none. The
    // backward recomputes the scores: 2.5 times the forward FLOPs as those measurements count
    // them (Dao-AILab/flash-attention, benchmarks/benchmark_flash_attention.py, flops()).
    //
    // FP8 training runs only the transformer layers' linear GEMMs in FP8: Transformer Engine's
    // fp8_autocast leaves the dot-product attention in BF16 unless its recipe asks for FP8
    // attention (DelayedScaling's fp8_dpa, default False: transformer_engine/common/recipe/
    // __init__.py), and Megatron-Core's output layer is a plain tensor_parallel
    // ColumnParallelLinear, not a Transformer Engine module (megatron/core/models/gpt/
    // gpt_model.py), so the logits' GEMMs run in BF16 too. Those take the BF16 peak.
    //
    // Stacks that run another kernel (attention_kernel) take its measured rates where the catalog
    // has them (attentionEfficiencies()): FlashAttention-2, which PyTorch's
    // scaled_dot_product_attention runs on Hopper (torchtitan), at 0.62 of cuDNN's rate on H100.
    const double bf16Peak = fp8 ? r.gpu.peakTflops(model::Precision::Bf16) * 1e12 : peak;
    const double bf16Rate = fp8 ? bf16Peak * r.gpu.matmulEfficiency * clock : rate;
    const AttentionEfficiencies kernel = attentionEfficiencies(r.gpu, w.attentionKernel);
    double attentionForwardRate =
        kernel.forward > 0.0 ? bf16Peak * std::clamp(kernel.forward, 0.05, 1.0) * clock : bf16Rate;
    double attentionBackwardRate = kernel.backward > 0.0
                                       ? bf16Peak * std::clamp(kernel.backward, 0.05, 1.0) * clock
                                       : bf16Rate;
    bool attentionMeasured = kernel.forward > 0.0 || kernel.backward > 0.0;
    // With fp8_attention (Megatron-Core's --fp8-dot-product-attention: Transformer Engine's
    // recipe field fp8_dpa) the fused kernel takes Q, K and V in FP8 and runs at the GPU's
    // measured FP8 attention rates, shares of the FP8 peak (attention_forward_efficiency_fp8 and
    // attention_backward_efficiency_fp8 in data/catalog/gpus.json); its quantizations are
    // counted with the casts below. Where the GPU has no such measurement it stays at BF16's.
    const bool fp8Attention =
        fp8 && w.fp8Attention && w.attentionKernel == model::AttentionKernel::Fused &&
        r.gpu.attentionForwardEfficiencyFp8 > 0.0 && r.gpu.attentionBackwardEfficiencyFp8 > 0.0;
    if (fp8Attention) {
        attentionForwardRate =
            peak * std::clamp(r.gpu.attentionForwardEfficiencyFp8, 0.05, 1.0) * clock;
        attentionBackwardRate =
            peak * std::clamp(r.gpu.attentionBackwardEfficiencyFp8, 0.05, 1.0) * clock;
        attentionMeasured = true;
    }
    // The measured rates are at head dimension 128. A fused kernel spends, on each score, the
    // matrix units' time for its products (forward 2 (d_qk + d_v) FLOPs, backward 2 (3 d_qk +
    // 2 d_v): the scores recomputed, the gradients of P, V, K and Q) and one exponential on the
    // special-function units, the two one after the other (attentionHeadDimFactor()), so a
    // smaller head spends more of its time on exponentials and a larger one less. Scaled from
    // 128 by that ratio where the rate is measured.
    if (attentionMeasured) {
        const double dv = m.effectiveHeadDim();
        const double flopsPerExp =
            attentionFlopsPerExponential(r.gpu, (fp8Attention ? peak : bf16Peak) * 1e-12);
        attentionForwardRate *= attentionHeadDimFactor(2.0 * (qk + dv), 512.0, flopsPerExp);
        attentionBackwardRate *=
            attentionHeadDimFactor(2.0 * (3.0 * qk + 2.0 * dv), 1280.0, flopsPerExp);
    }
    if (w.flashAttention) {
        // Where the rates are measured (at a causal 4k), at this sequence's tile efficiency
        // (attentionTileEfficiency()): each context-parallel rank's kernels run over its s / cp
        // queries; windowed layers over their band.
        double tileTime = scoreTime;
        if (attentionMeasured) {
            const double perRank = l.s / std::max(1.0, static_cast<double>(l.c));
            const double windowed = f.windowBand > 0.0 ? m.windowedLayerShare() : 0.0;
            tileTime =
                (scoreTime - windowed * f.windowBand) / attentionTileEfficiency(perRank, 0.0) +
                (windowed > 0.0
                     ? windowed * f.windowBand /
                           attentionTileEfficiency(perRank, static_cast<double>(m.slidingWindow))
                     : 0.0);
        }
        const double fused = tileTime * f.scores / split;
        scores.forward = fused / attentionForwardRate;
        scores.backward =
            attentionMeasured ? 2.5 * fused / attentionBackwardRate : 2.0 * fused / bf16Rate;
        scores.ideal = 3.0 * scoreTime * f.scores / split / bf16Rate;
    } else {
        // Q K^T and scores x V, one batched GEMM per head of the rank, the keys of the whole
        // sequence against the rank's queries.
        const double heads = l.b * m.heads / t;
        GemmRates attentionRates = rates;
        attentionRates.flopsPerSecond = bf16Rate;
        scores.add(Gemm{l.s / l.c, l.s, qk, heads}, attentionRates);
        scores.add(Gemm{l.s / l.c, static_cast<double>(m.effectiveHeadDim()), l.s, heads},
                   attentionRates);
    }
    const double ffn = static_cast<double>(m.effectiveFfn());
    GemmTimes denseMlpTimes;
    denseMlpTimes.add(Gemm{tokens, (m.gatedMlp ? 2.0 : 1.0) * ffn / t, h, 1.0}, rates,
                      1.0 - moeShare);
    denseMlpTimes.add(Gemm{tokens, h, ffn / t, 1.0}, rates, 1.0 - moeShare);
    layer += denseMlpTimes;
    // MLA's up-projections alone (inside the QKV GEMMs above), which mla_up_proj recomputes:
    // the query latent to the heads' queries, the key/value latent to their keys and values.
    GemmTimes upProjection;
    if (m.kvLoraRank > 0) {
        const double dh = m.effectiveHeadDim();
        upProjection.add(Gemm{tokens, m.heads * (dh + m.ropeHeadDim) / t,
                              static_cast<double>(std::max(1, m.qLoraRank)), 1.0},
                         rates, m.qLoraRank > 0 ? 1.0 : 0.0);
        upProjection.add(
            Gemm{tokens, m.heads * 2.0 * dh / t, static_cast<double>(m.kvLoraRank), 1.0}, rates);
    }
    GemmTimes moeTimes;
    GemmTimes sharedTimes;
    GemmTimes sharedFc1; ///< The shared experts' first GEMM (and gate), alone.
    // Experts by shape, as the dense MLP: each of the rank's experts / EP local experts multiplies
    // the tokens routed to it (balanced routing: top-k copies of the expert-parallel group's
    // tokens spread evenly over the experts) by its share of the weights (expert_ffn /
    // expert_tensor_parallel), the local experts' tiles sharing the waves as one grouped GEMM
    // (Transformer Engine's GroupedLinear runs them as one cuBLAS GEMM each over four streams,
    // common/gemm/cublaslt_gemm.cu, multi_stream_cublas_gemm). Small experts with few tokens each
    // run below the matrix rate: partial tiles, and their weights streamed for few rows (the
    // roofline). Shared experts see every token, split over the tensor ranks as a dense MLP; the
    // router's GEMM is counted at the matrix rate.
    if (moeShare > 0.0) {
        const double gate = m.gatedMlp ? 2.0 : 1.0;
        const double expertFfn = static_cast<double>(m.expertFfnHiddenSize);
        const double localExperts = std::max(1.0, static_cast<double>(m.experts) / l.e);
        const double routed = tokens * m.activeExperts * l.e * l.et /
                              (t * std::max(1.0, static_cast<double>(m.experts)));
        moeTimes.add(Gemm{routed, gate * expertFfn / l.et, h, localExperts}, rates, moeShare);
        moeTimes.add(Gemm{routed, h, expertFfn / l.et, localExperts}, rates, moeShare);
        if (m.sharedExperts > 0) {
            const double sharedFfn = m.sharedExperts * expertFfn;
            sharedFc1.add(Gemm{tokens, gate * sharedFfn / t, h, 1.0}, rates, moeShare);
            sharedTimes += sharedFc1;
            sharedTimes.add(Gemm{tokens, h, sharedFfn / t, 1.0}, rates, moeShare);
        }
        const double routerSeconds =
            moeShare * 2.0 * l.b * l.s * h * static_cast<double>(m.experts) / split / rate;
        moeTimes.forward += routerSeconds;
        moeTimes.backward += 2.0 * routerSeconds;
        moeTimes.ideal += 3.0 * routerSeconds;
        moeTimes += sharedTimes;
        layer += moeTimes;
    }
    layer.forward += scores.forward;
    layer.backward += scores.backward;
    layer.ideal += scores.ideal;
    GemmTimes logits;
    GemmRates logitRates = rates;
    logitRates.flopsPerSecond = bf16Rate;
    logits.add(Gemm{tokens, m.vocabSize / t, h, 1.0}, logitRates);
    // An MTP layer's projection of the normed embedding and hidden state, 2 h to h, split over
    // the tensor ranks as a column-parallel linear (megatron/core/transformer/
    // multi_token_prediction.py, MultiTokenPredictionLayer.eh_proj), in BF16.
    GemmTimes mtpProjection;
    mtpProjection.add(Gemm{tokens, h / t, 2.0 * h, 1.0}, logitRates);

    // Tensor parallelism on the scale-up domain (or across nodes when it outgrows one).
    const double activationBytes = kBf16Bytes * l.b * l.s / l.c * h;
    const int tpPerNode = std::min(l.t, l.scaleUpGpus);
    // Each block (attention, MLP) gathers and scatters once each way, again when recomputed.
    // With experts whole on each rank (expert_tensor_parallel 1) an MoE layer's MLP has none:
    // the dispatcher's all-to-all moves its sequence-parallel tokens to the experts and back
    // (Megatron-Core's MoEAlltoAllTokenDispatcher).
    const double moeMlpGathered = l.et > 1 ? moeShare : 0.0;
    // Recomputation runs a block's collectives again: every block of a layer recomputed whole,
    // a dense MLP recomputed (its all-gather and reduce-scatter are inside the checkpoint), or
    // an MoE layer's gathered MLP.
    const double mlpAgain = (l.recomputes(model::RecomputeMlp) ? 1.0 - moeShare : 0.0) +
                            (l.recomputes(model::RecomputeMoe) ? moeMlpGathered : 0.0);
    const double tpCallsPerLayer = (2.0 + whole) * (2.0 - moeShare + moeMlpGathered) + mlpAgain;
    double tpPerLayer = 0.0;
    if (l.t > 1) {
        if (l.sp) {
            const StepCollective rs =
                timed(r, net, CollectiveOp::ReduceScatter, activationBytes, l.t, tpPerNode, 0.0);
            const StepCollective ag =
                timed(r, net, CollectiveOp::AllGather, activationBytes, l.t, tpPerNode, 0.0);
            out.tensorParallel = rs;
            out.tensorParallel.seconds = rs.seconds + ag.seconds;
        } else {
            out.tensorParallel =
                timed(r, net, CollectiveOp::AllReduce, activationBytes, l.t, tpPerNode, 0.0);
        }
        tpPerLayer = tpCallsPerLayer * out.tensorParallel.seconds;
        if (l.sp && w.tpCommOverlap) {
            const TpOverlap o =
                overlapTensorParallel(r, net, rates, l, tokens, h, qkvWidth / t, outputWidth / t,
                                      (m.gatedMlp ? 2.0 : 1.0) * ffn / t, ffn / t, moeShare);
            layer.forward += o.forwardGemmDelta;
            layer.backward += o.backwardGemmDelta;
            // The MLP of an MoE layer (experts routed at run time) keeps its collectives exposed.
            const double moeMlp = moeMlpGathered * out.tensorParallel.seconds;
            tpPerLayer = (1.0 + whole) * (o.forwardExposed + moeMlp) + o.backwardExposed + moeMlp +
                         mlpAgain * out.tensorParallel.seconds;
        }
    }

    // What the backward runs again: the share of layers whole, else the selective modules' GEMMs
    // (and below their memory-bound parts and kernels).
    auto recomputedModules = [&](double GemmTimes::*part) {
        return (l.recomputes(model::RecomputeCoreAttention) ? scores.*part : 0.0) +
               (l.recomputes(model::RecomputeMlaUpProjection) ? upProjection.*part : 0.0) +
               (l.recomputes(model::RecomputeMlp) ? denseMlpTimes.*part : 0.0) +
               (l.recomputes(model::RecomputeMoe)             ? moeTimes.*part
                : l.recomputes(model::RecomputeSharedExperts) ? sharedTimes.*part
                                                              : 0.0);
    };
    const double recomputeModulesForward = recomputedModules(&GemmTimes::forward);
    const double recomputeModulesIdeal = recomputedModules(&GemmTimes::ideal);
    const double recomputePerLayer = whole * layer.forward + recomputeModulesForward;
    const double matmulPerLayer = layer.forward + layer.backward + recomputePerLayer;
    const double matmulLogits = logits.forward + logits.backward;
    const double idealPerLayer = layer.ideal + (whole * layer.ideal + recomputeModulesIdeal) / 3.0;

    // Element-wise work per layer forward, in units of one s b h bf16 tensor: two norms (read,
    // write), two dropout + residual adds (read two, write one, a 1-byte mask), the MLP
    // activation (reads its one or two inputs of ffn, writes one), the token permutations of an
    // MoE layer, and without fused attention the softmax, mask and dropout of the scores.
    const double gate = m.gatedMlp ? 3.0 : 2.0;
    const double activation =
        (1.0 - moeShare) * gate * m.effectiveFfn() / h +
        moeShare * (m.activeExperts + m.sharedExperts) * gate * m.expertFfnHiddenSize / h;
    const double permute = moeShare * 4.0 * m.activeExperts;
    const double scoreUnits = w.flashAttention ? 0.0 : 4.5 * m.heads * l.s / h;
    const double hUnits = ((w.dropout ? 11.0 : 10.0) + permute) / (l.sp ? l.t : 1);
    const double splitUnits = (activation + scoreUnits) / l.t;
    const double unitBytes = kBf16Bytes * l.b * l.s / l.c * h;
    const double forwardBytes = (hUnits + splitUnits) * unitBytes;
    // Recomputed: the share of layers whole; the modules' element-wise parts: the scores'
    // (core_attn), the two norms (layernorm), the activations (moe_act, mlp, moe, shared
    // experts) and an MoE layer's permutations (moe).
    const double expertActivation = gate * m.expertFfnHiddenSize / h;
    const double moduleUnits =
        (l.recomputes(model::RecomputeCoreAttention) ? scoreUnits / l.t : 0.0) +
        (l.recomputes(model::RecomputeLayerNorm) ? 4.0 / (l.sp ? l.t : 1) : 0.0) +
        (l.recomputes(model::RecomputeMlp) ? (1.0 - moeShare) * gate * m.effectiveFfn() / h / l.t
                                           : 0.0) +
        (l.recomputes(model::RecomputeMoe)
             ? moeShare * ((m.activeExperts + m.sharedExperts) * expertActivation / l.t +
                           4.0 * m.activeExperts / (l.sp ? l.t : 1))
             : moeShare *
                   ((l.recomputes(model::RecomputeMoeActivation) ? m.activeExperts : 0.0) +
                    (l.recomputes(model::RecomputeSharedExperts) ? m.sharedExperts : 0.0)) *
                   expertActivation / l.t);
    const double recomputeBytes = whole * forwardBytes + moduleUnits * unitBytes;
    // GPT-OSS's projections, as Megatron-Core ran them from 2025-09 until Transformer Engine's
    // fused grouped MLP (2026-08). A clamped gated activation (activation_func_clamp_value) is
    // clamped before the fused kernel, in eager PyTorch (megatron/core/fusions/
    // fused_bias_geglu.py, weighted_bias_quick_geglu_impl): each half of FC1's output read and
    // written, then the halves concatenated (read 2, write 2), 8 ffn-wide tensors forward; the
    // clamps' gradients backward (each half: the gradient and the input read, one written: 6).
    // The experts' FC2 bias (add_bias_linear) is added per local expert after the grouped GEMM,
    // weighted by the token's routing probability (moe/experts.py, TEGroupedMLP._apply_bias: t
    // + b * p for each expert's rows, then a concatenation): the product written, the sum read
    // 2 and written, the concatenation read and written, 6 h-wide tensors a routed row forward;
    // backward the probability's and the bias's gradients (a product written and reduced, 3
    // each) and the rows' gradients concatenated again (2): 8.
    const bool clamped = clampsActivation(m);
    const double denseFfnUnits = (1.0 - moeShare) * m.effectiveFfn() / h;
    const double routedFfnUnits = moeShare * m.activeExperts * m.expertFfnHiddenSize / h;
    const double sharedFfnUnits = moeShare * m.sharedExperts * m.expertFfnHiddenSize / h;
    const double clampUnits =
        clamped ? (8.0 + 6.0) * (denseFfnUnits + routedFfnUnits + sharedFfnUnits) / l.t : 0.0;
    const double clampRecomputeUnits =
        clamped ? 8.0 *
                      (whole * (denseFfnUnits + routedFfnUnits + sharedFfnUnits) +
                       (1.0 - whole) * ((l.recomputes(model::RecomputeMlp) ? denseFfnUnits : 0.0) +
                                        (l.recomputes(model::RecomputeMoe) ||
                                                 l.recomputes(model::RecomputeMoeActivation)
                                             ? routedFfnUnits
                                             : 0.0) +
                                        (l.recomputes(model::RecomputeMoe) ||
                                                 l.recomputes(model::RecomputeSharedExperts)
                                             ? sharedFfnUnits
                                             : 0.0))) /
                      l.t
                : 0.0;
    const double expertBiasUnits =
        m.linearBias ? moeShare * (6.0 + 8.0) * m.activeExperts / (l.sp ? l.t : 1) : 0.0;
    const double eagerBytes = (clampUnits + clampRecomputeUnits + expertBiasUnits) * unitBytes;
    // Weight gradients accumulate into an fp32 buffer, read and written once per micro-batch
    // (Megatron-LM's main_grad, fused into the weight-gradient GEMM). With a bf16 gradient
    // buffer the traffic is taken as the same: the unfused path writes the bf16 gradient, then
    // reads it and the buffer and writes the buffer (2 + 2 + 2 + 2 bytes). DeepSpeed's BF16
    // optimizer (gradient_accumulation deepspeed_bf16) moves 20 bytes a weight instead
    // (accumulationBytesPerWeight).
    const double layerParameters =
        ((m.parameters() - m.embeddingParameters()) / std::max(1, m.layers) -
         static_cast<double>(m.moeLayers()) / std::max(1, m.layers) * m.experts *
             m.expertParameters() * (1.0 - 1.0 / l.e)) /
        l.t;
    // FP8 training quantizes every input of a layer's FP8 GEMMs, in both layouts (the backward's
    // GEMMs take the other): the forward GEMMs' inputs (the norms' outputs into QKV and FC1, the
    // attention's output into the projection, the activation's into FC2) and the backward GEMMs'
    // output gradients, per micro-batch (the weights are cast once a step and left out). The inputs
    // of the gathered sequence are counted whole on each tensor-parallel rank. Megatron-Core runs
    // the norms inside Transformer Engine's LayerNormLinear, whose fused path depends on the recipe
    // (transformer_engine/pytorch/csrc/extensions/normalization.cpp), and its own activation in
    // BF16 (the SwiGLU of megatron/core/fusions/fused_bias_swiglu.py; use_te_activation_func is off
    // by default), so the activation's output and gradient are quantized apart like the other
    // inputs. Bytes per element:
    //  - a separate quantization reads 2 bytes and writes 1 + 1 (the fused cast-transpose,
    //    transformer_engine/common/transpose/cast_transpose.cu): 4;
    //  - delayed: the norms write FP8 themselves, 1 byte instead of the 2 of their BF16 output
    //    counted with the element-wise work, and a transpose reads and writes 1: 1 byte net;
    //  - tensorwise (current scaling, quantizer.cpp, Float8CurrentScalingQuantizer::
    //    quantize_impl): the norms write BF16 and their amax, a quantization follows (4); every
    //    other input is read once first for its amax (nvte_compute_amax): 6;
    //  - mxfp8: every input quantized apart (the norms unfused), one E8M0 scale every 32
    //    elements in each layout: 4 + 1/16;
    //  - blockwise: the same with an fp32 scale every 128 elements in each layout: 4 + 1/16.
    double castBytes = 0.0;
    // Quantization kernels of one block (the attention's, a dense MLP's: each takes a norm's
    // output and one other input forward, two output gradients backward), and of the layer.
    double castKernelsBlockForward = 0.0;
    double castKernelsBlockBackward = 0.0;
    double castKernelsForward = 0.0;
    double castKernelsBackward = 0.0;
    if (fp8) {
        const double dense = 1.0 - moeShare;
        const double ffnRank = static_cast<double>(m.effectiveFfn()) / t;
        const double normInputs = tokens * h * (1.0 + dense);
        const double otherForward = tokens * (outputWidth / t + dense * ffnRank);
        const double otherBackward =
            tokens * (qkvWidth / t + h + dense * ((m.gatedMlp ? 2.0 : 1.0) * ffnRank + h));
        // Bytes an element, and kernels an input: one quantization each; current scaling adds
        // its scale's kernel (nvte_compute_scale_from_amax) and, where unfused, the amax pass;
        // delayed's fused norms a transpose each.
        double normBytes = 4.0, otherBytes = 4.0, normKernels = 1.0, otherKernels = 1.0;
        switch (w.fp8Recipe) {
        case model::Fp8Recipe::Delayed:
            normBytes = 1.0;
            break;
        case model::Fp8Recipe::Tensorwise:
            otherBytes = 6.0;
            normKernels = 2.0;
            otherKernels = 3.0;
            break;
        case model::Fp8Recipe::Mxfp8:
        case model::Fp8Recipe::Blockwise:
            normBytes = otherBytes = 4.0625;
            break;
        }
        castBytes = (normInputs * normBytes + otherForward * otherBytes) * (1.0 + whole) +
                    otherBackward * otherBytes;
        // An MoE layer's FP8 GEMM inputs, every one quantized apart (the pre-MLP norm is a
        // separate TENorm, its output BF16): the routed experts' on the tokens dispatched to the
        // rank (top-k copies of its share; GroupedLinear quantizes each local expert's split,
        // transformer_engine/pytorch/module/grouped_linear.py, the kernels in moeKernels), the
        // shared experts' as a dense MLP on the gathered sequence. Forward: the experts' two
        // inputs, again where the layer or its MoE module is recomputed; backward: the two
        // output gradients.
        if (moeShare > 0.0) {
            const double fc1Outputs = m.gatedMlp ? 2.0 : 1.0;
            const double expertRank = static_cast<double>(m.expertFfnHiddenSize) / l.et;
            const double routedRows = tokens * m.activeExperts * l.et / t;
            const double sharedRank =
                static_cast<double>(m.sharedExperts) * m.expertFfnHiddenSize / t;
            const double sharedRows = m.sharedExperts > 0 ? tokens : 0.0;
            const double moeForward = routedRows * (h + expertRank) + sharedRows * (h + sharedRank);
            const double moeBackward = routedRows * (h + fc1Outputs * expertRank) +
                                       sharedRows * (h + fc1Outputs * sharedRank);
            const double again = whole + (l.recomputes(model::RecomputeMoe) ? 1.0 : 0.0);
            castBytes += moeShare * otherBytes * (moeForward * (1.0 + again) + moeBackward);
        }
        castKernelsBlockForward = normKernels + otherKernels;
        castKernelsBlockBackward = 2.0 * otherKernels;
        castKernelsForward = (1.0 + dense) * castKernelsBlockForward;
        castKernelsBackward = (1.0 + dense) * castKernelsBlockBackward;
        if (fp8Attention) {
            // FP8 attention without FP8 multi-head-attention outputs (fp8_mha off, Megatron-
            // Core's default): Transformer Engine quantizes the BF16 Q, K and V into the kernel
            // and dequantizes its FP8 output forward, and backward quantizes the output's
            // gradient and dequantizes those of Q, K and V (transformer_engine/pytorch/
            // attention/dot_product_attention: FusedAttnFunc): a read of 2 bytes and a write of
            // 1 an element, or the other way, four kernels a layer.
            const double kvHeads = std::max(
                1.0, static_cast<double>(m.kvLoraRank > 0 ? m.heads : m.effectiveKvHeads()));
            const double qkvElements =
                tokens *
                (m.heads * qk + kvHeads * (qk + static_cast<double>(m.effectiveHeadDim()))) / t;
            const double outputElements =
                tokens * m.heads * static_cast<double>(m.effectiveHeadDim()) / t;
            const double attentionCasts = 3.0 * (qkvElements + outputElements);
            castBytes += attentionCasts * (1.0 + whole) + attentionCasts;
            castKernelsForward += 2.0;
            castKernelsBackward += 2.0;
        }
    }
    const double memoryPerLayer = (3.0 * forwardBytes + recomputeBytes + eagerBytes +
                                   accumulationBytesPerWeight(w) * layerParameters + castBytes) /
                                  hbm;

    // A fixed cost per kernel: each of a layer's kernels waits for its launch and for the
    // previous kernel to drain, whatever its size (kKernelFixedSeconds). Megatron-Core with
    // Transformer Engine launches, per layer forward, two norms, four GEMMs, the attention (one
    // fused kernel; unfused: the scores' GEMM, the fused scale-mask-softmax, the dropout and the
    // context GEMM), the activation and two fused bias-dropout-adds; backward eight GEMMs, the
    // attention's gradient (fused: a preprocessing kernel and the main one; unfused: four GEMMs,
    // softmax and dropout), the norms' (the input gradient, then the weights' partial sums
    // reduced), the activation's and the two dropout-adds'. An MoE layer launches its router's,
    // dispatcher's, experts' and shared experts' kernels in place of the MLP's (moeKernels). In
    // FP8 each GEMM input's quantization adds its kernels, as the recipe runs it (above).
    const double attentionKernels = w.flashAttention ? 1.0 : 4.0;
    const double attentionBackwardKernels = w.flashAttention ? 2.0 : 6.0;
    const MoeKernels moe = moeKernels(m, w, l, fp8);
    // An MoE layer's kernels in place of the dense MLP's two GEMMs and activation (three forward,
    // five backward).
    const double moeKernelsForward = moeShare * (moe.forward - 3.0);
    const double moeKernelsBackward = moeShare * (moe.backward - 5.0);
    // A clamped activation's eager clamps in a dense MLP (the experts' are in moeKernels).
    const double clampKernels = clampsActivation(m) ? kClampKernelsForward : 0.0;
    const double clampKernelsBackward = clampsActivation(m) ? kClampKernelsBackward : 0.0;
    double kernelsForward = 9.0 + attentionKernels + moeKernelsForward + castKernelsForward +
                            (1.0 - moeShare) * clampKernels;
    double kernelsBackward = 15.0 + attentionBackwardKernels + moeKernelsBackward +
                             castKernelsBackward + (1.0 - moeShare) * clampKernelsBackward +
                             accumulationKernels(m, w);
    if (l.sp && l.t > 1 && w.tpCommOverlap) {
        // The chunked GEMMs: t per ring exchange, kPipelineSplits per pipelined reduce-scatter.
        const double pairs = 2.0 - moeShare;
        kernelsForward += pairs * ((t - 1.0) + (kPipelineSplits - 1.0));
        kernelsBackward += pairs * (t - 1.0);
    }
    // Recomputed modules launch their kernels again: a norm each, the activation, the two
    // up-projections, an MLP's two GEMMs and activation, an MoE layer's routing and permutations.
    const double kernelsRecompute =
        whole * kernelsForward +
        (l.recomputes(model::RecomputeCoreAttention) ? attentionKernels : 0.0) +
        (l.recomputes(model::RecomputeLayerNorm) ? 2.0 : 0.0) +
        (m.kvLoraRank > 0 && l.recomputes(model::RecomputeMlaUpProjection) ? 2.0 : 0.0) +
        (l.recomputes(model::RecomputeMlp) ? (3.0 + clampKernels) * (1.0 - moeShare) : 0.0) +
        (l.recomputes(model::RecomputeMoe)             ? moeShare * moe.forward
         : l.recomputes(model::RecomputeMoeActivation) ? moeShare * (1.0 + clampKernels)
                                                       : 0.0) +
        (!l.recomputes(model::RecomputeMoe) && l.recomputes(model::RecomputeSharedExperts)
             ? (3.0 + clampKernels) * moeShare
             : 0.0);
    const double kernelPerLayer =
        (kernelsForward + kernelsBackward + kernelsRecompute) * kKernelFixedSeconds;
    // What the host launches: the kernels, less those a CUDA graph replays with one launch
    // (cuda_graph_scope): the attention block (the norm, the projections with their chunks, the
    // attention and the dropout-add: forward 4 and the attention's, backward 7 and its), a dense
    // MLP block (forward 5, backward 8), an MoE layer's router with its shared experts, and the
    // dispatcher's metadata with them.
    double hostForward = kernelsForward;
    double hostBackward = kernelsBackward;
    // The experts' per-split quantizations are launched by Transformer Engine's C++ loop inside
    // one Python call an input (above): each costs the host the driver's launch
    // (kKernelFixedSeconds), not a framework operation's; counted here as that share of one.
    // With the full-iteration graph (cuda_graph_scope full_iteration: Megatron-Core's
    // cuda_graph_impl "full_iteration", one graph for the forward-backward path of every
    // micro-batch, the optimizer outside) the host replays it with one launch a step: it issues
    // no kernel of the layers, the output layer or the loss, and no MoE layer waits on a copy
    // of its token counts (the graph runs at fixed sizes: Megatron-Bridge's full-iteration
    // recipes bound each expert rank's tokens, moe_expert_rank_capacity_factor, and stash them
    // in pages, moe_paged_stash).
    const bool fullIteration = (w.cudaGraphScope & model::CudaGraphFullIteration) != 0;
    const double hostSecondsPerKernel =
        fullIteration ? 0.0 : std::max(0.0, r.node.hostLaunchUs) * 1e-6;
    const double splitLaunchDiscount =
        hostSecondsPerKernel > 0.0 ? std::max(0.0, 1.0 - kKernelFixedSeconds / hostSecondsPerKernel)
                                   : 0.0;
    const double splitCastsRecompute =
        moeShare * moe.splitCasts * (whole + (l.recomputes(model::RecomputeMoe) ? 1.0 : 0.0));
    hostForward -= moeShare * moe.splitCasts * splitLaunchDiscount;
    hostBackward -= (moeShare * moe.splitCasts + splitCastsRecompute) * splitLaunchDiscount;
    const double chunkForward =
        l.sp && l.t > 1 && w.tpCommOverlap ? (t - 1.0) + (kPipelineSplits - 1.0) : 0.0;
    const double chunkBackward = l.sp && l.t > 1 && w.tpCommOverlap ? t - 1.0 : 0.0;
    auto graphed = [&](double forward, double backward) {
        hostForward -= forward - 1.0;
        hostBackward -= backward - 1.0;
    };
    if (w.cudaGraphScope & model::CudaGraphAttention)
        graphed(4.0 + attentionKernels + chunkForward + castKernelsBlockForward,
                7.0 + attentionBackwardKernels + chunkBackward + castKernelsBlockBackward);
    if ((w.cudaGraphScope & model::CudaGraphMlp) && moeShare < 1.0)
        graphed((1.0 - moeShare) * (5.0 + clampKernels + chunkForward + castKernelsBlockForward) +
                    moeShare,
                (1.0 - moeShare) *
                        (8.0 + clampKernelsBackward + chunkBackward + castKernelsBlockBackward) +
                    moeShare);
    if ((w.cudaGraphScope & model::CudaGraphMoeRouter) && moeShare > 0.0) {
        const double preprocess =
            (w.cudaGraphScope & model::CudaGraphMoePreprocess) ? moe.preprocess : 0.0;
        graphed(moeShare * (moe.router + moe.shared + preprocess) + (1.0 - moeShare),
                moeShare * (moe.router + moe.sharedBackward) + (1.0 - moeShare));
    }
    // The host's time to issue them, forward and backward (recomputation runs in the backward).
    // The host's time per launch is the node's (catalog host_launch_us): 53.7 us measured in
    // DeepSeek's profile of its MoE training on x86 hosts (deepseek-ai/profile-data, 49.6 ms of
    // host work for 923 launches), 2.75 times that on Grace (Transformer Engine issue 2053: a
    // torch.nn.Linear forward at 37.08 us of CPU time on GB200 against 13.48 us on a DGX H100).
    const double hostForwardPerLayer = hostForward * hostSecondsPerKernel;
    const double hostBackwardPerLayer = (hostBackward + kernelsRecompute) * hostSecondsPerKernel;
    // The output layer's GEMM each way and the loss (Megatron-LM's vocabulary-parallel cross
    // entropy: the maximum, the shift and exponent, the sum, the target's logit and the loss;
    // backward the softmax, the one-hot subtraction and the scaling).
    const double kernelLogits = 13.0 * kKernelFixedSeconds;
    // The loss streams the rank's logits (b s / c tokens of the gathered sequence by V / t) through
    // HBM in fp32, pass by pass (Megatron-Core's vocabulary-parallel cross entropy,
    // megatron/core/tensor_parallel/cross_entropy.py, July 2024, unfused by default): forward the
    // cast to fp32 (read 2, write 4 bytes a logit), the maximum (read 4), the shift (read and
    // write 4), the exponent (read and write 4), the sum (read 4) and the division into the
    // softmax kept for the backward (read and write 4): 38 bytes; backward the scaling by the
    // loss's gradient (read and write 4) and the cast back to bf16 for the output layer's GEMMs
    // (read 4, write 2): 14 bytes. The output layer's weight gradient accumulates into its fp32
    // main_grad (read and write 4 bytes a weight), as the layers' do. A fused cross entropy
    // (fused_cross_entropy) reads the bf16 logits once forward and once backward, writing their
    // bf16 gradient: 6 bytes a logit.
    const double logitsPerRank = l.b * l.s / l.c * m.vocabSize / l.t;
    const double outputWeights = static_cast<double>(m.vocabSize) * h / l.t;
    const double outputAccumulationBytes =
        deepSpeedBf16(w) ? accumulationBytesPerWeight(w) : 2.0 * gradBytes;
    const double memoryLogits = ((w.fusedCrossEntropy ? 6.0 : 52.0) * logitsPerRank +
                                 outputAccumulationBytes * outputWeights) /
                                hbm;
    // The input embedding's backward (PyTorch's embedding_dense_backward) writes a dense bf16
    // gradient of the rank's V / t rows (zeroed, then the tokens' rows added: 2 bytes a weight
    // each) that the gradient hook adds into the fp32 main_grad (read 2 and 4, write 4): 14 bytes
    // a weight of the first stage, per micro-batch. DeepSpeed's BF16 optimizer casts the dense
    // gradient and adds it to its fp32 gradient instead (6 + 12 bytes after the 2 + 2): 22.
    const double embeddingBytes = deepSpeedBf16(w) ? 22.0 : 14.0;
    const double memoryEmbedding =
        embeddingBytes * static_cast<double>(m.vocabSize) * h / l.t / hbm;
    // Beside its transformer layer and the output layer with its loss, an MTP layer looks up the
    // tokens one further ahead in the last stage's copy of the embedding (its backward writes a
    // dense gradient as the first stage's does, memoryEmbedding), normalizes it and the hidden
    // state (two RMSNorms, each reading and writing an s b h tensor forward and twice that
    // backward), concatenates the pair (read and write 2 s b h) and projects it: 16 s b h bf16
    // elements, and the kernels of those steps (the lookup, two norms, the concatenation and the
    // projection forward; their gradients backward).
    const double mtpSbh = l.b * l.s / l.c * h / (l.sp ? l.t : 1);
    const double memoryMtp = (16.0 * kBf16Bytes * mtpSbh) / hbm + memoryEmbedding;
    const double mtpKernels = 10.0;
    const double matmulMtp = mtpProjection.forward + mtpProjection.backward;
    const double mtpWork = matmulMtp + memoryMtp + mtpKernels * kKernelFixedSeconds;

    const double gpuSms = r.gpu.smCount > 0 ? r.gpu.smCount : 132.0;
    // Context parallelism: K and V of the rank's heads gathered over the context ranks, beside
    // the attention (Megatron-Core's ring attention sends the next chunk while it computes the
    // current one), their channels' SMs taken from it.
    double cpPerLayer = 0.0;
    double cpSlowdownPerLayer = 0.0;
    if (l.c > 1) {
        const double kvHeadsPerRank =
            std::max(1.0, static_cast<double>(m.effectiveKvHeads()) / l.t);
        const double kvBytes = 2.0 * kBf16Bytes * l.b * l.s * kvHeadsPerRank * m.effectiveHeadDim();
        const int perNode = ranksPerNode(l.c, l.t, l.scaleUpGpus);
        const StepCollective ag =
            timed(r, net, CollectiveOp::AllGather, kvBytes, l.c, perNode, 0.0);
        const StepCollective rs =
            timed(r, net, CollectiveOp::ReduceScatter, kvBytes, l.c, perNode, 0.0);
        out.contextParallel = ag;
        // Recomputing the attention (the layer whole, or core_attn) gathers the keys and values
        // again.
        const double gathers = 2.0 + attentionAgainShare;
        const double perLayer = gathers * ag.seconds + rs.seconds;
        const double attention = (1.0 + attentionAgainShare) * scores.forward + scores.backward;
        const double channels =
            perLayer > 0.0
                ? (gathers * ag.seconds * ag.channels + rs.seconds * rs.channels) / perLayer
                : 0.0;
        const SharedSms shared = shareSms(perLayer, attention, channels, gpuSms);
        cpPerLayer = perLayer - shared.hidden;
        cpSlowdownPerLayer = shared.slowdown;
    }

    // Expert parallelism: dispatch and combine of every MoE layer, forward and backward.
    double epPerLayer = 0.0;
    double epSlowdownPerLayer = 0.0; ///< The shared experts' GEMMs slowed beside the all-to-all.
    const double epCallsPerLayer = 4.0 + 2.0 * (l.recomputes(model::RecomputeMoe) ? 1.0 : whole);
    if (m.moe() && l.e > 1) {
        const double epTokens = l.b * l.s / l.c / (l.sp ? l.t : 1);
        const double tokenBytes = epTokens * h * kBf16Bytes;
        // The expert-parallel ranks are expert_tensor_parallel apart: Megatron-Core orders the
        // expert grid tp-ep-dp-pp (megatron/core/parallel_state.py, initialize_model_parallel).
        const int perNode = ranksPerNode(l.e, l.et, l.scaleUpGpus);
        if (w.moeDispatcher == model::MoeDispatcher::AllToAll) {
            // Megatron-Core's all-to-all dispatcher permutes one row a (token, expert) pair and
            // sends each rank the rows of its experts (token_dispatcher.py,
            // MoEAlltoAllTokenDispatcher: num_out_tokens = tokens x top-k, the input splits the
            // rows summed by rank): top-k rows a token whatever ranks or groups they reach, the
            // local experts' share staying on the GPU (the engine's all-to-all keeps 1/e).
            out.expertDispatch = timed(r, net, CollectiveOp::AllToAll, tokenBytes * m.activeExperts,
                                       l.e, perNode, 0.0);
            out.expertDispatchCopies = m.activeExperts;
        } else {
            // A flex dispatcher sends a token once to each rank holding any of its experts
            // (DeepEP's intranode dispatch: get_dispatch_layout's is_token_in_rank; HybridEP
            // alike; by symmetry 1/e of the copies stay on the rank, as the engine's all-to-all
            // keeps). Across nodes it sends a token once to each node its experts reach, to the
            // rank of the same rail, which forwards it over NVLink to that node's ranks it
            // reaches (DeepEP's internode dispatch: num_tokens_per_rdma_rank): there the group
            // limit bounds the copies. The copy for the sender's own node goes through the same
            // channels (the RDMA sender writes it into its own receive buffer, the forwarders
            // pass it on) and DeepEP's measured rates count it: 43, 58 and 51 GB/s of node
            // copies a GPU at 2, 4 and 8 nodes of H800 with one 400 Gb/s NIC each (DeepEP's
            // README, "Normal kernels with NVLink and RDMA forwarding"; tests/test_internode.py
            // counts num_rdma_token_sent over every node a token reaches), near the NIC's rate at
            // 2 nodes where only half of them cross it. So every node copy is timed at the
            // scale-out rate. The two legs pipeline: the call takes the longer.
            const int nodes = std::max(1, (l.e + perNode - 1) / perNode);
            const double ranksReached = expertUnitsReached(m, l.e, nodes);
            if (nodes <= 1) {
                out.expertDispatch = timed(r, net, CollectiveOp::AllToAll,
                                           tokenBytes * ranksReached, l.e, perNode, 0.0);
                boundByFlexLibrary(out.expertDispatch, tokenBytes * ranksReached, l.e, w, r.gpu);
                out.expertDispatchCopies = ranksReached;
            } else {
                // The engine's all-to-all sends (nodes - 1) / nodes of its buffer across nodes.
                const double nodeCopies = expertUnitsReached(m, nodes, nodes);
                out.expertDispatchCopies = nodeCopies;
                const StepCollective scaleOut =
                    timed(r, net, CollectiveOp::AllToAll,
                          tokenBytes * nodeCopies * nodes / (nodes - 1.0), l.e, perNode, 0.0);
                const StepCollective fanOut =
                    timed(r, net, CollectiveOp::AllToAll, tokenBytes * ranksReached, perNode,
                          perNode, 0.0);
                out.expertDispatch = scaleOut.seconds >= fanOut.seconds ? scaleOut : fanOut;
                out.expertDispatch.ranks = l.e;
                out.expertDispatch.ranksPerNode = perNode;
            }
        }
        // Recomputing an MoE layer (whole, or its moe module) dispatches and combines again.
        const double call = moeShare * out.expertDispatch.seconds;
        epPerLayer = epCallsPerLayer * call;
        if (l.sharedExpertOverlap) {
            // Megatron-Core's --moe-shared-expert-overlap (megatron/core/transformer/moe/
            // token_dispatcher.py, MoEAlltoAllTokenDispatcher and MoEFlexTokenDispatcher; the
            // shared experts' stream in shared_experts.py): the shared experts' first GEMM and
            // activation run on their own stream while the dispatch moves the tokens, the
            // second while the combine moves them back. Backward, autograd runs each GEMM's
            // gradients on the stream its forward ran on, beside the all-to-all of the same
            // side (the combine's gradient first, under the second GEMM's). Each GEMM hides at
            // most its own call, and the call's channels take their SMs meanwhile (shareSms).
            const GemmTimes fc2{sharedTimes.forward - sharedFc1.forward,
                                sharedTimes.backward - sharedFc1.backward, 0.0};
            const double recomputed = l.recomputes(model::RecomputeMoe) ? 1.0 : whole;
            const double channels = out.expertDispatch.channels;
            double hidden = 0.0;
            for (const double gemm :
                 {sharedFc1.forward, fc2.forward, sharedFc1.backward, fc2.backward}) {
                const SharedSms under = shareSms(call, gemm, channels, gpuSms);
                hidden += under.hidden;
                epSlowdownPerLayer += under.slowdown;
            }
            for (const double gemm : {sharedFc1.forward, fc2.forward}) {
                const SharedSms under = shareSms(call, gemm, channels, gpuSms);
                hidden += recomputed * under.hidden;
                epSlowdownPerLayer += recomputed * under.slowdown;
            }
            epPerLayer += epSlowdownPerLayer - hidden;
        }
    }

    // Pipeline: the activation of a chunk boundary, scattered over the tensor ranks.
    double p2pPerMicroBatch = 0.0;
    if (l.p > 1) {
        const long long stride = l.gpus / l.p;
        out.pipeline = timed(r, net, CollectiveOp::SendRecv, activationBytes / l.t, l.p,
                             ranksPerNode(l.p, stride, l.scaleUpGpus), 0.0);
        out.pipeline.perStep = 2.0 * l.v * l.m;
        p2pPerMicroBatch = 2.0 * l.v * out.pipeline.seconds;
    }

    // The pipeline runs at the pace of its slowest stage: a full one in the middle, the first
    // with the embedding's backward, or the last with its fewer layers plus the output layer and
    // the loss (with Llama 3's 128k vocabulary the logits weigh about two thirds of a layer) and
    // any MTP layers, each stage's time with what it waits on the host (below): a full stage of
    // host-bound MoE layers can pace a pipeline whose last stage has more GPU work.
    // With one stage it holds all of them.
    const double workPerLayer =
        matmulPerLayer + memoryPerLayer + kernelPerLayer + tpPerLayer + cpPerLayer + epPerLayer;
    // The GPU waits for the host where the host takes longer to issue the kernels than the GPU
    // to run them. The host runs ahead of the GPU until it waits on it: Megatron-Core's MoE
    // layer copies its tokens-per-expert counts to the host every forward (the all-to-all's
    // splits and the grouped GEMM's per-expert sizes; token_dispatcher.py,
    // _maybe_dtoh_and_synchronize), so each MoE layer's forward starts with the GPU's queue
    // empty and takes the longer of the two; the backward (its splits kept from the forward) and
    // a dense model run ahead across layers, and wait only where the host's whole share is the
    // longer. Per micro-batch of a stage of \a layers layers, \a heads output layers with their
    // loss and \a mtps MTP layers' own steps.
    const double forwardShare = matmulPerLayer > 0.0 ? layer.forward / matmulPerLayer : 1.0 / 3.0;
    const double gpuForwardPerLayer = workPerLayer * forwardShare;
    const double gpuBackwardPerLayer = workPerLayer - gpuForwardPerLayer;
    const double headWork = matmulLogits + memoryLogits + kernelLogits;
    auto hostWaitOf = [&](double layers, double heads, double mtps) {
        const double hostHeads = (13.0 * heads + mtpKernels * mtps) * hostSecondsPerKernel;
        const double headsWork = heads * headWork + mtps * mtpWork;
        if (moeShare > 0.0)
            return layers * moeShare * std::max(0.0, hostForwardPerLayer - gpuForwardPerLayer) +
                   std::max(0.0, layers * (hostBackwardPerLayer - gpuBackwardPerLayer) + hostHeads -
                                     headsWork);
        return std::max(0.0, layers * (hostForwardPerLayer + hostBackwardPerLayer) + hostHeads -
                                 (layers * workPerLayer + headsWork));
    };

    // MTP layers run on the last stage: a transformer layer, the output layer and loss again and
    // their own projection each.
    const double lastWork = (l.lastStageLayers + l.mtp) * workPerLayer + (1.0 + l.mtp) * headWork +
                            l.mtp * mtpWork + (l.p == 1 ? memoryEmbedding : 0.0) +
                            hostWaitOf(l.lastStageLayers + l.mtp, 1.0 + l.mtp, l.mtp);
    const double firstWork = l.firstStageLayers * workPerLayer + memoryEmbedding +
                             hostWaitOf(l.firstStageLayers, 0.0, 0.0);
    const double middleWork = l.stageLayers * workPerLayer + hostWaitOf(l.stageLayers, 0.0, 0.0);
    const bool lastPaces = l.p == 1 || lastWork >= std::max(firstWork, middleWork);
    const bool firstPaces = !lastPaces && firstWork > middleWork;
    const double layersPerGpu = lastPaces    ? l.lastStageLayers + l.mtp
                                : firstPaces ? l.firstStageLayers
                                             : l.stageLayers;
    const double logitsShare = lastPaces ? 1.0 + l.mtp : 0.0;
    const double mtpShare = lastPaces ? l.mtp : 0.0;
    const double embeddingShare = firstPaces || (lastPaces && l.p == 1) ? 1.0 : 0.0;
    out.pacingStageLayers = layersPerGpu;
    out.pacingStageHasOutputLayer = lastPaces;
    const double recomputeSeconds = layersPerGpu * recomputePerLayer;
    const double matmulPerMicroBatch =
        layersPerGpu * matmulPerLayer + logitsShare * matmulLogits + mtpShare * matmulMtp;
    const double idealMatmul =
        layersPerGpu * idealPerLayer + logitsShare * logits.ideal + mtpShare * mtpProjection.ideal;
    out.matmulShapeEfficiency = matmulPerMicroBatch > 0.0 ? idealMatmul / matmulPerMicroBatch : 1.0;
    const double memoryPerMicroBatch = layersPerGpu * memoryPerLayer + logitsShare * memoryLogits +
                                       embeddingShare * memoryEmbedding + mtpShare * memoryMtp;
    const double kernelPerMicroBatch = layersPerGpu * kernelPerLayer + logitsShare * kernelLogits +
                                       mtpShare * mtpKernels * kKernelFixedSeconds;
    const double tpPerMicroBatch = layersPerGpu * tpPerLayer;
    const double cpPerMicroBatch = layersPerGpu * (cpPerLayer + cpSlowdownPerLayer);
    const double cpSlowdownPerMicroBatch = layersPerGpu * cpSlowdownPerLayer;
    const double epPerMicroBatch = layersPerGpu * epPerLayer;
    const double epSlowdownPerMicroBatch = layersPerGpu * epSlowdownPerLayer;
    if (l.t > 1)
        out.tensorParallel.perStep = tpCallsPerLayer * layersPerGpu * l.m;
    if (l.c > 1)
        out.contextParallel.perStep = (2.0 + attentionAgainShare) * layersPerGpu * l.m;
    if (m.moe() && l.e > 1)
        out.expertDispatch.perStep = epCallsPerLayer * layersPerGpu * moeShare * l.m;
    const double hostWaitPerMicroBatch = hostWaitOf(layersPerGpu, logitsShare, mtpShare);
    const double workPerMicroBatch = matmulPerMicroBatch + memoryPerMicroBatch +
                                     kernelPerMicroBatch + tpPerMicroBatch + cpPerMicroBatch +
                                     epPerMicroBatch + hostWaitPerMicroBatch;
    // Activation offloading (one stage, pipeline_parallel 1): the k offloaded layers' copies
    // are spread evenly over the L layers, each given the computation of L / k layers before
    // the compute stream waits for it (Transformer Engine's cpu_offload.py, layer_window_map:
    // forward, copy i must be done when layer (L / k)(i + 1) - 1 ends; backward, each reload
    // starts a window ahead of the layer that reads it). What a window's computation cannot
    // cover is exposed, each way, for every offloaded layer. The copies take the node's host
    // link (PCIe, or NVLink-C2C on Grace), not the NVLink or the network.
    out.memory = stepMemory(r);
    double offloadPerMicroBatch = 0.0;
    if (l.offload > 0.0 && r.node.hostBandwidthGbS > 0.0) {
        const double copy = out.memory.layerActivationsGb / r.node.hostBandwidthGbS;
        const double window = layersPerGpu / l.offload;
        const double forward =
            workPerLayer * layer.forward / std::max(1e-30, layer.forward + layer.backward);
        const double backward = workPerLayer - forward;
        offloadPerMicroBatch = l.offload * (std::max(0.0, copy - window * forward) +
                                            std::max(0.0, copy - window * backward));
    }
    out.microBatchSeconds = workPerMicroBatch + p2pPerMicroBatch + offloadPerMicroBatch;

    // Data parallelism, dense weights over data x context ranks, experts over their replicas.
    const double denseParameters =
        (m.parameters() - m.moeLayers() * static_cast<double>(m.experts) * m.expertParameters()) /
        (static_cast<double>(l.t) * l.p);
    const double expertParameters = m.moeLayers() * static_cast<double>(m.experts) *
                                    m.expertParameters() / (static_cast<double>(l.et) * l.p * l.e);
    const int zero = w.zeroStage;
    // Seconds times channels of every data-parallel call, for the SMs they hold (below).
    double channelSeconds = 0.0;
    auto reduction = [&](double parameters, int ranks, int perNode, StepCollective& record) {
        const double bytes = gradBytes * parameters;
        if (ranks <= 1 || parameters <= 0.0)
            return 0.0;
        double seconds = 0.0;
        if (zero == 0) {
            record = timed(r, net, CollectiveOp::AllReduce, bytes, ranks, perNode, 1.0);
            seconds = record.seconds;
            channelSeconds += seconds * record.channels;
        } else if (zero == 1 && deepSpeedBf16(w)) {
            // DeepSpeed's BF16 optimizer keeps whole fp32 gradients and all-reduces them in
            // buckets after the backward (its pipeline engine's _bf16_reduce_grads, through
            // buffered_allreduce_fallback), then each rank updates its shard and the bf16
            // weights are gathered (all_gather_dp_groups): twice a reduce-scatter's traffic.
            record = timed(r, net, CollectiveOp::AllReduce, bytes, ranks, perNode, 1.0);
            const StepCollective ag = timed(r, net, CollectiveOp::AllGather,
                                            kBf16Bytes * parameters, ranks, perNode, 0.0);
            seconds = record.seconds + ag.seconds;
            channelSeconds += record.seconds * record.channels + ag.seconds * ag.channels;
        } else {
            const StepCollective rs =
                timed(r, net, CollectiveOp::ReduceScatter, bytes, ranks, perNode, 0.0);
            // The updated weights are gathered in their own 2 bytes.
            const StepCollective ag = timed(r, net, CollectiveOp::AllGather,
                                            kBf16Bytes * parameters, ranks, perNode, 0.0);
            record = rs;
            // Stage 1 reduces once per step; stage 2 keeps only its gradient shard, so reduces
            // every micro-batch; stage 3 also gathers the weights forward and backward.
            const double rsCalls = zero >= 2 ? l.m : 1.0;
            const double agCalls = zero >= 3 ? 2.0 * l.m : 1.0;
            record.perStep = rsCalls;
            seconds = rsCalls * rs.seconds + agCalls * ag.seconds;
            channelSeconds +=
                rsCalls * rs.seconds * rs.channels + agCalls * ag.seconds * ag.channels;
        }
        return seconds;
    };
    const int dpRanks = static_cast<int>(
        std::min<long long>(static_cast<long long>(l.d) * l.c, std::numeric_limits<int>::max()));
    const double dpSeconds = reduction(denseParameters, dpRanks,
                                       ranksPerNode(dpRanks, l.t, l.scaleUpGpus), out.dataParallel);
    // Experts over their data-parallel replicas.
    const int expertRanks = l.expertReplicas();
    const double expertSeconds =
        m.moe() ? reduction(
                      expertParameters, expertRanks,
                      ranksPerNode(expertRanks, static_cast<long long>(l.et) * l.e, l.scaleUpGpus),
                      out.expertDataParallel)
                : 0.0;
    out.dataParallelTotalSeconds = dpSeconds + expertSeconds;
    // Bucketed reduction: overlap_fraction of it can run under compute, the last micro-batch's
    // backward for stages 0 and 1, every micro-batch's for stages 2 and 3; with a sharded
    // optimizer the weights' all-gather also runs under the next step's first forward
    // (Megatron-LM's --overlap-grad-reduce and --overlap-param-gather).
    const double window =
        (zero >= 2 ? l.m : 1.0) * (zero >= 1 ? 1.0 : 2.0 / 3.0) * matmulPerMicroBatch;
    // The collectives hidden take their channels' SMs from the computation (shareSms).
    const double channels =
        out.dataParallelTotalSeconds > 0.0 ? channelSeconds / out.dataParallelTotalSeconds : 0.0;
    const SharedSms dpShared =
        shareSms(w.overlapFraction * out.dataParallelTotalSeconds, window, channels, gpuSms);
    out.dataParallelSeconds = out.dataParallelTotalSeconds - dpShared.hidden;
    // Tied embeddings on a pipeline: the first stage's input embedding and the last stage's
    // output layer hold one weight twice, so each step their gradients are summed by an
    // all-reduce between the two stages after the backward pass, exposed (Megatron-LM's
    // _allreduce_word_embedding_grads in finalize_model_grads, _allreduce_embedding_grads in its
    // 2021 training.py; DeepSpeed's pipeline engine, _exec_reduce_tied_grads). The two stages'
    // ranks are (p - 1) t c d apart (Megatron's rank order tp-cp-dp-pp). Counted with the
    // data-parallel synchronization it runs beside.
    if (m.tiedEmbeddings && l.p > 1) {
        const long long apart = static_cast<long long>(l.p - 1) * l.t * l.c * l.d;
        const StepCollective tied =
            timed(r, net, CollectiveOp::AllReduce, gradBytes * outputWeights, 2,
                  ranksPerNode(2, apart, l.scaleUpGpus), 1.0);
        out.dataParallelTotalSeconds += tied.seconds;
        out.dataParallelSeconds += tied.seconds;
    }

    // The optimizer update of the rank's shard of the weights, and the passes Megatron-Core's
    // data-parallel wrapper makes once a step over the whole gradient buffer of the rank, fp32
    // or the weights' bytes (megatron/core/distributed/param_and_grad_buffer.py, July 2024):
    // the scaling by 1 / data-parallel size before the collective (read and write; skipped for
    // a group of one), the NaN check's norm (read; --check-for-nan-in-loss-and-grad is on by
    // default) and the zeroing for the next step (write).
    const double shard = zero >= 1 ? denseParameters / dpRanks + expertParameters / expertRanks
                                   : denseParameters + expertParameters;
    const double gradientBufferPasses =
        (dpRanks > 1 ? 4.0 : 2.0) * gradBytes * (denseParameters + expertParameters);
    // Moments in bf16 read and write 2 bytes less each.
    const double updateBytes = kOptimizerUpdateBytes - 2.0 * (kOptimizerBytes - optimizerBytes(w));
    out.optimizerSeconds = (updateBytes * shard + gradientBufferPasses) / hbm;

    out.computeSeconds = l.m * matmulPerMicroBatch;
    out.recomputeSeconds = l.m * recomputeSeconds;
    out.memoryBoundSeconds = l.m * memoryPerMicroBatch;
    out.kernelOverheadSeconds = l.m * kernelPerMicroBatch;
    out.hostWaitSeconds = l.m * hostWaitPerMicroBatch;
    out.tensorParallelSeconds = l.m * tpPerMicroBatch;
    out.contextParallelSeconds = l.m * (cpPerMicroBatch - cpSlowdownPerMicroBatch);
    out.overlapContentionSeconds = l.m * cpSlowdownPerMicroBatch + dpShared.slowdown;
    out.expertParallelSeconds = l.m * (epPerMicroBatch - epSlowdownPerMicroBatch);
    out.overlapContentionSeconds += l.m * epSlowdownPerMicroBatch;
    if (l.a2aOverlap && epPerMicroBatch > 0.0) {
        // Megatron-Core's expert all-to-all overlap (megatron/core/pipeline_parallel/
        // combined_1f1b.py): in the steady state the forward of one chunk and the backward of
        // another run merged layer by layer, each one's dispatch and combine on a communication
        // stream under the other's attention and MLP, as far as the schedule lets them
        // (kEpOverlapConcurrentShare; the all-to-all's channels take their SMs meanwhile). The
        // warm-up forwards, one more than the schedule's own so that the merged pair is
        // independent (schedules.py, get_pp_rank_microbatches), and the cool-down backwards run
        // alone, their all-to-all exposed; without pipelining the first forward and the last
        // backward.
        const double chunks = l.m * l.v;
        const double steady = std::clamp((chunks - l.warmupChunks()) / chunks, 0.0, 1.0);
        const double computation = matmulPerMicroBatch + memoryPerMicroBatch + kernelPerMicroBatch;
        const SharedSms shared =
            shareSms(kEpOverlapConcurrentShare * steady * epPerMicroBatch, steady * computation,
                     out.expertDispatch.channels, gpuSms);
        out.expertParallelSeconds = l.m * (epPerMicroBatch - shared.hidden);
        out.overlapContentionSeconds += l.m * shared.slowdown;
        out.microBatchSeconds -= shared.hidden - shared.slowdown;
    }
    out.offloadSeconds = l.m * offloadPerMicroBatch;
    // Each chunk's forward sends its activation on and each backward its gradient back: 2 v
    // transfers a micro-batch, and the fill and the flush cross the p - 1 boundaries once each
    // way. Waited on where they are posted (batched isend/irecv, Megatron-Core's p2p_
    // communication.py), every one is exposed.
    out.pipelineSendRecvSeconds = (l.m + (l.p - 1.0) / l.v) * p2pPerMicroBatch;
    if (l.p2pOverlap && p2pPerMicroBatch > 0.0) {
        // overlap_p2p_comm (Megatron-Core's schedules.py, forward_backward_pipelining_with_
        // interleaving): in the 1F1B steady state each chunk's send and the next receive are
        // posted on their own streams after the chunk (pp_post_forward, pp_post_backward) and
        // waited on only before the chunk that reads the tensor (pp_pre_forward, pp_pre_
        // backward). A stage runs its forward of a chunk two steady steps (a forward and a
        // backward chunk each) after the stage before it ran the same one, and its backward
        // one transfer after the stage after it; so with transfers of c a step takes P with
        // 2 P >= F + B + 2 c: a step's two transfers, run side by side, hide under half a
        // chunk's forward and backward, the rest of c exposed once a step, and their channels
        // take their SMs meanwhile (shareSms). The warm-up's forwards and the flush's
        // backwards, as many as the first stage runs before its first backward
        // (Layout::warmupChunks), send and receive blocking (overlap_p2p_comm_warmup_flush off,
        // as Megatron-Bridge leaves it).
        const double transfer = out.pipeline.seconds;
        const double chunks = l.m * l.v;
        const double warmup = std::min(chunks, l.warmupChunks());
        const double steady = chunks - warmup;
        const double perChunk = (workPerMicroBatch + offloadPerMicroBatch) / l.v;
        const SharedSms under = shareSms(transfer, perChunk / 2.0, out.pipeline.channels, gpuSms);
        const double exposed = 2.0 * warmup * transfer + steady * (transfer - under.hidden);
        out.pipelineSendRecvSeconds = exposed + 2.0 * (l.p - 1.0) * transfer;
        out.overlapContentionSeconds += 2.0 * steady * under.slowdown;
        out.microBatchSeconds += (exposed + 2.0 * steady * under.slowdown) / l.m - p2pPerMicroBatch;
    }
    out.bubbleSeconds = (l.p - 1.0) / l.v * workPerMicroBatch;
    if (l.dual) {
        // DualPipe (DeepSeek-V3 technical report, 3.2.1 and Figure 5): in the steady state each
        // GPU runs the forward chunk of one micro-batch beside the backward chunk of another,
        // each one's expert all-to-all and pipeline sends under the other's computation, the
        // communication on kDualPipeCommunicationSms of the GPU's SMs (the computation slows
        // by that share while they run). What the computation cannot cover stays exposed.
        const double computation = matmulPerMicroBatch + memoryPerMicroBatch + kernelPerMicroBatch;
        const double communication = epPerMicroBatch + p2pPerMicroBatch;
        const double slowdown =
            kDualPipeCommunicationSms / std::max(1.0, gpuSms - kDualPipeCommunicationSms);
        const double slowed = computation + std::min(communication, computation) * slowdown;
        const double stretch = computation > 0.0 ? slowed / computation : 1.0;
        const double exposed = std::max(0.0, communication - slowed);
        const double exposedShare = communication > 0.0 ? exposed / communication : 0.0;
        out.computeSeconds *= stretch;
        out.recomputeSeconds *= stretch;
        out.memoryBoundSeconds *= stretch;
        out.kernelOverheadSeconds *= stretch;
        out.expertParallelSeconds *= exposedShare;
        // The sends of the warm-up and the cool-down (p / 2 each way) have nothing to hide under.
        out.pipelineSendRecvSeconds =
            l.m * exposedShare * p2pPerMicroBatch + l.p / 2.0 * p2pPerMicroBatch;
        // Bubble (p/2 - 1)(F&B + B - 3W), its README's table: F&B a forward and a backward chunk
        // overlapped, B a full backward, W its weight-gradient half; B = 2F and W = F as a
        // layer's GEMMs split them, so B - 3W = -F = -1/3 of a micro-batch's computation.
        const double pair = std::max(slowed, communication) + tpPerMicroBatch + cpPerMicroBatch;
        out.bubbleSeconds = (l.p / 2.0 - 1.0) * std::max(0.0, pair - computation / 3.0);
        out.microBatchSeconds = pair;
        // The host issues both chunks' kernels while the pair runs; the GPU waits only if that
        // takes longer than the pair.
        out.hostWaitSeconds =
            l.m * std::max(0.0, layersPerGpu * (hostForwardPerLayer + hostBackwardPerLayer) - pair);
    }
    out.stepSeconds = out.computeSeconds + out.memoryBoundSeconds + out.kernelOverheadSeconds +
                      out.tensorParallelSeconds + out.contextParallelSeconds +
                      out.expertParallelSeconds + out.pipelineSendRecvSeconds + out.bubbleSeconds +
                      out.dataParallelSeconds + out.optimizerSeconds + out.offloadSeconds +
                      out.overlapContentionSeconds + out.hostWaitSeconds;
    const double clusterPeak = peak * l.gpus;
    out.mfu = out.modelFlopsPerStep / (out.stepSeconds * clusterPeak);
    out.hfu = out.hardwareFlopsPerStep / (out.stepSeconds * clusterPeak);
    out.achievedTflopsPerGpu = out.hardwareFlopsPerStep / out.stepSeconds / l.gpus / 1e12;

    const StepMemory& mem = out.memory;
    auto gb = [](double v) {
        const double rounded = std::round(v * 10.0) / 10.0;
        std::string text = std::to_string(rounded);
        return text.substr(0, text.find('.') + 2);
    };
    // The offloaded activations of every GPU of a node share its host memory.
    const double hostGb = mem.offloadedGb * std::max(1, r.node.gpusPerNode);
    if (mem.offloadedGb > 0.0 && r.node.hostMemoryGb > 0.0 && hostGb > r.node.hostMemoryGb) {
        diagnostics.error("/workload/activation_offload_layers",
                          "the offloaded activations take " + gb(hostGb) +
                              " GB of host memory a node (" + gb(mem.offloadedGb) +
                              " a GPU) but the node '" + r.node.id + "' has " +
                              gb(r.node.hostMemoryGb) + " GB",
                          "fewer offloaded layers, a smaller micro-batch, or more tensor or "
                          "context parallelism",
                          "memory-fit");
    }
    if (mem.totalGb > mem.capacityGb) {
        const double states = mem.weightsGb + mem.gradientsGb + mem.optimizerGb;
        std::string field;
        std::string remedy;
        if (states >= mem.activationsGb) {
            field = zero < 3 ? "/workload/zero_stage" : "/workload/pipeline_parallel";
            remedy = zero < 3 ? "a higher ZeRO stage, optimizer_moments \"bf16\", or more "
                                "tensor or pipeline parallelism"
                              : "optimizer_moments \"bf16\", or more pipeline or tensor "
                                "parallelism";
        } else {
            const bool allWhole = w.recompute == Recompute::Full && l.wholeShare >= 1.0;
            field = allWhole                         ? "/workload/micro_batch_size"
                    : w.recompute == Recompute::Full ? "/workload/recompute_num_layers"
                                                     : "/workload/recompute";
            remedy = allWhole ? "a smaller micro-batch, or more tensor, pipeline or context "
                                "parallelism"
                     : w.recompute == Recompute::Full
                         ? "more layers recomputed (recompute_num_layers, 0 for all), a smaller "
                           "micro-batch, or more tensor, pipeline or context parallelism"
                         : "more recomputation (more recompute_modules with selective, or "
                           "full), a smaller micro-batch, or more tensor, sequence or context "
                           "parallelism";
            // One stage on a node with a host link: the activations can go to host memory.
            if (l.offload > 0.0) {
                field = "/workload/activation_offload_layers";
                remedy = "more layers offloaded (at most " + std::to_string(m.layers - 1) +
                         "), a smaller micro-batch, or more tensor or context parallelism";
            } else if (l.p == 1 && r.node.hostBandwidthGbS > 0.0) {
                remedy += "; or activation offloading (activation_offload_layers, with recompute "
                          "\"none\")";
            }
        }
        diagnostics.error(field,
                          "the layout needs " + gb(mem.totalGb) + " GB per GPU (weights " +
                              gb(mem.weightsGb) + ", gradients " + gb(mem.gradientsGb) +
                              ", optimizer " + gb(mem.optimizerGb) + ", activations " +
                              gb(mem.activationsGb) + ", buffers " + gb(mem.buffersGb) +
                              ") but the GPU '" + r.gpu.id + "' has " + gb(mem.capacityGb) +
                              " GB: " + gb(mem.totalGb - mem.capacityGb) + " GB short",
                          remedy, "memory-fit");
    }
    return out;
}

} // namespace dct::solvers
