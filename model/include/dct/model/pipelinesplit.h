#pragma once

namespace dct::model {

/**
 * How a model's layers split over pipeline stages, as Megatron-LM splits them: evenly over
 * stages x virtual stages model chunks, or unevenly, every chunk full but the last, which holds
 * what is left (--decoder-last-pipeline-num-layers; with virtual stages Megatron-Core's
 * --pipeline-model-parallel-layout, as DeepSeek-V3's "Et|(tt|)*30L" on 8 x 4 chunks).
 */
struct PipelineSplit
{
    int slots = 0;     ///< Layers, plus the embedding's and the loss's slots when they count.
    int fullStage = 0; ///< Slots of a full stage (all its chunks).
    int lastStage = 0; ///< Slots of the last stage.
    int lastChunk = 0; ///< Slots of the last chunk (the last stage's alone without virtual stages).
    bool even = false; ///< Every chunk holds the same number of slots.
    /// An uneven split whose last stage would hold no layer (or, when the embedding and the loss
    /// take slots, a first stage with only the embedding's): no run can use it.
    bool empty = false;
    bool valid = false; ///< Even, or uneven with no chunk empty.
};

/** The split of \a layers over \a stages x \a virtualStages chunks. */
PipelineSplit pipelineSplit(int layers, int stages, int virtualStages,
                            bool embeddingAndLossAsLayers);

} // namespace dct::model
