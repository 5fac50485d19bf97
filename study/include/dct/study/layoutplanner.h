#pragma once

#include "dct/model/diagnostics.h"
#include "dct/model/enums.h"
#include "dct/model/resolvedscenario.h"
#include "dct/solvers/computeresult.h"

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace dct::study {

/** One parallel layout of a training job over the cluster's GPUs. */
struct LayoutChoice
{
    int tensorParallel = 1;
    int pipelineParallel = 1;
    int dataParallel = 1;
    int contextParallel = 1;
    int expertParallel = 1;
    int microBatchSize = 1;
    int virtualStages = 1; ///< > 1: the interleaved schedule.
    int zeroStage = 1;
    model::Recompute recompute = model::Recompute::Selective;
    /** The experts' tensor-parallel size (workload.expert_tensor_parallel); 0: the tensor size,
     *  Megatron-Core's default. */
    int expertTensorParallel = 0;
    /** With selective recomputation, its modules (model::RecomputeModule bits). */
    int recomputeModules = model::RecomputeCoreAttention;
    /** With full recomputation, the layers of each chunk recomputed whole; 0: all. */
    int recomputeNumLayers = 0;
    /** DualPipe's schedule (one chunk a stage) instead of 1F1B; tried where the scenario
     *  schedules DualPipe. */
    bool dualPipe = false;
    /** Layers whose activations go to host memory (workload.activation_offload_layers), with
     *  one stage and no recomputation; 0: none. */
    int activationOffloadLayers = 0;
    /** The expert all-to-all beside the other micro-batch's computation
     *  (workload.moe_a2a_overlap); only where Megatron-Core runs it (expertOverlapAllowed). */
    bool a2aOverlap = false;

    bool operator==(const LayoutChoice&) const = default;
    /** Returns the schedule column: "dual" for DualPipe, else the virtual stages. */
    std::string scheduleLabel() const;
    /** Returns the pipeline schedule as a scenario names it: "interleaved" with virtual stages,
     *  "dualpipe" or "1f1b". */
    const char* scheduleName() const;
    /** Orders the ways to save activations by the work they add: none, activation offloading
     *  (fewer layers first), selective without and with the attention (fewer modules first),
     *  full over some layers of a chunk (fewer first), full. */
    int recomputeOrder() const;
    /** Returns the recomputation: "none", "selective" (core_attn alone, the default),
     *  "sel:ln+act+mla" (the modules, abbreviated), "full", "full 2L" (2 layers a chunk), or
     *  "offload 40L" (40 layers' activations in host memory). */
    std::string recomputeLabel() const;
    /** Returns the experts' tensor-parallel size in effect (the tensor size for 0). */
    int effectiveExpertTensorParallel() const
    {
        return expertTensorParallel > 0 ? expertTensorParallel : tensorParallel;
    }
    /** Returns the expert-parallel column: the size, with " ovl" after it where the expert
     *  all-to-all is overlapped ("8 ovl"). */
    std::string expertLabel() const;
    /** Returns "TP 8 PP 16 DP 128 CP 1 EP 1 mbs 1 v 8 ZeRO 1 full", with "ETP 1" after EP where
     *  the experts' tensor size is set, and "a2a overlap" at the end where it is on. */
    std::string toString() const;
};

/**
 * Returns whether Megatron-Core runs the expert all-to-all overlap with \a layout of a model
 * that \a moe: the step model's rule (solvers::expertOverlapRuns), which is the validator's.
 */
bool expertOverlapAllowed(const LayoutChoice& layout, bool moe);

/** Returns the layout \a scenario sets (its effective data-parallel size included). */
LayoutChoice layoutOf(const model::ResolvedScenario& scenario);

/**
 * Writes \a layout into \a workload: the parallel sizes, micro-batch, virtual stages with the
 * schedule they need (interleaved when more than 1), ZeRO stage and recomputation. The
 * data-parallel size stays derived (0) when \a workload derives it.
 */
void applyLayout(model::WorkloadSection& workload, const LayoutChoice& layout);

/** Returns the scenario's name of \a recompute ("none", "selective", "full"). */
const char* recomputeName(model::Recompute recompute);

/** Returns the recompute_modules names of \a modules (model::RecomputeModule bits). */
std::vector<std::string> recomputeModuleList(int modules);

/** Returns the JSON pointers and values applyLayout() sets, in a scenario's own key names. */
std::vector<std::pair<std::string, std::string>>
layoutFields(const model::WorkloadSection& workload, const LayoutChoice& layout);

/** One layout of the search and what the step model predicts for it. */
struct LayoutOutcome
{
    LayoutChoice layout;
    solvers::ComputeResult compute; ///< Step, its breakdown and memory (step.memory).
    double stepSeconds() const { return compute.stepSeconds; }
};

/**
 * The values the search tries for each field; an empty list means the default: every size the
 * model and the cluster allow (tensor parallel within the scale-up domain, divisors of heads,
 * layers, experts and the global batch), micro-batches of 1 to 8, ZeRO 0 to 3, every
 * recomputation (none; selective of the light modules the model has, layernorm with moe_act for
 * experts and mla_up_proj for latent attention, and core_attn beside them without fused
 * attention; full over a quarter, half and three quarters of each chunk's layers, and all of
 * them), and with one stage on a node with a host link, activation offloading of a quarter,
 * half, three quarters and all but one of the layers instead; for a mixture of experts the experts'
 * tensor size the scenario sets, or both Megatron-Core's default (the tensor size) and whole
 * experts (1) where it sets none, and the expert all-to-all overlap off and, where the layout
 * allows it, on.
 */
struct LayoutSearchSpace
{
    std::vector<int> tensorParallel;
    std::vector<int> pipelineParallel;
    std::vector<int> contextParallel;
    std::vector<int> expertParallel;
    /** Experts' tensor-parallel sizes (0: the tensor size of the layout). */
    std::vector<int> expertTensorParallel;
    std::vector<int> microBatchSize;
    std::vector<int> virtualStages;
    std::vector<int> zeroStage;
    std::vector<model::Recompute> recompute;
    /** The expert all-to-all overlap off (false) and on (true) for a mixture of experts, where
     *  the layout allows it; empty: both. */
    std::vector<bool> moeA2aOverlap;
    int maxTensorParallel = 0; ///< 0: the GPUs of the scale-up (NVLink) domain.
    int maxContextParallel = 32;
    int maxMicroBatchSize = 8;
};

/** How to run a layout search. */
struct LayoutPlanOptions
{
    LayoutSearchSpace space;
    int top = 10; ///< Layouts kept, fastest first.
    /// GB of each GPU's memory a layout must leave free (allocator fragmentation, a framework's
    /// own tensors, a safety margin the model does not count); 0 fills the memory up.
    double memoryHeadroomGb = 0.0;
    /// Skip what cannot win (branches whose leanest variant overflows, heavier recomputation
    /// once a lighter one fits, ZeRO stages without ranks to shard over); false times every
    /// layout that fits (tests check that both find the same best).
    bool prune = true;
    /** Called about every 50 ms and at the end on the calling thread: layouts done, total. */
    std::function<void(std::uint64_t done, std::uint64_t total)> progress;
    /** Asked between layouts; true stops the search (LayoutPlan::stopped). */
    std::function<bool()> stop;
};

/** What a layout search found and how much it looked at. */
struct LayoutPlan
{
    std::vector<LayoutOutcome> best; ///< The fastest layouts that fit, fastest first.
    bool hasCurrent = false;         ///< The scenario's own layout is valid and evaluated.
    LayoutOutcome current;           ///< The scenario's own layout (fits or not).
    bool currentFits = false;
    std::uint64_t candidates = 0;          ///< Layouts that tile the GPUs and split the model.
    std::uint64_t prunedByMemoryBound = 0; ///< Skipped: even their leanest variant overflows.
    std::uint64_t prunedAsDominated = 0;   ///< Skipped: a lighter recompute already fits, or
                                           ///< ZeRO without data-parallel ranks to shard over.
    std::uint64_t overflowing = 0;         ///< Evaluated for memory, did not fit.
    std::uint64_t evaluated = 0;           ///< Step model run.
    bool stopped = false;
    double seconds = 0.0;
    /** The model is a mixture of experts: the layouts' experts' tensor size means something. */
    bool mixtureOfExperts = false;
    Diagnostics diagnostics; ///< Why nothing could be searched, and notes.
};

/**
 * Searches tensor, pipeline, context and expert parallelism, micro-batch size, virtual stages,
 * ZeRO stage and recomputation for the fastest layouts of \a scenario's training job on its
 * cluster, by the step model (stepmodel.h) on the fabric the scenario's evaluation solves, at
 * its thermal clock. Only layouts that fit in GPU memory and that the validator accepts are
 * kept. Memory is checked before the step is timed, and a whole branch of the search is skipped
 * when its leanest variant (ZeRO 3, full recomputation, one sequence a micro-batch) overflows.
 */
LayoutPlan planLayouts(const model::ResolvedScenario& scenario, const LayoutPlanOptions& options);

} // namespace dct::study
