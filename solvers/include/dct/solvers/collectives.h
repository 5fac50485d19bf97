#pragma once

#include "dct/model/calibrationprofile.h"
#include "dct/model/enums.h"

#include <cstddef>
#include <string>
#include <vector>

namespace dct::solvers {

/** A collective operation as nccl-tests names them. */
enum class CollectiveOp
{
    AllReduce,
    ReduceScatter,
    AllGather,
    AllToAll,
    SendRecv ///< Each rank sends to the next and receives from the previous (sendrecv_perf).
};

/** How a collective is carried out (NCCL's algorithms, docs/collectives.md). */
enum class CollectiveAlgorithm
{
    Ring,             ///< Rings over every rank, one or more channels per rail (NCCL ring).
    DoubleBinaryTree, ///< A chain inside each node, two complementary binary trees across nodes.
    Hierarchical, ///< Reduce-scatter on NVLink, the fabric between nodes, all-gather; pipelined.
    InNetwork,    ///< Switches reduce between nodes (SHARP, NCCL CollNet); NVLS or NVLink inside.
    Nvls,         ///< NVLink SHARP: the NVSwitch reduces inside a node (NCCL NVLS).
    NvlsTree      ///< NVLS inside each node, trees between nodes (NCCL NVLSTree).
};

/** NCCL's wire protocols (Hu et al., arXiv 2507.04786, section III). */
enum class CollectiveProtocol
{
    LL,     ///< 8-byte lines, 4 data + 4 flag: lowest latency, half the bandwidth.
    LL128,  ///< 128-byte lines, 120 data + 8 flag.
    Simple, ///< Large chunks behind memory fences: full bandwidth, highest latency.
};

/** Returns "all_reduce", "reduce_scatter", "all_gather", "all_to_all" or "send_recv". */
const char* collectiveOpName(CollectiveOp op);
/** Returns "ring", "tree", "hierarchical", "in_network", "nvls" or "nvls_tree". */
const char* collectiveAlgorithmName(CollectiveAlgorithm algorithm);
/** Returns "LL", "LL128" or "Simple", as NCCL_PROTO spells them. */
const char* collectiveProtocolName(CollectiveProtocol protocol);

/**
 * Returns the algorithm a scenario's `network.allreduce_algorithm` pins (NCCL_ALGO); Auto, which
 * pins none, returns Ring.
 */
CollectiveAlgorithm pinnedAlgorithm(model::CollectiveChoice choice);

/** Every algorithm, in enum order. */
std::vector<CollectiveAlgorithm> collectiveAlgorithms();

/** GPU generation, which selects NCCL's per-architecture tuning constants. */
enum class GpuGeneration
{
    Ampere,
    Hopper,
    Blackwell
};

/** The parameters of a collective over a cluster. */
struct CollectiveInputs
{
    int ranks = 8;                   ///< n: ranks taking part.
    int ranksPerNode = 8;            ///< g: ranks sharing a node (and its NVLink domain).
    double scaleUpGbytePerS = 0.0;   ///< Effective NVLink bandwidth per rank per direction.
    double scaleUpAlphaUs = 1.9;     ///< NVLink step with LL128; LL and Simple scale with it.
    double fabricGbytePerS = 0.0;    ///< Effective fabric bandwidth per rank per direction.
    double fabricAlphaUs = 5.0;      ///< Worst-case path latency, reported only (see the parts).
    int fabricSwitchHops = 3;        ///< Switches on the longest path.
    double switchLatencyUs = 0.13;   ///< Per switch traversed.
    bool inNetworkReduction = false; ///< Fabric switches can reduce (SHARP).

    // Latency parts of one step across the fabric (docs/collectives.md, "Latency").
    double nicLatencyUs = 0.5;      ///< One NIC (catalog), paid at each end.
    double pcieLatencyUs = 0.1;     ///< GPU to NIC through the PCIe switch (GPUDirect RDMA).
    double cableInRowM = 3.0;       ///< Node to leaf.
    double cableAcrossRowsM = 30.0; ///< Leaf to spine and spine to core.
    int railsPerNode = 8;           ///< NICs (rails) per node; channels spread over all.
    double nicGbytePerS = 0.0;      ///< One NIC's line rate (0: from the fabric's share).
    int fabricTiers = 2;            ///< Switch tiers of the fabric.
    int nodesPerLeaf = 0;           ///< Nodes under one leaf (0: every node).
    int nodesPerPod = 0;            ///< Nodes under one spine block (0: every node).
    bool nvls = false;              ///< NVSwitch with NVLink SHARP (third generation on).
    /**
     * What the NVSwitch chips of the domain add up per second, operand bytes (catalog
     * `nvls_reduce_gbyte_per_s`): an NVLS reduction over g ranks adds g - 1 operands into each
     * result element, so it runs at most this over (g - 1); 0: no limit but the links.
     */
    double nvlsReduceGbytePerS = 0.0;
    /** Groups of this shape reducing on the domain's NVSwitches at once (a domain's TP groups). */
    int nvlsGroups = 1;
    bool pxn = false; ///< Rails are separate planes: cross-rail goes PXN.
    /** The NICs' transport lets NCCL run LL between nodes (catalog `ll_across_nodes`). */
    bool llAcrossNodes = true;
    /** The NICs' transport lets NCCL run LL128 between nodes (catalog `ll128_across_nodes`). */
    bool ll128AcrossNodes = true;
    GpuGeneration generation = GpuGeneration::Hopper;
    /**
     * The NCCL 2.x release of a measured run (2.9.9: 9), from its log's banner; 0 when none is
     * named. When named, a tree across nodes with Simple or LL128 is timed as that release
     * pipelines it chunk by chunk (docs/collectives.md, "Chunk pipeline") instead of with the
     * tuner's size correction.
     */
    int ncclMinor = 0;
    /**
     * best() times the algorithm and protocol NCCL 2.ncclMinor's own tuner picks where that
     * tuner is restated (nccltuner.h), as a calibration profile fitted that way was timed;
     * false (or a release not restated): the engine's fastest.
     */
    bool ncclReleaseChoice = false;
    /** Fitted to measured runs (docs/collectives.md, "Calibration"); all 1 uncalibrated. */
    model::CollectiveCalibration calibration;

    bool operator==(const CollectiveInputs&) const = default;
};

/** The latency of one collective, by named part (microseconds). */
struct CollectiveLatency
{
    double launchUs = 0.0;   ///< Kernel launch and NCCL's per-call software (base latency).
    double softwareUs = 0.0; ///< Per-step protocol and proxy work beyond the hardware path.
    double nvlinkUs = 0.0;   ///< NVLink steps inside nodes.
    double pcieUs = 0.0;     ///< GPU to NIC crossings (GPUDirect RDMA).
    double nicUs = 0.0;      ///< NIC processing at both ends.
    double switchUs = 0.0;   ///< Every fabric switch traversed.
    double cableUs = 0.0;    ///< Propagation in the cables, by length.
    double totalUs = 0.0;    ///< Sum of the parts.
};

/** Why an algorithm does not apply (CollectiveReason::unavailable). */
enum class CollectiveUnavailable
{
    None,
    NoNvlink,              ///< No NVLink bandwidth inside a node of several GPUs.
    NoFabric,              ///< No fabric bandwidth between nodes.
    TreeAllReduceOnly,     ///< Tree is all-reduce only.
    NoTreeLink,            ///< No link bandwidth for the tree.
    NoHierarchicalForm,    ///< All-to-all and send/recv have no hierarchical form.
    NvlsNotForOp,          ///< NVLS reduces and multicasts.
    NvlsNeedsNvswitch,     ///< NVLS needs NVSwitches with NVLink SHARP.
    NvlsNeedsDomain,       ///< NVLS needs several GPUs on one NVSwitch domain.
    NvlsNeedsSharp,        ///< NVLS across nodes needs fabric switches that reduce.
    NvlsSimpleOnly,        ///< NVLS runs the Simple protocol only.
    NvlsTreeAllReduceOnly, ///< NVLS tree is all-reduce only.
    NvlsTreeNeedsNodes,    ///< NVLS tree needs more than one node.
    InNetworkNotForOp,     ///< In-network reduction is for reducing operations.
    InNetworkNeedsSharp,   ///< In-network reduction needs fabric switches that reduce.
    CollNetSimpleOnly,     ///< CollNet runs the Simple protocol only.
    InNetworkNoLink,       ///< No link bandwidth for in-network reduction.
    PointToPointOnly,      ///< All-to-all and send/recv run point to point (algorithm ring).
    PointToPointNoLl128,   ///< Point to point runs LL or Simple, never LL128.
    ProtocolOffTransport,  ///< The NICs' transport does not carry this protocol between nodes.
    NoAlgorithm            ///< No algorithm applies to this fabric.
};

/**
 * Why an algorithm and protocol were chosen, or why an algorithm does not apply. It holds codes
 * and figures only, so that timing a collective allocates nothing; text() words it.
 */
struct CollectiveReason
{
    /** What the reason explains. */
    enum class Kind
    {
        None,        ///< Nothing to explain (a timing not yet chosen).
        Chosen,      ///< The fastest protocol of an algorithm (and the runner-up, if any).
        Pinned,      ///< Algorithm and protocol set by the caller.
        Unavailable, ///< The algorithm does not apply (see unavailable).
    };
    Kind kind = Kind::None;
    CollectiveUnavailable unavailable = CollectiveUnavailable::None;
    bool viaNvls = false; ///< in_network on one node, which is NVLS: unavailable says why not.
    bool oneNode = false; ///< Every rank on one node: no rails, no trees across nodes.
    CollectiveOp op = CollectiveOp::AllReduce;
    CollectiveAlgorithm algorithm = CollectiveAlgorithm::Ring;
    CollectiveProtocol protocol = CollectiveProtocol::Simple;
    bool hasRunnerUp = false;
    CollectiveAlgorithm runnerUpAlgorithm = CollectiveAlgorithm::Ring;
    CollectiveProtocol runnerUpProtocol = CollectiveProtocol::Simple;
    double runnerUpSeconds = 0.0;
    /** NCCL 2.x's own tuner picked (CollectiveInputs::ncclReleaseChoice): its minor, else 0. */
    int ncclReleaseMinor = 0;
    /** The NVSwitch's adders, not the links, set the NVLS rate (nvlsReduceGbytePerS). */
    bool switchAddersBind = false;

    /** Returns the reason in words: the mechanism, the protocol's regime, the runner-up. */
    std::string text() const;
    /** Returns text(), so that the reason reads as the string it used to be. */
    operator std::string() const { return text(); }
};

/** The time of one collective and its bandwidths as nccl-tests defines them. */
struct CollectiveTiming
{
    CollectiveOp op = CollectiveOp::AllReduce;
    CollectiveAlgorithm algorithm = CollectiveAlgorithm::Ring;
    CollectiveProtocol protocol = CollectiveProtocol::Simple;
    double bytes = 0.0;
    bool available = true; ///< False when the algorithm does not apply.
    double seconds = 0.0;
    double algbwGbytePerS = 0.0;     ///< S / t.
    double busbwGbytePerS = 0.0;     ///< algbw times the bus factor of the operation.
    int channels = 0;                ///< Channels (CUDA blocks) NCCL would run.
    double bandwidthGbytePerS = 0.0; ///< The bandwidth term's algbw (t = latency + S / this).
    CollectiveLatency latency;       ///< The latency term, by part.
    CollectiveReason reason;         ///< Why this algorithm and protocol (or why unavailable).
};

/**
 * Returns the nccl-tests bus-bandwidth factor (doc/PERFORMANCE.md): 2(n-1)/n for all-reduce,
 * (n-1)/n for reduce-scatter, all-gather and all-to-all, 1 for send/recv.
 */
double busBandwidthFactor(CollectiveOp op, int ranks);

/** Returns the time of \a op on \a bytes (the nccl-tests size) by \a algorithm, best protocol. */
CollectiveTiming collectiveTime(CollectiveOp op, CollectiveAlgorithm algorithm, double bytes,
                                const CollectiveInputs& inputs);

/** Returns the time of \a op by \a algorithm and \a protocol (NCCL_ALGO and NCCL_PROTO set). */
CollectiveTiming collectiveTime(CollectiveOp op, CollectiveAlgorithm algorithm,
                                CollectiveProtocol protocol, double bytes,
                                const CollectiveInputs& inputs);

/**
 * Returns the fastest algorithm and protocol for \a op on \a bytes among those NCCL's tuner
 * chooses from (ring, tree, in-network, NVLS, NVLS tree; hierarchical only when pinned).
 */
CollectiveTiming bestCollective(CollectiveOp op, double bytes, const CollectiveInputs& inputs);

/** Returns timings from \a minBytes to \a maxBytes, doubling (8 B to 16 GiB by default). */
std::vector<CollectiveTiming> collectiveCurve(CollectiveOp op, CollectiveAlgorithm algorithm,
                                              const CollectiveInputs& inputs, double minBytes = 8.0,
                                              double maxBytes = 17179869184.0);

/**
 * Returns the hardware latency of one step between two nodes, by part: GPUDirect PCIe and NIC
 * at both ends, \a switches switches and \a cableM metres of cable.
 */
CollectiveLatency fabricPathLatency(const CollectiveInputs& inputs, int switches, double cableM);

/** Path classes between two nodes of a leaf-spine(-core) fabric. */
enum class FabricPath
{
    SameLeaf,  ///< One switch.
    CrossLeaf, ///< Leaf, spine, leaf.
    CrossSpine ///< Leaf, spine, core, spine, leaf.
};

/** Returns the switches and cable metres of \a path on the fabric of \a inputs. */
CollectiveLatency fabricPathLatency(const CollectiveInputs& inputs, FabricPath path);

/**
 * The collectives of one set of inputs, with what every timing derives from them (the latency of
 * each path class, how a ring's edges and a tree's levels fall on them) worked out once, in the
 * constructor. For many sizes or algorithms on the same fabric; the free functions above build
 * one per call and return the same figures.
 */
class CollectiveEngine
{
public:
    /** What the inputs give every algorithm: counts, bandwidths and the fabric's paths. */
    struct Shape
    {
        int n = 1;
        int g = 1;
        int nodes = 1;
        double nvlink = 0.0; ///< B_nv, GB/s per rank per direction.
        double net = 0.0;    ///< B_r, the rank's share of its node's NICs after NCCL's transport.
        /// The NVSwitches' reduction rate this group has, operand bytes a second (0: no limit).
        double nvlsReduce = 0.0;
        std::size_t gen = 1;
        std::size_t nodeIdx = 0;
        double nvlinkScale = 1.0;         ///< Scale-up alpha over NCCL's reference step.
        double launchFactor = 1.0;        ///< Calibration of the base latency.
        double fabricLatencyFactor = 1.0; ///< Calibration of the network steps.
        /** Calibration of every latency part by protocol: LL, LL128, Simple. */
        double protocolLatencyFactor[3] = {1.0, 1.0, 1.0};
        /** Calibration of LL128's bandwidth against Simple's. */
        double ll128BandwidthFactor = 1.0;
        /** Each channel's network post after the first, per network step, us (0 uncalibrated). */
        double proxyPostUs = 0.0;
        double allReduceShare = 0.0;    ///< 2(n-1)/n: all-reduce's bus factor.
        double share = 0.0;             ///< (n-1)/n: the other collectives' bus factor.
        CollectiveLatency paths[3];     ///< By FabricPath: same leaf, across leaves, across spines.
        int worstPath = 0;              ///< The longest path between two of the nodes.
        double ringSameEdges = 0.0;     ///< A ring's inter-node edges within a leaf...
        double ringLeafEdges = 0.0;     ///< ... to the next leaf ...
        double ringSpineEdges = 0.0;    ///< ... and to the next spine block.
        int treeLevels = 0;             ///< floor(log2 nodes) levels of a binary tree.
        CollectiveLatency treeHardware; ///< One pass down the tree levels, hardware parts only.
    };

    explicit CollectiveEngine(const CollectiveInputs& inputs);

    /**
     * Makes this the engine of \a inputs, as a fresh CollectiveEngine(inputs) would be. When only
     * the two bandwidths (scaleUpGbytePerS, fabricGbytePerS) differ from the engine's inputs, as
     * when a fabric's routing or oversubscription changes, the paths and the tree levels are
     * kept and only the bandwidth terms set again. Returns whether anything was worked out again.
     */
    bool reset(const CollectiveInputs& inputs);

    /** Returns the inputs the engine was built from. */
    const CollectiveInputs& inputs() const { return m_inputs; }
    /** As collectiveTime(op, algorithm, bytes, inputs()). */
    CollectiveTiming time(CollectiveOp op, CollectiveAlgorithm algorithm, double bytes) const;
    /** As collectiveTime(op, algorithm, protocol, bytes, inputs()). */
    CollectiveTiming time(CollectiveOp op, CollectiveAlgorithm algorithm,
                          CollectiveProtocol protocol, double bytes) const;
    /** As bestCollective(op, bytes, inputs()). */
    CollectiveTiming best(CollectiveOp op, double bytes) const;
    /** As collectiveCurve(op, algorithm, inputs(), minBytes, maxBytes). */
    std::vector<CollectiveTiming> curve(CollectiveOp op, CollectiveAlgorithm algorithm,
                                        double minBytes = 8.0,
                                        double maxBytes = 17179869184.0) const;
    /** Returns best(op, size) for each size from \a minBytes to \a maxBytes, doubling. */
    std::vector<CollectiveTiming> bestCurve(CollectiveOp op, double minBytes = 8.0,
                                            double maxBytes = 17179869184.0) const;

private:
    CollectiveInputs m_inputs;
    Shape m_shape;
};

} // namespace dct::solvers
