#include "dct/model/pipelinesplit.h"

#include <algorithm>

namespace dct::model {

PipelineSplit pipelineSplit(int layers, int stages, int virtualStages,
                            bool embeddingAndLossAsLayers)
{
    PipelineSplit s;
    const int p = std::max(1, stages);
    const int v = std::max(1, virtualStages);
    const int chunks = p * v;
    // The embedding's and the loss's slots (Dubey et al. 2024, 3.3.2) take a layer's place on
    // the first and the last stage.
    s.slots = layers + (embeddingAndLossAsLayers ? 2 : 0);
    const int lossSlot = embeddingAndLossAsLayers && p > 1 ? 1 : 0;
    s.even = s.slots % chunks == 0;
    // Every chunk full but the last, which holds what is left: on the last stage, its v - 1
    // other chunks beside it.
    const int perChunk = (s.slots + chunks - 1) / chunks;
    s.fullStage = v * perChunk;
    s.lastStage = s.slots - (p - 1) * s.fullStage;
    s.lastChunk = s.lastStage - (v - 1) * perChunk;
    const bool firstOnlyEmbedding = lossSlot == 1 && v == 1 && s.fullStage < 2;
    // A last stage of one chunk needs a layer beside the loss; with virtual stages the last
    // chunk may hold the loss alone ("...|L" in Megatron-Core's layout), its stage's other
    // chunks holding layers.
    s.empty = firstOnlyEmbedding || (!s.even && s.lastChunk < (v > 1 ? 1 : 1 + lossSlot));
    s.valid = s.slots >= chunks && !s.empty;
    return s;
}

} // namespace dct::model
