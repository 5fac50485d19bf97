#include "dct/solvers/networkmetrics.h"

#include "metrictext.h"

#include <array>
#include <string>

namespace dct::solvers {

namespace {

/** The keys and labels of one collective's metrics, built once. */
struct CollectiveText
{
    std::string secondsKey, secondsLabel, busbwKey, busbwLabel;
};

/** Returns the text of \a op by \a algorithm from a table built on first use. */
const CollectiveText& collectiveText(CollectiveOp op, CollectiveAlgorithm algorithm)
{
    constexpr int kOps = 4;
    constexpr int kAlgorithms = 4;
    static const auto table = [] {
        std::array<CollectiveText, kOps * kAlgorithms> t;
        for (int o = 0; o < kOps; ++o)
            for (int a = 0; a < kAlgorithms; ++a) {
                const std::string opName = collectiveOpName(static_cast<CollectiveOp>(o));
                const std::string name =
                    collectiveAlgorithmName(static_cast<CollectiveAlgorithm>(a));
                const std::string key = "collectives." + opName + "_" + name + "_1gib";
                t[static_cast<std::size_t>(o * kAlgorithms + a)] = {
                    key + "_seconds", opName + " " + name + ", 1 GiB over all GPUs",
                    key + "_busbw_gbyte_per_s", opName + " " + name + " bus bandwidth, 1 GiB"};
            }
        return t;
    }();
    return table[static_cast<std::size_t>(static_cast<int>(op) * kAlgorithms +
                                          static_cast<int>(algorithm))];
}

/** The keys and labels of one switch tier's metrics, built once. */
struct TierText
{
    std::string switchesKey, switchesLabel, usedKey, usedLabel, freeKey, freeLabel;
};

const TierText& tierText(FabricTier tier)
{
    static const auto table = [] {
        std::array<TierText, 3> t;
        for (int i = 0; i < 3; ++i) {
            const std::string name = fabricTierName(static_cast<FabricTier>(i));
            t[static_cast<std::size_t>(i)] = {
                "network." + name + "_switches",   "Switches, " + name,
                "network." + name + "_ports_used", "Ports used, " + name,
                "network." + name + "_ports_free", "Ports free, " + name};
        }
        return t;
    }();
    return table[static_cast<std::size_t>(tier)];
}

} // namespace

void addNetworkMetrics(Evaluation& e)
{
    const NetworkResult& n = e.network;
    const TopologyResult& t = n.topology;
    const MetricInputs shape =
        metricInputs<"/network/topology", "/network/tiers", "/network/planes", "/network/switch",
                     "/network/oversubscription", "/compute/node_count">();
    e.add("network.planes", "Fabric planes", t.planes, "", Better::Neither, shape);
    e.add("network.tiers", "Switch tiers", t.tiers, "", Better::Neither, shape);
    e.add("network.port_breakout", "Logical ports per switch port (breakout)", t.breakout, "",
          Better::Neither,
          metricInputs<"/network/port_breakout", "/network/switch", "/network/nic">());
    e.add("network.switch_radix", "Switch radix (logical ports)", t.switchPorts, "",
          Better::Neither, metricInputs<"/network/port_breakout", "/network/switch">());
    e.add("network.endpoints", "Fabric endpoints (NIC ports)", static_cast<double>(t.endpoints), "",
          Better::Neither, shape);
    e.add("network.nics", "NICs", static_cast<double>(t.nics), "", Better::Neither,
          metricInputs<"/network/rails">());
    if (t.scalableUnits > 0) {
        e.add("network.scalable_units", "Scalable units", t.scalableUnits, "", Better::Neither,
              shape);
        e.add("network.scalable_unit_nodes", "Node slots per scalable unit", t.scalableUnitNodes,
              "", Better::Neither,
              metricInputs<"/network/scalable_unit_nodes", "/network/switch",
                           "/network/port_breakout", "/network/oversubscription">());
    }
    for (const auto& c : t.tiersCounts) {
        const TierText& text = tierText(c.tier);
        e.add(text.switchesKey, text.switchesLabel, static_cast<double>(c.switches), "",
              Better::Neither, shape);
        e.add(text.usedKey, text.usedLabel, static_cast<double>(c.portsUsed), "", Better::Neither,
              shape);
        e.add(text.freeKey, text.freeLabel, static_cast<double>(c.portsFree), "", Better::Neither,
              shape);
    }
    e.add("network.switches", "Switches", static_cast<double>(t.switches), "",
          MetricTraits{Better::Neither, 9}, shape);
    e.add("network.switch_links", "Switch-to-switch links", static_cast<double>(t.switchLinks), "",
          Better::Neither, shape);
    e.add("network.endpoint_links", "NIC-to-leaf links", static_cast<double>(t.endpointLinks), "",
          Better::Neither, shape);
    long long transceivers = 0;
    // The cables come from the hall's runs (/hall, cable_lengths "layout") or from the network
    // section's two typical lengths; either way the media follow the switch's cages and the NIC.
    const bool hallRuns = n.hall.valid && n.hall.pricesFabric;
    const MetricInputs cableInputs =
        hallRuns
            ? metricInputs<"/hall", "/network/switch", "/network/nic", "/network/topology",
                           "/compute/node_count">()
            : metricInputs<"/network/cable_length_in_row_m", "/network/cable_length_across_rows_m",
                           "/network/switch", "/network/nic", "/hall/cable_lengths">();
    const MetricInputs fabricInputs =
        hallRuns ? metricInputs<"/network/switch", "/network/nic", "/hall">()
                 : metricInputs<"/network/switch", "/network/nic", "/network/cable_length_in_row_m",
                                "/network/cable_length_across_rows_m">();
    thread_local MetricText key, label; // dynamic keys and labels without allocating
    for (const auto& c : t.cables) {
        e.add(key({"network.cables_", c.linkClass}),
              label({"Cables ", c.linkClass, " (", c.cableKind, ")"}),
              static_cast<double>(c.cables), "", Better::Neither, cableInputs);
        transceivers += c.transceivers;
    }
    e.add("network.transceivers", "Optical transceivers", static_cast<double>(transceivers), "",
          Better::Neither, cableInputs);
    e.add("network.power_kw", "Fabric power (switches, NICs, optics)", t.powerW / 1000.0, "kW",
          Better::Lower, fabricInputs);
    e.add("network.capex_usd", "Fabric cost (switches, NICs, cables, optics)", t.costUsd, "USD",
          Better::Lower, fabricInputs);
    e.add("network.bisection_gbps", "Bisection bandwidth (closed form)", t.fullBisectionGbps,
          "Gbps", Better::Higher, shape);
    e.add("network.protocol_efficiency", "Wire efficiency at the MTU", n.wire.efficiency, "share",
          Better::Higher, metricInputs<"/network/protocol", "/network/mtu_bytes">());
    e.add("network.oversubscription_share", "Uplink share under oversubscription",
          n.oversubscriptionShare, "share", Better::Higher,
          metricInputs<"/network/oversubscription">());
    e.add("network.routing_share", "Uplink share delivered by routing", n.routingShare, "share",
          Better::Higher, metricInputs<"/network/routing">());
    e.add("network.ecmp_share", "Uplink share, static ECMP", n.ecmpShare, "share", Better::Higher,
          metricInputs<"/network/routing">());
    e.add("network.multirail_share", "Uplink share, ECMP split over rails", n.multiRailShare,
          "share", Better::Higher, metricInputs<"/network/routing", "/network/rails">());
    e.add("network.adaptive_share", "Uplink share, adaptive routing", n.adaptiveShare, "share",
          Better::Higher, metricInputs<"/network/routing">());
    e.add("network.fabric_gbyte_per_s_per_gpu", "Fabric bandwidth per GPU (effective)",
          n.fabricGbytePerSPerGpu, "GB/s", Better::Higher, shape);
    e.add("network.scaleup_gbyte_per_s_per_gpu", "NVLink bandwidth per GPU (effective)",
          n.scaleUpGbytePerSPerGpu, "GB/s", Better::Higher,
          metricInputs<"/compute/gpu/scale_up_gbyte_per_s">());
    e.add("network.fabric_alpha_us", "Fabric step latency", n.fabricAlphaUs, "us", Better::Lower,
          metricInputs<"/network/nic", "/network/switch", "/network/cable_length_across_rows_m">());
    e.add("network.switch_hops", "Switches on the longest path", n.worstSwitchHops, "",
          Better::Lower, shape);
    for (const auto& c : n.collectives) {
        if (!c.available)
            continue;
        const CollectiveText& text = collectiveText(c.op, c.algorithm);
        e.add(text.secondsKey, text.secondsLabel, c.seconds, "s", Better::Lower,
              metricInputs<"/network", "/compute/node_count">());
        e.add(text.busbwKey, text.busbwLabel, c.busbwGbytePerS, "GB/s", Better::Higher,
              metricInputs<"/network", "/compute/node_count">());
    }
    const MetricInputs gradient =
        metricInputs<"/network", "/workload/parameters_billion", "/workload/tensor_parallel",
                     "/workload/pipeline_parallel", "/workload/data_parallel">();
    {
        // The label says which algorithm ran (chosen or pinned), so it is never silent.
        thread_local MetricText algorithmLabel;
        e.add("collectives.gradient_allreduce_seconds",
              algorithmLabel({"Gradient all-reduce per step (",
                              collectiveAlgorithmName(n.gradientAllReduce.algorithm), ")"}),
              n.gradientAllReduce.seconds, "s", MetricTraits{Better::Lower, 3}, gradient);
    }
    e.add("collectives.gradient_allreduce_busbw_gbyte_per_s", "Gradient all-reduce bus bandwidth",
          n.gradientAllReduce.busbwGbytePerS, "GB/s", Better::Higher, gradient);
    // Tensor parallelism fills the node, so a data-parallel group has fewer ranks per node than
    // the world collectives above (and hierarchical phases have less to gain).
    e.add("collectives.gradient_allreduce_ranks_per_node", "Gradient all-reduce ranks per node",
          n.gradientRanksPerNode, "", Better::Neither, gradient);
}

} // namespace dct::solvers
