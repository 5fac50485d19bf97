#include "dct/solvers/collectives.h"

#include "dct/model/textformat.h"
#include "dct/solvers/nccltuner.h"
#include "dct/solvers/protocolefficiency.h"
#include "nccltuning.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>

// The collectives engine: NCCL's algorithms and protocols as its tuner models them (NCCL
// src/graph/tuning.cc, restated in nccltuning.h), with the bandwidth term taken from the links a
// collective actually loads and the latency built from named parts. docs/collectives.md derives
// every formula below and names the published measurements the validation tests reproduce.

namespace dct::solvers {

const char* collectiveOpName(CollectiveOp op)
{
    switch (op) {
    case CollectiveOp::AllReduce:
        return "all_reduce";
    case CollectiveOp::ReduceScatter:
        return "reduce_scatter";
    case CollectiveOp::AllGather:
        return "all_gather";
    case CollectiveOp::AllToAll:
        return "all_to_all";
    case CollectiveOp::SendRecv:
        return "send_recv";
    }
    return "all_reduce";
}

const char* collectiveAlgorithmName(CollectiveAlgorithm algorithm)
{
    switch (algorithm) {
    case CollectiveAlgorithm::Ring:
        return "ring";
    case CollectiveAlgorithm::DoubleBinaryTree:
        return "tree";
    case CollectiveAlgorithm::Hierarchical:
        return "hierarchical";
    case CollectiveAlgorithm::InNetwork:
        return "in_network";
    case CollectiveAlgorithm::Nvls:
        return "nvls";
    case CollectiveAlgorithm::NvlsTree:
        return "nvls_tree";
    }
    return "ring";
}

const char* collectiveProtocolName(CollectiveProtocol protocol)
{
    switch (protocol) {
    case CollectiveProtocol::LL:
        return "LL";
    case CollectiveProtocol::LL128:
        return "LL128";
    case CollectiveProtocol::Simple:
        return "Simple";
    }
    return "Simple";
}

CollectiveAlgorithm pinnedAlgorithm(model::CollectiveChoice choice)
{
    switch (choice) {
    case model::CollectiveChoice::Auto:
    case model::CollectiveChoice::Ring:
        return CollectiveAlgorithm::Ring;
    case model::CollectiveChoice::Tree:
        return CollectiveAlgorithm::DoubleBinaryTree;
    case model::CollectiveChoice::Hierarchical:
        return CollectiveAlgorithm::Hierarchical;
    case model::CollectiveChoice::InNetwork:
        return CollectiveAlgorithm::InNetwork;
    }
    return CollectiveAlgorithm::Ring;
}

std::vector<CollectiveAlgorithm> collectiveAlgorithms()
{
    return {CollectiveAlgorithm::Ring,         CollectiveAlgorithm::DoubleBinaryTree,
            CollectiveAlgorithm::Hierarchical, CollectiveAlgorithm::InNetwork,
            CollectiveAlgorithm::Nvls,         CollectiveAlgorithm::NvlsTree};
}

double busBandwidthFactor(CollectiveOp op, int ranks)
{
    const double n = std::max(1, ranks);
    // nccl-tests doc/PERFORMANCE.md; send/recv moves S point to point, factor 1.
    if (op == CollectiveOp::AllReduce)
        return 2.0 * (n - 1.0) / n;
    if (op == CollectiveOp::SendRecv)
        return 1.0;
    return (n - 1.0) / n;
}

CollectiveLatency fabricPathLatency(const CollectiveInputs& in, int switches, double cableM)
{
    CollectiveLatency l;
    l.pcieUs = 2.0 * in.pcieLatencyUs;
    l.nicUs = 2.0 * in.nicLatencyUs;
    l.switchUs = switches * in.switchLatencyUs;
    l.cableUs = cableM * nccl::cableUsPerM;
    l.totalUs = l.pcieUs + l.nicUs + l.switchUs + l.cableUs;
    return l;
}

CollectiveLatency fabricPathLatency(const CollectiveInputs& in, FabricPath path)
{
    const int tiers = std::max(1, in.fabricTiers);
    // A path climbs no higher than the fabric's top tier.
    const int climb = std::min(tiers - 1, path == FabricPath::SameLeaf    ? 0
                                          : path == FabricPath::CrossLeaf ? 1
                                                                          : 2);
    return fabricPathLatency(in, 2 * climb + 1,
                             2.0 * in.cableInRowM + 2.0 * climb * in.cableAcrossRowsM);
}

namespace {

constexpr double gbyte = 1e9;
constexpr double unbounded = std::numeric_limits<double>::infinity();

/** The algorithms NCCL's tuner chooses from, in enum order (no allocation per call). */
constexpr CollectiveAlgorithm kAlgorithms[] = {
    CollectiveAlgorithm::Ring,         CollectiveAlgorithm::DoubleBinaryTree,
    CollectiveAlgorithm::Hierarchical, CollectiveAlgorithm::InNetwork,
    CollectiveAlgorithm::Nvls,         CollectiveAlgorithm::NvlsTree};

std::size_t index(CollectiveProtocol p)
{
    return static_cast<std::size_t>(p);
}

using Shape = CollectiveEngine::Shape;

void addScaled(CollectiveLatency& into, const CollectiveLatency& part, double k)
{
    into.launchUs += k * part.launchUs;
    into.softwareUs += k * part.softwareUs;
    into.nvlinkUs += k * part.nvlinkUs;
    into.pcieUs += k * part.pcieUs;
    into.nicUs += k * part.nicUs;
    into.switchUs += k * part.switchUs;
    into.cableUs += k * part.cableUs;
}

void total(CollectiveLatency& l)
{
    l.totalUs =
        l.launchUs + l.softwareUs + l.nvlinkUs + l.pcieUs + l.nicUs + l.switchUs + l.cableUs;
}

int ceilDiv(int a, int b)
{
    return b > 0 ? (a + b - 1) / b : 1;
}

/** Leaves and spine blocks (pods) the \a nodes of a collective span, filled in order. */
struct Span
{
    int leaves = 1;
    int pods = 1;
};

Span spanOf(const CollectiveInputs& in, int nodes)
{
    Span s;
    s.leaves = in.nodesPerLeaf > 0 && in.fabricTiers > 1 ? ceilDiv(nodes, in.nodesPerLeaf) : 1;
    s.pods = in.nodesPerPod > 0 && in.fabricTiers > 2 ? ceilDiv(nodes, in.nodesPerPod) : 1;
    s.pods = std::min(s.pods, s.leaves);
    return s;
}

/** The longest path between two of \a nodes: it sets a pairwise or in-network step. */
FabricPath worstPath(const CollectiveInputs& in, int nodes)
{
    const Span s = spanOf(in, nodes);
    return s.pods > 1 ? FabricPath::CrossSpine
                      : (s.leaves > 1 ? FabricPath::CrossLeaf : FabricPath::SameLeaf);
}

const CollectiveLatency& pathOf(const Shape& s, FabricPath p)
{
    return s.paths[static_cast<std::size_t>(p)];
}

const CollectiveLatency& worstOf(const Shape& s)
{
    return s.paths[static_cast<std::size_t>(s.worstPath)];
}

/** Sets the bandwidth terms of \a s from \a in: the only parts of a shape they reach. */
void setBandwidths(Shape& s, const CollectiveInputs& in)
{
    const model::CollectiveCalibration& cal = in.calibration;
    s.nvlink = std::max(0.0, in.scaleUpGbytePerS) * cal.scaleUpBandwidthFactor;
    s.net = std::max(0.0, in.fabricGbytePerS) * nccl::netTransportEfficiency *
            cal.fabricBandwidthFactor;
    // The domain's in-switch adders are shared by the groups reducing on them at once; the
    // scale-up calibration scales them with the links (a fit on an NVLS log sees only their
    // minimum).
    s.nvlsReduce = std::max(0.0, in.nvlsReduceGbytePerS) * cal.scaleUpBandwidthFactor /
                   std::max(1, in.nvlsGroups);
}

Shape shapeOf(const CollectiveInputs& in)
{
    Shape s;
    s.n = std::max(1, in.ranks);
    s.g = std::clamp(in.ranksPerNode, 1, s.n);
    s.nodes = s.n / s.g + (s.n % s.g != 0 ? 1 : 0); // ceil, without n + g - 1 past an int
    // The calibration's factors (docs/collectives.md, "Calibration") scale the engine's free
    // parameters here and in fillTiming(); all 1 uncalibrated.
    const model::CollectiveCalibration& cal = in.calibration;
    setBandwidths(s, in);
    s.gen = static_cast<std::size_t>(nccl::generationIndex(in.generation));
    s.nodeIdx = static_cast<std::size_t>(nccl::nodeIndex(s.nodes));
    s.nvlinkScale =
        (in.scaleUpAlphaUs > 0.0 ? in.scaleUpAlphaUs / nccl::nvlinkReferenceStepUs : 1.0) *
        cal.scaleUpLatencyFactor;
    s.launchFactor = cal.launchLatencyFactor;
    s.fabricLatencyFactor = cal.fabricLatencyFactor;
    s.protocolLatencyFactor[0] = cal.llLatencyFactor;
    s.protocolLatencyFactor[1] = cal.ll128LatencyFactor;
    s.protocolLatencyFactor[2] = cal.simpleLatencyFactor;
    s.ll128BandwidthFactor = cal.ll128BandwidthFactor;
    s.proxyPostUs = cal.proxyPostFactor * nccl::netPostOverheadUs;
    s.allReduceShare = busBandwidthFactor(CollectiveOp::AllReduce, s.n);
    s.share = busBandwidthFactor(CollectiveOp::ReduceScatter, s.n);
    for (auto p : {FabricPath::SameLeaf, FabricPath::CrossLeaf, FabricPath::CrossSpine})
        s.paths[static_cast<std::size_t>(p)] = fabricPathLatency(in, p);
    s.worstPath = static_cast<int>(worstPath(in, s.nodes));
    // A ring visits the nodes in order: of its N inter-node edges one per leaf crosses to the
    // next leaf and one per pod to the next pod.
    const Span span = spanOf(in, s.nodes);
    s.ringSpineEdges = span.pods > 1 ? span.pods : 0.0;
    s.ringLeafEdges = (span.leaves > 1 ? span.leaves : 0.0) - s.ringSpineEdges;
    s.ringSameEdges = s.nodes - s.ringLeafEdges - s.ringSpineEdges;
    // A binary tree over the nodes: level k spans 2^k nodes (same leaf while that fits).
    s.treeLevels = s.nodes > 1 ? std::ilogb(static_cast<double>(s.nodes)) : 0;
    for (int k = 1; k <= s.treeLevels; ++k)
        addScaled(s.treeHardware, pathOf(s, worstPath(in, 1 << std::min(k, 30))), 1.0);
    return s;
}

/**
 * Adds \a steps network steps of a ring over the nodes of \a s, the edges falling on the paths
 * as shapeOf() counted them.
 */
void addRingSteps(CollectiveLatency& l, const Shape& s, double steps, double softwareUs)
{
    const double edges = s.nodes;
    l.softwareUs += steps * softwareUs;
    addScaled(l, pathOf(s, FabricPath::SameLeaf), steps * s.ringSameEdges / edges);
    addScaled(l, pathOf(s, FabricPath::CrossLeaf), steps * s.ringLeafEdges / edges);
    addScaled(l, pathOf(s, FabricPath::CrossSpine), steps * s.ringSpineEdges / edges);
}

/** Adds \a passes passes down the levels of the binary tree over the nodes of \a s. */
void addTreeLevels(CollectiveLatency& l, const Shape& s, double softwareUs, double passes)
{
    CollectiveLatency levels = s.treeHardware;
    for (int k = 1; k <= s.treeLevels; ++k)
        levels.softwareUs += softwareUs;
    addScaled(l, levels, passes);
}

/** Software part of a network step: NCCL's constant less the hardware path it includes. */
double softwarePart(double ncclStepUs)
{
    return std::max(0.0, ncclStepUs - nccl::referencePathUs);
}

/** One algorithm and protocol, before it becomes a timing. */
struct Model
{
    bool available = false;
    CollectiveUnavailable why = CollectiveUnavailable::None;
    bool viaNvls = false;
    bool addersBind = false; ///< The NVSwitch's adders set algbw (CollectiveReason).
    double algbw = 0.0;      ///< GB/s of the bandwidth term.
    CollectiveLatency latency;
    int channels = 0;    ///< Channels run at this size ...
    int allChannels = 0; ///< ... of the communicator's (0: not tuned by size).
    /** A chunk-pipelined tree's fill and per-chunk step costs, or the NVLS tree's fill across
     *  nodes, us (calibrated already). */
    double pipelineUs = 0.0;
    /** The channels' network posts one after the other on the proxy thread, us (calibrated
     *  already; serialPosts()). */
    double postUs = 0.0;
    /** What the call delivers where NCCL's tuner rates it below the hardware, GB/s, and its
     *  pipeline, us; 0: as algbw and pipelineUs. The double binary tree and the NVLS tree on
     *  three nodes (treeNodeLoad()): NCCL chooses by the 2 S it counts, the call runs at the
     *  1.5 S the trees put on the busiest node. The choice compares algbw; the timing these. */
    double deliveredAlgbw = 0.0;
    double deliveredPipelineUs = 0.0;
};

Model unavailable(CollectiveUnavailable why)
{
    Model m;
    m.why = why;
    return m;
}

bool reduces(CollectiveOp op)
{
    return op == CollectiveOp::AllReduce || op == CollectiveOp::ReduceScatter ||
           op == CollectiveOp::AllGather;
}

/**
 * Link bandwidth after protocol \a p: LL halves it (capped), LL128 keeps 120 of 128 bytes
 * (capped), times its calibration against Simple's (Shape::ll128BandwidthFactor).
 */
double protocolBandwidth(double bw, CollectiveProtocol p, double llCap, double ll128Cap,
                         const Shape& s)
{
    if (p == CollectiveProtocol::LL)
        return std::min(bw * nccl::ringLlEfficiency, llCap);
    if (p == CollectiveProtocol::LL128)
        return std::min(bw * nccl::ringLl128Efficiency, ll128Cap) * s.ll128BandwidthFactor;
    return bw;
}

double llCap(const Shape& s)
{
    return s.nodes == 1 ? nccl::llMaxSingleNode[s.gen] : nccl::llMaxMultiNodeIntel[s.nodeIdx];
}

/**
 * Returns the ring channels NCCL runs inside one NVLink domain whose GPUs each have \a nvlinks
 * NVLinks of generation \a gen, as its graph search finds them (src/graph/search.cc at commit
 * 5067397c, ncclTopoCompute, and src/graph/connect.cc, ncclTopoPostset):
 *  - it tries the per-channel speeds of its table from the first the GPU's NVLink bandwidth
 *    (the links times NCCL's per-link figure) carries; at a speed, as many channels as fit,
 *    up to 32; it keeps the most bandwidth, channels x speed (a tie keeps the fewer channels,
 *    ncclTopoCompareGraphs), stops once that reaches the GPU's bandwidth, and tries a slower
 *    speed only while it is more than 0.49 of the best one's;
 *  - ncclTopoDupChannels doubles the channels at half the speed when the speed is at least 25
 *    GB/s, except from compute capability 9.0 at under 50 GB/s with more than 4 channels;
 *  - ncclTopoPostset doubles them again (rings duplicated), up to MAXCHANNELS.
 * Restated, it gives the "coll channels" NCCL reports: 8 A100 (12 NVLinks) 24 (nccl-tests issue
 * 100, HGX A100: "Channel 23/24"), 8 H100 (18) 24 (a p5.48xlarge, 2026: "24 coll channels"),
 * 8 H800 (8) 16 (NVIDIA/nccl issue 892, NCCL 2.18: "16 coll channels"); 8 B200 (18) 32.
 */
int ncclDomainRingChannels(GpuGeneration gen, int nvlinks)
{
    const int g = nccl::generationIndex(gen);
    const double total = std::max(1, nvlinks) * nccl::nvlinkLinkGbytePerS[g];
    auto search = [&](const auto& speeds) {
        int bestChannels = 0;
        double bestSpeed = 0.0;
        for (const double speed : speeds) {
            if (speed > total)
                continue;
            if (bestChannels > 0 &&
                (bestChannels * bestSpeed >= total || speed / bestSpeed <= 0.49))
                break;
            const int channels =
                std::min(nccl::ringSearchMaxChannels, static_cast<int>(std::floor(total / speed)));
            if (channels * speed > bestChannels * bestSpeed) {
                bestChannels = channels;
                bestSpeed = speed;
            }
        }
        return std::pair{bestChannels, bestSpeed};
    };
    auto [channels, speed] = gen == GpuGeneration::Blackwell
                                 ? search(nccl::ringSearchSpeedsBlackwell)
                             : gen == GpuGeneration::Hopper ? search(nccl::ringSearchSpeedsHopper)
                                                            : search(nccl::ringSearchSpeedsAmpere);
    channels = std::max(1, channels);
    const bool hopperOrLater = gen != GpuGeneration::Ampere;
    if (speed >= 25.0 && !(hopperOrLater && speed < 50.0 && channels > 4))
        channels = std::min(2 * channels, nccl::ringSearchMaxChannels);
    return std::min(2 * channels, nccl::maxChannels);
}

int ringChannels(const CollectiveInputs& in, const Shape& s)
{
    // Two channels per NIC across nodes (NCCL duplicates rings when bandwidth allows). Inside
    // one NVLink domain, as NCCL's graph search finds them for the GPU's NVLinks (counted from
    // its scale-up bandwidth: the link's raw rate through NVLink's packet and protocol
    // efficiency, which the network solver applied).
    if (s.nodes == 1) {
        const int g = nccl::generationIndex(in.generation);
        const double raw = in.scaleUpGbytePerS / nvlinkEfficiency().efficiency;
        const int links = static_cast<int>(std::lround(raw / nccl::nvlinkLinkRawGbytePerS[g]));
        return ncclDomainRingChannels(in.generation, std::max(1, links));
    }
    return std::clamp(2 * std::max(1, in.railsPerNode), 2, 32);
}

/**
 * Returns the channels NCCL runs a ring or tree call of \a bytes on, out of \a channels (NCCL
 * src/enqueue.cc, topoGetAlgoInfo): the most, at least one, whose threads each get at least the
 * protocol's threshold of bytes, nc x nt x threshold <= bytes (nccltuning.h). A ring's LL
 * threshold grows with the ranks: each of its 2(n-1) steps moves 1/n of the buffer.
 */
int channelsAtSize(int channels, bool ringLl, CollectiveProtocol p, double bytes, int ranks)
{
    const double perChannel = nccl::maxThreadsPerChannel[index(p)] *
                              nccl::threadThresholdBytes[index(p)] * (ringLl ? ranks : 1);
    const double fit = std::floor(bytes / perChannel);
    return fit >= channels ? channels : std::max(1, static_cast<int>(fit));
}

/**
 * Adds to \a m, once it runs its channels at size, the wait of its network posts one after the
 * other (docs/collectives.md, "Calibration"). NCCL makes one proxy operation per channel
 * (src/enqueue.cc) and appends them as the sub-operations of one (src/proxy.cc); its proxy
 * thread posts each sub's send in turn (src/transport/net.cc, sendProxyProgress, a loop over
 * args->nsubs calling the network's isend), so on each of \a networkSteps steps the last
 * channel's data leaves (channels - 1) posts after the first's. Shape::proxyPostUs, a post's
 * cost, is 0 uncalibrated (NCCL's tuner has no such term) and fitted where a log's sizes show
 * it: time rising while the channels grow with the size at a constant share each.
 */
void addSerialPosts(Model& m, double networkSteps, const Shape& s)
{
    if (s.proxyPostUs > 0.0 && m.channels > 1)
        m.postUs = s.proxyPostUs * (m.channels - 1) * networkSteps;
}

/**
 * Scales the bandwidth of \a m, built on all its channels, to the channels NCCL runs at \a bytes:
 * each channel carries an equal share of the algorithm's bandwidth (NCCL's tuner builds it as
 * channels x per-channel bandwidth, tuning.cc ncclTopoTuneModel), so nc of them carry nc / all.
 */
void runChannelsAtSize(Model& m, bool ringLl, CollectiveProtocol p, double bytes, const Shape& s)
{
    const int all = m.channels;
    m.allChannels = all;
    m.channels = channelsAtSize(all, ringLl, p, bytes, s.n);
    if (m.channels < all)
        m.algbw *= static_cast<double>(m.channels) / all;
}

/**
 * The start of a model that runs over ring channels (rings, hierarchical phases, point to
 * point): unavailable without NVLink bandwidth inside a node of several GPUs or without fabric
 * bandwidth between nodes, else available on ringChannels() channels.
 */
Model ringChannelModel(const CollectiveInputs& in, const Shape& s)
{
    if (s.g > 1 && s.nvlink <= 0.0)
        return unavailable(CollectiveUnavailable::NoNvlink);
    if (s.nodes > 1 && s.net <= 0.0)
        return unavailable(CollectiveUnavailable::NoFabric);
    Model m;
    m.available = true;
    m.channels = ringChannels(in, s);
    return m;
}

Model ring(CollectiveOp op, CollectiveProtocol p, double bytes, const CollectiveInputs& in,
           const Shape& s)
{
    Model m = ringChannelModel(in, s);
    if (!m.available)
        return m;
    const double n = s.n;
    const double g = s.g;
    // Bus bandwidth of rings on every rail at once: a node's ring traffic leaves on all of its
    // NICs (g B_r) and crosses g-1 NVLink hops per node, spread over g GPUs.
    double bus = s.nvlink;
    if (s.nodes > 1)
        bus = std::min(s.g > 1 ? s.nvlink * g / (g - 1.0) : unbounded, g * s.net);
    bus = protocolBandwidth(bus, p, llCap(s),
                            m.channels * nccl::perChannelRingLl128[s.gen][s.nodeIdx], s);
    const bool ar = op == CollectiveOp::AllReduce;
    m.algbw = bus / (ar ? s.allReduceShare : s.share);

    const double steps = ar ? 2.0 * (n - 1.0) : n - 1.0;
    const double interSteps = s.nodes == 1 ? 0.0 : (ar ? 2.0 * (s.nodes - 1.0) : s.nodes - 1.0);
    CollectiveLatency& l = m.latency;
    l.launchUs = nccl::baseLatencyRingUs[index(p)];
    // Steps inside a node: NVLink; across nodes each still waits for the network post overhead.
    // With one rank per node there is no NVLink hop: every step crosses the network.
    const double nvlinkStep = nccl::nvlinkStepRingUs[index(p)] * s.nvlinkScale;
    const double post =
        s.nodes > 1 ? nccl::netPostOverheadUs * (p == CollectiveProtocol::Simple ? 3.0 : 1.0) : 0.0;
    l.nvlinkUs += (steps - interSteps) * nvlinkStep;
    l.softwareUs += (steps - interSteps) * std::max(0.0, post - nvlinkStep);
    if (interSteps > 0.0) {
        // With one rank per node every latency is exposed: NCCL charges the tree's step.
        const double ncclStep =
            s.g == 1 ? nccl::netStepTreeUs[index(p)] : nccl::netStepRingUs[index(p)];
        addRingSteps(l, s, interSteps, softwarePart(ncclStep));
    }
    if (ar && p == CollectiveProtocol::Simple && s.nodes > 1 && bytes / (m.channels * n) >= 64.0) {
        // NCCL's ring plateau: pipelined chunks expose more latency once they fill.
        CollectiveLatency scaled;
        addScaled(scaled, l, nccl::ringPlateauLatencyFactor);
        l = scaled;
    }
    runChannelsAtSize(m, p == CollectiveProtocol::LL, p, bytes, s);
    addSerialPosts(m, interSteps, s);
    return m;
}

/**
 * The chunk size, in data bytes, of a tree across nodes with protocol \a p (Simple or LL128) on
 * \a channels channels for a call of \a bytes, as NCCL release 2.\a minor sets it (src/enqueue.cc:
 * computeColl at v2.9.9-1, calcCollChunking from v2.20.3-1). \a depth is NCCL's tree depth.
 */
double treeChunkBytes(CollectiveProtocol p, double bytes, double channels, double depth, int minor,
                      const Shape& s)
{
    // NCCL compares integer quotients: chunks of the buffer per channel, rounded down.
    const auto chunksPerChannel = [&](double chunk) {
        return std::floor(bytes / (channels * chunk));
    };
    if (p == CollectiveProtocol::Simple) {
        double chunk = nccl::simpleStepBytes;
        if (minor <= nccl::lastReleaseWithSimpleTreeChunkBySize) {
            while (chunksPerChannel(chunk) < depth * 8.0 && chunk > 131072.0)
                chunk /= 2.0;
            while (chunksPerChannel(chunk) < depth * 4.0 && chunk > 65536.0)
                chunk /= 2.0;
            while (chunksPerChannel(chunk) < depth && chunk > 32768.0)
                chunk /= 2.0;
        }
        return chunk;
    }
    // LL128: halve while fewer than (1 + log2 nodes + 0.1 ppn) x 64 / ppn chunks per channel
    // above 128 KiB, then x 16 / ppn above 32 KiB. Releases from 2.20 count the chunk in data
    // bytes (120 of 128), earlier ones in line bytes and convert after.
    const double data = 120.0 / 128.0;
    const bool dataFirst = minor > nccl::lastReleaseWithSimpleTreeChunkBySize;
    double chunk = nccl::ll128StepBytes * (dataFirst ? data : 1.0);
    const double ppn = s.g;
    const double steps = 1.0 + std::ilogb(static_cast<double>(s.nodes)) + 0.1 * ppn;
    while (chunksPerChannel(chunk) < steps * 64.0 / ppn && chunk > 131072.0)
        chunk /= 2.0;
    while (chunksPerChannel(chunk) < steps * 16.0 / ppn && chunk > 32768.0)
        chunk /= 2.0;
    return dataFirst ? chunk : chunk * data;
}

/**
 * The bytes through the busiest node's NICs, each way, for an all-reduce of S bytes by NCCL's
 * double binary tree over \a nodes nodes, in units of S (src/graph/trees.cc, ncclGetDtree).
 * Each tree carries S / 2 up and back down; a node receives from its children going up and
 * from its parent coming down. On two nodes each tree is a root and one child: every node
 * receives S / 2 per tree, S in all. On three the first tree is the chain 0-2-1 and the
 * second its shift 1-0-2: nodes 0 and 2 are the middle of one chain (S) and an end of the
 * other (S / 2), 1.5 S. From four nodes some node is an inner node of one tree with two
 * children (1.5 S) and a leaf of the other (S / 2): 2 S, the figure NCCL's tuner uses at any
 * node count (src/graph/tuning.cc: tree busBw x 0.5).
 */
double treeNodeLoad(int nodes)
{
    return nodes == 2 ? 1.0 : nodes == 3 ? 1.5 : 2.0;
}

/**
 * The pipeline of a tree across nodes (docs/collectives.md, "Chunk pipeline"): each channel's
 * share C of the buffer goes up and down the tree in N = C / chunk chunks, each taking one step
 * per hop of cost c (NCCL's per-step network software, calibrated by chunk_step_factor) plus
 * chunk / B_ch on the channel's bandwidth. Filled over 2 x depth hops the call takes
 * (N + 2 depth - 1)(c + chunk / B_ch): the bandwidth term C / B_ch the engine charges already,
 * and this, the fill and the per-chunk steps. Small buffers make one short chunk that crosses
 * every hop alone; NCCL's size rules (treeChunkBytes) shrink the chunk to keep N above the depth.
 */
double treePipelineUs(CollectiveProtocol p, double bytes, const Model& m,
                      const CollectiveInputs& in, const Shape& s)
{
    if (!(m.algbw > 0.0) || m.channels <= 0 || bytes <= 0.0)
        return 0.0;
    const double channels = m.channels;
    // NCCL's tree depth: the chain inside a node and log2 of the nodes (src/graph/connect.cc).
    const double depth = (s.g - 1.0) + std::ilogb(static_cast<double>(s.nodes));
    const double perChannel = bytes / channels;
    const double chunk =
        std::min(treeChunkBytes(p, bytes, channels, depth, in.ncclMinor, s), perChannel);
    const double chunks = std::ceil(perChannel / chunk - 1e-9);
    const double chunkUs = chunk / (m.algbw / channels * gbyte) * 1e6;
    const double stepUs =
        softwarePart(nccl::netStepTreeUs[index(p)]) * in.calibration.chunkStepFactor;
    const double hops = 2.0 * depth;
    return (hops - 1.0) * (stepUs + chunkUs) + chunks * stepUs;
}

Model tree(CollectiveOp op, CollectiveProtocol p, double bytes, const CollectiveInputs& in,
           const Shape& s)
{
    if (op != CollectiveOp::AllReduce)
        return unavailable(CollectiveUnavailable::TreeAllReduceOnly);
    const double link =
        s.nodes == 1 ? s.nvlink : std::min(s.g > 1 ? s.nvlink : unbounded, s.g * s.net);
    if (link <= 0.0)
        return unavailable(CollectiveUnavailable::NoTreeLink);
    Model m;
    m.available = true;
    m.channels = ringChannels(in, s);
    const double ch = m.channels;
    // A pipelined tree (a named release) has its chunk pipeline instead of the tuner's size
    // correction (treePipelineUs).
    const bool pipelined = in.ncclMinor > 0 && s.nodes > 1 && p != CollectiveProtocol::LL;
    // The algorithm bandwidth over a link of \a busLink, after the channels' caps (their
    // network leg's, so scaled by \a capScale with the node's load), the protocol and the size
    // correction.
    const auto algbwOver = [&](double busLink, double capScale) {
        double bus = std::min(busLink * nccl::treeEfficiency,
                              capScale * ch * nccl::perChannelTree[s.gen][s.nodeIdx]);
        if (p == CollectiveProtocol::LL)
            bus = std::min(bus * nccl::treeLlFactor, llCap(s));
        if (p == CollectiveProtocol::LL128)
            bus = std::min(
                      bus * (s.nodes == 1 ? nccl::treeLl128SingleNode : nccl::treeLl128MultiNode),
                      capScale * ch * nccl::perChannelTreeLl128[s.gen][s.nodeIdx]) *
                  s.ll128BandwidthFactor;
        // Each rank moves the buffer up and down the trees: algbw is half the link's.
        double algbw = 0.5 * bus;
        // Size index floor(log2(bytes / 64)); ilogb is that exponent, exactly.
        if (!pipelined && bytes >= 64.0) {
            const int sizeIndex = std::ilogb(bytes / 64.0);
            if (sizeIndex < 23)
                algbw *= nccl::treeCorrection[index(p)][static_cast<std::size_t>(sizeIndex)];
        }
        return algbw;
    };
    // NCCL's tuner counts 2 S through every node's NICs and its channels' network legs (the
    // per-channel caps differ by node count) from three nodes on; on two or three nodes the
    // busiest node carries S or 1.5 S (treeNodeLoad()), and the call runs at that while the
    // chain inside the node still moves 2 S over NVLink.
    m.algbw = algbwOver(link, 1.0);
    const double load = treeNodeLoad(s.nodes);
    if (s.nodes > 1 && load < 2.0) {
        const double deliveredLink =
            std::min(s.g > 1 ? s.nvlink : unbounded, 2.0 * s.g * s.net / load);
        const double delivered = algbwOver(deliveredLink, 2.0 / load);
        // On two nodes NCCL's tuner sees it too: its topology search raises the tree graph's
        // intra-node speed up to twice the network's ("increase bwIntra for trees (2 nodes or
        // collnet)", src/graph/search.cc) and the tuner rates two nodes by that speed
        // (tuning.cc: nNodes <= 2 ? bwIntra : bwInter). On three it rates bwInter x 0.5.
        if (s.nodes == 2)
            m.algbw = std::max(m.algbw, delivered);
        else if (delivered > m.algbw)
            m.deliveredAlgbw = delivered;
    }

    CollectiveLatency& l = m.latency;
    l.launchUs = nccl::baseLatencyTreeUs[index(p)];
    // Up and down: the chain of g-1 NVLink hops and log2(nodes) network levels, each twice.
    l.nvlinkUs = 2.0 * (s.g - 1.0) * nccl::nvlinkStepTreeUs[index(p)] * s.nvlinkScale;
    addTreeLevels(l, s, softwarePart(nccl::netStepTreeUs[index(p)]), 2.0);
    runChannelsAtSize(m, false, p, bytes, s);
    if (pipelined) {
        m.pipelineUs = treePipelineUs(p, bytes, m, in, s);
        if (m.deliveredAlgbw > 0.0) {
            Model ran = m;
            ran.algbw = m.deliveredAlgbw;
            m.deliveredPipelineUs = treePipelineUs(p, bytes, ran, in, s);
        }
    }
    addSerialPosts(m, 2.0 * s.treeLevels, s);
    return m;
}

Model hierarchical(CollectiveOp op, CollectiveProtocol p, double bytes, const CollectiveInputs& in,
                   const Shape& s)
{
    if (!reduces(op))
        return unavailable(CollectiveUnavailable::NoHierarchicalForm);
    Model m = ringChannelModel(in, s);
    if (!m.available)
        return m;
    const bool ar = op == CollectiveOp::AllReduce;
    const double phases = ar ? 2.0 : 1.0;
    const double g = s.g;
    const double nodes = s.nodes;
    const double nv = protocolBandwidth(s.nvlink, p, llCap(s), unbounded, s);
    const double net = protocolBandwidth(s.g * s.net, p, llCap(s), unbounded, s) / g;
    // Reduce-scatter on NVLink, the shard of S/g across nodes, all-gather on NVLink. The phases
    // are pipelined chunk by chunk, so the slower resource sets the pace, not their sum.
    const double nvPerByte = s.g > 1 ? phases * (g - 1.0) / g / nv : 0.0;
    const double netPerByte =
        s.nodes > 1 ? (ar ? 2.0 : 1.0) * (nodes - 1.0) / nodes / g / net : 0.0;
    m.algbw = 1.0 / std::max(nvPerByte, netPerByte);

    CollectiveLatency& l = m.latency;
    l.launchUs = nccl::baseLatencyRingUs[index(p)];
    l.nvlinkUs = phases * (g - 1.0) * nccl::nvlinkStepRingUs[index(p)] * s.nvlinkScale;
    const double interSteps = s.nodes > 1 ? (ar ? 2.0 : 1.0) * (nodes - 1.0) : 0.0;
    if (interSteps > 0.0)
        addRingSteps(l, s, interSteps, softwarePart(nccl::netStepRingUs[index(p)]));
    runChannelsAtSize(m, p == CollectiveProtocol::LL, p, bytes, s);
    addSerialPosts(m, interSteps, s);
    return m;
}

/**
 * NVLS inside the node: algbw of the NVSwitch reduction (all-reduce) or multicast; \a addersBind,
 * when given, says whether the switch's adders rather than the links set it.
 */
double nvlsIntraBandwidth(CollectiveOp op, const Shape& s, bool* addersBind = nullptr)
{
    const double g = s.g;
    const double eff = nccl::nvlsEfficiency[s.gen];
    // All-reduce: each GPU's buffer is read by the switch's reductions and the reduced shards
    // come back; NCCL's tuner takes the NVLS efficiency and (channels-1)/channels of a graph
    // whose channels are the g GPUs. Reduce-scatter and all-gather move (g-1)/g S per GPU.
    const double links = op == CollectiveOp::AllReduce ? s.nvlink * eff * (g - 1.0) / g
                                                       : s.nvlink * eff * g / (g - 1.0);
    // The switch adds: every element of the S-byte result (all-reduce) or of the g shards
    // (reduce-scatter) sums g operands, g - 1 additions, in the NVSwitch chips of the domain;
    // their adders bound the reduction at nvlsReduce / (g - 1) (docs/collectives.md, "NVLS: the
    // switch's adders"). The all-gather only multicasts.
    if (op == CollectiveOp::AllGather || s.nvlsReduce <= 0.0 || g < 2.0)
        return links;
    const double adders = s.nvlsReduce / (g - 1.0);
    if (addersBind)
        *addersBind = adders < links;
    return std::min(links, adders);
}

/** NVLS; \a multiNode false times the NVLS phase inside one node only. */
Model nvls(CollectiveOp op, CollectiveProtocol p, const CollectiveInputs& in, const Shape& s,
           bool multiNode = true)
{
    const int nodes = multiNode ? s.nodes : 1;
    if (!reduces(op))
        return unavailable(CollectiveUnavailable::NvlsNotForOp);
    if (!in.nvls || nccl::nvlsEfficiency[s.gen] <= 0.0)
        return unavailable(CollectiveUnavailable::NvlsNeedsNvswitch);
    if (s.g < 2 || s.nvlink <= 0.0)
        return unavailable(CollectiveUnavailable::NvlsNeedsDomain);
    if (nodes > 1 && (!in.inNetworkReduction || s.net <= 0.0))
        return unavailable(CollectiveUnavailable::NvlsNeedsSharp);
    if (p != CollectiveProtocol::Simple)
        return unavailable(CollectiveUnavailable::NvlsSimpleOnly);
    Model m;
    m.available = true;
    m.channels = s.gen == 2 ? nccl::nvlsChannelsBlackwell : nccl::nvlsChannelsHopper;
    m.algbw = nvlsIntraBandwidth(op, s, &m.addersBind);
    CollectiveLatency& l = m.latency;
    l.nvlinkUs = nccl::nvlinkStepNvlsUs * s.nvlinkScale;
    if (nodes > 1) {
        // The fabric switches add up each GPU's shard of S/g: it goes up once and back once.
        const double across = s.g * s.net * nccl::collNetHopperEfficiency;
        m.addersBind = m.addersBind && m.algbw <= across;
        m.algbw = std::min(m.algbw, across);
        l.softwareUs += softwarePart(nccl::netStepNvlsUs);
        addScaled(l, worstOf(s), 1.0);
    }
    return m;
}

/** The NVLS tree's channels and largest chunk on the nodes of \a s (nccl::nvlsTreeTuning()). */
nccl::NvlsTreeTuning nvlsTreeTuningOf(const CollectiveInputs& in, const Shape& s)
{
    // NCCL reads the NIC's speed; without it, the fabric's share per rank spread back on the
    // node's NICs.
    const double nic = in.nicGbytePerS > 0.0
                           ? in.nicGbytePerS
                           : in.fabricGbytePerS * s.g / std::max(1, in.railsPerNode);
    return nccl::nvlsTreeTuning(s.gen == 2, s.nodes, s.g, nic);
}

/** The stages' rates of an NVLS tree across nodes, algorithm GB/s (nvlsTreeFillUs()). */
struct NvlsTreeStages
{
    double nvls = 0.0;    ///< The NVSwitch reduction, and the multicast after the tree.
    double network = 0.0; ///< One hop of the tree, up or down: the node's NICs one way.
    double slowest = 0.0; ///< The pipeline's rate: the collective's algorithm bandwidth.
};

/**
 * The fill of the NVLS tree's chunk pipeline across nodes, us (docs/collectives.md, "NVLS tree
 * across nodes"). NCCL runs channels x heads operations at once, each on its share of the
 * buffer in chunks (nccl::nvlsTreeChunkBytes()); a chunk goes through the NVSwitch reduction,
 * the tree's levels up and down and the multicast. A pipeline of stages of rates B_s moving N
 * chunks takes sum_s c / B_s + (N - 1) c / B_min: its bandwidth term plus a fill of
 * c (sum_s 1 / B_s - 1 / B_min), c the chunk of all operations at once.
 */
double nvlsTreeFillUs(double bytes, const NvlsTreeStages& stage, double heads,
                      const nccl::NvlsTreeTuning& t, const Shape& s)
{
    const auto rate = [](double b) { return b > 0.0 && std::isfinite(b); };
    if (!rate(stage.slowest) || !rate(stage.nvls) || !rate(stage.network) || bytes <= 0.0)
        return 0.0;
    const double ops = t.channels * std::max(1.0, heads);
    const double chunk =
        std::min(nccl::nvlsTreeChunkBytes(bytes, ops, t.maxChunkBytes), bytes / ops);
    const double perByte =
        2.0 / stage.nvls + 2.0 * s.treeLevels / stage.network - 1.0 / stage.slowest;
    return std::max(0.0, chunk * ops * perByte / gbyte * 1e6);
}

Model nvlsTree(CollectiveOp op, CollectiveProtocol p, double bytes, const CollectiveInputs& in,
               const Shape& s)
{
    if (op != CollectiveOp::AllReduce)
        return unavailable(CollectiveUnavailable::NvlsTreeAllReduceOnly);
    if (s.nodes < 2)
        return unavailable(CollectiveUnavailable::NvlsTreeNeedsNodes);
    Model inside = nvls(op, p, in, s, false);
    if (!inside.available)
        return inside;
    if (s.net <= 0.0)
        return unavailable(CollectiveUnavailable::NoFabric);
    Model m = inside;
    const double n = s.n;
    const double g = s.g;
    // Across nodes each head runs the double binary tree on its shard S/g: 2 S/g each way
    // (two nodes exchange S/g once). NCCL's tuner rates two nodes so too (bwInter, not
    // bwInter / 2); on three the busiest node carries 1.5 S/g (treeNodeLoad()) where the tuner
    // counts 2: chosen at 2, run at 1.5. The tree's 0.92 is not charged: NCCL's tuner applies it
    // to the tree's own kernel (a GPU chain reducing inside each node, src/graph/tuning.cc, the
    // ALGO_TREE branch), never to the NVLS tree, whose reduction is the NVSwitch's; published
    // NVLS trees across nodes run past it (docs/collectives.md, "NVLS tree across nodes").
    // Only the heads' NICs carry it: one head a GPU with a NIC, at most NCCL_MAX_NVLS_ARITY
    // (32: of an NVL72 domain's 72 NICs, 32), each on one NIC however many its GPU has.
    const int nics = std::max(1, in.railsPerNode);
    const double heads = std::min({s.g, nics, nccl::maxNvlsArity});
    const double across = heads * s.net * g / nics; // the heads' NICs, one way
    const double net = s.nodes == 2 ? across : across / 2.0;
    const double capBus = heads * nccl::perChannelNvlsTree[s.gen][s.nodeIdx];
    const double cap = capBus > 0.0 ? capBus * n / (2.0 * (n - 1.0)) : unbounded;
    m.algbw = std::min({inside.algbw, net, cap});
    m.addersBind = inside.addersBind && inside.algbw <= std::min(net, cap);
    addTreeLevels(m.latency, s, softwarePart(nccl::netStepNvlsTreeUs), 2.0);
    const nccl::NvlsTreeTuning tuning = nvlsTreeTuningOf(in, s);
    m.channels = tuning.channels;
    m.pipelineUs = nvlsTreeFillUs(bytes, {inside.algbw, across, m.algbw}, heads, tuning, s);
    if (s.nodes == 3) {
        const double ran = std::min({inside.algbw, across / treeNodeLoad(s.nodes), cap});
        if (ran > m.algbw) {
            m.deliveredAlgbw = ran;
            m.deliveredPipelineUs =
                nvlsTreeFillUs(bytes, {inside.algbw, across, ran}, heads, tuning, s);
        }
    }
    return m;
}

Model inNetwork(CollectiveOp op, CollectiveProtocol p, const CollectiveInputs& in, const Shape& s)
{
    if (!reduces(op))
        return unavailable(CollectiveUnavailable::InNetworkNotForOp);
    if (s.nodes == 1) {
        // Inside one node the switch that reduces is the NVSwitch: NVLS.
        Model m = nvls(op, p, in, s);
        if (!m.available)
            m.viaNvls = true;
        return m;
    }
    if (!in.inNetworkReduction)
        return unavailable(CollectiveUnavailable::InNetworkNeedsSharp);
    if (p != CollectiveProtocol::Simple)
        return unavailable(CollectiveUnavailable::CollNetSimpleOnly);
    if (s.net <= 0.0 || (s.g > 1 && s.nvlink <= 0.0))
        return unavailable(CollectiveUnavailable::InNetworkNoLink);
    Model m;
    m.available = true;
    m.channels = std::max(1, in.railsPerNode);
    const double g = s.g;
    const bool ar = op == CollectiveOp::AllReduce;
    // Inside: NVLS where the NVSwitch reduces, else NVLink reduce-scatter and all-gather.
    double intra = unbounded;
    bool addersBind = false;
    if (s.g > 1)
        intra = in.nvls && nccl::nvlsEfficiency[s.gen] > 0.0
                    ? nvlsIntraBandwidth(op, s, &addersBind)
                    : s.nvlink * g / ((ar ? 2.0 : 1.0) * (g - 1.0));
    // Across: each rank's shard S/g goes up the aggregation tree once and comes back once.
    const double eff = s.gen >= 1 ? nccl::collNetHopperEfficiency : 1.0;
    m.addersBind = addersBind && intra <= g * s.net * eff;
    m.algbw = std::min(intra, g * s.net * eff);
    CollectiveLatency& l = m.latency;
    l.nvlinkUs = 2.0 * std::min(1.0, g - 1.0) * nccl::nvlinkStepCollNetUs * s.nvlinkScale;
    l.softwareUs = 2.0 * (g - 1.0) * nccl::collNetArityUs + softwarePart(nccl::netStepCollNetUs);
    addScaled(l, worstOf(s), 1.0);
    return m;
}

/** All-to-all and send/recv: NCCL's point-to-point sends, all peers at once. */
Model pointToPoint(CollectiveOp op, CollectiveProtocol p, const CollectiveInputs& in,
                   const Shape& s)
{
    Model m = ringChannelModel(in, s);
    if (!m.available)
        return m;
    const double n = s.n;
    const double g = s.g;
    const double nv = protocolBandwidth(s.nvlink, p, llCap(s), unbounded, s);
    const double net = protocolBandwidth(s.net, p, llCap(s), unbounded, s);
    CollectiveLatency& l = m.latency;
    l.launchUs = nccl::baseLatencyRingUs[index(p)];
    const double nvlinkStep = nccl::nvlinkStepRingUs[index(p)] * s.nvlinkScale;
    const double netSoftware = softwarePart(nccl::netStepRingUs[index(p)]);
    if (op == CollectiveOp::AllToAll) {
        // (g-1)/n of the buffer goes to node peers on NVLink, (n-g)/n to other nodes through
        // the rank's NICs; with rails on separate planes a peer on another rail is reached
        // through the node peer on that rail first (PXN), which loads NVLink too.
        double nvLoad = (g - 1.0) / n;
        if (in.pxn && s.nodes > 1)
            nvLoad += (n - g) / n * (g - 1.0) / g;
        const double netLoad = s.nodes > 1 ? (n - g) / n : 0.0;
        const double perByte =
            std::max(s.g > 1 ? nvLoad / nv : 0.0, s.nodes > 1 ? netLoad / net : 0.0);
        m.algbw = perByte > 0.0 ? 1.0 / perByte : unbounded;
        if (s.g > 1)
            l.nvlinkUs += nvlinkStep * (in.pxn && s.nodes > 1 ? 2.0 : 1.0);
        if (s.nodes > 1) {
            // Every network send is posted by the rank's proxy, one after the other.
            l.softwareUs += netSoftware + (n - g) * nccl::netPostOverheadUs;
            addScaled(l, worstOf(s), 1.0);
        }
    } else {
        // send_recv: rank i sends S to i+1; the pairs that cross nodes use one rank's NICs.
        m.algbw = s.nodes > 1 ? net : nv;
        if (s.nodes > 1) {
            l.softwareUs += netSoftware;
            addScaled(l, worstOf(s), 1.0);
        } else {
            l.nvlinkUs += nvlinkStep;
        }
    }
    return m;
}

Model modelOf(CollectiveOp op, CollectiveAlgorithm a, CollectiveProtocol p, double bytes,
              const CollectiveInputs& in, const Shape& s);

/** Returns algorithm \a a with protocol \a p, or why it does not apply. */
Model model(CollectiveOp op, CollectiveAlgorithm a, CollectiveProtocol p, double bytes,
            const CollectiveInputs& in, const Shape& s)
{
    if (s.n == 1) {
        // One rank: nothing moves.
        Model m;
        m.available = true;
        m.algbw = unbounded;
        return m;
    }
    const bool pointToPointOp = op == CollectiveOp::AllToAll || op == CollectiveOp::SendRecv;
    if (pointToPointOp && a != CollectiveAlgorithm::Ring)
        return unavailable(CollectiveUnavailable::PointToPointOnly);
    // NCCL's point to point picks LL (up to P2P_LL_THRESHOLD, 16 KiB a channel) or Simple,
    // never LL128 (src/enqueue.cc, the p2p plan's protocol; NCCL master 5067397).
    if (pointToPointOp && p == CollectiveProtocol::LL128)
        return unavailable(CollectiveUnavailable::PointToPointNoLl128);
    // LL and LL128 poll flags stored beside the data: between nodes NCCL runs them only over a
    // transport that lands each 8-byte (LL) or 128-byte (LL128) store whole and in order
    // (NVIDIA/nccl issue 786; aws-ofi-nccl issue 76: not EFA; the TCPXO plugin's profiles: not
    // LL). Rings, trees and hierarchical phases cross nodes with the protocol; NVLS, NVLS tree
    // and CollNet run Simple only and say so themselves.
    const bool crossesNodes = s.nodes > 1 && (a == CollectiveAlgorithm::Ring ||
                                              a == CollectiveAlgorithm::DoubleBinaryTree ||
                                              a == CollectiveAlgorithm::Hierarchical);
    if (crossesNodes && ((p == CollectiveProtocol::LL && !in.llAcrossNodes) ||
                         (p == CollectiveProtocol::LL128 && !in.ll128AcrossNodes)))
        return unavailable(CollectiveUnavailable::ProtocolOffTransport);
    return modelOf(op, a, p, bytes, in, s);
}

Model modelOf(CollectiveOp op, CollectiveAlgorithm a, CollectiveProtocol p, double bytes,
              const CollectiveInputs& in, const Shape& s)
{
    const bool pointToPointOp = op == CollectiveOp::AllToAll || op == CollectiveOp::SendRecv;
    switch (a) {
    case CollectiveAlgorithm::Ring:
        return pointToPointOp ? pointToPoint(op, p, in, s) : ring(op, p, bytes, in, s);
    case CollectiveAlgorithm::DoubleBinaryTree:
        return tree(op, p, bytes, in, s);
    case CollectiveAlgorithm::Hierarchical:
        return hierarchical(op, p, bytes, in, s);
    case CollectiveAlgorithm::InNetwork:
        return inNetwork(op, p, in, s);
    case CollectiveAlgorithm::Nvls:
        return nvls(op, p, in, s);
    case CollectiveAlgorithm::NvlsTree:
        return nvlsTree(op, p, bytes, in, s);
    }
    return unavailable(CollectiveUnavailable::NoAlgorithm);
}

CollectiveReason unavailableReason(CollectiveOp op, CollectiveAlgorithm a, const Model& m)
{
    CollectiveReason r;
    r.kind = CollectiveReason::Kind::Unavailable;
    r.unavailable = m.why;
    r.viaNvls = m.viaNvls;
    r.op = op;
    r.algorithm = a;
    return r;
}

/**
 * Returns \a l with the calibration's factors (docs/collectives.md, "Calibration"): the launch
 * by its factor, the network parts by the fabric's, and every part by protocol \a p's; the
 * NVLink steps were scaled through Shape::nvlinkScale. All 1 uncalibrated.
 */
CollectiveLatency calibrated(const CollectiveLatency& l, CollectiveProtocol p, const Shape& s)
{
    CollectiveLatency c = l;
    c.launchUs *= s.launchFactor;
    for (double* part : {&c.softwareUs, &c.pcieUs, &c.nicUs, &c.switchUs, &c.cableUs})
        *part *= s.fabricLatencyFactor;
    const double k = s.protocolLatencyFactor[index(p)];
    if (k != 1.0)
        for (double* part : {&c.launchUs, &c.softwareUs, &c.nvlinkUs, &c.pcieUs, &c.nicUs,
                             &c.switchUs, &c.cableUs})
            *part *= k;
    total(c);
    return c;
}

/** calibrated(l, p, s).totalUs: uncalibrated (every factor 1, exact) the parts' sum as total()
 *  adds them, without the scaled copy. */
double calibratedTotalUs(const CollectiveLatency& l, CollectiveProtocol p, const Shape& s)
{
    if (s.launchFactor == 1.0 && s.fabricLatencyFactor == 1.0 &&
        s.protocolLatencyFactor[index(p)] == 1.0)
        return l.launchUs + l.softwareUs + l.nvlinkUs + l.pcieUs + l.nicUs + l.switchUs + l.cableUs;
    return calibrated(l, p, s).totalUs;
}

/** Seconds of \a m by protocol \a p on \a bytes, as fillTiming() computes them. */
double secondsOf(const Model& m, CollectiveProtocol p, double bytes, const Shape& s)
{
    if (s.n == 1)
        return 0.0;
    return (calibratedTotalUs(m.latency, p, s) + m.pipelineUs + m.postUs) * 1e-6 +
           (m.algbw > 0.0 ? bytes / (m.algbw * gbyte) : 0.0);
}

/** Fills \a t, a fresh timing, with \a m as algorithm \a a and protocol \a p. */
void fillTiming(CollectiveTiming& t, CollectiveOp op, CollectiveAlgorithm a, CollectiveProtocol p,
                double bytes, const Shape& s, const Model& m)
{
    t.op = op;
    t.algorithm = a;
    t.protocol = p;
    t.bytes = bytes;
    t.available = m.available;
    if (!m.available) {
        t.reason = unavailableReason(op, a, m);
        return;
    }
    t.reason.oneNode = s.nodes == 1;
    // NCCL chose by its count (algbw); the call runs at what the hardware delivers.
    const bool delivered = m.deliveredAlgbw > 0.0;
    const double algbw = delivered ? m.deliveredAlgbw : m.algbw;
    const double pipelineUs = delivered ? m.deliveredPipelineUs : m.pipelineUs;
    t.channels = m.channels;
    t.bandwidthGbytePerS = std::isfinite(algbw) ? algbw : 0.0;
    t.reason.switchAddersBind = m.addersBind;
    if (s.n == 1)
        return; // nothing moves: no time, no latency
    t.latency = calibrated(m.latency, p, s);
    t.latency.softwareUs += pipelineUs + m.postUs;
    t.latency.totalUs += pipelineUs + m.postUs;
    t.seconds = t.latency.totalUs * 1e-6 + (algbw > 0.0 ? bytes / (algbw * gbyte) : 0.0);
    if (t.seconds > 0.0) {
        t.algbwGbytePerS = bytes / t.seconds / gbyte;
        t.busbwGbytePerS = t.algbwGbytePerS * (op == CollectiveOp::AllReduce  ? s.allReduceShare
                                               : op == CollectiveOp::SendRecv ? 1.0
                                                                              : s.share);
    }
}

const char* protocolWhy(CollectiveProtocol p)
{
    switch (p) {
    case CollectiveProtocol::LL:
        return "LL: latency-bound size, the shortest step (8-byte flagged lines)";
    case CollectiveProtocol::LL128:
        return "LL128: mid size, low latency at 120/128 of the bandwidth";
    case CollectiveProtocol::Simple:
        return "Simple: bandwidth-bound size, full link bandwidth";
    }
    return "";
}

const char* algorithmWhy(CollectiveAlgorithm a, CollectiveOp op, bool oneNode)
{
    if (op == CollectiveOp::AllToAll || op == CollectiveOp::SendRecv)
        return "point-to-point sends to every peer at once";
    switch (a) {
    case CollectiveAlgorithm::Ring:
        // Inside one node NCCL's channels are rings over NVLink; no NIC or rail takes part.
        return oneNode ? "rings over the node's NVLink, a ring a channel"
                       : "rings on every rail at once";
    case CollectiveAlgorithm::DoubleBinaryTree:
        // NCCL's tree inside one node is a chain through its GPUs (src/graph/trees.cc: the
        // intra-node part of each tree is a chain; the binary trees span nodes).
        return oneNode ? "a chain through the node's GPUs (NCCL's tree inside one node)"
                       : "log-depth trees across nodes";
    case CollectiveAlgorithm::Hierarchical:
        return "NVLink and fabric phases pipelined";
    case CollectiveAlgorithm::InNetwork:
        return "the switches reduce";
    case CollectiveAlgorithm::Nvls:
        return "the NVSwitch reduces (NVLink SHARP)";
    case CollectiveAlgorithm::NvlsTree:
        return "NVSwitch reduction inside, trees across nodes";
    }
    return "";
}

const char* unavailableWhy(CollectiveUnavailable why)
{
    switch (why) {
    case CollectiveUnavailable::None:
        return "";
    case CollectiveUnavailable::NoNvlink:
        return "no NVLink bandwidth inside the node";
    case CollectiveUnavailable::NoFabric:
        return "no fabric bandwidth between nodes";
    case CollectiveUnavailable::TreeAllReduceOnly:
        return "tree is all-reduce only";
    case CollectiveUnavailable::NoTreeLink:
        return "no link bandwidth for the tree";
    case CollectiveUnavailable::NoHierarchicalForm:
        return "all_to_all and send_recv have no hierarchical form";
    case CollectiveUnavailable::NvlsNotForOp:
        return "NVLS reduces and multicasts: not for all_to_all or send_recv";
    case CollectiveUnavailable::NvlsNeedsNvswitch:
        return "NVLS needs NVSwitches with NVLink SHARP (third generation, H100 on)";
    case CollectiveUnavailable::NvlsNeedsDomain:
        return "NVLS needs several GPUs on one NVSwitch domain";
    case CollectiveUnavailable::NvlsNeedsSharp:
        return "NVLS across nodes needs fabric switches that reduce (SHARP)";
    case CollectiveUnavailable::NvlsSimpleOnly:
        return "NVLS runs the Simple protocol only";
    case CollectiveUnavailable::NvlsTreeAllReduceOnly:
        return "nvls_tree is all-reduce only";
    case CollectiveUnavailable::NvlsTreeNeedsNodes:
        return "nvls_tree needs more than one node (NVLS alone on one node)";
    case CollectiveUnavailable::InNetworkNotForOp:
        return "in_network reduces in the switches: not for all_to_all or send_recv";
    case CollectiveUnavailable::InNetworkNeedsSharp:
        return "in_network needs fabric switches that reduce (SHARP)";
    case CollectiveUnavailable::CollNetSimpleOnly:
        return "CollNet runs the Simple protocol only";
    case CollectiveUnavailable::InNetworkNoLink:
        return "no link bandwidth for in-network reduction";
    case CollectiveUnavailable::PointToPointOnly:
        return "runs point to point";
    case CollectiveUnavailable::PointToPointNoLl128:
        return "point to point runs LL or Simple, not LL128";
    case CollectiveUnavailable::ProtocolOffTransport:
        return "the NICs' transport does not carry this protocol between nodes (NCCL runs it "
               "only where flagged stores land whole and in order)";
    case CollectiveUnavailable::NoAlgorithm:
        return "no algorithm applies to this fabric";
    }
    return "";
}

/**
 * Returns the most of Simple's bandwidth term protocol \a p can reach in algorithm \a a at
 * \a bytes, or 0 when no bound is known. Rings, hierarchical phases and point-to-point sends
 * scale every link they load by LL's 1/2 and LL128's 120/128 (NCCL's 0.92) at most (caps only
 * lower them); a tree by its LL or LL128 factor and the ratio of NCCL's size corrections.
 */
double protocolShareBound(CollectiveAlgorithm a, CollectiveProtocol p, double bytes, const Shape& s)
{
    // LL128's calibration against Simple scales its bound alike.
    const double ll128 = s.ll128BandwidthFactor;
    switch (a) {
    case CollectiveAlgorithm::Ring:
    case CollectiveAlgorithm::Hierarchical:
        return p == CollectiveProtocol::LL ? nccl::ringLlEfficiency
                                           : nccl::ringLl128Efficiency * ll128;
    case CollectiveAlgorithm::DoubleBinaryTree: {
        double k = p == CollectiveProtocol::LL ? nccl::treeLlFactor
                   : s.nodes == 1              ? nccl::treeLl128SingleNode * ll128
                                               : nccl::treeLl128MultiNode * ll128;
        if (bytes >= 64.0) {
            const int sizeIndex = std::ilogb(bytes / 64.0);
            if (sizeIndex < 23) {
                const auto at = static_cast<std::size_t>(sizeIndex);
                k *= nccl::treeCorrection[index(p)][at] /
                     nccl::treeCorrection[index(CollectiveProtocol::Simple)][at];
            }
        }
        return k;
    }
    case CollectiveAlgorithm::InNetwork:
    case CollectiveAlgorithm::Nvls:
    case CollectiveAlgorithm::NvlsTree:
        return 0.0; // Simple only: LL and LL128 are refused at once
    }
    return 0.0;
}

/** The fastest protocol of one algorithm at one size, before it becomes a timing. */
struct ProtocolChoice
{
    Model model; ///< Its model (unavailable when the algorithm does not apply).
    CollectiveProtocol protocol = CollectiveProtocol::Simple;
    double seconds = 0.0; ///< secondsOf(model): the seconds fillTiming() gives it.
};

/** Returns \a a with the fastest protocol it offers at \a bytes. */
ProtocolChoice fastestModel(CollectiveOp op, CollectiveAlgorithm a, double bytes,
                            const CollectiveInputs& in, const Shape& s)
{
    // Simple first: its time bounds what LL and LL128 could reach, and one whose bandwidth term
    // alone exceeds it (a margin for rounding) cannot win and is not timed. The winner is the
    // protocol of least time, ties to the earlier of LL, LL128, Simple, as when all are timed.
    ProtocolChoice out;
    out.model = model(op, a, CollectiveProtocol::Simple, bytes, in, s);
    const Model& simple = out.model;
    // Every reason an algorithm does not apply is checked before its protocol: when Simple does
    // not run, neither do LL and LL128, and the reason is Simple's. NVLS, NVLS tree and CollNet
    // run Simple only (across ranks; one rank moves nothing under any protocol).
    const bool simpleOnly =
        s.n > 1 && (a == CollectiveAlgorithm::InNetwork || a == CollectiveAlgorithm::Nvls ||
                    a == CollectiveAlgorithm::NvlsTree);
    if (!simple.available)
        return out;
    const double simpleSeconds = secondsOf(simple, CollectiveProtocol::Simple, bytes, s);
    out.seconds = simpleSeconds;
    if (simpleOnly)
        return out;
    // A pipelined tree's protocols differ in chunk pipeline, not only in bandwidth: no bound.
    const bool pipelinedTree = in.ncclMinor > 0 && a == CollectiveAlgorithm::DoubleBinaryTree;
    const bool canPrune =
        s.n > 1 && !pipelinedTree && simple.algbw > 0.0 && std::isfinite(simple.algbw);
    // LL and LL128 are built in their own slots; the winner is copied out once.
    Model timed[2];
    const Model* winner = nullptr;
    CollectiveProtocol winnerProtocol = CollectiveProtocol::Simple;
    double bestSeconds = 0.0;
    for (auto p : {CollectiveProtocol::LL, CollectiveProtocol::LL128}) {
        if (canPrune) {
            double k = protocolShareBound(a, p, bytes, s);
            // Channels tuned by size: p may run on more channels than Simple at this size.
            if (simple.allChannels > 0)
                k *= static_cast<double>(channelsAtSize(
                         simple.allChannels,
                         p == CollectiveProtocol::LL && a != CollectiveAlgorithm::DoubleBinaryTree,
                         p, bytes, s.n)) /
                     simple.channels;
            if (k > 0.0 && bytes / (k * simple.algbw * gbyte) > simpleSeconds * (1.0 + 1e-9))
                continue;
        }
        Model& m = timed[index(p)];
        m = model(op, a, p, bytes, in, s);
        if (!m.available)
            continue;
        const double seconds = secondsOf(m, p, bytes, s);
        if (!winner || seconds < bestSeconds) {
            bestSeconds = seconds;
            winner = &m;
            winnerProtocol = p;
        }
    }
    if (winner && !(simpleSeconds < bestSeconds)) {
        out.model = *winner;
        out.protocol = winnerProtocol;
        out.seconds = bestSeconds;
    }
    return out;
}

/** Fills \a t, a fresh timing, with \a c as algorithm \a a, chosen when it applies. */
void fillChosen(CollectiveTiming& t, CollectiveOp op, CollectiveAlgorithm a, double bytes,
                const Shape& s, const ProtocolChoice& c)
{
    fillTiming(t, op, a, c.protocol, bytes, s, c.model);
    if (c.model.available) {
        t.reason.kind = CollectiveReason::Kind::Chosen;
        t.reason.op = op;
        t.reason.algorithm = a;
        t.reason.protocol = c.protocol;
    }
}

/** Returns \a a with the fastest protocol it offers at \a bytes. */
CollectiveTiming fastestProtocol(CollectiveOp op, CollectiveAlgorithm a, double bytes,
                                 const CollectiveInputs& in, const Shape& s)
{
    CollectiveTiming t;
    fillChosen(t, op, a, bytes, s, fastestModel(op, a, bytes, in, s));
    return t;
}

} // namespace

namespace {

const char* const addersWhy = "; the NVSwitch's adders, not its links, set the rate";

} // namespace

std::string CollectiveReason::text() const
{
    switch (kind) {
    case Kind::None:
        return {};
    case Kind::Pinned:
        return std::string(algorithmWhy(algorithm, op, oneNode)) + "; " +
               collectiveProtocolName(protocol) + " (pinned)" + (switchAddersBind ? addersWhy : "");
    case Kind::Chosen: {
        std::string s =
            std::string(algorithmWhy(algorithm, op, oneNode)) + "; " + protocolWhy(protocol);
        if (switchAddersBind)
            s += addersWhy;
        if (ncclReleaseMinor > 0)
            s += "; as NCCL 2." + std::to_string(ncclReleaseMinor) + "'s own tuner picks";
        if (hasRunnerUp)
            // As every face prints a number (6,320 us, not 6.32e+03).
            s += std::string("; next best ") + collectiveAlgorithmName(runnerUpAlgorithm) + "/" +
                 collectiveProtocolName(runnerUpProtocol) + " takes " +
                 formatNumber(runnerUpSeconds * 1e6) + " us";
        return s;
    }
    case Kind::Unavailable:
        if (unavailable == CollectiveUnavailable::PointToPointOnly)
            return std::string(collectiveOpName(op)) +
                   " runs point to point (algorithm ring), not " +
                   collectiveAlgorithmName(algorithm);
        return std::string(viaNvls ? "on one node in_network is NVLS: " : "") +
               unavailableWhy(unavailable);
    }
    return {};
}

CollectiveEngine::CollectiveEngine(const CollectiveInputs& inputs)
    : m_inputs(inputs), m_shape(shapeOf(inputs))
{}

bool CollectiveEngine::reset(const CollectiveInputs& inputs)
{
    if (inputs == m_inputs)
        return false;
    // Equal but for the bandwidths: compared with the new bandwidths put in the engine's inputs
    // (which become the new inputs either way).
    m_inputs.scaleUpGbytePerS = inputs.scaleUpGbytePerS;
    m_inputs.fabricGbytePerS = inputs.fabricGbytePerS;
    if (inputs == m_inputs) {
        setBandwidths(m_shape, m_inputs);
        return true;
    }
    m_inputs = inputs;
    m_shape = shapeOf(inputs);
    return true;
}

CollectiveTiming CollectiveEngine::time(CollectiveOp op, CollectiveAlgorithm algorithm,
                                        CollectiveProtocol protocol, double bytes) const
{
    CollectiveTiming t;
    fillTiming(t, op, algorithm, protocol, bytes, m_shape,
               model(op, algorithm, protocol, bytes, m_inputs, m_shape));
    if (t.available) {
        t.reason.kind = CollectiveReason::Kind::Pinned;
        t.reason.op = op;
        t.reason.algorithm = algorithm;
        t.reason.protocol = protocol;
    }
    return t;
}

CollectiveTiming CollectiveEngine::time(CollectiveOp op, CollectiveAlgorithm algorithm,
                                        double bytes) const
{
    return fastestProtocol(op, algorithm, bytes, m_inputs, m_shape);
}

CollectiveTiming CollectiveEngine::best(CollectiveOp op, double bytes) const
{
    if (m_inputs.ncclReleaseChoice && m_inputs.ncclMinor > 0) {
        // As the named release ran: its own tuner's pick (its tables, not the engine's times),
        // timed by the engine's mechanisms. A protocol the release ran between nodes is timed
        // even where the NIC catalog says today's NCCL keeps it off the transport.
        const model::NcclVersion release{2, m_inputs.ncclMinor, 0, 0};
        if (const auto pick = ncclTunerChoice(release, op, bytes, m_inputs)) {
            CollectiveInputs ran = m_inputs;
            ran.llAcrossNodes = ran.llAcrossNodes || pick->protocol == CollectiveProtocol::LL;
            ran.ll128AcrossNodes =
                ran.ll128AcrossNodes || pick->protocol == CollectiveProtocol::LL128;
            CollectiveTiming t;
            fillTiming(t, op, pick->algorithm, pick->protocol, bytes, m_shape,
                       model(op, pick->algorithm, pick->protocol, bytes, ran, m_shape));
            if (t.available) {
                t.reason.kind = CollectiveReason::Kind::Chosen;
                t.reason.op = op;
                t.reason.algorithm = pick->algorithm;
                t.reason.protocol = pick->protocol;
                t.reason.ncclReleaseMinor = m_inputs.ncclMinor;
                return t;
            }
        }
    }
    // Each algorithm's fastest protocol is compared by its seconds; only the one chosen becomes
    // a timing. The runner-up is kept as the three figures the reason needs.
    bool have = false;
    CollectiveAlgorithm chosenAlgorithm = CollectiveAlgorithm::Ring;
    ProtocolChoice chosen;
    bool haveSecond = false;
    CollectiveAlgorithm secondAlgorithm = CollectiveAlgorithm::Ring;
    CollectiveProtocol secondProtocol = CollectiveProtocol::Simple;
    double secondSeconds = 0.0;
    for (auto a : kAlgorithms) {
        // NCCL's tuner chooses among ring, tree, CollNet, NVLS and NVLS tree; the hierarchical
        // ring-of-rings is no NCCL algorithm and is timed only when pinned. On one node
        // in_network is NVLS under another name.
        if (a == CollectiveAlgorithm::Hierarchical ||
            (a == CollectiveAlgorithm::InNetwork && m_shape.nodes == 1))
            continue;
        ProtocolChoice c = fastestModel(op, a, bytes, m_inputs, m_shape);
        if (!c.model.available)
            continue;
        if (!have || c.seconds < chosen.seconds) {
            if (have) {
                secondAlgorithm = chosenAlgorithm;
                secondProtocol = chosen.protocol;
                secondSeconds = chosen.seconds;
                haveSecond = true;
            }
            chosen = std::move(c);
            chosenAlgorithm = a;
            have = true;
        } else if (!haveSecond || c.seconds < secondSeconds) {
            secondAlgorithm = a;
            secondProtocol = c.protocol;
            secondSeconds = c.seconds;
            haveSecond = true;
        }
    }
    CollectiveTiming t;
    if (!have) {
        t.op = op;
        t.bytes = bytes;
        t.available = false;
        t.reason.kind = CollectiveReason::Kind::Unavailable;
        t.reason.unavailable = CollectiveUnavailable::NoAlgorithm;
        t.reason.op = op;
        return t;
    }
    fillChosen(t, op, chosenAlgorithm, bytes, m_shape, chosen);
    if (haveSecond) {
        t.reason.hasRunnerUp = true;
        t.reason.runnerUpAlgorithm = secondAlgorithm;
        t.reason.runnerUpProtocol = secondProtocol;
        t.reason.runnerUpSeconds = secondSeconds;
    }
    return t;
}

std::vector<CollectiveTiming> CollectiveEngine::curve(CollectiveOp op,
                                                      CollectiveAlgorithm algorithm,
                                                      double minBytes, double maxBytes) const
{
    std::vector<CollectiveTiming> points;
    const double first = std::max(1.0, minBytes);
    if (std::isfinite(maxBytes) && first <= maxBytes * (1.0 + 1e-12))
        points.reserve(static_cast<std::size_t>(std::ilogb(maxBytes / first)) + 2);
    for (double b = first; b <= maxBytes * (1.0 + 1e-12); b *= 2.0)
        points.push_back(fastestProtocol(op, algorithm, b, m_inputs, m_shape));
    return points;
}

std::vector<CollectiveTiming> CollectiveEngine::bestCurve(CollectiveOp op, double minBytes,
                                                          double maxBytes) const
{
    std::vector<CollectiveTiming> points;
    const double first = std::max(1.0, minBytes);
    if (std::isfinite(maxBytes) && first <= maxBytes * (1.0 + 1e-12))
        points.reserve(static_cast<std::size_t>(std::ilogb(maxBytes / first)) + 2);
    for (double b = first; b <= maxBytes * (1.0 + 1e-12); b *= 2.0)
        points.push_back(best(op, b));
    return points;
}

CollectiveTiming collectiveTime(CollectiveOp op, CollectiveAlgorithm algorithm,
                                CollectiveProtocol protocol, double bytes,
                                const CollectiveInputs& inputs)
{
    return CollectiveEngine(inputs).time(op, algorithm, protocol, bytes);
}

CollectiveTiming collectiveTime(CollectiveOp op, CollectiveAlgorithm algorithm, double bytes,
                                const CollectiveInputs& inputs)
{
    return CollectiveEngine(inputs).time(op, algorithm, bytes);
}

CollectiveTiming bestCollective(CollectiveOp op, double bytes, const CollectiveInputs& inputs)
{
    return CollectiveEngine(inputs).best(op, bytes);
}

std::vector<CollectiveTiming> collectiveCurve(CollectiveOp op, CollectiveAlgorithm algorithm,
                                              const CollectiveInputs& inputs, double minBytes,
                                              double maxBytes)
{
    return CollectiveEngine(inputs).curve(op, algorithm, minBytes, maxBytes);
}

} // namespace dct::solvers
