// The step model against published training runs: Narayanan et al., SC'21 Table 1 (GPT 1.7B to
// 1T on up to 3,072 A100), Dubey et al. 2024 Table 4 (Llama 3 405B on 8,192 and 16,384 H100),
// and the model-state memory of Rajbhandari et al., SC'20 Figure 1. Published figures and the
// layout inputs taken from the papers' text: docs/references.md. Nothing is fitted to them.
#include "dct/solvers/documentevaluation.h"
#include "dct/solvers/stepmodel.h"
#include "trainingsupport.h"

#include <cmath>
#include <vector>

using namespace dct;
using namespace dct::solvers;
using nlohmann::json;

namespace {

/** Selene as published: DGX A100 nodes, 8 x 200G HDR InfiniBand each, rail-optimized. */
json selene(int gpus, const json& workload)
{
    return {{"schema_version", 2},
            {"name", "selene"},
            {"site", "dallas"},
            {"compute", {{"node", "dgx-a100"}, {"node_count", gpus / 8}}},
            {"network",
             {{"protocol", "infiniband"},
              {"topology", "rail_optimized"},
              {"switch", "qm8700"},
              {"nic", "connectx-6-200g"},
              {"routing", "static_pinned"}}},
            {"cooling", {{"system", "d2c-rdhx"}}},
            {"workload", workload}};
}

/** Meta's Llama 3 cluster (Dubey et al. 2024, 3.3.1): H100, 400G RoCE, three-tier Clos. */
json llamaCluster(int gpus, const json& workload)
{
    return {{"schema_version", 2},
            {"name", "llama3"},
            {"site", "dallas"},
            {"compute", {{"node", "hgx-h100"}, {"node_count", gpus / 8}}},
            {"network",
             {{"protocol", "roce_v2"},
              {"topology", "fat_tree"},
              {"tiers", 3},
              {"switch", "tomahawk5-64x800g"},
              {"nic", "connectx-7-400g"},
              {"routing", "adaptive"}}},
            {"cooling", {{"system", "d2c-rdhx"}}},
            {"workload", workload}};
}

/** NVIDIA's Eos as Megatron-Core benchmarked on it: DGX H100 nodes, 8 x 400G NDR InfiniBand. */
json eos(int gpus, const json& workload)
{
    return {{"schema_version", 2},
            {"name", "eos"},
            {"site", "dallas"},
            {"compute", {{"node", "dgx-h100"}, {"node_count", gpus / 8}}},
            {"network",
             {{"protocol", "infiniband"},
              {"topology", "rail_optimized"},
              {"tiers", 3},
              {"switch", "qm9700"},
              {"nic", "connectx-7-400g"},
              {"routing", "adaptive"}}},
            {"cooling", {{"system", "d2c-rdhx"}}},
            {"workload", workload}};
}

double value(const DocumentEvaluation& d, const std::string& key)
{
    REQUIRE(d.evaluation);
    const Metric* m = d.evaluation->metric(key);
    REQUIRE(m);
    return m->value;
}

struct NarayananRow
{
    const char* model;
    int tp, pp, gpus, batch;
    double tflops; ///< Published achieved teraFLOP/s per GPU.
};

// Narayanan et al. 2021, Table 1.
const NarayananRow kTable1[] = {
    {"megatron-gpt-1.7b", 1, 1, 32, 512, 137},     {"megatron-gpt-3.6b", 2, 1, 64, 512, 138},
    {"megatron-gpt-7.5b", 4, 1, 128, 512, 142},    {"megatron-gpt-18b", 8, 1, 256, 1024, 135},
    {"megatron-gpt-39b", 8, 2, 512, 1536, 138},    {"megatron-gpt-76b", 8, 4, 1024, 1792, 140},
    {"megatron-gpt-145b", 8, 8, 1536, 2304, 148},  {"megatron-gpt-310b", 8, 16, 1920, 2160, 155},
    {"megatron-gpt-530b", 8, 35, 2520, 2520, 163}, {"megatron-gpt-1t", 8, 64, 3072, 3072, 163},
};

DocumentEvaluation narayanan(const NarayananRow& row)
{
    // Megatron-LM as of 2021: fp16 mixed precision, micro-batch 1, 1F1B, full recomputation, no
    // sequence parallelism, unfused attention, gradient all-reduce after the backward pass.
    const json workload = {{"model", row.model},
                           {"precision", "fp16"},
                           {"tokens_billion", 300},
                           {"tensor_parallel", row.tp},
                           {"pipeline_parallel", row.pp},
                           {"global_batch_sequences", row.batch},
                           {"micro_batch_size", 1},
                           {"sequence_parallel", false},
                           {"recompute", "full"},
                           {"flash_attention", false},
                           {"zero_stage", 0},
                           {"overlap_fraction", 0.0}};
    return evaluateDocument(selene(row.gpus, workload), test::catalog(), row.model);
}

} // namespace

TEST_CASE("Narayanan et al. 2021: hardware FLOPs equal 96 B s l h^2 (1 + s/6h + V/16lh)",
          "[validation][training][narayanan]")
{
    for (const NarayananRow& row : kTable1) {
        INFO(row.model);
        const DocumentEvaluation d = narayanan(row);
        REQUIRE(d.ok());
        const StepResult& s = d.evaluation->compute.step;
        // Within 1%: the formula leaves out the norms' weights and the logits' recomputation.
        CHECK(s.hardwareFlopsPerStep == Approx(s.narayananFlopsPerStep).epsilon(0.01));
    }
}

TEST_CASE("Narayanan et al. 2021 Table 1: achieved TFLOP/s per GPU of GPT 1.7B to 1T on A100",
          "[validation][training][narayanan]")
{
    // Before matrix shapes entered the model it ran 12-28% above the table; with tile and wave
    // quantization on the A100's 108 SMs and the HBM roofline of the unfused attention scores
    // (docs/references.md, "What the step model predicts today") nine rows land within 10% and
    // the 76B row within 15% (mean absolute error 6.0% with models-16). The bounds hold the
    // model to that accuracy.
    int within10 = 0;
    double absoluteErrors = 0.0;
    for (const NarayananRow& row : kTable1) {
        INFO(row.model << ": published " << row.tflops << " TFLOP/s per GPU");
        const DocumentEvaluation d = narayanan(row);
        REQUIRE(d.ok());
        const double predicted = value(d, "step.achieved_tflops_per_gpu");
        INFO("predicted " << predicted);
        CHECK(predicted == Approx(row.tflops).epsilon(0.15));
        const double error = std::fabs(predicted / row.tflops - 1.0);
        within10 += error <= 0.10 ? 1 : 0;
        absoluteErrors += error;
    }
    CHECK(within10 >= 9);
    CHECK(absoluteErrors / std::size(kTable1) < 0.065);
    // Larger models reach a larger share of the peak, as in the table (44% to 52%).
    const double small = value(narayanan(kTable1[0]), "step.hfu");
    const double large = value(narayanan(kTable1[9]), "step.hfu");
    CHECK(large > small);
}

TEST_CASE("Dubey et al. 2024 Table 4: Llama 3 405B MFU on 8,192 and 16,384 H100",
          "[validation][training][llama3]")
{
    struct Row
    {
        int gpus, batch;
        double mfu; ///< Published BF16 MFU.
    };
    const Row rows[] = {{8192, 2048, 0.43}, {16384, 2048, 0.41}};
    for (const Row& row : rows) {
        INFO(row.gpus << " GPUs, published MFU " << row.mfu);
        // Section 3.3.2: TP 8, PP 16, interleaved, one layer fewer on the first and last
        // stages; sequence 8,192; ZeRO-1 style sharded optimizer. Recomputation: with none the
        // layout needs more than 80 GB (the test below), so full recomputation is taken.
        const json workload = {{"model", "llama3-405b"},  {"tokens_billion", 15600},
                               {"tensor_parallel", 8},    {"pipeline_parallel", 16},
                               {"sequence_length", 8192}, {"global_batch_sequences", row.batch},
                               {"micro_batch_size", 1},   {"pipeline_schedule", "interleaved"},
                               {"virtual_stages", 8},     {"embedding_and_loss_as_layers", true},
                               {"recompute", "full"},     {"zero_stage", 1}};
        const DocumentEvaluation d =
            evaluateDocument(llamaCluster(row.gpus, workload), test::catalog(), "llama3");
        REQUIRE(d.ok());
        const double mfu = value(d, "step.mfu");
        INFO("predicted " << mfu);
        // The pipeline runs at its slowest stage's pace: with one layer fewer on the last stage
        // its 7 layers and the output layer (about two thirds of a layer) stay below the 8 of a
        // middle stage, so a middle stage paces it; the model lands 7-10% below the table (the
        // fused attention at its measured rate, models-16, took 2 points). The report's
        // pipeline sends and receives asynchronously (3.3.2), taken as Megatron-Core's
        // overlap_p2p_comm (the default): on 8,192 GPUs (32
        // micro-batches of 8 chunks, 114 of the 256 past the first stage's warm-up of 142) it
        // moved the MFU from 0.396 to 0.400 (models-39); on 16,384 (16 micro-batches) every
        // chunk is in the warm-up, whose sends wait.
        CHECK(mfu == Approx(row.mfu).epsilon(0.10));
        CHECK(mfu < row.mfu);

        json noRecompute = workload;
        noRecompute["recompute"] = "none";
        const DocumentEvaluation full =
            evaluateDocument(llamaCluster(row.gpus, noRecompute), test::catalog(), "llama3");
        CHECK(value(full, "step.memory_total_gb") > 80.0);
    }
}

TEST_CASE("Rajbhandari et al. 2020 Figure 1: model states of 7.5B parameters on 64 GPUs",
          "[validation][training][memory]")
{
    // Published GB per GPU, baseline and ZeRO stages 1 to 3; the model states only (weights,
    // gradients, optimizer), so activations and buffers are left out of the comparison.
    const double published[] = {120.0, 31.4, 16.6, 1.9};
    for (int stage = 0; stage <= 3; ++stage) {
        INFO("ZeRO stage " << stage << ": published " << published[stage] << " GB");
        // Mixed precision with fp16 weights and gradients (the paper's 2 + 2 + K bytes).
        const json workload = {{"model", "megatron-gpt-7.5b"}, {"precision", "fp16"},
                               {"tensor_parallel", 1},         {"zero_stage", stage},
                               {"global_batch_sequences", 64}, {"recompute", "full"}};
        const DocumentEvaluation d =
            evaluateDocument(selene(64, workload), test::catalog(), "zero");
        REQUIRE(d.evaluation);
        const double states = value(d, "step.memory_weights_gb") +
                              value(d, "step.memory_gradients_gb") +
                              value(d, "step.memory_optimizer_gb");
        // The catalog's 7.5B has 7.46 B weights (Narayanan et al. Table 1's shape).
        CHECK(states == Approx(published[stage] * 7.46 / 7.5).epsilon(0.03));
    }
}

namespace {

/** The bundled catalog plus models that exist only as published benchmark shapes. */
const model::Catalog& benchmarkCatalog()
{
    // Megatron-LM README (NVIDIA/Megatron-LM, commit f2e5db4 of July 2024 onwards,
    // images/model_table.png): GPT models of vocabulary 131,072 and sequence 4,096, hidden
    // size, heads and layers as listed, FFN 4h, untied embeddings.
    static const auto loaded = [] {
        const char* source = "Megatron-LM README weak-scaling table";
        const struct
        {
            const char* id;
            int heads, hidden, layers;
        } shapes[] = {{"mcore-gpt-1.7b", 16, 2048, 24},   {"mcore-gpt-7.1b", 32, 4096, 30},
                      {"mcore-gpt-16b", 48, 6144, 32},    {"mcore-gpt-32b", 56, 7168, 48},
                      {"mcore-gpt-70b", 64, 8192, 84},    {"mcore-gpt-119b", 80, 10240, 92},
                      {"mcore-gpt-177b", 96, 12288, 96},  {"mcore-gpt-314b", 128, 16384, 96},
                      {"mcore-gpt-462b", 144, 18432, 112}};
        std::vector<test::BenchmarkShape> models;
        for (const auto& m : shapes)
            models.push_back({m.id, source, m.heads, m.hidden, m.layers, 131072, 4096, false});
        return test::catalogWithBenchmarkModels("dctwin-validation-catalog", models);
    }();
    return test::loadedCatalog(loaded);
}

/** FLOPs per step as Megatron-LM counts them (megatron/training/training.py,
 *  num_floating_point_operations, July 2024): 12 B s L h^2 ((2 + s/h) + ffn/h + V/(2 L h)),
 *  the attention square counted whole; multi-head attention, no gating. */
double megatronFlops(double batch, double s, double layers, double h, double ffn, double vocab)
{
    return 12.0 * batch * s * layers * h * h *
           ((2.0 + s / h) + ffn / h + vocab / (2.0 * layers * h));
}

} // namespace

TEST_CASE("Megatron-LM README weak scaling: GPT 1.7B to 462B on up to 6,144 H100",
          "[validation][training][megatron-core]")
{
    // Published per-GPU teraFLOP/s (Megatron-Core r0.8.0, end to end, data-parallel size 48,
    // DP, TP and PP communication overlapped). The README states no micro-batch size,
    // recomputation or virtual stages: micro-batch 1, no recomputation (selective where that
    // does not fit in 80 GB) and the plain 1F1B schedule are taken, with sequence parallelism
    // (--tp-comm-overlap requires it) and fused attention.
    struct Row
    {
        const char* model;
        int heads, hidden, layers, tp, pp, gpus, batch;
        double tflops;
    };
    const Row rows[] = {
        {"mcore-gpt-1.7b", 16, 2048, 24, 1, 1, 48, 192, 408.8},
        {"mcore-gpt-7.1b", 32, 4096, 30, 2, 1, 96, 192, 465.9},
        {"mcore-gpt-16b", 48, 6144, 32, 4, 1, 192, 192, 489.1},
        {"mcore-gpt-32b", 56, 7168, 48, 8, 1, 384, 192, 459.6},
        {"mcore-gpt-70b", 64, 8192, 84, 8, 2, 768, 384, 419.7},
        {"mcore-gpt-119b", 80, 10240, 92, 8, 4, 1536, 768, 420.5},
        {"mcore-gpt-177b", 96, 12288, 96, 8, 6, 2304, 1152, 432.8},
        {"mcore-gpt-314b", 128, 16384, 96, 8, 8, 3072, 1536, 474.4},
        {"mcore-gpt-462b", 144, 18432, 112, 8, 16, 6144, 3072, 459.9},
    };
    // The README: "tensor-parallel (--tp-comm-overlap) ... communication" overlapped, so every
    // row with TP > 1 runs with tp_comm_overlap. Known gaps, held as they stand: the two
    // smallest models (TP 1 and 2, hidden 2,048 and 4,096) are over-predicted by 33% and 29%
    // (70% and 46% before the fused attention's measured rate, the loss's fp32 passes over the
    // logits and the gradient buffer's passes of models-16); the 32B (TP 8, PP 1: each
    // data-parallel group one GPU per node over 48 nodes) is predicted 26% slow, 0.36 s of its
    // step being the fp32 gradients' reduce-scatter that only the last micro-batch's backward
    // can hide (Megatron-LM as of July 2024 reduces in fp32 for bf16 and syncs gradients only
    // on the last micro-batch; docs/references.md, which also lists what was checked for these
    // gaps: a per-tile GEMM cost, the kernels' fixed cost, the micro-batch size and the
    // recomputation the README leaves out). The six other rows must hold within 10%.
    double absoluteErrors = 0.0;
    int within10 = 0;
    for (const Row& row : rows) {
        INFO(row.model << ": published " << row.tflops << " TFLOP/s per GPU");
        json workload = {{"model", row.model},
                         {"tokens_billion", 1000},
                         {"tensor_parallel", row.tp},
                         {"pipeline_parallel", row.pp},
                         {"global_batch_sequences", row.batch},
                         {"micro_batch_size", 1},
                         {"sequence_parallel", row.tp > 1},
                         {"tp_comm_overlap", row.tp > 1},
                         {"flash_attention", true},
                         {"recompute", "none"},
                         {"zero_stage", 1},
                         {"overlap_fraction", 1.0}};
        DocumentEvaluation d = evaluateDocument(eos(row.gpus, workload), benchmarkCatalog(), "mc");
        if (!d.ok()) {
            workload["recompute"] = "selective";
            d = evaluateDocument(eos(row.gpus, workload), benchmarkCatalog(), "mc");
        }
        REQUIRE(d.ok());
        const double flops =
            megatronFlops(row.batch, 4096, row.layers, row.hidden, 4.0 * row.hidden, 131072);
        const double predicted = flops / value(d, "step.seconds") / row.gpus / 1e12;
        INFO("predicted " << predicted << " (recompute " << workload["recompute"] << ")");
        const double error = predicted / row.tflops - 1.0;
        if (row.hidden <= 4096) {
            CHECK(error > 0.10);
            CHECK(error < 0.35);
        } else if (row.tp == 8 && row.pp == 1) {
            CHECK(error < -0.10);
            CHECK(error > -0.30);
        } else {
            CHECK(std::fabs(error) <= 0.10);
            absoluteErrors += std::fabs(error);
            ++within10;
        }
    }
    CHECK(within10 == 6);
    CHECK(absoluteErrors / within10 < 0.03);
}

TEST_CASE("Megatron-LM README 32B: the fp32 gradients hide under the last micro-batch only",
          "[validation][training][megatron-core]")
{
    // The 32B row (TP 8, PP 1, DP 48 over 48 nodes, 192 sequences a step: 4 per data-parallel
    // rank). Megatron-LM as of July 2024 reduces bf16 training's gradients in fp32
    // (megatron/training/arguments.py forces accumulate_allreduce_grads_in_fp32) and, with
    // --overlap-grad-reduce, only during the last micro-batch's backward: the others run under
    // no_sync (megatron/core/pipeline_parallel/schedules.py, forward_backward_no_pipelining).
    // The README does not state the micro-batch size, and the row's error hinges on it: 4
    // micro-batches of 1 sequence leave most of the reduce-scatter exposed, one of 4 sequences
    // hides all of it under the whole backward.
    auto exposed = [](int microBatch, double& total, double& step) {
        const json workload = {{"model", "mcore-gpt-32b"},
                               {"tokens_billion", 1000},
                               {"tensor_parallel", 8},
                               {"pipeline_parallel", 1},
                               {"global_batch_sequences", 192},
                               {"micro_batch_size", microBatch},
                               {"sequence_parallel", true},
                               {"tp_comm_overlap", true},
                               {"flash_attention", true},
                               {"recompute", "none"},
                               {"zero_stage", 1},
                               {"overlap_fraction", 1.0}};
        const DocumentEvaluation d = evaluateDocument(eos(384, workload), benchmarkCatalog(), "mc");
        REQUIRE(d.ok());
        total = value(d, "step.data_parallel_total_seconds");
        step = value(d, "step.seconds");
        return value(d, "step.data_parallel_seconds");
    };
    double total1 = 0.0, step1 = 0.0, total2 = 0.0, step2 = 0.0, total4 = 0.0, step4 = 0.0;
    const double exposed1 = exposed(1, total1, step1);
    const double exposed2 = exposed(2, total2, step2);
    const double exposed4 = exposed(4, total4, step4);
    // The rank's 3.9 B weights' fp32 gradients (15.7 GB of them leave the GPU) through its one
    // 400 Gb/s rail NIC take at least 0.31 s, whatever the micro-batch.
    CHECK(total1 > 0.31);
    CHECK(total2 == Approx(total1).epsilon(1e-9));
    CHECK(total4 == Approx(total1).epsilon(1e-9));
    // 4 micro-batches: most of it exposed, over a quarter of the step.
    CHECK(exposed1 > 0.6 * total1);
    CHECK(exposed1 > 0.25 * step1);
    // 2 micro-batches: the last one's backward is twice as long, so less is exposed.
    CHECK(exposed2 < exposed1 - 0.1);
    CHECK(exposed2 > 0.0);
    // 1 micro-batch: the whole backward and the next forward hide it.
    CHECK(exposed4 < 1e-6);
    CHECK(step4 < step2);
    CHECK(step2 < step1);
}

TEST_CASE("Korthikanti et al. 2022: MFU with sequence parallelism and selective recomputation",
          "[validation][training][korthikanti]")
{
    // Published MFU (Korthikanti et al., "Reducing Activation Recomputation in Large Transformer
    // Models", MLSys 2023, Table 5, "present work"; repeated in the Megatron-LM README of 2022):
    // data-parallel size one on A100 80GB, layouts of the paper's Table 3 (TP 8; PP 8, 35 and
    // 64; as many micro-batches of one sequence as GPUs). MFU there is Narayanan et al.'s FLOP
    // count (the attention square whole) over the step time and the A100's 312 TFLOP/s.
    struct Row
    {
        const char* model;
        int pp, gpus;
        double mfu;
    };
    const Row rows[] = {{"gpt3-175b", 8, 64, 0.514},
                        {"megatron-gpt-530b", 35, 280, 0.560},
                        {"megatron-gpt-1t", 64, 512, 0.563}};
    for (const Row& row : rows) {
        INFO(row.model << ": published MFU " << row.mfu);
        const json workload = {{"model", row.model},
                               {"tokens_billion", 300},
                               {"tensor_parallel", 8},
                               {"pipeline_parallel", row.pp},
                               {"global_batch_sequences", row.gpus},
                               {"micro_batch_size", 1},
                               {"sequence_parallel", true},
                               {"recompute", "selective"},
                               {"flash_attention", false},
                               {"zero_stage", 0},
                               {"overlap_fraction", 0.0}};
        const DocumentEvaluation d =
            evaluateDocument(selene(row.gpus, workload), test::catalog(), row.model);
        REQUIRE(d.ok());
        const StepResult& s = d.evaluation->compute.step;
        // Narayanan et al.'s count includes the recomputed forward (4 passes); MFU counts 3.
        const double mfu = 0.75 * s.narayananFlopsPerStep / s.stepSeconds / (312e12 * row.gpus);
        INFO("predicted " << mfu);
        CHECK(mfu == Approx(row.mfu).epsilon(0.10));
    }
}

TEST_CASE("FlashAttention-4 on B200 and GB300: head dimension 64 at two thirds of 128's rate",
          "[validation][training][attention]")
{
    // Dao-AILab/flash-attention pull request 2605 (2026-05-30), FA4's forward benchmark on a B200
    // and on a GB300 (clocks locked), BF16, 16 heads, head dimensions 64 and 128 at the same
    // tokens; TFLOPS at 64 over TFLOPS at 128:
    //   B200:  non-causal 4k 827 / 1,228 = 0.673, 16k 877 / 1,321 = 0.664; causal 4k 707 /
    //          1,061 = 0.666;
    //   GB300: non-causal 4k 1,213 / 1,796 = 0.675, 16k 1,243 / 1,882 = 0.660; causal 4k
    //          1,011 / 1,431 = 0.707.
    // The step model's fused attention (attentionHeadDimFactor()): the products of a score at the
    // matrix rate, then its exponential at 16 a clock on each SM, one after the other; the matrix
    // units' FLOPs a clock from the catalog's peak, SMs and clock. Not fitted: 0.673 on the B200
    // and 0.668 on the GB300, within 3% of every ratio but the GB300's causal 4k (5.5%: short
    // causal rows pay the diagonal tiles' masking at either head size), where the matrix rate
    // alone (no exponential) would give 1 and the exponentials alone 0.5. Hopper's matrix units
    // do half as much in an exponential's time: three quarters there.
    const model::Catalog& catalog = test::catalog();
    auto factor = [&](const std::string& id, double dh) {
        const model::GpuSpec& g = catalog.gpus().entries.at(id);
        return attentionHeadDimFactor(4.0 * dh, 512.0,
                                      attentionFlopsPerExponential(g, g.peakTflopsBf16));
    };
    for (double measured : {827.0 / 1228.0, 877.0 / 1321.0, 707.0 / 1061.0})
        CHECK(factor("b200", 64.0) == Approx(measured).epsilon(0.03));
    for (double measured : {1213.0 / 1796.0, 1243.0 / 1882.0})
        CHECK(factor("gb300", 64.0) == Approx(measured).epsilon(0.03));
    CHECK(factor("gb300", 64.0) == Approx(1011.0 / 1431.0).epsilon(0.06));
    CHECK(factor("h100-sxm5", 64.0) == Approx(0.76).margin(0.01));
    // At the reference, none; larger heads run faster (less of a score's time on exponentials).
    CHECK(factor("b200", 128.0) == Approx(1.0).epsilon(1e-12));
    CHECK(factor("b200", 256.0) > 1.0);
    CHECK(factor("b200", 256.0) < 1.33);
}

TEST_CASE("FlashAttention-2 on H100 and A100: the fused kernel's rate by sequence length",
          "[validation][training][attention]")
{
    // Dao-AILab/flash-attention, README.md "Performance" (commit 0251105), the figures
    // assets/flash2_h100_fwd_bwd_benchmark.png and flash2_a100_fwd_bwd_benchmark.png, panel (d):
    // forward and backward, causal, head dimension 128, hidden 2,048, batch 16k / sequence,
    // TFLOPS/s at sequences 512, 1k, 2k, 4k, 8k and 16k:
    //   H100 SXM5, FlashAttention-2: 163, 221, 265, 294, 308, 328;
    //   A100 SXM4, FlashAttention-2: 99, 133, 155, 173, 182, 189;
    //   A100 SXM4, FlashAttention's Triton kernel: 50, 61, 68, 74, 78, 80.
    // The step model's tile efficiency (attentionTileEfficiency()): a query block of 128 rows runs
    // against every key block it touches, whole, and costs 1.5 key blocks more; its one constant
    // set from the H100 curve, it follows the A100's within 3% (held out) and the Triton kernel's
    // from 2k on (at 512 and 1k that kernel loses less to its fixed cost: 0.68 and 0.82 of its 4k
    // rate, the model 0.56 and 0.75). Each against its own 4k figure.
    const double sequences[] = {512, 1024, 2048, 4096, 8192, 16384};
    const double h100[] = {163, 221, 265, 294, 308, 328};
    const double a100[] = {99, 133, 155, 173, 182, 189};
    const double triton[] = {50, 61, 68, 74, 78, 80};
    for (int i = 0; i < 6; ++i) {
        INFO("sequence " << sequences[i]);
        const double model = attentionTileEfficiency(sequences[i], 0.0);
        CHECK(model == Approx(h100[i] / h100[3]).epsilon(0.04));
        CHECK(model == Approx(a100[i] / a100[3]).epsilon(0.03));
        if (i > 1)
            CHECK(model == Approx(triton[i] / triton[3]).epsilon(0.03));
    }
    CHECK(attentionTileEfficiency(4096.0, 0.0) == Approx(1.0).epsilon(1e-12));
    // A window of one block (gpt-oss's 128 keys) touches two key blocks a query block for one's
    // worth of scores: about a third of the causal 4k rate; a window as long as the sequence is
    // the causal kernel.
    CHECK(attentionTileEfficiency(4096.0, 128.0) == Approx(0.32).margin(0.01));
    CHECK(attentionTileEfficiency(4096.0, 4096.0) == Approx(1.0).epsilon(1e-12));
}
