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
    s.fullStage = v * ((s.slots + chunks - 1) / chunks);
    s.lastStage = s.slots - (p - 1) * s.fullStage;
    const bool firstOnlyEmbedding = lossSlot == 1 && v == 1 && s.fullStage < 2;
    s.empty = firstOnlyEmbedding || (!s.even && s.lastStage < 1 + lossSlot);
    s.valid = s.slots >= chunks && !s.empty && (s.even || v == 1);
    return s;
}

} // namespace dct::model
