#include "dct/solvers/collectives.h"

#include <algorithm>
#include <cmath>

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
    }
    return "ring";
}

double busBandwidthFactor(CollectiveOp op, int ranks)
{
    const double n = std::max(1, ranks);
    // nccl-tests doc/PERFORMANCE.md.
    if (op == CollectiveOp::AllReduce)
        return 2.0 * (n - 1.0) / n;
    return (n - 1.0) / n;
}

namespace {

constexpr double us = 1e-6;
constexpr double gbyte = 1e9;

/** Ring of \a n ranks on the slowest hop: \a steps alpha + \a share S / B. */
double ringSeconds(double steps, double share, double bytes, double alphaUs, double gbytePerS)
{
    return steps * alphaUs * us + share * bytes / (gbytePerS * gbyte);
}

} // namespace

CollectiveTiming collectiveTime(CollectiveOp op, CollectiveAlgorithm algorithm, double bytes,
                                const CollectiveInputs& in)
{
    CollectiveTiming t;
    t.op = op;
    t.algorithm = algorithm;
    t.bytes = bytes;
    const int n = std::max(1, in.ranks);
    const int g = std::clamp(in.ranksPerNode, 1, n);
    const int nodes = (n + g - 1) / g;
    const bool multiNode = nodes > 1;
    const double nd = n;
    // A ring crossing nodes runs at its slowest hop: the fabric (or NVLink if slower).
    const double ringGbps =
        multiNode ? std::min(in.fabricGbytePerS, in.scaleUpGbytePerS) : in.scaleUpGbytePerS;
    const double ringAlphaUs =
        multiNode ? std::max(in.fabricAlphaUs, in.scaleUpAlphaUs) : in.scaleUpAlphaUs;
    if (n == 1) {
        t.seconds = 0.0;
    } else if (ringGbps <= 0.0) {
        t.available = false;
    } else {
        switch (algorithm) {
        case CollectiveAlgorithm::Ring:
            if (op == CollectiveOp::AllReduce) {
                // nccl-tests PERFORMANCE.md: t = 2(n-1) alpha + 2(n-1)/n S/B.
                t.seconds = ringSeconds(2.0 * (nd - 1.0), 2.0 * (nd - 1.0) / nd, bytes, ringAlphaUs,
                                        ringGbps);
            } else if (op == CollectiveOp::AllToAll) {
                // Pairwise exchange: (n-1) steps; data for other nodes leaves on the fabric,
                // data for node peers on NVLink, both at once.
                const double offNode = (nd - g) / nd * bytes;
                const double onNode = (g - 1.0) / nd * bytes;
                const double fabric = multiNode ? offNode / (in.fabricGbytePerS * gbyte) : 0.0;
                const double nvlink = onNode / (in.scaleUpGbytePerS * gbyte);
                t.seconds = (nd - 1.0) * ringAlphaUs * us + std::max(fabric, nvlink);
            } else {
                // Reduce-scatter and all-gather: t = (n-1) alpha + (n-1)/n S/B.
                t.seconds = ringSeconds(nd - 1.0, (nd - 1.0) / nd, bytes, ringAlphaUs, ringGbps);
            }
            break;
        case CollectiveAlgorithm::DoubleBinaryTree: {
            if (op != CollectiveOp::AllReduce) {
                t.available = false;
                break;
            }
            // Two-tree all-reduce (Sanders, Speck and Traeff, Parallel Computing 35(12), 2009;
            // NCCL 2.4 trees): reduce up and broadcast down a tree of depth log2(nodes) across
            // nodes and a chain inside each node; pipelined, every rank moves about S each way
            // per phase, so the bandwidth term is 2 S / B against the ring's 2(n-1)/n S / B.
            const double depth = multiNode ? std::ceil(std::log2(static_cast<double>(nodes))) : 0.0;
            const double alpha = 2.0 * (depth * in.fabricAlphaUs + (g - 1.0) * in.scaleUpAlphaUs);
            t.seconds = alpha * us + 2.0 * bytes / (ringGbps * gbyte);
            break;
        }
        case CollectiveAlgorithm::Hierarchical:
        case CollectiveAlgorithm::InNetwork: {
            if (op == CollectiveOp::AllToAll ||
                (algorithm == CollectiveAlgorithm::InNetwork &&
                 (!in.inNetworkReduction || op != CollectiveOp::AllReduce)) ||
                (!multiNode && algorithm == CollectiveAlgorithm::InNetwork)) {
                t.available = false;
                break;
            }
            // Inside the node: reduce-scatter (and all-gather) over NVLink among g ranks.
            const double gd = g;
            const double intra = g > 1 ? ringSeconds(gd - 1.0, (gd - 1.0) / gd, bytes,
                                                     in.scaleUpAlphaUs, in.scaleUpGbytePerS)
                                       : 0.0;
            // Between nodes: each rank owns S/g, reduced with its peers on the other nodes.
            const double shard = bytes / gd;
            const double nn = nodes;
            double inter = 0.0;
            if (multiNode && in.fabricGbytePerS > 0.0) {
                if (algorithm == CollectiveAlgorithm::InNetwork) {
                    // The switches add up the shards: one trip up and down the tree, each rank
                    // sends and receives its shard once (full duplex).
                    const double alpha =
                        in.fabricAlphaUs + in.fabricSwitchHops * in.switchLatencyUs;
                    inter = alpha * us + shard / (in.fabricGbytePerS * gbyte);
                } else if (op == CollectiveOp::AllReduce) {
                    inter = ringSeconds(2.0 * (nn - 1.0), 2.0 * (nn - 1.0) / nn, shard,
                                        in.fabricAlphaUs, in.fabricGbytePerS);
                } else {
                    inter = ringSeconds(nn - 1.0, (nn - 1.0) / nn, shard, in.fabricAlphaUs,
                                        in.fabricGbytePerS);
                }
            } else if (multiNode) {
                t.available = false;
                break;
            }
            // All-reduce = RS + inter all-reduce + AG; RS and AG alone take one intra phase.
            t.seconds = (op == CollectiveOp::AllReduce ? 2.0 : 1.0) * intra + inter;
            break;
        }
        }
    }
    if (t.available && t.seconds > 0.0) {
        t.algbwGbytePerS = bytes / t.seconds / gbyte;
        t.busbwGbytePerS = t.algbwGbytePerS * busBandwidthFactor(op, n);
    }
    return t;
}

CollectiveTiming bestCollective(CollectiveOp op, double bytes, const CollectiveInputs& inputs)
{
    CollectiveTiming best;
    best.available = false;
    for (auto a : {CollectiveAlgorithm::Ring, CollectiveAlgorithm::DoubleBinaryTree,
                   CollectiveAlgorithm::Hierarchical, CollectiveAlgorithm::InNetwork}) {
        const CollectiveTiming t = collectiveTime(op, a, bytes, inputs);
        if (t.available && (!best.available || t.seconds < best.seconds))
            best = t;
    }
    return best;
}

std::vector<CollectiveTiming> collectiveCurve(CollectiveOp op, CollectiveAlgorithm algorithm,
                                              const CollectiveInputs& inputs, double minBytes,
                                              double maxBytes)
{
    std::vector<CollectiveTiming> curve;
    for (double s = std::max(1.0, minBytes); s <= maxBytes * (1.0 + 1e-12); s *= 2.0)
        curve.push_back(collectiveTime(op, algorithm, s, inputs));
    return curve;
}

} // namespace dct::solvers
