// The step model against published training runs it was never compared with while it was built
// (held out): MosaicML's MPT throughput tables on H100 and A100 in BF16 (PyTorch FSDP, models of
// 0.76B to 30B on one 8-GPU node) and NVIDIA NeMo's pre-training performance table on DGX H100 in
// FP8 (Megatron-Core, GPT-3 5B to 175B, Llama 2 7B to 70B, Llama 3 8B and 70B), and the same
// recipes' Megatron-Bridge 25.11 table on DGX H100 and DGX B200 (Llama 3 8B to 405B), later
// Megatron-Bridge and Megatron MoE Model Zoo rows, DeepSeek-V3 on 2,048 H800, and Megatron-LM's
// GPT 175B and 530B on up to 12,288 Ampere GPUs as MegaScale (NSDI 2024) measured it, and NVIDIA's
// DGX Cloud Benchmarking recipes (NeMo 24.09: GPT-3 175B, Llama 3.1 70B and 405B, Nemotron-4
// 340B on up to 2,304 H100 in BF16 and FP8). Sources,
// layouts and the errors as they stand: docs/references.md, "Held-out runs". Nothing is fitted to
// them; the bounds below hold the model where it stands so that a change that moves these figures
// shows.
#include "dct/solvers/documentevaluation.h"
#include "trainingsupport.h"

#include <algorithm>
#include <cmath>
#include <span>

using namespace dct;
using namespace dct::solvers;
using nlohmann::json;

namespace {

/** DGX H100 nodes, 8 x 400G NDR InfiniBand each, rail-optimized (NVIDIA's DGX SuperPOD). */
json dgxH100(int gpus, const json& workload)
{
    return {{"schema_version", 2},
            {"name", "dgx-h100"},
            {"site", "dallas"},
            {"compute", {{"node", "dgx-h100"}, {"node_count", std::max(1, gpus / 8)}}},
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

/** DGX B200 nodes, 8 x 400G NDR InfiniBand each, rail-optimized (NVIDIA's DGX B200 SuperPOD). */
json dgxB200(int gpus, const json& workload)
{
    json s = dgxH100(gpus, workload);
    s["name"] = "dgx-b200";
    s["compute"]["node"] = "dgx-b200";
    return s;
}

/**
 * GB200 NVL72 compute trays (4 GPUs each, 18 to a 72-GPU NVLink rack), liquid cooled at up to
 * 140 kW a rack, on the same fabric, named \a name.
 */
json gb200Trays(int gpus, const json& workload, const char* name)
{
    json s = dgxH100(gpus, workload);
    s["name"] = name;
    s["compute"] = {{"node", "gb200-nvl72-tray"}, {"node_count", std::max(1, gpus / 4)}};
    s["cooling"] = {{"system", "d2c-high-density"}};
    s["facility"] = {{"rack_power_limit_kw", 140}, {"rack_units", 48}};
    return s;
}

/**
 * Blackwell Ultra as NVIDIA ships it: GB300 NVL72 compute trays (\a trays true; 4 GPUs each, 18
 * to a 72-GPU NVLink rack, liquid cooled at up to 140 kW a rack) or DGX B300 nodes, each GPU with
 * its ConnectX-8 800G NIC on a Quantum-X800 XDR InfiniBand fabric, rail-optimized.
 */
json blackwellUltra(bool trays, int gpus, const json& workload)
{
    json s = trays ? gb200Trays(gpus, workload, "gb300") : dgxH100(gpus, workload);
    s["name"] = trays ? "gb300" : "dgx-b300";
    s["compute"]["node"] = trays ? "gb300-nvl72-tray" : "dgx-b300";
    s["network"]["switch"] = "q3400-ra";
    s["network"]["nic"] = "connectx-8-800g";
    return s;
}

/** One DGX A100 node (the MPT A100 rows run on one node: the fabric does not enter). */
json dgxA100(const json& workload)
{
    return {{"schema_version", 2},
            {"name", "dgx-a100"},
            {"site", "dallas"},
            {"compute", {{"node", "dgx-a100"}, {"node_count", 1}}},
            {"network",
             {{"protocol", "infiniband"},
              {"topology", "rail_optimized"},
              {"switch", "qm8700"},
              {"nic", "connectx-6-200g"},
              {"routing", "static_pinned"}}},
            {"cooling", {{"system", "d2c-rdhx"}}},
            {"workload", workload}};
}

/**
 * ByteDance's MegaScale cluster (Jiang et al., NSDI 2024): servers of eight Ampere GPUs on
 * NVLink, eight 200G NICs each on a three-tier Clos of Broadcom Tomahawk 4 switches (RoCE), a
 * switch port split in two for a NIC. \a node "hgx-a800" or "dgx-a100" (see the test).
 */
json megaScale(const char* node, int gpus, const json& workload)
{
    return {{"schema_version", 2},
            {"name", "megascale"},
            {"site", "dallas"},
            {"compute", {{"node", node}, {"node_count", gpus / 8}}},
            {"network",
             {{"protocol", "roce_v2"},
              {"topology", "rail_optimized"},
              {"tiers", 3},
              {"switch", "tomahawk4-64x400g"},
              {"port_breakout", 2},
              {"nic", "connectx-6-200g"},
              {"routing", "ecmp"}}},
            {"cooling", {{"system", "d2c-rdhx"}}},
            {"workload", workload}};
}

/**
 * Megatron-LM at commit 285068c8 (January 2023) as it ran by default, MegaScale's baseline: TP 8
 * with sequence parallelism and selective recomputation, \a pp stages of \a vp chunks a GPU
 * (interleaved, every send and receive waited on), micro-batch 1, the attention unfused, the
 * distributed optimizer's fp32 gradients reduced after the backward pass (the tests below cite
 * the commit for each).
 */
json megatronLm2023Workload(const char* model, int pp, int vp, int batch)
{
    return {{"model", model},
            {"precision", "bf16"},
            {"tokens_billion", 300},
            {"tensor_parallel", 8},
            {"pipeline_parallel", pp},
            {"pipeline_schedule", "interleaved"},
            {"virtual_stages", vp},
            {"overlap_p2p_comm", false},
            {"global_batch_sequences", batch},
            {"micro_batch_size", 1},
            {"sequence_parallel", true},
            {"recompute", "selective"},
            {"flash_attention", false},
            {"zero_stage", 1},
            {"overlap_fraction", 0.0},
            {"gradient_precision", "fp32"}};
}

double value(const DocumentEvaluation& d, const std::string& key)
{
    REQUIRE(d.evaluation);
    const Metric* m = d.evaluation->metric(key);
    REQUIRE(m);
    return m->value;
}

/** The bundled catalog plus the benchmark models that are not in it. */
const model::Catalog& heldOutCatalog()
{
    static const auto loaded = test::catalogWithBenchmarkModels(
        "dctwin-heldout-catalog",
        {
            // mosaicml/llm-foundry, scripts/train/yamls/pretrain/mpt-*.yaml (d_model, n_heads,
            // n_layers; vocab_size 50,368; expansion_ratio 4; MPT ties the embedding and the
            // output layer and has no biases).
            {"mpt-760m", "llm-foundry mpt-760m.yaml", 12, 1536, 24, 50368, 2048, true},
            {"mpt-1b", "llm-foundry mpt-1b.yaml", 16, 2048, 24, 50368, 2048, true},
            {"mpt-3b", "llm-foundry mpt-3b.yaml", 20, 2560, 32, 50368, 2048, true},
            {"mpt-7b", "llm-foundry mpt-7b.yaml", 32, 4096, 32, 50368, 2048, true},
            {"mpt-13b", "llm-foundry mpt-13b.yaml", 40, 5120, 40, 50368, 2048, true},
            {"mpt-30b", "llm-foundry mpt-30b.yaml", 56, 7168, 48, 50368, 2048, true},
            // NeMo's GPT-3 configurations (NVIDIA/NeMo-Framework-Launcher, launcher_scripts/
            // conf/training/gpt3/5b.yaml and 20b.yaml at 056a90e: 24 layers of 4,096 with 32
            // heads, 44 of 6,144 with 48; FFN 4h; the GPT-2 vocabulary of 50,257 padded to a
            // multiple of 128, 50,304; embeddings shared with the output layer, as GPT-3).
            {"nemo-gpt3-5b", "NeMo gpt3 5b.yaml", 32, 4096, 24, 50304, 2048, true},
            {"nemo-gpt3-20b", "NeMo gpt3 20b.yaml", 48, 6144, 44, 50304, 2048, true},
            // MegaScale's models (Jiang et al., NSDI 2024, Table 1 and section 6.1: 175B of 96
            // layers of 12,288 with 128 heads, 530B of 105 of 20,480 with 160; sequence 2,048,
            // vocabulary 64,000; FFN 4h; Megatron-LM's GPT, embeddings shared).
            {"megascale-175b", "MegaScale Table 1", 128, 12288, 96, 64000, 2048, true},
            {"megascale-530b", "MegaScale Table 1", 160, 20480, 105, 64000, 2048, true},
            // BLOOM (bigscience-workshop/bigscience, train/tr11-176B-ml/README.md: NLAYERS 70,
            // NHIDDEN 14,336, NHEADS 112, SEQ_LEN 2,048, vocabulary 250,680, FFN 4h, the output
            // layer tied to the embedding).
            {"bloom-176b", "bigscience tr11-176B-ml README", 112, 14336, 70, 250680, 2048, true},
        });
    return test::loadedCatalog(loaded);
}

/** The errors of an evaluation, one a line. */
std::string errors(const DocumentEvaluation& d)
{
    std::string text;
    for (const Diagnostic& item : d.diagnostics)
        if (item.severity == Severity::Error)
            text += item.toString() + "\n";
    return text;
}

/** Predicted tokens per second per GPU of a layout. */
double tokensPerGpuSecond(const DocumentEvaluation& d, int batch, int sequence, int gpus)
{
    return static_cast<double>(batch) * sequence / value(d, "step.seconds") / gpus;
}

/** A layout of NVIDIA's NeMo / Megatron-Bridge performance tables. */
struct NemoLayout
{
    const char* model;
    int sequence, batch, microBatch, zeroStage, tp, pp, cp, vp;
    bool embeddingAndLossAsLayers; ///< The pipeline split counts them as layers.
};

/**
 * The workload of a NeMo FP8 performance row as the recipes run it: sequence parallelism and
 * tensor-parallel overlap where TP > 1, fused attention, no recomputation, fully overlapped
 * data-parallel collectives, BF16 gradients, dropout only where the model keeps it (GPT-3; the
 * Llama configurations set it to 0). \a recipe is the row's FP8 recipe (fp8_recipe); null leaves
 * the default, delayed scaling, the one NeMo 24.07 had.
 */
json nemoFp8Workload(const NemoLayout& l, const char* recipe = nullptr)
{
    json w = {{"model", l.model},
              {"precision", "fp8"},
              {"tokens_billion", 1000},
              {"sequence_length", l.sequence},
              {"tensor_parallel", l.tp},
              {"pipeline_parallel", l.pp},
              {"context_parallel", l.cp},
              {"global_batch_sequences", l.batch},
              {"micro_batch_size", l.microBatch},
              {"pipeline_schedule", l.vp > 1 ? "interleaved" : "1f1b"},
              {"virtual_stages", l.vp},
              {"embedding_and_loss_as_layers", l.embeddingAndLossAsLayers},
              {"sequence_parallel", l.tp > 1},
              {"tp_comm_overlap", l.tp > 1},
              {"flash_attention", true},
              {"recompute", "none"},
              {"zero_stage", l.zeroStage},
              {"overlap_fraction", 1.0},
              {"gradient_precision", "bf16"},
              {"dropout", std::string(l.model).rfind("llama", 0) != 0}};
    if (recipe)
        w["fp8_recipe"] = recipe;
    return w;
}

/**
 * A Qwen3 MoE row of Megatron-Bridge's GB200 tables: \a l in MXFP8 over \a ep expert-parallel
 * ranks (no expert tensor parallelism), no dropout, the router and the permutations fused, the
 * flex dispatcher with HybridEP on the 32 SMs the release's performance scripts give it.
 */
json hybridEpQwenWorkload(const NemoLayout& l, int ep)
{
    json w = nemoFp8Workload(l, "mxfp8");
    w["expert_parallel"] = ep;
    w["expert_tensor_parallel"] = 1;
    w["dropout"] = false;
    w["moe_router_fusion"] = true;
    w["moe_permute_fusion"] = true;
    w["moe_token_dispatcher"] = "flex";
    w["moe_flex_dispatcher_backend"] = "hybridep";
    w["moe_flex_dispatcher_sms"] = 32;
    return w;
}

/**
 * gpt-oss-120b as Megatron-Bridge's 26.04.01 presets train it in BF16 (the test below cites
 * them): global batch 1,280 of 4,096 tokens, \a microBatch, PP \a pp, EP \a ep with experts
 * whole, the norms and the experts' activation recomputed, the router, the permutations and the
 * loss fused, the all-to-all dispatcher, no dropout.
 */
json gptOssWorkload(int microBatch, int pp, int ep)
{
    const NemoLayout layout{"gpt-oss-120b", 4096, 1280, microBatch, 1, 1, pp, 1, 1, false};
    json w = nemoFp8Workload(layout);
    w["precision"] = "bf16";
    w["expert_parallel"] = ep;
    w["expert_tensor_parallel"] = 1;
    w["dropout"] = false;
    w["recompute"] = "selective";
    w["recompute_modules"] = {"layernorm", "moe_act"};
    w["moe_router_fusion"] = true;
    w["moe_permute_fusion"] = true;
    w["fused_cross_entropy"] = true;
    return w;
}

/**
 * The model's error on a row of NVIDIA's performance tables: \a workload laid out on \a gpus DGX
 * H100 or B200 GPUs, against \a published tokens per second per GPU.
 */
double nemoRowError(const json& workload, bool b200, int gpus, int batch, int sequence,
                    double published)
{
    const json scenario = b200 ? dgxB200(gpus, workload) : dgxH100(gpus, workload);
    const DocumentEvaluation d = evaluateDocument(scenario, heldOutCatalog(), "n");
    INFO(errors(d));
    REQUIRE(d.ok());
    const double predicted = tokensPerGpuSecond(d, batch, sequence, gpus);
    INFO("predicted " << predicted << " tokens/s per GPU");
    return predicted / published - 1.0;
}

/** A row of MosaicML's llm-foundry benchmark tables (one node of 8 GPUs). */
struct MptRow
{
    const char* model;
    int sequence, microBatch, batch;
    bool checkpointing;
    double tokensPerGpu;
    double modelError; ///< The model's error as it stands (docs/references.md).
};

/** The node an MPT table ran on. */
enum class MptGpu
{
    H100,
    A100
};

/**
 * Evaluates every row of an MPT table on one node of 8 \a gpu as llm-foundry runs it: PyTorch
 * FSDP FULL_SHARD (ZeRO stage 3), MPT's Triton flash attention, no dropout, the fused cross
 * entropy; checks each row's error against the error the model has as it stands, within 3 points.
 */
void checkMptRows(std::span<const MptRow> rows, MptGpu gpu)
{
    for (const MptRow& row : rows) {
        INFO(row.model << ": published " << row.tokensPerGpu << " tokens/s per GPU");
        const json workload = {{"model", row.model},
                               {"tokens_billion", 100},
                               {"sequence_length", row.sequence},
                               {"tensor_parallel", 1},
                               {"pipeline_parallel", 1},
                               {"global_batch_sequences", row.batch},
                               {"micro_batch_size", row.microBatch},
                               {"flash_attention", true},
                               {"attention_kernel", "triton"},
                               {"recompute", row.checkpointing ? "full" : "none"},
                               {"zero_stage", 3},
                               {"overlap_fraction", 1.0},
                               {"dropout", false},
                               {"fused_cross_entropy", true}};
        const DocumentEvaluation d =
            gpu == MptGpu::H100 ? evaluateDocument(dgxH100(8, workload), heldOutCatalog(), "m")
                                : evaluateDocument(dgxA100(workload), heldOutCatalog(), "a");
        INFO(errors(d));
        REQUIRE(d.ok());
        const double predicted = tokensPerGpuSecond(d, row.batch, row.sequence, 8);
        const double error = predicted / row.tokensPerGpu - 1.0;
        INFO("predicted " << predicted << " error " << error * 100.0 << "%");
        CHECK(error == Approx(row.modelError).margin(0.03));
    }
}

} // namespace

TEST_CASE("MosaicML MPT on 8 H100 in BF16 (llm-foundry benchmark table), held out",
          "[validation][training][heldout][mpt]")
{
    // mosaicml/llm-foundry, scripts/train/benchmarking/README.md (commit 061f2c7), "H100 80GB
    // BF16": one node of 8 H100, PyTorch FSDP FULL_SHARD (ZeRO stage 3), amp_bf16, MPT's flash
    // attention; micro-batch, gradient accumulation, global batch and activation checkpointing
    // as listed; published throughput in tokens per second per GPU. MPT trains without dropout
    // (llmfoundry/models/mpt/configuration_mpt.py at 061f2c7: attn_pdrop, resid_pdrop and
    // emb_pdrop default to 0.0, and the pretraining yamls set none) and its loss is
    // flash-attention's fused cross entropy on the bf16 logits (modeling_mpt.py,
    // ComposerMPTCausalLM: loss_fn defaults to fused_crossentropy).
    // The table's runs use MPT's Triton flash attention (scripts/train/benchmarking/
    // submit_benchmarks.py at 061f2c7: --attn_impl defaults to triton, the sweep sets no other),
    // FlashAttention's Triton implementation written for Ampere: its rate on H100 is the
    // catalog's assumption (A100's measured share of FlashAttention-2's rate, carried).
    // Known gap, held as it stands: every row 7-24% above the table (34-74% while the attention
    // ran at cuDNN's rate, models-52; see the test case's notes in docs/references.md). A change
    // that moves a row by more than 3 points shows.
    const MptRow rows[] = {
        {"mpt-760m", 2048, 24, 384, false, 63147, 0.243},
        {"mpt-1b", 2048, 14, 112, false, 45455, 0.163},
        {"mpt-3b", 4096, 5, 240, false, 20964, 0.074},
        {"mpt-7b", 2048, 6, 48, false, 10643, 0.174},
        {"mpt-13b", 2048, 2, 16, false, 4792, 0.196},
        {"mpt-30b", 2048, 3, 504, true, 2002, 0.197},
    };
    checkMptRows(rows, MptGpu::H100);
}

TEST_CASE("MosaicML MPT on 8 H100 from 512 to 65,536 tokens a sequence (the same table), held out",
          "[validation][training][heldout][mpt][attention]")
{
    // The same README table (061f2c7, "H100 80GB BF16"), its one-node rows at other sequence
    // lengths: micro-batch, global batch and activation checkpointing as listed, the same
    // Triton attention. Long sequences weigh the attention: at 64k it is most of a 7B's FLOPs.
    // As it stands: 4k to 16k within 10%; 32k and 64k 11-19% slow (the Triton kernel's Hopper
    // rate is the catalog's assumption, and its rate by length follows FlashAttention-2's,
    // models-56; with the 4k rate at every length they were 21-26% slow); 512 and 1k 12-28% fast,
    // as the 2k rows above are (where attention weighs least, the model's H100 gap at small
    // hidden sizes shows, docs/references.md).
    const MptRow rows[] = {
        {"mpt-7b", 65536, 1, 16, true, 1956, -0.184},
        {"mpt-7b", 32768, 2, 32, true, 3318, -0.146},
        {"mpt-7b", 8192, 8, 128, true, 6935, -0.023},
        {"mpt-7b", 4096, 16, 256, true, 8611, 0.024},
        {"mpt-7b", 1024, 64, 1024, true, 10203, 0.116},
        {"mpt-3b", 65536, 1, 16, true, 3262, -0.186},
        {"mpt-3b", 16384, 1, 48, false, 11152, -0.049},
        {"mpt-3b", 8192, 3, 144, false, 16578, -0.004},
        {"mpt-3b", 1024, 20, 960, false, 27046, 0.157},
        {"mpt-3b", 512, 40, 1920, false, 27965, 0.196},
        {"mpt-1b", 32768, 1, 32, false, 12025, -0.110},
        {"mpt-1b", 16384, 2, 64, false, 19649, -0.050},
        {"mpt-1b", 8192, 3, 96, false, 29157, 0.017},
        {"mpt-1b", 4096, 7, 224, false, 38535, 0.095},
        {"mpt-1b", 1024, 18, 576, false, 48910, 0.243},
        {"mpt-1b", 512, 56, 1792, false, 52275, 0.279},
        {"mpt-760m", 32768, 1, 16, false, 16291, -0.110},
        {"mpt-760m", 16384, 3, 48, false, 27815, -0.076},
        {"mpt-760m", 8192, 6, 96, false, 41825, -0.002},
        {"mpt-760m", 4096, 12, 192, false, 55459, 0.094},
        {"mpt-760m", 1024, 48, 768, false, 78581, 0.171},
        {"mpt-760m", 512, 96, 1536, false, 83749, 0.202},
    };
    checkMptRows(rows, MptGpu::H100);
}

TEST_CASE("MosaicML MPT on 8 A100 80GB in BF16 (the same table, same stack), held out",
          "[validation][training][heldout][mpt]")
{
    // The same README, table "A100 80GB with 1600 Gbps node-node interconnect (RoCE)", the
    // same models at the same sequence lengths on one node of 8 A100 80GB. The same software
    // reaches 57-64% MFU here against 35-46% on H100. The Triton attention at its measured rate
    // on A100 (Dao-AILab/flash-attention README, the A100 benchmark figure: 74 TFLOPS/s causal at
    // head dimension 128 and sequence 4k, 0.24 of the peak, where FlashAttention-2 runs 173):
    // every row within 13% (7-40% while the attention ran at the matrix rate, models-52).
    const MptRow rows[] = {
        {"mpt-760m", 2048, 24, 384, false, 32434, 0.087},
        {"mpt-1b", 2048, 14, 448, false, 20513, 0.079},
        {"mpt-3b", 4096, 5, 240, false, 9457, 0.060},
        {"mpt-7b", 2048, 6, 96, false, 4641, 0.088},
        {"mpt-13b", 2048, 2, 48, false, 2262, 0.122},
        {"mpt-30b", 2048, 3, 504, true, 916, 0.001},
    };
    checkMptRows(rows, MptGpu::A100);
}

TEST_CASE("NVIDIA NeMo 24.07 on DGX H100 in FP8 (performance summary), held out",
          "[validation][training][heldout][nemo]")
{
    // NVIDIA/NeMo, docs/source/performance/performance_summary.md (commit 070a0bb), pre-training
    // at FP8 precision, container NeMo 24.07, DGX-H100: GPUs, global and micro-batch, sequence,
    // TP, PP, CP, VP as listed; published tokens per second per GPU. Not stated, so taken as
    // NeMo's performance recipes run them: sequence parallelism and tensor-parallel overlap
    // where TP > 1, the distributed optimizer, overlapped gradient reduce-scatter and weight
    // all-gather, fused attention, no recomputation (the launcher's 24.07 configurations set
    // activations_checkpoint_granularity null).
    // Gradients in BF16: NeMo-Framework-Launcher's FP8 GPT-3 175B configuration of the 24.07
    // release (launcher_scripts/conf/training/gpt3/175b_fp8.yaml at tag 24.07) sets the
    // distributed Adam's optim.grad_sync_dtype to bf16, as do its MLPerf GPT-3, Mixtral and
    // Nemotron 340B configurations; the other models have no FP8 configuration there, so the
    // same recipe is taken for them. Dropout: the Llama configurations of the same release set
    // hidden_dropout, attention_dropout and ffn_dropout to 0.0 (llama/llama*.yaml); GPT-3's keep
    // 0.1.
    struct Row
    {
        const char* model;
        int gpus, batch, microBatch, sequence, tp, pp, cp, vp;
        double tokensPerGpu;
        double modelError; ///< The model's error as it stands (docs/references.md).
    };
    const Row rows[] = {
        {"nemo-gpt3-5b", 64, 2048, 4, 2048, 1, 1, 1, 1, 22521, 0.275},
        {"nemo-gpt3-20b", 64, 256, 2, 2048, 2, 1, 1, 1, 5851, 0.188},
        {"gpt3-175b", 128, 256, 1, 2048, 4, 8, 1, 6, 726, 0.020},
        {"gpt3-175b", 512, 2048, 2, 2048, 4, 8, 1, 6, 782, 0.120},
        {"llama2-7b", 8, 128, 1, 4096, 1, 1, 1, 1, 16847, 0.175},
        {"llama2-13b", 16, 128, 1, 4096, 1, 4, 1, 10, 8646, 0.135},
        {"llama2-70b", 64, 128, 1, 4096, 4, 4, 1, 20, 1707, 0.116},
        {"llama3-8b", 8, 128, 1, 8192, 1, 1, 2, 1, 12036, 0.247},
        {"llama3-70b", 64, 128, 1, 8192, 4, 4, 2, 5, 1533, 0.121},
    };
    double absoluteErrors = 0.0;
    for (const Row& row : rows) {
        INFO(row.model << " on " << row.gpus << ": published " << row.tokensPerGpu
                       << " tokens/s per GPU");
        const NemoLayout layout{row.model, row.sequence, row.batch, row.microBatch, 1,
                                row.tp,    row.pp,       row.cp,    row.vp,         false};
        const json workload = nemoFp8Workload(layout);
        const DocumentEvaluation d =
            evaluateDocument(dgxH100(row.gpus, workload), heldOutCatalog(), "n");
        INFO(errors(d));
        REQUIRE(d.ok());
        const double predicted = tokensPerGpuSecond(d, row.batch, row.sequence, row.gpus);
        const double error = predicted / row.tokensPerGpu - 1.0;
        INFO("predicted " << predicted << " error " << error * 100.0 << "%");
        CHECK(error == Approx(row.modelError).margin(0.03));
        absoluteErrors += std::fabs(error);
    }
    // With the attention and the output layer at FP8's rate and no casts (models-18) the mean
    // absolute error was 31.3%; with them in BF16, as Transformer Engine and Megatron-Core run
    // them, and the casts of the GEMMs' inputs to FP8 (models-19), 15.4% with selective
    // recomputation where fp32 gradients did not fit; stated as published (BF16 gradients, no
    // dropout for Llama, no recomputation as NeMo's 24.07 configurations set), 19.5%; with the
    // FP8 GEMMs at their own measured share of the FP8 peak (matmul_efficiency_fp8, H100 SXM
    // 70.9%, not BF16's 80.1%; models-21), 12.6%, five rows of nine within 10%. With the
    // interleaved rows' send/recv overlapped in the steady state, as the release's launcher
    // configured them (overlap_p2p_comm true, batch_p2p_comm false in launcher_scripts/conf/
    // training/gpt3/175b_fp8.yaml and llama/llama2_13b.yaml, llama2_70b.yaml, llama3_70b.yaml
    // at tag 24.07; models-39), 15.7%, one row within 10%: the five rows with PP join the
    // others, 2-14% fast where the exposed send/recv had cancelled what the model misses on
    // this release's runs (the rows without PP are 17-29% fast too; docs/references.md).
    CHECK(absoluteErrors / std::size(rows) < 0.17);
}

TEST_CASE("Megatron-Bridge 25.11 on DGX H100 and DGX B200 in FP8 (performance summary), held out",
          "[validation][training][heldout][nemo]")
{
    // NVIDIA-NeMo/Megatron-Bridge, docs/performance-summary.md (commit 00b7660), "25.11 NeMo
    // Container", pre-training, tables "System: DGX-H100" and "System: DGX-B200", precision
    // FP8-CS (current scaling): GPUs, global and micro-batch, sequence, FSDP, TP, PP, CP, VP as
    // listed; published tokens per second per GPU. The same recipes a year after NeMo 24.07
    // (the test above): Llama 3 8B on 8 H100 went from 12,036 to 14,451 tokens/s per GPU on the
    // same silicon. FSDP = 1 is Megatron-FSDP, taken as ZeRO stage 3; FSDP = 0 the distributed
    // optimizer (stage 1). Not stated, so taken as the 24.07 case: sequence parallelism and
    // tensor-parallel overlap where TP > 1, fused attention, no recomputation (every row fits
    // without), BF16 gradients, no dropout (Llama), and the 405B's embedding and loss counted as
    // pipeline layers (Megatron-Core's account_for_embedding/loss_in_pipeline_split: 126 layers
    // split over PP x VP = 64 chunks).
    struct Row
    {
        bool b200;
        const char* model;
        int gpus, batch, microBatch, zero, tp, pp, cp, vp;
        bool layersSplitWithEnds; ///< Embedding and loss counted as pipeline layers.
        double tokensPerGpu;
        double modelError; ///< The model's error as it stands (docs/references.md).
    };
    const Row rows[] = {
        {false, "llama3-8b", 8, 128, 1, 3, 1, 1, 1, 1, false, 14451, 0.040},
        {false, "llama3-70b", 64, 128, 1, 1, 4, 8, 1, 5, false, 1602, 0.039},
        {false, "llama3-405b", 1024, 512, 1, 1, 8, 8, 2, 8, true, 292, 0.091},
        {true, "llama3-8b", 8, 128, 2, 1, 1, 1, 1, 1, false, 30624, 0.073},
        {true, "llama3-405b", 128, 64, 1, 1, 4, 8, 2, 8, true, 661, 0.098},
    };
    constexpr int sequence = 8192;
    double h100Errors = 0.0;
    for (const Row& row : rows) {
        INFO(row.model << " on " << row.gpus << (row.b200 ? " B200" : " H100") << ": published "
                       << row.tokensPerGpu << " tokens/s per GPU");
        const NemoLayout layout{
            row.model, sequence, row.batch, row.microBatch, row.zero,
            row.tp,    row.pp,   row.cp,    row.vp,         row.layersSplitWithEnds};
        const double error = nemoRowError(nemoFp8Workload(layout, "tensorwise"), row.b200, row.gpus,
                                          row.batch, sequence, row.tokensPerGpu);
        INFO("error " << error * 100.0 << "%");
        CHECK(error == Approx(row.modelError).margin(0.03));
        if (!row.b200) {
            // The issue's bound: within 10% of the published throughput on H100.
            CHECK(std::fabs(error) < 0.10);
            h100Errors += std::fabs(error);
        }
    }
    CHECK(h100Errors / 3.0 < 0.07);
}

TEST_CASE("Megatron-Bridge 25.11 on DGX B200: MXFP8 against FP8 current scaling on the same "
          "layouts, held out",
          "[validation][training][heldout][nemo][fp8recipe]")
{
    // NVIDIA-NeMo/Megatron-Bridge, docs/performance-summary-archive.md (commit 067f987), "25.11
    // NeMo Container", "System: DGX-B200": the dense rows list two precisions, "FP8-CS (FP8-MX)",
    // the same layout run with current scaling and with MXFP8 (the note under the table: 32-
    // element blocks for weights and activations on B200): Llama 3 8B on 8 GPUs 30,624 (29,521)
    // tokens/s per GPU, Llama 3.1 405B on 128 GPUs 661 (624). What the model is checked on here
    // is the ratio, which the recipes alone set: MXFP8's GEMMs at 0.951 of per-tensor FP8's
    // (Transformer Engine's GEMM profiling guide, B300, kernels alone: catalog
    // matmul_efficiency_mxfp8), against current scaling's extra pass over each unfused GEMM
    // input for its amax and MXFP8's activations quantized in their own kernel. Nothing here was
    // fitted to these rows.
    struct Row
    {
        const char* model;
        int gpus, batch, microBatch, tp, pp, cp, vp;
        bool layersSplitWithEnds;
        double currentScaling, mxfp8; ///< Published tokens/s per GPU.
        double modelRatio;            ///< The model's MXFP8 / current-scaling ratio as it stands.
    };
    const Row rows[] = {
        {"llama3-8b", 8, 128, 2, 1, 1, 1, 1, false, 30624, 29521, 0.996},
        {"llama3-405b", 128, 64, 1, 4, 8, 2, 8, true, 661, 624, 0.982},
    };
    constexpr int sequence = 8192;
    for (const Row& row : rows) {
        const double published = row.mxfp8 / row.currentScaling;
        const NemoLayout layout{row.model, sequence, row.batch, row.microBatch,         1, row.tp,
                                row.pp,    row.cp,   row.vp,    row.layersSplitWithEnds};
        auto tokens = [&](const char* recipe) {
            const DocumentEvaluation d = evaluateDocument(
                dgxB200(row.gpus, nemoFp8Workload(layout, recipe)), heldOutCatalog(), "b200.json");
            INFO(recipe << ": " << errors(d));
            REQUIRE(d.evaluation);
            return tokensPerGpuSecond(d, row.batch, sequence, row.gpus);
        };
        const double cs = tokens("tensorwise");
        const double mx = tokens("mxfp8");
        const double ratio = mx / cs;
        INFO(row.model << ": MXFP8 / FP8-CS predicted " << ratio << " (" << mx << " / " << cs
                       << "), published " << published);
        CHECK(ratio < 1.0);
        CHECK(ratio == Approx(published).margin(0.05));
        CHECK(ratio == Approx(row.modelRatio).margin(0.005));
    }
}

TEST_CASE(
    "Megatron-Bridge 26.04.01 on DGX H100 and DGX B200, dense and mixture of experts, held out",
    "[validation][training][heldout][nemo][moe]")
{
    // NVIDIA-NeMo/Megatron-Bridge, docs/performance-summary-archive.md (commit 067f987),
    // "26.04.01 NeMo Container", pre-training: the DGX-H100 and DGX-B200 rows the model can lay
    // out. Dense: Llama 3 70B and Llama 3.1 405B on H100 in FP8, the recipes of the 25.11 test
    // above with larger batches (256 and 1,536). Mixture of experts: Qwen3-30B-A3B (128 experts
    // of 768, top 8) and Qwen3-235B-A22B (128 of 1,536, top 8), data/catalog/models.json. The
    // B200 MoE rows ran MXFP8 (1 x 32 block scales: fp8_recipe mxfp8, models-31); in the 25.11
    // table MXFP8 ran 4-6% below FP8-CS on the same B200 layouts, of which the model finds 0-1%
    // (the test above), so those rows carry the rest in their error. Not stated, so taken as the
    // 25.11 test does: fused
    // attention, no recomputation, BF16 gradients, no dropout (the Qwen3 providers set 0), the
    // distributed optimizer (FSDP 0), and the 235B's embedding and loss counted as pipeline
    // layers (94 + 2 over PP 8, and over PP 8 x VP 4 on H100).
    //
    // What it shows (docs/references.md, "Megatron-Bridge 26.04.01"): the dense H100 rows are
    // within 2% on the newest stack. The fine-grained MoE layers' many small kernels leave the
    // GPUs waiting for the host (the CPU issuing PyTorch and Transformer Engine operations;
    // NVIDIA's DeepSeek-V3 on GB200 write-up, NVIDIA/Megatron-LM docs/discussions/deepseek-v3-
    // gb200-optimization, names it the largest cost), which the model times since models-30
    // (step.host_wait_seconds): the 26.02 row at micro-batch 1, once +259%, comes within 17%;
    // the B200 235B from +78% to +26% (+23% with MXFP8's own GEMM rate, models-31; +14% with
    // the host's wait in the choice of the pacing stage, models-35); the B200 30B
    // at micro-batch 4, its router and attention in CUDA graphs, stays +35% (+28.5% with the
    // routed experts' FP8 casts, models-32; its host share is small in the model; +39.5% since
    // HybridEP sends a token once to each rank its experts are on, 5.3 copies of 8, models-36).
    // On the H100 235B the all-to-all dispatcher's calls across nodes bind, and it is within
    // 10%: its preset overlaps them (moe_a2a_overlap, models-32: -12.4% without, +6.7% with).
    // The H100 30B was -6.5% while the model sent HybridEP's every (token, expert) copy; sent
    // once to each node the token's experts reach (models-36), its FP8 row is +25%, where the
    // same layout in BF16 holds within 6% with its all-to-all within 15% of NVIDIA's measured
    // share (the A/B test below): the published FP8 step is 18% longer than that BF16 one,
    // and the model's FP8 step was shorter, so the miss is FP8's on 768-wide experts, not the
    // dispatch's. Transformer Engine quantizes the experts' inputs split by split under every
    // recipe but delayed scaling (4 kernels a local expert's split under current scaling,
    // models-37): +18%, and the 26.02.01 layout (16 local experts on 24 layers a GPU against
    // 8 on 48) from +7.9% to -0.7%. Within a node the flex calls run no faster than the
    // library's SMs copy (models-38): HybridEP on 32 SMs tops out at 0.85 of NVLink's rate a
    // direction, the B200 30B +36.2% to +34.2%; DeepEP's 20 SMs on H100 copy faster than NVLink
    // carries and take fewer SMs than NCCL's channels from the overlapped computation (-0.7% to
    // +0.3%). The interleaved rows' send/recv overlapped (models-39) and Blackwell's GEMMs at
    // their sustained rate at training shapes (models-40: the B200 30B +34.2% to +29.5%; the
    // B200's 148 SMs against the B300's 160 the rate was measured on, models-42: +26.9%).
    struct Row
    {
        bool b200;
        const char* model;
        int gpus, batch, microBatch, tp, pp, cp, vp, ep;
        bool layersSplitWithEnds;
        const char* flex; ///< The flex dispatcher's backend (deepep, hybridep); null: all-to-all.
        int graphs;       ///< CUDA graphs: 0 none, 1 moe_router and moe_preprocess, 2 and attn.
        bool a2aOverlap;  ///< The expert all-to-all overlapped (moe_a2a_overlap).
        double tokensPerGpu;
        double modelError; ///< The model's error as it stands (docs/references.md).
    };
    const Row rows[] = {
        {false, "llama3-70b", 64, 256, 1, 4, 8, 1, 5, 1, false, nullptr, 0, false, 1664, 0.015},
        {false, "llama3-405b", 1024, 1536, 1, 8, 8, 2, 8, 1, true, nullptr, 0, false, 328, 0.004},
        {false, "qwen3-30b-a3b", 16, 1024, 1, 1, 1, 1, 1, 16, false, "hybridep", 0, false, 8960,
         0.180},
        {true, "qwen3-30b-a3b", 8, 512, 4, 1, 1, 1, 1, 8, false, "hybridep", 2, false, 27136,
         0.295},
        {true, "qwen3-235b-a22b", 256, 8192, 1, 1, 8, 1, 1, 8, true, nullptr, 0, false, 3776,
         0.120},
        {false, "qwen3-235b-a22b", 256, 8192, 1, 2, 8, 1, 4, 32, true, nullptr, 0, true, 1712,
         0.072},
        // 26.02 (the same archive; Megatron-Bridge v0.3.0 presets): micro-batch 1, the
        // all-to-all dispatcher, CUDA graphs of the router and its metadata only; 2.8 times
        // slower a token than the 26.04.01 row above on the same eight GPUs.
        {true, "qwen3-30b-a3b", 8, 512, 1, 1, 1, 1, 1, 8, false, nullptr, 1, false, 9691, 0.116},
        // 26.02.01 (the same archive, v0.3.0 presets): the H100 30B on PP 2 x VP 12 with EP 8
        // inside each node, DeepEP (the flex dispatcher) and the all-to-all overlapped, no CUDA
        // graphs in FP8: 9,058 tokens/s per GPU, about what the EP 16 layout of 26.04.01 gives.
        {false, "qwen3-30b-a3b", 16, 1024, 1, 1, 2, 1, 12, 8, false, "deepep", 0, true, 9058,
         0.039},
    };
    for (const Row& row : rows) {
        const bool moe = row.ep > 1;
        const int sequence = moe ? 4096 : 8192;
        INFO(row.model << " on " << row.gpus << (row.b200 ? " B200" : " H100") << ": published "
                       << row.tokensPerGpu << " tokens/s per GPU");
        const NemoLayout layout{row.model, sequence, row.batch, row.microBatch,         1, row.tp,
                                row.pp,    row.cp,   row.vp,    row.layersSplitWithEnds};
        // The B200 MoE rows ran MXFP8; the H100 rows FP8 with current scaling, as the 25.11
        // table names the same recipes (FP8-CS).
        json workload = nemoFp8Workload(layout, row.b200 ? "mxfp8" : "tensorwise");
        workload["expert_parallel"] = row.ep;
        // Megatron-Bridge's Qwen3 presets keep experts whole (expert_tensor_parallel_size 1,
        // scripts/performance/configs/qwen/qwen3_workload_base_configs.py at 00b7660): the
        // H100 235B's EP 32 is folded over TP 2 x DP 16.
        workload["expert_tensor_parallel"] = 1;
        workload["dropout"] = false;
        if (moe) {
            // The presets of the release (Megatron-Bridge v0.4.2, scripts/performance/configs/
            // qwen: qwen3_workload_base_configs.py and qwen3_llm_pretrain.py, set_qwen3_common_
            // configs): router fusion on every row, the permutations fused by the Qwen3 MoE
            // provider (src/megatron/bridge/models/qwen/qwen3_moe_bridge.py), HybridEP for the
            // 30B, CUDA graphs of attn, moe_router and moe_preprocess for the 30B on B200.
            workload["moe_router_fusion"] = true;
            workload["moe_permute_fusion"] = true;
            workload["moe_token_dispatcher"] = row.flex ? "flex" : "alltoall";
            if (row.flex)
                workload["moe_flex_dispatcher_backend"] = row.flex;
            // The release's performance scripts give HybridEP 32 SMs (scripts/performance/
            // utils/overrides.py at v0.4.2: moe_hybridep_num_sms = 32); DeepEP keeps
            // Megatron-Core's 20.
            if (row.flex && std::string(row.flex) == "hybridep")
                workload["moe_flex_dispatcher_sms"] = 32;
            // The H100 235B preset overlaps the expert all-to-all (moe_a2a_overlap: Megatron-
            // Core's --overlap-moe-expert-parallel-comm, its VP 4 as the overlap needs).
            workload["moe_a2a_overlap"] = row.a2aOverlap;
            if (row.graphs == 1)
                workload["cuda_graph_scope"] = {"moe_router", "moe_preprocess"};
            else if (row.graphs == 2)
                workload["cuda_graph_scope"] = {"attn", "moe_router", "moe_preprocess"};
        }
        const double error =
            nemoRowError(workload, row.b200, row.gpus, row.batch, sequence, row.tokensPerGpu);
        INFO("error " << error * 100.0 << "%");
        CHECK(error == Approx(row.modelError).margin(0.03));
        if (!moe) {
            CHECK(std::fabs(error) < 0.05);
        } else {
            // Where the all-to-all dispatcher's calls across nodes bind (the H100 235B) within
            // the issue's 10%; elsewhere not slower than published by more than that.
            CHECK(error > -0.10);
            if (!row.b200 && !row.flex)
                CHECK(std::fabs(error) < 0.10);
        }
    }
}

TEST_CASE("Megatron-Bridge 26.04.01: gpt-oss-120b on 64 H100 and 64 B200 in BF16, held out",
          "[validation][training][heldout][nemo][moe][window]")
{
    // NVIDIA-NeMo/Megatron-Bridge, docs/performance-summary-archive.md (commit 067f987),
    // "26.04.01 NeMo Container", pre-training, GPT OSS 120B, BF16, 64 GPUs, GBS 1,280, sequence
    // 4,096, TP 1, CP 1: DGX-H100 MBS 1, PP 4, EP 8: 5,824 tokens/s per GPU; DGX-B200 MBS 4,
    // PP 1, EP 8: 13,568. The presets of the release (Megatron-Bridge v0.4.2, scripts/
    // performance/configs/gpt_oss: gpt_oss_workload_base_configs.py V2 and
    // gpt_oss_llm_pretrain.py; src/megatron/bridge/recipes/gpt_oss/gpt_oss.py): experts whole
    // (ETP 1), the norms and the experts' activation recomputed (recompute_modules layernorm and
    // moe_act), router fusion and permutation fusion, the all-to-all dispatcher, the fused
    // cross entropy, BF16 gradient reduction, no CUDA graphs. The model (catalog gpt-oss-120b):
    // 36 layers of 2,880, every other layer attending within a window of 128 tokens, 128 experts
    // of 2,880, top 4. Not stated, so taken: no dropout, the distributed optimizer.
    // The model misses it by far: +57.9% and +82.1% until the experts' clamped activation and
    // biases ran as Megatron-Core's eager kernels (catalog activation_clamp and linear_bias,
    // models-33; docs/references.md).
    struct Row
    {
        bool b200;
        int microBatch, pp;
        double tokensPerGpu;
        double modelError; ///< The model's error as it stands (docs/references.md).
    };
    const Row rows[] = {{false, 1, 4, 5824, 0.216}, {true, 4, 1, 13568, 0.508}};
    for (const Row& row : rows) {
        INFO((row.b200 ? "B200" : "H100")
             << ": published " << row.tokensPerGpu << " tokens/s per GPU");
        const json workload = gptOssWorkload(row.microBatch, row.pp, 8);
        const double error = nemoRowError(workload, row.b200, 64, 1280, 4096, row.tokensPerGpu);
        INFO("error " << error * 100.0 << "%");
        CHECK(error == Approx(row.modelError).margin(0.03));
    }
}

TEST_CASE("Megatron-Bridge 26.04.01: Llama 3.1 405B on 256 GB200 (64 NVL72 trays), held out",
          "[validation][training][heldout][gb200]")
{
    // NVIDIA-NeMo/Megatron-Bridge, docs/performance-summary-archive.md (commit 067f987),
    // "26.04.01 NeMo Container", pre-training, LLAMA3.1_405B, DGX-GB200: 256 GPUs, FP8 (current
    // scaling), GBS 1,536, MBS 1, sequence 8,192, TP 4, PP 16, CP 1, VP 4: 864 tokens/s per GPU.
    // The recipe (src/megatron/bridge/perf_recipes/llama/gb200/llama31.py,
    // llama31_405b_pretrain_256gpu_gb200_fp8cs_config): sequence parallelism, TP overlap, no
    // recomputation. 256 GPUs are 64 compute trays of 4 (gb200-nvl72-tray): three whole 72-GPU
    // NVLink domains and part of a fourth, so the pipeline's neighbours and the data-parallel
    // replicas meet over NVLink where they share a domain. Taken as the H100 row of the same
    // table: BF16 gradients, no dropout, the embedding and the loss as pipeline layers.
    //
    // What it shows (docs/references.md, "GB200 NVL72 trays"): 6.2% fast (7.6% before the
    // recipe's amax passes, models-31), beside the B200 rows' 15% (Megatron-Bridge 25.11, above)
    // on the same Blackwell silicon; 13.6% with the pipeline's send/recv overlapped as the
    // recipe runs it (models-39), 1.5% with Blackwell's GEMMs at their sustained rate at
    // training shapes, not mamf-finder's best (models-40), -3.9% with that rate, measured on a
    // B300, scaled to the GB200's 148 SMs from the B300's 160 (models-42), +1.1% with the parts'
    // SM counts as enabled (B300 148, GB200 152) and the B300's rate taken whole for the same
    // die (models-47). The memory does not
    // fit as modelled, by 1% (188 GB a GPU against 186; 210 before the activations kept their
    // FP8 casts, models-26).
    const NemoLayout layout{"llama3-405b", 8192, 1536, 1, 1, 4, 16, 1, 4, true};
    const json scenario = gb200Trays(256, nemoFp8Workload(layout, "tensorwise"), "gb200-trays");
    const DocumentEvaluation d = evaluateDocument(scenario, heldOutCatalog(), "gb200.json");
    REQUIRE(d.evaluation);
    // 64 trays: the last of four domains holds 10 of its 18, said so.
    CHECK(std::any_of(d.diagnostics.begin(), d.diagnostics.end(),
                      [](const Diagnostic& x) { return x.code == "scale-up-domain"; }));
    CHECK(value(d, "power.nodes_per_rack") == 18.0);
    const double predicted = tokensPerGpuSecond(d, 1536, 8192, 256);
    const double error = predicted / 864.0 - 1.0;
    INFO("predicted " << predicted << " tokens/s per GPU, error " << error * 100.0 << "%");
    CHECK(error == Approx(0.016).margin(0.03));
    const double memory = value(d, "step.memory_total_gb");
    INFO("memory " << memory << " GB a GPU");
    CHECK(memory == Approx(187.7).margin(3.0));
}

TEST_CASE("Megatron-Bridge 26.04.01: Llama 3 70B on 64 GB200 with Megatron-FSDP and activation "
          "offloading, held out",
          "[validation][training][heldout][gb200][offload]")
{
    // NVIDIA-NeMo/Megatron-Bridge, docs/performance-summary-archive.md (commit 067f987),
    // "26.04.01 NeMo Container", pre-training, LLAMA3_70B, DGX-GB200: 64 GPUs, FP8 (current
    // scaling), GBS 256, MBS 2, sequence 8,192, FSDP 64, TP 1, PP 1, CP 1: 4,224 tokens/s per GPU.
    // The recipe (src/megatron/bridge/perf_recipes/llama/gb200/llama3.py,
    // llama3_70b_pretrain_64gpu_gb200_fp8cs_config): Megatron-FSDP sharding optimizer states,
    // gradients and weights (ZeRO-3), no recomputation, and the activations of 40 of the 80
    // layers offloaded to the Grace CPUs' memory (cpu_offloading_num_layers = 40,
    // cpu_offloading_weights = False); the perf recipes' fused cross entropy
    // (perf_recipes/_common.py, cross_entropy_fusion_impl "te"; GPTModelProvider's
    // cross_entropy_loss_fusion True) and BF16 gradient reduction (grad_reduce_in_fp32 False).
    // 64 GPUs are 16 compute trays of 4 on one 72-GPU NVLink domain.
    //
    // What it shows (docs/references.md, "Activation offloading"): without offloading the
    // layout needs 350 GB a GPU against 186; with the 40 layers offloaded, 190 GB (2% over, as
    // the 405B row's 1%) and 156 GB a GPU in host memory (623 GB of a tray's 960). Over
    // NVLink-C2C a layer's copy (3.9 GB, 17 ms at 225 GB/s) hides under the two layers'
    // computation its window gives it: nothing exposed. The throughput is 7% fast (32% before
    // the hidden collectives took their SMs from the GEMMs, models-29; 27% before current
    // scaling's amax passes, models-31; 25% before Blackwell's GEMMs ran at their sustained
    // rate at training shapes, models-40; 12% before that rate, measured on a B300, was scaled
    // to the GB200's 148 SMs, models-42), beside the 405B row's -4%
    // on the same trays without FSDP: the data-parallel traffic of ZeRO-3 (all the weights
    // gathered twice and the gradients scattered once a micro-batch) hides under the
    // computation; MosaicML's FSDP rows above are fast by 34-74% too.
    const NemoLayout layout{"llama3-70b", 8192, 256, 2, 3, 1, 1, 1, 1, false};
    json workload = nemoFp8Workload(layout, "tensorwise");
    workload["fused_cross_entropy"] = true;
    workload["activation_offload_layers"] = 40;
    const json scenario = gb200Trays(64, workload, "gb200-fsdp");
    const DocumentEvaluation d = evaluateDocument(scenario, heldOutCatalog(), "gb200-fsdp.json");
    REQUIRE(d.evaluation);
    CHECK(value(d, "step.offload_seconds") == 0.0);
    const double offloaded = value(d, "step.memory_offloaded_gb");
    INFO("offloaded " << offloaded << " GB a GPU");
    CHECK(offloaded == Approx(155.7).margin(3.0));
    CHECK(offloaded * 4.0 < 960.0); // A tray's two Grace CPUs hold it.
    const double memory = value(d, "step.memory_total_gb");
    INFO("memory " << memory << " GB a GPU");
    CHECK(memory == Approx(190.2).margin(3.0));
    const double predicted = tokensPerGpuSecond(d, 256, 8192, 64);
    const double error = predicted / 4224.0 - 1.0;
    INFO("predicted " << predicted << " tokens/s per GPU, error " << error * 100.0 << "%");
    CHECK(error == Approx(0.135).margin(0.03));

    // The same layout without offloading does not fit by far.
    json kept = scenario;
    kept["workload"]["activation_offload_layers"] = 0;
    const DocumentEvaluation whole = evaluateDocument(kept, heldOutCatalog(), "gb200-fsdp.json");
    REQUIRE(whole.evaluation);
    CHECK(value(whole, "step.memory_total_gb") > 300.0);

    // The DGX-GB300 row of the same table: the same layout at 5,248 tokens/s per GPU, its
    // preset offloading 20 layers, not 40 (LLAMA3_70B_PRETRAIN_CONFIG_GB300_FP8_CS_V2 in
    // scripts/performance/configs/llama/llama3_workload_base_configs.py at v0.4.2): the 288 GB
    // hold more of the activations. It fits as modelled, and runs within 4% of the model since
    // the GB300's GEMMs run at their measured rate (7.6% faster than the model had it before,
    // models-55, as the GPU-bound GB300 rows of the Blackwell Ultra test below did).
    json ultra = workload;
    ultra["activation_offload_layers"] = 20;
    const DocumentEvaluation gb300 =
        evaluateDocument(blackwellUltra(true, 64, ultra), heldOutCatalog(), "gb300-fsdp.json");
    REQUIRE(gb300.evaluation);
    CHECK(value(gb300, "step.offload_seconds") == 0.0);
    const double gb300Memory = value(gb300, "step.memory_total_gb");
    INFO("GB300: memory " << gb300Memory << " GB a GPU");
    CHECK(gb300Memory < 288.0);
    const double gb300Error = tokensPerGpuSecond(gb300, 256, 8192, 64) / 5248.0 - 1.0;
    INFO("GB300: error " << gb300Error * 100.0 << "%");
    CHECK(gb300Error == Approx(0.031).margin(0.03));
}

TEST_CASE("Megatron MoE Model Zoo: Qwen3-235B-A22B on 256 H100 in BF16 (all-to-all dispatcher), "
          "held out",
          "[validation][training][heldout][moe]")
{
    // yanring/Megatron-MoE-ModelZoo, best_practice/Qwen3/readme.md (commit c1ad0b5),
    // "Intra-node EP strategy", the row with the all-to-all dispatcher (A2A, not DeepEP): 256
    // H100 (NVLink 4, InfiniBand 8 x 50 GB/s), BF16, sequence 4,096, TP 2, CP 1, EP 8, PP 32, VPP
    // 3, ETP 1, DP 4, micro-batch 1, global batch 2,048; step 24.2 s, 200 TFLOP/s per GPU
    // (2,048 x 4,096 / 24.2 / 256 = 1,354 tokens/s per GPU). Taken: sequence parallelism with TP
    // overlap, no recomputation (the row recomputes the norms and the activation, a few percent of
    // the layer's element-wise work), the distributed optimizer, BF16 gradients, no dropout,
    // embedding and loss as pipeline layers (94 + 2 over PP 32 x VPP 3). The model is +28.5%
    // fast (+42.1% before it timed the host's launches, models-30): in-node all-to-all, small
    // per-rank work (PP 32), the host-bound regime of the Megatron-Bridge B200 rows above
    // (docs/references.md).
    const NemoLayout layout{"qwen3-235b-a22b", 4096, 2048, 1, 1, 2, 32, 1, 3, true};
    json workload = nemoFp8Workload(layout);
    workload["precision"] = "bf16";
    workload["expert_parallel"] = 8;
    workload["expert_tensor_parallel"] = 1;
    workload["dropout"] = false;
    // The Model Zoo's Qwen3-235B-A22B configuration fuses the router and the permutations
    // (model_configs/benchmarking/Qwen3-235B-A22B.yaml: --moe-router-fusion, --moe-permute-
    // fusion); the row names no CUDA graphs.
    workload["moe_router_fusion"] = true;
    workload["moe_permute_fusion"] = true;
    const double error = nemoRowError(workload, false, 256, 2048, 4096, 1354);
    INFO("error " << error * 100.0 << "%");
    CHECK(error == Approx(0.353).margin(0.03));
    CHECK(error > -0.10);
}

TEST_CASE("DeepSeek-V3 on 2,048 H800 in FP8 with DualPipe (technical report, profile), held out",
          "[validation][training][heldout][moe]")
{
    // DeepSeek-AI, "DeepSeek-V3 Technical Report" (arXiv 2412.19437): pre-training took 2,664K
    // H800 GPU hours for 14.8T tokens (Table 1; "each trillion tokens requires only 180K H800 GPU
    // hours, i.e., 3.7 days on our cluster with 2048 H800 GPUs", section 1): 54.2 days on 2,048
    // GPUs, wall clock. The run (sections 3.1-3.3 and 4.2): 256 nodes of 8 H800 on NVLink and
    // NVSwitch, one 400 Gb/s InfiniBand NIC per GPU (the multi-plane two-layer fat tree of the 16k
    // example), 16-way pipeline parallelism over the 61 layers with DualPipe, 64-way expert
    // parallelism across 8 nodes, ZeRO-1 data parallelism, no tensor parallelism, FP8 GEMMs,
    // sequence 4,096, batch 15,360 sequences (after the ramp over the first 469B tokens), each
    // token's experts on at most 4 nodes (the catalog entry) and sent once to each over
    // InfiniBand, then forwarded over NVLink (3.2.2: the flex dispatcher), the norms, the MLA
    // up-projections and the SwiGLU's output recomputed (3.2.3 and 3.3.3: recompute_modules
    // layernorm, mla_up_proj and moe_act), Adam's moments in BF16 (3.3.3). Micro-batch not
    // published: 1 taken (DeepSeek's profile of the same layout runs 4K tokens a chunk).
    //
    // deepseek-ai/profile-data, train.json (the PyTorch profiler's trace of one forward chunk and
    // one backward chunk overlapped, as DualPipe pairs them: 4 MoE layers each, EP 64, TP 1, 4K
    // sequence, balanced routing, no pipeline sends; H800, 132 SMs): 129.0 ms from the first kernel
    // to the last, the computation stream busy 118.2 ms of it and the expert all-to-all (20 SMs)
    // 114.5 ms beside it.
    //
    // What it shows, as the model stands (docs/references.md, "DeepSeek-V3"): the model's pair
    // of chunks is 104 ms, 20% under the profile (its computation is short of the measured
    // kernels: DeepGEMM's grouped FP8 GEMMs with 1 x 128 and 128 x 128 block scales ran at about
    // 773 TFLOP/s on the 112 SMs left; the blockwise recipe's unfused quantization is counted,
    // models-31, and the routed experts' inputs' with it, models-32); end to end 37.5 days
    // against 54.2 (the profile's pair alone, at 120 micro-batches
    // a step with DualPipe's bubble, would give about 44 days: routing imbalance, the MTP module
    // and the restarts of a two-month run are the rest). The memory comes to about 100 GB a GPU
    // against the 80 it fits in (147 GB with Megatron-Core's default core_attn and FP32 moments):
    // the report's caching of the SwiGLU's inputs and of the projection's input in FP8 (3.3.3)
    // are not modelled. With 1F1B for DualPipe the model came 9% slow by two errors of opposite
    // sign (a bubble three times DualPipe's, and every all-to-all exposed).
    const json scenario = {{"schema_version", 2},
                           {"name", "deepseek-v3"},
                           {"site", "dallas"},
                           {"compute", {{"node", "hgx-h800"}, {"node_count", 256}}},
                           {"network",
                            {{"protocol", "infiniband"},
                             {"topology", "multi_plane"},
                             {"tiers", 2},
                             {"planes", 8},
                             {"rails", 8},
                             {"switch", "qm9700"},
                             {"nic", "connectx-7-400g"},
                             {"routing", "adaptive"}}},
                           {"cooling", {{"system", "d2c-rdhx"}}},
                           {"workload",
                            {{"model", "deepseek-v3"},
                             {"precision", "fp8"},
                             {"fp8_recipe", "blockwise"},
                             {"tokens_billion", 14800},
                             {"sequence_length", 4096},
                             {"global_batch_sequences", 15360},
                             {"micro_batch_size", 1},
                             {"tensor_parallel", 1},
                             {"pipeline_parallel", 16},
                             {"pipeline_schedule", "dualpipe"},
                             {"expert_parallel", 64},
                             {"zero_stage", 1},
                             {"flash_attention", true},
                             {"recompute", "selective"},
                             {"recompute_modules", {"layernorm", "mla_up_proj", "moe_act"}},
                             {"optimizer_moments", "bf16"},
                             {"overlap_fraction", 1.0},
                             {"dropout", false},
                             {"moe_token_dispatcher", "flex"}}}};
    const DocumentEvaluation d = evaluateDocument(scenario, heldOutCatalog(), "deepseek-v3.json");
    // 61 layers on 16 stages: fifteen of 4 and the last of 1, accepted with a warning.
    CHECK(std::any_of(d.diagnostics.begin(), d.diagnostics.end(), [](const Diagnostic& x) {
        return x.severity == Severity::Warning && x.code == "uneven-pipeline-split";
    }));
    REQUIRE(d.evaluation);
    const StepResult& step = d.evaluation->compute.step;
    CHECK(step.pacingStageLayers == 4.0);
    // DualPipe hides the whole all-to-all: the computation of the paired chunk is longer.
    CHECK(step.expertParallelSeconds == Approx(0.0).margin(1e-9));
    // The host issues the pair's kernels within the pair's computation, as in the profile (its
    // host threads busy 49.6 of the 129 ms).
    CHECK(step.hostWaitSeconds == 0.0);
    const double pairError = step.microBatchSeconds / 0.1290 - 1.0;
    INFO("pair of chunks " << step.microBatchSeconds * 1e3 << " ms, error " << pairError * 100.0
                           << "%");
    CHECK(pairError == Approx(-0.202).margin(0.03));
    const double days = value(d, "compute.training_days");
    const double runError = 2664000.0 / 2048.0 / 24.0 / days - 1.0;
    INFO("training " << days << " days, throughput error " << runError * 100.0 << "%");
    CHECK(runError == Approx(0.453).margin(0.03));
    const double memory = value(d, "step.memory_total_gb");
    INFO("memory " << memory << " GB a GPU");
    CHECK(memory == Approx(99.6).margin(3.0));
}

TEST_CASE("Megatron-Bridge 26.04.01 on GB200 NVL72, mixture of experts, held out",
          "[validation][training][heldout][nemo][moe][gb200]")
{
    // NVIDIA-NeMo/Megatron-Bridge, docs/performance-summary-archive.md (commit 067f987),
    // "26.04.01 NeMo Container", pre-training, the DGX-GB200 rows of the two Qwen3 MoE models in
    // MXFP8: Qwen3-30B-A3B on 8 GB200 (two trays of one NVL72), micro-batch 4, EP 8: 26,112
    // tokens/s per GPU (27,136 on 8 B200, the test above); Qwen3-235B-A22B on 256 GB200, PP 8 x
    // VP 3, EP 32 (within an NVL72), global batch 8,192: 5,680. The presets (Megatron-Bridge
    // v0.4.2, scripts/performance/configs/qwen/qwen3_workload_base_configs.py:
    // QWEN3_30B_A3B_PRETRAIN_CONFIG_GB200_FP8_MX_V1,
    // QWEN3_235B_A22B_PRETRAIN_CONFIG_GB200_FP8_MX_V2 over V1): HybridEP for both, given 32 SMs by
    // the performance scripts (scripts/performance/utils/overrides.py); CUDA graphs of moe_router
    // and moe_preprocess for the 30B, of attn as well for the 235B; no all-to-all overlap
    // (WorkloadBaseConfig's default); as the 26.04.01 test above otherwise (router and permutation
    // fusion, BF16 gradients, no dropout, no recomputation, the 235B's embedding and loss counted
    // as pipeline layers). Both dispatch within the NVLink domain, where HybridEP's SMs and ceiling
    // bound the calls (models-38).
    //
    // What it shows (docs/references.md, "Megatron-Bridge 26.04.01 on GB200"): the 235B within
    // 6% (models-42). The 30B is 36% slow where the same layout on 8 B200 is 34% fast: the two runs
    // took about the same step (10.0 and 9.7 s), the model 15.7 and 7.1 s, the GB200's host (Grace,
    // its launches 2.75 times an x86 host's: the catalog's host_launch_us 147.7 us from one
    // measured torch.nn.Linear forward) leaving the GPUs waiting 8.8 s of it. At an x86 host's
    // cost the GB200 row would be +36%, as the B200's: whatever the pair's runs spend beyond the
    // model's GPU work is not the host's on one and not on the other. Recorded as it stands
    // (-36%): the GB200 DeepSeek-V3 ladder holds Grace's factor where it is. The errors:
    struct Row
    {
        const char* model;
        int gpus, batch, microBatch, pp, vp, ep;
        bool layersSplitWithEnds;
        bool attentionGraphs;
        double tokensPerGpu;
        double modelError; ///< The model's error as it stands (docs/references.md).
    };
    const Row rows[] = {
        {"qwen3-30b-a3b", 8, 512, 4, 1, 1, 8, false, false, 26112, -0.362},
        {"qwen3-235b-a22b", 256, 8192, 1, 8, 3, 32, true, true, 5680, -0.036},
    };
    for (const Row& row : rows) {
        INFO(row.model << " on " << row.gpus << " GB200: published " << row.tokensPerGpu
                       << " tokens/s per GPU");
        const NemoLayout layout{row.model, 4096, row.batch, row.microBatch,         1, 1,
                                row.pp,    1,    row.vp,    row.layersSplitWithEnds};
        json workload = hybridEpQwenWorkload(layout, row.ep);
        workload["cuda_graph_scope"] = row.attentionGraphs
                                           ? json{"attn", "moe_router", "moe_preprocess"}
                                           : json{"moe_router", "moe_preprocess"};
        const DocumentEvaluation d =
            evaluateDocument(gb200Trays(row.gpus, workload, "gb200"), heldOutCatalog(), "gb200");
        INFO(errors(d));
        REQUIRE(d.ok());
        const double error =
            tokensPerGpuSecond(d, row.batch, 4096, row.gpus) / row.tokensPerGpu - 1.0;
        const StepResult& s = d.evaluation->compute.step;
        INFO(row.model << " on GB200: error " << error * 100.0 << "%, step " << s.stepSeconds
                       << " s, expert all-to-all " << s.expertParallelSeconds << " s, host wait "
                       << s.hostWaitSeconds << " s");
        CHECK(error == Approx(row.modelError).margin(0.03));
    }
}

TEST_CASE("Megatron-Bridge 26.04.01 on GB200 NVL72, dense in MXFP8, held out",
          "[validation][training][heldout][nemo][gb200]")
{
    // NVIDIA-NeMo/Megatron-Bridge, docs/performance-summary-archive.md (commit 067f987),
    // "26.04.01 NeMo Container", pre-training, the DGX-GB200 rows of the dense models the model
    // lays out in MXFP8 (their FP8-CS rows are the two tests above): Llama 3 70B on 64 GB200,
    // TP 2 x PP 4 x VP 5, global batch 256: 3,712 tokens/s per GPU; Llama 3.1 405B on 256
    // GB200, TP 4 x PP 16 x VP 8, global batch 1,536: 800. The presets (Megatron-Bridge
    // v0.4.2, scripts/performance/configs/llama/: LLAMA3_70B_PRETRAIN_CONFIG_GB200_FP8_MX_V2,
    // LLAMA31_405B_PRETRAIN_CONFIG_GB200_FP8_MX_V2 over V1): micro-batch 1, no CUDA
    // graphs, no FSDP or offloading in these V2 layouts; the rest as the H100 rows of the
    // 26.04.01 test above take it (sequence parallelism and its overlap, fused attention, no
    // recomputation, the distributed optimizer, BF16 gradients, no dropout; the 405B's
    // embedding and loss counted as pipeline layers, 126 + 2 over PP 16).
    //
    // What it shows (docs/references.md, "Megatron-Bridge 26.04.01 on GB200"): the 405B within
    // 1% (its FP8-CS row -3.9%); the 70B 6.9% fast (25% before Blackwell's GEMMs ran at their
    // sustained rate at training shapes, models-40; 12.5% before that rate, measured on a B300,
    // was scaled to the GB200's 148 SMs from the B300's 160, models-42), where its H100 layout
    // (TP 4 x PP 8) holds within 3%. With the parts' SM counts as enabled and the B300's rate
    // taken whole (models-47): the 405B +5.3%, the 70B +11.6%. The errors as they stand:
    struct Row
    {
        const char* model;
        int gpus, batch, tp, pp, vp;
        bool layersSplitWithEnds;
        const char* recipe;
        double tokensPerGpu;
        double modelError; ///< The model's error as it stands (docs/references.md).
    };
    const Row rows[] = {
        {"llama3-70b", 64, 256, 2, 4, 5, false, "mxfp8", 3712, 0.125},
        {"llama3-405b", 256, 1536, 4, 16, 8, true, "mxfp8", 800, 0.053},
    };
    for (const Row& row : rows) {
        INFO(row.model << " on " << row.gpus << " GB200 (" << row.recipe << "): published "
                       << row.tokensPerGpu << " tokens/s per GPU");
        const NemoLayout layout{row.model, 8192,   row.batch, 1,      1,
                                row.tp,    row.pp, 1,         row.vp, row.layersSplitWithEnds};
        json workload = nemoFp8Workload(layout, row.recipe);
        workload["dropout"] = false;
        const DocumentEvaluation d =
            evaluateDocument(gb200Trays(row.gpus, workload, "gb200"), heldOutCatalog(), "gb200");
        INFO(errors(d));
        REQUIRE(d.ok());
        const double error =
            tokensPerGpuSecond(d, row.batch, 8192, row.gpus) / row.tokensPerGpu - 1.0;
        INFO(row.model << " on GB200 (" << row.recipe << "): error " << error * 100.0 << "%, step "
                       << d.evaluation->compute.step.stepSeconds << " s");
        CHECK(error == Approx(row.modelError).margin(0.03));
    }
}

TEST_CASE("Megatron-Bridge 26.04.01 on Blackwell Ultra (GB300 NVL72 and DGX B300), held out",
          "[validation][training][heldout][nemo][gb300]")
{
    // NVIDIA-NeMo/Megatron-Bridge, docs/performance-summary-archive.md (commit 067f987),
    // "26.04.01 NeMo Container", pre-training: the DGX-GB300 and DGX-B300 rows of the models the
    // model lays out, beside the GB200 and B200 rows of the tests above (the same table, the
    // same stack). The presets (Megatron-Bridge v0.4.2, scripts/performance/configs/llama/
    // llama3_workload_base_configs.py, llama31_workload_base_configs.py and qwen/
    // qwen3_workload_base_configs.py, the V2 variants over V1): Llama 3 70B in MXFP8 on TP 1 x
    // PP 4 x VP 5 (the GB200 needs TP 2 for the same layout), Llama 3.1 405B in MXFP8 on TP 2 x
    // PP 8 x CP 2 x VP 4 and in FP8-CS on TP 4 x PP 8 x VP 4 (the GB200 on PP 16); Qwen3-30B-A3B
    // at micro-batch 8 on both (4 on GB200 and B200), HybridEP, CUDA graphs of moe_router and
    // moe_preprocess; Qwen3-235B-A22B at micro-batch 2, on GB300 PP 4 x VP 12 with EP 32 and
    // the attention graphed too, on B300 PP 8 with EP 8, HybridEP, no graphs, no all-to-all
    // overlap. The 288 GB of HBM are what let the layouts drop TP, PP or grow the micro-batch.
    // Otherwise as the GB200 and B200 rows of 26.04.01 above (sequence parallelism, fused
    // attention, no recomputation, BF16 gradients, no dropout, the distributed optimizer; the
    // 405B's and the 235B's embedding and loss counted as pipeline layers; HybridEP on the 32
    // SMs the performance scripts give it).
    struct Row
    {
        bool trays; ///< GB300 NVL72 trays; false: DGX B300.
        const char* model;
        int gpus, batch, microBatch, tp, pp, cp, vp, ep;
        const char* recipe;
        int graphs; ///< CUDA graphs: 0 none, 1 moe_router and moe_preprocess, 2 and attn.
        double tokensPerGpu;
        double modelError; ///< The model's error as it stands (docs/references.md).
    };
    const Row rows[] = {
        {true, "llama3-70b", 64, 256, 1, 1, 4, 1, 5, 1, "mxfp8", 0, 4864, -0.014},
        {true, "llama3-405b", 256, 1536, 1, 2, 8, 2, 4, 1, "mxfp8", 0, 960, -0.003},
        {true, "llama3-405b", 256, 1536, 1, 4, 8, 1, 4, 1, "tensorwise", 0, 1024, -0.011},
        {true, "qwen3-30b-a3b", 8, 512, 8, 1, 1, 1, 1, 8, "mxfp8", 1, 31744, 0.048},
        {true, "qwen3-235b-a22b", 256, 8192, 2, 1, 4, 1, 12, 32, "mxfp8", 2, 6944, 0.114},
        {false, "qwen3-30b-a3b", 8, 512, 8, 1, 1, 1, 1, 8, "mxfp8", 1, 30720, 0.219},
        {false, "qwen3-235b-a22b", 256, 8192, 2, 1, 8, 1, 1, 8, "mxfp8", 0, 5936, 0.087},
        {true, "gpt-oss-120b", 64, 1280, 4, 1, 1, 1, 1, 64, "bf16", 0, 19200, 0.313},
        {false, "gpt-oss-120b", 64, 1280, 4, 1, 1, 1, 1, 8, "bf16", 0, 15232, 0.559},
    };
    for (const Row& row : rows) {
        const bool moe = row.ep > 1;
        const int sequence = moe ? 4096 : 8192;
        INFO(row.model << " on " << row.gpus << (row.trays ? " GB300" : " B300") << " ("
                       << row.recipe << "): published " << row.tokensPerGpu << " tokens/s per GPU");
        const bool ends = row.pp > 1 && std::string(row.model) != "llama3-70b";
        const NemoLayout layout{row.model, sequence, row.batch, row.microBatch, 1,
                                row.tp,    row.pp,   row.cp,    row.vp,         ends};
        const bool gptOss = std::string(row.model) == "gpt-oss-120b";
        json workload = gptOss ? gptOssWorkload(row.microBatch, row.pp, row.ep)
                        : moe  ? hybridEpQwenWorkload(layout, row.ep)
                               : nemoFp8Workload(layout, row.recipe);
        workload["dropout"] = false;
        if (row.graphs == 1)
            workload["cuda_graph_scope"] = {"moe_router", "moe_preprocess"};
        else if (row.graphs == 2)
            workload["cuda_graph_scope"] = {"attn", "moe_router", "moe_preprocess"};
        const DocumentEvaluation d = evaluateDocument(blackwellUltra(row.trays, row.gpus, workload),
                                                      heldOutCatalog(), "blackwell-ultra");
        INFO(errors(d));
        REQUIRE(d.ok());
        const double error =
            tokensPerGpuSecond(d, row.batch, sequence, row.gpus) / row.tokensPerGpu - 1.0;
        const StepResult& s = d.evaluation->compute.step;
        INFO(row.model << (row.trays ? " GB300 " : " B300 ") << row.recipe << ": error "
                       << error * 100.0 << "%, step " << s.stepSeconds << " s, host wait "
                       << s.hostWaitSeconds << " s, memory " << value(d, "step.memory_total_gb")
                       << " GB");
        CHECK(error == Approx(row.modelError).margin(0.03));
    }
}

TEST_CASE("NVIDIA's A/B runs of the expert all-to-all overlap on 16 H100 (Qwen3-30B-A3B)",
          "[validation][training][heldout][moe][overlap]")
{
    // NVIDIA-NeMo/Megatron-Bridge, skills/nemo-mbridge-perf-expert-parallel-overlap/SKILL.md
    // (commit 415e90a, 2026-08-10): Qwen3-30B-A3B on 16 H100, EP 16 (two nodes), BF16, TP 1,
    // PP 1, micro-batch 1, global batch 1,024, forced balanced routing, the overlap alone on and
    // off (delay_wgrad_compute off):
    //  - HybridEP (the flex dispatcher), sequence 4,096, CUDA graphs of moe_router and
    //    moe_preprocess: 24.71 s a step without, 20.99 s with (0.849). Its Nsight Systems A/B
    //    gave the share of the communication run beside computation the step model takes
    //    (kEpOverlapConcurrentShare), so this pair checks the rest: the warm-up left exposed and
    //    the SMs the all-to-all takes. The run's whole communication is 10.8 s of the 24.71 s
    //    (by the Nsight shares). While the model sent every (token, expert) copy its all-to-all
    //    took 18.0 s and its step 32.0 s (+30%); HybridEP sends a token once to each node its
    //    experts are on and fans it out over NVLink (models-36): 9.2 s and 23.2 s (-6%).
    //  - The all-to-all dispatcher, permutation fusion and CUDA graphs off (an SFT run; its
    //    sequence not stated, taken as 4,096): 41.25 s without, 31.31 s with (0.759), held out.
    //    The model: 32.4 s and 26.7 s (0.824).
    // The step ratios within 8 points of the measured ones.
    json workload = {{"model", "qwen3-30b-a3b"},
                     {"precision", "bf16"},
                     {"tokens_billion", 1000},
                     {"sequence_length", 4096},
                     {"global_batch_sequences", 1024},
                     {"micro_batch_size", 1},
                     {"tensor_parallel", 1},
                     {"expert_parallel", 16},
                     {"expert_tensor_parallel", 1},
                     {"recompute", "none"},
                     {"gradient_precision", "bf16"},
                     {"overlap_fraction", 1.0},
                     {"dropout", false},
                     {"moe_router_fusion", true},
                     {"moe_permute_fusion", true},
                     {"moe_token_dispatcher", "flex"},
                     {"moe_flex_dispatcher_backend", "hybridep"},
                     {"cuda_graph_scope", {"moe_router", "moe_preprocess"}}};
    auto step = [](json w, bool overlap) {
        w["moe_a2a_overlap"] = overlap;
        const DocumentEvaluation d = evaluateDocument(dgxH100(16, w), heldOutCatalog(), "ab");
        INFO(errors(d));
        REQUIRE(d.ok());
        return d.evaluation->compute.step.stepSeconds;
    };
    const double hybridWithout = step(workload, false);
    INFO("HybridEP without the overlap: " << hybridWithout << " s (published 24.71 s)");
    CHECK(hybridWithout == Approx(24.71).epsilon(0.10));
    const double hybridRatio = step(workload, true) / hybridWithout;
    INFO("HybridEP: with / without " << hybridRatio << " (published 20.99 / 24.71 = 0.849)");
    CHECK(hybridRatio == Approx(20.99 / 24.71).margin(0.08));
    CHECK(hybridRatio < 1.0);
    workload["moe_token_dispatcher"] = "alltoall";
    workload["moe_permute_fusion"] = false;
    workload.erase("cuda_graph_scope");
    const double alltoallRatio = step(workload, true) / step(workload, false);
    INFO("all-to-all dispatcher: with / without " << alltoallRatio
                                                  << " (published 31.31 / 41.25 = 0.759)");
    CHECK(alltoallRatio == Approx(31.31 / 41.25).margin(0.08));
}

TEST_CASE("DeepSeek-V3 on 256 B200 with the expert all-to-all overlapped (Megatron-Bridge "
          "26.04.01), held out",
          "[validation][training][heldout][moe][overlap]")
{
    // NVIDIA-NeMo/Megatron-Bridge, docs/performance-summary-archive.md (commit 067f987),
    // "26.04.01 NeMo Container": DeepSeek-V3 on 256 DGX B200 GPUs in MXFP8, TP 1, PP 8 x VP 2,
    // EP 32, micro-batch 1, global batch 4,096, sequence 4,096: 3,328 tokens/s per GPU. The
    // preset (Megatron-Bridge v0.4.2, scripts/performance/configs/deepseek/
    // deepseek_workload_base_configs.py, DEEPSEEK_V3_PRETRAIN_CONFIG_B200_FP8_MX_V2, and
    // deepseek_llm_pretrain.py): the layout "Et*4|(t*4|)*14tmL" (15 chunks of 4 layers, the
    // last holding one beside the loss), DeepEP (the flex dispatcher), moe_a2a_overlap (the
    // expert all-to-all under the other micro-batch's computation: Megatron-Core's
    // --overlap-moe-expert-parallel-comm with --delay-wgrad-compute), CUDA graphs of attn,
    // moe_router and moe_preprocess, the MLA up-projections and the dense layers' MLP
    // recomputed, router and permutation fusion, the fused loss, BF16 gradients and moments
    // (the DeepSeek-V3 recipe, src/megatron/bridge/recipes/deepseek/deepseek_v3.py). The run's
    // one MTP layer is not in the model, which counts 61 layers. EP 32 spans four nodes: the
    // all-to-all crosses the InfiniBand rails, and the overlap hides most of it.
    json workload = {{"model", "deepseek-v3"},
                     {"precision", "fp8"},
                     {"fp8_recipe", "mxfp8"},
                     {"tokens_billion", 1000},
                     {"sequence_length", 4096},
                     {"global_batch_sequences", 4096},
                     {"micro_batch_size", 1},
                     {"tensor_parallel", 1},
                     {"pipeline_parallel", 8},
                     {"pipeline_schedule", "interleaved"},
                     {"virtual_stages", 2},
                     {"expert_parallel", 32},
                     {"expert_tensor_parallel", 1},
                     {"zero_stage", 1},
                     {"recompute", "selective"},
                     {"recompute_modules", {"mlp", "mla_up_proj"}},
                     {"optimizer_moments", "bf16"},
                     {"gradient_precision", "bf16"},
                     {"overlap_fraction", 1.0},
                     {"dropout", false},
                     {"fused_cross_entropy", true},
                     {"moe_router_fusion", true},
                     {"moe_permute_fusion", true},
                     {"moe_token_dispatcher", "flex"},
                     {"cuda_graph_scope", {"attn", "moe_router", "moe_preprocess"}},
                     {"moe_a2a_overlap", true}};
    auto evaluate = [](const json& w) {
        const DocumentEvaluation d = evaluateDocument(dgxB200(256, w), heldOutCatalog(), "b200");
        INFO(errors(d));
        REQUIRE(d.ok());
        return d;
    };
    const DocumentEvaluation overlapped = evaluate(workload);
    const double error = tokensPerGpuSecond(overlapped, 4096, 4096, 256) / 3328.0 - 1.0;
    const StepResult& s = overlapped.evaluation->compute.step;
    INFO("error " << error * 100.0 << "%, all-to-all exposed " << s.expertParallelSeconds << " of "
                  << s.stepSeconds << " s");
    CHECK(error == Approx(-0.119).margin(0.03)); // the model's error as it stands
    // Without the overlap the all-to-all across the four nodes stays exposed.
    workload["moe_a2a_overlap"] = false;
    const DocumentEvaluation exposed = evaluate(workload);
    const StepResult& e = exposed.evaluation->compute.step;
    INFO("without the overlap: all-to-all " << e.expertParallelSeconds << " of " << e.stepSeconds
                                            << " s");
    // It hides at most the share of the steady state's communication that the merged schedule
    // runs beside computation (36.55% in NVIDIA's measurement, the step model's
    // kEpOverlapConcurrentShare).
    CHECK(s.expertParallelSeconds < e.expertParallelSeconds);
    CHECK(s.expertParallelSeconds > (1.0 - 0.3655) * e.expertParallelSeconds);
    CHECK(s.stepSeconds < e.stepSeconds);
    // Without it the DeepSeek provider's own default stands, the shared expert under the
    // dispatch and combine (moe_shared_expert_overlap): one 2,048-wide expert's GEMMs beside
    // calls that cross four nodes hide a small part of them.
    workload["moe_shared_expert_overlap"] = true;
    const DocumentEvaluation sharedRun = evaluate(workload);
    const StepResult& h = sharedRun.evaluation->compute.step;
    const double sharedError = tokensPerGpuSecond(sharedRun, 4096, 4096, 256) / 3328.0 - 1.0;
    WARN("shared experts' overlap: all-to-all " << h.expertParallelSeconds << " of "
                                                << h.stepSeconds << " s, error "
                                                << sharedError * 100.0 << "%");
    CHECK(h.expertParallelSeconds < e.expertParallelSeconds);
    CHECK(h.stepSeconds < e.stepSeconds);
}

TEST_CASE("DeepSeek-V3 on 256 GB200: NVIDIA's optimization ladder of the host's launches, held out",
          "[validation][training][heldout][moe][gb200]")
{
    // NVIDIA/Megatron-LM, docs/discussions/deepseek-v3-gb200-optimization/deepseek-v3-gb200-
    // optimization.md (section 1 and the table of section 3): DeepSeek-V3 in MXFP8 on 256 GB200
    // (64 NVL72 trays), TP 1, PP 8 x VPP 4 in the layout "Et|(tt|)*30L" (63 slots over 32
    // chunks), EP 32, micro-batch 1, global batch 2,048, sequence 4,096, the MLP of the dense
    // layers and the MLA up-projections recomputed, BF16 moments, the permutations and the loss
    // fused, the all-to-all dispatcher; TFLOP/s per GPU at each step of their optimization:
    // 494.46 (baseline), 540.00 (router fusion, after 529.55 from kernel work the model does not
    // see), 566.07 (DeepEP, a flex dispatcher), 610.71 (up-projections no longer recomputed, the
    // routed experts' activation instead), 663.27 (CUDA graphs of attn, moe_router and
    // moe_preprocess). Taken: MXFP8 (fp8_recipe mxfp8), no MTP module (the model has none).
    //
    // What it shows (docs/references.md, "DeepSeek-V3 on 256 GB200"): with Grace's host cost
    // (2.75 times an x86 host's a launch) the baseline comes 17.0% fast (19.7% before MXFP8's
    // own GEMM rate, models-31), where the GPUs' time
    // alone is 2.6 times the published figure; every rung moves the right way, but the model
    // gains far more than the run from the router's fusion (+27% against +2%): the kernels it
    // counts for the router are a larger share of a layer's host time than the run's, whose
    // host time lies in much else (the write-up's per-expert quantization buffers, swizzles and
    // Python), and it gains 1% where the run gained 8% from dropping the up-projections'
    // recomputation (their launches' host cost). DeepEP's calls over 32 NVLink ranks run at
    // its SMs' measured rate (the write-up, 2.2.1: about 400 GB/s dispatch and 190 combine
    // on 24 SMs; models-38), so the flex dispatcher gains +10% against the run's +5% (+19%
    // when they ran at the fabric's rate) and, the host no longer binding, the CUDA graphs
    // +9% against +9% (+41% before). The rungs run DeepEP with Megatron-Core's 20 SMs (the
    // write-up's commands name none). The errors as they stand:
    json workload = {{"model", "deepseek-v3"},
                     {"precision", "fp8"},
                     {"fp8_recipe", "mxfp8"},
                     {"tokens_billion", 1000},
                     {"sequence_length", 4096},
                     {"global_batch_sequences", 2048},
                     {"micro_batch_size", 1},
                     {"tensor_parallel", 1},
                     {"pipeline_parallel", 8},
                     {"pipeline_schedule", "interleaved"},
                     {"virtual_stages", 4},
                     {"expert_parallel", 32},
                     {"expert_tensor_parallel", 1},
                     {"embedding_and_loss_as_layers", true},
                     {"zero_stage", 1},
                     {"recompute", "selective"},
                     {"recompute_modules", {"mlp", "mla_up_proj"}},
                     {"optimizer_moments", "bf16"},
                     {"dropout", false},
                     {"fused_cross_entropy", true},
                     {"moe_permute_fusion", true}};
    json scenario = gb200Trays(256, workload, "deepseek-v3-gb200");
    struct Rung
    {
        const char* what;
        double published;
        double modelError; ///< The model's error as it stands.
    };
    const Rung rungs[] = {{"baseline", 494.46, 0.204},
                          {"router fusion", 540.00, 0.403},
                          {"DeepEP", 566.07, 0.445},
                          {"no up-projection recompute", 610.71, 0.352},
                          {"CUDA graphs", 663.27, 0.350}};
    for (std::size_t i = 0; i < std::size(rungs); ++i) {
        if (i == 1)
            scenario["workload"]["moe_router_fusion"] = true;
        if (i == 2)
            scenario["workload"]["moe_token_dispatcher"] = "flex";
        if (i == 3)
            scenario["workload"]["recompute_modules"] = {"mlp", "moe_act"};
        if (i == 4)
            scenario["workload"]["cuda_graph_scope"] = {"attn", "moe_router", "moe_preprocess"};
        const DocumentEvaluation d = evaluateDocument(scenario, heldOutCatalog(), "gb200.json");
        INFO(rungs[i].what << ": " << errors(d));
        REQUIRE(d.ok());
        const StepResult& s = d.evaluation->compute.step;
        const double tflops = s.modelFlopsPerStep / s.stepSeconds / 256.0 / 1e12;
        const double error = tflops / rungs[i].published - 1.0;
        INFO(rungs[i].what << ": " << tflops << " TFLOP/s per GPU, error " << error * 100.0
                           << "%, host wait " << s.hostWaitSeconds << " of " << s.stepSeconds
                           << " s");
        CHECK(error == Approx(rungs[i].modelError).margin(0.03));
    }
}

namespace {

/**
 * DeepSeek-V3 as Megatron-Bridge's 25.09 and 25.11 presets run it on 256 DGX B200 (PP 16, EP 8,
 * one MTP layer; the tests below cite them), in FP8 with \a recipe.
 */
json deepSeekV3BridgeB200(const char* recipe)
{
    return {{"model", "deepseek-v3"},
            {"precision", "fp8"},
            {"fp8_recipe", recipe},
            {"mtp_layers", 1},
            {"tokens_billion", 1000},
            {"sequence_length", 4096},
            {"global_batch_sequences", 2048},
            {"micro_batch_size", 1},
            {"tensor_parallel", 1},
            {"pipeline_parallel", 16},
            {"expert_parallel", 8},
            {"expert_tensor_parallel", 1},
            {"zero_stage", 1},
            {"recompute", "selective"},
            {"recompute_modules", {"mla_up_proj"}},
            {"gradient_precision", "bf16"},
            {"overlap_fraction", 1.0},
            {"dropout", false},
            {"fused_cross_entropy", true},
            {"moe_router_fusion", true},
            {"moe_permute_fusion", true},
            {"moe_shared_expert_overlap", true}};
}

} // namespace

TEST_CASE("Megatron-Bridge 25.09: DeepSeek-V3 on 256 B200 and 256 GB200 with the shared expert "
          "overlapped, held out",
          "[validation][training][heldout][moe][overlap]")
{
    // NVIDIA-NeMo/Megatron-Bridge, docs/performance-summary.md at tag v0.1.0rc4, "25.09 NeMo
    // Container", DeepSeekV3 (tokendrop): on 256 DGX B200 GPUs, global batch 2,048, micro-batch
    // 1, sequence 4,096, TP 1, PP 16, EP 8: 2,265 tokens/s per GPU; on 256 GB200, PP 4 x VP 4,
    // EP 64: 3,454 (the figures outside the parentheses: FP8 current scaling; in them, MXFP8).
    // The preset (scripts/performance/run_script.py at v0.1.0rc4): on B200 and GB200 token drop
    // (capacity factor 1, padded: every expert its balanced share), the all-to-all dispatcher,
    // no merged-step overlap and moe_shared_expert_overlap on; the MLA up-projections
    // recomputed; overlapped gradient reduce in BF16; no CUDA graphs. The recipe
    // (src/megatron/bridge/recipes/deepseek/deepseek_v3.py): router and permutation fusion,
    // Transformer Engine's fused loss, the layout of 4 layers a chunk with the embedding on the
    // first and one layer with the MTP layer and the loss on the last (mtp_num_layers 1).
    json workload = deepSeekV3BridgeB200("tensorwise");
    const auto evaluate = [](const json& scenario) {
        const DocumentEvaluation d = evaluateDocument(scenario, heldOutCatalog(), "deepseek.json");
        INFO(errors(d));
        REQUIRE(d.ok());
        return d;
    };
    const DocumentEvaluation b200 = evaluate(dgxB200(256, workload));
    const double b200Error = tokensPerGpuSecond(b200, 2048, 4096, 256) / 2265.0 - 1.0;
    json alone = workload;
    alone["moe_shared_expert_overlap"] = false;
    const DocumentEvaluation b200Alone = evaluate(dgxB200(256, alone));
    workload["pipeline_parallel"] = 4;
    workload["pipeline_schedule"] = "interleaved";
    workload["virtual_stages"] = 4;
    workload["expert_parallel"] = 64;
    const DocumentEvaluation nvl = evaluate(gb200Trays(256, workload, "deepseek-v3-gb200"));
    const double gb200Error = tokensPerGpuSecond(nvl, 2048, 4096, 256) / 3454.0 - 1.0;
    const StepResult& s = b200.evaluation->compute.step;
    const StepResult& g = nvl.evaluation->compute.step;
    // The model FLOPs a token, MTP layer counted, against the table's TFLOP/s per GPU over its
    // tokens per second per GPU (Megatron-Bridge counts them as Megatron-LM's training.py does):
    // 589 / 2,265 and 899 / 3,454, both 2.60e11 (2.50e11 without the MTP layer).
    const double tokensPerStep = 2048.0 * 4096.0;
    CHECK(s.modelFlopsPerStep / tokensPerStep == Approx(589e12 / 2265.0).epsilon(0.005));
    CHECK(g.modelFlopsPerStep / tokensPerStep == Approx(899e12 / 3454.0).epsilon(0.005));
    WARN("B200: error " << b200Error * 100.0 << "%, step " << s.stepSeconds << " s, all-to-all "
                        << s.expertParallelSeconds << " s, host wait " << s.hostWaitSeconds
                        << " s; GB200: error " << gb200Error * 100.0 << "%, step " << g.stepSeconds
                        << " s, all-to-all " << g.expertParallelSeconds << " s, host wait "
                        << g.hostWaitSeconds << " s");
    // The errors as they stand (docs/references.md, "The shared experts' overlap").
    CHECK(b200Error == Approx(0.338).margin(0.03));
    CHECK(gb200Error == Approx(-0.008).margin(0.03));
    // EP 8 inside a node: the all-to-all rides NVLink, and the shared expert's GEMMs hide most
    // of what is left of it. The stages are close: a stage of 4 layers paces with the overlap,
    // the last (a layer, the MTP layer and two output layers) without it, so the all-to-all is
    // compared a layer of the pacing stage.
    const StepResult& a = b200Alone.evaluation->compute.step;
    WARN("B200 without the shared expert's overlap: step "
         << a.stepSeconds << " s, all-to-all " << a.expertParallelSeconds << " s over "
         << a.pacingStageLayers << " layers (with it: " << s.pacingStageLayers << ")");
    CHECK(s.expertParallelSeconds / s.pacingStageLayers <
          a.expertParallelSeconds / a.pacingStageLayers);
    CHECK(s.stepSeconds < a.stepSeconds);
}

TEST_CASE("Megatron-Bridge 25.11: DeepSeek-V3 on 256 B200 in MXFP8 with its MTP layer, held out",
          "[validation][training][heldout][moe][mtp]")
{
    // NVIDIA-NeMo/Megatron-Bridge, docs/performance-summary.md at tag v0.2.1, "25.11 NeMo
    // Container", DGX-B200: DeepSeekV3 (w/ MTP) on 256 GPUs in FP8-MX, global batch 2,048,
    // micro-batch 1, sequence 4,096, TP 1, PP 16, EP 8: 2,139 tokens/s per GPU, 557 model
    // TFLOP/s per GPU. The preset (scripts/performance/configs/deepseek/workload_base_configs.py
    // and deepseek_llm_pretrain.py at v0.2.1): no token drop, the router forced to balance
    // (moe_router_force_load_balancing), the all-to-all dispatcher, router fusion, the MLA
    // up-projections recomputed, BF16 gradient reduce overlapped, no CUDA graphs; from the
    // recipe and the DeepSeek provider (src/megatron/bridge/recipes/deepseek/deepseek_v3.py,
    // models/deepseek/deepseek_provider.py): one MTP layer, permutation fusion, the shared
    // expert under the dispatch and combine. The same layout as the 25.09 row (the test above),
    // in MXFP8 a release later: the model misses both by about as much.
    const json workload = deepSeekV3BridgeB200("mxfp8");
    const DocumentEvaluation d = evaluateDocument(dgxB200(256, workload), heldOutCatalog(), "b200");
    INFO(errors(d));
    REQUIRE(d.ok());
    const StepResult& s = d.evaluation->compute.step;
    const double error = tokensPerGpuSecond(d, 2048, 4096, 256) / 2139.0 - 1.0;
    WARN("error " << error * 100.0 << "%, step " << s.stepSeconds << " s, host wait "
                  << s.hostWaitSeconds << " s");
    // The FLOPs a token the table counts (557 / 2,139 = 2.60e11, the MTP layer in it).
    CHECK(s.modelFlopsPerStep / (2048.0 * 4096.0) == Approx(557e12 / 2139.0).epsilon(0.005));
    CHECK(error == Approx(0.475).margin(0.03)); // the model's error as it stands
}

TEST_CASE("Megatron-Bridge 25.09: Qwen3-235B-A22B on 64 B200 with token drop, held out",
          "[validation][training][heldout][moe]")
{
    // The same table (docs/performance-summary.md at tag v0.1.0rc4, "25.09 NeMo Container",
    // DGX-B200): Qwen3_235B_a22B (tokendrop) on 64 GPUs, global batch 1,024, micro-batch 1,
    // sequence 4,096, TP 1, PP 8 x VP 2, EP 8: 4,104 tokens/s per GPU (FP8 current scaling).
    // The preset (scripts/performance/configs/qwen3/qwen3_235b_a22b_llm_pretrain.yaml and
    // run_script.py at v0.1.0rc4): token drop (capacity factor 1, padded), no recomputation, no
    // CUDA graphs, router fusion, Transformer Engine's fused loss, BF16 gradient reduce; the
    // recipe (src/megatron/bridge/recipes/qwen/qwen3_235b_a22b.py) counts the embedding and the
    // loss as pipeline layers (94 + 2 slots over 16 chunks) and overlaps the gradient reduce.
    // 16 local experts a GPU of 128: the model holds this row where it misses the DeepSeek-V3
    // B200 row of the same release (32 local experts; the test above).
    const json workload = {{"model", "qwen3-235b-a22b"},
                           {"precision", "fp8"},
                           {"fp8_recipe", "tensorwise"},
                           {"tokens_billion", 1000},
                           {"sequence_length", 4096},
                           {"global_batch_sequences", 1024},
                           {"micro_batch_size", 1},
                           {"tensor_parallel", 1},
                           {"pipeline_parallel", 8},
                           {"pipeline_schedule", "interleaved"},
                           {"virtual_stages", 2},
                           {"expert_parallel", 8},
                           {"expert_tensor_parallel", 1},
                           {"embedding_and_loss_as_layers", true},
                           {"zero_stage", 1},
                           {"recompute", "none"},
                           {"gradient_precision", "bf16"},
                           {"overlap_fraction", 1.0},
                           {"dropout", false},
                           {"fused_cross_entropy", true},
                           {"moe_router_fusion", true},
                           {"moe_permute_fusion", true}};
    const double error = nemoRowError(workload, true, 64, 1024, 4096, 4104.0);
    INFO("error " << error * 100.0 << "%");
    CHECK(error == Approx(-0.050).margin(0.03)); // the model's error as it stands
    CHECK(std::fabs(error) < 0.10);
}

TEST_CASE("Megatron-Bridge 26.08 on GB200 NVL72 with full-iteration CUDA graphs, held out",
          "[validation][training][heldout][moe][gb200][host]")
{
    // NVIDIA-NeMo/Megatron-Bridge, docs/performance-summary.md (commit 067f987), "26.08 NeMo
    // Container", pre-training, the DGX-GB200 rows in MXFP8 the model can lay out: DeepSeek-V3
    // on 256 GPUs (global batch 4,096, micro-batch 1, sequence 4,096, TP 1, PP 4 x VP 4, EP 64):
    // 4,912 tokens/s per GPU; Qwen3-30B-A3B on 8 (512, 4, EP 8): 39,936; Qwen3-235B-A22B on 256
    // (8,192, 1, PP 8 x VP 3, EP 32): 7,280. The recipes (src/megatron/bridge/perf_recipes/
    // qwen/gb200/qwen3_moe.py, *_gb200_fp8mx_config, and deepseek/gb200/deepseek_v3.py at the
    // same commit) run every one as one full-iteration CUDA graph (_enable_hybridep_full_
    // iteration_mxfp8 and _enable_deepseek_full_iteration_mxfp8: cuda_graph_impl
    // "full_iteration", the expert ranks' tokens bounded and stashed in pages), HybridEP on 32
    // SMs (_benchmark_common), the expert all-to-all overlapped with the weight gradients
    // delayed (overlap_moe_expert_parallel_comm, delay_wgrad_compute), router fusion, no
    // recomputation but DeepSeek's MLA up-projections, BF16 gradients, and FP8 attention where
    // the recipe sets it (below; fp8_attention, models-43: the GB300 rows 0.2-1.5 points closer,
    // the GB200 rows unmoved, the kernel's gain there about paying for its quantizations). Not
    // modelled: Transformer Engine's fused grouped MLP kernels
    // (NVTE_CUTEDSL_FUSED_GROUPED_MLP), the MXFP8 attention kernel where the recipe is MXFP8
    // (the catalog's FP8 attention rates are per-tensor FP8's; cudnn-frontend's GB300 run has
    // MXFP8 attention 10% slower forward at 4k).
    //
    // What it shows: the same two Qwen3 layouts ran 53% and 28% faster than in 26.04.01 (the
    // test above: 26,112 and 5,680 with per-layer graphs), where the model had the GB200 30B
    // 36% slow for the GPUs' wait on Grace's launches (8.8 s of a 15.7 s step): with the host
    // issuing nothing, the model's GPU time lands within 6% of the 26.08 run (7.0 s a step
    // against 6.6), the 235B within 10% and DeepSeek-V3 within 3%, none of them fitted (4%,
    // 7% and 2% while the B300's measured GEMM rate was taken whole for the GB200, models-41;
    // models-42 scales it to the GB200's 148 SMs). The GB300 rows, 7-14% slow while the GB300's
    // GEMMs took the GB200's rate, are within 6% at the GB300's measured one (models-55). The
    // errors as they stand:
    struct Row
    {
        bool gb300; ///< The DGX-GB300 row (GB300 NVL72 trays); false: DGX-GB200.
        const char* model;
        int gpus, batch, microBatch, pp, vp, ep;
        bool layersSplitWithEnds;
        double tokensPerGpu;
        double modelError; ///< The model's error as it stands.
    };
    const Row rows[] = {
        {false, "qwen3-30b-a3b", 8, 512, 4, 1, 1, 8, false, 39936, -0.039},
        {false, "qwen3-235b-a22b", 256, 8192, 1, 8, 3, 32, true, 7280, -0.072},
        {false, "deepseek-v3", 256, 4096, 1, 4, 4, 64, false, 4912, 0.042},
        // The DGX-GB300 rows of the same table, from the GB300 recipes at the same commit
        // (perf_recipes/qwen/gb300/qwen3_moe.py and deepseek/gb300/deepseek_v3.py, *_fp8mx_
        // config): the same full-iteration graphs, HybridEP and overlaps; Qwen3-30B at
        // micro-batch 8, Qwen3-235B at 2 on PP 4 x VP 12, DeepSeek-V3 on PP 2 x VP 8 with EP 32
        // and nothing recomputed (its layout "Et*4|(t*4|)*14tmL": 4 layers a chunk).
        {true, "qwen3-30b-a3b", 8, 512, 8, 1, 1, 8, false, 44544, -0.025},
        {true, "qwen3-235b-a22b", 256, 8192, 2, 4, 12, 32, true, 8816, -0.054},
        {true, "deepseek-v3", 256, 4096, 1, 2, 8, 32, false, 6288, -0.062},
    };
    for (const Row& row : rows) {
        const char* gpu = row.gb300 ? " GB300" : " GB200";
        INFO(row.model << " on " << row.gpus << gpu << ": published " << row.tokensPerGpu
                       << " tokens/s per GPU");
        json workload;
        if (std::string(row.model) == "deepseek-v3") {
            workload = deepSeekV3BridgeB200("mxfp8");
            workload["global_batch_sequences"] = row.batch;
            workload["moe_shared_expert_overlap"] = false;
            if (row.gb300) {
                workload["recompute"] = "none";
                workload.erase("recompute_modules");
            }
        } else {
            const NemoLayout layout{row.model, 4096, row.batch, row.microBatch,         1, 1,
                                    row.pp,    1,    row.vp,    row.layersSplitWithEnds};
            workload = hybridEpQwenWorkload(layout, row.ep);
        }
        workload["pipeline_parallel"] = row.pp;
        workload["pipeline_schedule"] = row.vp > 1 ? "interleaved" : "1f1b";
        workload["virtual_stages"] = row.vp;
        workload["expert_parallel"] = row.ep;
        workload["moe_token_dispatcher"] = "flex";
        workload["moe_flex_dispatcher_backend"] = "hybridep";
        workload["moe_flex_dispatcher_sms"] = 32;
        workload["moe_a2a_overlap"] = true;
        workload["cuda_graph_scope"] = {"full_iteration"};
        // FP8 attention where the recipe asks for it (mixed_precision.fp8_dot_product_attention):
        // every Qwen3 row (perf_recipes/qwen/common.py, _enable_hybridep_full_iteration_mxfp8)
        // and DeepSeek-V3 on GB300 (deepseek/gb300/deepseek_v3.py passes
        // fp8_dot_product_attention=True to _enable_deepseek_full_iteration_mxfp8; the GB200
        // recipe keeps its default, False).
        workload["fp8_attention"] = std::string(row.model) != "deepseek-v3" || row.gb300;
        const json scenario = row.gb300 ? blackwellUltra(true, row.gpus, workload)
                                        : gb200Trays(row.gpus, workload, "gb200");
        const DocumentEvaluation d = evaluateDocument(scenario, heldOutCatalog(), "grace");
        INFO(errors(d));
        REQUIRE(d.ok());
        const StepResult& s = d.evaluation->compute.step;
        CHECK(s.hostWaitSeconds == 0.0);
        const double error =
            tokensPerGpuSecond(d, row.batch, 4096, row.gpus) / row.tokensPerGpu - 1.0;
        INFO(row.model << " on" << gpu << ": error " << error * 100.0 << "%, step " << s.stepSeconds
                       << " s, expert all-to-all " << s.expertParallelSeconds << " s");
        CHECK(error == Approx(row.modelError).margin(0.03));
        // The GB200 rows within the issue's 10%; the GB300 rows run 7-15% faster than the model
        // has them, as every GPU-bound GB300 row does (the test above).
        if (!row.gb300)
            CHECK(std::fabs(error) < 0.10);
    }
}

TEST_CASE("Megatron-Bridge 26.08: gpt-oss-120b on GB300 and GB200 with full-iteration CUDA graphs, "
          "held out",
          "[validation][training][heldout][moe][window][gb200][gb300]")
{
    // NVIDIA-NeMo/Megatron-Bridge, docs/performance-summary.md (commit 067f987), "26.08 NeMo
    // Container", pre-training, GPT OSS 120B in MXFP8 on 64 GPUs, global batch 1,280, micro-batch
    // 4, sequence 4,096, TP 1, PP 1: DGX-GB300 with EP 16, 33,024 tokens/s per GPU; DGX-GB200
    // with EP 64, 28,672. The recipes (src/megatron/bridge/perf_recipes/gpt_oss/gb300/ and
    // gb200/gpt_oss.py, gpt_oss_120b_pretrain_64gpu_*_fp8mx_config, and gpt_oss/common.py,
    // _apply_gpt_oss_120b_full_iter_fp8mx_configs, at the same commit): one full-iteration CUDA
    // graph, HybridEP on 32 SMs, the expert all-to-all overlapped with the weight gradients
    // delayed, FP8 attention, router and permutation fusion, nothing recomputed (the 120B's base
    // recipe, recipes/gpt_oss/h100/gpt_oss.py, sets no recomputation), the fused cross entropy,
    // BF16 gradients. The model runs ahead of both (GB300 +12.6%, GB200 +22.5%), where it is
    // 2-7% behind the same table's Qwen3 and DeepSeek-V3 rows on the same GPUs (the test
    // above): about 20 points on this model alone, with the host out of the step, as the 26.04.01
    // rows without graphs have it (H100 +21.6%, GB300 +31.3%; B200 and B300 +51% and +56%). Not
    // modelled and all of it on that side: the attention sinks (softmax_type "learnable", cuDNN's
    // kernel for them), attention of head dimension 64 on Blackwell (whose forward is bound by
    // the softmax's exponentials: half the dimension, half the FLOPs per exponential),
    // docs/references.md.
    struct Row
    {
        bool gb300;
        int ep;
        double tokensPerGpu;
        double modelError; ///< The model's error as it stands.
    };
    const Row rows[] = {{true, 16, 33024, 0.126}, {false, 64, 28672, 0.225}};
    for (const Row& row : rows) {
        const char* gpu = row.gb300 ? " GB300" : " GB200";
        INFO("gpt-oss-120b on 64" << gpu << ": published " << row.tokensPerGpu
                                  << " tokens/s per GPU");
        json workload = gptOssWorkload(4, 1, row.ep);
        workload["precision"] = "fp8";
        workload["fp8_recipe"] = "mxfp8";
        workload["recompute"] = "none";
        workload.erase("recompute_modules");
        workload["moe_token_dispatcher"] = "flex";
        workload["moe_flex_dispatcher_backend"] = "hybridep";
        workload["moe_flex_dispatcher_sms"] = 32;
        workload["moe_a2a_overlap"] = true;
        workload["cuda_graph_scope"] = {"full_iteration"};
        workload["fp8_attention"] = true;
        const json scenario =
            row.gb300 ? blackwellUltra(true, 64, workload) : gb200Trays(64, workload, "gb200");
        const DocumentEvaluation d = evaluateDocument(scenario, heldOutCatalog(), "gpt-oss");
        INFO(errors(d));
        REQUIRE(d.ok());
        const StepResult& s = d.evaluation->compute.step;
        CHECK(s.hostWaitSeconds == 0.0);
        const double error = tokensPerGpuSecond(d, 1280, 4096, 64) / row.tokensPerGpu - 1.0;
        INFO("error " << error * 100.0 << "%, step " << s.stepSeconds << " s, expert all-to-all "
                      << s.expertParallelSeconds << " s, memory "
                      << value(d, "step.memory_total_gb") << " GB");
        CHECK(error == Approx(row.modelError).margin(0.03));
    }
}

TEST_CASE("torchtitan on 32 and 64 H200: Llama 3.1 8B with FSDP2, Float8 and FlashAttention-2 "
          "(Trainy), held out",
          "[validation][training][heldout][torchtitan]")
{
    // pytorch/torchtitan, benchmarks/llama3-8b_h200_202506_trainy-whitefiber.md (commit
    // b5bcd76): Llama 3.1 8B on 4 and 8 nodes of 8 H200 (NVLink inside, 400 Gb/s ConnectX-7 a
    // GPU between them), torchtitan e7c0cae with torch.compile and Float8 (torchao's dynamic
    // tensorwise scaling, the weights all-gathered in FP8), local batch 2 of 8,192 tokens
    // (train_configs/llama3_8b.toml at e7c0cae), FSDP over every GPU, one micro-batch a step:
    // 10,938 and 10,753 tokens/s per GPU. Another stack than Megatron-Core: PyTorch's
    // scaled_dot_product_attention on its flash backend, FlashAttention-2, on Hopper
    // (torchtitan/models/attention.py at e7c0cae: FLASH_ATTENTION first, cuDNN only from compute
    // capability 10.0), gradients reduce-scattered in fp32 (config_manager.py:
    // mixed_precision_reduce "float32"). Its per-op selective checkpointing recomputes every
    // second matrix multiply of a block (wk, wo and w3: 37% of the forward's linear FLOPs) and
    // keeps the attention; the model's nearest is selective recomputation of the attention (at
    // FlashAttention-2's rate about the same time). Not stated, so taken: an InfiniBand fabric,
    // rail-optimized, no dropout.
    // What it shows: with the fused attention's rates (cuDNN, as Transformer Engine runs it) the
    // model is 42-45% fast; at FlashAttention-2's measured rates (0.62 of cuDNN's on H100, Shah
    // et al. 2024, Figures 5-6) 21-24%: about 40% of the step time it missed. The rest is left
    // to this stack (the MPT rows above, PyTorch FSDP too, miss as much on H100).
    struct Row
    {
        int nodes;
        double tokensPerGpu;
        double modelError;      ///< With FlashAttention-2 (docs/references.md).
        double modelErrorFused; ///< With the fused attention's rates.
    };
    const Row rows[] = {{4, 10938, 0.214, 0.424}, {8, 10753, 0.236, 0.450}};
    for (const Row& row : rows) {
        const int gpus = 8 * row.nodes;
        const int batch = 2 * gpus;
        json workload = {{"model", "llama3-8b"},
                         {"precision", "fp8"},
                         {"fp8_recipe", "tensorwise"},
                         {"tokens_billion", 100},
                         {"sequence_length", 8192},
                         {"tensor_parallel", 1},
                         {"pipeline_parallel", 1},
                         {"global_batch_sequences", batch},
                         {"micro_batch_size", 2},
                         {"flash_attention", true},
                         {"attention_kernel", "flash2"},
                         {"recompute", "selective"},
                         {"zero_stage", 3},
                         {"overlap_fraction", 1.0},
                         {"gradient_precision", "fp32"},
                         {"dropout", false}};
        json scenario = dgxH100(gpus, workload);
        scenario["name"] = "h200";
        scenario["compute"]["node"] = "hgx-h200";
        scenario["network"]["tiers"] = 2;
        INFO(row.nodes << " nodes: published " << row.tokensPerGpu << " tokens/s per GPU");
        const DocumentEvaluation d = evaluateDocument(scenario, heldOutCatalog(), "h200");
        INFO(errors(d));
        REQUIRE(d.ok());
        const double error = tokensPerGpuSecond(d, batch, 8192, gpus) / row.tokensPerGpu - 1.0;
        scenario["workload"]["attention_kernel"] = "fused";
        const DocumentEvaluation f = evaluateDocument(scenario, heldOutCatalog(), "h200");
        REQUIRE(f.ok());
        const double fusedError = tokensPerGpuSecond(f, batch, 8192, gpus) / row.tokensPerGpu - 1.0;
        INFO("error " << error * 100.0 << "% (fused attention " << fusedError * 100.0 << "%)");
        CHECK(error == Approx(row.modelError).margin(0.03));
        CHECK(fusedError == Approx(row.modelErrorFused).margin(0.03));
        CHECK(std::fabs(error) < std::fabs(fusedError));
    }
}

TEST_CASE("MegaScale (NSDI 2024) Table 2: Megatron-LM's 175B on 256 to 12,288 Ampere GPUs, held "
          "out",
          "[validation][training][heldout][megascale]")
{
    // Jiang et al., "MegaScale: Scaling Large Language Model Training to More Than 10,000 GPUs"
    // (NSDI 2024, arXiv 2402.15627), Table 2: the baseline, Megatron-LM at commit 285068c8 (11
    // January 2023), on the 175B of Table 1 (TP 8, PP 8, the interleaved schedule with six
    // chunks a GPU, section 6.1), batch 768 on 256 to 1,024 GPUs and 6,144 on 3,072 to 12,288:
    // iteration seconds as printed. Megatron-LM of January 2023 as it ran by default: sequence
    // parallelism with selective recomputation (Korthikanti et al.), the attention unfused
    // (MegaScale's own "efficient operators" add FlashAttention-2, Table 3), the distributed
    // optimizer's gradients reduced in fp32 (arguments.py forces it with bf16) after the
    // backward pass, not overlapped (--overlap-grad-reduce came in August 2023), every pipeline
    // send and receive waited on (overlap_p2p_comm, October 2023), micro-batch 1. The paper
    // names its GPUs "NVIDIA Ampere GPUs" only: in a ByteDance cluster of 2023 taken as the
    // A800, the A100 with NVLink at 400 GB/s (the catalog's hgx-a800); on the A100's 600 GB/s
    // the tensor-parallel traffic is a third shorter and the rows come out 1.4-4.0 points
    // faster (both recorded).
    // What it shows: the step per micro-batch and its scaling with the batch's micro-batches are
    // the model's (256 GPUs within 5%), and its fixed part per step grows less with the
    // data-parallel size than the table's: the rows with 32-48 micro-batches a pipeline run
    // 6-9% fast on A800 (the published step has about 1 s a step more there). Mean absolute
    // error 4.5% on A800, 7.1% on A100.
    struct Row
    {
        int gpus, batch;
        double iterationSeconds;
        double modelError;     ///< Throughput error on A800 (docs/references.md).
        double modelErrorA100; ///< The same on A100.
    };
    const Row rows[] = {
        {256, 768, 40.0, -0.049, -0.010},  {512, 768, 21.2, -0.015, 0.024},
        {768, 768, 15.2, 0.036, 0.076},    {1024, 768, 11.9, 0.058, 0.098},
        {3072, 6144, 29.02, 0.020, 0.060}, {6144, 6144, 14.78, 0.004, 0.043},
        {8192, 6144, 12.24, 0.084, 0.126}, {12288, 6144, 8.57, 0.091, 0.131},
    };
    double absoluteErrors = 0.0;
    for (const Row& row : rows) {
        INFO(row.gpus << " GPUs, batch " << row.batch << ": published " << row.iterationSeconds
                      << " s an iteration");
        const json workload = megatronLm2023Workload("megascale-175b", 8, 6, row.batch);
        const DocumentEvaluation d =
            evaluateDocument(megaScale("hgx-a800", row.gpus, workload), heldOutCatalog(), "ms");
        INFO(errors(d));
        REQUIRE(d.ok());
        const DocumentEvaluation a =
            evaluateDocument(megaScale("dgx-a100", row.gpus, workload), heldOutCatalog(), "ms");
        REQUIRE(a.ok());
        const double error = row.iterationSeconds / value(d, "step.seconds") - 1.0;
        const double errorA100 = row.iterationSeconds / value(a, "step.seconds") - 1.0;
        INFO("error " << error * 100.0 << "% (A100 " << errorA100 * 100.0 << "%)");
        CHECK(error == Approx(row.modelError).margin(0.03));
        CHECK(errorA100 == Approx(row.modelErrorA100).margin(0.03));
        CHECK(std::fabs(error) <= 0.10);
        CHECK(errorA100 > error); // NVLink at 600 GB/s: the tensor-parallel traffic shorter
        absoluteErrors += std::fabs(error);
    }
    CHECK(absoluteErrors / std::size(rows) < 0.06);
}

TEST_CASE("MegaScale (NSDI 2024) Figure 9: Megatron-LM's 530B on 2,240 to 11,200 Ampere GPUs, "
          "held out",
          "[validation][training][heldout][megascale]")
{
    // The same paper's weak scaling of the 530B (Table 1: TP 8, PP 35, three chunks a GPU,
    // section 6.1), as many sequences a step as GPUs: Megatron-LM's MFU, read from Figure 9's
    // labels, 49.2%, 48.8% and 48.2% on 2,240, 4,480 and 11,200 GPUs; the stack as the 175B
    // rows above, on A800. The model is 13-15% above them, where it holds Korthikanti et al.'s
    // own 530B (56.0% with one data-parallel replica, the test above in
    // test_training_published.cpp) within 2%: not explained (see docs/references.md).
    struct Row
    {
        int gpus;
        double mfu;
        double modelError;
    };
    const Row rows[] = {{2240, 0.492, 0.130}, {4480, 0.488, 0.138}, {11200, 0.482, 0.152}};
    for (const Row& row : rows) {
        INFO(row.gpus << " GPUs: published MFU " << row.mfu);
        const json workload = megatronLm2023Workload("megascale-530b", 35, 3, row.gpus);
        const DocumentEvaluation d =
            evaluateDocument(megaScale("hgx-a800", row.gpus, workload), heldOutCatalog(), "ms");
        INFO(errors(d));
        REQUIRE(d.ok());
        const double error = value(d, "step.mfu") / row.mfu - 1.0;
        INFO("predicted MFU " << value(d, "step.mfu") << ", error " << error * 100.0 << "%");
        CHECK(error == Approx(row.modelError).margin(0.03));
    }
}

TEST_CASE("DeepSpeed's pipeline engine: BLOOM 176B and Megatron-Turing NLG 530B on A100, a "
          "known gap, held out",
          "[validation][training][heldout][deepspeed]")
{
    // Two runs of Megatron-DeepSpeed, DeepSpeed's pipeline engine in place of Megatron-LM's:
    // - BLOOM (bigscience-workshop/bigscience, train/tr11-176B-ml/README.md): 384 A100 80GB (48
    //   nodes, 4 Omni-Path 100 Gb/s links a node, taken as 2 x 200G InfiniBand rails, the same
    //   400 Gb/s), TP 4, PP 12, DP 8, micro-batch 2, batch 2,048 of 2,048 tokens, the embedding
    //   counted as pipeline layers (72 = 12 x 6), DeepSpeed activation checkpointing (full), its
    //   BF16 optimizer's ZeRO-1 (tr11-176B-ml.slurm: --bf16, DeepSpeed ZeRO stage 0, "bf16 must
    //   use z0! it implements its own zero stage 1 equivalent"): 104.70 s an iteration (its log
    //   line at the end of the first epoch, 149.77 TFLOP/s). Its gradients add up as that
    //   optimizer adds them (gradient_accumulation deepspeed_bf16: a bf16 gradient each
    //   micro-batch cast and added to an fp32 one; the fp32 gradients all-reduced).
    // - Megatron-Turing NLG 530B (Smith et al. 2022, arXiv 2201.11990, section 2.4, as several
    //   secondary sources quote it: "with a global batch size of 1920 on 280, 350, and 420 DGX
    //   A100 servers, we observe iteration times of 60.1, 50.2, and 44.4 seconds"; the FLOP
    //   count with recomputation gives back its 126 and 113 TFLOP/s): TP 8, PP 35, BF16,
    //   micro-batch 1 and full recomputation taken, on Selene's 8 x 200G HDR rails.
    //   MT-NLG predates the BF16 optimizer (DeepSpeed PR 1801, April 2022, brought bf16 to the
    //   pipeline engine), so its gradients are taken as accumulated in place (fused).
    // The model runs MT-NLG 35-40% fast and BLOOM about 20%, where Narayanan et al.'s 530B on
    // the same Selene with Megatron-LM's own pipeline is within 6% (test_training_published.cpp).
    // DeepSpeed's engine scatters its sends over the tensor ranks as Megatron-LM does
    // (deepspeed/runtime/pipe/engine.py: is_pipe_partitioned, on with tensor parallelism) and
    // waits on each; what else holds these runs back is not found (docs/references.md).
    // Recorded as they stand.
    struct Row
    {
        const char* model;
        int gpus, tp, pp, microBatch, batch;
        bool bloom;
        double iterationSeconds, modelError;
    };
    const Row rows[] = {{"bloom-176b", 384, 4, 12, 2, 2048, true, 104.70, 0.195},
                        {"megatron-gpt-530b", 2240, 8, 35, 1, 1920, false, 60.1, 0.346},
                        {"megatron-gpt-530b", 2800, 8, 35, 1, 1920, false, 50.2, 0.359},
                        {"megatron-gpt-530b", 3360, 8, 35, 1, 1920, false, 44.4, 0.398}};
    for (const Row& row : rows) {
        INFO(row.model << " on " << row.gpus << " GPUs: published " << row.iterationSeconds
                       << " s an iteration");
        const json workload = {{"model", row.model},
                               {"precision", "bf16"},
                               {"tokens_billion", 300},
                               {"tensor_parallel", row.tp},
                               {"pipeline_parallel", row.pp},
                               {"embedding_and_loss_as_layers", row.bloom},
                               {"global_batch_sequences", row.batch},
                               {"micro_batch_size", row.microBatch},
                               {"sequence_parallel", false},
                               {"recompute", "full"},
                               {"flash_attention", false},
                               {"zero_stage", 1},
                               {"overlap_fraction", 0.0},
                               {"gradient_precision", "fp32"},
                               {"gradient_accumulation", row.bloom ? "deepspeed_bf16" : "fused"}};
        json scenario = dgxA100(workload);
        scenario["compute"]["node_count"] = row.gpus / 8;
        if (row.bloom) {
            scenario["network"]["topology"] = "fat_tree";
            scenario["network"]["rails"] = 2;
        }
        const DocumentEvaluation d = evaluateDocument(scenario, heldOutCatalog(), "ds");
        INFO(errors(d));
        REQUIRE(d.ok());
        const double error = row.iterationSeconds / value(d, "step.seconds") - 1.0;
        INFO("error " << error * 100.0 << "%");
        CHECK(error == Approx(row.modelError).margin(0.03));
    }
}

TEST_CASE("Nemotron-4 340B (technical report, Table 2) on 1,536 to 6,144 H100, a known gap, held "
          "out",
          "[validation][training][heldout][nemotron]")
{
    // NVIDIA, "Nemotron-4 340B Technical Report" (arXiv 2406.11704), section 2.3 and Table 2:
    // 768 DGX H100 nodes at most, BF16, TP 8, PP 12 "with interleaving", the distributed
    // optimizer, data-parallel 16, 32 and 64 as the batch ramped from 768 to 1,536 and 2,304
    // sequences of 4,096: 10.3, 10.3 and 8.0 s an iteration (42.4, 42.3 and 41.0% MFU, which
    // the iteration times give back). Not stated, so taken from the NeMo recipe of the same
    // model (NeMo-Framework-Launcher, launcher_scripts/conf/training/nemotron/nemotron_340b.yaml:
    // micro-batch 1, one layer a virtual stage, sequence parallelism with the tensor-parallel
    // overlap, no recomputation, no dropout, fused attention, the distributed optimizer's
    // gradients in BF16 with the reduce-scatter and all-gather overlapped, overlap_p2p_comm).
    // The model runs these rows 25-27% fast (compute alone is 6.8 of the published 10.3 s),
    // where the Megatron-LM README's 462B of the same hidden size on the same kind of cluster
    // (test_training_published.cpp) is within 3%: per layer and micro-batch the published
    // Nemotron step is 13% slower than the README's at 16% fewer FLOPs (a third slower a
    // FLOP). Without interleaving the rows come out 3-6% fast, without the tensor-parallel
    // overlap 15-17%; with full recomputation, which the report does not state (NeMo's recipe
    // sets none, and the layout fits 80 GB without it), they come out within 1.5%, the batch's
    // ramp included. The same model as NVIDIA's 24.09 benchmarking recipe runs it (the last test
    // case) comes out 11-13% fast in BF16: the report's run is about 11% slower per layer and
    // micro-batch than the recipe's, the rest is the model's BF16 error on TP 8 layouts.
    // Recorded as it stands (docs/references.md).
    struct Row
    {
        int gpus, batch;
        double iterationSeconds, modelError;
    };
    const Row rows[] = {
        {1536, 768, 10.3, 0.253}, {3072, 1536, 10.3, 0.252}, {6144, 2304, 8.0, 0.270}};
    for (const Row& row : rows) {
        INFO(row.gpus << " GPUs, batch " << row.batch << ": published " << row.iterationSeconds
                      << " s an iteration");
        const NemoLayout layout{"nemotron4-340b", 4096, row.batch, 1, 1, 8, 12, 1, 8, false};
        json workload = nemoFp8Workload(layout);
        workload["precision"] = "bf16";
        workload["dropout"] = false;
        const DocumentEvaluation d =
            evaluateDocument(dgxH100(row.gpus, workload), heldOutCatalog(), "nemotron");
        INFO(errors(d));
        REQUIRE(d.ok());
        const double error = row.iterationSeconds / value(d, "step.seconds") - 1.0;
        INFO("error " << error * 100.0 << "%, MFU " << value(d, "step.mfu"));
        CHECK(error == Approx(row.modelError).margin(0.03));
        // The published MFU is the iteration time's: 6 N D over the step at 989 TFLOP/s.
        CHECK(value(d, "step.mfu") > 0.48);

        workload["recompute"] = "full";
        const DocumentEvaluation full =
            evaluateDocument(dgxH100(row.gpus, workload), heldOutCatalog(), "nemotron");
        REQUIRE(full.ok());
        const double fullError = row.iterationSeconds / value(full, "step.seconds") - 1.0;
        INFO("with full recomputation: error " << fullError * 100.0 << "%");
        CHECK(std::fabs(fullError) < 0.015);
    }
}

TEST_CASE("NVIDIA DGX Cloud Benchmarking (NeMo 24.09) on DGX H100 in BF16 and FP8, held out",
          "[validation][training][heldout][dgxc]")
{
    // NVIDIA/dgxc-benchmarking, the recipes' README tables of training step time on 128 to 2,048
    // H100 (weak scaling: the global batch grows with the GPUs), container NeMo 24.09, each run
    // in BF16 and in FP8 on the same layout:
    // - nemo_megatron/README_175b.md (commit 0b71cfda): GPT-3 175B, sequence 2,048, TP 4, PP 8,
    //   VP 12, micro-batch 1, batch 2 a GPU; gpt3_175b_hydra.yaml (35a9aecc): dropout 0.1, no
    //   recomputation, sequence parallelism with the tensor-parallel overlap, overlap_p2p_comm,
    //   the distributed optimizer with BF16 gradients, overlapped;
    // - llama3.1/README_70b.md and README_405b.md (commit 143b90dd): Llama 3.1 70B, sequence
    //   8,192, TP 4, PP 4, CP 2, VP 5, batch 2 a GPU; Llama 3.1 405B, TP 8, PP 9, CP 2, VP 7,
    //   batch 252 on 576 GPUs and in proportion (the smaller "proxy" rows, with fewer layers,
    //   left out); configure.sh (143b90dd): fused attention (NVTE_FUSED_ATTN=1), NVLS off, FP8
    //   weights in FP8 runs;
    // - nemotron/README_340b.md (commit 35a9aecc): Nemotron-4 340B, sequence 4,096, TP 8, PP 8,
    //   VP 12, micro-batch 1, batch a quarter of the GPUs; configure.sh (35a9aecc):
    //   NVTE_FUSED_ATTN=0 (Transformer Engine's FlashAttention-2 backend), overlap_p2p_comm,
    //   the tensor-parallel overlap; nemotron4-340b-synth.yaml (8f5cbb37): no dropout,
    //   selective recomputation (core attention), the distributed optimizer's states in BF16.
    // What a recipe does not state is taken as the NeMo 24.07 rows above take it. The published
    // figure is the step time; Llama 3.1 has the shape of the catalog's Llama 3 70B and 405B.
    struct Row
    {
        const char* model;
        int sequence, tp, pp, cp, vp, gpus, batch;
        bool fp8;
        double stepSeconds;
        double modelError; ///< The model's error as it stands (docs/references.md).
    };
    const Row rows[] = {
        {"gpt3-175b", 2048, 4, 8, 1, 12, 128, 256, false, 8.309, 0.045},
        {"gpt3-175b", 2048, 4, 8, 1, 12, 256, 512, false, 8.408, 0.055},
        {"gpt3-175b", 2048, 4, 8, 1, 12, 512, 1024, false, 8.42, 0.052},
        {"gpt3-175b", 2048, 4, 8, 1, 12, 1024, 2048, false, 8.453, 0.056},
        {"gpt3-175b", 2048, 4, 8, 1, 12, 2048, 4096, false, 8.49, 0.060},
        {"gpt3-175b", 2048, 4, 8, 1, 12, 128, 256, true, 5.626, 0.012},
        {"gpt3-175b", 2048, 4, 8, 1, 12, 256, 512, true, 5.725, 0.026},
        {"gpt3-175b", 2048, 4, 8, 1, 12, 512, 1024, true, 5.774, 0.029},
        {"gpt3-175b", 2048, 4, 8, 1, 12, 1024, 2048, true, 5.82, 0.036},
        {"gpt3-175b", 2048, 4, 8, 1, 12, 2048, 4096, true, 5.96, 0.061},
        {"llama3-70b", 8192, 4, 4, 2, 5, 64, 128, false, 14.72, 0.147},
        {"llama3-70b", 8192, 4, 4, 2, 5, 128, 256, false, 14.73, 0.148},
        {"llama3-70b", 8192, 4, 4, 2, 5, 256, 512, false, 14.8, 0.154},
        {"llama3-70b", 8192, 4, 4, 2, 5, 512, 1024, false, 14.89, 0.160},
        {"llama3-70b", 8192, 4, 4, 2, 5, 1024, 2048, false, 14.92, 0.163},
        {"llama3-70b", 8192, 4, 4, 2, 5, 2048, 4096, false, 14.98, 0.167},
        {"llama3-70b", 8192, 4, 4, 2, 5, 64, 128, true, 11.01, 0.155},
        {"llama3-70b", 8192, 4, 4, 2, 5, 128, 256, true, 10.93, 0.144},
        {"llama3-70b", 8192, 4, 4, 2, 5, 256, 512, true, 11.16, 0.167},
        {"llama3-70b", 8192, 4, 4, 2, 5, 512, 1024, true, 11.18, 0.167},
        {"llama3-70b", 8192, 4, 4, 2, 5, 1024, 2048, true, 11.28, 0.177},
        {"llama3-70b", 8192, 4, 4, 2, 5, 2048, 4096, true, 11.39, 0.189},
        {"llama3-405b", 8192, 8, 9, 2, 7, 576, 252, false, 17.2, 0.100},
        {"llama3-405b", 8192, 8, 9, 2, 7, 1152, 504, false, 17.52, 0.118},
        {"llama3-405b", 8192, 8, 9, 2, 7, 2304, 1008, false, 17.62, 0.124},
        {"llama3-405b", 8192, 8, 9, 2, 7, 576, 252, true, 11.24, -0.018},
        {"llama3-405b", 8192, 8, 9, 2, 7, 1152, 504, true, 11.31, -0.015},
        {"llama3-405b", 8192, 8, 9, 2, 7, 2304, 1008, true, 12.35, 0.074},
        {"nemotron4-340b", 4096, 8, 8, 1, 12, 128, 32, false, 4.61, 0.132},
        {"nemotron4-340b", 4096, 8, 8, 1, 12, 256, 64, false, 4.67, 0.121},
        {"nemotron4-340b", 4096, 8, 8, 1, 12, 512, 128, false, 4.7, 0.107},
        {"nemotron4-340b", 4096, 8, 8, 1, 12, 1024, 256, false, 4.73, 0.107},
        {"nemotron4-340b", 4096, 8, 8, 1, 12, 2048, 512, false, 4.84, 0.129},
        {"nemotron4-340b", 4096, 8, 8, 1, 12, 128, 32, true, 3.16, 0.027},
        {"nemotron4-340b", 4096, 8, 8, 1, 12, 256, 64, true, 3.21, 0.009},
        {"nemotron4-340b", 4096, 8, 8, 1, 12, 512, 128, true, 3.26, 0.000},
        {"nemotron4-340b", 4096, 8, 8, 1, 12, 1024, 256, true, 3.34, 0.016},
        {"nemotron4-340b", 4096, 8, 8, 1, 12, 2048, 512, true, 3.49, 0.057},
    };
    double errorSum = 0.0;
    int within10 = 0;
    for (const Row& row : rows) {
        INFO(row.model << " on " << row.gpus << " H100 in " << (row.fp8 ? "FP8" : "BF16")
                       << ": published " << row.stepSeconds << " s a step");
        const NemoLayout layout{row.model, row.sequence, row.batch, 1,      1,
                                row.tp,    row.pp,       row.cp,    row.vp, false};
        json workload = nemoFp8Workload(layout);
        if (!row.fp8)
            workload["precision"] = "bf16";
        if (std::string(row.model) == "nemotron4-340b") {
            workload["attention_kernel"] = "flash2";
            workload["recompute"] = "selective";
            workload["recompute_modules"] = {"core_attn"};
            workload["optimizer_moments"] = "bf16";
            workload["dropout"] = false;
        }
        const DocumentEvaluation d =
            evaluateDocument(dgxH100(row.gpus, workload), heldOutCatalog(), "dgxc");
        INFO(errors(d));
        REQUIRE(d.ok());
        const double error = row.stepSeconds / value(d, "step.seconds") - 1.0;
        INFO("model " << value(d, "step.seconds") << " s, error " << error * 100.0 << "%");
        CHECK(error == Approx(row.modelError).margin(0.03));
        errorSum += std::fabs(error);
        within10 += std::fabs(error) < 0.10 ? 1 : 0;
    }
    // Mean absolute error 9.3%, 18 of the 38 rows within 10%: GPT-3 175B within 6.1% in both
    // precisions, Llama 3.1 405B and Nemotron-4 340B within 7.5% in FP8 and 10-13% fast in
    // BF16, Llama 3.1 70B 15-19% fast in both (docs/references.md).
    CHECK(errorSum / std::size(rows) < 0.10);
    CHECK(within10 >= 18);
}
