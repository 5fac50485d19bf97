#pragma once

#include "dct/model/catalogentry.h"
#include "dct/model/field.h"

namespace dct::model {

/**
 * A transformer's architecture: a dense decoder, or a mixture of experts (experts > 0). Counts
 * follow the Megatron-LM and Hugging Face configuration names (hidden_size, ffn_hidden_size).
 */
struct ModelSpec : CatalogEntry
{
    int layers = 32;
    int hiddenSize = 4096;
    int heads = 32;
    int kvHeads = 0;       ///< Key/value heads (grouped-query attention); 0 means heads.
    int headDim = 0;       ///< Per-head size; 0 means hidden_size / heads.
    int ffnHiddenSize = 0; ///< MLP inner size; 0 means 4 x hidden_size.
    int vocabSize = 51200;
    int sequenceLength = 4096;   ///< Training sequence length of the published run.
    bool gatedMlp = false;       ///< SwiGLU-style MLP: three matrices instead of two.
    bool tiedEmbeddings = false; ///< Output layer shares the input embedding's weights.
    // Multi-head latent attention (DeepSeek-V2/V3): low-rank queries and keys/values.
    int qLoraRank = 0;   ///< 0: standard attention.
    int kvLoraRank = 0;  ///< 0: standard attention.
    int ropeHeadDim = 0; ///< Decoupled rotary part of each query/key head (MLA).
    // Mixture of experts.
    int experts = 0;             ///< Routed experts per MoE layer; 0 for a dense model.
    int activeExperts = 0;       ///< Routed experts each token goes to (top-k).
    int sharedExperts = 0;       ///< Experts every token goes to.
    int expertFfnHiddenSize = 0; ///< Inner size of one expert's MLP.
    int denseLayers = 0;         ///< Leading layers with a dense MLP in an MoE model.
    /// Group-limited routing (Megatron-Core moe_router_num_groups; DeepSeek-V3's n_group): the
    /// routed experts in this many groups of consecutive experts; 0: the groups are the nodes.
    int routingGroups = 0;
    /// The groups one token's experts may span (moe_router_group_topk; DeepSeek-V3's topk_group,
    /// its node-limited routing's M); 0: any.
    int routingMaxNodes = 0;
    // Sliding-window (banded) attention: each query attends to the last slidingWindow keys.
    int slidingWindow = 0;      ///< Keys a query attends to in windowed layers; 0: none.
    int fullAttentionEvery = 0; ///< Every n-th layer attends to the whole sequence; 0: none does.
    // GPT-OSS's projections: biases, and a gated activation whose inputs are clamped.
    bool linearBias = false;      ///< Every projection adds a bias (Megatron-Core add_bias_linear).
    double activationClamp = 0.0; ///< The gated activation's inputs clamped at +-this; 0: none.

    /** Returns the share of the layers whose attention is windowed (0 without a window). */
    double windowedLayerShare() const
    {
        if (slidingWindow <= 0)
            return 0.0;
        return fullAttentionEvery > 0 ? 1.0 - 1.0 / fullAttentionEvery : 1.0;
    }

    /** Returns the effective key/value heads, head size and MLP size (0 fields resolved). */
    int effectiveKvHeads() const { return kvHeads > 0 ? kvHeads : heads; }
    int effectiveHeadDim() const { return headDim > 0 ? headDim : hiddenSize / heads; }
    int effectiveFfn() const { return ffnHiddenSize > 0 ? ffnHiddenSize : 4 * hiddenSize; }
    bool moe() const { return experts > 0; }
    /** Returns the layers whose MLP is a mixture of experts. */
    int moeLayers() const { return moe() ? layers - denseLayers : 0; }

    /** Returns the weights of one layer's attention (projections and norms). */
    double attentionParameters() const;
    /** Returns the weights of one dense MLP. */
    double denseMlpParameters() const;
    /** Returns the weights of one expert's MLP. */
    double expertParameters() const;
    /** Returns the embedding and output-layer weights. */
    double embeddingParameters() const;
    /** Returns every weight of the model. */
    double parameters() const;
    /** Returns the weights one token is multiplied by (routed experts: only its top-k). */
    double activeParameters() const;

    static constexpr const char* kind = "model";
    static const FieldTable<ModelSpec>& fields();

    bool operator==(const ModelSpec&) const = default;
};

/**
 * Returns a dense GPT-style architecture of about \a parametersBillion, for scenarios that give
 * only a size: hidden size 128 x layers (GPT-3 175B's aspect ratio, 12288 / 96), heads of 128,
 * their count a multiple of 8 (tensor-parallel sizes up to 8 divide it), MLP 4 x hidden, vocabulary
 * 51,200 (Narayanan et al. 2021), and a layer count made a multiple of \a layerMultiple (the
 * pipeline stages) that best matches the size.
 */
ModelSpec synthesizeDenseModel(double parametersBillion, int layerMultiple, int sequenceLength);

} // namespace dct::model
