// The step model: the layout's validation errors, the memory fit, the explicit MFU override and
// the dense model synthesized for scenarios that give only parameters_billion.
#include "dct/model/pipelinesplit.h"
#include "dct/solvers/documentevaluation.h"
#include "dct/solvers/stepbreakdown.h"
#include "dct/solvers/stepmodel.h"
#include "testsupport.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <functional>
#include <numeric>
#include <random>
#include <set>
#include <utility>
#include <vector>

using namespace dct;
using namespace dct::solvers;
using nlohmann::json;

namespace {

/** 64 DGX H100 nodes on a rail-optimized InfiniBand fabric training \a workload. */
json cluster(const json& workload, int nodes = 64)
{
    return {{"schema_version", 2},
            {"name", "step"},
            {"site", "dallas"},
            {"compute", {{"node", "dgx-h100"}, {"node_count", nodes}}},
            {"network",
             {{"protocol", "infiniband"},
              {"topology", "rail_optimized"},
              {"switch", "qm9700"},
              {"routing", "static_pinned"}}},
            {"cooling", {{"system", "d2c-rdhx"}}},
            {"workload", workload}};
}

DocumentEvaluation run(const json& workload, int nodes = 64)
{
    return evaluateDocument(cluster(workload, nodes), test::catalog(), "step.json");
}

/** Evaluates \a scenario and requires it to succeed, its diagnostics shown where it does not. */
DocumentEvaluation evaluateOk(const json& scenario, const char* name = "step.json")
{
    DocumentEvaluation d = evaluateDocument(scenario, test::catalog(), name);
    std::string text;
    for (const auto& x : d.diagnostics)
        text += x.toString() + "\n";
    INFO(text);
    REQUIRE(d.ok());
    return d;
}

/** run(), required to succeed. */
DocumentEvaluation runOk(const json& workload, int nodes = 64)
{
    return evaluateOk(cluster(workload, nodes));
}

const Diagnostic* findError(const DocumentEvaluation& d, const std::string& path,
                            const std::string& code)
{
    for (const auto& x : d.diagnostics)
        if (x.severity == Severity::Error && x.path == path && x.code == code)
            return &x;
    return nullptr;
}

double metric(const DocumentEvaluation& d, const std::string& key)
{
    REQUIRE(d.evaluation);
    const Metric* m = d.evaluation->metric(key);
    REQUIRE(m);
    return m->value;
}

/** Mixtral 8x7B on 4 pipeline stages and 8 expert-parallel ranks, \a model its catalog entry. */
json mixtralWorkload(const json& model = "mixtral-8x7b")
{
    return {{"model", model},       {"tensor_parallel", 1},          {"pipeline_parallel", 4},
            {"expert_parallel", 8}, {"global_batch_sequences", 512}, {"sequence_length", 4096},
            {"recompute", "full"}};
}

} // namespace

TEST_CASE("a layout that does not split the architecture is an error naming the field",
          "[compute][step][validation]")
{
    // Llama 2 7B: 32 heads, 32 layers.
    const auto heads = run({{"model", "llama2-7b"}, {"tensor_parallel", 3}}, 48);
    CHECK(findError(heads, "/workload/tensor_parallel", "layout"));
    const auto layers = run({{"model", "llama2-7b"},
                             {"pipeline_parallel", 4},
                             {"pipeline_schedule", "interleaved"},
                             {"virtual_stages", 3},
                             {"global_batch_sequences", 1024}});
    CHECK(findError(layers, "/workload/virtual_stages", "layout"));
    const auto experts =
        run({{"model", "mixtral-8x7b"}, {"tensor_parallel", 1}, {"expert_parallel", 3}}, 48);
    CHECK(findError(experts, "/workload/expert_parallel", "layout"));
    const auto dense = run({{"model", "llama2-7b"}, {"expert_parallel", 2}});
    CHECK(findError(dense, "/workload/expert_parallel", "layout"));
    const auto fine = run({{"model", "llama2-7b"}, {"tensor_parallel", 8}});
    CHECK(fine.ok());
}

TEST_CASE("a layout that does not fit in HBM is an error naming the field and the shortfall",
          "[compute][step][memory]")
{
    // Llama 3 70B on one GPU's worth of model parallelism: 70 B x 16 bytes of state per GPU.
    const auto d = run({{"model", "llama3-70b"}, {"tensor_parallel", 1}, {"zero_stage", 0}});
    const Diagnostic* e = findError(d, "/workload/zero_stage", "memory-fit");
    REQUIRE(e);
    CHECK(e->message.find("GB short") != std::string::npos);
    CHECK(e->message.find("h100-sxm5") != std::string::npos);
    REQUIRE(d.evaluation);
    CHECK(d.evaluation->verdict().feasibility == Feasibility::Infeasible);
    CHECK(metric(d, "step.memory_total_gb") > 80.0);

    // Activations too large: the remedy is recomputation.
    const auto act = run({{"model", "llama3-70b"},
                          {"tensor_parallel", 8},
                          {"pipeline_parallel", 8},
                          {"recompute", "none"},
                          {"micro_batch_size", 8},
                          {"global_batch_sequences", 512}});
    CHECK(findError(act, "/workload/recompute", "memory-fit"));

    // The same model sharded enough fits.
    const auto fits = run({{"model", "llama3-70b"},
                           {"tensor_parallel", 8},
                           {"pipeline_parallel", 4},
                           {"recompute", "selective"}});
    CHECK(fits.ok());
    CHECK(metric(fits, "step.memory_headroom_gb") > 0.0);
}

TEST_CASE("ZeRO stages shard the model states as Rajbhandari et al. count them",
          "[compute][step][memory]")
{
    // More sharding, less memory; stage 3 shards the weights too.
    double previous = 1e30;
    for (int stage = 0; stage <= 3; ++stage) {
        const auto d =
            run({{"model", "llama2-13b"}, {"tensor_parallel", 8}, {"zero_stage", stage}});
        const double states = metric(d, "step.memory_weights_gb") +
                              metric(d, "step.memory_gradients_gb") +
                              metric(d, "step.memory_optimizer_gb");
        INFO("stage " << stage);
        CHECK(states < previous);
        previous = states;
    }
}

TEST_CASE("an explicit MFU overrides the prediction and says so", "[compute][step][mfu]")
{
    const auto predicted = run({{"model", "llama2-13b"}});
    REQUIRE(predicted.ok());
    const double mfu = metric(predicted, "step.mfu");
    CHECK(mfu > 0.2);
    CHECK(mfu < 0.8);
    CHECK(metric(predicted, "compute.mfu") == Approx(mfu));

    const auto fixed = run({{"model", "llama2-13b"}, {"mfu", 0.25}});
    REQUIRE(fixed.ok());
    CHECK(metric(fixed, "compute.mfu") == Approx(0.25));
    const bool noted =
        std::any_of(fixed.diagnostics.begin(), fixed.diagnostics.end(), [](const Diagnostic& x) {
            return x.code == "mfu-override" && x.path == "/workload/mfu";
        });
    CHECK(noted);
    // The predicted step is still reported beside it.
    CHECK(metric(fixed, "step.mfu") == Approx(mfu));
}

TEST_CASE("a scenario with only parameters_billion gets a synthesized dense architecture",
          "[compute][step][model]")
{
    const auto d = run({{"parameters_billion", 70}, {"pipeline_parallel", 4}});
    REQUIRE(d.ok());
    REQUIRE(d.resolved);
    const model::ModelSpec& m = d.resolved->model;
    CHECK(d.resolved->modelSynthesized);
    CHECK(m.parameters() == Approx(70e9).epsilon(0.05));
    CHECK(m.layers % 4 == 0);
    CHECK(m.heads % 8 == 0);
    CHECK(m.hiddenSize == 128 * m.heads);
    CHECK(metric(d, "step.parameters_billion") == Approx(70.0).epsilon(0.05));
    CHECK(d.resolved->provenance.at("/workload/model/layers").source.find("synthesized") !=
          std::string::npos);
}

TEST_CASE("catalog models have the sizes their papers state", "[compute][step][model]")
{
    struct Row
    {
        const char* id;
        double totalBillion;
        double activeBillion;
    };
    // GPT-3 175B (Brown et al. 2020 Table 2.1); Llama 2 (Touvron et al. 2023 Table 1); Llama 3
    // (Dubey et al. 2024 Table 3); Mixtral 46.7 B / 12.9 B active (Jiang et al. 2024 section 2);
    // DeepSeek-V3 671 B / 37 B active without its 14 B MTP module (technical report, 4.2);
    // Megatron GPT 1T = 1008 B (Narayanan et al. 2021 Table 1).
    const Row rows[] = {{"gpt3-175b", 175, 175},
                        {"llama2-7b", 6.7, 6.7},
                        {"llama2-70b", 69, 69},
                        {"llama3-8b", 8.0, 8.0},
                        {"llama3-405b", 405, 405},
                        {"mixtral-8x7b", 46.7, 12.9},
                        {"deepseek-v3", 671, 37},
                        {"megatron-gpt-1t", 1008, 1008},
                        {"megatron-gpt-145b", 145.6, 145.6}};
    for (const Row& row : rows) {
        INFO(row.id);
        const auto& m = test::catalog().models().entries.at(row.id);
        CHECK(m.parameters() / 1e9 == Approx(row.totalBillion).epsilon(0.03));
        CHECK(m.activeParameters() / 1e9 == Approx(row.activeBillion).epsilon(0.03));
    }
}

TEST_CASE("expert parallelism puts all-to-all traffic on the fabric", "[compute][step][moe]")
{
    const auto d = run(mixtralWorkload());
    REQUIRE(d.ok());
    CHECK(metric(d, "step.expert_parallel_seconds") > 0.0);
    CHECK(metric(d, "step.bubble_seconds") > 0.0);
    CHECK(metric(d, "step.pipeline_sendrecv_seconds") > 0.0);
}

TEST_CASE("the all-to-all dispatcher sends top-k rows a token, a flex one a copy a rank or node "
          "reached",
          "[compute][step][moe]")
{
    // Mixtral on TP 2 with its experts split over both tensor ranks: the 8 expert-parallel
    // ranks are 2 apart, 4 on a node, 2 nodes.
    json workload = mixtralWorkload();
    workload["tensor_parallel"] = 2;
    workload["expert_tensor_parallel"] = 2;
    auto seconds = [&](const char* dispatcher, int maxNodes) {
        json w = workload;
        w["model"] = {{"id", "mixtral-8x7b"}, {"routing_max_nodes", maxNodes}};
        w["moe_token_dispatcher"] = dispatcher;
        return metric(runOk(w), "step.expert_parallel_seconds");
    };
    // Megatron-Core's all-to-all dispatcher permutes a row a (token, expert) pair: node-limited
    // routing does not change what it sends.
    const double alltoall = seconds("alltoall", 0);
    CHECK(seconds("alltoall", 1) == Approx(alltoall));
    // A flex dispatcher sends a token once to each node its two experts of eight reach
    // (2 x (1 - C(4,2)/C(8,2)) = 1.57 nodes, not 2), and once with routing to one node. With
    // top-2 that saves little: every node copy, the own node's too, goes through the scale-out
    // leg's channels as DeepEP's measured rates count them, where the all-to-all dispatcher's
    // copy for its own node stays on NVLink.
    const double flex = seconds("flex", 0);
    CHECK(flex > 0.0);
    // The copies are a figure of the evaluation: two rows a token, 1.57 nodes.
    json w = workload;
    CHECK(metric(runOk(w), "step.expert_dispatch_copies") == Approx(2.0));
    w["moe_token_dispatcher"] = "flex";
    CHECK(metric(runOk(w), "step.expert_dispatch_copies") ==
          Approx(2.0 * (1.0 - 6.0 / 28.0)).epsilon(1e-9));
    CHECK(seconds("flex", 1) == Approx(flex / 1.57).epsilon(0.05));
}

TEST_CASE("routing groups that do not split the experts, or a limit above them, are errors",
          "[compute][step][moe][validation]")
{
    json workload = mixtralWorkload();
    workload["model"] = {{"id", "mixtral-8x7b"}, {"routing_groups", 3}};
    CHECK(findError(run(workload), "/workload/model/routing_groups", "architecture"));
    workload["model"] = {{"id", "mixtral-8x7b"}, {"routing_groups", 4}, {"routing_max_nodes", 5}};
    CHECK(findError(run(workload), "/workload/model/routing_max_nodes", "architecture"));
    workload["model"] = {{"id", "mixtral-8x7b"}, {"routing_groups", 4}, {"routing_max_nodes", 2}};
    CHECK(run(workload).ok());
}

TEST_CASE("the ranks and nodes a token's experts reach, as a simulated router draws them",
          "[compute][step][moe]")
{
    // The router as Megatron-Core's group_limited_topk draws it for evenly loaded experts:
    // routing_max_nodes of the groups (the nodes without routing_groups), then top-k distinct
    // experts among theirs; the distinct units (ranks or nodes of consecutive experts) counted.
    auto simulate = [](const model::ModelSpec& m, int units, int nodes) {
        std::mt19937 rng(2412);
        const int groups = m.routingGroups > 0 ? m.routingGroups : nodes;
        const int limit =
            m.routingMaxNodes > 0 && m.routingMaxNodes < groups ? m.routingMaxNodes : groups;
        const int perGroup = m.experts / groups;
        const int perUnit = m.experts / units;
        std::vector<int> order(static_cast<std::size_t>(groups));
        std::iota(order.begin(), order.end(), 0);
        std::vector<int> pool;
        const int trials = 20000;
        double reached = 0.0;
        for (int t = 0; t < trials; ++t) {
            std::shuffle(order.begin(), order.end(), rng);
            pool.clear();
            for (int g = 0; g < limit; ++g)
                for (int e = 0; e < perGroup; ++e)
                    pool.push_back(order[static_cast<std::size_t>(g)] * perGroup + e);
            std::shuffle(pool.begin(), pool.end(), rng);
            std::set<int> hit;
            for (int i = 0; i < m.activeExperts; ++i)
                hit.insert(pool[static_cast<std::size_t>(i)] / perUnit);
            reached += static_cast<double>(hit.size());
        }
        return reached / trials;
    };
    const model::ModelSpec& deepSeek = test::catalog().models().entries.at("deepseek-v3");
    REQUIRE(deepSeek.routingGroups == 8);
    REQUIRE(deepSeek.routingMaxNodes == 4);
    model::ModelSpec byNodes = deepSeek; // Node-limited routing with the nodes as the groups.
    byNodes.routingGroups = 0;
    const model::ModelSpec& qwen = test::catalog().models().entries.at("qwen3-30b-a3b");
    struct Case
    {
        const model::ModelSpec* model;
        int units, nodes;
    };
    const Case cases[] = {
        {&qwen, 8, 1},      // One node of 8 ranks, 16 experts each: no limit.
        {&qwen, 2, 2},      // Its two nodes of an EP 16.
        {&deepSeek, 8, 1},  // EP 8: a group a rank, at most 4 ranks.
        {&deepSeek, 64, 8}, // EP 64's ranks: 4 experts each, in 4 of 8 groups.
        {&deepSeek, 8, 8},  // EP 64's nodes: a group a node.
        {&deepSeek, 4, 4},  // EP 32's nodes: two groups a node.
        {&byNodes, 16, 2},  // EP 16 on 2 nodes: 4 of 2 nodes is no limit.
        {&byNodes, 4, 4},   // A node limit of 4 of 4 nodes, neither.
    };
    for (const Case& c : cases) {
        INFO(c.model->id << ": " << c.units << " units on " << c.nodes << " nodes");
        const double reached = expertUnitsReached(*c.model, c.units, c.nodes);
        CHECK(reached == Approx(simulate(*c.model, c.units, c.nodes)).epsilon(0.02));
        CHECK(reached <= std::min(c.units, c.model->activeExperts));
    }
    // Closed forms: Qwen3-30B-A3B on 8 ranks, 8 x (1 - C(112,8)/C(128,8)); DeepSeek-V3 on 8
    // nodes, 4 of the 8 groups chosen, each reached unless all 8 experts miss its 32 of 128.
    CHECK(expertUnitsReached(qwen, 8, 1) == Approx(5.34).epsilon(0.01));
    CHECK(expertUnitsReached(deepSeek, 8, 8) == Approx(3.62).epsilon(0.01));
}

TEST_CASE("expert tensor parallelism folds the expert-parallel group over the tensor ranks",
          "[compute][step][moe]")
{
    // Qwen3-235B-A22B as Megatron-Bridge lays it out on 256 H100: TP 2, PP 8, VP 4, EP 32 with
    // experts whole on each rank (expert_tensor_parallel 1). The data-parallel size is 16: EP 32
    // is folded over TP 2 x DP 16 (MoE parallel folding).
    json workload = {{"model", "qwen3-235b-a22b"},
                     {"precision", "fp8"},
                     {"tensor_parallel", 2},
                     {"pipeline_parallel", 8},
                     {"pipeline_schedule", "interleaved"},
                     {"virtual_stages", 4},
                     {"embedding_and_loss_as_layers", true},
                     {"expert_parallel", 32},
                     {"global_batch_sequences", 2048},
                     {"sequence_length", 4096},
                     {"recompute", "none"},
                     {"dropout", false}};
    // At the default (expert tensor parallelism = TP 2) the grid 32 x 2 does not divide 2 x 16.
    const auto unfolded = run(workload, 32);
    CHECK(findError(unfolded, "/workload/expert_parallel", "layout"));
    workload["expert_tensor_parallel"] = 1;
    const auto folded = run(workload, 32);
    INFO(folded.diagnostics.size());
    REQUIRE(folded.ok());
    CHECK(metric(folded, "step.expert_parallel_seconds") > 0.0);

    // The same layout on EP 16 both ways: whole experts hold twice the expert weights of
    // experts split over the two tensor ranks, and their MLP has no tensor-parallel collective.
    workload["expert_parallel"] = 16;
    workload["expert_tensor_parallel"] = 0;
    const auto split = run(workload, 32);
    REQUIRE(split.ok());
    workload["expert_tensor_parallel"] = 1;
    const auto whole = run(workload, 32);
    REQUIRE(whole.ok());
    CHECK(metric(whole, "step.memory_weights_gb") > metric(split, "step.memory_weights_gb"));
    CHECK(metric(whole, "step.tensor_parallel_seconds") <
          metric(split, "step.tensor_parallel_seconds"));

    // An expert tensor parallelism that does not split the experts' FFN (1,536) is an error.
    workload["expert_tensor_parallel"] = 5;
    const auto uneven = run(workload, 32);
    CHECK(findError(uneven, "/workload/expert_tensor_parallel", "layout"));
}

TEST_CASE("routed experts are timed by shape: few tokens an expert run below the matrix rate",
          "[compute][step][moe][gemm]")
{
    // Qwen3-30B-A3B on one DGX H100, EP 8 (ZeRO 3 to fit): 16 local experts of 768, top 8 of 128.
    auto shape = [](int microBatch, int expertFfn) {
        const json workload = {
            {"model", {{"id", "qwen3-30b-a3b"}, {"expert_ffn_hidden_size", expertFfn}}},
            {"tensor_parallel", 1},
            {"expert_parallel", 8},
            {"micro_batch_size", microBatch},
            {"global_batch_sequences", 64},
            {"sequence_length", 4096},
            {"recompute", "full"},
            {"zero_stage", 3},
            {"dropout", false}};
        const auto d = run(workload, 1);
        INFO(d.diagnostics.size());
        REQUIRE(d.ok());
        return metric(d, "step.matmul_shape_efficiency");
    };
    // 4,096 tokens a micro-batch put 2,048 on each local expert; 128-wide experts leave most of
    // a 128 x 256 tile's second dimension and most of the multiply-adds per weight byte unused.
    const double wide = shape(1, 768);
    const double narrow = shape(1, 96);
    CHECK(wide < 1.0);
    CHECK(narrow < wide - 0.05);
    // More tokens an expert amortize the weights' traffic: never worse with a larger micro-batch.
    CHECK(shape(4, 96) >= narrow);
}

TEST_CASE("matrix multiplies by shape: partial tiles and waves cost whole ones, unfused attention "
          "scores are bound by HBM",
          "[compute][step][gemm]")
{
    // Llama 2 7B on one tensor rank per GPU, FlashAttention: every GEMM large.
    const json workload = {{"model", "llama2-7b"},          {"tensor_parallel", 1},
                           {"global_batch_sequences", 512}, {"micro_batch_size", 1},
                           {"sequence_length", 4096},       {"recompute", "full"},
                           {"flash_attention", true}};
    // The fused attention at the GEMMs' rate (its own measured rate is another test's), so
    // that only the shapes separate the GEMMs' time from the ideal.
    auto withGpu = [&](json gpu, const json& changes = json::object()) {
        gpu["attention_forward_efficiency"] = 0;
        gpu["attention_backward_efficiency"] = 0;
        json doc = cluster(workload, 8);
        doc["compute"]["gpu"] = gpu;
        for (const auto& [key, value] : changes.items())
            doc["workload"][key] = value;
        return evaluateDocument(doc, test::catalog(), "gemm.json");
    };
    // Without an SM count the shapes are left out: the matrix math runs at the achievable rate.
    const auto ideal = withGpu({{"id", "h100-sxm5"}, {"sm_count", 0}});
    REQUIRE(ideal.ok());
    CHECK(metric(ideal, "step.matmul_shape_efficiency") == Approx(1.0).epsilon(1e-9));
    // H100's 132 SMs: the 4,096 x 4,096 output projection is 16 x 32 = 512 tiles of 256 x 128,
    // 3.9 waves run as 4; the 11,008-wide MLP leaves a partial tile column. Some loss, not much.
    const auto h100 = withGpu({{"id", "h100-sxm5"}});
    REQUIRE(h100.ok());
    const double shaped = metric(h100, "step.matmul_shape_efficiency");
    CHECK(shaped < 0.99);
    CHECK(shaped > 0.85);
    CHECK(metric(h100, "step.compute_seconds") ==
          Approx(metric(ideal, "step.compute_seconds") / shaped).epsilon(1e-9));
    // Fewer SMs than the GEMM has tiles per wave leave less idle: 128 SMs take the 512 tiles in
    // exactly 4 waves.
    const auto whole = withGpu({{"id", "h100-sxm5"}, {"sm_count", 128}});
    CHECK(metric(whole, "step.matmul_shape_efficiency") > shaped);
    // Without fused attention Q K^T writes the 4,096 x 4,096 scores of every head: 128 FLOP per
    // 2-byte score, below the H100's FLOP per byte, so HBM sets their time.
    const auto unfused = withGpu({{"id", "h100-sxm5"}}, {{"flash_attention", false}});
    REQUIRE(unfused.ok());
    CHECK(metric(unfused, "step.matmul_shape_efficiency") < shaped - 0.05);
}

TEST_CASE("the pipeline runs at its slowest stage, with whole layers", "[compute][step][pipeline]")
{
    // Llama 3 405B (126 layers) on 64 stages of 2 chunks: with the embedding and the loss taking
    // a layer's slot each, the 128 slots fill every chunk with one; the last stage's one layer
    // and the output layer (2/3 of a layer at a 128k vocabulary) are lighter than a middle
    // stage's two layers, so a middle stage paces the pipeline.
    json workload = {{"model", "llama3-405b"},       {"tensor_parallel", 8},
                     {"pipeline_parallel", 64},      {"pipeline_schedule", "interleaved"},
                     {"virtual_stages", 2},          {"embedding_and_loss_as_layers", true},
                     {"global_batch_sequences", 64}, {"recompute", "full"}};
    const auto deep = run(workload);
    REQUIRE(deep.evaluation);
    const StepResult& s = deep.evaluation->compute.step;
    CHECK(s.pacingStageLayers == 2.0);
    CHECK_FALSE(s.pacingStageHasOutputLayer);

    // GPT 1T (128 layers) on 64 stages without those slots: every stage holds two layers and
    // the last one the output layer too, so the last stage paces it.
    const auto even = run({{"model", "megatron-gpt-1t"},
                           {"tensor_parallel", 8},
                           {"pipeline_parallel", 64},
                           {"global_batch_sequences", 64},
                           {"recompute", "full"}});
    REQUIRE(even.evaluation);
    CHECK(even.evaluation->compute.step.pacingStageLayers == 2.0);
    CHECK(even.evaluation->compute.step.pacingStageHasOutputLayer);
}

TEST_CASE("an uneven pipeline split leaves the rest to the last stage and is paced by the fullest",
          "[compute][step][pipeline][validation]")
{
    // Megatron-LM's --decoder-last-pipeline-num-layers: Llama 2 7B's 32 layers on 5 stages are
    // 7 + 7 + 7 + 7 + 4 (DeepSeek-V3's 61 layers ran on 16 stages). Accepted with a warning
    // that names the split; a full stage of 7 layers paces the pipeline.
    const json base = {{"model", "llama2-7b"},
                       {"tensor_parallel", 8},
                       {"global_batch_sequences", 320},
                       {"recompute", "full"}};
    json five = base;
    five["pipeline_parallel"] = 5;
    const auto uneven = run(five, 40);
    REQUIRE(uneven.ok());
    const auto warning =
        std::find_if(uneven.diagnostics.begin(), uneven.diagnostics.end(), [](const Diagnostic& x) {
            return x.severity == Severity::Warning && x.code == "uneven-pipeline-split";
        });
    REQUIRE(warning != uneven.diagnostics.end());
    CHECK(warning->path == "/workload/pipeline_parallel");
    CHECK_THAT(warning->message, Catch::Contains("4 hold 7 and the last 4"));
    REQUIRE(uneven.evaluation);
    CHECK(uneven.evaluation->compute.step.pacingStageLayers == 7.0);
    CHECK_FALSE(uneven.evaluation->compute.step.pacingStageHasOutputLayer);

    // An even split draws no such warning.
    json four = base;
    four["pipeline_parallel"] = 4;
    const auto even = run(four, 32);
    REQUIRE(even.ok());
    CHECK(std::none_of(even.diagnostics.begin(), even.diagnostics.end(),
                       [](const Diagnostic& x) { return x.code == "uneven-pipeline-split"; }));

    // 32 layers on 12 stages: eleven stages of 3 take 33, so the last would hold none.
    json twelve = base;
    twelve["pipeline_parallel"] = 12;
    const auto empty = run(twelve, 12);
    const Diagnostic* error = findError(empty, "/workload/pipeline_parallel", "layout");
    REQUIRE(error);
    CHECK_THAT(error->message, Catch::Contains("leave the last stage no layer"));
}

TEST_CASE("MTP layers run on the last stage: a layer more, the output layer and its loss again",
          "[compute][step][pipeline][mtp]")
{
    // Multi-token prediction (DeepSeek-V3, arXiv 2412.19437, 2.2) as Megatron-Core places it
    // (--mtp-num-layers: the MTP block after the last stage's layers), on Llama 2 7B's 32 layers.
    const json base = {{"model", "llama2-7b"},
                       {"tensor_parallel", 8},
                       {"global_batch_sequences", 320},
                       {"recompute", "full"}};
    // The layout on \a stages stages, without and with one MTP layer.
    const auto withAndWithout = [&](int stages) {
        json without = base;
        without["pipeline_parallel"] = stages;
        json with = without;
        with["mtp_layers"] = 1;
        return std::make_pair(runOk(without, 40), runOk(with, 40));
    };
    // On 4 stages of 8 the last stage, with the output layer, paces the pipeline; one MTP layer
    // makes it 9 layers with two output layers and their losses.
    const auto four = withAndWithout(4);
    const StepResult& s0 = four.first.evaluation->compute.step;
    const StepResult& s1 = four.second.evaluation->compute.step;
    CHECK(s0.pacingStageLayers == 8.0);
    CHECK(s1.pacingStageLayers == 9.0);
    CHECK(s1.pacingStageHasOutputLayer);
    CHECK(s1.stepSeconds > s0.stepSeconds);
    // Model FLOPs as Megatron-LM counts them (training.py, num_floating_point_operations): each
    // MTP layer a layer like the last, its projection of the pair (2 h x h) and the logits again.
    const auto& m = test::catalog().models().entries.at("llama2-7b");
    const double h = m.hiddenSize;
    const double tokens = metric(four.first, "compute.tokens_per_step");
    const double logits = 2.0 * h * m.vocabSize;
    const double layer = (s0.modelFlopsPerStep / (3.0 * tokens) - logits) / m.layers;
    CHECK(s1.modelFlopsPerStep ==
          Approx(s0.modelFlopsPerStep + 3.0 * tokens * (layer + 2.0 * 2.0 * h * h + logits))
              .epsilon(1e-9));

    // On 5 stages (7 + 7 + 7 + 7 + 4) the last stage stays the lightest with its MTP layer: a
    // full stage still paces, and the step does not move.
    const auto five = withAndWithout(5);
    const StepResult& u0 = five.first.evaluation->compute.step;
    const StepResult& u1 = five.second.evaluation->compute.step;
    CHECK(u1.pacingStageLayers == 7.0);
    CHECK_FALSE(u1.pacingStageHasOutputLayer);
    CHECK(u1.stepSeconds == Approx(u0.stepSeconds).epsilon(1e-12));

    // On one stage the MTP layer's weights, states and activations add to the GPU's memory.
    const auto one = withAndWithout(1);
    const StepResult& o0 = one.first.evaluation->compute.step;
    const StepResult& o1 = one.second.evaluation->compute.step;
    CHECK(o1.memory.weightsGb > o0.memory.weightsGb);
    CHECK(o1.memory.activationsGb > o0.memory.activationsGb);

    // A negative count is an error naming the field.
    json bad = base;
    bad["pipeline_parallel"] = 4;
    bad["mtp_layers"] = -1;
    const auto refused = run(bad, 40);
    CHECK_FALSE(refused.ok());
    bool named = false;
    for (const Diagnostic& x : refused.diagnostics)
        named = named || (x.severity == Severity::Error && x.path == "/workload/mtp_layers");
    CHECK(named);
}

TEST_CASE("with virtual stages an uneven split fills every chunk but the last",
          "[compute][step][pipeline][validation]")
{
    // DeepSeek-V3 as NVIDIA laid it out on 256 GB200 (NVIDIA/Megatron-LM docs/discussions/
    // deepseek-v3-gb200-optimization, section 1: PP 8 x VPP 4, --pipeline-model-parallel-layout
    // "Et|(tt|)*30L"): 61 layers + embedding + loss = 63 slots over 32 chunks, every chunk two
    // slots but the last, which holds the loss alone. Per GPU: the first 7 layers and the
    // embedding, six GPUs 8 layers, the last 6 layers and the loss.
    const model::PipelineSplit split = model::pipelineSplit(61, 8, 4, true);
    CHECK(split.valid);
    CHECK_FALSE(split.even);
    CHECK(split.fullStage == 8);
    CHECK(split.lastStage == 7);
    CHECK(split.lastChunk == 1);
    // Without virtual stages the last stage still needs a layer beside the loss: 61 + 2 over 32
    // stages of 2 leave the last stage the loss alone.
    CHECK_FALSE(model::pipelineSplit(61, 32, 1, true).valid);
    // 32 layers over 5 x 2 chunks of 4 leave the last chunk none.
    CHECK_FALSE(model::pipelineSplit(32, 5, 2, false).valid);

    json w = {{"model", "llama2-7b"},   {"tensor_parallel", 8},
              {"pipeline_parallel", 3}, {"pipeline_schedule", "interleaved"},
              {"virtual_stages", 2},    {"global_batch_sequences", 384},
              {"recompute", "full"}};
    // 32 layers over 3 x 2 chunks: five of 6 and the last of 2; stages of 12, 12 and 8.
    const auto uneven = run(w, 24);
    REQUIRE(uneven.ok());
    const auto warning =
        std::find_if(uneven.diagnostics.begin(), uneven.diagnostics.end(), [](const Diagnostic& x) {
            return x.severity == Severity::Warning && x.code == "uneven-pipeline-split";
        });
    REQUIRE(warning != uneven.diagnostics.end());
    CHECK_THAT(warning->message, Catch::Contains("2 hold 12 and the last 8"));
    CHECK_THAT(warning->message, Catch::Contains("chunks of 6, the last of 2"));
    REQUIRE(uneven.evaluation);
    CHECK(uneven.evaluation->compute.step.pacingStageLayers == 12.0);
    // 32 layers over 5 x 2 chunks: an error on the virtual stages, naming the empty chunk.
    w["pipeline_parallel"] = 5;
    const auto empty = run(w, 40);
    const Diagnostic* error = findError(empty, "/workload/virtual_stages", "layout");
    REQUIRE(error);
    CHECK_THAT(error->message, Catch::Contains("leave the last chunk no layer"));
}

TEST_CASE("the interleaved schedule's send/recv hides in the steady state, the warm-up's and the "
          "flush's wait",
          "[compute][step][pipeline][p2p]")
{
    // Llama 2 7B, TP 1, PP 4 with each stage on its own node (32 GPUs: data parallel 8), VP 2:
    // 256 sequences make 32 micro-batches of 2 chunks. The first stage's warm-up runs 2 (p - 1)
    // + (v - 1) p = 10 forward chunks before its first backward (Megatron-Core's
    // get_pp_rank_microbatches), the flush as many backwards; 54 steady steps follow, each a
    // forward and a backward chunk.
    json w = {{"model", "llama2-7b"},   {"tensor_parallel", 1},
              {"pipeline_parallel", 4}, {"pipeline_schedule", "interleaved"},
              {"virtual_stages", 2},    {"global_batch_sequences", 256},
              {"recompute", "none"},    {"flash_attention", true}};
    json blocking = w;
    blocking["overlap_p2p_comm"] = false;
    const auto on = runOk(w, 4);
    const auto off = runOk(blocking, 4);
    const StepResult& a = on.evaluation->compute.step;
    const StepResult& b = off.evaluation->compute.step;
    REQUIRE(a.pipeline.seconds > 0.0);
    CHECK(a.pipeline.seconds == Approx(b.pipeline.seconds));
    const double c = a.pipeline.seconds;
    // Waited on where posted: 2 v transfers a micro-batch and the fill's and flush's p - 1 each
    // way, (32 + 3/2) x 4 = 134.
    CHECK(b.pipelineSendRecvSeconds == Approx(134.0 * c).epsilon(1e-9));
    // Overlapped: a 64 MB activation over a 400G rail takes far less than half a chunk of 8
    // layers, so the steady state hides it; the warm-up's 10 and the flush's 10 wait, with the
    // 6 crossings of the fill and the flush: 26.
    CHECK(a.pipelineSendRecvSeconds == Approx(26.0 * c).epsilon(1e-9));
    // The steady state's 2 x 54 transfers take their channels' SMs from the chunks they run under.
    const double taken = a.pipeline.channels / 132.0;
    CHECK(a.overlapContentionSeconds - b.overlapContentionSeconds ==
          Approx(108.0 * c * taken).epsilon(1e-6));
    CHECK(a.stepSeconds < b.stepSeconds);

    // A small model's one-layer chunks on two 100G NICs a node: a transfer outlasts half a
    // chunk's forward and backward, and what it outlasts is exposed once a steady step.
    json thin = {{"model", "megatron-gpt-1.7b"}, {"tensor_parallel", 1},
                 {"pipeline_parallel", 4},       {"pipeline_schedule", "interleaved"},
                 {"virtual_stages", 6},          {"global_batch_sequences", 256},
                 {"recompute", "none"},          {"flash_attention", true}};
    json slow = cluster(thin, 4);
    slow["network"]["protocol"] = "roce_v2";
    slow["network"]["switch"] = "tomahawk5-64x800g";
    slow["network"]["nic"] = "connectx-6dx-100g";
    slow["network"]["rails"] = 2;
    const auto exposed = evaluateOk(slow);
    const StepResult& e = exposed.evaluation->compute.step;
    const double t = e.pipeline.seconds;
    // 32 micro-batches of 6 chunks: a warm-up of 6 + 20 = 26, 166 steady steps.
    const double waited = (2.0 * 26.0 + 6.0) * t;
    INFO("transfer " << t * 1e3 << " ms, exposed " << e.pipelineSendRecvSeconds << " s");
    CHECK(e.pipelineSendRecvSeconds > waited + 0.1 * 166.0 * t);
    CHECK(e.pipelineSendRecvSeconds < waited + 166.0 * t);
    slow["workload"]["overlap_p2p_comm"] = false;
    const auto waiting = evaluateOk(slow);
    CHECK(waiting.evaluation->compute.step.pipelineSendRecvSeconds ==
          Approx((32.0 + 3.0 / 6.0) * 12.0 * t).epsilon(1e-9));

    // Megatron-LM turns the overlap off without virtual stages: said so where the file sets it.
    json plain = w;
    plain["pipeline_schedule"] = "1f1b";
    plain["virtual_stages"] = 1;
    plain["overlap_p2p_comm"] = true;
    const auto unused = runOk(plain, 4);
    CHECK(
        std::any_of(unused.diagnostics.begin(), unused.diagnostics.end(), [](const Diagnostic& x) {
            return x.severity == Severity::Warning && x.path == "/workload/overlap_p2p_comm" &&
                   x.code == "p2p-overlap-unused";
        }));
    CHECK(unused.evaluation->compute.step.pipelineSendRecvSeconds ==
          Approx((32.0 + 3.0) * 2.0 * unused.evaluation->compute.step.pipeline.seconds)
              .epsilon(1e-9));
    const auto quiet = runOk(w, 4);
    CHECK(std::none_of(quiet.diagnostics.begin(), quiet.diagnostics.end(),
                       [](const Diagnostic& x) { return x.code == "p2p-overlap-unused"; }));
    json wrongType = w;
    wrongType["overlap_p2p_comm"] = "yes";
    const auto bad = run(wrongType, 4);
    CHECK_FALSE(bad.ok());
    CHECK(std::any_of(bad.diagnostics.begin(), bad.diagnostics.end(), [](const Diagnostic& x) {
        return x.severity == Severity::Error && x.path == "/workload/overlap_p2p_comm";
    }));
}

TEST_CASE("dualpipe needs an even pipeline and twice as many micro-batches, one chunk a stage",
          "[compute][step][pipeline][validation]")
{
    // deepseek-ai/DualPipe, DualPipe.step: num_ranks % 2 == 0, num_chunks % 2 == 0 and
    // num_chunks >= 2 num_ranks.
    json workload = {{"model", "llama2-7b"},          {"tensor_parallel", 8},
                     {"pipeline_parallel", 4},        {"pipeline_schedule", "dualpipe"},
                     {"global_batch_sequences", 128}, {"recompute", "full"}};
    CHECK(run(workload).ok()); // 64 nodes: data parallel 16, 8 micro-batches of 1 on 4 stages
    json odd = workload;
    odd["pipeline_parallel"] = 1;
    CHECK(findError(run(odd), "/workload/pipeline_parallel", "layout"));
    json few = workload;
    few["global_batch_sequences"] = 96; // 6 micro-batches < 2 x 4
    const auto short6 = run(few);
    const Diagnostic* error = findError(short6, "/workload/global_batch_sequences", "layout");
    REQUIRE(error);
    CHECK_THAT(error->message, Catch::Contains("makes 6"));
    json chunks = workload;
    chunks["virtual_stages"] = 2;
    CHECK(findError(run(chunks), "/workload/virtual_stages", "layout"));
}

TEST_CASE("dualpipe: the bubble of (p/2 - 1)(F&B + B - 3W), two stages' weights, p + 1 in flight",
          "[compute][step][pipeline]")
{
    // Llama 2 7B (32 layers, dense) on 8 stages of 4 layers, 32 micro-batches. DualPipe's
    // bubble (its README's table) with B = 2F and W = F is (p/2 - 1) x 2/3 of a micro-batch's
    // computation where 1F1B's is (p - 1) x all of it: 3 x 2/3 against 7, 2/7 of it (the pipeline
    // sends, under the computation, cost it a little on the SMs they take).
    const json base = {{"model", "llama2-7b"},   {"tensor_parallel", 1},
                       {"pipeline_parallel", 8}, {"global_batch_sequences", 32},
                       {"recompute", "none"},    {"flash_attention", true}};
    json dual = base;
    dual["pipeline_schedule"] = "dualpipe";
    const auto one = run(base, 1);
    const auto two = run(dual, 1);
    REQUIRE(one.ok());
    REQUIRE(two.ok());
    CHECK(metric(two, "step.bubble_seconds") / metric(one, "step.bubble_seconds") ==
          Approx(2.0 / 7.0).epsilon(0.03));
    // Two stages a GPU: twice the layers' weights (and the output layer beside the embedding);
    // activations of p + 1 = 9 micro-batches on every GPU where 1F1B's first stage holds 8.
    CHECK(metric(two, "step.memory_weights_gb") > 1.9 * metric(one, "step.memory_weights_gb"));
    CHECK(metric(two, "step.memory_activations_gb") ==
          Approx(9.0 / 8.0 * metric(one, "step.memory_activations_gb")).epsilon(1e-9));
}

TEST_CASE("dualpipe hides the expert all-to-all under the paired chunk, on the SMs it leaves",
          "[compute][step][pipeline][moe]")
{
    // Mixtral 8x7B, EP 8 on a node's NVLink, on 4 stages with 8 micro-batches: 1F1B exposes
    // every dispatch and combine; DualPipe runs them beside the other micro-batch's computation,
    // which loses 20 of the H100's 132 SMs while they run (DeepSeek-V3 technical report, 3.2.2).
    json base = mixtralWorkload();
    base["global_batch_sequences"] = 1024;
    json dual = base;
    dual["pipeline_schedule"] = "dualpipe";
    const auto one = run(base);
    const auto two = run(dual);
    REQUIRE(one.ok());
    REQUIRE(two.ok());
    const double exposed1 = metric(one, "step.expert_parallel_seconds");
    const double exposed2 = metric(two, "step.expert_parallel_seconds");
    CHECK(exposed1 > 0.0);
    CHECK(exposed2 < 0.5 * exposed1);
    const double compute1 = metric(one, "step.compute_seconds");
    const double compute2 = metric(two, "step.compute_seconds");
    CHECK(compute2 > compute1);
    CHECK(compute2 <= compute1 * 132.0 / 112.0 * (1.0 + 1e-9));
    CHECK(metric(two, "step.seconds") < metric(one, "step.seconds"));
}

TEST_CASE("the expert all-to-all overlap hides a steady-state chunk's dispatch under another's "
          "computation",
          "[compute][step][pipeline][moe][overlap]")
{
    // Mixtral 8x7B, EP 8, on 4 stages of 2 virtual chunks, 32 micro-batches: 64 chunks a stage,
    // of which the first stage runs 2 (p - 1) + (v - 1) p + 1 = 11 as warm-up forwards
    // (Megatron-Core's schedule with --overlap-moe-expert-parallel-comm, one more than without),
    // their all-to-all and the cool-down backwards' exposed; the other 53 merged
    // forward-backward steps hide the share of theirs that the schedule runs beside the paired
    // chunk's computation (36.55%, NVIDIA's measurement), which the all-to-all's channels slow
    // while they run.
    json base = mixtralWorkload();
    base["pipeline_schedule"] = "interleaved";
    base["virtual_stages"] = 2;
    base["recompute"] = "selective";
    base["global_batch_sequences"] = 4096;
    json overlapped = base;
    overlapped["moe_a2a_overlap"] = true;
    const auto one = run(base);
    const auto two = run(overlapped);
    std::string text;
    for (const auto& x : two.diagnostics)
        text += x.toString() + "\n";
    INFO(text);
    REQUIRE(one.ok());
    REQUIRE(two.ok());
    const StepResult& s1 = one.evaluation->compute.step;
    const StepResult& s2 = two.evaluation->compute.step;
    REQUIRE(s1.microBatches == 32.0);
    const double exposed1 = s1.expertParallelSeconds;
    const double exposed2 = s2.expertParallelSeconds;
    REQUIRE(exposed1 > 0.0);
    CHECK(exposed2 < exposed1);
    CHECK(exposed2 >= exposed1 * (1.0 - 0.3655 * 53.0 / 64.0) * (1.0 - 1e-9));
    CHECK(s2.overlapContentionSeconds > s1.overlapContentionSeconds);
    // What is hidden is worth more than what the shared SMs cost.
    CHECK(s2.stepSeconds < s1.stepSeconds);
    CHECK(exposed1 - exposed2 > s2.overlapContentionSeconds - s1.overlapContentionSeconds);
    // The GPU's own work is unchanged.
    CHECK(s2.computeSeconds == Approx(s1.computeSeconds));
    CHECK(s2.memoryBoundSeconds == Approx(s1.memoryBoundSeconds));
    // One chunk more in flight on the first stage: 12 where the interleaved warm-up holds 11.
    CHECK(metric(two, "step.memory_activations_gb") ==
          Approx(12.0 / 11.0 * metric(one, "step.memory_activations_gb")).epsilon(1e-9));
    // The metric names the field among its inputs.
    const Metric* ep = two.evaluation->metric("step.expert_parallel_seconds");
    REQUIRE(ep);
    CHECK(std::find(ep->inputs.begin(), ep->inputs.end(), "/workload/moe_a2a_overlap") !=
          ep->inputs.end());

    // Without pipelining (Megatron-Core's combined 1F1B without a pipeline): the first forward
    // and the last backward run alone, 15 of the 16 micro-batches' all-to-all hidden as far as
    // the schedule lets it run beside the computation.
    const json flat = {{"model", "qwen3-30b-a3b"},      {"tensor_parallel", 1},
                       {"expert_parallel", 16},         {"expert_tensor_parallel", 1},
                       {"global_batch_sequences", 256}, {"recompute", "none"},
                       {"sequence_length", 2048}};
    json flatOverlapped = flat;
    flatOverlapped["moe_a2a_overlap"] = true;
    const auto three = run(flat, 2);
    const auto four = run(flatOverlapped, 2);
    REQUIRE(three.ok());
    REQUIRE(four.ok());
    const StepResult& s3 = three.evaluation->compute.step;
    const StepResult& s4 = four.evaluation->compute.step;
    REQUIRE(s3.microBatches == 16.0);
    REQUIRE(s3.expertParallelSeconds > 0.0);
    CHECK(s4.expertParallelSeconds < s3.expertParallelSeconds);
    // At most the measured concurrent share (36.55%) of the 15 merged steps' all-to-all hides.
    CHECK(s4.expertParallelSeconds >=
          s3.expertParallelSeconds * (1.0 - 0.3655 * 15.0 / 16.0) * (1.0 - 1e-9));
    // 48 layers' activations and one more: the next forward runs one layer ahead of the
    // backward's release (NVIDIA measured 62.2 GiB allocated at its peak on such a run).
    CHECK(metric(four, "step.memory_activations_gb") ==
          Approx(49.0 / 48.0 * metric(three, "step.memory_activations_gb")).epsilon(1e-9));
}

TEST_CASE("the expert all-to-all overlap is checked as Megatron-Core checks it",
          "[compute][step][moe][overlap][validation]")
{
    // megatron/core/transformer/transformer_config.py: expert parallelism above 1, virtual
    // stages when pipelined, no full recomputation and no moe module recomputed.
    const std::string field = "/workload/moe_a2a_overlap";
    json good = mixtralWorkload();
    good["pipeline_schedule"] = "interleaved";
    good["virtual_stages"] = 2;
    good["recompute"] = "selective";
    good["moe_a2a_overlap"] = true;
    CHECK(run(good).ok());
    json dense = {{"model", "llama2-7b"},
                  {"tensor_parallel", 1},
                  {"global_batch_sequences", 256},
                  {"moe_a2a_overlap", true}};
    const auto d = run(dense, 2);
    const Diagnostic* error = findError(d, field, "layout");
    REQUIRE(error);
    CHECK_THAT(error->message, Catch::Contains("expert parallelism"));
    json noEp = good;
    noEp["expert_parallel"] = 1;
    CHECK(findError(run(noEp), field, "layout"));
    json plain1f1b = good;
    plain1f1b["pipeline_schedule"] = "1f1b";
    plain1f1b.erase("virtual_stages");
    const auto p = run(plain1f1b);
    error = findError(p, field, "layout");
    REQUIRE(error);
    CHECK_THAT(error->hint, Catch::Contains("virtual_stages"));
    json full = good;
    full["recompute"] = "full";
    CHECK(findError(run(full), field, "layout"));
    json moeModule = good;
    moeModule["recompute_modules"] = {"moe"};
    CHECK(findError(run(moeModule), field, "layout"));
    json activationOnly = good;
    activationOnly["recompute_modules"] = {"moe_act"};
    CHECK_FALSE(findError(run(activationOnly), field, "layout"));
    json dual = mixtralWorkload();
    dual["pipeline_schedule"] = "dualpipe";
    dual["recompute"] = "selective";
    dual["global_batch_sequences"] = 1024;
    dual["moe_a2a_overlap"] = true;
    CHECK(findError(run(dual), field, "layout"));
}

TEST_CASE("the shared experts' GEMMs hide the dispatch and combine they run beside",
          "[compute][step][moe][overlap]")
{
    // Mixtral 8x7B given one shared expert (its expert's shape), EP 8 on a node's NVLink: with
    // --moe-shared-expert-overlap the shared expert's first GEMM runs beside the dispatch, its
    // second beside the combine, forward, backward and recomputed. Each GEMM (a 4096 x 14336
    // expert's over the micro-batch's tokens) outlasts a call on NVLink, so every call hides and
    // the computation slows by the share of SMs the calls' channels hold while they run.
    const json withShared = {{"id", "mixtral-8x7b"}, {"shared_experts", 1}};
    json base = mixtralWorkload(withShared);
    json overlapped = base;
    overlapped["moe_shared_expert_overlap"] = true;
    const auto one = runOk(base);
    const auto two = runOk(overlapped);
    const StepResult& s1 = one.evaluation->compute.step;
    const StepResult& s2 = two.evaluation->compute.step;
    REQUIRE(s1.expertParallelSeconds > 0.0);
    CHECK(s2.expertParallelSeconds == Approx(0.0).margin(1e-12));
    const double taken = s2.expertDispatch.channels / 132.0;
    CHECK(s2.overlapContentionSeconds - s1.overlapContentionSeconds ==
          Approx(s1.expertParallelSeconds * taken).epsilon(1e-9));
    CHECK(s2.computeSeconds == Approx(s1.computeSeconds));
    CHECK(s2.stepSeconds < s1.stepSeconds);
    const Metric* ep = two.evaluation->metric("step.expert_parallel_seconds");
    REQUIRE(ep);
    CHECK(std::find(ep->inputs.begin(), ep->inputs.end(), "/workload/moe_shared_expert_overlap") !=
          ep->inputs.end());

    // Across nodes (16 experts, EP 16 over two nodes' NICs) a call outlasts the GEMM beside
    // it: what the GEMMs cover hides, the rest stays exposed.
    json wide = mixtralWorkload({{"id", "mixtral-8x7b"}, {"experts", 16}, {"shared_experts", 1}});
    wide["expert_parallel"] = 16;
    json wideOverlapped = wide;
    wideOverlapped["moe_shared_expert_overlap"] = true;
    const StepResult w1 = runOk(wide, 8).evaluation->compute.step;
    const StepResult w2 = runOk(wideOverlapped, 8).evaluation->compute.step;
    INFO("exposed " << w1.expertParallelSeconds << " -> " << w2.expertParallelSeconds << " s");
    REQUIRE(w1.expertParallelSeconds > 0.0);
    CHECK(w2.expertParallelSeconds > 0.0);
    CHECK(w2.expertParallelSeconds < w1.expertParallelSeconds);

    // Without shared experts there is nothing beside the calls: the step is the same.
    json plain = mixtralWorkload();
    json plainOverlapped = plain;
    plainOverlapped["moe_shared_expert_overlap"] = true;
    const auto three = run(plainOverlapped);
    CHECK(three.evaluation->compute.step.stepSeconds ==
          runOk(plain).evaluation->compute.step.stepSeconds);
}

TEST_CASE("the shared experts' overlap is checked as Megatron-Core checks it",
          "[compute][step][moe][overlap][validation]")
{
    // megatron/core/transformer/transformer_config.py refuses it beside
    // overlap_moe_expert_parallel_comm; DualPipe has its own overlap; without shared experts
    // or expert parallelism it does nothing, and says so.
    const std::string field = "/workload/moe_shared_expert_overlap";
    json good = mixtralWorkload({{"id", "mixtral-8x7b"}, {"shared_experts", 1}});
    good["pipeline_schedule"] = "interleaved";
    good["virtual_stages"] = 2;
    good["recompute"] = "selective";
    good["moe_shared_expert_overlap"] = true;
    CHECK(run(good).ok());
    json both = good;
    both["moe_a2a_overlap"] = true;
    const auto b = run(both);
    const Diagnostic* error = findError(b, field, "layout");
    REQUIRE(error);
    CHECK_THAT(error->message, Catch::Contains("moe_a2a_overlap"));
    json dual = mixtralWorkload({{"id", "mixtral-8x7b"}, {"shared_experts", 1}});
    dual["pipeline_schedule"] = "dualpipe";
    dual["recompute"] = "selective";
    dual["global_batch_sequences"] = 1024;
    dual["moe_shared_expert_overlap"] = true;
    CHECK(findError(run(dual), field, "layout"));
    json unshared = mixtralWorkload();
    unshared["moe_shared_expert_overlap"] = true;
    const auto u = run(unshared);
    CHECK(u.ok());
    bool warned = false;
    for (const auto& x : u.diagnostics)
        warned = warned || (x.severity == Severity::Warning && x.path == field &&
                            x.code == "shared-expert-overlap-unused" &&
                            x.message.find("no shared experts") != std::string::npos);
    CHECK(warned);
    json wrongType = good;
    wrongType["moe_shared_expert_overlap"] = "yes";
    const auto t = run(wrongType);
    CHECK_FALSE(t.ok());
    bool named = false;
    for (const auto& x : t.diagnostics)
        named = named || (x.severity == Severity::Error && x.path == field);
    CHECK(named);
}

TEST_CASE("activations are held on the stage with the most in flight",
          "[compute][step][pipeline][memory]")
{
    // Llama 3's layout (PP 16, 8 chunks of one layer a stage, the embedding and the loss in a
    // layer's slot each). The first stage holds 7 layers and 2 (p - 1) + (v - 1) p + 1 = 143
    // chunks in flight (7/8 x 143 = 125 layers' activations); the second holds 8 layers and 141
    // chunks, the most (Megatron-LM's interleaved warm-up). Full recomputation with sequence
    // parallelism keeps each layer's input, 2 s b h / t bytes.
    const json workload = {{"model", "llama3-405b"},  {"tensor_parallel", 8},
                           {"pipeline_parallel", 16}, {"pipeline_schedule", "interleaved"},
                           {"virtual_stages", 8},     {"global_batch_sequences", 64},
                           {"recompute", "full"},     {"embedding_and_loss_as_layers", true}};
    const double layerInput = 2.0 * 8192 * 16384 / 8;
    CHECK(metric(run(workload, 16), "step.memory_activations_gb") ==
          Approx(141.0 * layerInput / 1e9).epsilon(1e-6));
}

TEST_CASE("fp8 training keeps its GEMMs' inputs as their 1-byte casts", "[compute][step][memory]")
{
    // Llama 2 7B (h 4096, 32 heads of 128, FFN 11008 gated), TP 8 with sequence parallelism, no
    // recomputation, fused attention, no dropout. Per s b h of a layer, BF16 keeps the two norm
    // inputs and the QKV and FC1 inputs (8, split by SP), Q, K, V and the attention's output
    // (2 + 4 + 2) and FC1's output and FC2's input (2 x 2 x ffn/h + 2 x ffn/h), the latter split
    // by TP. FP8 keeps the QKV, FC1 and FC2 inputs as 1-byte casts and the projection's cast
    // beside the attention's BF16 output (Transformer Engine's saved_inputmat).
    const json base = {{"model", "llama2-7b"},         {"tensor_parallel", 8},
                       {"sequence_parallel", true},    {"recompute", "none"},
                       {"flash_attention", true},      {"dropout", false},
                       {"global_batch_sequences", 512}};
    json fp8 = base;
    fp8["precision"] = "fp8";
    json bf16 = base;
    bf16["precision"] = "bf16";
    const double ffn = 11008.0 / 4096.0;
    const double bf16Units = 8.0 / 8.0 + (8.0 + 2.0 * 2.0 * ffn + 2.0 * ffn) / 8.0;
    const double fp8Units = 6.0 / 8.0 + (9.0 + 2.0 * 2.0 * ffn + 1.0 * ffn) / 8.0;
    CHECK(metric(run(fp8), "step.memory_activations_gb") /
              metric(run(bf16), "step.memory_activations_gb") ==
          Approx(fp8Units / bf16Units).epsilon(1e-9));
}

TEST_CASE("bf16 training keeps and reduces its gradients in fp32", "[compute][step][memory]")
{
    json workload = {{"model", "llama2-13b"}, {"tensor_parallel", 8}, {"zero_stage", 0}};
    const auto bf16 = run(workload);
    workload["precision"] = "fp16";
    const auto fp16 = run(workload);
    CHECK(metric(bf16, "step.memory_gradients_gb") ==
          Approx(2.0 * metric(fp16, "step.memory_gradients_gb")));
    CHECK(metric(bf16, "step.data_parallel_total_seconds") >
          1.5 * metric(fp16, "step.data_parallel_total_seconds"));
}

TEST_CASE("tensor-parallel overlap hides the collectives under chunked GEMMs",
          "[compute][step][tp-overlap]")
{
    // Llama 2 70B on TP 8 with sequence parallelism: eight collectives a layer on NVLink.
    const json base = {{"model", "llama2-70b"},         {"tensor_parallel", 8},
                       {"pipeline_parallel", 4},        {"sequence_parallel", true},
                       {"global_batch_sequences", 512}, {"recompute", "selective"}};
    json overlapped = base;
    overlapped["tp_comm_overlap"] = true;
    const DocumentEvaluation plain = run(base);
    const DocumentEvaluation chunked = run(overlapped);
    REQUIRE(plain.ok());
    REQUIRE(chunked.ok());
    const double exposedPlain = metric(plain, "step.tensor_parallel_seconds");
    const double exposedChunked = metric(chunked, "step.tensor_parallel_seconds");
    // The last reduce-scatter chunk of each pipelined GEMM stays exposed, and whatever a ring
    // step takes beyond its chunk's GEMM; the rest hides.
    CHECK(exposedChunked > 0.0);
    CHECK(exposedChunked < 0.4 * exposedPlain);
    // The chunks and the communication SMs cost the GEMMs some of their efficiency.
    CHECK(metric(chunked, "step.compute_seconds") > metric(plain, "step.compute_seconds"));
    CHECK(metric(chunked, "step.matmul_shape_efficiency") <
          metric(plain, "step.matmul_shape_efficiency"));
    // More kernels: the chunked GEMMs are launched one by one.
    CHECK(metric(chunked, "step.kernel_overhead_seconds") >
          metric(plain, "step.kernel_overhead_seconds"));
    CHECK(metric(chunked, "step.seconds") < metric(plain, "step.seconds"));

    // Without sequence parallelism there are all-reduces, which userbuffers do not split.
    json noSp = overlapped;
    noSp["sequence_parallel"] = false;
    json noSpPlain = base;
    noSpPlain["sequence_parallel"] = false;
    CHECK(metric(run(noSp), "step.seconds") == Approx(metric(run(noSpPlain), "step.seconds")));
}

TEST_CASE(
    "hidden data- and context-parallel collectives slow the computation by their channels' SMs",
    "[compute][step][overlap]")
{
    // Llama 2 7B with ZeRO-3 on 8 nodes: weights gathered and gradients reduced every
    // micro-batch, under its computation.
    const json base = {{"model", "llama2-7b"}, {"tensor_parallel", 1},
                       {"zero_stage", 3},      {"global_batch_sequences", 256},
                       {"recompute", "none"},  {"micro_batch_size", 1}};
    json exposed = base;
    exposed["overlap_fraction"] = 0.0;
    json hidden = base;
    hidden["overlap_fraction"] = 1.0;
    const DocumentEvaluation none = run(exposed, 8);
    const DocumentEvaluation all = run(hidden, 8);
    REQUIRE(none.ok());
    REQUIRE(all.ok());
    const StepResult& n = none.evaluation->compute.step;
    const StepResult& a = all.evaluation->compute.step;
    // Nothing runs beside the computation: no slowdown, every collective exposed.
    CHECK(n.overlapContentionSeconds == 0.0);
    CHECK(n.dataParallelSeconds == Approx(n.dataParallelTotalSeconds));
    // Hidden, the collectives' channels take their SMs from the GEMMs while they run: the
    // slowdown is the hidden time times the share of the GPU's SMs the channels hold.
    REQUIRE(a.dataParallel.channels > 0);
    const double hiddenSeconds = a.dataParallelTotalSeconds - a.dataParallelSeconds;
    REQUIRE(hiddenSeconds > 0.0);
    const double share = static_cast<double>(a.dataParallel.channels) / 132.0;
    CHECK(a.overlapContentionSeconds == Approx(hiddenSeconds * share).epsilon(0.05));
    CHECK(a.overlapContentionSeconds > 0.0);
    // Still faster than waiting for them, and the slowdown shows in the breakdown and metrics.
    CHECK(a.stepSeconds < n.stepSeconds);
    CHECK(metric(all, "step.overlap_contention_seconds") == Approx(a.overlapContentionSeconds));
    const auto parts = stepBreakdown(all.evaluation->compute, nullptr);
    const bool shown = std::any_of(parts.begin(), parts.end(), [&](const StepPart& p) {
        return p.key == "overlap_contention" && p.seconds == Approx(a.overlapContentionSeconds);
    });
    CHECK(shown);
    const auto noneParts = stepBreakdown(none.evaluation->compute, nullptr);
    CHECK(std::none_of(noneParts.begin(), noneParts.end(),
                       [](const StepPart& p) { return p.key == "overlap_contention"; }));

    // Context parallelism: the keys' and values' ring runs beside the attention, which loses
    // the SMs of its channels while it runs, with nothing of the data-parallel traffic hidden.
    json ring = exposed;
    ring["context_parallel"] = 2;
    ring["sequence_length"] = 16384;
    const DocumentEvaluation cp = run(ring, 8);
    REQUIRE(cp.ok());
    const StepResult& c = cp.evaluation->compute.step;
    REQUIRE(c.contextParallel.channels > 0);
    CHECK(c.overlapContentionSeconds > 0.0);
    // At most the share of the SMs of the whole gather and scatter time.
    const double cpShare = static_cast<double>(c.contextParallel.channels) / 132.0;
    const double cpTotal = c.contextParallel.seconds * c.contextParallel.perStep * 1.5;
    CHECK(c.overlapContentionSeconds <= cpTotal * cpShare);
}

TEST_CASE("the GPU waits for the host where an MoE layer's kernels are many and short",
          "[compute][step][host]")
{
    // Qwen3-30B-A3B (128 experts of 768, top 8) over 16 expert-parallel ranks, one 4k sequence a
    // micro-batch in FP8: eight local experts each launch their own GEMMs, and every MoE
    // layer's forward waits on the device-to-host copy of its token counts, so the host's
    // launches (53.7 us each) outlast the GPU's work.
    const json base = {{"model", "qwen3-30b-a3b"},
                       {"tensor_parallel", 1},
                       {"expert_parallel", 16},
                       {"expert_tensor_parallel", 1},
                       {"precision", "fp8"},
                       {"micro_batch_size", 1},
                       {"global_batch_sequences", 256},
                       {"recompute", "none"},
                       {"sequence_length", 4096},
                       {"dropout", false}};
    auto step = [](const json& workload) { return runOk(workload, 2); };
    const DocumentEvaluation plain = step(base);
    const StepResult& s = plain.evaluation->compute.step;
    REQUIRE(s.hostWaitSeconds > 0.0);
    // At most the host's whole time: 48 layers of at most some 300 launches each way, every
    // micro-batch.
    CHECK(s.hostWaitSeconds < s.microBatches * 48.0 * 300.0 * 53.7e-6);
    CHECK(metric(plain, "step.host_wait_seconds") == Approx(s.hostWaitSeconds));
    const auto parts = stepBreakdown(plain.evaluation->compute, nullptr);
    CHECK(std::any_of(parts.begin(), parts.end(), [&](const StepPart& p) {
        return p.key == "host_wait" && p.seconds == Approx(s.hostWaitSeconds);
    }));

    // Each way of launching fewer kernels shortens the wait: the router's and the permutations'
    // fused kernels, CUDA graphs of the attention and the router with its metadata. The flex
    // dispatcher's fused dispatch launches fewer kernels too, but it also sends a token once a
    // node or rank reached, so the GPU's work shrinks with the host's and the wait (their
    // difference) may not: its step is shorter.
    json fused = base;
    fused["moe_router_fusion"] = true;
    fused["moe_permute_fusion"] = true;
    const DocumentEvaluation f = step(fused);
    CHECK(f.evaluation->compute.step.hostWaitSeconds < s.hostWaitSeconds);
    json flex = fused;
    flex["moe_token_dispatcher"] = "flex";
    const DocumentEvaluation x = step(flex);
    CHECK(x.evaluation->compute.step.stepSeconds < f.evaluation->compute.step.stepSeconds);
    json graphed = fused;
    graphed["cuda_graph_scope"] = {"attn", "moe_router", "moe_preprocess"};
    const DocumentEvaluation g = step(graphed);
    CHECK(g.evaluation->compute.step.hostWaitSeconds < f.evaluation->compute.step.hostWaitSeconds);
    CHECK(g.evaluation->compute.step.stepSeconds < f.evaluation->compute.step.stepSeconds);
    // The GPU's own kernel costs stay: graphs shorten the host's work, not the GPU's.
    CHECK(g.evaluation->compute.step.kernelOverheadSeconds ==
          Approx(f.evaluation->compute.step.kernelOverheadSeconds));
    // One graph for the whole forward-backward path (full_iteration): the host issues nothing a
    // layer and no MoE layer waits on it; the GPU's work is the per-layer graphs' own.
    json whole = fused;
    whole["cuda_graph_scope"] = {"full_iteration"};
    const DocumentEvaluation i = step(whole);
    CHECK(i.evaluation->compute.step.hostWaitSeconds == 0.0);
    CHECK(i.evaluation->compute.step.kernelOverheadSeconds ==
          Approx(f.evaluation->compute.step.kernelOverheadSeconds));
    CHECK(
        i.evaluation->compute.step.stepSeconds ==
        Approx(g.evaluation->compute.step.stepSeconds - g.evaluation->compute.step.hostWaitSeconds)
            .epsilon(1e-9));
    json wholeSlowHost = cluster(whole, 2);
    wholeSlowHost["compute"]["node"] = {{"id", "dgx-h100"}, {"host_launch_us", 10.0 * 53.7}};
    const DocumentEvaluation wholeSlow =
        evaluateDocument(wholeSlowHost, test::catalog(), "whole-slow.json");
    REQUIRE(wholeSlow.ok());
    CHECK(wholeSlow.evaluation->compute.step.stepSeconds ==
          Approx(i.evaluation->compute.step.stepSeconds));
    // The planner is told the share and what shortens it.
    CHECK(std::any_of(plain.diagnostics.begin(), plain.diagnostics.end(), [](const Diagnostic& d) {
        return d.severity == Severity::Note && d.code == "host-bound" &&
               d.hint.find("cuda_graph_scope") != std::string::npos;
    }));

    // Two 2k sequences a micro-batch give each launch twice the work of one: half the
    // micro-batches, and less wait in all.
    json half = base;
    half["sequence_length"] = 2048;
    json twice = half;
    twice["micro_batch_size"] = 2;
    const DocumentEvaluation h = step(half);
    const DocumentEvaluation b = step(twice);
    CHECK(b.evaluation->compute.step.hostWaitSeconds < h.evaluation->compute.step.hostWaitSeconds);

    // A host twice as slow a launch (the node's host_launch_us; Grace's is 2.75 times an x86
    // host's) waits longer.
    json slowHost = cluster(base, 2);
    slowHost["compute"]["node"] = {{"id", "dgx-h100"}, {"host_launch_us", 2.0 * 53.7}};
    const DocumentEvaluation slow = evaluateDocument(slowHost, test::catalog(), "slow.json");
    REQUIRE(slow.ok());
    CHECK(slow.evaluation->compute.step.hostWaitSeconds > 1.5 * s.hostWaitSeconds);

    // A dense model's layers run long kernels: the host stays ahead.
    const DocumentEvaluation dense = step({{"model", "llama2-7b"},
                                           {"tensor_parallel", 1},
                                           {"global_batch_sequences", 256},
                                           {"recompute", "none"}});
    CHECK(dense.evaluation->compute.step.hostWaitSeconds == 0.0);
    const auto denseParts = stepBreakdown(dense.evaluation->compute, nullptr);
    CHECK(std::none_of(denseParts.begin(), denseParts.end(),
                       [](const StepPart& p) { return p.key == "host_wait"; }));
}

TEST_CASE("CUDA graph scopes are checked as Megatron-Core checks them", "[compute][step][host]")
{
    json w = {{"model", "qwen3-30b-a3b"},      {"tensor_parallel", 1},
              {"expert_parallel", 16},         {"expert_tensor_parallel", 1},
              {"global_batch_sequences", 256}, {"cuda_graph_scope", {"moe_preprocess"}}};
    const DocumentEvaluation alone = run(w, 2);
    CHECK(findError(alone, "/workload/cuda_graph_scope", "layout"));
    w["cuda_graph_scope"] = {"moe_router", "moe_preprocess"};
    CHECK(run(w, 2).ok());
    // The full-iteration graph stands alone: Megatron-Core asserts cuda_graph_modules empty
    // with cuda_graph_impl "full_iteration".
    w["cuda_graph_scope"] = {"full_iteration"};
    CHECK(run(w, 2).ok());
    w["cuda_graph_scope"] = {"attn", "full_iteration"};
    const DocumentEvaluation mixed = run(w, 2);
    const Diagnostic* both = findError(mixed, "/workload/cuda_graph_scope", "layout");
    REQUIRE(both);
    CHECK_THAT(both->message, Catch::Contains("full_iteration"));
    // A scope Megatron-Core does not have is refused with the accepted names.
    w["cuda_graph_scope"] = {"moe_router", "experts"};
    const DocumentEvaluation unknown = run(w, 2);
    REQUIRE_FALSE(unknown.ok());
    const auto named = std::find_if(
        unknown.diagnostics.begin(), unknown.diagnostics.end(), [](const Diagnostic& x) {
            return x.severity == Severity::Error && x.path == "/workload/cuda_graph_scope";
        });
    REQUIRE(named != unknown.diagnostics.end());
    CHECK(named->message.find("\"experts\"") != std::string::npos);
    CHECK(named->hint.find("moe_preprocess") != std::string::npos);
    // The MoE scopes on a dense model change nothing, and say so.
    const DocumentEvaluation dense = run({{"model", "llama2-7b"},
                                          {"tensor_parallel", 1},
                                          {"global_batch_sequences", 256},
                                          {"cuda_graph_scope", {"attn", "moe_router"}}},
                                         2);
    REQUIRE(dense.ok());
    CHECK(std::any_of(dense.diagnostics.begin(), dense.diagnostics.end(), [](const Diagnostic& x) {
        return x.severity == Severity::Warning && x.code == "cuda-graph-scope-unused";
    }));
}

TEST_CASE("every kernel launched costs a fixed time", "[compute][step][kernels]")
{
    const json base = {{"model", "llama2-7b"},
                       {"tensor_parallel", 1},
                       {"global_batch_sequences", 1024},
                       {"recompute", "none"},
                       {"zero_stage", 1}};
    const DocumentEvaluation d = run(base, 8);
    REQUIRE(d.ok());
    const StepResult& s = d.evaluation->compute.step;
    // 32 layers of 10 kernels forward and 17 backward (fused attention), the output layer and
    // the loss 13, at 3 us each, per micro-batch.
    const double perMicroBatch = (32.0 * (10.0 + 17.0) + 13.0) * 3.0e-6;
    CHECK(s.kernelOverheadSeconds == Approx(s.microBatches * perMicroBatch).epsilon(1e-9));
    // Full recomputation launches the forward kernels again.
    json full = base;
    full["recompute"] = "full";
    const DocumentEvaluation f = run(full, 8);
    REQUIRE(f.ok());
    CHECK(f.evaluation->compute.step.kernelOverheadSeconds ==
          Approx(s.microBatches * (perMicroBatch + 32.0 * 10.0 * 3.0e-6)).epsilon(1e-9));
}

namespace {

/** The bundled catalog with \a edit applied to the JSON of its \a file, loaded from a copy. */
model::Catalog editedCatalog(const std::string& name, const std::string& file,
                             const std::function<void(json&)>& edit)
{
    const std::filesystem::path dir =
        std::filesystem::temp_directory_path() / ("dctwin-step-catalog-" + name);
    std::filesystem::remove_all(dir);
    std::filesystem::copy(test::dataDir() / "catalog", dir,
                          std::filesystem::copy_options::recursive);
    std::ifstream in(dir / file);
    json doc = json::parse(in);
    in.close();
    edit(doc);
    std::ofstream(dir / file) << doc.dump(1);
    auto loaded = model::Catalog::load(dir);
    if (!loaded)
        FAIL("catalog: " << loaded.error().toString());
    return std::move(*loaded);
}

json& entry(json& doc, const std::string& id)
{
    for (json& e : doc["entries"])
        if (e["id"] == id)
            return e;
    FAIL("no catalog entry " << id);
    return doc;
}

const json kSmallDense = {{"model", "llama2-7b"},         {"tensor_parallel", 1},
                          {"global_batch_sequences", 64}, {"micro_batch_size", 1},
                          {"recompute", "none"},          {"zero_stage", 1},
                          {"flash_attention", true}};

} // namespace

TEST_CASE("fused attention runs at the GPU's measured attention rate, not the GEMMs'",
          "[compute][step][attention]")
{
    // H100 in the catalog: cuDNN's fused attention at 52.4% of the peak forward and 50.5%
    // backward (FlashAttention-3 paper, Figures 5 and 6), the GEMMs at 80.1%.
    const DocumentEvaluation measured = run(kSmallDense, 1);
    const model::Catalog atGemmRate = editedCatalog("attention", "gpus.json", [](json& doc) {
        json& h100 = entry(doc, "h100-sxm5");
        h100.erase("attention_forward_efficiency");
        h100.erase("attention_backward_efficiency");
    });
    const DocumentEvaluation gemm =
        evaluateDocument(cluster(kSmallDense, 1), atGemmRate, "step.json");
    REQUIRE(measured.ok());
    REQUIRE(gemm.ok());
    const StepResult& a = measured.evaluation->compute.step;
    const StepResult& b = gemm.evaluation->compute.step;
    // Per layer and micro-batch the causal half of the scores, 2 b s^2 h forward, and 2.5 times
    // that backward as the attention benchmarks count it.
    const double s = 4096.0, h = 4096.0, peak = 989e12;
    const double forward = 2.0 * s * s * h;
    const double expected = 32.0 * a.microBatches *
                            (forward / (0.524 * peak) + 2.5 * forward / (0.505 * peak) -
                             3.0 * forward / (0.801 * peak));
    CHECK(a.computeSeconds - b.computeSeconds == Approx(expected).epsilon(0.01));
    CHECK(a.matmulShapeEfficiency < b.matmulShapeEfficiency);
    // The figures the attention rates move name them among their inputs (provenance).
    for (const char* key : {"step.compute_seconds", "step.seconds", "step.mfu"}) {
        INFO(key);
        const Metric* m = measured.evaluation->metric(key);
        REQUIRE(m);
        for (const char* input :
             {"/compute/gpu/attention_forward_efficiency",
              "/compute/gpu/attention_backward_efficiency", "/workload/flash_attention"})
            CHECK(std::find(m->inputs.begin(), m->inputs.end(), std::string(input)) !=
                  m->inputs.end());
    }
}

TEST_CASE("the loss streams the fp32 logits through HBM, the embedding its dense gradient",
          "[compute][step][loss]")
{
    // Doubling the vocabulary adds, per micro-batch, 52 bytes a logit (the cross entropy's
    // passes), 8 a weight of the output layer (its fp32 gradient accumulation) and 14 a weight
    // of the embedding (its dense gradient added to the fp32 one).
    const model::Catalog wide = editedCatalog(
        "vocab", "models.json", [](json& doc) { entry(doc, "llama2-7b")["vocab_size"] = 64000; });
    json workload = kSmallDense;
    workload["recompute"] = "full"; // the wider vocabulary still fits in 80 GB
    const DocumentEvaluation base = run(workload, 8);
    const DocumentEvaluation twice = evaluateDocument(cluster(workload, 8), wide, "step.json");
    REQUIRE(base.ok());
    REQUIRE(twice.ok());
    const StepResult& a = base.evaluation->compute.step;
    const StepResult& b = twice.evaluation->compute.step;
    const double extraVocab = 32000.0, s = 4096.0, h = 4096.0;
    const double hbm = 3.35e12 * 0.9;
    const double expected =
        a.microBatches * (52.0 * s * extraVocab + (8.0 + 14.0) * extraVocab * h) / hbm;
    CHECK(b.memoryBoundSeconds - a.memoryBoundSeconds == Approx(expected).epsilon(0.01));
}

TEST_CASE("bf16 gradients halve the gradient memory, the reduction and the buffer passes",
          "[compute][step][memory][gradients]")
{
    // NeMo's distributed Adam with optim.grad_sync_dtype bf16: 2 bytes a gradient kept,
    // reduce-scattered and passed over once a step.
    json workload = kSmallDense;
    const DocumentEvaluation fp32 = run(workload, 1);
    workload["gradient_precision"] = "bf16";
    const DocumentEvaluation bf16 = run(workload, 1);
    REQUIRE(fp32.ok());
    REQUIRE(bf16.ok());
    CHECK(metric(bf16, "step.memory_gradients_gb") ==
          Approx(0.5 * metric(fp32, "step.memory_gradients_gb")));
    CHECK(metric(bf16, "step.data_parallel_total_seconds") <
          0.75 * metric(fp32, "step.data_parallel_total_seconds"));
    const StepResult& s = bf16.evaluation->compute.step;
    const double hbm = 3.35e12 * 0.9;
    CHECK(s.optimizerSeconds ==
          Approx((28.0 * s.parameters / 8.0 + 8.0 * s.parameters) / hbm).epsilon(0.01));
    // An explicit fp32 with fp16 training doubles what auto keeps (the weights' 2 bytes).
    workload["precision"] = "fp16";
    workload["gradient_precision"] = "auto";
    const DocumentEvaluation fp16 = run(workload, 1);
    workload["gradient_precision"] = "fp32";
    const DocumentEvaluation fp16Fp32 = run(workload, 1);
    CHECK(metric(fp16Fp32, "step.memory_gradients_gb") ==
          Approx(2.0 * metric(fp16, "step.memory_gradients_gb")));
}

TEST_CASE("DeepSpeed's BF16 optimizer adds each micro-batch's bf16 gradient to an fp32 one",
          "[compute][step][memory][gradients]")
{
    // deepspeed/runtime/bf16_optimizer.py, update_hp_grads after every micro-batch's backward:
    // the bf16 gradient written (2 bytes a weight), cast to an fp32 copy (read 2, write 4) and
    // added to the fp32 gradient (read 4 and 4, write 4): 20 bytes a weight where the fused
    // main_grad moves 8. Llama 2 7B on 8 H100, TP 1, ZeRO-1, 8 micro-batches a step, every
    // layer recomputed (the second gradient does not fit beside all the activations).
    json workload = kSmallDense;
    workload["recompute"] = "full";
    const DocumentEvaluation fused = runOk(workload, 1);
    workload["gradient_accumulation"] = "deepspeed_bf16";
    const DocumentEvaluation deepSpeed = runOk(workload, 1);
    const StepResult& a = fused.evaluation->compute.step;
    const StepResult& b = deepSpeed.evaluation->compute.step;
    REQUIRE(a.microBatches == Approx(8.0));
    const double vh = 32000.0 * 4096.0;
    const double layers = a.parameters - 2.0 * vh; // untied input and output embeddings
    const double hbm = 3.35e12 * 0.9;
    // The layers' weights and the output layer's 12 bytes more; the input embedding's dense
    // gradient 8 more (22 against 14).
    CHECK(b.memoryBoundSeconds - a.memoryBoundSeconds ==
          Approx(a.microBatches * (12.0 * layers + 12.0 * vh + 8.0 * vh) / hbm).epsilon(0.01));
    // Two kernels (the cast and the add) for each of a layer's six weight tensors.
    CHECK(b.kernelOverheadSeconds - a.kernelOverheadSeconds ==
          Approx(a.microBatches * 32.0 * 12.0 * 3.0e-6).epsilon(0.01));
    // Both gradients kept: the bf16 ones beside the fp32 ones, 6 bytes a weight.
    CHECK(metric(deepSpeed, "step.memory_gradients_gb") ==
          Approx(1.5 * metric(fused, "step.memory_gradients_gb")));
    // The fp32 gradients all-reduced (twice a reduce-scatter's bytes), then the bf16 weights
    // gathered: more than ZeRO-1's reduce-scatter and gather.
    CHECK(metric(deepSpeed, "step.data_parallel_total_seconds") >
          1.3 * metric(fused, "step.data_parallel_total_seconds"));
    CHECK(metric(deepSpeed, "step.seconds") > metric(fused, "step.seconds"));
    // A value it does not know is an error naming the path and what is accepted.
    workload["gradient_accumulation"] = "apex";
    const DocumentEvaluation bad = run(workload, 1);
    CHECK_FALSE(bad.ok());
    bool named = false;
    for (const Diagnostic& x : bad.diagnostics)
        named = named ||
                (x.severity == Severity::Error && x.path == "/workload/gradient_accumulation" &&
                 (x.message + x.hint).find("deepspeed_bf16") != std::string::npos);
    CHECK(named);
}

TEST_CASE("Tied embeddings on a pipeline add the first and last stages' all-reduce",
          "[compute][step][gradients]")
{
    // Megatron-LM's _allreduce_word_embedding_grads (DeepSpeed's _exec_reduce_tied_grads): the
    // input embedding's and the output layer's gradients of one weight summed between the two
    // stages after the backward, exposed. Llama 2 7B with its embeddings tied, on 2 nodes of 8
    // H100, TP 8, PP 2, no data parallelism: each rank's V h / 8 = 16.4 M fp32 gradients (65.5
    // MB) to its peer on the other node, over its own 400G NIC (about 47 GB/s): about 1.4 ms.
    const model::Catalog tied = editedCatalog("tied", "models.json", [](json& doc) {
        entry(doc, "llama2-7b")["tied_embeddings"] = true;
    });
    json workload = kSmallDense;
    workload["tensor_parallel"] = 8;
    workload["pipeline_parallel"] = 2;
    const json scenario = cluster(workload, 2);
    const DocumentEvaluation untiedRun = evaluateDocument(scenario, test::catalog(), "step.json");
    const DocumentEvaluation tiedRun = evaluateDocument(scenario, tied, "step.json");
    REQUIRE(untiedRun.ok());
    REQUIRE(tiedRun.ok());
    CHECK(metric(untiedRun, "step.data_parallel_seconds") == 0.0);
    const double seconds = metric(tiedRun, "step.data_parallel_seconds");
    CHECK(seconds > 1.0e-3);
    CHECK(seconds < 3.0e-3);
    // One stage holds both: nothing to sum.
    workload["pipeline_parallel"] = 1;
    const json one = cluster(workload, 1);
    const DocumentEvaluation tiedOne = evaluateDocument(one, tied, "step.json");
    REQUIRE(tiedOne.ok());
    CHECK(metric(tiedOne, "step.data_parallel_seconds") == 0.0);
}

TEST_CASE("without dropout no masks are kept or written", "[compute][step][memory][dropout]")
{
    // Korthikanti et al. 2022, 4.1: two 1-byte masks of s b h per layer (attention and MLP
    // dropout); Llama 2 7B on one GPU, no parallelism, 32 layers of 4,096 at 4,096 tokens.
    json workload = kSmallDense;
    const DocumentEvaluation with = run(workload, 1);
    workload["dropout"] = false;
    const DocumentEvaluation without = run(workload, 1);
    const double masks = 2.0 * 4096.0 * 4096.0 * 32.0 / 1e9;
    CHECK(metric(with, "step.memory_activations_gb") -
              metric(without, "step.memory_activations_gb") ==
          Approx(masks).epsilon(1e-6));
    CHECK(metric(without, "step.memory_bound_seconds") < metric(with, "step.memory_bound_seconds"));
}

TEST_CASE("a fused cross entropy keeps the bf16 logits, not fp32 ones",
          "[compute][step][memory][loss]")
{
    // The logits and their gradient at 2 bytes instead of 4 on the last stage (b s V), and 6
    // bytes a logit through HBM instead of the unfused loss's 52.
    json workload = kSmallDense;
    const DocumentEvaluation unfused = run(workload, 1);
    workload["fused_cross_entropy"] = true;
    const DocumentEvaluation fused = run(workload, 1);
    REQUIRE(unfused.ok());
    REQUIRE(fused.ok());
    const double logits = 4096.0 * 32000.0;
    CHECK(metric(unfused, "step.memory_buffers_gb") - metric(fused, "step.memory_buffers_gb") ==
          Approx(2.0 * 2.0 * logits / 1e9).epsilon(1e-6));
    const StepResult& a = unfused.evaluation->compute.step;
    const StepResult& b = fused.evaluation->compute.step;
    const double hbm = 3.35e12 * 0.9;
    CHECK(a.memoryBoundSeconds - b.memoryBoundSeconds ==
          Approx(a.microBatches * 46.0 * logits / hbm).epsilon(0.01));
}

TEST_CASE("bad memory-fit fields are errors naming the JSON path and what is accepted",
          "[compute][step][memory]")
{
    json workload = kSmallDense;
    workload["gradient_precision"] = "int8";
    const DocumentEvaluation precision = run(workload, 1);
    CHECK_FALSE(precision.ok());
    bool named = false;
    for (const Diagnostic& x : precision.diagnostics)
        named =
            named || (x.severity == Severity::Error && x.path == "/workload/gradient_precision" &&
                      (x.message + x.hint).find("bf16") != std::string::npos);
    CHECK(named);
    workload = kSmallDense;
    workload["dropout"] = 0.1;
    const DocumentEvaluation dropout = run(workload, 1);
    CHECK_FALSE(dropout.ok());
    named = false;
    for (const Diagnostic& x : dropout.diagnostics)
        named = named || (x.severity == Severity::Error && x.path == "/workload/dropout");
    CHECK(named);
}

TEST_CASE("the step passes over the gradient buffer besides the optimizer's shard",
          "[compute][step][optimizer]")
{
    // ZeRO-1 over 8 ranks: Adam's 28 bytes over the rank's eighth, and the fp32 gradient buffer
    // of every weight scaled (read and write), checked for NaN (read) and zeroed (write).
    const DocumentEvaluation d = run(kSmallDense, 1);
    REQUIRE(d.ok());
    const StepResult& s = d.evaluation->compute.step;
    const double hbm = 3.35e12 * 0.9;
    CHECK(s.optimizerSeconds ==
          Approx((28.0 * s.parameters / 8.0 + 16.0 * s.parameters) / hbm).epsilon(0.01));
}

namespace {

/** Four GB200 NVL72 racks (288 GPUs), as \a nodes of \a node, training Llama 3 70B. */
json gb200(const std::string& node, int nodes, int tp)
{
    return {{"schema_version", 2},
            {"name", "gb200"},
            {"site", "dallas"},
            {"compute", {{"node", node}, {"node_count", nodes}}},
            {"network",
             {{"protocol", "infiniband"},
              {"topology", "fat_tree"},
              {"switch", "qm9700"},
              {"routing", "adaptive"}}},
            {"facility", {{"rack_power_limit_kw", 140}, {"rack_units", 48}}},
            {"cooling", {{"system", "d2c-high-density"}}},
            {"workload",
             {{"model", "llama3-70b"},
              {"precision", "bf16"},
              {"tensor_parallel", tp},
              {"pipeline_parallel", 1},
              {"sequence_parallel", true},
              {"global_batch_sequences", 288},
              {"recompute", "selective"},
              {"zero_stage", 1}}}};
}

bool hasDiagnostic(const DocumentEvaluation& d, const std::string& code)
{
    return std::any_of(d.diagnostics.begin(), d.diagnostics.end(),
                       [&](const Diagnostic& x) { return x.code == code; });
}

} // namespace

TEST_CASE("NVLink across nodes: GB200 NVL72 racks as 18 trays of 4 GPUs time as 72-GPU nodes",
          "[compute][step][scale-up]")
{
    // The NVL72 rack's 18 compute trays of 4 GPUs share one 72-GPU NVLink domain (NVLink switch
    // trays), and NCCL takes the domain for the node. Described as 72 trays the four racks must
    // lay out and time as the same four racks described as 72-GPU nodes: tensor parallelism of
    // 8 or 16 on NVLink (no across-nodes warning), the same step within a few percent, 18 trays
    // a rack (whole domains), the same four racks.
    for (int tp : {8, 16}) {
        INFO("TP " << tp);
        const auto racks = evaluateDocument(gb200("gb200-nvl72", 4, tp), test::catalog(), "r");
        const auto trays =
            evaluateDocument(gb200("gb200-nvl72-tray", 72, tp), test::catalog(), "t");
        REQUIRE(racks.ok());
        REQUIRE(trays.ok());
        CHECK_FALSE(hasDiagnostic(trays, "tensor-parallel-across-nodes"));
        CHECK_FALSE(hasDiagnostic(trays, "scale-up-domain"));
        CHECK(metric(trays, "step.seconds") == Approx(metric(racks, "step.seconds")).epsilon(0.03));
        CHECK(metric(trays, "step.tensor_parallel_seconds") ==
              Approx(metric(racks, "step.tensor_parallel_seconds")).epsilon(0.03));
        CHECK(metric(trays, "power.nodes_per_rack") == 18.0);
        CHECK(metric(trays, "power.racks") == metric(racks, "power.racks"));
    }

    // 20 trays: one whole domain and a part of one, said so.
    const auto partial = evaluateDocument(gb200("gb200-nvl72-tray", 20, 4), test::catalog(), "p");
    CHECK(hasDiagnostic(partial, "scale-up-domain"));

    // Racks of 100 kW hold 13 trays (7.33 kW nameplate each): a domain of 18 does not fit one,
    // said so, and the racks keep the 13.
    json small = gb200("gb200-nvl72-tray", 72, 8);
    small["facility"]["rack_power_limit_kw"] = 100;
    const auto split = evaluateDocument(small, test::catalog(), "s");
    CHECK(hasDiagnostic(split, "scale-up-domain-over-rack"));
    CHECK_FALSE(hasDiagnostic(split, "scale-up-domain-beyond-racks"));
    CHECK(metric(split, "power.nodes_per_rack") == 13.0);
    CHECK(split.evaluation->verdict().feasibility != Feasibility::Infeasible);

    // Racks of 40 kW hold 5: a domain would span 4 racks, which NVLink's copper does not join
    // (one rack or two, as GB200 NVL72's 72x1 and 36x2): the design is infeasible, said so.
    small["facility"]["rack_power_limit_kw"] = 40;
    const auto spread = evaluateDocument(small, test::catalog(), "s");
    CHECK(hasDiagnostic(spread, "scale-up-domain-beyond-racks"));
    CHECK_FALSE(hasDiagnostic(spread, "scale-up-domain-over-rack"));
    CHECK(metric(spread, "power.nodes_per_rack") == 5.0);
    CHECK(spread.evaluation->verdict().feasibility == Feasibility::Infeasible);
}

namespace {

/** DeepSeek-V3 on 64 DGX H100 nodes (PP 16 over its 61 layers, EP 32, BF16), with \a extra. */
json deepSeekWorkload(const json& extra)
{
    json w = {{"model", "deepseek-v3"},        {"tensor_parallel", 1},
              {"pipeline_parallel", 16},       {"expert_parallel", 32},
              {"global_batch_sequences", 512}, {"sequence_length", 4096},
              {"flash_attention", true},       {"dropout", false}};
    w.update(extra);
    return w;
}

bool hasDiagnostic(const DocumentEvaluation& d, Severity severity, const std::string& path,
                   const std::string& code)
{
    return std::any_of(d.diagnostics.begin(), d.diagnostics.end(), [&](const Diagnostic& x) {
        return x.severity == severity && x.path == path && x.code == code;
    });
}

} // namespace

TEST_CASE("each recompute module frees what Megatron-Core's checkpoint discards",
          "[compute][step][memory][recompute]")
{
    // DeepSeek-V3 (h 7168; MLA with 128 heads of 128 + 64 rotary, latents 1536 and 512; 58 of 61
    // layers MoE with 8 routed and 1 shared expert of 2048, 3 dense MLPs of 18432), BF16, TP 1.
    // Per s b h of a layer: layernorm frees the two norms' outputs (2 x 2 bytes); mla_up_proj the
    // up-projected Q, K (128 x 192 each) and V (128 x 128), 2 bytes each; moe_act the routed
    // experts' activation outputs (8 x 2048 x 2 bytes); mlp a dense MLP's FC1 output and FC2
    // input; shared_experts the shared expert's input, FC1 output and FC2 input; moe all of the
    // MoE MLP's. Activations are linear in those units, so each module's saving over layernorm's
    // is the ratio of the units.
    const double moe = 58.0 / 61.0;
    const double e = 2048.0 / 7168.0;
    const double ffn = 18432.0 / 7168.0;
    const double layernorm = 4.0;
    const std::vector<std::pair<std::string, double>> modules = {
        {"mla_up_proj", 2.0 * (2.0 * 128.0 * 192.0 + 128.0 * 128.0) / 7168.0},
        {"moe_act", moe * 8.0 * 2.0 * e},
        {"mlp", (1.0 - moe) * (4.0 * ffn + 2.0 * ffn)},
        {"shared_experts", moe * (2.0 + 6.0 * e)},
        {"moe", moe * 9.0 * (2.0 + 6.0 * e)}};
    const double none = metric(run(deepSeekWorkload({{"recompute_modules", json::array()}})),
                               "step.memory_activations_gb");
    const double norms = metric(run(deepSeekWorkload({{"recompute_modules", {"layernorm"}}})),
                                "step.memory_activations_gb");
    REQUIRE(norms < none);
    for (const auto& [name, units] : modules) {
        INFO(name);
        const double with = metric(run(deepSeekWorkload({{"recompute_modules", {name}}})),
                                   "step.memory_activations_gb");
        CHECK((none - with) / (none - norms) == Approx(units / layernorm).epsilon(1e-9));
    }
    // Megatron-Core's default, core_attn alone, keeps what fused attention keeps: nothing more to
    // free (the fused kernel keeps no scores), as selective did before recompute_modules.
    const DocumentEvaluation coreAttention = run(deepSeekWorkload({{"recompute", "selective"}}));
    CHECK(metric(coreAttention, "step.memory_activations_gb") == Approx(none).epsilon(1e-12));
}

TEST_CASE("recomputed modules run their part again in the backward pass",
          "[compute][step][recompute]")
{
    auto step = [](const json& modules) {
        const DocumentEvaluation d = run(deepSeekWorkload({{"recompute_modules", modules}}));
        REQUIRE(d.evaluation);
        return d.evaluation->compute.step;
    };
    const StepResult none = step(json::array());
    CHECK(none.recomputeSeconds == 0.0);
    // GEMMs again: the up-projections, the dense MLPs, the shared experts, the whole MoE MLP.
    const StepResult up = step({"mla_up_proj"});
    const StepResult mlp = step({"mlp"});
    const StepResult shared = step({"shared_experts"});
    const StepResult moe = step({"moe"});
    CHECK(up.recomputeSeconds > 0.0);
    CHECK(mlp.recomputeSeconds > 0.0);
    CHECK(shared.recomputeSeconds > 0.0);
    CHECK(moe.recomputeSeconds > shared.recomputeSeconds);
    CHECK(moe.hardwareFlopsPerStep > shared.hardwareFlopsPerStep);
    CHECK(shared.hardwareFlopsPerStep > none.hardwareFlopsPerStep);
    CHECK(none.hardwareFlopsPerStep == Approx(none.modelFlopsPerStep).epsilon(1e-12));
    // The MoE layer recomputed dispatches and combines again: 6 all-to-alls a layer, not 4.
    CHECK(moe.expertParallelSeconds / none.expertParallelSeconds == Approx(1.5).epsilon(1e-9));
    CHECK(moe.expertDispatch.perStep / none.expertDispatch.perStep == Approx(1.5).epsilon(1e-9));
    // Element-wise work again: the norms and the experts' activation re-read and re-written.
    CHECK(step({"layernorm"}).memoryBoundSeconds > none.memoryBoundSeconds);
    CHECK(step({"moe_act"}).memoryBoundSeconds > none.memoryBoundSeconds);
    CHECK(step({"layernorm"}).recomputeSeconds == 0.0);
}

TEST_CASE("recompute_num_layers recomputes that many layers of each chunk whole, the block method",
          "[compute][step][memory][recompute]")
{
    // 4 layers a chunk (61 on 16 stages); 2 recomputed whole keep only their input, the other 2
    // everything: activations and recomputation halfway between none and full.
    auto step = [](const json& extra) {
        const DocumentEvaluation d = run(deepSeekWorkload(extra));
        REQUIRE(d.evaluation);
        return d.evaluation->compute.step;
    };
    const StepResult none = step({{"recompute", "none"}});
    const StepResult full = step({{"recompute", "full"}});
    const StepResult half = step({{"recompute", "full"}, {"recompute_num_layers", 2}});
    const StepResult all = step({{"recompute", "full"}, {"recompute_num_layers", 4}});
    CHECK(half.memory.activationsGb ==
          Approx((none.memory.activationsGb + full.memory.activationsGb) / 2.0).epsilon(1e-9));
    CHECK(half.recomputeSeconds == Approx(full.recomputeSeconds / 2.0).epsilon(1e-9));
    CHECK(all.memory.activationsGb == Approx(full.memory.activationsGb).epsilon(1e-12));
    CHECK(all.stepSeconds == Approx(full.stepSeconds).epsilon(1e-12));
    CHECK(half.stepSeconds < full.stepSeconds);
    CHECK(half.stepSeconds > none.stepSeconds);
}

TEST_CASE("bf16 optimizer moments keep 8 bytes of state a parameter, not 12",
          "[compute][step][memory][optimizer]")
{
    const DocumentEvaluation fp32 = run(deepSeekWorkload(json::object()));
    const DocumentEvaluation bf16 = run(deepSeekWorkload({{"optimizer_moments", "bf16"}}));
    CHECK(metric(bf16, "step.memory_optimizer_gb") / metric(fp32, "step.memory_optimizer_gb") ==
          Approx(8.0 / 12.0).epsilon(1e-12));
    CHECK(metric(bf16, "step.memory_weights_gb") ==
          Approx(metric(fp32, "step.memory_weights_gb")).epsilon(1e-12));
    CHECK(metric(bf16, "step.optimizer_seconds") < metric(fp32, "step.optimizer_seconds"));
}

TEST_CASE("recompute fields read out of place are warnings, bad ones errors naming the field",
          "[compute][step][recompute][validation]")
{
    // Modules with full recomputation, or a layer count with selective: read only by the other.
    const auto modulesWithFull =
        run(deepSeekWorkload({{"recompute", "full"}, {"recompute_modules", {"layernorm"}}}));
    CHECK(hasDiagnostic(modulesWithFull, Severity::Warning, "/workload/recompute_modules",
                        "recompute-modules-unused"));
    const auto layersWithSelective =
        run(deepSeekWorkload({{"recompute", "selective"}, {"recompute_num_layers", 2}}));
    CHECK(hasDiagnostic(layersWithSelective, Severity::Warning, "/workload/recompute_num_layers",
                        "recompute-num-layers-unused"));
    // A module the model does not have changes nothing.
    const auto mlaOnLlama =
        run({{"model", "llama2-7b"}, {"recompute_modules", {"core_attn", "mla_up_proj"}}});
    CHECK(hasDiagnostic(mlaOnLlama, Severity::Warning, "/workload/recompute_modules",
                        "recompute-module-absent"));
    CHECK_FALSE(hasDiagnostic(run(deepSeekWorkload({{"recompute_modules", {"mla_up_proj"}}})),
                              Severity::Warning, "/workload/recompute_modules",
                              "recompute-module-absent"));
    // More layers than a chunk holds.
    const auto tooMany =
        run(deepSeekWorkload({{"recompute", "full"}, {"recompute_num_layers", 5}}));
    CHECK(findError(tooMany, "/workload/recompute_num_layers", "layout"));
    // Malformed: not an array, an unknown name, a name twice, an unknown precision.
    for (const json& bad : {json("layernorm"), json({"layernorm", "norms"}),
                            json({"moe_act", "moe_act"}), json({1})}) {
        INFO(bad.dump());
        const auto d = run(deepSeekWorkload({{"recompute_modules", bad}}));
        CHECK(std::any_of(d.diagnostics.begin(), d.diagnostics.end(), [](const Diagnostic& x) {
            return x.severity == Severity::Error && x.path == "/workload/recompute_modules" &&
                   x.hint.find("core_attn") != std::string::npos;
        }));
    }
    const auto precision = run(deepSeekWorkload({{"optimizer_moments", "fp16"}}));
    CHECK(std::any_of(
        precision.diagnostics.begin(), precision.diagnostics.end(), [](const Diagnostic& x) {
            return x.severity == Severity::Error && x.path == "/workload/optimizer_moments" &&
                   x.hint.find("bf16") != std::string::npos;
        }));
}

namespace {

/** Llama 3 70B on 16 GB200 trays (64 GPUs on one NVLink domain) in one stage: ZeRO-3, FP8,
 *  no recomputation, \a offload layers' activations offloaded. */
json offloadScenario(int offload, int microBatch = 1)
{
    json s = gb200("gb200-nvl72-tray", 16, 1);
    s["workload"] = {{"model", "llama3-70b"},
                     {"precision", "fp8"},
                     {"tensor_parallel", 1},
                     {"pipeline_parallel", 1},
                     {"global_batch_sequences", 256},
                     {"micro_batch_size", microBatch},
                     {"sequence_length", 8192},
                     {"recompute", "none"},
                     {"zero_stage", 3},
                     {"dropout", false},
                     {"fused_cross_entropy", true},
                     {"activation_offload_layers", offload}};
    return s;
}

} // namespace

TEST_CASE("activation offloading keeps L - k + 1 layers' activations on the GPU, k in host memory",
          "[compute][step][memory][offload]")
{
    const auto none = evaluateDocument(offloadScenario(0), test::catalog(), "o");
    const auto half = evaluateDocument(offloadScenario(40), test::catalog(), "o");
    const double all = metric(none, "step.memory_activations_gb");
    // Llama 3 70B's 80 layers: 40 offloaded, 40 kept and one reloading as the backward starts.
    CHECK(metric(half, "step.memory_activations_gb") == Approx(all * 41.0 / 80.0));
    CHECK(metric(half, "step.memory_offloaded_gb") == Approx(all * 40.0 / 80.0));
    CHECK(metric(none, "step.memory_offloaded_gb") == 0.0);
    CHECK(metric(half, "step.memory_total_gb") ==
          Approx(metric(none, "step.memory_total_gb") - all * 39.0 / 80.0));
    // Over NVLink-C2C (225 GB/s a GPU each way) a layer's copy takes less than the two layers'
    // computation its window gives it: nothing exposed, the step unchanged.
    CHECK(metric(half, "step.offload_seconds") == 0.0);
    CHECK(metric(half, "step.seconds") == Approx(metric(none, "step.seconds")));
    // The breakdown shows the copies only where activations are offloaded.
    const auto hasOffloadPart = [](const DocumentEvaluation& d) {
        const auto parts = stepBreakdown(d.evaluation->compute);
        return std::any_of(parts.begin(), parts.end(),
                           [](const StepPart& p) { return p.key == "offload"; });
    };
    CHECK(hasOffloadPart(half));
    CHECK_FALSE(hasOffloadPart(none));
}

TEST_CASE("offloaded copies the computation of their window cannot cover are exposed",
          "[compute][step][offload]")
{
    // Llama 3 8B (32 layers) on one DGX H100, one stage, over PCIe 5.0 (63 GB/s a GPU each way):
    // a layer's copy (about 1 GB of activations at sequence 8,192) outlasts one layer's forward.
    auto eight = [](int offload) {
        return run({{"model", "llama3-8b"},
                    {"tensor_parallel", 1},
                    {"pipeline_parallel", 1},
                    {"global_batch_sequences", 64},
                    {"sequence_length", 8192},
                    {"recompute", "none"},
                    {"zero_stage", 3},
                    {"dropout", false},
                    {"activation_offload_layers", offload}},
                   1);
    };
    const auto none = eight(0);
    const auto few = eight(4);
    const auto most = eight(31);
    std::string diagnostics;
    for (const auto& x : most.diagnostics)
        diagnostics += x.path + ": " + x.message + "\n";
    INFO(diagnostics);
    REQUIRE(most.ok());
    // Four layers: each copy has eight layers' computation to hide under, and does.
    CHECK(metric(few, "step.offload_seconds") == 0.0);
    // 31 of 32: a window of about one layer; the copies are exposed, and only they add to the step.
    const double exposed = metric(most, "step.offload_seconds");
    CHECK(exposed > 0.0);
    CHECK(metric(most, "step.seconds") ==
          Approx(metric(none, "step.seconds") + exposed).epsilon(1e-9));
    // At most the copies themselves, both ways, every offloaded layer and micro-batch.
    const double layerGb = metric(most, "step.memory_offloaded_gb") / 31.0;
    const double microBatches = metric(most, "step.micro_batches");
    CHECK(exposed < 2.0 * 31.0 * microBatches * layerGb / 63.0);
}

TEST_CASE("activation offloading outside what Megatron-Core allows is an error naming the field",
          "[compute][step][offload][validation]")
{
    const std::string field = "/workload/activation_offload_layers";
    // As many layers as the model has (Megatron-Core: fewer than num_layers).
    CHECK(findError(evaluateDocument(offloadScenario(80), test::catalog(), "o"), field, "layout"));
    // Pipeline parallelism, or recomputation.
    json pipelined = offloadScenario(20);
    pipelined["workload"]["pipeline_parallel"] = 2;
    CHECK(findError(evaluateDocument(pipelined, test::catalog(), "o"), field, "layout"));
    json recomputed = offloadScenario(20);
    recomputed["workload"]["recompute"] = "selective";
    const auto selective = evaluateDocument(recomputed, test::catalog(), "o");
    const Diagnostic* error = findError(selective, field, "layout");
    REQUIRE(error);
    CHECK_THAT(error->hint, Catch::Contains("recompute \"none\""));
    // More than the node's host memory: 8 GPUs of Llama 3 70B at micro-batch 4 on a DGX H100
    // (2 TB).
    const auto host = run({{"model", "llama3-70b"},
                           {"tensor_parallel", 1},
                           {"pipeline_parallel", 1},
                           {"micro_batch_size", 4},
                           {"global_batch_sequences", 32},
                           {"sequence_length", 8192},
                           {"recompute", "none"},
                           {"zero_stage", 3},
                           {"activation_offload_layers", 79}},
                          1);
    const Diagnostic* memory = findError(host, field, "memory-fit");
    REQUIRE(memory);
    CHECK_THAT(memory->message, Catch::Contains("dgx-h100"));
    // A layout short of GPU memory in one stage is pointed to offloading.
    const auto short_ = evaluateDocument(offloadScenario(0, 2), test::catalog(), "o");
    const Diagnostic* fit = findError(short_, "/workload/recompute", "memory-fit");
    REQUIRE(fit);
    CHECK_THAT(fit->hint, Catch::Contains("activation_offload_layers"));
}

TEST_CASE("FP8 recipes quantize as Transformer Engine does and run MXFP8 GEMMs at their own rate",
          "[compute][step][fp8recipe]")
{
    // Llama 3 8B on one DGX B200 in FP8, as Megatron-Bridge's B200 recipe lays it out.
    const json base = {{"model", "llama3-8b"},          {"precision", "fp8"},
                       {"tensor_parallel", 1},          {"micro_batch_size", 2},
                       {"global_batch_sequences", 128}, {"sequence_length", 8192},
                       {"recompute", "none"},           {"dropout", false}};
    auto b200 = [&](const char* recipe) {
        json s = cluster(base, 1);
        s["compute"]["node"] = "dgx-b200";
        if (recipe)
            s["workload"]["fp8_recipe"] = recipe;
        return evaluateOk(s, "b200.json").evaluation->compute.step;
    };
    const StepResult delayed = b200(nullptr); // Megatron-Core's default recipe
    const StepResult named = b200("delayed");
    CHECK(named.stepSeconds == Approx(delayed.stepSeconds));
    const StepResult tensorwise = b200("tensorwise");
    const StepResult mxfp8 = b200("mxfp8");
    const StepResult blockwise = b200("blockwise");
    // The GEMMs' rate: per-tensor scales (delayed, tensorwise) at matmul_efficiency_fp8 (B200
    // 0.763), MXFP8 and blockwise (emulated with MXFP8 on Blackwell) at matmul_efficiency_mxfp8
    // (0.726): the linear layers' GEMMs 0.763 / 0.726 times longer; attention and the output
    // layer run in BF16 either way.
    CHECK(tensorwise.computeSeconds == Approx(delayed.computeSeconds));
    CHECK(mxfp8.computeSeconds > delayed.computeSeconds * 1.02);
    CHECK(mxfp8.computeSeconds < delayed.computeSeconds * 0.763 / 0.726);
    CHECK(blockwise.computeSeconds == Approx(mxfp8.computeSeconds));
    // The quantization's HBM traffic: delayed's norms write FP8 themselves, MXFP8 and
    // blockwise quantize every input apart with 1/16 byte of scales an element, current
    // scaling reads each input the norms do not produce once more for its amax.
    CHECK(delayed.memoryBoundSeconds < mxfp8.memoryBoundSeconds);
    CHECK(mxfp8.memoryBoundSeconds < tensorwise.memoryBoundSeconds);
    CHECK(blockwise.memoryBoundSeconds == Approx(mxfp8.memoryBoundSeconds));
    // Current scaling launches the amax and scale kernels beside each quantization.
    CHECK(tensorwise.kernelOverheadSeconds > delayed.kernelOverheadSeconds);
    CHECK(mxfp8.kernelOverheadSeconds == Approx(delayed.kernelOverheadSeconds));
    // End to end: delayed the fastest; MXFP8's slower GEMMs against current scaling's amax
    // passes leave those two within 2% of each other.
    CHECK(delayed.stepSeconds < tensorwise.stepSeconds);
    CHECK(delayed.stepSeconds < mxfp8.stepSeconds);
    CHECK(mxfp8.stepSeconds == Approx(tensorwise.stepSeconds).epsilon(0.02));

    // On Hopper, blockwise GEMMs run at the per-tensor FP8 rate (DeepGEMM's 1 x 128 and
    // 128 x 128 kernels measure as cuBLAS's per-tensor ones: catalog notes of h100-sxm5), their
    // quantization unfused.
    json hopper = base;
    hopper["micro_batch_size"] = 1;
    hopper["recompute"] = "full";
    const DocumentEvaluation h100Delayed = run(hopper, 1);
    json hopperBlockwise = hopper;
    hopperBlockwise["fp8_recipe"] = "blockwise";
    const DocumentEvaluation h100Blockwise = run(hopperBlockwise, 1);
    REQUIRE(h100Delayed.ok());
    REQUIRE(h100Blockwise.ok());
    CHECK(h100Blockwise.evaluation->compute.step.computeSeconds ==
          Approx(h100Delayed.evaluation->compute.step.computeSeconds));
    CHECK(h100Blockwise.evaluation->compute.step.memoryBoundSeconds >
          h100Delayed.evaluation->compute.step.memoryBoundSeconds);
}

TEST_CASE("FP8 quantizes the routed experts' inputs on the tokens dispatched to each rank",
          "[compute][step][fp8recipe][moe]")
{
    // Qwen3-30B-A3B (every layer MoE) on 2 DGX H100, EP 16, with 2, 4 and 8 experts a token.
    // Current scaling reads each expert input once more for its amax than delayed scaling does
    // (6 bytes an element against 4: the pre-MLP norm is a separate TENorm, so neither fuses
    // it); everything else that differs between the two recipes does not depend on the experts
    // a token visits. So the difference grows by the same step with each doubling's added
    // copies: D(8) - D(4) = 2 (D(4) - D(2)), and without the experts' casts it would not grow.
    auto memory = [](int active, const char* recipe) {
        const json w = {{"model", {{"id", "qwen3-30b-a3b"}, {"active_experts", active}}},
                        {"tensor_parallel", 1},
                        {"expert_parallel", 16},
                        {"expert_tensor_parallel", 1},
                        {"precision", "fp8"},
                        {"fp8_recipe", recipe},
                        {"global_batch_sequences", 256},
                        {"recompute", "none"},
                        {"sequence_length", 4096}};
        return runOk(w, 2).evaluation->compute.step.memoryBoundSeconds;
    };
    const double d2 = memory(2, "tensorwise") - memory(2, "delayed");
    const double d4 = memory(4, "tensorwise") - memory(4, "delayed");
    const double d8 = memory(8, "tensorwise") - memory(8, "delayed");
    CHECK(d2 > 0.0);
    CHECK(d4 > d2);
    CHECK(d8 - d4 == Approx(2.0 * (d4 - d2)).epsilon(1e-6));
}

TEST_CASE("FP8's grouped experts quantize split by split except under delayed scaling",
          "[compute][step][fp8recipe][moe][host]")
{
    // Transformer Engine's GroupedLinear quantizes a grouped GEMM's input with one fused
    // multi-tensor cast under delayed scaling, and split by split (a local expert's rows each)
    // under the other recipes: current scaling zeroes the split's amax, computes it, derives
    // its scale and casts, 4 kernels a split. Qwen3-30B-A3B (48 MoE layers) on 2 DGX H100,
    // EP 16 and EP 8 (8 and 16 local experts; DP 16 either way, 16 micro-batches of one
    // sequence). Four inputs a layer's micro-batch (FC1's and FC2's forward, their output
    // gradients backward): the 8 more local experts of EP 8 add 4 x 4 x 8 kernels of current
    // scaling's a layer's micro-batch over delayed's, at the fixed 3 us a kernel.
    auto step = [](int ep, const char* recipe) {
        const json w = {
            {"model", "qwen3-30b-a3b"},      {"tensor_parallel", 1}, {"expert_parallel", ep},
            {"expert_tensor_parallel", 1},   {"precision", "fp8"},   {"fp8_recipe", recipe},
            {"global_batch_sequences", 256}, {"recompute", "none"},  {"sequence_length", 4096}};
        return runOk(w, 2).evaluation->compute.step;
    };
    const StepResult ep16Delayed = step(16, "delayed");
    const StepResult ep16Current = step(16, "tensorwise");
    const StepResult ep8Delayed = step(8, "delayed");
    const StepResult ep8Current = step(8, "tensorwise");
    REQUIRE(ep16Delayed.microBatches == 16);
    const double d16 = ep16Current.kernelOverheadSeconds - ep16Delayed.kernelOverheadSeconds;
    const double d8 = ep8Current.kernelOverheadSeconds - ep8Delayed.kernelOverheadSeconds;
    CHECK(d8 - d16 == Approx(16.0 * 48.0 * 4.0 * 4.0 * 8.0 * 3.0e-6).epsilon(1e-9));
    // The host issues those launches from Transformer Engine's C++ loop at the driver's cost,
    // not a framework operation's (53.7 us a launch on an x86 host): the host's wait on EP 8
    // (about 5 s a step) grows by far less with the 8 more experts' 128 launches a layer's
    // micro-batch than 128 operations would add (5.3 s).
    const double hostExtra = (ep8Current.hostWaitSeconds - ep8Delayed.hostWaitSeconds) -
                             (ep16Current.hostWaitSeconds - ep16Delayed.hostWaitSeconds);
    INFO("host wait, EP 8: " << ep8Delayed.hostWaitSeconds << " s delayed, "
                             << ep8Current.hostWaitSeconds << " s current scaling");
    CHECK(hostExtra < 16.0 * 48.0 * 128.0 * 53.7e-6 / 4.0);
}

TEST_CASE("A flex dispatcher's calls within an NVLink domain run no faster than its library's "
          "SMs copy",
          "[compute][step][moe][flex]")
{
    // Qwen3-30B-A3B, EP 8 on each of two nodes: the dispatch and combine stay on NVLink. DeepEP's
    // normal kernels copy about 21 and 18 GB/s an SM (dispatch, combine; HybridEP's README's
    // B200 sweep), up to 0.71 and 0.65 of NVLink's rate a direction; HybridEP's TMA copies 45.9
    // and 42.1 an SM up to 0.85 and 0.82. On B200 (900 GB/s a direction) the SMs bind DeepEP's
    // default 20 and HybridEP's 16, the ceiling HybridEP's 32. A call is the mean of a dispatch
    // and a combine (a layer runs as many of each), and holds its SMs.
    auto step = [](const char* node, const json& flex) {
        json w = {{"model", "qwen3-30b-a3b"}, {"tensor_parallel", 1},
                  {"expert_parallel", 8},     {"expert_tensor_parallel", 1},
                  {"precision", "bf16"},      {"global_batch_sequences", 64},
                  {"recompute", "full"},      {"sequence_length", 4096},
                  {"zero_stage", 1},          {"moe_token_dispatcher", "flex"}};
        w.update(flex);
        json scenario = cluster(w, 2);
        scenario["compute"]["node"] = node;
        return evaluateOk(scenario).evaluation->compute.step;
    };
    auto library = [](double bytes, double dispatch, double combine) {
        return 0.5 * bytes * (1.0 / dispatch + 1.0 / combine) / 1e9;
    };
    const StepResult deepEp = step("dgx-b200", json::object());
    const StepCollective& d = deepEp.expertDispatch;
    REQUIRE(d.bytes > 0.0);
    CHECK(d.channels == 20);
    CHECK(d.seconds == Approx(library(d.bytes, 20 * 21.0, 20 * 18.0)).epsilon(1e-9));
    // More SMs copy faster, up to DeepEP's ceiling.
    const StepResult deepEp40 = step("dgx-b200", {{"moe_flex_dispatcher_sms", 40}});
    CHECK(deepEp40.expertDispatch.seconds == Approx(library(d.bytes, 640.0, 586.0)).epsilon(1e-9));
    CHECK(deepEp40.expertDispatch.channels == 40);
    const StepResult hybrid = step("dgx-b200", {{"moe_flex_dispatcher_backend", "hybridep"}});
    CHECK(hybrid.expertDispatch.channels == 16);
    CHECK(hybrid.expertDispatch.seconds == Approx(library(d.bytes, 734.95, 673.84)).epsilon(1e-9));
    const StepResult hybrid32 = step(
        "dgx-b200", {{"moe_flex_dispatcher_backend", "hybridep"}, {"moe_flex_dispatcher_sms", 32}});
    CHECK(hybrid32.expertDispatch.seconds ==
          Approx(library(d.bytes, 764.03, 737.13)).epsilon(1e-9));
    CHECK(hybrid32.expertParallelSeconds < hybrid.expertParallelSeconds);
    CHECK(hybrid.expertParallelSeconds < deepEp.expertParallelSeconds);
    // (Here the host's launches pace the MoE layers' forward, so the step may not show it.)
    CHECK(hybrid.stepSeconds <= deepEp.stepSeconds);
    // On H100 (450 GB/s a direction) DeepEP's 20 SMs would copy 420 and 360 GB/s: its ceiling
    // binds, 320 and 293.
    const StepResult hopper = step("dgx-h100", json::object());
    CHECK(hopper.expertDispatch.seconds ==
          Approx(library(hopper.expertDispatch.bytes, 450.0 * 640.0 / 900.0, 450.0 * 586.0 / 900.0))
              .epsilon(1e-9));
}

TEST_CASE("The flex dispatcher's SMs are checked, its fields flagged where not read",
          "[compute][step][moe][flex]")
{
    json w = {
        {"model", "qwen3-30b-a3b"},     {"tensor_parallel", 1}, {"expert_parallel", 8},
        {"expert_tensor_parallel", 1},  {"precision", "bf16"},  {"global_batch_sequences", 64},
        {"recompute", "full"},          {"zero_stage", 1},      {"moe_token_dispatcher", "flex"},
        {"moe_flex_dispatcher_sms", 21}};
    // DeepEP pairs its SMs (a sender and a receiver block a channel).
    const DocumentEvaluation oddRun = run(w, 2);
    const Diagnostic* odd = findError(oddRun, "/workload/moe_flex_dispatcher_sms", "layout");
    REQUIRE(odd);
    CHECK(odd->message.find("odd") != std::string::npos);
    // HybridEP takes any count, but no more than the GPU has (H100 SXM5: 132).
    w["moe_flex_dispatcher_backend"] = "hybridep";
    CHECK(run(w, 2).ok());
    w["moe_flex_dispatcher_sms"] = 200;
    const DocumentEvaluation manyRun = run(w, 2);
    const Diagnostic* many = findError(manyRun, "/workload/moe_flex_dispatcher_sms", "layout");
    REQUIRE(many);
    CHECK(many->message.find("132") != std::string::npos);
    // An unknown backend names the accepted ones.
    w["moe_flex_dispatcher_sms"] = 0;
    w["moe_flex_dispatcher_backend"] = "nccl";
    const DocumentEvaluation unknown = run(w, 2);
    REQUIRE_FALSE(unknown.ok());
    CHECK(std::any_of(unknown.diagnostics.begin(), unknown.diagnostics.end(),
                      [](const Diagnostic& x) {
                          return x.path == "/workload/moe_flex_dispatcher_backend" &&
                                 x.hint.find("hybridep") != std::string::npos;
                      }));
    // With the all-to-all dispatcher they are not read: a warning says so.
    w["moe_flex_dispatcher_backend"] = "hybridep";
    w["moe_token_dispatcher"] = "alltoall";
    const DocumentEvaluation unread = run(w, 2);
    REQUIRE(unread.ok());
    CHECK(std::count_if(unread.diagnostics.begin(), unread.diagnostics.end(),
                        [](const Diagnostic& x) { return x.code == "flex-backend-unused"; }) == 2);
}

TEST_CASE("An FP8 recipe the GPU cannot run is refused, one the precision does not read is "
          "flagged",
          "[compute][step][fp8recipe]")
{
    json w = {{"model", "llama3-8b"}, {"precision", "fp8"},  {"fp8_recipe", "mxfp8"},
              {"tensor_parallel", 1}, {"recompute", "full"}, {"global_batch_sequences", 128}};
    // MXFP8 needs Blackwell's block-scaled tensor cores; H100 has none.
    const DocumentEvaluation hopper = run(w, 1);
    const Diagnostic* e = findError(hopper, "/workload/fp8_recipe", "fp8-recipe-unsupported");
    REQUIRE(e);
    CHECK(e->message.find("h100-sxm5") != std::string::npos);
    CHECK(e->hint.find("tensorwise") != std::string::npos);
    // An unknown recipe names the accepted ones.
    w["fp8_recipe"] = "nvfp4";
    const DocumentEvaluation unknown = run(w, 1);
    REQUIRE_FALSE(unknown.ok());
    CHECK(std::any_of(
        unknown.diagnostics.begin(), unknown.diagnostics.end(), [](const Diagnostic& x) {
            return x.severity == Severity::Error && x.path == "/workload/fp8_recipe" &&
                   x.hint.find("blockwise") != std::string::npos;
        }));
    // In BF16 the recipe is not read: a warning says so, the evaluation goes on.
    w["fp8_recipe"] = "tensorwise";
    w["precision"] = "bf16";
    const DocumentEvaluation bf16 = run(w, 1);
    REQUIRE(bf16.ok());
    CHECK(std::any_of(bf16.diagnostics.begin(), bf16.diagnostics.end(), [](const Diagnostic& x) {
        return x.severity == Severity::Warning && x.code == "fp8-recipe-unused";
    }));
}

TEST_CASE("Sliding-window layers compute only the band of the attention square",
          "[compute][step][window]")
{
    // gpt-oss-20b: every other layer attends within 128 tokens (OpenAI's model card; catalog
    // sliding_window 128, full_attention_every 2), 24 layers, 64 heads of 64.
    const json windowed = {{"model", "gpt-oss-20b"},      {"precision", "bf16"},
                           {"tensor_parallel", 1},        {"expert_parallel", 8},
                           {"expert_tensor_parallel", 1}, {"global_batch_sequences", 64},
                           {"sequence_length", 4096},     {"recompute", "full"}};
    json whole = windowed;
    whole["model"] = {{"id", "gpt-oss-20b"}, {"sliding_window", 0}};
    json everyLayer = windowed;
    everyLayer["model"] = {{"id", "gpt-oss-20b"}, {"full_attention_every", 0}};
    const DocumentEvaluation w = run(windowed, 1);
    const DocumentEvaluation f = run(whole, 1);
    const DocumentEvaluation e = run(everyLayer, 1);
    REQUIRE(w.ok());
    REQUIRE(f.ok());
    REQUIRE(e.ok());
    const StepResult& sw = w.evaluation->compute.step;
    const StepResult& sf = f.evaluation->compute.step;
    const StepResult& se = e.evaluation->compute.step;
    // The square of one layer, a step: 2 b s^2 a (d_qk + d_v) forward, three times with the
    // backward, over the step's sequences.
    const double s = 4096.0;
    const double square = 3.0 * 64.0 * 2.0 * s * s * 64.0 * (64.0 + 64.0);
    // Causal: half of it a layer; in a window of 128, (128 s - 128^2 / 2) / s^2 of it.
    const double band = (128.0 * s - 0.5 * 128.0 * 128.0) / (s * s);
    CHECK(sf.modelFlopsPerStep - sw.modelFlopsPerStep ==
          Approx(12.0 * (0.5 - band) * square).epsilon(1e-9));
    CHECK(sf.modelFlopsPerStep - se.modelFlopsPerStep ==
          Approx(24.0 * (0.5 - band) * square).epsilon(1e-9));
    CHECK(sw.computeSeconds < sf.computeSeconds);
    CHECK(se.computeSeconds < sw.computeSeconds);
}

TEST_CASE("GPT-OSS's clamped activation and experts' biases run as eager kernels",
          "[compute][step][kernels][window]")
{
    // gpt-oss-20b (catalog: linear_bias, activation_clamp 7.0): 24 MoE layers of 32 experts of
    // 2,880, top 4; 4 local experts on each of 8 expert-parallel ranks, 4 nodes.
    const json base = {{"model", "gpt-oss-20b"},      {"precision", "bf16"},
                       {"tensor_parallel", 1},        {"expert_parallel", 8},
                       {"expert_tensor_parallel", 1}, {"global_batch_sequences", 64},
                       {"sequence_length", 4096},     {"recompute", "none"},
                       {"moe_permute_fusion", true},  {"zero_stage", 3}};
    auto with = [&](bool bias, double clamp, int expertFfn = 2880) {
        json w = base;
        w["model"] = {{"id", "gpt-oss-20b"},
                      {"linear_bias", bias},
                      {"activation_clamp", clamp},
                      {"expert_ffn_hidden_size", expertFfn}};
        return w;
    };
    auto step = [](const json& workload) { return runOk(workload, 4).evaluation->compute.step; };
    const StepResult plain = step(with(false, 0.0));
    const StepResult biased = step(with(true, 0.0));
    const StepResult clamped = step(with(false, 7.0));
    const StepResult catalog = step(base);
    CHECK(catalog.stepSeconds == Approx(step(with(true, 7.0)).stepSeconds));
    const double layers = 24.0 * plain.microBatches;
    // Kernels, at 3 us each: the bias t + b * p per local expert and one concatenation forward
    // (2 x 4 + 1), the product's two gradients, each written and reduced, and the rows'
    // concatenation backward (4 x 4 + 1); the clamps and their concatenation forward (3), the
    // clamps' gradients backward (2).
    CHECK(biased.kernelOverheadSeconds - plain.kernelOverheadSeconds ==
          Approx(layers * (9.0 + 17.0) * 3.0e-6).epsilon(1e-9));
    CHECK(clamped.kernelOverheadSeconds - plain.kernelOverheadSeconds ==
          Approx(layers * (3.0 + 2.0) * 3.0e-6).epsilon(1e-9));
    // Bytes: 14 h-wide tensors a routed row for the bias, 14 ffn-wide for the clamps; the
    // clamps' traffic grows with the experts' width, the bias's does not.
    const double biasBytes = biased.memoryBoundSeconds - plain.memoryBoundSeconds;
    const double clampBytes = clamped.memoryBoundSeconds - plain.memoryBoundSeconds;
    REQUIRE(biasBytes > 0.0);
    CHECK(clampBytes == Approx(biasBytes).epsilon(1e-6));
    const StepResult widePlain = step(with(false, 0.0, 5760));
    CHECK(step(with(false, 7.0, 5760)).memoryBoundSeconds - widePlain.memoryBoundSeconds ==
          Approx(2.0 * clampBytes).epsilon(1e-6));
    CHECK(step(with(true, 0.0, 5760)).memoryBoundSeconds - widePlain.memoryBoundSeconds ==
          Approx(biasBytes).epsilon(1e-6));
    // A recomputed activation (moe_act) clamps again: 8 more tensors and 3 more kernels.
    json again = with(false, 7.0);
    again["recompute"] = "selective";
    again["recompute_modules"] = {"moe_act"};
    json againPlain = with(false, 0.0);
    againPlain["recompute"] = "selective";
    againPlain["recompute_modules"] = {"moe_act"};
    const StepResult a = step(again);
    const StepResult ap = step(againPlain);
    CHECK(a.memoryBoundSeconds - ap.memoryBoundSeconds ==
          Approx(clampBytes * (14.0 + 8.0) / 14.0).epsilon(1e-6));
    CHECK(a.kernelOverheadSeconds - ap.kernelOverheadSeconds ==
          Approx(layers * (3.0 + 2.0 + 3.0) * 3.0e-6).epsilon(1e-9));
    CHECK(catalog.stepSeconds > plain.stepSeconds);
}

TEST_CASE("FP8 attention runs at the GPU's measured FP8 attention rates, its quantizations counted",
          "[compute][step][fp8][attention]")
{
    // Llama 3 8B on one DGX B300 (data parallel 8): 64 sequences of 8,192 make 8 micro-batches a
    // GPU of 32 layers. In FP8 the attention runs in BF16 unless fp8_attention says otherwise.
    json w = {{"model", "llama3-8b"},  {"precision", "fp8"},      {"fp8_recipe", "tensorwise"},
              {"tensor_parallel", 1},  {"sequence_length", 8192}, {"global_batch_sequences", 64},
              {"micro_batch_size", 1}, {"recompute", "none"},     {"flash_attention", true}};
    json node = cluster(w, 1);
    node["compute"]["node"] = "dgx-b300";
    node["network"]["switch"] = "q3400-ra";
    node["network"]["nic"] = "connectx-8-800g";
    json fp8 = node;
    fp8["workload"]["fp8_attention"] = true;
    const auto bf16Run = evaluateOk(node);
    const auto fp8Run = evaluateOk(fp8);
    const StepResult& a = bf16Run.evaluation->compute.step;
    const StepResult& b = fp8Run.evaluation->compute.step;
    // The kernel faster (catalog b300: forward 0.430 of the FP8 peak against 0.578 of BF16's,
    // backward 0.242 against 0.432), the rest of the matrix math the same.
    CHECK(b.computeSeconds < a.computeSeconds);
    // Q, K and V (32 query and 8 KV heads of 128) quantized and the output dequantized forward,
    // the output's gradient quantized and theirs dequantized backward: 3 bytes an element of
    // 8,192 x (4,096 + 2,048) and 8,192 x 4,096, each way, 32 layers, 8 micro-batches, through
    // HBM at 0.9 of 8 TB/s.
    const double bytes = 2.0 * 3.0 * 8192.0 * (6144.0 + 4096.0) * 32.0 * 8.0;
    CHECK(b.memoryBoundSeconds - a.memoryBoundSeconds == Approx(bytes / 7.2e12).epsilon(1e-6));
    CHECK(b.kernelOverheadSeconds > a.kernelOverheadSeconds);
    CHECK(b.stepSeconds < a.stepSeconds);

    // A GPU without measured FP8 attention rates keeps BF16's: the same step (on H100 at TP 2,
    // which the 80 GB need).
    json hopper = cluster(w, 1);
    hopper["workload"]["tensor_parallel"] = 2;
    json hopperFp8 = hopper;
    hopperFp8["workload"]["fp8_attention"] = true;
    CHECK(evaluateOk(hopperFp8).evaluation->compute.step.stepSeconds ==
          Approx(evaluateOk(hopper).evaluation->compute.step.stepSeconds).epsilon(1e-12));

    // Read only with precision fp8 (Transformer Engine's fp8_dpa is a field of its FP8 recipe).
    json bf16 = fp8;
    bf16["workload"]["precision"] = "bf16";
    bf16["workload"].erase("fp8_recipe");
    const auto unused = evaluateOk(bf16);
    CHECK(
        std::any_of(unused.diagnostics.begin(), unused.diagnostics.end(), [](const Diagnostic& x) {
            return x.severity == Severity::Warning && x.path == "/workload/fp8_attention" &&
                   x.code == "fp8-attention-unused";
        }));
    CHECK(std::none_of(fp8Run.diagnostics.begin(), fp8Run.diagnostics.end(),
                       [](const Diagnostic& x) { return x.code == "fp8-attention-unused"; }));
    // A wrong type names the field.
    json wrong = fp8;
    wrong["workload"]["fp8_attention"] = "yes";
    const DocumentEvaluation bad = evaluateDocument(wrong, test::catalog(), "step.json");
    CHECK(std::any_of(bad.diagnostics.begin(), bad.diagnostics.end(), [](const Diagnostic& x) {
        return x.severity == Severity::Error && x.path == "/workload/fp8_attention";
    }));
}

TEST_CASE("the attention kernel a stack runs: FlashAttention-2 and -3 at their measured rates, the "
          "fused rate where the catalog has none",
          "[compute][step][attention]")
{
    // Llama 3 8B in BF16 on one DGX H100 at TP 2, nothing recomputed: the attention's forward
    // and backward at the rates of the kernel the workload names (catalog h100-sxm5: cuDNN's
    // fused attention, FlashAttention-2 and FlashAttention-3, Shah et al. 2024, Figures 5-6).
    json w = {{"model", "llama3-8b"},    {"precision", "bf16"},          {"tensor_parallel", 2},
              {"sequence_length", 8192}, {"global_batch_sequences", 64}, {"micro_batch_size", 1},
              {"recompute", "none"},     {"flash_attention", true}};
    const json fusedRun = cluster(w, 1);
    json flash2Run = fusedRun;
    flash2Run["workload"]["attention_kernel"] = "flash2";
    json flash3Run = fusedRun;
    flash3Run["workload"]["attention_kernel"] = "flash3";
    const auto fused = evaluateOk(fusedRun);
    const auto flash2 = evaluateOk(flash2Run);
    const auto flash3 = evaluateOk(flash3Run);
    const double c1 = fused.evaluation->compute.step.computeSeconds;
    const double c2 = flash2.evaluation->compute.step.computeSeconds;
    const double c3 = flash3.evaluation->compute.step.computeSeconds;
    CHECK(c2 > c1);
    CHECK(c3 < c1);
    // FlashAttention's Triton kernel (MPT's), written for Ampere, the slowest of them on Hopper.
    json tritonRun = fusedRun;
    tritonRun["workload"]["attention_kernel"] = "triton";
    CHECK(evaluateOk(tritonRun).evaluation->compute.step.computeSeconds > c2);
    // Only the attention moves, by the reciprocals of the rates (the backward's FLOPs 2.5 times
    // the forward's): the two kernels' changes stand in the ratio the catalog's rates give.
    const model::GpuSpec& h100 = test::catalog().gpus().entries.at("h100-sxm5");
    const auto change = [&](double forward, double backward) {
        return (1.0 / forward - 1.0 / h100.attentionForwardEfficiency) +
               2.5 * (1.0 / backward - 1.0 / h100.attentionBackwardEfficiency);
    };
    const double expected =
        change(h100.attentionForwardEfficiencyFlash2, h100.attentionBackwardEfficiencyFlash2) /
        change(h100.attentionForwardEfficiencyFlash3, h100.attentionBackwardEfficiencyFlash3);
    CHECK((c2 - c1) / (c3 - c1) == Approx(expected).epsilon(1e-9));
    // FlashAttention-2 at about 0.62 of cuDNN's rate: Llama 3 8B at 8k spends about a sixth of
    // its step in attention here, so the step grows by about a tenth.
    CHECK(flash2.evaluation->compute.step.stepSeconds /
              fused.evaluation->compute.step.stepSeconds ==
          Approx(1.10).margin(0.02));
    const auto noted = [](const DocumentEvaluation& d, const char* code) {
        return std::any_of(d.diagnostics.begin(), d.diagnostics.end(),
                           [code](const Diagnostic& x) { return x.code == code; });
    };
    CHECK_FALSE(noted(flash2, "attention-kernel-unmeasured"));

    // A GPU the catalog has no FlashAttention-3 rates for (B200: FlashAttention-3 is written for
    // Hopper) keeps its fused attention's rates, and the planner is told.
    json blackwell = fusedRun;
    blackwell["compute"]["node"] = "dgx-b200";
    json blackwellFlash3 = blackwell;
    blackwellFlash3["workload"]["attention_kernel"] = "flash3";
    const auto b3 = evaluateOk(blackwellFlash3);
    CHECK(b3.evaluation->compute.step.stepSeconds ==
          Approx(evaluateOk(blackwell).evaluation->compute.step.stepSeconds).epsilon(1e-12));
    CHECK(std::any_of(b3.diagnostics.begin(), b3.diagnostics.end(), [](const Diagnostic& x) {
        return x.severity == Severity::Note && x.path == "/workload/attention_kernel" &&
               x.code == "attention-kernel-unmeasured";
    }));
    const AttentionEfficiencies fallback = attentionEfficiencies(
        test::catalog().gpus().entries.at("b200"), model::AttentionKernel::Flash3);
    CHECK(fallback.fellBack);

    // Read only with flash_attention; FP8 attention is the fused kernel's.
    json unfused = flash2Run;
    unfused["workload"]["flash_attention"] = false;
    CHECK(
        noted(evaluateDocument(unfused, test::catalog(), "step.json"), "attention-kernel-unused"));
    json fp8 = flash2Run;
    fp8["workload"]["precision"] = "fp8";
    fp8["workload"]["fp8_attention"] = true;
    CHECK(noted(evaluateOk(fp8), "fp8-attention-unused"));
    // A value it does not know names the field and what is accepted.
    json wrong = fusedRun;
    wrong["workload"]["attention_kernel"] = "flash4";
    const DocumentEvaluation bad = evaluateDocument(wrong, test::catalog(), "step.json");
    CHECK(std::any_of(bad.diagnostics.begin(), bad.diagnostics.end(), [](const Diagnostic& x) {
        return x.severity == Severity::Error && x.path == "/workload/attention_kernel" &&
               (x.message + x.hint).find("flash2") != std::string::npos;
    }));
}
