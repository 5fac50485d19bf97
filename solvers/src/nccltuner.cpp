#include "dct/solvers/nccltuner.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>

// NCCL 2.9's tuner, restated from NCCL src/graph/tuning.cc and src/graph/search.cc at tag
// v2.9.9-1 (github.com/NVIDIA/nccl; the same tables from v2.9.6-1 to v2.9.9-1) and
// src/enqueue.cc getAlgoInfo (the least estimated time wins). Only what picks the algorithm and
// protocol is restated: the engine then times the pick with its own mechanisms and the fitted
// factors (collectivecalibration.cpp). Algorithm order as NCCL's: tree, ring; protocol order LL,
// LL128, Simple.

namespace dct::solvers {

namespace {

using Table = std::array<std::array<double, 3>, 2>; // [tree, ring][LL, LL128, Simple]

/** tuning.cc v2.9.9-1 `baseLat`: per-call latency, us. */
constexpr Table baseLat = {{{4.4, 4.4, 0.0}, {3.6, 10.0, 8.4}}};
/** tuning.cc v2.9.9-1 `hwLat`: one step, us, over NVLink and over the network. */
constexpr Table hwLatNvlink = {{{0.52, 1.25, 28.0}, {0.47, 1.9, 3.4}}};
constexpr Table hwLatNet = {{{5.0, 8.5, 28.0}, {2.7, 4.0, 9.6}}};
/** tuning.cc v2.9.9-1 `ll128MaxBwPerCh`, all-reduce, reduce-scatter, all-gather (GB/s). */
constexpr double ll128MaxBwPerChAllReduce = 16.9;
constexpr double ll128MaxBwPerChReduceScatter = 15.2;
constexpr double ll128MaxBwPerChAllGather = 18.3;
/** tuning.cc v2.9.9-1 `llMaxBws` [Volta-N1/Intel-N2/Intel-N4; Ampere-N1/AMD-N2/AMD-N4]. */
constexpr std::array<std::array<double, 3>, 2> llMaxBws = {
    {{39.0, 39.0, 20.4}, {87.7, 22.5, 19.0}}};
/** tuning.cc v2.9.9-1 `perChMaxTreeBws` [Volta; Ampere][N1, N2, N4]. */
constexpr std::array<std::array<double, 3>, 2> perChMaxTreeBws = {
    {{26.5, 18.5, 10.0}, {24.0, 22.5, 16.0}}};
/** tuning.cc v2.9.9-1 `treeCorrectionFactor` [LL, LL128, Simple][log2(bytes / 64)], to 256 MB. */
constexpr std::array<std::array<double, 23>, 3> treeCorrectionFactor = {
    {{1.0, 1.0, 1.0, 1.0, .9, .8, .7, .7,  .7,  .7,  .6, .5,
      .4,  .4,  .5,  .6,  .7, .8, .9, 1.0, 1.0, 1.0, 1.0},
     {1.0, 1.0, 1.0, 1.0, 1.0, .9, .8, .8, .8, .7,  .6, .6,
      .6,  .5,  .6,  .6,  .7,  .7, .8, .9, .9, .92, .92},
     {.9, .9, .9, .9, .9, .9, .9, .8, .7, .6, .6, .5, .5, .5, .5, .6, .7, .8, .7, .7, .8, .9, .9}}};
/** search.cc v2.9.9-1 `speedArray`: the per-channel speeds the topology search tries, GB/s. */
constexpr std::array<double, 18> speedArray = {42.0, 30.0, 24.0, 21.0, 18.0, 15.0,
                                               12.0, 10.0, 9.0,  7.0,  6.0,  5.0,
                                               4.0,  3.0,  2.4,  1.2,  0.24, 0.12};

constexpr std::size_t tree = 0;
constexpr std::size_t ring = 1;

/** The largest search speed not above \a width (search.cc: the search starts there). */
double speedAtMost(double width)
{
    for (double s : speedArray)
        if (s <= width)
            return s;
    return speedArray.back();
}

/** The least search speed at or above \a width. */
double speedAtLeast(double width)
{
    double found = speedArray.front();
    for (double s : speedArray)
        if (s >= width)
            found = s;
    return found;
}

} // namespace

bool hasNcclTuner(const model::NcclVersion& version)
{
    return version.major == 2 && version.minor == 9;
}

std::optional<NcclTunerChoice> ncclTunerChoice(const model::NcclVersion& version, CollectiveOp op,
                                               double bytes, const CollectiveInputs& in)
{
    if (!hasNcclTuner(version))
        return std::nullopt;
    if (op != CollectiveOp::AllReduce && op != CollectiveOp::ReduceScatter &&
        op != CollectiveOp::AllGather)
        return std::nullopt;
    const int nRanks = std::max(1, in.ranks);
    const int ppn = std::clamp(in.ranksPerNode, 1, nRanks);
    const int nNodes = (nRanks + ppn - 1) / ppn;
    if (nNodes < 2 || in.inNetworkReduction || in.fabricGbytePerS <= 0.0 || in.railsPerNode < 1)
        return std::nullopt;

    // The graphs the topology search finds (search.cc v2.9.9-1, ncclTopoCompute): one channel per
    // NIC at the largest search speed the NIC carries; the ring keeps it inside the node too.
    // For trees on two nodes the second pass raises the intra-node speed while it is below twice
    // the inter-node one ("See if we can increase speedIntra for trees (2 nodes or collnet)"),
    // and the tuner takes the intra-node speed when nNodes <= 2. The NIC's rate is the node's
    // fabric share over its NICs (the engine's effective figure, close to the port rate NCCL
    // reads). Channels duplicated later (speed >= 25) keep channels x speed.
    const double nicGbytePerS = in.fabricGbytePerS * ppn / in.railsPerNode;
    const double interSpeed = speedAtMost(nicGbytePerS);
    const double channels = in.railsPerNode * std::max(1.0, std::floor(nicGbytePerS / interSpeed));
    double treeSpeed = interSpeed;
    if (nNodes <= 2) {
        treeSpeed = speedAtLeast(2.0 * interSpeed);
        if (in.scaleUpGbytePerS > 0.0)
            treeSpeed = std::min(treeSpeed, speedAtMost(in.scaleUpGbytePerS / channels));
        treeSpeed = std::max(treeSpeed, interSpeed);
    }
    const double graphBw[2] = {channels * treeSpeed, channels * interSpeed};

    // ncclTopoTuneModel (tuning.cc v2.9.9-1).
    const bool compCap80 = in.generation == GpuGeneration::Ampere;
    const std::size_t index2 = nNodes <= 2 ? static_cast<std::size_t>(nNodes - 1) : 2;
    // Multi-node LL cap by CPU vendor: Intel assumed, as the engine's tables do.
    const double llMaxBw = llMaxBws[0][index2];
    const double perChMaxTreeBw = perChMaxTreeBws[compCap80 ? 1 : 0][index2];
    const bool ar = op == CollectiveOp::AllReduce;
    const double ll128PerCh = ar                                  ? ll128MaxBwPerChAllReduce
                              : op == CollectiveOp::ReduceScatter ? ll128MaxBwPerChReduceScatter
                                                                  : ll128MaxBwPerChAllGather;
    const double nsteps = ar ? 2.0 * (nRanks - 1) : nRanks - 1.0;
    const double nInterSteps = ar ? 2.0 * (nNodes - 1) : nNodes - 1.0;
    // LL128 "by default only on Volta/Ampere+NVLink" with GPU-NIC paths up to PXB (GPUDirect
    // NICs on the GPUs' PCIe switches, as on DGX and p4d): Hopper is unknown to 2.9 and off.
    const bool ll128 = compCap80 && ppn > 1 && in.scaleUpGbytePerS > 0.0;

    NcclTunerChoice best;
    double bestUs = std::numeric_limits<double>::infinity();
    for (std::size_t a : {tree, ring}) {
        if (!ar && a == tree)
            continue;
        for (std::size_t p = 0; p < 3; ++p) {
            if (p == 1 && !ll128)
                continue;
            double busBw = graphBw[a];
            if (compCap80)
                busBw = std::min(busBw, 235.0);
            if (a == ring && p == 0)
                busBw = std::min(llMaxBw, busBw / 4.0);
            if (a == ring && p == 1)
                busBw = std::min(busBw * (ppn < 2 ? 0.7 : 0.92), ll128PerCh * channels);
            if (a == tree)
                busBw = std::min(busBw * 0.92, channels * perChMaxTreeBw);
            if (a == tree && p == 0)
                busBw = std::min(busBw / 3.8, llMaxBw);
            if (a == tree && p == 1)
                busBw = std::min(busBw * 0.915, ll128PerCh * channels);
            double bw = busBw * (a == tree ? 0.5 : nRanks / nsteps);

            double lat = baseLat[a][p];
            double intraLat = hwLatNvlink[a][p];
            const double interLat = hwLatNet[a][p];
            if (p == 0)
                intraLat *= 1.8; // nNodes > 1
            if (a == ring)
                lat += (nsteps - nInterSteps) * intraLat + nInterSteps * interLat;
            else
                lat += 2.0 *
                       ((ppn - 1) * intraLat + std::ilogb(static_cast<double>(nNodes)) * interLat);

            // ncclTopoGetAlgoTime (tuning.cc v2.9.9-1): the tree's correction by size; the
            // multi-node ring Simple all-reduce plateau.
            if (a == tree && bytes >= 64.0) {
                const int logSize = std::ilogb(bytes / 64.0);
                if (logSize < 23)
                    bw *= treeCorrectionFactor[p][static_cast<std::size_t>(logSize)];
            }
            if (a == ring && p == 2 && ar && bytes >= nRanks / 16.0 * 65536.0)
                lat *= 1.9;
            const double us = lat + bytes / (1000.0 * bw);
            if (us < bestUs) {
                bestUs = us;
                best.algorithm =
                    a == tree ? CollectiveAlgorithm::DoubleBinaryTree : CollectiveAlgorithm::Ring;
                best.protocol = p == 0   ? CollectiveProtocol::LL
                                : p == 1 ? CollectiveProtocol::LL128
                                         : CollectiveProtocol::Simple;
            }
        }
    }
    best.predictedUs = bestUs;
    best.ll128Enabled = ll128;
    best.ringGraphGbytePerS = graphBw[ring];
    best.treeGraphGbytePerS = graphBw[tree];
    return best;
}

} // namespace dct::solvers
