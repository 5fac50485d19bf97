// The step model against published training runs: Narayanan et al., SC'21 Table 1 (GPT 1.7B to
// 1T on up to 3,072 A100), Dubey et al. 2024 Table 4 (Llama 3 405B on 8,192 and 16,384 H100),
// and the model-state memory of Rajbhandari et al., SC'20 Figure 1. Published figures and the
// layout inputs taken from the papers' text: docs/references.md. Nothing is fitted to them.
#include "dct/solvers/documentevaluation.h"
#include "testsupport.h"

#include <cmath>

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
    // Megatron-LM as of 2021: micro-batch 1, 1F1B, full recomputation, no sequence parallelism,
    // unfused attention, gradient all-reduce after the backward pass.
    const json workload = {{"model", row.model},
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
    // the 76B row within 15%. The bounds hold the model to that accuracy.
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
    CHECK(absoluteErrors / std::size(kTable1) < 0.075);
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
        CHECK(mfu == Approx(row.mfu).epsilon(0.05));

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
        const json workload = {{"model", "megatron-gpt-7.5b"},
                               {"tensor_parallel", 1},
                               {"zero_stage", stage},
                               {"global_batch_sequences", 64},
                               {"recompute", "full"}};
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
