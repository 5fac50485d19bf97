#pragma once

#include "dct/model/diagnostics.h"
#include "dct/model/resolvedscenario.h"
#include "dct/solvers/networkresult.h"
#include "dct/solvers/stepresult.h"

namespace dct::solvers {

/**
 * Predicts one optimizer step of the scenario's training job from its architecture, its layout
 * (tensor, pipeline, data, context and expert parallel, ZeRO, recomputation), the GPU's
 * achievable matrix rate and HBM bandwidth, and the collectives on the solved fabric. A layout
 * that does not fit in the GPU's memory is an error in \a diagnostics naming the field to change
 * and the shortfall.
 */
StepResult solveStep(const model::ResolvedScenario& scenario, const NetworkResult& network,
                     double clockFactor, Diagnostics& diagnostics);

/** Returns the per-GPU memory of the scenario's layout (also part of solveStep()). */
StepMemory stepMemory(const model::ResolvedScenario& scenario);

/**
 * Returns whether Megatron-Core runs the expert all-to-all overlap (workload.moe_a2a_overlap)
 * with a layout of a model that \a moe: expert parallelism above 1, virtual stages when
 * pipelined, not DualPipe, no full recomputation and no moe module recomputed (the validator's
 * rules, model/src/validator.cpp; Megatron-Core's transformer_config.py). The step model times
 * the overlap only there, and the layout search tries it only there.
 */
bool expertOverlapRuns(bool moe, int expertParallel, int pipelineParallel, int virtualStages,
                       bool dualPipe, model::Recompute recompute, int recomputeModules);

/**
 * Returns how many of \a units equal parts of an expert-parallel group (its ranks, or its nodes),
 * each holding consecutive experts, one token's routed experts of \a model reach on average,
 * under the model's group-limited routing (routing_groups, routing_max_nodes; without
 * routing_groups the groups are the group's \a nodes). A flex dispatcher sends a token once to
 * each (solveStep()).
 */
double expertUnitsReached(const model::ModelSpec& model, int units, int nodes);

/**
 * Returns a fused attention kernel's rate at \a flopsPerScore matrix FLOPs a score (forward
 * 2 (d_qk + d_v), backward 2 (3 d_qk + 2 d_v)) over its rate at \a referenceFlopsPerScore (the
 * head dimension its rate was measured at), when each score also costs one exponential worth
 * \a flopsPerExponential FLOPs of the matrix units' time, the two one after the other: head
 * dimension 64 runs at two thirds of 128's rate forward on Blackwell (the matrix units do 484
 * FLOPs in an exponential's time) and three quarters on Hopper (237).
 */
double attentionHeadDimFactor(double flopsPerScore, double referenceFlopsPerScore,
                              double flopsPerExponential);

/**
 * Returns the matrix FLOPs \a gpu's tensor cores do, at \a peakTflops (its BF16 or FP8 peak), in
 * the time one SM computes an exponential (16 a clock: attentionHeadDimFactor()'s
 * flopsPerExponential); 0 where the catalog lacks its SMs or clock.
 */
double attentionFlopsPerExponential(const model::GpuSpec& gpu, double peakTflops);

/**
 * Returns a fused attention kernel's rate over \a sequence queries (each attending to the keys
 * before it, or to the last \a window of them when \a window is above 0 and below the sequence)
 * over its rate on a causal sequence of 4,096, the length the catalog's rates are measured at.
 * The kernel runs a query block of 128 rows against every key block of 128 it touches, whole
 * (the causal diagonal's and the window's edges masked, not skipped), and each query block costs
 * as much again as 1.5 key blocks (its queries' load, its output's and statistics' write): a
 * causal sequence of n blocks runs at n / (n + 4) of the matrix work it does (FlashAttention-2 on
 * H100 from 512 to 16k, the README's benchmark figure, within 4%; on A100 within 3%).
 */
double attentionTileEfficiency(double sequence, double window);

/** A fused attention kernel's forward and backward rates as shares of the dense BF16 peak. */
struct AttentionEfficiencies
{
    double forward = 0.0;  ///< 0: not measured (the matrix rate).
    double backward = 0.0; ///< 0: not measured (the matrix rate).
    /** The kernel asked for has no rates in the catalog: the fused attention's are taken. */
    bool fellBack = false;
};

/**
 * Returns the measured rates of \a kernel on \a gpu (catalog attention_*_efficiency*): the fused
 * attention's for Fused; FlashAttention-2's, -3's or its Triton kernel's where the catalog has
 * them, else the fused attention's with fellBack set.
 */
AttentionEfficiencies attentionEfficiencies(const model::GpuSpec& gpu,
                                            model::AttentionKernel kernel);

} // namespace dct::solvers
