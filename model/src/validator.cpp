#include "dct/model/validator.h"

#include <cmath>
#include <string>

namespace dct::model {

namespace {

std::string num(double v)
{
    nlohmann::json j = v;
    if (std::floor(v) == v && std::fabs(v) < 1e15)
        j = static_cast<long long>(v);
    return j.dump();
}

} // namespace

Diagnostics validateScenario(const ResolvedScenario& r)
{
    Diagnostics d;
    const Scenario& s = r.scenario;
    const int gpus = r.gpuCount();

    // A product of nodes and GPUs per node beyond what the model holds (ranges allow 10^7 nodes
    // of up to 1,024 GPUs): refused before any count overflows.
    if (static_cast<long long>(s.compute.nodeCount) * r.gpusPerNode > ResolvedScenario::kMaxGpus)
        d.error("/compute/node_count",
                num(static_cast<double>(s.compute.nodeCount)) + " nodes of " + num(r.gpusPerNode) +
                    " GPUs exceed the " + num(static_cast<double>(ResolvedScenario::kMaxGpus)) +
                    " GPUs a cluster may have",
                "at most " + num(static_cast<double>(ResolvedScenario::kMaxGpus)) + " GPUs in all",
                "too-many-gpus");

    // Parallelism must tile the GPUs exactly.
    const auto& w = s.workload;
    const long long product =
        static_cast<long long>(r.dataParallel) * w.tensorParallel * w.pipelineParallel;
    if (product != gpus) {
        const long long modelParallel =
            static_cast<long long>(w.tensorParallel) * w.pipelineParallel;
        if (w.dataParallel > 0)
            d.error("/workload/data_parallel",
                    "data x tensor x pipeline parallel = " + num(static_cast<double>(product)) +
                        " does not equal the " + num(gpus) + " GPUs of the cluster",
                    "sizes whose product is " + num(gpus) +
                        " (or leave data_parallel at 0 to derive it)",
                    "parallelism");
        else
            d.error(w.pipelineParallel > 1 ? "/workload/pipeline_parallel"
                                           : "/workload/tensor_parallel",
                    "tensor x pipeline parallel = " + num(static_cast<double>(modelParallel)) +
                        " does not divide the " + num(gpus) +
                        " GPUs of the cluster, so no data-parallel size fits",
                    "a tensor x pipeline product that divides " + num(gpus) +
                        ", or a node count whose GPUs it divides",
                    "parallelism");
    }
    if (w.tensorParallel > r.gpusPerNode)
        d.warning("/workload/tensor_parallel",
                  "tensor parallelism of " + num(w.tensorParallel) + " spans more than one node",
                  "keep tensor_parallel <= " + num(r.gpusPerNode) +
                      " so that it stays on the scale-up interconnect",
                  "tensor-parallel-across-nodes");
    if (r.dataParallel > 0 && w.globalBatchSequences % r.dataParallel != 0)
        d.warning("/workload/global_batch_sequences",
                  "the global batch of " + num(w.globalBatchSequences) +
                      " sequences does not split evenly over " + num(r.dataParallel) +
                      " data-parallel ranks",
                  "a multiple of " + num(r.dataParallel), "batch-split");
    if (r.gpu.peakTflops(w.precision) <= 0.0)
        d.error("/workload/precision", "the GPU '" + r.gpu.id + "' has no peak for this precision",
                "a precision whose peak the catalog gives for this GPU", "precision");
    // Mixed-precision Adam keeps about 16 bytes per parameter (weights, gradients, master
    // weights, two moments); sharded over tensor and pipeline ranks (ZeRO not modelled).
    const double stateGb = w.parametersBillion * 16.0 / (w.tensorParallel * w.pipelineParallel);
    if (stateGb > r.gpu.memoryGb)
        d.warning("/workload/parameters_billion",
                  "model state of about " + num(std::round(stateGb)) +
                      " GB per GPU exceeds the GPU's " + num(r.gpu.memoryGb) + " GB",
                  "raise tensor_parallel or pipeline_parallel, or shard optimizer state", "memory");

    if (s.compute.gpusPerNode > 0 && s.compute.gpusPerNode != r.node.gpusPerNode)
        d.warning("/compute/gpus_per_node",
                  "differs from the node type's " + num(r.node.gpusPerNode) + " GPUs",
                  "remove it to take the node type's count", "gpus-per-node");

    // The network.
    const auto& n = s.network;
    const int mtu = n.mtuBytes;
    if (mtu != 256 && mtu != 512 && mtu != 1024 && mtu != 2048 && mtu != 4096)
        d.error("/network/mtu_bytes", "invalid RDMA MTU " + num(mtu),
                "256, 512, 1024, 2048 or 4096", "mtu");
    const bool ib = n.protocol == Protocol::Infiniband;
    if (ib && !r.nic.infiniband)
        d.error("/network/nic", "the NIC '" + r.nic.id + "' does not speak InfiniBand",
                "an InfiniBand-capable NIC, or protocol \"roce_v2\"", "protocol");
    if (!ib && !r.nic.ethernet)
        d.error("/network/nic", "the NIC '" + r.nic.id + "' does not speak Ethernet",
                "an Ethernet NIC, or protocol \"infiniband\"", "protocol");
    if ((r.fabricSwitch.protocol == Protocol::Infiniband) != ib)
        d.error("/network/switch",
                "the switch '" + r.fabricSwitch.id + "' is " +
                    (r.fabricSwitch.protocol == Protocol::Infiniband ? "InfiniBand" : "Ethernet") +
                    " but the fabric is " + (ib ? "InfiniBand" : "RoCE v2"),
                "a switch of the fabric's protocol", "protocol");
    if (r.rails % n.planes != 0 && n.topology == TopologyKind::MultiPlane)
        d.error("/network/planes",
                num(n.planes) + " planes do not divide the " + num(r.rails) + " rails per node",
                "a divisor of the rails", "planes");
    if (r.portBreakout > std::max(1, r.fabricSwitch.maxBreakout))
        d.error("/network/port_breakout",
                "the switch '" + r.fabricSwitch.id + "' splits a port into at most " +
                    num(std::max(1, r.fabricSwitch.maxBreakout)) + " logical ports, not " +
                    num(r.portBreakout),
                "0 (automatic), 1 (no breakout) or up to " +
                    num(std::max(1, r.fabricSwitch.maxBreakout)),
                "port-breakout");
    const double k = r.fabricPorts();
    const double endpointsPerPlane =
        static_cast<double>(s.compute.nodeCount) * r.rails / std::max(1, n.planes);
    const double maxThreeTier = k * k * k / 4.0;
    if (n.topology != TopologyKind::RailOnly && endpointsPerPlane > maxThreeTier)
        d.error("/compute/node_count",
                num(endpointsPerPlane) + " endpoints per plane exceed the " + num(maxThreeTier) +
                    " a 3-tier fat tree of " + num(k) + "-port switches can hold",
                "fewer nodes, more planes, or a switch of higher radix", "fabric-capacity");
    else if (n.tiers == 2 && endpointsPerPlane > k * k / 2.0)
        d.error("/network/tiers",
                num(endpointsPerPlane) + " endpoints per plane exceed the " + num(k * k / 2.0) +
                    " a 2-tier fat tree of " + num(k) + "-port switches can hold",
                "tiers 3 (or 0 to pick), more planes, or fewer nodes", "fabric-capacity");
    if (r.nic.rateGbps > r.fabricPortRateGbps() * 1.0001)
        d.warning(r.portBreakout > 1 ? "/network/port_breakout" : "/network/nic",
                  "the NIC's " + num(r.nic.rateGbps) + " Gb/s exceed the switch port's " +
                      num(r.fabricPortRateGbps()) + " Gb/s" +
                      (r.portBreakout > 1 ? " after a breakout of " + num(r.portBreakout) : ""),
                  r.portBreakout > 1 ? "a breakout that keeps the NIC's rate"
                                     : "a switch of at least the NIC's rate",
                  "rate-mismatch");

    // Racks.
    const auto& fac = s.facility;
    if (r.node.maxPowerKw > fac.rackPowerLimitKw)
        d.error("/facility/rack_power_limit_kw",
                "one " + r.node.id + " node (" + num(r.node.maxPowerKw) +
                    " kW) exceeds the rack power limit of " + num(fac.rackPowerLimitKw) + " kW",
                "a rack power limit of at least " + num(r.node.maxPowerKw) + " kW", "rack-power");
    if (r.node.heightU > fac.rackUnits)
        d.error("/facility/rack_units",
                "one node (" + num(r.node.heightU) + "U) does not fit a " + num(fac.rackUnits) +
                    "U rack",
                "at least " + num(r.node.heightU) + " rack units", "rack-height");

    // The site's climate: normals (an hourly year is built from them) or bins covering the year.
    double hours = 0.0;
    for (const auto& bin : r.site.climateBins)
        hours += bin.hours;
    const bool normals = r.site.climateNormals.present;
    if (!normals && r.site.climateBins.empty())
        d.warning("/site", "the site has no climate normals and no climate bins",
                  "climate_normals (monthly normals and design values) or climate_bins covering "
                  "8760 hours",
                  "climate");
    else if (!normals && std::fabs(hours - 8760.0) > 87.6)
        d.warning("/site/climate_bins",
                  "climate bins cover " + num(std::round(hours)) + " hours, not 8760",
                  "bins whose hours add up to a year", "climate");

    // Economics.
    const auto& e = s.economics;
    if (e.egressTbPerMonth > 0.0 && e.egressPricing.empty() && e.unmeteredPort.empty())
        d.warning("/economics/egress_tb_per_month",
                  "egress volume is set but neither a price table nor a port is",
                  "set economics.egress_pricing or economics.unmetered_port", "egress");
    return d;
}

} // namespace dct::model
