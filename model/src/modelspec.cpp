// The model catalog kind: a transformer's architecture, its field table and its weight counts.
#include "dct/model/modelspec.h"

#include <algorithm>
#include <cmath>

namespace dct::model {

namespace f = fields;

double ModelSpec::attentionParameters() const
{
    const double h = hiddenSize;
    const double a = heads;
    const double dh = effectiveHeadDim();
    // Two norms per layer (scale and bias, 2h each; RMSNorm has only the scale: a rounding).
    const double norms = 4.0 * h;
    if (kvLoraRank > 0) {
        // Multi-head latent attention (DeepSeek-V2, arXiv 2405.04434, section 2.1): queries
        // through a rank-q_lora down/up projection, keys and values from one rank-kv_lora
        // latent plus a decoupled rotary key; value heads of head_dim.
        const double qk = dh + ropeHeadDim;
        const double q = qLoraRank > 0 ? h * qLoraRank + qLoraRank * a * qk : h * a * qk;
        const double kv = h * (kvLoraRank + ropeHeadDim) + kvLoraRank * a * (dh + dh);
        return q + kv + a * dh * h + norms;
    }
    const double kv = effectiveKvHeads();
    return h * a * dh + 2.0 * h * kv * dh + a * dh * h + norms;
}

double ModelSpec::denseMlpParameters() const
{
    return (gatedMlp ? 3.0 : 2.0) * hiddenSize * static_cast<double>(effectiveFfn());
}

double ModelSpec::expertParameters() const
{
    return (gatedMlp ? 3.0 : 2.0) * hiddenSize * static_cast<double>(expertFfnHiddenSize);
}

double ModelSpec::embeddingParameters() const
{
    return (tiedEmbeddings ? 1.0 : 2.0) * static_cast<double>(vocabSize) * hiddenSize;
}

double ModelSpec::parameters() const
{
    const double dense = layers - moeLayers();
    const double router = static_cast<double>(hiddenSize) * experts;
    const double moeLayer = (experts + sharedExperts) * expertParameters() + router;
    return layers * attentionParameters() + dense * denseMlpParameters() + moeLayers() * moeLayer +
           embeddingParameters();
}

double ModelSpec::activeParameters() const
{
    const double dense = layers - moeLayers();
    const double router = static_cast<double>(hiddenSize) * experts;
    const double moeLayer = (activeExperts + sharedExperts) * expertParameters() + router;
    return layers * attentionParameters() + dense * denseMlpParameters() + moeLayers() * moeLayer +
           embeddingParameters();
}

const FieldTable<ModelSpec>& ModelSpec::fields()
{
    using S = ModelSpec;
    static const FieldTable<S> table = {
        f::text<S>("name", &S::name, "Display name"),
        f::integer<S>("layers", &S::layers, "", "Transformer layers", 1, 10000),
        f::integer<S>("hidden_size", &S::hiddenSize, "", "Hidden (model) dimension", 1, 1e6),
        f::integer<S>("heads", &S::heads, "", "Attention (query) heads", 1, 100000),
        f::integer<S>("kv_heads", &S::kvHeads, "",
                      "Key/value heads (grouped-query attention); 0 means heads", 0, 100000),
        f::integer<S>("head_dim", &S::headDim, "", "Size of one head; 0 means hidden_size / heads",
                      0, 100000),
        f::integer<S>("ffn_hidden_size", &S::ffnHiddenSize, "",
                      "Inner size of the dense MLP; 0 means 4 x hidden_size", 0, 1e7),
        f::integer<S>("vocab_size", &S::vocabSize, "", "Vocabulary (embedding rows)", 1, 1e8),
        f::integer<S>("sequence_length", &S::sequenceLength, "tokens",
                      "Training sequence length of the published run", 1, 1e8),
        f::boolean<S>("gated_mlp", &S::gatedMlp,
                      "Gated MLP (SwiGLU): three weight matrices instead of two"),
        f::boolean<S>("tied_embeddings", &S::tiedEmbeddings,
                      "The output layer shares the input embedding's weights"),
        f::integer<S>("q_lora_rank", &S::qLoraRank, "",
                      "Multi-head latent attention: rank of the query projection; 0 for none", 0,
                      1e6),
        f::integer<S>("kv_lora_rank", &S::kvLoraRank, "",
                      "Multi-head latent attention: rank of the key/value latent; 0 for standard "
                      "attention",
                      0, 1e6),
        f::integer<S>("rope_head_dim", &S::ropeHeadDim, "",
                      "Multi-head latent attention: decoupled rotary part of a query/key head", 0,
                      100000),
        f::integer<S>("experts", &S::experts, "",
                      "Routed experts per MoE layer; 0 for a dense model", 0, 100000),
        f::integer<S>("active_experts", &S::activeExperts, "",
                      "Routed experts each token is sent to (top-k)", 0, 100000),
        f::integer<S>("shared_experts", &S::sharedExperts, "",
                      "Experts every token goes through besides the routed ones", 0, 1000),
        f::integer<S>("expert_ffn_hidden_size", &S::expertFfnHiddenSize, "",
                      "Inner size of one expert's MLP", 0, 1e7),
        f::integer<S>("dense_layers", &S::denseLayers, "",
                      "Leading layers of an MoE model whose MLP is dense", 0, 10000),
        f::integer<S>("routing_groups", &S::routingGroups, "",
                      "Group-limited routing: the routed experts fall in this many groups of "
                      "consecutive experts (Megatron-Core moe_router_num_groups; DeepSeek-V3 "
                      "n_group 8); 0: the groups are the nodes of the expert-parallel group",
                      0, 1e6),
        f::integer<S>("routing_max_nodes", &S::routingMaxNodes, "",
                      "Group- or node-limited routing: the groups (nodes, without "
                      "routing_groups) one token's experts may span (moe_router_group_topk; "
                      "DeepSeek-V3 topk_group 4); 0 for any",
                      0, 1e6),
        f::integer<S>("sliding_window", &S::slidingWindow, "tokens",
                      "Sliding-window attention: the keys a query attends to in the windowed "
                      "layers (Megatron-Core window_size + 1); 0 for attention over the whole "
                      "sequence",
                      0, 1e8),
        f::integer<S>("full_attention_every", &S::fullAttentionEvery, "",
                      "With sliding_window, every n-th layer attends to the whole sequence "
                      "(Megatron-Core window_attn_skip_freq; GPT-OSS 2); 0: every layer is "
                      "windowed",
                      0, 10000),
        f::boolean<S>("linear_bias", &S::linearBias,
                      "Every projection adds a bias (Megatron-Core add_bias_linear; GPT-OSS): "
                      "the routed experts' second projection adds its bias per local expert "
                      "after the grouped GEMM, weighted by the routing probability"),
        f::number<S>("activation_clamp", &S::activationClamp, "",
                     "The gated activation's inputs are clamped: the gate's from above, the "
                     "linear half's to +-this value (Megatron-Core activation_func_clamp_value; "
                     "GPT-OSS 7.0); 0 for none",
                     0.0, 1e6),
    };
    return table;
}

ModelSpec synthesizeDenseModel(double parametersBillion, int layerMultiple, int sequenceLength)
{
    ModelSpec m;
    m.id = "dense-" + std::to_string(parametersBillion) + "b";
    m.name = "Dense transformer synthesized from parameters_billion";
    m.source = "synthesized: hidden size 128 x layers (GPT-3 175B, Brown et al. 2020 Table 2.1: "
               "12288 = 128 x 96), heads of 128, MLP 4 x hidden, vocabulary 51,200 (Narayanan et "
               "al. 2021, section 5.1)";
    const double p = std::max(parametersBillion, 0.0) * 1e9;
    const int multiple = std::max(1, layerMultiple);
    m.vocabSize = 51200;
    m.tiedEmbeddings = true;
    m.sequenceLength = std::max(1, sequenceLength);
    // 12 L h^2 weights per dense layer (4 h^2 attention, 8 h^2 MLP) with h = 128 L.
    const double layers0 = std::cbrt(p / (12.0 * 128.0 * 128.0));
    const double granule = 128.0 * layers0 >= 1024.0 ? 1024.0 : 128.0;
    const double hidden = std::max(128.0, std::round(128.0 * layers0 / granule) * granule);
    m.hiddenSize = static_cast<int>(std::min(hidden, 1e6));
    m.heads = std::max(1, m.hiddenSize / 128);
    const double h = m.hiddenSize;
    const double perLayer = 12.0 * h * h + 4.0 * h;
    const double layers = std::max(0.0, (p - m.vocabSize * h) / perLayer);
    const double rounded = std::max(1.0, std::round(layers / multiple)) * multiple;
    m.layers = static_cast<int>(std::min(rounded, 10000.0));
    return m;
}

} // namespace dct::model
