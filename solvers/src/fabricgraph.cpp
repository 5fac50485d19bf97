#include "dct/solvers/fabricgraph.h"

#include <algorithm>
#include <boost/graph/breadth_first_search.hpp>
#include <boost/graph/connected_components.hpp>
#include <boost/graph/filtered_graph.hpp>
#include <boost/graph/push_relabel_max_flow.hpp>
#include <cmath>
#include <functional>
#include <limits>
#include <map>
#include <sstream>

namespace dct::solvers {

using model::TopologyKind;
using Vertex = FabricBoostGraph::vertex_descriptor;
using Edge = FabricBoostGraph::edge_descriptor;

namespace {

Vertex addVertex(FabricBoostGraph& g, VertexKind kind, int plane, long long index)
{
    FabricVertex v;
    v.kind = kind;
    v.plane = plane;
    v.index = index;
    return boost::add_vertex(v, g);
}

void addEdge(FabricGraph& f, Vertex a, Vertex b, LinkKind kind, double capacityGbps)
{
    FabricEdge e;
    e.kind = kind;
    e.capacityGbps = capacityGbps;
    e.id = static_cast<long long>(f.edges.size());
    f.edges.push_back(boost::add_edge(a, b, e, f.graph).first);
}

/** Leaf index of NIC \a rail of node \a node, or of the manager slot, in plane-local terms. */
struct Placement
{
    int plane = 0;
    long long leaf = 0;
};

} // namespace

FabricGraph buildFabricGraph(const FabricPlan& plan, bool includeHosts)
{
    FabricGraph f;
    f.plan = plan;
    if (!plan.valid)
        return f;
    FabricBoostGraph& g = f.graph;
    const FabricSpec& s = plan.spec;
    const int P = plan.planes;
    const int rails = std::max(1, s.railsPerNode);
    const long long L = plan.leavesPerPlane;
    const long long u = plan.tiers > 1 ? plan.leafUpPorts : 0;
    const double nicRate = s.endpointRateGbps;
    const double linkRate = s.switchLinkRateGbps;

    // Switches, plane by plane and tier by tier.
    std::vector<Vertex> leaves(static_cast<std::size_t>(L * P));
    std::vector<Vertex> spines(static_cast<std::size_t>(plan.spinesPerPlane * P));
    std::vector<Vertex> cores(static_cast<std::size_t>(plan.coresPerPlane * P));
    for (int p = 0; p < P; ++p) {
        for (long long i = 0; i < L; ++i)
            leaves[static_cast<std::size_t>(p * L + i)] = addVertex(g, VertexKind::Leaf, p, i);
        for (long long i = 0; i < plan.spinesPerPlane; ++i)
            spines[static_cast<std::size_t>(p * plan.spinesPerPlane + i)] =
                addVertex(g, VertexKind::Spine, p, i);
        for (long long i = 0; i < plan.coresPerPlane; ++i)
            cores[static_cast<std::size_t>(p * plan.coresPerPlane + i)] =
                addVertex(g, VertexKind::Core, p, i);
    }

    // Endpoints: where each NIC goes.
    f.endpointsByPlane.assign(static_cast<std::size_t>(P), {});
    std::vector<long long> nextIndex(static_cast<std::size_t>(P), 0);
    auto attach = [&](int plane, long long leaf, Vertex host, bool hasHost) {
        const Vertex e =
            addVertex(g, VertexKind::Endpoint, plane, nextIndex[static_cast<std::size_t>(plane)]++);
        f.endpointsByPlane[static_cast<std::size_t>(plane)].push_back(static_cast<long long>(e));
        addEdge(f, e, leaves[static_cast<std::size_t>(plane * L + leaf)], LinkKind::NodeLeaf,
                nicRate);
        if (hasHost)
            addEdge(f, host, e, LinkKind::HostNic, std::numeric_limits<double>::infinity());
    };
    if (s.kind == TopologyKind::RailOptimized) {
        // DGX SuperPOD wiring: slot i of unit su puts NIC r on the leaf of rail r of that unit.
        const int slots = std::max(1, s.scalableUnitNodes);
        const int usable = slots - std::max(0, s.reservedSlotsPerUnit);
        const int d = plan.leafDownPorts;
        auto leafOf = [&](long long unit, int rail, long long slot) {
            return (unit * rails + rail) * plan.leavesPerRailPerUnit + slot / d;
        };
        for (long long n = 0; n < plan.nodes; ++n) {
            const long long unit = n / usable;
            const long long slot = n % usable;
            Vertex host{};
            if (includeHosts) {
                host = addVertex(g, VertexKind::Host, 0, n);
                f.hostVertices.push_back(static_cast<long long>(host));
            }
            for (int r = 0; r < rails; ++r)
                attach(0, leafOf(unit, r, slot), host, includeHosts);
        }
        // Fabric-manager slots: the reserved slots of every unit, then the last slots of the
        // fabric (the highest slot numbers of the last unit).
        const int managerPorts = std::min(s.fabricManagerPorts, rails);
        auto manager = [&](long long unit, long long slot) {
            for (int r = 0; r < managerPorts; ++r)
                attach(0, leafOf(unit, r, slot), Vertex{}, false);
        };
        for (long long unit = 0; unit < plan.scalableUnits; ++unit)
            for (int i = usable; i < slots; ++i)
                manager(unit, i);
        for (int i = 0; i < s.reservedSlotsPerFabric; ++i) {
            const long long flat = static_cast<long long>(plan.scalableUnits) * usable - 1 - i;
            manager(flat / usable, flat % usable);
        }
    } else {
        // Node-major: the NICs of a node sit side by side on a leaf of each plane.
        const int perPlane = (rails + P - 1) / P;
        std::vector<long long> counter(static_cast<std::size_t>(P), 0);
        for (long long n = 0; n < plan.nodes; ++n) {
            Vertex host{};
            if (includeHosts) {
                host = addVertex(g, VertexKind::Host, 0, n);
                f.hostVertices.push_back(static_cast<long long>(host));
            }
            for (int r = 0; r < rails; ++r) {
                const int plane = r % P;
                if (counter[static_cast<std::size_t>(plane)] >= (n + 1) * perPlane)
                    continue;
                const long long e = counter[static_cast<std::size_t>(plane)]++;
                attach(plane, e / plan.leafDownPorts, host, includeHosts);
            }
        }
    }

    // Switch-to-switch links.
    for (int p = 0; p < P; ++p) {
        auto leafV = [&](long long i) { return leaves[static_cast<std::size_t>(p * L + i)]; };
        auto spineV = [&](long long i) {
            return spines[static_cast<std::size_t>(p * plan.spinesPerPlane + i)];
        };
        if (plan.tiers == 2) {
            // Uplink j of every leaf goes to spine j mod S: u/S links to each spine.
            for (long long l = 0; l < L; ++l)
                for (long long j = 0; j < u; ++j)
                    addEdge(f, leafV(l), spineV(j % plan.spinesPerPlane), LinkKind::LeafSpine,
                            linkRate);
        } else if (plan.tiers == 3) {
            const long long perPod = plan.leavesPerPod;
            const long long c = plan.coresPerPlane;
            for (long long l = 0; l < L; ++l) {
                const long long pod = l / perPod;
                for (long long j = 0; j < u; ++j)
                    addEdge(f, leafV(l), spineV(pod * u + j), LinkKind::LeafSpine, linkRate);
            }
            // Aggregation switch j of a pod has one uplink per leaf of the pod; the plane's
            // uplinks, pod by pod, are dealt over the cores in turn. No core gets more than k
            // (c = ceil(L u / k)), and in a full plane each core gets one uplink from every pod,
            // from aggregation switch core / (k/2): Al-Fares' core groups.
            long long next = 0;
            for (long long pod = 0; pod < plan.podsPerPlane; ++pod) {
                const long long inPod = std::min(perPod, L - pod * perPod);
                for (long long j = 0; j < u; ++j)
                    for (long long t = 0; t < inPod; ++t)
                        addEdge(f, spineV(pod * u + j),
                                cores[static_cast<std::size_t>(p * c + next++ % c)],
                                LinkKind::SpineCore, linkRate);
            }
        }
    }
    return f;
}

TopologyResult graphCounts(const FabricGraph& f)
{
    TopologyResult t;
    const FabricPlan& plan = f.plan;
    t.planes = plan.planes;
    t.tiers = plan.tiers;
    t.switchPorts = plan.switchPorts;
    t.nodes = plan.nodes;
    t.nics = plan.nodes * std::max(1, plan.spec.railsPerNode);
    t.scalableUnits = plan.scalableUnits;
    t.scalableUnitNodes = plan.scalableUnits > 0 ? plan.spec.scalableUnitNodes : 0;
    t.reservedSlots = plan.reservedSlots;
    t.leafDownPorts = plan.leafDownPorts;
    t.leafUpPorts = plan.leafUpPorts;
    t.pods = plan.podsPerPlane;
    if (!plan.valid)
        return t;
    TierCounts tiers[3];
    tiers[0].tier = FabricTier::Leaf;
    tiers[1].tier = FabricTier::Spine;
    tiers[2].tier = FabricTier::Core;
    const FabricBoostGraph& g = f.graph;
    for (auto [v, end] = boost::vertices(g); v != end; ++v) {
        const FabricVertex& fv = g[*v];
        int i = -1;
        if (fv.kind == VertexKind::Leaf)
            i = 0;
        else if (fv.kind == VertexKind::Spine)
            i = 1;
        else if (fv.kind == VertexKind::Core)
            i = 2;
        else if (fv.kind == VertexKind::Endpoint)
            ++t.endpoints;
        if (i < 0)
            continue;
        tiers[i].switches += 1;
        tiers[i].portsUsed += static_cast<long long>(boost::out_degree(*v, g));
    }
    for (auto [e, end] = boost::edges(g); e != end; ++e) {
        switch (g[*e].kind) {
        case LinkKind::NodeLeaf:
            ++tiers[0].linksDown;
            ++t.endpointLinks;
            break;
        case LinkKind::LeafSpine:
            ++tiers[1].linksDown;
            ++t.switchLinks;
            break;
        case LinkKind::SpineCore:
            ++tiers[2].linksDown;
            ++t.switchLinks;
            break;
        case LinkKind::HostNic:
            break;
        }
    }
    for (auto& c : tiers) {
        if (c.switches == 0)
            continue;
        c.portsFree = c.switches * plan.switchPorts - c.portsUsed;
        t.switches += c.switches;
        t.tiersCounts.push_back(c);
    }
    return t;
}

namespace {

/** A mask of what is down: vertices and edges. */
struct DownMask
{
    std::vector<char> vertex;
    std::vector<char> edge;
};

DownMask makeMask(const FabricGraph& f, const FailureSet& failures)
{
    DownMask m;
    m.vertex.assign(boost::num_vertices(f.graph), 0);
    m.edge.assign(f.edges.size(), 0);
    for (long long v : failures.vertices)
        if (v >= 0 && static_cast<std::size_t>(v) < m.vertex.size())
            m.vertex[static_cast<std::size_t>(v)] = 1;
    for (long long e : failures.edges)
        if (e >= 0 && static_cast<std::size_t>(e) < m.edge.size())
            m.edge[static_cast<std::size_t>(e)] = 1;
    if (failures.plane >= 0)
        for (auto [v, end] = boost::vertices(f.graph); v != end; ++v) {
            const FabricVertex& fv = f.graph[*v];
            if (fv.kind != VertexKind::Host && fv.kind != VertexKind::Endpoint &&
                fv.plane == failures.plane)
                m.vertex[*v] = 1;
        }
    return m;
}

bool edgeUp(const FabricGraph& f, const DownMask& m, const Edge& e)
{
    const FabricBoostGraph& g = f.graph;
    return !m.edge[static_cast<std::size_t>(g[e].id)] && !m.vertex[boost::source(e, g)] &&
           !m.vertex[boost::target(e, g)];
}

using FlowTraits = boost::adjacency_list_traits<boost::vecS, boost::vecS, boost::directedS>;
using FlowGraph = boost::adjacency_list<
    boost::vecS, boost::vecS, boost::directedS, boost::no_property,
    boost::property<
        boost::edge_capacity_t, long long,
        boost::property<boost::edge_residual_capacity_t, long long,
                        boost::property<boost::edge_reverse_t, FlowTraits::edge_descriptor>>>>;

} // namespace

double bisectionGbps(const FabricGraph& f, const FailureSet& failures)
{
    if (!f.plan.valid)
        return 0.0;
    const DownMask mask = makeMask(f, failures);
    const FabricBoostGraph& g = f.graph;
    const std::size_t n = boost::num_vertices(g);
    FlowGraph flow(n + 2);
    auto capacity = boost::get(boost::edge_capacity, flow);
    auto reverse = boost::get(boost::edge_reverse, flow);
    // Capacities in Mbps as integers keep push-relabel exact. The residual graph Boost expects:
    // every capacitated arc a->b has its own reverse arc b->a of capacity 0 (a cable, usable
    // both ways, is two such arcs, a->b and b->a, each with its own zero-capacity reverse).
    auto addArc = [&](std::size_t a, std::size_t b, long long cap) {
        auto ab = boost::add_edge(a, b, flow).first;
        auto ba = boost::add_edge(b, a, flow).first;
        capacity[ab] = cap;
        capacity[ba] = 0;
        reverse[ab] = ba;
        reverse[ba] = ab;
    };
    auto mbps = [](double gbps) { return static_cast<long long>(std::llround(gbps * 1000.0)); };
    std::vector<long long> linked(n, 0); // Capacity of the links up at each vertex.
    for (auto [e, end] = boost::edges(g); e != end; ++e) {
        if (g[*e].kind == LinkKind::HostNic || !edgeUp(f, mask, *e))
            continue;
        const long long c = mbps(g[*e].capacityGbps);
        addArc(boost::source(*e, g), boost::target(*e, g), c);
        addArc(boost::target(*e, g), boost::source(*e, g), c);
        linked[boost::source(*e, g)] += c;
        linked[boost::target(*e, g)] += c;
    }
    // Half of each plane's endpoints send, the other half receive. An endpoint sends (receives)
    // at most what its links carry, so that is the capacity of its arc from the source (to the
    // sink): the maximum flow is the same as with unbounded arcs, and the sum of the source's
    // capacities, which push-relabel adds up first, cannot overflow.
    const std::size_t source = n;
    const std::size_t sink = n + 1;
    for (const auto& plane : f.endpointsByPlane) {
        const std::size_t half = plane.size() / 2;
        for (std::size_t i = 0; i < 2 * half; ++i) {
            const auto v = static_cast<std::size_t>(plane[i]);
            if (i < half)
                addArc(source, v, linked[v]);
            else
                addArc(v, sink, linked[v]);
        }
    }
    const long long value = boost::push_relabel_max_flow(flow, source, sink);
    return static_cast<double>(value) / 1000.0;
}

namespace {

/** BFS distances (in edges) from \a from over the fabric (hosts excluded), -1 if unreachable. */
std::vector<int> distancesFrom(const FabricGraph& f, const DownMask& m, Vertex from)
{
    const FabricBoostGraph& g = f.graph;
    std::vector<int> dist(boost::num_vertices(g), -1);
    auto edgeFilter = [&](const Edge& e) {
        return g[e].kind != LinkKind::HostNic && edgeUp(f, m, e);
    };
    auto vertexFilter = [&](const Vertex& v) { return !m.vertex[v]; };
    boost::filtered_graph<FabricBoostGraph, std::function<bool(const Edge&)>,
                          std::function<bool(const Vertex&)>>
        view(g, edgeFilter, vertexFilter);
    if (m.vertex[from])
        return dist;
    dist[from] = 0;
    boost::breadth_first_search(
        view, from,
        boost::visitor(boost::make_bfs_visitor(boost::record_distances(
            boost::make_iterator_property_map(dist.begin(), boost::get(boost::vertex_index, g)),
            boost::on_tree_edge()))));
    return dist;
}

} // namespace

HopStats hopStats(const FabricGraph& f, int sources, const FailureSet& failures)
{
    HopStats h;
    if (!f.plan.valid)
        return h;
    const DownMask mask = makeMask(f, failures);
    double sum = 0.0;
    long long pairs = 0;
    for (const auto& plane : f.endpointsByPlane) {
        if (plane.size() < 2)
            continue;
        const std::size_t count =
            std::min<std::size_t>(static_cast<std::size_t>(sources), plane.size());
        for (std::size_t s = 0; s < count; ++s) {
            // Sources spread evenly over the plane's endpoints, so they sit on different leaves
            // and pods.
            const auto from = static_cast<Vertex>(plane[s * plane.size() / count]);
            const std::vector<int> dist = distancesFrom(f, mask, from);
            ++h.sources;
            for (long long v : plane) {
                const int d = dist[static_cast<std::size_t>(v)];
                if (static_cast<Vertex>(v) == from || d < 0)
                    continue;
                h.diameterSwitchHops = std::max(h.diameterSwitchHops, d - 1);
                sum += d - 1;
                ++pairs;
            }
        }
    }
    h.averageSwitchHops = pairs > 0 ? sum / static_cast<double>(pairs) : 0.0;
    return h;
}

FailureImpact failureImpact(const FabricGraph& f, const FailureSet& failures)
{
    FailureImpact impact;
    if (!f.plan.valid)
        return impact;
    const DownMask mask = makeMask(f, failures);
    const FabricBoostGraph& g = f.graph;
    auto edgeFilter = [&](const Edge& e) {
        return g[e].kind != LinkKind::HostNic && edgeUp(f, mask, e);
    };
    auto vertexFilter = [&](const Vertex& v) { return !mask.vertex[v]; };
    boost::filtered_graph<FabricBoostGraph, std::function<bool(const Edge&)>,
                          std::function<bool(const Vertex&)>>
        view(g, edgeFilter, vertexFilter);
    std::vector<int> component(boost::num_vertices(g), -1);
    boost::connected_components(view, boost::make_iterator_property_map(
                                          component.begin(), boost::get(boost::vertex_index, g)));
    // An endpoint is connected when it lies in its plane's main component: the one holding the
    // most endpoints of the plane (and a switch, or a lone NIC counts as cut off).
    std::vector<char> connected(boost::num_vertices(g), 0);
    for (const auto& plane : f.endpointsByPlane) {
        std::map<int, long long> sizes;
        for (long long v : plane) {
            bool hasLink = false;
            for (auto [e, end] = boost::out_edges(static_cast<Vertex>(v), g); e != end; ++e)
                if (g[*e].kind == LinkKind::NodeLeaf && edgeUp(f, mask, *e))
                    hasLink = true;
            if (hasLink)
                ++sizes[component[static_cast<std::size_t>(v)]];
        }
        int main = -1;
        long long best = 0;
        for (const auto& [c, size] : sizes)
            if (size > best) {
                best = size;
                main = c;
            }
        for (long long v : plane) {
            bool hasLink = false;
            for (auto [e, end] = boost::out_edges(static_cast<Vertex>(v), g); e != end; ++e)
                if (g[*e].kind == LinkKind::NodeLeaf && edgeUp(f, mask, *e))
                    hasLink = true;
            if (hasLink && component[static_cast<std::size_t>(v)] == main && best > 1)
                connected[static_cast<std::size_t>(v)] = 1;
            else
                ++impact.endpointsDisconnected;
        }
    }
    for (long long h : f.hostVertices) {
        bool any = false;
        for (auto [e, end] = boost::out_edges(static_cast<Vertex>(h), g); e != end; ++e)
            if (connected[boost::target(*e, g)])
                any = true;
        if (!any)
            ++impact.hostsDisconnected;
    }
    impact.bisectionBeforeGbps = bisectionGbps(f);
    impact.bisectionAfterGbps = bisectionGbps(f, failures);
    impact.bisectionLostGbps = impact.bisectionBeforeGbps - impact.bisectionAfterGbps;
    return impact;
}

std::string fabricDot(const FabricGraph& f)
{
    const FabricBoostGraph& g = f.graph;
    std::ostringstream out;
    out << "graph fabric {\n  node [shape=box, fontsize=10];\n";
    static const char* kindName[] = {"host", "nic", "leaf", "spine", "core"};
    static const char* kindColor[] = {"gray80", "lightyellow", "lightblue", "palegreen", "salmon"};
    for (auto [v, end] = boost::vertices(g); v != end; ++v) {
        const FabricVertex& fv = g[*v];
        const int k = static_cast<int>(fv.kind);
        out << "  v" << *v << " [label=\"" << kindName[k] << " p" << fv.plane << " #" << fv.index
            << "\", style=filled, fillcolor=" << kindColor[k] << "];\n";
    }
    for (auto [e, end] = boost::edges(g); e != end; ++e)
        out << "  v" << boost::source(*e, g) << " -- v" << boost::target(*e, g)
            << (g[*e].kind == LinkKind::HostNic ? " [style=dotted]" : "") << ";\n";
    out << "}\n";
    return out.str();
}

} // namespace dct::solvers
