// The layout search: every parallel layout the model and the cluster allow, timed by the step
// model on the fabric and clock of the scenario's own evaluation. The rules a layout must meet
// are the validator's (model/src/validator.cpp): the parallel sizes tile the GPUs, tensor
// parallelism divides the heads and divides or is a multiple of the key/value heads, pipeline
// stages (times virtual stages) divide the layers or, without virtual stages, leave the last
// stage a layer (model/pipelinesplit.h), the interleaved schedule needs a multiple of
// the stages in micro-batches, context parallelism splits the sequence into 2c chunks, expert
// parallelism divides the experts and, times expert tensor parallelism, the tensor x context x
// data ranks. Beyond the validator, the search keeps the global batch whole (it splits exactly
// into micro-batches over the data-parallel ranks) and tensor parallelism within the scale-up
// domain.
#include "dct/study/layoutplanner.h"

#include "dct/model/pipelinesplit.h"
#include "dct/model/scaleupdomain.h"
#include "dct/model/textformat.h"
#include "dct/model/validator.h"
#include "dct/solvers/computesolver.h"
#include "dct/solvers/evaluator.h"
#include "dct/solvers/stepmodel.h"

#include <algorithm>
#include <chrono>
#include <fmt/format.h>

namespace dct::study {

using model::Recompute;

namespace {

std::vector<int> divisorsOf(int n, int limit)
{
    std::vector<int> out;
    for (int i = 1; i <= std::min(n, limit); ++i)
        if (n % i == 0)
            out.push_back(i);
    return out;
}

std::vector<int> powersOfTwo(int limit)
{
    std::vector<int> out;
    for (int i = 1; i <= limit; i *= 2)
        out.push_back(i);
    return out;
}

/** Returns \a given when it names values, else \a defaults. */
std::vector<int> orDefault(const std::vector<int>& given, std::vector<int> defaults)
{
    return given.empty() ? defaults : given;
}

/** Writes \a l into \a w; the data-parallel size stays 0 (derived) when \a derivedDataParallel. */
void writeLayout(model::WorkloadSection& w, const LayoutChoice& l, bool derivedDataParallel)
{
    w.tensorParallel = l.tensorParallel;
    w.pipelineParallel = l.pipelineParallel;
    w.contextParallel = l.contextParallel;
    w.expertParallel = l.expertParallel;
    w.expertTensorParallel = l.expertTensorParallel;
    w.microBatchSize = l.microBatchSize;
    w.virtualStages = l.virtualStages;
    w.pipelineSchedule = l.virtualStages > 1 ? model::PipelineSchedule::Interleaved
                         : l.dualPipe        ? model::PipelineSchedule::DualPipe
                                             : model::PipelineSchedule::OneFOneB;
    w.zeroStage = l.zeroStage;
    w.recompute = l.recompute;
    w.recomputeModules = l.recomputeModules;
    w.recomputeNumLayers = l.recomputeNumLayers;
    w.activationOffloadLayers = l.activationOffloadLayers;
    w.moeA2aOverlap = l.a2aOverlap;
    w.dataParallel = derivedDataParallel ? 0 : l.dataParallel;
}

/** The layout written into the scratch scenario the step model reads. */
void setLayout(model::ResolvedScenario& r, const LayoutChoice& l, bool derivedDataParallel)
{
    writeLayout(r.scenario.workload, l, derivedDataParallel);
    r.dataParallel = l.dataParallel;
}

bool better(const LayoutOutcome& a, const LayoutOutcome& b)
{
    if (a.compute.stepSeconds != b.compute.stepSeconds)
        return a.compute.stepSeconds < b.compute.stepSeconds;
    return a.compute.step.memory.totalGb < b.compute.step.memory.totalGb;
}

} // namespace

int LayoutChoice::recomputeOrder() const
{
    switch (recompute) {
    case Recompute::None:
        // Offloading a layer costs at most its copies, where recomputing one runs it again.
        return activationOffloadLayers > 0 ? 1 + std::min(activationOffloadLayers, 98) : 0;
    case Recompute::Selective: {
        int modules = 0;
        for (int bits = recomputeModules; bits != 0; bits &= bits - 1)
            ++modules;
        // The attention's forward again weighs more than the light modules together.
        return 100 + ((recomputeModules & model::RecomputeCoreAttention) ? 50 : 0) + modules;
    }
    case Recompute::Full:
        return recomputeNumLayers > 0 ? 200 + std::min(recomputeNumLayers, 9999) : 100000;
    }
    return 0;
}

std::string LayoutChoice::recomputeLabel() const
{
    if (recompute == Recompute::Full)
        return recomputeNumLayers > 0 ? fmt::format("full {}L", recomputeNumLayers) : "full";
    if (recompute == Recompute::None && activationOffloadLayers > 0)
        return fmt::format("offload {}L", activationOffloadLayers);
    if (recompute != Recompute::Selective || recomputeModules == model::RecomputeCoreAttention)
        return recomputeName(recompute);
    static const std::pair<int, const char*> abbreviations[] = {
        {model::RecomputeLayerNorm, "ln"},
        {model::RecomputeMoeActivation, "act"},
        {model::RecomputeMlaUpProjection, "mla"},
        {model::RecomputeCoreAttention, "attn"},
        {model::RecomputeMlp, "mlp"},
        {model::RecomputeSharedExperts, "shx"},
        {model::RecomputeMoe, "moe"}};
    std::string label = "sel:";
    for (const auto& [bit, name] : abbreviations)
        if (recomputeModules & bit)
            label += (label.size() > 4 ? "+" : "") + std::string(name);
    return label.size() > 4 ? label : "sel:none";
}

std::vector<std::string> recomputeModuleList(int modules)
{
    std::vector<std::string> out;
    for (const auto& [bit, name] : model::recomputeModuleNames())
        if (modules & bit)
            out.push_back(name);
    return out;
}

const char* LayoutChoice::scheduleName() const
{
    return virtualStages > 1 ? "interleaved" : dualPipe ? "dualpipe" : "1f1b";
}

std::string LayoutChoice::scheduleLabel() const
{
    return dualPipe ? "dual" : std::to_string(virtualStages);
}

std::string LayoutChoice::expertLabel() const
{
    return std::to_string(expertParallel) + (a2aOverlap ? " ovl" : "");
}

std::string LayoutChoice::toString() const
{
    return fmt::format("TP {} PP {} DP {} CP {} EP {}{} mbs {} v {} ZeRO {} {}{}", tensorParallel,
                       pipelineParallel, dataParallel, contextParallel, expertParallel,
                       expertTensorParallel > 0 ? fmt::format(" ETP {}", expertTensorParallel)
                                                : std::string(),
                       microBatchSize, scheduleLabel(), zeroStage, recomputeLabel(),
                       a2aOverlap ? " a2a overlap" : "");
}

bool expertOverlapAllowed(const LayoutChoice& l, bool moe)
{
    return solvers::expertOverlapRuns(moe, l.expertParallel, l.pipelineParallel, l.virtualStages,
                                      l.dualPipe, l.recompute, l.recomputeModules);
}

LayoutChoice layoutOf(const model::ResolvedScenario& r)
{
    const auto& w = r.scenario.workload;
    LayoutChoice l;
    l.tensorParallel = w.tensorParallel;
    l.pipelineParallel = w.pipelineParallel;
    l.dataParallel = r.dataParallel;
    l.contextParallel = w.contextParallel;
    l.expertParallel = w.expertParallel;
    l.expertTensorParallel = w.expertTensorParallel;
    l.microBatchSize = w.microBatchSize;
    l.virtualStages =
        w.pipelineSchedule == model::PipelineSchedule::Interleaved ? w.virtualStages : 1;
    l.dualPipe = w.pipelineSchedule == model::PipelineSchedule::DualPipe;
    l.zeroStage = w.zeroStage;
    l.recompute = w.recompute;
    l.recomputeModules = w.recomputeModules;
    l.recomputeNumLayers = w.recomputeNumLayers;
    l.activationOffloadLayers = w.activationOffloadLayers;
    l.a2aOverlap = w.moeA2aOverlap;
    return l;
}

void applyLayout(model::WorkloadSection& w, const LayoutChoice& l)
{
    writeLayout(w, l, w.dataParallel == 0);
    // As layoutFields() says: the merged-step overlap and DualPipe take the shared experts' off.
    if (l.a2aOverlap || l.dualPipe)
        w.moeSharedExpertOverlap = false;
}

const char* recomputeName(Recompute r)
{
    switch (r) {
    case Recompute::None:
        return "none";
    case Recompute::Selective:
        return "selective";
    case Recompute::Full:
        return "full";
    }
    return "selective";
}

std::vector<std::pair<std::string, std::string>> layoutFields(const model::WorkloadSection& w,
                                                              const LayoutChoice& l)
{
    std::vector<std::pair<std::string, std::string>> out = {
        {"/workload/tensor_parallel", std::to_string(l.tensorParallel)},
        {"/workload/pipeline_parallel", std::to_string(l.pipelineParallel)},
        {"/workload/context_parallel", std::to_string(l.contextParallel)},
        {"/workload/expert_parallel", std::to_string(l.expertParallel)},
        {"/workload/micro_batch_size", std::to_string(l.microBatchSize)},
        {"/workload/pipeline_schedule", std::string("\"") + l.scheduleName() + "\""},
        {"/workload/virtual_stages", std::to_string(l.virtualStages)},
        {"/workload/zero_stage", std::to_string(l.zeroStage)},
        {"/workload/recompute", std::string("\"") + recomputeName(l.recompute) + "\""},
    };
    if (l.recomputeModules != w.recomputeModules) {
        std::string list;
        for (const auto& name : recomputeModuleList(l.recomputeModules))
            list += (list.empty() ? "\"" : ", \"") + name + "\"";
        out.emplace_back("/workload/recompute_modules", "[" + list + "]");
    }
    if (l.recomputeNumLayers != w.recomputeNumLayers)
        out.emplace_back("/workload/recompute_num_layers", std::to_string(l.recomputeNumLayers));
    if (l.activationOffloadLayers != w.activationOffloadLayers)
        out.emplace_back("/workload/activation_offload_layers",
                         std::to_string(l.activationOffloadLayers));
    if (w.dataParallel != 0)
        out.emplace_back("/workload/data_parallel", std::to_string(l.dataParallel));
    if (l.expertTensorParallel != 0 || w.expertTensorParallel != 0)
        out.emplace_back("/workload/expert_tensor_parallel",
                         std::to_string(l.expertTensorParallel));
    // Off where the scenario has it on and the layout cannot hold it: the layout applied
    // validates.
    if (l.a2aOverlap != w.moeA2aOverlap)
        out.emplace_back("/workload/moe_a2a_overlap", l.a2aOverlap ? "true" : "false");
    // The merged-step overlap takes the shared experts' overlap off, as Megatron-Bridge's
    // moe_a2a_overlap override does (scripts/performance/utils/overrides.py), and DualPipe has
    // its own; the step model times the layout so.
    if ((l.a2aOverlap || l.dualPipe) && w.moeSharedExpertOverlap)
        out.emplace_back("/workload/moe_shared_expert_overlap", "false");
    return out;
}

LayoutPlan planLayouts(const model::ResolvedScenario& scenario, const LayoutPlanOptions& options)
{
    using Clock = std::chrono::steady_clock;
    const auto started = Clock::now();
    LayoutPlan plan;

    // The fabric and the clock come from the scenario's own evaluation; neither depends on the
    // layout (the fabric is planned from the nodes, the clock from power and cooling).
    const solvers::Evaluation base = solvers::evaluate(scenario);
    const bool clusterErrors =
        std::any_of(base.diagnostics.begin(), base.diagnostics.end(), [](const Diagnostic& d) {
            return d.severity == Severity::Error && d.path.rfind("/workload", 0) != 0;
        });
    if (clusterErrors || !base.network.valid) {
        for (const auto& d : base.diagnostics)
            if (d.severity == Severity::Error)
                plan.diagnostics.add(d);
        plan.diagnostics.error("", "the cluster has errors, so no layout can be timed on it",
                               "fix the errors above first", "plan-cluster-invalid");
        return plan;
    }

    model::ResolvedScenario r = scenario;
    auto& w = r.scenario.workload;
    if (w.mfu > 0.0)
        plan.diagnostics.note("/workload/mfu",
                              "ignored by the search: each layout's step is predicted (the MFU "
                              "set here would give every layout the same step)",
                              "remove /workload/mfu to evaluate the chosen layout as planned",
                              "plan-mfu-ignored");
    w.mfu = 0.0;
    const bool derivedDataParallel = scenario.scenario.workload.dataParallel == 0;
    const model::ModelSpec& m = r.model;
    plan.mixtureOfExperts = m.moe();
    const int gpus = r.gpuCount();
    const long long batch = w.globalBatchSequences;
    const int splitLayers = m.layers + (w.embeddingAndLossAsLayers ? 2 : 0);
    const LayoutSearchSpace& space = options.space;

    solvers::ComputeInputs inputs;
    inputs.clockFactor = base.compute.clockFactor;
    inputs.network = &base.network;
    inputs.allReduceSecondsPerStep = base.network.gradientAllReduce.seconds;

    // Tensor parallelism stays on NVLink: the node, or the domain where NVLink spans nodes.
    const int maxTp =
        space.maxTensorParallel > 0 ? space.maxTensorParallel : model::scaleUpDomainGpus(r);
    std::vector<int> tps;
    for (int t : orDefault(space.tensorParallel, divisorsOf(m.heads, maxTp)))
        if (t >= 1 && m.heads % t == 0 &&
            (m.effectiveKvHeads() % t == 0 || t % m.effectiveKvHeads() == 0) && gpus % t == 0)
            tps.push_back(t);
    std::vector<int> pps = orDefault(space.pipelineParallel, divisorsOf(splitLayers, splitLayers));
    if (space.pipelineParallel.empty()) {
        // Uneven splits too (the last stage holds what is left): the stage counts that tile the
        // GPUs but do not divide the layers, DeepSeek-V3's 61 layers on 16 stages.
        for (int p : divisorsOf(gpus, splitLayers))
            if (splitLayers % p != 0 &&
                model::pipelineSplit(m.layers, p, 1, w.embeddingAndLossAsLayers).valid)
                pps.push_back(p);
        std::sort(pps.begin(), pps.end());
    }
    const std::vector<int> cps =
        orDefault(space.contextParallel, powersOfTwo(std::max(1, space.maxContextParallel)));
    const std::vector<int> eps = orDefault(
        space.expertParallel, m.moe() ? divisorsOf(m.experts, m.experts) : std::vector{1});
    // The experts' tensor size: the scenario's, else Megatron-Core's default (the tensor size,
    // 0) and whole experts (1), which drop the experts' tensor-parallel collectives and hold
    // more expert weights (MoE parallel folding; Megatron-Core's recipes for fine-grained
    // experts set 1).
    const std::vector<int> ets =
        orDefault(space.expertTensorParallel, !m.moe() ? std::vector{0}
                                              : w.expertTensorParallel > 0
                                                  ? std::vector{w.expertTensorParallel}
                                                  : std::vector{0, 1});
    const bool etsHaveDefault = std::find(ets.begin(), ets.end(), 0) != ets.end();
    const std::vector<int> mbss =
        orDefault(space.microBatchSize, powersOfTwo(std::max(1, space.maxMicroBatchSize)));
    const std::vector<int> zeros = orDefault(space.zeroStage, {0, 1, 2, 3});
    std::vector<Recompute> recomputes = space.recompute;
    if (recomputes.empty())
        recomputes = {Recompute::None, Recompute::Selective, Recompute::Full};
    const bool dualPipeWanted = w.pipelineSchedule == model::PipelineSchedule::DualPipe;
    const auto allows = [&](Recompute kind) {
        return std::find(recomputes.begin(), recomputes.end(), kind) != recomputes.end();
    };
    // The recomputations tried, as Megatron-Bridge's guidance orders them (docs/training/
    // activation-recomputation.md): selective first, of the light modules that only discard
    // outputs (layernorm; moe_act for experts, mla_up_proj for latent attention) and, where the
    // attention is not fused and keeps its scores, core_attn; full over part of each chunk's
    // layers (the block method), then all of them. Lighter first: once one fits, the heavier
    // ones only add work.
    const int lightModules = model::RecomputeLayerNorm |
                             (m.moe() ? model::RecomputeMoeActivation : 0) |
                             (m.kvLoraRank > 0 ? model::RecomputeMlaUpProjection : 0);
    std::vector<int> selectiveModules = {lightModules};
    if (!w.flashAttention) {
        selectiveModules.push_back(model::RecomputeCoreAttention);
        selectiveModules.push_back(lightModules | model::RecomputeCoreAttention);
    }
    const auto overlapTried = [&](bool on) {
        return space.moeA2aOverlap.empty()
                   ? (!on || m.moe())
                   : std::find(space.moeA2aOverlap.begin(), space.moeA2aOverlap.end(), on) !=
                         space.moeA2aOverlap.end();
    };
    const bool overlapOff = !m.moe() || overlapTried(false);
    const bool overlapOn = overlapTried(true) && m.moe();
    const auto rungsOf = [&](const LayoutChoice& layout) {
        std::vector<LayoutChoice> rungs;
        LayoutChoice rung = layout;
        rung.recomputeModules = w.recomputeModules;
        rung.recomputeNumLayers = 0;
        if (allows(Recompute::None)) {
            rung.recompute = Recompute::None;
            rungs.push_back(rung);
            // Activation offloading instead, where Megatron-Core allows it (one stage, no
            // recomputation) and the node has a host link: a quarter, half, three quarters and
            // all but one of the layers.
            if (layout.pipelineParallel == 1 && scenario.node.hostBandwidthGbS > 0.0) {
                for (int k : {(m.layers + 3) / 4, (m.layers + 1) / 2, (3 * m.layers + 3) / 4,
                              m.layers - 1}) {
                    if (k >= 1 && k < m.layers && k > rung.activationOffloadLayers) {
                        rung.activationOffloadLayers = k;
                        rungs.push_back(rung);
                    }
                }
                rung.activationOffloadLayers = 0;
            }
        }
        if (allows(Recompute::Selective))
            for (int modules : selectiveModules) {
                rung.recompute = Recompute::Selective;
                rung.recomputeModules = modules;
                rungs.push_back(rung);
            }
        rung.recomputeModules = w.recomputeModules;
        if (allows(Recompute::Full)) {
            const model::PipelineSplit split =
                model::pipelineSplit(m.layers, layout.pipelineParallel, layout.virtualStages,
                                     w.embeddingAndLossAsLayers);
            const int chunk =
                split.even
                    ? split.slots / std::max(1, layout.pipelineParallel * layout.virtualStages)
                    : split.fullStage;
            rung.recompute = Recompute::Full;
            for (int quarter = 1; quarter <= 3; ++quarter) {
                const int n = (chunk * quarter + 3) / 4;
                if (n >= 1 && n < chunk && n != rung.recomputeNumLayers) {
                    rung.recomputeNumLayers = n;
                    rungs.push_back(rung);
                }
            }
            rung.recomputeNumLayers = 0;
            rungs.push_back(rung);
        }
        std::stable_sort(rungs.begin(), rungs.end(), [](const auto& a, const auto& b) {
            return a.recomputeOrder() < b.recomputeOrder();
        });
        // The expert all-to-all overlap: the rungs without it, then (lighter first again) those
        // that can hold it with it. It costs a chunk (or a layer) of activations more and hides
        // part of the all-to-all, so neither dominates the other.
        const std::size_t without = rungs.size();
        if (overlapOn)
            for (std::size_t i = 0; i < without; ++i)
                if (expertOverlapAllowed(rungs[i], m.moe())) {
                    LayoutChoice on = rungs[i];
                    on.a2aOverlap = true;
                    rungs.push_back(on);
                }
        if (!overlapOff)
            rungs.erase(rungs.begin(), rungs.begin() + static_cast<std::ptrdiff_t>(without));
        return rungs;
    };

    // The branches: parallel sizes that tile the GPUs and split the model; their micro-batch,
    // virtual-stage and ZeRO choices below.
    struct Branch
    {
        LayoutChoice base;
        std::vector<LayoutChoice> leaves;
    };
    std::vector<Branch> branches;
    for (int t : tps)
        for (int p : pps) {
            if (p < 1 || !model::pipelineSplit(m.layers, p, 1, w.embeddingAndLossAsLayers).valid)
                continue;
            for (int c : cps) {
                if (c < 1 || (c > 1 && r.sequenceLength % (2 * c) != 0))
                    continue;
                const long long modelParallel = static_cast<long long>(t) * p * c;
                if (gpus % modelParallel != 0)
                    continue;
                const int d = static_cast<int>(gpus / modelParallel);
                for (int e : eps)
                    for (int etChoice : ets) {
                        // The expert grid (ETP x EP) tiles the tensor x context x data ranks, and
                        // ETP splits each expert's FFN (the validator's rules). An ETP equal to
                        // the tensor size is the default (0) already.
                        if (etChoice > 0 && etChoice == t && etsHaveDefault)
                            continue;
                        Branch branch;
                        branch.base =
                            LayoutChoice{t, p, d, c, e, 1, 1, 3, Recompute::Full, etChoice};
                        const int et = branch.base.effectiveExpertTensorParallel();
                        if (e < 1 || (!m.moe() && e > 1) || (m.moe() && m.experts % e != 0) ||
                            (static_cast<long long>(d) * c * t) %
                                    (static_cast<long long>(e) * et) !=
                                0 ||
                            (m.moe() && m.expertFfnHiddenSize % et != 0))
                            continue;
                        for (int b : mbss) {
                            if (b < 1 || batch % (static_cast<long long>(d) * b) != 0)
                                continue;
                            const long long microBatches = batch / (static_cast<long long>(d) * b);
                            const std::vector<int> vs = orDefault(
                                space.virtualStages, divisorsOf(splitLayers / p, splitLayers / p));
                            for (int v : vs) {
                                // The split as the validator takes it, searched even over p v
                                // chunks or uneven with one chunk a stage (uneven layouts of
                                // several chunks a stage are the user's to write); the embedding
                                // and the loss as layers need a real layer beside them.
                                const model::PipelineSplit split = model::pipelineSplit(
                                    m.layers, p, v, w.embeddingAndLossAsLayers);
                                if (v < 1 || (v > 1 && p == 1) || !split.valid ||
                                    (v > 1 && !split.even) || (v > 1 && microBatches % p != 0))
                                    continue;
                                // DualPipe where the scenario schedules it and DualPipe.step
                                // takes the layout (the validator's rule): one chunk a stage,
                                // an even pipeline, an even number of micro-batches, at least
                                // two a stage.
                                const bool dual = dualPipeWanted && v == 1 && p >= 2 &&
                                                  p % 2 == 0 && microBatches % 2 == 0 &&
                                                  microBatches >= 2LL * p;
                                for (int z : zeros) {
                                    if (z < 0 || z > 3)
                                        continue;
                                    for (bool dualPipe : {false, true}) {
                                        if (dualPipe && !dual)
                                            continue;
                                        LayoutChoice leaf{
                                            t, p, d, c, e, b, v, z, Recompute::None, etChoice};
                                        leaf.dualPipe = dualPipe;
                                        for (const LayoutChoice& rung : rungsOf(leaf)) {
                                            branch.leaves.push_back(rung);
                                            ++plan.candidates;
                                        }
                                    }
                                }
                            }
                        }
                        if (!branch.leaves.empty())
                            branches.push_back(std::move(branch));
                    }
            }
        }

    // The scenario's own layout, as eval times it.
    {
        const LayoutChoice own = layoutOf(scenario);
        Diagnostics d;
        r.scenario.workload = scenario.scenario.workload;
        r.scenario.workload.mfu = 0.0;
        r.dataParallel = scenario.dataParallel;
        if (!model::validateScenario(scenario).hasErrors()) {
            plan.current.layout = own;
            plan.current.compute = solvers::solveCompute(r, inputs, d);
            plan.hasCurrent = plan.current.compute.step.valid;
            plan.currentFits = !d.hasErrors();
        }
    }

    const std::size_t top = static_cast<std::size_t>(std::max(1, options.top));
    std::uint64_t done = 0;
    auto lastReport = Clock::now();
    auto report = [&](bool force) {
        if (!options.progress)
            return;
        const auto now = Clock::now();
        if (force || now - lastReport > std::chrono::milliseconds(50)) {
            lastReport = now;
            options.progress(done, plan.candidates);
        }
    };
    Diagnostics ignored;
    for (const Branch& branch : branches) {
        if (options.stop && options.stop()) {
            plan.stopped = true;
            break;
        }
        // The leanest variant of the branch: if it overflows, every variant does. Memory
        // grows with the micro-batch (b sequences times min(m, p) in flight, m falling as b
        // grows), the virtual stages only add activations in flight, and recomputation only
        // saves; the ZeRO stages are each tried (stage 3's gathered-weight buffers can outweigh
        // what it shards over few ranks).
        bool overflows = options.prune;
        if (overflows) {
            LayoutChoice lean = branch.base;
            lean.microBatchSize = branch.leaves.front().microBatchSize;
            lean.recompute = Recompute::None;
            // Offloading and recomputation are two ways: the leanest of each is tried.
            LayoutChoice offloaded = lean;
            for (const LayoutChoice& leaf : branch.leaves) {
                lean.microBatchSize = std::min(lean.microBatchSize, leaf.microBatchSize);
                // The heaviest recomputation tried keeps the least: full over every layer, or
                // without full the selective one of the most modules.
                if (leaf.activationOffloadLayers == 0 &&
                    leaf.recomputeOrder() > lean.recomputeOrder()) {
                    lean.recompute = leaf.recompute;
                    lean.recomputeModules = leaf.recomputeModules;
                    lean.recomputeNumLayers = leaf.recomputeNumLayers;
                }
                offloaded.activationOffloadLayers =
                    std::max(offloaded.activationOffloadLayers, leaf.activationOffloadLayers);
            }
            offloaded.microBatchSize = lean.microBatchSize;
            std::vector<LayoutChoice> leanest = {lean};
            if (offloaded.activationOffloadLayers > 0)
                leanest.push_back(offloaded);
            for (LayoutChoice& candidate : leanest) {
                for (int z : zeros) {
                    candidate.zeroStage = z;
                    setLayout(r, candidate, derivedDataParallel);
                    const solvers::StepMemory memory = solvers::stepMemory(r);
                    if (memory.totalGb + options.memoryHeadroomGb <= memory.capacityGb) {
                        overflows = false;
                        break;
                    }
                }
                if (!overflows)
                    break;
            }
        }
        if (overflows) {
            plan.prunedByMemoryBound += branch.leaves.size();
            done += branch.leaves.size();
            report(false);
            continue;
        }
        const LayoutChoice* fittedGroup = nullptr;
        for (const LayoutChoice& leaf : branch.leaves) {
            ++done;
            // Recomputation choices of one layout come in a row, lighter first: once one fits,
            // the heavier ones only add work. Offloading more layers only adds copies, but a
            // fitting offloading does not dominate a recomputation (its copies can be exposed
            // where recomputing is cheap): only saving nothing dominates both.
            if (options.prune && fittedGroup &&
                fittedGroup->microBatchSize == leaf.microBatchSize &&
                fittedGroup->virtualStages == leaf.virtualStages &&
                fittedGroup->dualPipe == leaf.dualPipe &&
                fittedGroup->zeroStage == leaf.zeroStage &&
                fittedGroup->a2aOverlap == leaf.a2aOverlap &&
                (fittedGroup->recomputeOrder() == 0 || (fittedGroup->activationOffloadLayers > 0) ==
                                                           (leaf.activationOffloadLayers > 0))) {
                ++plan.prunedAsDominated;
                continue;
            }
            fittedGroup = nullptr;
            // Without data-parallel ranks ZeRO has nothing to shard: stage 0 stands for all.
            if (options.prune &&
                static_cast<long long>(leaf.dataParallel) * leaf.contextParallel == 1 &&
                leaf.zeroStage > 0) {
                ++plan.prunedAsDominated;
                continue;
            }
            setLayout(r, leaf, derivedDataParallel);
            const solvers::StepMemory memory = solvers::stepMemory(r);
            if (memory.totalGb + options.memoryHeadroomGb > memory.capacityGb) {
                ++plan.overflowing;
                continue;
            }
            fittedGroup = &leaf;
            LayoutOutcome outcome;
            outcome.layout = leaf;
            ignored = Diagnostics{};
            outcome.compute = solvers::solveCompute(r, inputs, ignored);
            ++plan.evaluated;
            if (!outcome.compute.step.valid)
                continue;
            if (plan.best.size() < top || better(outcome, plan.best.back())) {
                auto at = std::upper_bound(plan.best.begin(), plan.best.end(), outcome, better);
                plan.best.insert(at, std::move(outcome));
                if (plan.best.size() > top)
                    plan.best.pop_back();
            }
            if ((done & 63) == 0) {
                report(false);
                if (options.stop && options.stop()) {
                    plan.stopped = true;
                    break;
                }
            }
        }
        if (plan.stopped)
            break;
        report(false);
    }
    report(true);
    if (plan.candidates == 0)
        plan.diagnostics.error("/workload",
                               "no layout of " + formatNumber(gpus) +
                                   " GPUs splits this model and its global batch of " +
                                   std::to_string(batch) + " sequences",
                               "a global batch divisible by more data-parallel sizes, or other "
                               "parallel sizes to search",
                               "plan-no-layout");
    else if (plan.best.empty() && !plan.stopped)
        plan.diagnostics.error(
            "/workload",
            "none of the " + std::to_string(plan.candidates) + " layouts fits in the " +
                formatNumber(r.gpu.memoryGb) + " GB of the GPU '" + r.gpu.id + "'" +
                (options.memoryHeadroomGb > 0.0
                     ? " with " + formatNumber(options.memoryHeadroomGb) + " GB left free"
                     : std::string()),
            "GPUs with more memory, more GPUs, or a smaller model", "plan-nothing-fits");
    plan.seconds = std::chrono::duration<double>(Clock::now() - started).count();
    return plan;
}

} // namespace dct::study
