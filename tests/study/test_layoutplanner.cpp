// The layout search: what it returns is what eval computes for that layout, passes the
// validator and fits in memory; pruning never loses the best layout; constraints, cancelling
// and impossible searches behave.
#include "dct/model/resolver.h"
#include "dct/model/scenarioio.h"
#include "dct/model/validator.h"
#include "dct/solvers/evaluator.h"
#include "dct/solvers/stepbreakdown.h"
#include "dct/study/layoutplanner.h"
#include "testsupport.h"

#include <algorithm>

using namespace dct;
using namespace dct::study;

namespace {

model::ResolvedScenario resolvedExample(const std::string& name)
{
    auto read = model::readScenarioFile(test::dataDir() / "examples" / name);
    REQUIRE(read.scenario);
    auto resolved = model::resolveScenario(*read.scenario, test::catalog());
    REQUIRE(resolved.resolved);
    return *resolved.resolved;
}

/** Returns \a r with \a layout applied and resolved again, as a planner would save it. */
model::ResolvedScenario withLayout(const model::ResolvedScenario& r, const LayoutChoice& layout)
{
    model::Scenario s = r.scenario;
    applyLayout(s.workload, layout);
    auto resolved = model::resolveScenario(s, test::catalog());
    REQUIRE(resolved.resolved);
    return *resolved.resolved;
}

} // namespace

TEST_CASE("the planned layouts of the 16k-GPU 405B example are what eval computes for them",
          "[study][plan]")
{
    const model::ResolvedScenario r = resolvedExample("multiplane-16k-h100.json");
    LayoutPlanOptions options;
    options.top = 5;
    const LayoutPlan plan = planLayouts(r, options);
    REQUIRE_FALSE(plan.diagnostics.hasErrors());
    REQUIRE(plan.best.size() == 5);
    CHECK(plan.candidates > 1000);
    CHECK(plan.evaluated < plan.candidates);
    REQUIRE(plan.hasCurrent);
    REQUIRE(plan.currentFits);
    // The scenario's own layout is in the search space: the best is at least as fast.
    CHECK(plan.best.front().stepSeconds() <= plan.current.stepSeconds() * (1.0 + 1e-12));
    for (std::size_t i = 0; i < plan.best.size(); ++i) {
        const LayoutOutcome& o = plan.best[i];
        INFO(o.layout.toString());
        if (i > 0)
            CHECK(plan.best[i - 1].stepSeconds() <= o.stepSeconds());
        const auto& l = o.layout;
        CHECK(static_cast<long long>(l.tensorParallel) * l.pipelineParallel * l.dataParallel *
                  l.contextParallel ==
              r.gpuCount());
        CHECK(l.tensorParallel <= r.gpusPerNode);
        CHECK(o.compute.step.memory.totalGb <= o.compute.step.memory.capacityGb);
        // Applied and evaluated as a whole, it validates and gives the same step.
        const model::ResolvedScenario applied = withLayout(r, l);
        CHECK_FALSE(model::validateScenario(applied).hasErrors());
        const solvers::Evaluation e = solvers::evaluate(applied);
        CHECK_FALSE(e.diagnostics.hasErrors());
        REQUIRE(e.metric("compute.step_seconds"));
        CHECK(e.metric("compute.step_seconds")->value == Approx(o.stepSeconds()).epsilon(1e-9));
        CHECK(e.metric("step.mfu")->value == Approx(o.compute.step.mfu).epsilon(1e-9));
    }
    // The current layout, timed by the search, as eval times it.
    const solvers::Evaluation own = solvers::evaluate(r);
    CHECK(own.metric("compute.step_seconds")->value ==
          Approx(plan.current.stepSeconds()).epsilon(1e-9));
}

namespace {

/** Returns whether \a a and \a b differ at most in how they save activations (recomputation or
 *  offloading). */
bool sameButRecompute(const LayoutChoice& a, LayoutChoice b)
{
    b.recompute = a.recompute;
    b.recomputeModules = a.recomputeModules;
    b.recomputeNumLayers = a.recomputeNumLayers;
    b.activationOffloadLayers = a.activationOffloadLayers;
    return a == b;
}

/** Returns whether \a lighter, fitting, makes \a heavier pointless: the same layout saving less
 *  the same way (offloading fewer layers, recomputing less), or saving nothing. */
bool dominates(const LayoutChoice& lighter, const LayoutChoice& heavier)
{
    return sameButRecompute(lighter, heavier) &&
           lighter.recomputeOrder() < heavier.recomputeOrder() &&
           (lighter.recomputeOrder() == 0 ||
            (lighter.activationOffloadLayers > 0) == (heavier.activationOffloadLayers > 0));
}

} // namespace

TEST_CASE("pruning finds the same best layouts as timing every layout that fits",
          "[study][plan][prune]")
{
    // The seed case (a 70B dense model on H100 nodes), small enough to time every layout.
    const model::ResolvedScenario r = resolvedExample("seed-h100-dallas-d2c.json");
    LayoutPlanOptions pruned;
    pruned.top = 8;
    LayoutPlanOptions every;
    every.top = 60;
    every.prune = false;
    const LayoutPlan fast = planLayouts(r, pruned);
    const LayoutPlan slow = planLayouts(r, every);
    REQUIRE(fast.best.size() == 8);
    CHECK(fast.candidates == slow.candidates);
    CHECK(fast.evaluated < slow.evaluated);
    // What pruning skips on purpose: a heavier recomputation (or more offloading) of a layout
    // whose lighter one fits (it only adds work), and ZeRO stages without data-parallel ranks to
    // shard over.
    std::vector<LayoutOutcome> kept;
    for (const LayoutOutcome& o : slow.best) {
        const bool noRanks =
            o.layout.dataParallel * o.layout.contextParallel == 1 && o.layout.zeroStage > 0;
        const bool heavier = std::any_of(slow.best.begin(), slow.best.end(), [&](const auto& x) {
            return dominates(x.layout, o.layout);
        });
        if (!noRanks && !heavier)
            kept.push_back(o);
    }
    REQUIRE(kept.size() >= fast.best.size());
    for (std::size_t i = 0; i < fast.best.size(); ++i) {
        INFO(i << ": " << fast.best[i].layout.toString() << " / " << kept[i].layout.toString());
        CHECK(fast.best[i].stepSeconds() == Approx(kept[i].stepSeconds()).epsilon(1e-12));
    }
    CHECK(fast.best.front().layout == slow.best.front().layout);
    // Recomputation and offloading only add work: the lighter of two that fit is never slower.
    for (const LayoutOutcome& o : slow.best)
        for (const LayoutOutcome& x : slow.best)
            if (dominates(o.layout, x.layout))
                CHECK(x.stepSeconds() >= o.stepSeconds());
}

TEST_CASE("the search keeps to the sizes it is given", "[study][plan][constraints]")
{
    const model::ResolvedScenario r = resolvedExample("multiplane-16k-h100.json");
    LayoutPlanOptions options;
    options.top = 20;
    options.space.tensorParallel = {4};
    options.space.zeroStage = {1};
    options.space.recompute = {model::Recompute::Selective, model::Recompute::Full};
    const LayoutPlan plan = planLayouts(r, options);
    REQUIRE_FALSE(plan.best.empty());
    for (const auto& o : plan.best) {
        CHECK(o.layout.tensorParallel == 4);
        CHECK(o.layout.zeroStage == 1);
        CHECK(o.layout.recompute != model::Recompute::None);
    }
}

TEST_CASE("a cancelled search stops, an impossible one says why", "[study][plan][errors]")
{
    const model::ResolvedScenario r = resolvedExample("multiplane-16k-h100.json");
    LayoutPlanOptions options;
    options.stop = [] { return true; };
    const LayoutPlan stopped = planLayouts(r, options);
    CHECK(stopped.stopped);
    CHECK(stopped.best.empty());
    CHECK_FALSE(stopped.diagnostics.hasErrors());

    // Tensor parallelism that divides no head count: no layout at all.
    LayoutPlanOptions odd;
    odd.space.tensorParallel = {3};
    const LayoutPlan none = planLayouts(r, odd);
    CHECK(none.best.empty());
    REQUIRE(none.diagnostics.hasCode("plan-no-layout"));

    // A 405B model on 16 GPUs never fits in 80 GB each.
    model::ResolvedScenario small = r;
    small.scenario.compute.nodeCount = 2;
    auto resolved = model::resolveScenario(small.scenario, test::catalog());
    REQUIRE(resolved.resolved);
    const LayoutPlan tooBig = planLayouts(*resolved.resolved, {});
    CHECK(tooBig.best.empty());
    CHECK(tooBig.diagnostics.hasCode("plan-nothing-fits"));
    // Every branch skipped by its leanest variant's memory, none timed.
    CHECK(tooBig.prunedByMemoryBound == tooBig.candidates);
    CHECK(tooBig.evaluated == 0);
}

TEST_CASE("layoutFields() names every field applyLayout() sets", "[study][plan]")
{
    model::WorkloadSection w;
    const LayoutChoice l{4, 8, 16, 2, 1, 2, 4, 2, model::Recompute::Full};
    const auto fields = layoutFields(w, l);
    applyLayout(w, l);
    CHECK(w.pipelineSchedule == model::PipelineSchedule::Interleaved);
    CHECK(w.dataParallel == 0); // derived it was, derived it stays
    CHECK(fields.size() == 9);
    CHECK(fields[5].second == "\"interleaved\"");
    CHECK(fields[8].second == "\"full\"");
    model::WorkloadSection fixed;
    fixed.dataParallel = 32;
    CHECK(layoutFields(fixed, l).size() == 10);
    applyLayout(fixed, l);
    CHECK(fixed.dataParallel == 16);
    // The merged-step overlap takes the shared experts' overlap off, as Megatron-Bridge's
    // moe_a2a_overlap override does; without it the field is left as it was.
    model::WorkloadSection shared;
    shared.moeSharedExpertOverlap = true;
    LayoutChoice overlapped = l;
    overlapped.a2aOverlap = true;
    const auto withOverlap = layoutFields(shared, overlapped);
    REQUIRE(withOverlap.size() == 11);
    CHECK(withOverlap[9] ==
          std::pair<std::string, std::string>("/workload/moe_a2a_overlap", "true"));
    CHECK(withOverlap[10] ==
          std::pair<std::string, std::string>("/workload/moe_shared_expert_overlap", "false"));
    model::WorkloadSection kept = shared;
    applyLayout(kept, l);
    CHECK(kept.moeSharedExpertOverlap);
    CHECK(layoutFields(shared, l).size() == 9);
    applyLayout(shared, overlapped);
    CHECK(shared.moeSharedExpertOverlap == false);
    CHECK(shared.moeA2aOverlap);
    // DualPipe overlaps by its own schedule: the field goes off with it too.
    model::WorkloadSection dual;
    dual.moeSharedExpertOverlap = true;
    LayoutChoice dualPipe = l;
    dualPipe.virtualStages = 1;
    dualPipe.dualPipe = true;
    const auto dualFields = layoutFields(dual, dualPipe);
    CHECK(dualFields.back() ==
          std::pair<std::string, std::string>("/workload/moe_shared_expert_overlap", "false"));
    applyLayout(dual, dualPipe);
    CHECK(dual.pipelineSchedule == model::PipelineSchedule::DualPipe);
    CHECK_FALSE(dual.moeSharedExpertOverlap);
}

TEST_CASE("for a mixture of experts the search tries whole experts beside the tensor size",
          "[study][plan][moe]")
{
    // Qwen3-30B-A3B (128 experts of FFN 768) on the seed example's 32 H100 nodes: where the
    // scenario sets no experts' tensor size the search tries Megatron-Core's default (the tensor
    // size) and whole experts (ETP 1, MoE parallel folding), which drop the experts' tensor
    // collectives; each layout it returns is what eval computes for it.
    model::ResolvedScenario r = resolvedExample("seed-h100-dallas-d2c.json");
    model::Scenario s = r.scenario;
    s.workload.model.id = "qwen3-30b-a3b";
    s.workload.globalBatchSequences = 512;
    auto resolved = model::resolveScenario(s, test::catalog());
    REQUIRE(resolved.resolved);
    r = *resolved.resolved;
    REQUIRE(r.model.moe());
    LayoutPlanOptions options;
    options.top = 200;
    options.space.tensorParallel = {2, 4};
    options.space.pipelineParallel = {1};
    options.space.contextParallel = {1};
    options.space.expertParallel = {8};
    options.space.microBatchSize = {1};
    options.space.zeroStage = {1};
    options.space.recompute = {model::Recompute::Selective};
    const LayoutPlan plan = planLayouts(r, options);
    REQUIRE_FALSE(plan.best.empty());
    // TP 2 and 4, each with ETP = TP and ETP 1, each without and with the expert all-to-all
    // overlap (one stage, expert parallelism, no full recomputation: Megatron-Core runs it).
    CHECK(plan.candidates == 8);
    const auto find = [&](int tp, int etp) -> const LayoutOutcome* {
        for (const auto& o : plan.best)
            if (o.layout.tensorParallel == tp && o.layout.expertTensorParallel == etp)
                return &o;
        return nullptr;
    };
    for (int tp : {2, 4}) {
        INFO("TP " << tp);
        const LayoutOutcome* byDefault = find(tp, 0);
        const LayoutOutcome* whole = find(tp, 1);
        REQUIRE(byDefault);
        REQUIRE(whole);
        CHECK(byDefault->layout.effectiveExpertTensorParallel() == tp);
        // Whole experts: no tensor-parallel collectives in the experts' MLP, so less exposed
        // tensor-parallel time than with the experts split like the attention.
        const auto tpSeconds = [](const LayoutOutcome& o) {
            for (const auto& part : solvers::stepBreakdown(o.compute))
                if (part.key == "tensor_parallel")
                    return part.seconds;
            return 0.0;
        };
        CHECK(tpSeconds(*whole) < tpSeconds(*byDefault));
        CHECK(whole->compute.step.memory.weightsGb > byDefault->compute.step.memory.weightsGb);
        // What eval computes for the layout, saved with its experts' tensor size.
        const solvers::Evaluation e = solvers::evaluate(withLayout(r, whole->layout));
        CHECK(e.compute.stepSeconds == Approx(whole->compute.stepSeconds).epsilon(1e-9));
        CHECK_THAT(whole->layout.toString(), Catch::Contains("ETP 1"));
    }
    const auto fields = layoutFields(r.scenario.workload, find(2, 1)->layout);
    CHECK(std::find(fields.begin(), fields.end(),
                    std::pair<std::string, std::string>{"/workload/expert_tensor_parallel", "1"}) !=
          fields.end());

    // A scenario that sets the experts' tensor size keeps it; 5 splits neither an expert's FFN
    // (768) nor the GPUs: no layout.
    model::ResolvedScenario set = r;
    set.scenario.workload.expertTensorParallel = 1;
    for (const auto& o : planLayouts(set, options).best)
        CHECK(o.layout.expertTensorParallel == 1);
    LayoutPlanOptions five = options;
    five.space.tensorParallel = {1};
    five.space.expertTensorParallel = {5};
    CHECK(planLayouts(r, five).best.empty());
}

TEST_CASE("the search tries pipelines that split the layers unevenly, one chunk a stage",
          "[study][plan][pipeline]")
{
    // Qwen3-235B-A22B (94 layers) on the seed example's 256 H100: beside the even splits (1 and
    // 2 stages, the latter also with 47 chunks a stage) the stage counts that tile the GPUs and
    // leave the last stage a layer: 4 (24 x 3 + 22), 8 (12 x 7 + 10), 16 (6 x 15 + 4) and 32
    // (3 x 31 + 1); 64 would leave it none. Each layout it returns is what eval computes. Full
    // recomputation is tried over a quarter, half and three quarters of a chunk's layers and all
    // of them: 4 rungs each, 3 for chunks of 3 layers (1, 2, all), 1 for chunks of one: 24.
    model::ResolvedScenario r = resolvedExample("seed-h100-dallas-d2c.json");
    model::Scenario s = r.scenario;
    s.workload.model.id = "qwen3-235b-a22b";
    s.workload.globalBatchSequences = 512;
    s.workload.tensorParallel = 1;
    s.workload.pipelineParallel = 8;
    s.workload.expertParallel = 8;
    s.workload.expertTensorParallel = 1;
    auto resolved = model::resolveScenario(s, test::catalog());
    REQUIRE(resolved.resolved);
    r = *resolved.resolved;
    LayoutPlanOptions options;
    options.top = 10;
    options.space.tensorParallel = {1};
    options.space.contextParallel = {1};
    options.space.expertParallel = {8};
    options.space.expertTensorParallel = {1};
    options.space.microBatchSize = {1};
    options.space.zeroStage = {1};
    options.space.recompute = {model::Recompute::Full};
    const LayoutPlan plan = planLayouts(r, options);
    CHECK(plan.candidates == 24);
    REQUIRE_FALSE(plan.best.empty());
    bool uneven = false;
    for (const auto& o : plan.best) {
        INFO(o.layout.toString());
        CHECK(o.layout.pipelineParallel != 64);
        if (94 % o.layout.pipelineParallel != 0) {
            uneven = true;
            CHECK(o.layout.virtualStages == 1);
            const model::ResolvedScenario planned = withLayout(r, o.layout);
            CHECK_FALSE(model::validateScenario(planned).hasErrors());
            const solvers::Evaluation e = solvers::evaluate(planned);
            REQUIRE(e.metric("compute.step_seconds"));
            CHECK(e.metric("compute.step_seconds")->value == Approx(o.stepSeconds()).epsilon(1e-9));
        }
    }
    CHECK(uneven);
}

TEST_CASE("on GB200 NVL72 trays the search takes tensor parallelism up to the NVLink domain",
          "[study][plan][scale-up]")
{
    // The example's 288 trays of 4 GPUs sit on 72-GPU NVLink domains: tensor parallelism beyond
    // the tray's 4 GPUs stays on NVLink, so the search tries it (Llama 3 70B: 64 heads, so up to
    // 64), where a node of its own would stop at 4.
    const model::ResolvedScenario r = resolvedExample("gb200-nvl72-liquid.json");
    REQUIRE(r.gpusPerNode == 4);
    LayoutPlanOptions options;
    options.top = 50;
    options.space.pipelineParallel = {1};
    options.space.contextParallel = {1};
    options.space.microBatchSize = {1};
    options.space.zeroStage = {1};
    options.space.recompute = {model::Recompute::Selective};
    const LayoutPlan plan = planLayouts(r, options);
    REQUIRE_FALSE(plan.best.empty());
    int largest = 0;
    for (const auto& o : plan.best)
        largest = std::max(largest, o.layout.tensorParallel);
    CHECK(largest > 4);
    CHECK(largest <= 64);
    CHECK(plan.candidates == 7); // TP 1, 2, 4, 8, 16, 32 and 64
}

namespace {

/** DeepSeek-V3 on 64 DGX H100 nodes (the seed example's site and fabric): TP 1, PP 16 over its
 *  61 layers, EP 32 of whole experts, 4K sequences, \a batch sequences a step. */
model::Scenario deepSeekOn64Nodes(int batch)
{
    model::Scenario s = resolvedExample("seed-h100-dallas-d2c.json").scenario;
    s.compute.nodeCount = 64;
    s.workload.model.id = "deepseek-v3";
    s.workload.tensorParallel = 1;
    s.workload.pipelineParallel = 16;
    s.workload.expertParallel = 32;
    s.workload.expertTensorParallel = 1;
    s.workload.globalBatchSequences = batch;
    s.workload.sequenceLength = 4096;
    return s;
}

/** A search of that one layout (micro-batch 1, ZeRO 1), every layout timed. */
LayoutPlanOptions deepSeekLayoutOnly()
{
    LayoutPlanOptions options;
    options.top = 100;
    options.prune = false;
    options.space.tensorParallel = {1};
    options.space.pipelineParallel = {16};
    options.space.contextParallel = {1};
    options.space.expertParallel = {32};
    options.space.expertTensorParallel = {1};
    options.space.microBatchSize = {1};
    options.space.virtualStages = {1};
    options.space.zeroStage = {1};
    return options;
}

} // namespace

TEST_CASE("the search tries recompute modules and part of the layers, lighter first",
          "[study][plan][recompute]")
{
    // DeepSeek-V3 (MLA, experts) on 64 DGX H100 nodes at one fixed layout: only the
    // recomputation varies. Its rungs: none; selective of layernorm, moe_act and mla_up_proj
    // (fused attention: core_attn would free nothing); full over 1, 2 and 3 of a chunk's 4
    // layers, then all of them.
    auto resolved = model::resolveScenario(deepSeekOn64Nodes(512), test::catalog());
    REQUIRE(resolved.resolved);
    const model::ResolvedScenario& r = *resolved.resolved;
    const LayoutPlanOptions options = deepSeekLayoutOnly();
    const LayoutPlan plan = planLayouts(r, options);
    CHECK(plan.candidates == 6);
    std::vector<std::string> labels;
    for (const auto& o : plan.best)
        labels.push_back(o.layout.recomputeLabel());
    std::sort(labels.begin(), labels.end());
    // What fits of the six in 80 GB (the heavier ones at least).
    CHECK(std::find(labels.begin(), labels.end(), "full") != labels.end());
    for (const auto& o : plan.best) {
        INFO(o.layout.toString());
        if (o.layout.recompute == model::Recompute::Selective)
            CHECK(o.layout.recomputeModules ==
                  (model::RecomputeLayerNorm | model::RecomputeMoeActivation |
                   model::RecomputeMlaUpProjection));
        if (o.layout.recompute == model::Recompute::Full)
            CHECK((o.layout.recomputeNumLayers >= 0 && o.layout.recomputeNumLayers < 4));
    }
    // The labels the outputs print, and the fields applying one sets.
    LayoutChoice light = plan.best.front().layout;
    light.recompute = model::Recompute::Selective;
    light.recomputeModules =
        model::RecomputeLayerNorm | model::RecomputeMoeActivation | model::RecomputeMlaUpProjection;
    CHECK(light.recomputeLabel() == "sel:ln+act+mla");
    LayoutChoice part = light;
    part.recompute = model::Recompute::Full;
    part.recomputeNumLayers = 2;
    CHECK(part.recomputeLabel() == "full 2L");
    CHECK(light.recomputeOrder() < part.recomputeOrder());
    bool modulesSet = false;
    for (const auto& [pointer, value] : layoutFields(r.scenario.workload, light))
        if (pointer == "/workload/recompute_modules") {
            modulesSet = true;
            CHECK(nlohmann::json::parse(value) ==
                  nlohmann::json({"mla_up_proj", "moe_act", "layernorm"}));
        }
    CHECK(modulesSet);
    model::WorkloadSection applied = r.scenario.workload;
    applyLayout(applied, part);
    CHECK(applied.recompute == model::Recompute::Full);
    CHECK(applied.recomputeNumLayers == 2);
}

TEST_CASE("a DualPipe scenario's search tries DualPipe where its rules allow, beside 1F1B",
          "[study][plan][pipeline][dualpipe]")
{
    // DeepSeek-V3 on 64 DGX H100 nodes scheduled with DualPipe: PP 16 with 32 micro-batches
    // (an even number, at least 2 x 16) is tried both ways; the results keep the schedule they
    // were timed with, and applying one writes it.
    model::Scenario s = deepSeekOn64Nodes(1024);
    s.workload.pipelineSchedule = model::PipelineSchedule::DualPipe;
    auto resolved = model::resolveScenario(s, test::catalog());
    REQUIRE(resolved.resolved);
    const model::ResolvedScenario& r = *resolved.resolved;
    CHECK(layoutOf(r).dualPipe);
    CHECK(layoutOf(r).scheduleLabel() == "dual");
    LayoutPlanOptions options = deepSeekLayoutOnly();
    options.space.recompute = {model::Recompute::Full};
    const LayoutPlan plan = planLayouts(r, options);
    // Full over 1, 2, 3 and all 4 layers of a chunk, each with 1F1B and with DualPipe.
    CHECK(plan.candidates == 8);
    bool sawDual = false;
    bool sawOneFOneB = false;
    for (const auto& o : plan.best) {
        INFO(o.layout.toString());
        (o.layout.dualPipe ? sawDual : sawOneFOneB) = true;
        const model::ResolvedScenario planned = withLayout(r, o.layout);
        CHECK((planned.scenario.workload.pipelineSchedule == model::PipelineSchedule::DualPipe) ==
              o.layout.dualPipe);
        CHECK_FALSE(model::validateScenario(planned).hasErrors());
        const solvers::Evaluation e = solvers::evaluate(planned);
        CHECK(e.compute.step.stepSeconds == Approx(o.compute.step.stepSeconds).epsilon(1e-9));
    }
    CHECK(sawDual);
    CHECK(sawOneFOneB);
    // 16 micro-batches a step is fewer than 2 x 16: DualPipe is not tried.
    s.workload.globalBatchSequences = 512;
    auto fewer = model::resolveScenario(s, test::catalog());
    REQUIRE(fewer.resolved);
    const LayoutPlan onlyOneFOneB = planLayouts(*fewer.resolved, options);
    CHECK(onlyOneFOneB.candidates == 4);
    for (const auto& o : onlyOneFOneB.best)
        CHECK_FALSE(o.layout.dualPipe);
}

TEST_CASE("with one stage on a node with a host link the search offloads activations",
          "[study][plan][offload]")
{
    // Llama 3 70B in FP8 on 16 GB200 trays (64 GPUs), one stage, ZeRO-3, micro-batch 2: its
    // 311 GB of activations a GPU do not fit 186 GB. The rungs: none; offloading 20, 40, 60 and
    // 79 of the 80 layers; selective (layernorm); full over 20, 40 and 60 layers, and all.
    model::Scenario s = resolvedExample("gb200-nvl72-liquid.json").scenario;
    s.compute.nodeCount = 16;
    s.workload.precision = model::Precision::Fp8;
    s.workload.globalBatchSequences = 256;
    s.workload.tensorParallel = 1;
    s.workload.zeroStage = 3;
    s.workload.dropout = false;
    s.workload.fusedCrossEntropy = true;
    auto resolved = model::resolveScenario(s, test::catalog());
    REQUIRE(resolved.resolved);
    const model::ResolvedScenario& r = *resolved.resolved;
    LayoutPlanOptions options;
    options.top = 20;
    options.space.tensorParallel = {1};
    options.space.pipelineParallel = {1};
    options.space.contextParallel = {1};
    options.space.microBatchSize = {2};
    options.space.zeroStage = {3};
    const LayoutPlan plan = planLayouts(r, options);
    CHECK(plan.candidates == 10);
    REQUIRE_FALSE(plan.best.empty());
    const LayoutChoice& best = plan.best.front().layout;
    INFO(best.toString());
    // Offloading 60 layers fits and costs less than recomputing them (40 does not fit).
    CHECK(best.recompute == model::Recompute::None);
    CHECK(best.activationOffloadLayers == 60);
    CHECK(best.recomputeLabel() == "offload 60L");
    CHECK(best.toString().find("offload 60L") != std::string::npos);
    // Recomputation that fits is still tried beside it (offloading does not dominate it).
    CHECK(std::any_of(plan.best.begin(), plan.best.end(), [](const LayoutOutcome& o) {
        return o.layout.recompute == model::Recompute::Full;
    }));
    // Timing every layout finds the same best.
    LayoutPlanOptions every = options;
    every.prune = false;
    const LayoutPlan unpruned = planLayouts(r, every);
    REQUIRE_FALSE(unpruned.best.empty());
    CHECK(unpruned.best.front().layout == best);
    // Applied, it validates and evaluates to the same step, and names its field.
    const model::ResolvedScenario applied = withLayout(r, best);
    CHECK(applied.scenario.workload.activationOffloadLayers == 60);
    CHECK_FALSE(model::validateScenario(applied).hasErrors());
    const solvers::Evaluation e = solvers::evaluate(applied);
    CHECK(e.metric("compute.step_seconds")->value ==
          Approx(plan.best.front().stepSeconds()).epsilon(1e-9));
    bool named = false;
    for (const auto& [pointer, value] : layoutFields(r.scenario.workload, best))
        if (pointer == "/workload/activation_offload_layers")
            named = value == "60";
    CHECK(named);
    // Pipelines get no offloading rungs (Megatron-Core allows none).
    LayoutPlanOptions piped = options;
    piped.space.pipelineParallel = {2};
    piped.space.microBatchSize = {1};
    const LayoutPlan pipelined = planLayouts(r, piped);
    for (const auto& o : pipelined.best)
        CHECK(o.layout.activationOffloadLayers == 0);
}

TEST_CASE("the search tries the expert all-to-all overlap where Megatron-Core runs it, and a "
          "layout that cannot hold it turns it off",
          "[study][plan][moe][overlap]")
{
    // The bundled Qwen3-30B-A3B example on 16 H100 with moe_a2a_overlap on: the layouts with
    // one stage, or two with virtual stages, are tried with and without the overlap; two stages
    // without virtual stages and full recomputation only without it (the validator's rules).
    // Whatever the search returns, applied, validates and evaluates to the step it was timed at.
    model::Scenario s = resolvedExample("moe-qwen3-h100.json").scenario;
    s.workload.moeA2aOverlap = true;
    auto resolved = model::resolveScenario(s, test::catalog());
    REQUIRE(resolved.resolved);
    const model::ResolvedScenario& r = *resolved.resolved;
    LayoutPlanOptions options;
    options.top = 200;
    options.prune = false;
    options.space.tensorParallel = {1};
    options.space.pipelineParallel = {1, 2};
    options.space.expertParallel = {8, 16};
    options.space.expertTensorParallel = {1};
    options.space.microBatchSize = {1};
    options.space.virtualStages = {1, 2};
    options.space.zeroStage = {1};
    options.space.recompute = {model::Recompute::None, model::Recompute::Full};
    const LayoutPlan plan = planLayouts(r, options);
    REQUIRE_FALSE(plan.diagnostics.hasErrors());
    REQUIRE(plan.best.size() > 4);
    int on = 0;
    int offWhereRefused = 0;
    for (const LayoutOutcome& o : plan.best) {
        const LayoutChoice& l = o.layout;
        INFO(l.toString());
        if (l.a2aOverlap) {
            ++on;
            CHECK(expertOverlapAllowed(l, true));
            CHECK(l.expertLabel() == std::to_string(l.expertParallel) + " ovl");
            // Its twin without the overlap was timed too: the overlap holds more activations.
            LayoutChoice off = l;
            off.a2aOverlap = false;
            const auto twin = std::find_if(plan.best.begin(), plan.best.end(),
                                           [&](const auto& x) { return x.layout == off; });
            REQUIRE(twin != plan.best.end());
            CHECK(o.compute.step.memory.activationsGb > twin->compute.step.memory.activationsGb);
            CHECK(o.stepSeconds() != twin->stepSeconds());
        } else if (!expertOverlapAllowed(l, true)) {
            ++offWhereRefused;
            // The scenario has it on: applying the layout sets it off, by name.
            bool named = false;
            for (const auto& [pointer, value] : layoutFields(r.scenario.workload, l))
                if (pointer == "/workload/moe_a2a_overlap") {
                    named = true;
                    CHECK(value == "false");
                }
            CHECK(named);
        }
        const model::ResolvedScenario applied = withLayout(r, l);
        CHECK(applied.scenario.workload.moeA2aOverlap == l.a2aOverlap);
        CHECK_FALSE(model::validateScenario(applied).hasErrors());
        const solvers::Evaluation e = solvers::evaluate(applied);
        REQUIRE(e.metric("compute.step_seconds"));
        CHECK(e.metric("compute.step_seconds")->value == Approx(o.stepSeconds()).epsilon(1e-9));
    }
    CHECK(on > 0);
    CHECK(offWhereRefused > 0);

    // Asked for the layouts without it, the search returns none with it, and pruning keeps the
    // same best as timing every layout.
    LayoutPlanOptions without = options;
    without.space.moeA2aOverlap = {false};
    const LayoutPlan plain = planLayouts(r, without);
    REQUIRE_FALSE(plain.best.empty());
    CHECK(plain.candidates < plan.candidates);
    for (const LayoutOutcome& o : plain.best)
        CHECK_FALSE(o.layout.a2aOverlap);
    LayoutPlanOptions pruned = options;
    pruned.prune = true;
    const LayoutPlan fast = planLayouts(r, pruned);
    REQUIRE_FALSE(fast.best.empty());
    INFO(fast.best.front().layout.toString() << " / " << plan.best.front().layout.toString());
    CHECK(fast.best.front().stepSeconds() ==
          Approx(plan.best.front().stepSeconds()).epsilon(1e-12));
    CHECK(fast.best.front().stepSeconds() <= plain.best.front().stepSeconds());
}
