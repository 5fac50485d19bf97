#pragma once

namespace dct::model {

/**
 * How a model's layers split over pipeline stages, as Megatron-LM splits them: evenly over
 * stages x virtual stages model chunks; without virtual stages also unevenly, every stage but the
 * last full and the last holding what is left (--decoder-last-pipeline-num-layers).
 */
struct PipelineSplit
{
    int slots = 0;     ///< Layers, plus the embedding's and the loss's slots when they count.
    int fullStage = 0; ///< Slots of a full stage (all its chunks).
    int lastStage = 0; ///< Slots of the last stage.
    bool even = false; ///< Every chunk holds the same number of slots.
    /// An uneven split whose last stage would hold no layer (or, when the embedding and the loss
    /// take slots, a first stage with only the embedding's): no run can use it.
    bool empty = false;
    bool valid = false; ///< Even, or uneven without virtual stages and with no stage empty.
};

/** The split of \a layers over \a stages x \a virtualStages chunks. */
PipelineSplit pipelineSplit(int layers, int stages, int virtualStages,
                            bool embeddingAndLossAsLayers);

} // namespace dct::model
