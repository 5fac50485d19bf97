#pragma once

#include "dct/solvers/collectives.h"
#include "dct/solvers/fabricspec.h"
#include "dct/solvers/hallresult.h"
#include "dct/solvers/protocolefficiency.h"
#include "dct/solvers/topologyresult.h"

#include <vector>

namespace dct::solvers {

/** The fabric of a scenario: what it is made of, what it delivers and what collectives take. */
struct NetworkResult
{
    bool valid = false; ///< False when the fabric could not be planned.
    FabricSpec spec;
    TopologyResult topology;
    HallResult
        hall; ///< Floor plan and cable runs (solvers/hallayout.h); invalid when not laid out.
    WireOverhead wire; ///< RoCE v2 or InfiniBand overhead at the MTU.
    NvlinkEfficiency nvlink;
    double nicRateGbps = 0.0;
    double scaleUpGbytePerSPerGpu = 0.0;    ///< Effective NVLink bandwidth per GPU per direction.
    double fabricLineGbytePerSPerGpu = 0.0; ///< NIC line rate per GPU.
    double fabricGbytePerSPerGpu = 0.0;     ///< After protocol, oversubscription and routing.
    double oversubscriptionShare = 1.0;     ///< Leaf uplink over downlink capacity (<= 1).
    int leafUplinkFlows = 1;                ///< Elephant flows leaving a leaf in a ring collective.
    double routingShare = 1.0;              ///< Share delivered by the configured routing.
    double ecmpShare = 1.0;                 ///< Static ECMP, one flow per transfer.
    double multiRailShare = 1.0;  ///< Static ECMP with each transfer split over the rails.
    double pinnedShare = 1.0;     ///< Rail-optimized pinning.
    double adaptiveShare = 1.0;   ///< Adaptive routing / packet spraying.
    int worstSwitchHops = 0;      ///< Switches on the longest endpoint path.
    double fabricAlphaUs = 0.0;   ///< NIC + switch + wire latency of one fabric step.
    CollectiveInputs worldInputs; ///< Every GPU of the cluster in one collective.
    std::vector<CollectiveTiming> collectives; ///< Each operation and algorithm at 1 GiB.
    CollectiveTiming gradientAllReduce;        ///< The data-parallel gradient all-reduce of a step.
    int gradientRanksPerNode = 1;              ///< Ranks of one data-parallel group on a node.
};

} // namespace dct::solvers
