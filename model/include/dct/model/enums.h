#pragma once

namespace dct::model {

/** Transport of the scale-out fabric. */
enum class Protocol
{
    RoceV2,
    Infiniband
};

/** Shape of the scale-out fabric. */
enum class TopologyKind
{
    FatTree,       ///< 2- or 3-tier (leaf-spine or leaf-spine-core) Clos of k-port switches.
    RailOptimized, ///< Same-index NICs of a scalable unit share a leaf (DGX SuperPOD).
    RailOnly,      ///< One independent network per rail, no spine across rails.
    MultiPlane     ///< N independent fat-tree planes, one NIC per GPU per plane (DeepSeek MPFT).
};

/** How flows are spread over equal-cost paths. */
enum class Routing
{
    Ecmp,         ///< Static per-flow hashing: elephant flows may collide on one uplink.
    StaticPinned, ///< Paths pinned per rail so that flows never share an uplink.
    Adaptive      ///< Adaptive routing or packet spraying: load balanced per packet.
};

/** The algorithm of the gradient all-reduce: automatic (as NCCL's tuner) or pinned (NCCL_ALGO). */
enum class CollectiveChoice
{
    Auto,         ///< The fastest that applies, as NCCL's tuner picks.
    Ring,         ///< Rings over every rank.
    Tree,         ///< Double binary trees across nodes.
    Hierarchical, ///< NVLink inside the node, the fabric between nodes.
    InNetwork     ///< Reduction in the switches (SHARP / CollNet); needs a switch that reduces.
};

/** Arithmetic precision of the training math. */
enum class Precision
{
    Fp8,
    Bf16,
    Fp16,
    Tf32,
    Fp64
};

/** Family of a cooling system. */
enum class CoolingType
{
    AirCrac,      ///< Room air cooling with CRAC/CRAH units, hot/cold aisles.
    LiquidD2cRdhx ///< Direct-to-chip liquid cold plates plus rear-door heat exchangers.
};

/** What the rack layout does when the rack power limit allows more heat than cooling removes. */
/**
 * How many plant units stand behind a load of N units (docs/redundancy.md): N (no spare), N+1 and
 * N+2 (spares in one pool), 2N (two complete systems, each carrying the whole load) and
 * distributed redundancy (DR: three systems carrying what two need, or four what three need).
 */
enum class Redundancy
{
    N,
    NPlus1,
    NPlus2,
    TwoN,
    ThreeToMakeTwo, ///< "3N/2": three systems, any two carry the load.
    FourToMakeThree ///< "4N/3": four systems, any three carry the load.
};

enum class RackLayout
{
    Dense, ///< Fill racks to the power limit and rack units; flag racks above cooling capacity.
    Spread ///< Put fewer nodes in each rack so that no rack exceeds the cooling capacity.
};

/** Kind of a cable or optic. */
enum class CableKind
{
    Dac,        ///< Passive direct-attach copper, inside a rack.
    Aec,        ///< Active electrical cable, inside a rack or to the next one.
    Aoc,        ///< Active optical cable.
    Transceiver ///< Pluggable optical transceiver (one per cable end) over fiber.
};

/** Order of forward and backward passes of the micro-batches on a pipeline. */
enum class PipelineSchedule
{
    OneFOneB,    ///< One forward, one backward (PipeDream-Flush; Narayanan et al. 2021, 2.2.1).
    Interleaved, ///< Each GPU holds several model chunks (virtual stages), bubble / v (2.2.2).
    DualPipe     ///< Micro-batches enter from both ends; a forward and a backward overlap their
                 ///< communication (DeepSeek-V3 technical report, arXiv 2412.19437, 3.2.1).
};

/** What the backward pass recomputes instead of keeping from the forward pass. */
enum class Recompute
{
    None,      ///< Every activation kept.
    Selective, ///< Attention's s^2 parts recomputed (Korthikanti et al. 2022, section 5).
    Full       ///< Only each layer's input kept; the whole forward pass runs again.
};

/**
 * The parts of a layer that selective recomputation runs again in the backward pass instead of
 * keeping their outputs, as Megatron-Core's --recompute-modules names them (megatron/core/
 * transformer/transformer_config.py, recompute_modules; default core_attn). Bits of a mask.
 */
enum RecomputeModule : int
{
    RecomputeCoreAttention = 1 << 0,   ///< core_attn: the attention's scores and softmax.
    RecomputeMlaUpProjection = 1 << 1, ///< mla_up_proj: MLA's Q and K/V up-projections and RoPE.
    RecomputeMoeActivation = 1 << 2,   ///< moe_act: the routed experts' activation output.
    RecomputeLayerNorm = 1 << 3,       ///< layernorm: the two norms' outputs.
    RecomputeMlp = 1 << 4,             ///< mlp: a dense MLP whole.
    RecomputeMoe = 1 << 5,             ///< moe: the MoE layer whole (routing, dispatch, experts).
    RecomputeSharedExperts = 1 << 6    ///< shared_experts: the shared experts' MLP whole.
};

/**
 * Parts of a transformer layer captured in CUDA graphs and replayed with one launch each
 * (Megatron-Core's --cuda-graph-scope with Transformer Engine's partial graphs). Bits of a mask.
 */
enum CudaGraphScope : int
{
    CudaGraphAttention = 1 << 0,     ///< attn: the norm, projections and attention of a layer.
    CudaGraphMlp = 1 << 1,           ///< mlp: a dense layer's MLP.
    CudaGraphMoeRouter = 1 << 2,     ///< moe_router: the router (and shared experts).
    CudaGraphMoePreprocess = 1 << 3, ///< moe_preprocess: the dispatcher's metadata before it.
    /// full_iteration: the whole forward-backward path of a step, every micro-batch, one graph
    /// (Megatron-Core's cuda_graph_impl "full_iteration"; the optimizer step stays outside).
    CudaGraphFullIteration = 1 << 4
};

/**
 * How FP8 training scales its tensors to the FP8 range (Megatron-Core's --fp8-recipe, which picks
 * a Transformer Engine recipe: transformer_engine/common/recipe/__init__.py).
 */
enum class Fp8Recipe
{
    Delayed,    ///< A scale a tensor from the amax history of past steps (DelayedScaling).
    Tensorwise, ///< A scale a tensor from its own amax, computed first (Float8CurrentScaling).
    Mxfp8,      ///< A scale every 32 elements, applied by the tensor cores (MXFP8BlockScaling).
    Blockwise   ///< Scales of 1 x 128 (activations) and 128 x 128 (weights) (Float8BlockScaling).
};

/** How an MoE layer moves its tokens to their experts and back. */
enum class MoeDispatcher
{
    AllToAll, ///< Megatron-Core's all-to-all dispatcher: permute, NCCL all-to-all, permute.
    Flex      ///< A fused dispatch and combine (DeepEP, HybridEP): the permutation in the kernel.
};

/** The library behind the flex dispatcher (Megatron-Core's --moe-flex-dispatcher-backend). */
enum class MoeFlexBackend
{
    DeepEp,  ///< DeepEP's normal kernels: warps copy the tokens, 20 SMs by default.
    HybridEp ///< HybridEP: TMA copies, 16 SMs by default.
};

/** The precision of Adam's two moments. */
enum class OptimizerMoments
{
    Fp32, ///< 4 bytes each (mixed-precision Adam, Rajbhandari et al. 2020, 3.1).
    Bf16  ///< 2 bytes each (Megatron-Core's precision-aware optimizer, --exp-avg-dtype bf16).
};

/** The precision gradients are accumulated in, kept in and reduced across data-parallel ranks. */
enum class GradientPrecision
{
    Auto, ///< fp32 for bf16, fp8, tf32 and fp64 training, 2 bytes for fp16 (Megatron-LM).
    Fp32, ///< 4 bytes a gradient.
    Bf16  ///< 2 bytes a gradient (NeMo's distributed Adam with grad_sync_dtype bf16).
};

/** How weight gradients are accumulated over a step's micro-batches. */
enum class GradientAccumulation
{
    /// Into the gradient buffer by the weight-gradient GEMM itself (Megatron-LM's
    /// gradient_accumulation_fusion into main_grad): read and written once a micro-batch.
    Fused,
    /// DeepSpeed's BF16 optimizer (deepspeed/runtime/bf16_optimizer.py, from PR 1801, April
    /// 2022): each micro-batch's backward writes a fresh bf16 gradient, which the optimizer casts
    /// to fp32 and adds to its own fp32 gradient, tensor by tensor; the step all-reduces the fp32
    /// gradients and gathers the updated bf16 weights.
    DeepSpeedBf16
};

/** The fused attention kernel a training stack runs (with flash_attention). */
enum class AttentionKernel
{
    Fused,  ///< The GPU's fused attention as Transformer Engine runs it (cuDNN on Hopper+).
    Flash2, ///< FlashAttention-2 (PyTorch's scaled_dot_product_attention flash backend).
    Flash3, ///< FlashAttention-3 (Hopper's warp-specialized kernels, flash_attn_interface).
    Triton  ///< FlashAttention's Triton implementation (MPT's attn_impl triton, llm-foundry).
};

} // namespace dct::model
