#pragma once

#include "dct/model/nccltestslog.h"
#include "dct/solvers/collectives.h"

#include <optional>

namespace dct::solvers {

/**
 * What an NCCL release's own tuner picks for a call: NCCL times every algorithm and protocol
 * with its tables (src/graph/tuning.cc, ncclTopoTuneModel and ncclTopoGetAlgoTime) and runs the
 * least. Older releases' tables differ from today's, so a run of one picks differently at some
 * sizes than the engine's fastest (docs/collectives.md, "NCCL's choice by release").
 */
struct NcclTunerChoice
{
    CollectiveAlgorithm algorithm = CollectiveAlgorithm::Ring;
    CollectiveProtocol protocol = CollectiveProtocol::Simple;
    double predictedUs = 0.0; ///< The release's own estimate (not the engine's time).
    /** The release runs LL128 on this system (its own rule, not the NIC catalog's flag). */
    bool ll128Enabled = false;
    double ringGraphGbytePerS = 0.0; ///< Channels x speed of the ring graph, as the release sees.
    double treeGraphGbytePerS = 0.0; ///< The same for the tree graph.
};

/** Returns true when the tuner of \a version is restated (NCCL 2.9.x). */
bool hasNcclTuner(const model::NcclVersion& version);

/**
 * Returns the algorithm and protocol NCCL \a version picks for \a op on \a bytes across the
 * nodes of \a inputs, or nothing when its tuner is not restated, when the call stays inside one
 * node, when the fabric reduces in the switches (CollNet, not restated) or for all-to-all and
 * send/recv (point to point: no tuner). The graph bandwidths NCCL's topology search would find
 * are derived from \a inputs (docs/collectives.md); the calibration factors are not used: the
 * release chose with its tables, whatever the system then delivered.
 */
std::optional<NcclTunerChoice> ncclTunerChoice(const model::NcclVersion& version, CollectiveOp op,
                                               double bytes, const CollectiveInputs& inputs);

} // namespace dct::solvers
