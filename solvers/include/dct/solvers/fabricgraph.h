#pragma once

#include "dct/solvers/fabricbuilder.h"
#include "dct/solvers/topologyresult.h"

#include <boost/graph/adjacency_list.hpp>
#include <string>
#include <vector>

namespace dct::solvers {

/** What a vertex of the fabric graph is. */
enum class VertexKind
{
    Host,     ///< A compute node (joins its NICs; it does not forward fabric traffic).
    Endpoint, ///< A NIC port or a fabric-manager port.
    Leaf,
    Spine,
    Core
};

/** What an edge of the fabric graph is. */
enum class LinkKind
{
    HostNic, ///< Inside a node (PCIe), not a cable.
    NodeLeaf,
    LeafSpine,
    SpineCore
};

/** A vertex of the fabric graph. */
struct FabricVertex
{
    VertexKind kind = VertexKind::Endpoint;
    int plane = 0;
    long long index = 0; ///< Index within its kind and plane.
};

/** An edge of the fabric graph. */
struct FabricEdge
{
    LinkKind kind = LinkKind::NodeLeaf;
    double capacityGbps = 0.0;
    long long id = 0; ///< Position in FabricGraph::edges.
};

using FabricBoostGraph =
    boost::adjacency_list<boost::vecS, boost::vecS, boost::undirectedS, FabricVertex, FabricEdge>;

/** The fabric as an explicit graph: every switch, NIC port and cable. */
struct FabricGraph
{
    FabricPlan plan;
    FabricBoostGraph graph;
    std::vector<FabricBoostGraph::edge_descriptor> edges; ///< In creation order (by id).
    std::vector<std::vector<long long>> endpointsByPlane; ///< Endpoint vertices, plane by plane.
    std::vector<long long> hostVertices;                  ///< Empty without hosts.
};

/** A set of failed links and switches, or a whole plane. */
struct FailureSet
{
    std::vector<long long> edges;    ///< Edge ids (FabricEdge::id).
    std::vector<long long> vertices; ///< Switch vertices.
    int plane = -1;                  ///< A whole plane down; -1 for none.
};

/** Hop counts between endpoints found by breadth-first search. */
struct HopStats
{
    int diameterSwitchHops = 0;     ///< Most switches on a shortest endpoint-to-endpoint path.
    double averageSwitchHops = 0.0; ///< Mean over the sampled pairs.
    int sources = 0;                ///< Endpoints searched from.
};

/** What a failure takes away. */
struct FailureImpact
{
    long long endpointsDisconnected = 0; ///< Outside their plane's main component.
    long long hostsDisconnected = 0;     ///< With no connected NIC left (hosts in the graph).
    double bisectionBeforeGbps = 0.0;
    double bisectionAfterGbps = 0.0;
    double bisectionLostGbps = 0.0;
};

/**
 * Builds the explicit graph of \a plan: endpoints wired to leaves (node-major for fat trees,
 * same-rail-same-leaf for rail-optimized units), leaf uplinks spread round-robin over the spines,
 * pods and core groups for three tiers. With \a includeHosts a vertex per node joins its NICs.
 */
FabricGraph buildFabricGraph(const FabricPlan& plan, bool includeHosts = false);

/** Returns the counts per tier read off the graph (vertices, degrees and edges). */
TopologyResult graphCounts(const FabricGraph& fabric);

/**
 * Returns the bisection bandwidth in Gbps: the push-relabel max-flow from the first half of
 * every plane's endpoints to the second half (endpoints in wiring order, so the cut runs across
 * the top of the tree), skipping what \a failures takes down.
 */
double bisectionGbps(const FabricGraph& fabric, const FailureSet& failures = {});

/** Returns diameter and mean switch hops by BFS from up to \a sources endpoints of each plane. */
HopStats hopStats(const FabricGraph& fabric, int sources = 8, const FailureSet& failures = {});

/** Returns what \a failures disconnects and the bisection bandwidth it costs. */
FailureImpact failureImpact(const FabricGraph& fabric, const FailureSet& failures);

/** Returns the graph as Graphviz DOT. */
std::string fabricDot(const FabricGraph& fabric);

} // namespace dct::solvers
