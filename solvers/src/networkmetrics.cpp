#include "dct/solvers/networkmetrics.h"

#include <string>

namespace dct::solvers {

void addNetworkMetrics(Evaluation& e)
{
    const NetworkResult& n = e.network;
    const TopologyResult& t = n.topology;
    const std::vector<std::string> shape = {"/network/topology", "/network/tiers",
                                            "/network/planes", "/network/switch",
                                            "/network/oversubscription", "/compute/node_count"};
    e.add("network.planes", "Fabric planes", t.planes, "", shape);
    e.add("network.tiers", "Switch tiers", t.tiers, "", shape);
    e.add("network.endpoints", "Fabric endpoints (NIC ports)", static_cast<double>(t.endpoints),
          "", shape);
    e.add("network.nics", "NICs", static_cast<double>(t.nics), "", {"/network/rails"});
    for (const auto& c : t.tiersCounts) {
        const std::string tier = fabricTierName(c.tier);
        e.add("network." + tier + "_switches", "Switches, " + tier,
              static_cast<double>(c.switches), "", shape);
        e.add("network." + tier + "_ports_used", "Ports used, " + tier,
              static_cast<double>(c.portsUsed), "", shape);
        e.add("network." + tier + "_ports_free", "Ports free, " + tier,
              static_cast<double>(c.portsFree), "", shape);
    }
    e.add("network.switches", "Switches", static_cast<double>(t.switches), "", shape);
    e.add("network.switch_links", "Switch-to-switch links", static_cast<double>(t.switchLinks),
          "", shape);
    e.add("network.endpoint_links", "NIC-to-leaf links", static_cast<double>(t.endpointLinks), "",
          shape);
    long long transceivers = 0;
    for (const auto& c : t.cables) {
        e.add("network.cables_" + c.linkClass, "Cables " + c.linkClass + " (" + c.cableKind + ")",
              static_cast<double>(c.cables), "",
              {"/network/cable_length_in_row_m", "/network/cable_length_across_rows_m"});
        transceivers += c.transceivers;
    }
    e.add("network.transceivers", "Optical transceivers", static_cast<double>(transceivers), "",
          {"/network/cable_length_across_rows_m"});
    e.add("network.power_kw", "Fabric power (switches, NICs, optics)", t.powerW / 1000.0, "kW",
          {"/network/switch", "/network/nic"});
    e.add("network.capex_usd", "Fabric cost (switches, NICs, cables, optics)", t.costUsd, "USD",
          {"/network/switch", "/network/nic"});
    e.add("network.bisection_gbps", "Bisection bandwidth (closed form)", t.fullBisectionGbps,
          "Gbps", shape);
    e.add("network.protocol_efficiency", "Wire efficiency at the MTU", n.wire.efficiency, "",
          {"/network/protocol", "/network/mtu_bytes"});
    e.add("network.oversubscription_share", "Uplink share under oversubscription",
          n.oversubscriptionShare, "", {"/network/oversubscription"});
    e.add("network.routing_share", "Uplink share delivered by routing", n.routingShare, "",
          {"/network/routing"});
    e.add("network.ecmp_share", "Uplink share, static ECMP", n.ecmpShare, "",
          {"/network/routing"});
    e.add("network.multirail_share", "Uplink share, ECMP split over rails", n.multiRailShare, "",
          {"/network/routing", "/network/rails"});
    e.add("network.adaptive_share", "Uplink share, adaptive routing", n.adaptiveShare, "",
          {"/network/routing"});
    e.add("network.fabric_gbyte_per_s_per_gpu", "Fabric bandwidth per GPU (effective)",
          n.fabricGbytePerSPerGpu, "GB/s", shape);
    e.add("network.scaleup_gbyte_per_s_per_gpu", "NVLink bandwidth per GPU (effective)",
          n.scaleUpGbytePerSPerGpu, "GB/s", {"/compute/gpu/scale_up_gbyte_per_s"});
    e.add("network.fabric_alpha_us", "Fabric step latency", n.fabricAlphaUs, "us",
          {"/network/nic", "/network/switch", "/network/cable_length_across_rows_m"});
    e.add("network.switch_hops", "Switches on the longest path", n.worstSwitchHops, "", shape);
    for (const auto& c : n.collectives) {
        if (!c.available)
            continue;
        const std::string key = std::string("collectives.") + collectiveOpName(c.op) + "_" +
                                collectiveAlgorithmName(c.algorithm) + "_1gib";
        e.add(key + "_seconds",
              std::string(collectiveOpName(c.op)) + " " + collectiveAlgorithmName(c.algorithm) +
                  ", 1 GiB over all GPUs",
              c.seconds, "s", {"/network", "/compute/node_count"});
        e.add(key + "_busbw_gbyte_per_s",
              std::string(collectiveOpName(c.op)) + " " + collectiveAlgorithmName(c.algorithm) +
                  " bus bandwidth, 1 GiB",
              c.busbwGbytePerS, "GB/s", {"/network", "/compute/node_count"});
    }
    e.add("collectives.gradient_allreduce_seconds", "Gradient all-reduce per step",
          n.gradientAllReduce.seconds, "s", {"/network", "/workload/tensor_parallel"});
    e.add("collectives.gradient_allreduce_busbw_gbyte_per_s", "Gradient all-reduce bus bandwidth",
          n.gradientAllReduce.busbwGbytePerS, "GB/s", {"/network"});
}

} // namespace dct::solvers
