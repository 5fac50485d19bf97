#pragma once

#include <string>
#include <vector>

namespace dct::solvers {

/** A collective operation as nccl-tests names them. */
enum class CollectiveOp
{
    AllReduce,
    ReduceScatter,
    AllGather,
    AllToAll
};

/** How a collective is carried out. */
enum class CollectiveAlgorithm
{
    Ring,             ///< One ring over every rank.
    DoubleBinaryTree, ///< Two complementary binary trees across nodes (NCCL trees).
    Hierarchical,     ///< NVLink inside the node, the fabric between nodes.
    InNetwork         ///< Switches reduce (SHARP) between nodes, NVLink inside.
};

/** Returns "all_reduce", "reduce_scatter", "all_gather" or "all_to_all". */
const char* collectiveOpName(CollectiveOp op);
/** Returns "ring", "tree", "hierarchical" or "in_network". */
const char* collectiveAlgorithmName(CollectiveAlgorithm algorithm);

/** The alpha-beta parameters of a collective over a cluster. */
struct CollectiveInputs
{
    int ranks = 8;                   ///< n: ranks taking part.
    int ranksPerNode = 8;            ///< g: ranks sharing a node (and its NVLink domain).
    double scaleUpGbytePerS = 0.0;   ///< Effective NVLink bandwidth per rank per direction.
    double scaleUpAlphaUs = 1.0;     ///< Latency of one step over NVLink.
    double fabricGbytePerS = 0.0;    ///< Effective fabric bandwidth per rank per direction.
    double fabricAlphaUs = 5.0;      ///< Latency of one step across the fabric.
    int fabricSwitchHops = 3;        ///< Switches on the longest path (in-network reduction).
    double switchLatencyUs = 0.13;   ///< Per switch traversed.
    bool inNetworkReduction = false; ///< Switches can reduce (SHARP).
};

/** The time of one collective and its bandwidths as nccl-tests defines them. */
struct CollectiveTiming
{
    CollectiveOp op = CollectiveOp::AllReduce;
    CollectiveAlgorithm algorithm = CollectiveAlgorithm::Ring;
    double bytes = 0.0;
    bool available = true; ///< False when the algorithm does not apply.
    double seconds = 0.0;
    double algbwGbytePerS = 0.0; ///< S / t.
    double busbwGbytePerS = 0.0; ///< algbw times the bus factor of the operation.
};

/**
 * Returns the nccl-tests bus-bandwidth factor (doc/PERFORMANCE.md): 2(n-1)/n for all-reduce,
 * (n-1)/n for reduce-scatter, all-gather and all-to-all.
 */
double busBandwidthFactor(CollectiveOp op, int ranks);

/** Returns the time of \a op on \a bytes (the nccl-tests size) by \a algorithm. */
CollectiveTiming collectiveTime(CollectiveOp op, CollectiveAlgorithm algorithm, double bytes,
                                const CollectiveInputs& inputs);

/** Returns the fastest available algorithm for \a op on \a bytes. */
CollectiveTiming bestCollective(CollectiveOp op, double bytes, const CollectiveInputs& inputs);

/** Returns timings from \a minBytes to \a maxBytes, doubling (8 B to 16 GiB by default). */
std::vector<CollectiveTiming> collectiveCurve(CollectiveOp op, CollectiveAlgorithm algorithm,
                                              const CollectiveInputs& inputs, double minBytes = 8.0,
                                              double maxBytes = 17179869184.0);

} // namespace dct::solvers
