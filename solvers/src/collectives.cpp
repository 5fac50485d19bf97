#include "dct/solvers/collectives.h"

#include "nccltuning.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

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

std::size_t index(CollectiveProtocol p)
{
    return static_cast<std::size_t>(p);
}

/** The shape of a collective: ranks, ranks per node, nodes and the two link bandwidths. */
struct Shape
{
    int n = 1;
    int g = 1;
    int nodes = 1;
    double nvlink = 0.0; ///< B_nv, GB/s per rank per direction.
    double net = 0.0;    ///< B_r, the rank's share of its node's NICs after NCCL's transport.
    std::size_t gen = 1;
    std::size_t nodeIdx = 0;
    double nvlinkScale = 1.0;         ///< Scale-up alpha over NCCL's reference step.
    double launchFactor = 1.0;        ///< Calibration of the base latency.
    double fabricLatencyFactor = 1.0; ///< Calibration of the network steps.
};

Shape shapeOf(const CollectiveInputs& in)
{
    Shape s;
    s.n = std::max(1, in.ranks);
    s.g = std::clamp(in.ranksPerNode, 1, s.n);
    s.nodes = (s.n + s.g - 1) / s.g;
    // The calibration's factors (docs/collectives.md, "Calibration") scale the engine's free
    // parameters here and in timingOf(); all 1 uncalibrated.
    const model::CollectiveCalibration& k = in.calibration;
    s.nvlink = std::max(0.0, in.scaleUpGbytePerS) * k.scaleUpBandwidthFactor;
    s.net =
        std::max(0.0, in.fabricGbytePerS) * nccl::netTransportEfficiency * k.fabricBandwidthFactor;
    s.gen = static_cast<std::size_t>(nccl::generationIndex(in.generation));
    s.nodeIdx = static_cast<std::size_t>(nccl::nodeIndex(s.nodes));
    s.nvlinkScale =
        (in.scaleUpAlphaUs > 0.0 ? in.scaleUpAlphaUs / nccl::nvlinkReferenceStepUs : 1.0) *
        k.scaleUpLatencyFactor;
    s.launchFactor = k.launchLatencyFactor;
    s.fabricLatencyFactor = k.fabricLatencyFactor;
    return s;
}

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

/**
 * Adds \a steps network steps of a ring over \a nodes: the ring visits nodes in order, so of its
 * \a nodes edges one per leaf crosses to the next leaf and one per pod to the next pod.
 */
void addRingSteps(CollectiveLatency& l, const CollectiveInputs& in, int nodes, double steps,
                  double softwareUs)
{
    const Span s = spanOf(in, nodes);
    const double edges = nodes;
    const double spine = s.pods > 1 ? s.pods : 0.0;
    const double leaf = (s.leaves > 1 ? s.leaves : 0.0) - spine;
    const double same = edges - leaf - spine;
    l.softwareUs += steps * softwareUs;
    addScaled(l, fabricPathLatency(in, FabricPath::SameLeaf), steps * same / edges);
    addScaled(l, fabricPathLatency(in, FabricPath::CrossLeaf), steps * leaf / edges);
    addScaled(l, fabricPathLatency(in, FabricPath::CrossSpine), steps * spine / edges);
}

/** Adds one pass down the levels of a binary tree over \a nodes (level k spans 2^k nodes). */
void addTreeLevels(CollectiveLatency& l, const CollectiveInputs& in, int nodes, double softwareUs)
{
    const int levels = nodes > 1 ? static_cast<int>(std::floor(std::log2(nodes))) : 0;
    for (int k = 1; k <= levels; ++k) {
        const int span = 1 << std::min(k, 30);
        l.softwareUs += softwareUs;
        addScaled(l, fabricPathLatency(in, worstPath(in, span)), 1.0);
    }
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
    std::string why;
    double algbw = 0.0; ///< GB/s of the bandwidth term.
    CollectiveLatency latency;
    int channels = 0;
};

Model unavailable(std::string why)
{
    Model m;
    m.why = std::move(why);
    return m;
}

bool reduces(CollectiveOp op)
{
    return op == CollectiveOp::AllReduce || op == CollectiveOp::ReduceScatter ||
           op == CollectiveOp::AllGather;
}

/** Link bandwidth after protocol \a p: LL halves it (capped), LL128 keeps 120 of 128 bytes. */
double protocolBandwidth(double bw, CollectiveProtocol p, double llCap, double ll128Cap)
{
    if (p == CollectiveProtocol::LL)
        return std::min(bw * nccl::ringLlEfficiency, llCap);
    if (p == CollectiveProtocol::LL128)
        return std::min(bw * nccl::ringLl128Efficiency, ll128Cap);
    return bw;
}

double llCap(const Shape& s)
{
    return s.nodes == 1 ? nccl::llMaxSingleNode[s.gen] : nccl::llMaxMultiNodeIntel[s.nodeIdx];
}

int ringChannels(const CollectiveInputs& in, const Shape& s)
{
    // Two channels per NIC across nodes (NCCL duplicates rings when bandwidth allows); 16 on an
    // NVSwitch node (assumption: the ring count NCCL reports on DGX H100).
    return s.nodes == 1 ? 16 : std::clamp(2 * std::max(1, in.railsPerNode), 2, 32);
}

/**
 * The start of a model that runs over ring channels (rings, hierarchical phases, point to
 * point): unavailable without NVLink bandwidth inside a node of several GPUs or without fabric
 * bandwidth between nodes, else available on ringChannels() channels.
 */
Model ringChannelModel(const CollectiveInputs& in, const Shape& s)
{
    if (s.g > 1 && s.nvlink <= 0.0)
        return unavailable("no NVLink bandwidth inside the node");
    if (s.nodes > 1 && s.net <= 0.0)
        return unavailable("no fabric bandwidth between nodes");
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
                            m.channels * nccl::perChannelRingLl128[s.gen][s.nodeIdx]);
    const bool ar = op == CollectiveOp::AllReduce;
    const double share = ar ? 2.0 * (n - 1.0) / n : (n - 1.0) / n;
    m.algbw = bus / share;

    const double steps = ar ? 2.0 * (n - 1.0) : n - 1.0;
    const double interSteps = s.nodes == 1 ? 0.0 : (ar ? 2.0 * (s.nodes - 1.0) : s.nodes - 1.0);
    CollectiveLatency& l = m.latency;
    l.launchUs = nccl::baseLatencyRingUs[index(p)];
    // Steps inside a node: NVLink; across nodes each still waits for the network post overhead.
    const double nvlinkStep = nccl::nvlinkStepRingUs[index(p)] * s.nvlinkScale;
    const double post =
        s.nodes > 1 ? nccl::netPostOverheadUs * (p == CollectiveProtocol::Simple ? 3.0 : 1.0) : 0.0;
    l.nvlinkUs += (steps - interSteps) * nvlinkStep;
    l.softwareUs += (steps - interSteps) * std::max(0.0, post - nvlinkStep);
    if (interSteps > 0.0) {
        // With one rank per node every latency is exposed: NCCL charges the tree's step.
        const double ncclStep =
            s.g == 1 ? nccl::netStepTreeUs[index(p)] : nccl::netStepRingUs[index(p)];
        addRingSteps(l, in, s.nodes, interSteps, softwarePart(ncclStep));
    }
    if (ar && p == CollectiveProtocol::Simple && s.nodes > 1 && bytes / (m.channels * n) >= 64.0) {
        // NCCL's ring plateau: pipelined chunks expose more latency once they fill.
        CollectiveLatency scaled;
        addScaled(scaled, l, nccl::ringPlateauLatencyFactor);
        l = scaled;
    }
    return m;
}

Model tree(CollectiveOp op, CollectiveProtocol p, double bytes, const CollectiveInputs& in,
           const Shape& s)
{
    if (op != CollectiveOp::AllReduce)
        return unavailable("tree is all-reduce only");
    const double link =
        s.nodes == 1 ? s.nvlink : std::min(s.g > 1 ? s.nvlink : unbounded, s.g * s.net);
    if (link <= 0.0)
        return unavailable("no link bandwidth for the tree");
    Model m;
    m.available = true;
    m.channels = ringChannels(in, s);
    const double ch = m.channels;
    double bus = std::min(link * nccl::treeEfficiency, ch * nccl::perChannelTree[s.gen][s.nodeIdx]);
    if (p == CollectiveProtocol::LL)
        bus = std::min(bus * nccl::treeLlFactor, llCap(s));
    if (p == CollectiveProtocol::LL128)
        bus = std::min(bus * (s.nodes == 1 ? nccl::treeLl128SingleNode : nccl::treeLl128MultiNode),
                       ch * nccl::perChannelTreeLl128[s.gen][s.nodeIdx]);
    // Each rank moves the buffer up and down the trees: algbw is half the link's.
    m.algbw = 0.5 * bus;
    const double sizeIndex = bytes >= 64.0 ? std::floor(std::log2(bytes / 64.0)) : -1.0;
    if (sizeIndex >= 0.0 && sizeIndex < 23.0)
        m.algbw *= nccl::treeCorrection[index(p)][static_cast<std::size_t>(sizeIndex)];

    CollectiveLatency& l = m.latency;
    l.launchUs = nccl::baseLatencyTreeUs[index(p)];
    // Up and down: the chain of g-1 NVLink hops and log2(nodes) network levels, each twice.
    l.nvlinkUs = 2.0 * (s.g - 1.0) * nccl::nvlinkStepTreeUs[index(p)] * s.nvlinkScale;
    CollectiveLatency levels;
    addTreeLevels(levels, in, s.nodes, softwarePart(nccl::netStepTreeUs[index(p)]));
    addScaled(l, levels, 2.0);
    return m;
}

Model hierarchical(CollectiveOp op, CollectiveProtocol p, const CollectiveInputs& in,
                   const Shape& s)
{
    if (!reduces(op))
        return unavailable("all_to_all and send_recv have no hierarchical form");
    Model m = ringChannelModel(in, s);
    if (!m.available)
        return m;
    const bool ar = op == CollectiveOp::AllReduce;
    const double phases = ar ? 2.0 : 1.0;
    const double g = s.g;
    const double nodes = s.nodes;
    const double nv = protocolBandwidth(s.nvlink, p, llCap(s), unbounded);
    const double net = protocolBandwidth(s.g * s.net, p, llCap(s), unbounded) / g;
    // Reduce-scatter on NVLink, the shard of S/g across nodes, all-gather on NVLink. The phases
    // are pipelined chunk by chunk, so the slower resource sets the pace, not their sum.
    const double nvPerByte = s.g > 1 ? phases * (g - 1.0) / g / nv : 0.0;
    const double netPerByte =
        s.nodes > 1 ? (ar ? 2.0 : 1.0) * (nodes - 1.0) / nodes / g / net : 0.0;
    m.algbw = 1.0 / std::max(nvPerByte, netPerByte);

    CollectiveLatency& l = m.latency;
    l.launchUs = nccl::baseLatencyRingUs[index(p)];
    l.nvlinkUs = phases * (g - 1.0) * nccl::nvlinkStepRingUs[index(p)] * s.nvlinkScale;
    if (s.nodes > 1)
        addRingSteps(l, in, s.nodes, (ar ? 2.0 : 1.0) * (nodes - 1.0),
                     softwarePart(nccl::netStepRingUs[index(p)]));
    return m;
}

/** NVLS inside the node: algbw of the NVSwitch reduction (all-reduce) or multicast. */
double nvlsIntraBandwidth(CollectiveOp op, const Shape& s)
{
    const double g = s.g;
    const double eff = nccl::nvlsEfficiency[s.gen];
    // All-reduce: each GPU's buffer is read by the switch's reductions and the reduced shards
    // come back; NCCL's tuner takes the NVLS efficiency and (channels-1)/channels of a graph
    // whose channels are the g GPUs. Reduce-scatter and all-gather move (g-1)/g S per GPU.
    return op == CollectiveOp::AllReduce ? s.nvlink * eff * (g - 1.0) / g
                                         : s.nvlink * eff * g / (g - 1.0);
}

Model nvls(CollectiveOp op, CollectiveProtocol p, const CollectiveInputs& in, const Shape& s)
{
    if (!reduces(op))
        return unavailable("NVLS reduces and multicasts: not for all_to_all or send_recv");
    if (!in.nvls || nccl::nvlsEfficiency[s.gen] <= 0.0)
        return unavailable("NVLS needs NVSwitches with NVLink SHARP (third generation, H100 on)");
    if (s.g < 2 || s.nvlink <= 0.0)
        return unavailable("NVLS needs several GPUs on one NVSwitch domain");
    if (s.nodes > 1 && (!in.inNetworkReduction || s.net <= 0.0))
        return unavailable("NVLS across nodes needs fabric switches that reduce (SHARP)");
    if (p != CollectiveProtocol::Simple)
        return unavailable("NVLS runs the Simple protocol only");
    Model m;
    m.available = true;
    m.channels = s.gen == 2 ? nccl::nvlsChannelsBlackwell : nccl::nvlsChannelsHopper;
    m.algbw = nvlsIntraBandwidth(op, s);
    CollectiveLatency& l = m.latency;
    l.nvlinkUs = nccl::nvlinkStepNvlsUs * s.nvlinkScale;
    if (s.nodes > 1) {
        // The fabric switches add up each GPU's shard of S/g: it goes up once and back once.
        m.algbw = std::min(m.algbw, s.g * s.net * nccl::collNetHopperEfficiency);
        l.softwareUs += softwarePart(nccl::netStepNvlsUs);
        addScaled(l, fabricPathLatency(in, worstPath(in, s.nodes)), 1.0);
    }
    return m;
}

Model nvlsTree(CollectiveOp op, CollectiveProtocol p, const CollectiveInputs& in, const Shape& s)
{
    if (op != CollectiveOp::AllReduce)
        return unavailable("nvls_tree is all-reduce only");
    if (s.nodes < 2)
        return unavailable("nvls_tree needs more than one node (NVLS alone on one node)");
    Shape node = s;
    node.nodes = 1;
    node.nodeIdx = 0;
    Model inside = nvls(op, p, in, node);
    if (!inside.available)
        return inside;
    if (s.net <= 0.0)
        return unavailable("no fabric bandwidth between nodes");
    Model m = inside;
    const double n = s.n;
    const double g = s.g;
    // Across nodes each head runs the double binary tree on its shard S/g: 2 S/g each way
    // (two nodes exchange S/g once), at the tree's efficiency.
    const double net = s.nodes == 2 ? g * s.net : g * s.net / 2.0 * nccl::treeEfficiency;
    const double heads = std::min(s.g, std::max(1, in.railsPerNode));
    const double capBus = heads * nccl::perChannelNvlsTree[s.gen][s.nodeIdx];
    const double cap = capBus > 0.0 ? capBus * n / (2.0 * (n - 1.0)) : unbounded;
    m.algbw = std::min({inside.algbw, net, cap});
    CollectiveLatency levels;
    addTreeLevels(levels, in, s.nodes, softwarePart(nccl::netStepNvlsTreeUs));
    addScaled(m.latency, levels, 2.0);
    return m;
}

Model inNetwork(CollectiveOp op, CollectiveProtocol p, const CollectiveInputs& in, const Shape& s)
{
    if (!reduces(op))
        return unavailable("in_network reduces in the switches: not for all_to_all or send_recv");
    if (s.nodes == 1) {
        // Inside one node the switch that reduces is the NVSwitch: NVLS.
        Model m = nvls(op, p, in, s);
        if (!m.available)
            m.why = "on one node in_network is NVLS: " + m.why;
        return m;
    }
    if (!in.inNetworkReduction)
        return unavailable("in_network needs fabric switches that reduce (SHARP)");
    if (p != CollectiveProtocol::Simple)
        return unavailable("CollNet runs the Simple protocol only");
    if (s.net <= 0.0 || (s.g > 1 && s.nvlink <= 0.0))
        return unavailable("no link bandwidth for in-network reduction");
    Model m;
    m.available = true;
    m.channels = std::max(1, in.railsPerNode);
    const double g = s.g;
    const bool ar = op == CollectiveOp::AllReduce;
    // Inside: NVLS where the NVSwitch reduces, else NVLink reduce-scatter and all-gather.
    double intra = unbounded;
    if (s.g > 1)
        intra = in.nvls && nccl::nvlsEfficiency[s.gen] > 0.0
                    ? nvlsIntraBandwidth(op, s)
                    : s.nvlink * g / ((ar ? 2.0 : 1.0) * (g - 1.0));
    // Across: each rank's shard S/g goes up the aggregation tree once and comes back once.
    const double eff = s.gen >= 1 ? nccl::collNetHopperEfficiency : 1.0;
    m.algbw = std::min(intra, g * s.net * eff);
    CollectiveLatency& l = m.latency;
    l.nvlinkUs = 2.0 * std::min(1.0, g - 1.0) * nccl::nvlinkStepCollNetUs * s.nvlinkScale;
    l.softwareUs = 2.0 * (g - 1.0) * nccl::collNetArityUs + softwarePart(nccl::netStepCollNetUs);
    addScaled(l, fabricPathLatency(in, worstPath(in, s.nodes)), 1.0);
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
    const double nv = protocolBandwidth(s.nvlink, p, llCap(s), unbounded);
    const double net = protocolBandwidth(s.net, p, llCap(s), unbounded);
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
            addScaled(l, fabricPathLatency(in, worstPath(in, s.nodes)), 1.0);
        }
    } else {
        // send_recv: rank i sends S to i+1; the pairs that cross nodes use one rank's NICs.
        m.algbw = s.nodes > 1 ? net : nv;
        if (s.nodes > 1) {
            l.softwareUs += netSoftware;
            addScaled(l, fabricPathLatency(in, worstPath(in, s.nodes)), 1.0);
        } else {
            l.nvlinkUs += nvlinkStep;
        }
    }
    return m;
}

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
        return unavailable(std::string(collectiveOpName(op)) +
                           " runs point to point (algorithm ring), not " +
                           collectiveAlgorithmName(a));
    switch (a) {
    case CollectiveAlgorithm::Ring:
        return pointToPointOp ? pointToPoint(op, p, in, s) : ring(op, p, bytes, in, s);
    case CollectiveAlgorithm::DoubleBinaryTree:
        return tree(op, p, bytes, in, s);
    case CollectiveAlgorithm::Hierarchical:
        return hierarchical(op, p, in, s);
    case CollectiveAlgorithm::InNetwork:
        return inNetwork(op, p, in, s);
    case CollectiveAlgorithm::Nvls:
        return nvls(op, p, in, s);
    case CollectiveAlgorithm::NvlsTree:
        return nvlsTree(op, p, in, s);
    }
    return unavailable("unknown algorithm");
}

CollectiveTiming timingOf(CollectiveOp op, CollectiveAlgorithm a, CollectiveProtocol p,
                          double bytes, const Shape& s, Model m)
{
    CollectiveTiming t;
    t.op = op;
    t.algorithm = a;
    t.protocol = p;
    t.bytes = bytes;
    t.available = m.available;
    t.reason = std::move(m.why);
    if (!m.available)
        return t;
    t.channels = m.channels;
    t.bandwidthGbytePerS = std::isfinite(m.algbw) ? m.algbw : 0.0;
    // Calibrated latency parts; the NVLink steps were scaled through Shape::nvlinkScale.
    m.latency.launchUs *= s.launchFactor;
    for (double* part : {&m.latency.softwareUs, &m.latency.pcieUs, &m.latency.nicUs,
                         &m.latency.switchUs, &m.latency.cableUs})
        *part *= s.fabricLatencyFactor;
    total(m.latency);
    t.latency = m.latency;
    if (s.n == 1) {
        t.seconds = 0.0;
        t.latency = CollectiveLatency{};
        return t;
    }
    t.seconds = m.latency.totalUs * 1e-6 + (m.algbw > 0.0 ? bytes / (m.algbw * gbyte) : 0.0);
    if (t.seconds > 0.0) {
        t.algbwGbytePerS = bytes / t.seconds / gbyte;
        t.busbwGbytePerS = t.algbwGbytePerS * busBandwidthFactor(op, s.n);
    }
    return t;
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

const char* algorithmWhy(CollectiveAlgorithm a, CollectiveOp op)
{
    if (op == CollectiveOp::AllToAll || op == CollectiveOp::SendRecv)
        return "point-to-point sends to every peer at once";
    switch (a) {
    case CollectiveAlgorithm::Ring:
        return "rings on every rail at once";
    case CollectiveAlgorithm::DoubleBinaryTree:
        return "log-depth trees across nodes";
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

/** Returns \a a with the fastest protocol it offers at \a bytes. */
CollectiveTiming fastestProtocol(CollectiveOp op, CollectiveAlgorithm a, double bytes,
                                 const CollectiveInputs& in, const Shape& s)
{
    CollectiveTiming best;
    bool found = false;
    std::string firstWhy;
    for (auto p : {CollectiveProtocol::LL, CollectiveProtocol::LL128, CollectiveProtocol::Simple}) {
        CollectiveTiming t = timingOf(op, a, p, bytes, s, model(op, a, p, bytes, in, s));
        if (!t.available) {
            if (firstWhy.empty() || p == CollectiveProtocol::Simple)
                firstWhy = t.reason;
            continue;
        }
        if (!found || t.seconds < best.seconds) {
            best = std::move(t);
            found = true;
        }
    }
    if (!found) {
        best.op = op;
        best.algorithm = a;
        best.bytes = bytes;
        best.available = false;
        best.reason = firstWhy;
        return best;
    }
    best.reason = std::string(algorithmWhy(a, op)) + "; " + protocolWhy(best.protocol);
    return best;
}

} // namespace

CollectiveTiming collectiveTime(CollectiveOp op, CollectiveAlgorithm algorithm,
                                CollectiveProtocol protocol, double bytes,
                                const CollectiveInputs& inputs)
{
    const Shape s = shapeOf(inputs);
    CollectiveTiming t = timingOf(op, algorithm, protocol, bytes, s,
                                  model(op, algorithm, protocol, bytes, inputs, s));
    if (t.available)
        t.reason = std::string(algorithmWhy(algorithm, op)) + "; " +
                   collectiveProtocolName(protocol) + " (pinned)";
    return t;
}

CollectiveTiming collectiveTime(CollectiveOp op, CollectiveAlgorithm algorithm, double bytes,
                                const CollectiveInputs& inputs)
{
    return fastestProtocol(op, algorithm, bytes, inputs, shapeOf(inputs));
}

CollectiveTiming bestCollective(CollectiveOp op, double bytes, const CollectiveInputs& inputs)
{
    const Shape s = shapeOf(inputs);
    CollectiveTiming best;
    best.op = op;
    best.bytes = bytes;
    best.available = false;
    const CollectiveTiming* runnerUp = nullptr;
    CollectiveTiming second;
    for (auto a : collectiveAlgorithms()) {
        // NCCL's tuner chooses among ring, tree, CollNet, NVLS and NVLS tree; the hierarchical
        // ring-of-rings is no NCCL algorithm and is timed only when pinned. On one node
        // in_network is NVLS under another name.
        if (a == CollectiveAlgorithm::Hierarchical ||
            (a == CollectiveAlgorithm::InNetwork && s.nodes == 1))
            continue;
        CollectiveTiming t = fastestProtocol(op, a, bytes, inputs, s);
        if (!t.available)
            continue;
        if (!best.available || t.seconds < best.seconds) {
            if (best.available) {
                second = std::move(best);
                runnerUp = &second;
            }
            best = std::move(t);
        } else if (!runnerUp || t.seconds < second.seconds) {
            second = std::move(t);
            runnerUp = &second;
        }
    }
    if (!best.available) {
        best.reason = "no algorithm applies to this fabric";
        return best;
    }
    if (runnerUp) {
        char micros[32];
        std::snprintf(micros, sizeof micros, "%.3g", second.seconds * 1e6);
        best.reason += std::string("; next best ") + collectiveAlgorithmName(second.algorithm) +
                       "/" + collectiveProtocolName(second.protocol) + " takes " + micros + " us";
    }
    return best;
}

std::vector<CollectiveTiming> collectiveCurve(CollectiveOp op, CollectiveAlgorithm algorithm,
                                              const CollectiveInputs& inputs, double minBytes,
                                              double maxBytes)
{
    std::vector<CollectiveTiming> curve;
    const Shape s = shapeOf(inputs);
    for (double b = std::max(1.0, minBytes); b <= maxBytes * (1.0 + 1e-12); b *= 2.0)
        curve.push_back(fastestProtocol(op, algorithm, b, inputs, s));
    return curve;
}

} // namespace dct::solvers
