// Field tables of the catalog entry types. The numbers themselves live in data/catalog/*.json,
// each with its source; these tables say what each key means, its unit and accepted range.
#include "dct/model/cablespec.h"
#include "dct/model/coolingsystemspec.h"
#include "dct/model/egresspricing.h"
#include "dct/model/failureratespec.h"
#include "dct/model/gpuspec.h"
#include "dct/model/nicspec.h"
#include "dct/model/nodespec.h"
#include "dct/model/plantunitspec.h"
#include "dct/model/portoffer.h"
#include "dct/model/sitespec.h"
#include "dct/model/switchspec.h"

#include <algorithm>
#include <string>

namespace dct::model {

namespace f = fields;
using nlohmann::json;

double GpuSpec::peakTflops(Precision precision) const
{
    switch (precision) {
    case Precision::Fp8:
        return peakTflopsFp8;
    case Precision::Bf16:
        return peakTflopsBf16;
    case Precision::Fp16:
        return peakTflopsFp16;
    case Precision::Tf32:
        return peakTflopsTf32;
    case Precision::Fp64:
        return peakTflopsFp64;
    }
    return 0.0;
}

GpuSpec::AttentionRates GpuSpec::attentionRates(AttentionKernel kernel) const
{
    switch (kernel) {
    case AttentionKernel::Fused:
        return {attentionForwardEfficiency, attentionBackwardEfficiency};
    case AttentionKernel::Flash2:
        return {attentionForwardEfficiencyFlash2, attentionBackwardEfficiencyFlash2};
    case AttentionKernel::Flash3:
        return {attentionForwardEfficiencyFlash3, attentionBackwardEfficiencyFlash3};
    case AttentionKernel::Triton:
        return {attentionForwardEfficiencyTriton, attentionBackwardEfficiencyTriton};
    }
    return {};
}

const FieldTable<GpuSpec>& GpuSpec::fields()
{
    using S = GpuSpec;
    static const FieldTable<S> table = {
        f::text<S>("name", &S::name, "Display name"),
        f::text<S>("vendor", &S::vendor, "Manufacturer"),
        // Floors below the smallest data-center accelerators (NVIDIA T4: 70 W, 16 GB,
        // 0.32 TB/s, 585 MHz base clock; consumer GPUs' FP64: about 1 TFLOP/s).
        f::number<S>("tdp_w", &S::tdpW, "W", "Thermal design power (board power limit)", 10.0,
                     5000.0),
        f::number<S>("idle_w", &S::idleW, "W", "Power when idle", 0.0, 5000.0),
        f::number<S>("memory_gb", &S::memoryGb, "GB", "High-bandwidth memory", 1.0, 10000.0),
        f::number<S>("memory_bandwidth_tbps", &S::memoryBandwidthTbps, "TB/s", "Memory bandwidth",
                     0.1, 100.0),
        // A peak is 0 when the GPU lacks the precision (an A100 has no FP8).
        f::numberOrZero<S>("peak_tflops_fp8", &S::peakTflopsFp8, "TFLOP/s",
                           "Dense FP8 peak; 0 when the GPU has none", 0.1, 1e5),
        f::numberOrZero<S>("peak_tflops_bf16", &S::peakTflopsBf16, "TFLOP/s",
                           "Dense BF16 peak; 0 when the GPU has none", 0.1, 1e5),
        f::numberOrZero<S>("peak_tflops_fp16", &S::peakTflopsFp16, "TFLOP/s",
                           "Dense FP16 peak; 0 when the GPU has none", 0.1, 1e5),
        f::numberOrZero<S>("peak_tflops_tf32", &S::peakTflopsTf32, "TFLOP/s",
                           "Dense TF32 peak; 0 when the GPU has none", 0.1, 1e5),
        f::numberOrZero<S>("peak_tflops_fp64", &S::peakTflopsFp64, "TFLOP/s",
                           "FP64 tensor peak; 0 when the GPU has none", 0.1, 1e5),
        // Floor 1 GB/s, one PCIe 3.0 lane: a GPU without NVLink still talks over PCIe.
        f::number<S>("scale_up_gbyte_per_s", &S::scaleUpGbytePerS, "GB/s",
                     "Scale-up (NVLink, Infinity Fabric) bandwidth per GPU per direction", 1.0,
                     1e5),
        f::numberOrZero<S>(
            "scale_up_link_efficiency", &S::scaleUpLinkEfficiency, "",
            "Share of the scale-up links' rate that carries a collective's data, as "
            "measured for the link (CRC and protocol overhead); 0: NVLink's 16-byte "
            "header a 128-byte write times NCCL's LL128 lines (120 of 128 bytes); else at least 5%",
            0.05, 1.0),
        f::number<S>("max_operating_temp_c", &S::maxOperatingTempC, "°C",
                     "Highest GPU temperature at full clocks", 0.0, 150.0),
        f::number<S>("slowdown_temp_c", &S::slowdownTempC, "°C",
                     "Temperature at which hardware slowdown engages", 0.0, 150.0),
        f::number<S>("shutdown_temp_c", &S::shutdownTempC, "°C", "Thermal shutdown temperature",
                     0.0, 150.0),
        f::number<S>("base_clock_mhz", &S::baseClockMhz, "MHz", "Base (guaranteed) graphics clock",
                     100.0, 1e5),
        f::number<S>("boost_clock_mhz", &S::boostClockMhz, "MHz",
                     "Maximum boost graphics clock (clock factor 1)", 100.0, 1e5),
        f::number<S>("thermal_resistance_air_c_per_w", &S::thermalResistanceAirCPerW, "K/W",
                     "Server inlet air to GPU temperature rise per W (heat sink and in-chassis "
                     "preheat)",
                     0.0, 10.0),
        f::number<S>("thermal_resistance_liquid_c_per_w", &S::thermalResistanceLiquidCPerW, "K/W",
                     "Cold-plate coolant to GPU temperature rise per W", 0.0, 10.0),
        f::number<S>("price_usd", &S::priceUsd, "USD", "Street price of one GPU", 0.0, 1e7),
        // Floor 0.05: no accelerator sold for training multiplies matrices at 5% of its peak.
        f::number<S>("matmul_efficiency", &S::matmulEfficiency, "",
                     "Achievable share of the dense peak on large matrix multiplications "
                     "(measured GEMM throughput / datasheet peak)",
                     0.05, 1.0),
        // 0 (the default): not measured, the BF16 share is taken; otherwise floor 0.05 as above.
        f::numberOrZero<S>("matmul_efficiency_fp8", &S::matmulEfficiencyFp8, "",
                           "Achievable share of the dense FP8 peak on large FP8 matrix "
                           "multiplications (measured throughput / datasheet peak); 0: "
                           "matmul_efficiency",
                           0.05, 1.0, ZeroMeaning::Automatic),
        f::numberOrZero<S>("matmul_efficiency_mxfp8", &S::matmulEfficiencyMxfp8, "",
                           "Achievable share of the dense FP8 peak on MXFP8 matrix "
                           "multiplications (32-element block scales applied by the tensor "
                           "cores); 0: the GPU has no MXFP8 tensor cores",
                           0.05, 1.0, ZeroMeaning::None),
        f::integer<S>("sm_count", &S::smCount, "",
                      "Streaming multiprocessors: one wave of GEMM output tiles; 0 leaves matrix "
                      "shapes out of the step model",
                      0, 100000),
        f::integer<S>("gemm_tile_m", &S::gemmTileM, "",
                      "Rows of the GEMM output tile one SM computes at a time", 16, 1024),
        f::integer<S>("gemm_tile_n", &S::gemmTileN, "",
                      "Columns of the GEMM output tile one SM computes at a time", 16, 1024),
        // Floor 0.05 as for matmul_efficiency: a streaming copy reaches far more of HBM.
        f::number<S>("memory_bandwidth_efficiency", &S::memoryBandwidthEfficiency, "",
                     "Achievable share of the memory bandwidth on large streaming transfers", 0.05,
                     1.0),
        // 0 (the default) runs fused attention at the matrix rate; otherwise floor 0.05.
        f::number<S>(
            "attention_forward_efficiency", &S::attentionForwardEfficiency, "",
            "Achievable share of the dense peak of a fused attention kernel's forward pass "
            "(causal, FLOPs it computes); 0: the matmul efficiency",
            0.0, 1.0),
        f::number<S>("attention_backward_efficiency", &S::attentionBackwardEfficiency, "",
                     "Achievable share of the dense peak of a fused attention kernel's backward "
                     "pass; 0: the matmul efficiency",
                     0.0, 1.0),
        f::number<S>("attention_forward_efficiency_fp8", &S::attentionForwardEfficiencyFp8, "",
                     "Achievable share of the dense FP8 peak of a fused attention kernel's "
                     "forward pass with Q, K and V in FP8; 0: not measured (BF16 rates)",
                     0.0, 1.0),
        f::number<S>("attention_backward_efficiency_fp8", &S::attentionBackwardEfficiencyFp8, "",
                     "Achievable share of the dense FP8 peak of a fused attention kernel's "
                     "backward pass in FP8; 0: not measured (BF16 rates)",
                     0.0, 1.0),
        f::number<S>("attention_forward_efficiency_flash2", &S::attentionForwardEfficiencyFlash2,
                     "",
                     "Achievable share of the dense BF16 peak of FlashAttention-2's forward pass "
                     "(causal, FLOPs it computes), for workloads with attention_kernel "
                     "\"flash2\"; 0: not measured (the fused attention's rates)",
                     0.0, 1.0),
        f::number<S>("attention_backward_efficiency_flash2", &S::attentionBackwardEfficiencyFlash2,
                     "",
                     "Achievable share of the dense BF16 peak of FlashAttention-2's backward "
                     "pass; 0: not measured (the fused attention's rates)",
                     0.0, 1.0),
        f::number<S>("attention_forward_efficiency_flash3", &S::attentionForwardEfficiencyFlash3,
                     "",
                     "Achievable share of the dense BF16 peak of FlashAttention-3's forward pass "
                     "(causal, FLOPs it computes), for workloads with attention_kernel "
                     "\"flash3\"; 0: not measured (the fused attention's rates)",
                     0.0, 1.0),
        f::number<S>("attention_backward_efficiency_flash3", &S::attentionBackwardEfficiencyFlash3,
                     "",
                     "Achievable share of the dense BF16 peak of FlashAttention-3's backward "
                     "pass; 0: not measured (the fused attention's rates)",
                     0.0, 1.0),
        f::number<S>("attention_forward_efficiency_triton", &S::attentionForwardEfficiencyTriton,
                     "",
                     "Achievable share of the dense BF16 peak of FlashAttention's Triton "
                     "implementation, forward (causal, FLOPs it computes), for workloads with "
                     "attention_kernel \"triton\"; 0: not measured (the fused attention's rates)",
                     0.0, 1.0),
        f::number<S>("attention_backward_efficiency_triton", &S::attentionBackwardEfficiencyTriton,
                     "",
                     "Achievable share of the dense BF16 peak of FlashAttention's Triton "
                     "implementation, backward; 0: not measured (the fused attention's rates)",
                     0.0, 1.0),
    };
    return table;
}

const FieldTable<NodeSpec>& NodeSpec::fields()
{
    using S = NodeSpec;
    static const FieldTable<S> table = {
        f::text<S>("name", &S::name, "Display name"),
        f::text<S>("vendor", &S::vendor, "Manufacturer"),
        f::text<S>("gpu", &S::gpu, "Catalog id of the GPU the node ships with"),
        f::text<S>("nic", &S::nic, "Catalog id of its scale-out NICs"),
        f::integer<S>("gpus_per_node", &S::gpusPerNode, "", "GPUs in one node", 1, 1024),
        f::integer<S>("compute_nics", &S::computeNics, "", "Scale-out NICs (rails) per node", 0,
                      1024),
        f::integer<S>("scale_up_domain_gpus", &S::scaleUpDomainGpus, "",
                      "GPUs joined by the scale-up interconnect", 1, 100000),
        // Floor 0.1 kW: below the nameplate of any server holding a GPU.
        f::number<S>("max_power_kw", &S::maxPowerKw, "kW", "Nameplate maximum system power", 0.1,
                     1000.0),
        f::number<S>("base_power_kw", &S::basePowerKw, "kW",
                     "Power of everything but the GPUs at load (CPUs, memory, NICs, fans)", 0.0,
                     1000.0),
        f::number<S>("idle_power_kw", &S::idlePowerKw, "kW", "Whole-node idle power", 0.0, 1000.0),
        f::integer<S>("height_u", &S::heightU, "U", "Rack units", 1, 60),
        f::number<S>("price_usd", &S::priceUsd, "USD", "Price of the node with its GPUs", 0.0, 1e9),
        f::number<S>("max_inlet_temp_c", &S::maxInletTempC, "°C",
                     "Highest inlet air temperature of the node's operating range", 15.0, 60.0),
        f::number<S>("host_memory_gb", &S::hostMemoryGb, "GB",
                     "Host memory of the node (CPU DRAM or LPDDR), where offloaded activations go; "
                     "0: not known",
                     0.0, 1e6),
        f::number<S>("host_bandwidth_gb_s", &S::hostBandwidthGbS, "GB/s",
                     "Each GPU's bandwidth to host memory in one direction while every GPU of "
                     "the node copies at once (its PCIe or NVLink-C2C link, and the host memory "
                     "behind it); 0: not known",
                     0.0, 1e5),
        f::number<S>("host_launch_us", &S::hostLaunchUs, "us",
                     "The host's time per kernel a training framework launches on a GPU (its "
                     "Python, PyTorch and driver work around each launch): where a layer's "
                     "kernels are shorter, the GPUs wait for the CPU",
                     0.1, 1e5),
        f::number<S>("nvls_reduce_gbyte_per_s", &S::nvlsReduceGbytePerS, "GB/s",
                     "What the NVSwitch chips of the node's NVLink domain add up in the switch "
                     "(NVLink SHARP) per second, all chips together, in operand bytes: an NVLS "
                     "reduction over g GPUs runs at most this over g - 1; 0: not known (the "
                     "NVLink bandwidth alone bounds NVLS)",
                     0.0, 1e7),
    };
    return table;
}

const FieldTable<NicSpec>& NicSpec::fields()
{
    using S = NicSpec;
    static const FieldTable<S> table = {
        f::text<S>("name", &S::name, "Display name"),
        f::text<S>("vendor", &S::vendor, "Manufacturer"),
        // Floor 1 Gb/s: the slowest Ethernet port a server ships with.
        f::number<S>("rate_gbps", &S::rateGbps, "Gb/s", "Line rate per port", 1.0, 1e5),
        f::integer<S>("ports", &S::ports, "", "Network ports", 1, 16),
        f::boolean<S>("infiniband", &S::infiniband, "Speaks InfiniBand"),
        f::boolean<S>("ethernet", &S::ethernet, "Speaks Ethernet (RoCE v2)"),
        f::number<S>("latency_us", &S::latencyUs, "µs", "Adapter latency, one end", 0.0, 100.0),
        f::number<S>("power_w", &S::powerW, "W", "Typical power", 0.0, 1000.0),
        f::number<S>("price_usd", &S::priceUsd, "USD", "Price", 0.0, 1e6),
        // NCCL's LL and LL128 protocols poll flags stored beside the data, so they need a
        // transport that lands each 8-byte (LL) or 128-byte (LL128) store whole and in order;
        // NCCL enables LL128 only where that is known to hold (docs/collectives.md, "Protocols
        // by transport"). Absent: true, as NCCL over InfiniBand or RoCE verbs runs both.
        f::boolean<S>("ll_across_nodes", &S::llAcrossNodes,
                      "NCCL runs the LL protocol between nodes over this adapter's transport"),
        f::boolean<S>("ll128_across_nodes", &S::ll128AcrossNodes,
                      "NCCL runs the LL128 protocol between nodes over this adapter's transport"),
    };
    return table;
}

const FieldTable<SwitchSpec>& SwitchSpec::fields()
{
    using S = SwitchSpec;
    static const FieldTable<S> table = {
        f::text<S>("name", &S::name, "Display name"),
        f::text<S>("vendor", &S::vendor, "Manufacturer"),
        f::choice<S, Protocol>(
            "protocol", &S::protocol,
            {{Protocol::Infiniband, "infiniband"}, {Protocol::RoceV2, "ethernet"}},
            "Fabric the switch belongs to"),
        f::integer<S>("ports", &S::ports, "", "Ports at the full rate (radix)", 2, 4096),
        // Floor 1 Gb/s: the slowest port of a data-center switch.
        f::number<S>("port_rate_gbps", &S::portRateGbps, "Gb/s", "Rate of one port", 1.0, 1e5),
        f::integer<S>("max_breakout", &S::maxBreakout, "",
                      "Logical ports one port splits into at most (800G as 2 x 400G: 2)", 1, 8),
        f::number<S>("latency_us", &S::latencyUs, "µs", "Port-to-port latency", 0.0, 100.0),
        f::number<S>("power_w", &S::powerW, "W", "Typical power without optics", 0.0, 1e5),
        f::integer<S>("ports_per_cage", &S::portsPerCage, "",
                      "Ports sharing one pluggable cage (twin-port OSFP: 2)", 1, 8),
        f::integer<S>("height_u", &S::heightU, "U", "Rack units", 1, 60),
        f::boolean<S>("in_network_reduction", &S::inNetworkReduction,
                      "Reduces in the switch (SHARP and the like)"),
        f::number<S>("price_usd", &S::priceUsd, "USD", "Price", 0.0, 1e8),
    };
    return table;
}

const FieldTable<CableSpec>& CableSpec::fields()
{
    using S = CableSpec;
    static const FieldTable<S> table = {
        f::text<S>("name", &S::name, "Display name"),
        f::choice<S, CableKind>("kind", &S::cableKind,
                                {{CableKind::Dac, "dac"},
                                 {CableKind::Aec, "aec"},
                                 {CableKind::Aoc, "aoc"},
                                 {CableKind::Transceiver, "transceiver"}},
                                "Cable family"),
        // Floors 1 Gb/s (the slowest Ethernet link) and 0.1 m (shorter than any DAC, 0.5 m).
        f::number<S>("rate_gbps", &S::rateGbps, "Gb/s", "Rate", 1.0, 1e5),
        f::number<S>("reach_m", &S::reachM, "m", "Longest supported run", 0.1, 1e5),
        f::number<S>("power_w", &S::powerW, "W", "Power per cable or per transceiver", 0.0, 1000.0),
        f::number<S>("price_usd", &S::priceUsd, "USD", "Price per cable or per transceiver", 0.0,
                     1e6),
        f::choice<S, CableMedium>(
            "medium", &S::medium,
            {{CableMedium::Copper, "copper"},
             {CableMedium::Multimode, "multimode"},
             {CableMedium::Singlemode, "singlemode"}},
            "What carries the signal: twinax, multimode or single-mode fiber"),
        // 0-1000 ns: a retimer or a DSP adds tens of ns; nothing pluggable adds a microsecond.
        f::number<S>("latency_ns", &S::latencyNs, "ns",
                     "Latency the cable's or transceiver pair's electronics add, beyond "
                     "propagation",
                     0.0, 1000.0),
        f::number<S>("fiber_usd_per_m", &S::fiberUsdPerM, "USD/m",
                     "Price per metre of the fiber between two transceivers", 0.0, 1000.0),
        // Splitters sold: 1:2 (NVIDIA MCP7Y00 800G to 2 x 400G) and 1:4 (to 4 x 200G).
        f::integer<S>("far_plugs", &S::farPlugs, "",
                      "Plugs at the far end: 1 straight, 2 or 4 a splitter cable", 1, 8),
        f::text<S>("optics", &S::optics,
                   "Transceivers: optical interface of one port (SR4, DR4, FR4); both ends of a "
                   "fiber carry the same"),
        f::choice<S, CableProtocols>("protocols", &S::protocols,
                                     {{CableProtocols::Any, "any"},
                                      {CableProtocols::Ethernet, "ethernet"},
                                      {CableProtocols::Infiniband, "infiniband"}},
                                     "Switch protocols the part is sold for"),
    };
    return table;
}

const FieldTable<CoolingSystemSpec>& CoolingSystemSpec::fields()
{
    using S = CoolingSystemSpec;
    static const FieldTable<S> table = {
        f::text<S>("name", &S::name, "Display name"),
        f::choice<S, CoolingType>(
            "type", &S::type,
            {{CoolingType::AirCrac, "air_crac"}, {CoolingType::LiquidD2cRdhx, "d2c_rdhx"}},
            "Cooling family"),
        // Floor 1 kW: below what any cooling system removes from one rack.
        f::number<S>("max_rack_kw", &S::maxRackKw, "kW", "Heat one rack may reject", 1.0, 1000.0),
        f::numberOrZero<S>("max_row_kw", &S::maxRowKw, "kW",
                           "Heat one row's units (an in-row CDU) remove; 0 when the system has no "
                           "row-level unit (room CRACs/CRAHs)",
                           1.0, 1e5),
        f::number<S>("liquid_capture_fraction", &S::liquidCaptureFraction, "",
                     "Share of IT heat captured by liquid at the cold plates", 0.0, 1.0),
        f::number<S>("supply_air_temp_c", &S::supplyAirTempC, "°C", "Air to the server inlets", 5.0,
                     45.0),
        f::number<S>("chilled_water_supply_c", &S::chilledWaterSupplyC, "°C",
                     "Chilled water supply", 2.0, 30.0),
        f::number<S>("liquid_supply_temp_c", &S::liquidSupplyTempC, "°C",
                     "Coolant to the cold plates", 5.0, 60.0),
        f::number<S>("fan_power_w_per_kw", &S::fanPowerWPerKw, "W/kW",
                     "Air-moving power per kW of heat carried by air", 0.0, 1000.0),
        f::number<S>("pump_power_w_per_kw", &S::pumpPowerWPerKw, "W/kW",
                     "Pumping power per kW of heat carried by water", 0.0, 1000.0),
        // Floor 1: below it a chiller spends more power than it moves heat; ASHRAE 90.1's
        // minimum for air-cooled chillers is a COP of about 2.9. The chiller power is
        // heat / COP.
        f::number<S>("chiller_cop_rated", &S::chillerCopRated, "",
                     "Chiller COP at rated condenser temperature and full load", 1.0, 30.0),
        f::number<S>("chiller_rated_condenser_c", &S::chillerRatedCondenserC, "°C",
                     "Condenser entering temperature of the COP rating", 0.0, 60.0),
        f::number<S>("chiller_lift_independent_share", &S::chillerLiftIndependentShare, "",
                     "Share of the chiller's rated input that does not fall with the lift (0: "
                     "the rated share of the Carnot COP at every lift)",
                     0.0, 0.9),
        f::number<S>("economizer_approach_c", &S::economizerApproachC, "°C",
                     "Approach of the free-cooling heat exchanger", 0.0, 30.0),
        f::number<S>("tower_design_approach_c", &S::towerDesignApproachC, "°C",
                     "Cooling towers: approach at the tower's rating (78 F wet bulb, the "
                     "condenser water range); off it the tower's physics sets the approach",
                     0.5, 20.0),
        f::number<S>("heat_rejection_w_per_kw", &S::heatRejectionWPerKw, "W/kW",
                     "Tower or dry-cooler fans per kW rejected", 0.0, 1000.0),
        f::boolean<S>("evaporative_heat_rejection", &S::evaporativeHeatRejection,
                      "Heat goes out through a cooling tower (limited by the wet bulb) instead of "
                      "dry coolers or air-cooled condensers (limited by the dry bulb)"),
        f::number<S>("bypass_air_fraction", &S::bypassAirFraction, "",
                     "Share of the supplied air that bypasses the servers (fan air flow is the "
                     "servers' over 1 - bypass)",
                     0.0, 0.9),
        f::boolean<S>("economizer_available", &S::economizerAvailable,
                      "The plant has a free-cooling path; /cooling/economizer uses it"),
        f::number<S>("cycles_of_concentration", &S::cyclesOfConcentration, "",
                     "Cooling tower cycles of concentration (blowdown = evaporation / (C - 1))",
                     1.1, 100.0),
        f::number<S>("drift_fraction", &S::driftFraction, "",
                     "Cooling tower drift, share of the circulating water", 0.0, 0.01),
        f::number<S>("condenser_water_range_c", &S::condenserWaterRangeC, "°C",
                     "Cooling tower water temperature range (return - supply)", 0.5, 30.0),
        f::number<S>("adiabatic_effectiveness", &S::adiabaticEffectiveness, "",
                     "Dry coolers: saturation effectiveness of adiabatic pre-cooling (0: none)",
                     0.0, 1.0),
        f::number<S>("adiabatic_threshold_c", &S::adiabaticThresholdC, "°C",
                     "Dry coolers: dry bulb above which the adiabatic pre-cooling runs", -50.0,
                     60.0),
        f::number<S>("dry_cooler_air_rise_c", &S::dryCoolerAirRiseC, "°C",
                     "Dry coolers: air temperature rise across the coil", 1.0, 40.0),
        f::number<S>("cdu_capacity_kw", &S::cduCapacityKw, "kW",
                     "Heat one coolant distribution unit moves (0: no CDUs)", 0.0, 1e5),
        f::number<S>("coolant_rise_c", &S::coolantRiseC, "°C",
                     "Coolant temperature rise across the cold plates", 1.0, 40.0),
        f::number<S>("coolant_loop_head_kpa", &S::coolantLoopHeadKpa, "kPa",
                     "Pressure the CDU pumps overcome (cold plates, manifolds, hoses)", 0.0,
                     2000.0),
        f::number<S>("coolant_pump_efficiency", &S::coolantPumpEfficiency, "",
                     "CDU pump and motor efficiency", 0.05, 1.0),
        f::number<S>("capex_usd_per_kw", &S::capexUsdPerKw, "USD/kW",
                     "Plant cost per kW of IT heat", 0.0, 1e6),
        // Floor units: 5 m is beyond any single CDU, CRAH or rear door on a data hall floor.
        f::number<S>("cdu_width_m", &S::cduWidthM, "m",
                     "Floor footprint of one CDU along its row (0: CDUs take no floor)", 0.0, 5.0),
        f::number<S>("cdu_depth_m", &S::cduDepthM, "m", "Floor footprint of one CDU across its row",
                     0.0, 5.0),
        f::number<S>("rdhx_depth_m", &S::rdhxDepthM, "m",
                     "Depth a rear-door heat exchanger adds to each rack (0: no rear doors)", 0.0,
                     1.0),
        f::number<S>("crah_capacity_kw", &S::crahCapacityKw, "kW",
                     "Heat one room air unit (CRAH/CRAC) removes (0: no room units)", 0.0, 1e4),
        f::number<S>("crah_width_m", &S::crahWidthM, "m",
                     "Floor footprint of one room air unit along its wall", 0.0, 5.0),
        f::number<S>("crah_depth_m", &S::crahDepthM, "m",
                     "Floor footprint of one room air unit out from its wall", 0.0, 5.0),
    };
    return table;
}

namespace {

std::string readClimateBins(SiteSpec& s, const json& j)
{
    const std::string accepted =
        "an array of objects {\"dry_bulb_c\": number, \"wet_bulb_c\": number, \"hours\": "
        "number >= 0}";
    if (!j.is_array())
        return accepted;
    std::vector<ClimateBin> bins;
    for (const auto& b : j) {
        if (!b.is_object() || !b.contains("dry_bulb_c") || !b.contains("hours") ||
            !b["dry_bulb_c"].is_number() || !b["hours"].is_number() ||
            b["hours"].get<double>() < 0.0 ||
            (b.contains("wet_bulb_c") && !b["wet_bulb_c"].is_number()))
            return accepted;
        for (auto it = b.begin(); it != b.end(); ++it)
            if (it.key() != "dry_bulb_c" && it.key() != "wet_bulb_c" && it.key() != "hours")
                return accepted + "; unknown key '" + it.key() + "'";
        ClimateBin bin;
        bin.dryBulbC = b["dry_bulb_c"].get<double>();
        bin.wetBulbC = b.value("wet_bulb_c", bin.dryBulbC);
        bin.hours = b["hours"].get<double>();
        bins.push_back(bin);
    }
    s.climateBins = std::move(bins);
    return {};
}

std::string readClimateNormals(SiteSpec& s, const json& j)
{
    const std::string accepted =
        "null or an object {\"tmax_c\", \"tmin_c\", \"dew_point_c\": arrays of 12 monthly "
        "numbers (degC, January first, tmin_c <= tmax_c), \"design_dry_bulb_c\", "
        "\"design_wet_bulb_c\", \"heating_dry_bulb_c\": numbers (degC, heating <= coldest "
        "tmin_c, design_dry_bulb_c >= warmest tmax_c, design_wet_bulb_c <= design_dry_bulb_c), "
        "optional \"seed\": integer >= 0}";
    if (j.is_null()) {
        s.climateNormals = ClimateNormals{};
        return {};
    }
    if (!j.is_object())
        return accepted;
    ClimateNormals n;
    n.present = true;
    auto readMonths = [&](const char* key, std::array<double, 12>& out) {
        if (!j.contains(key) || !j[key].is_array() || j[key].size() != 12)
            return false;
        for (std::size_t i = 0; i < 12; ++i) {
            if (!j[key][i].is_number())
                return false;
            out[i] = j[key][i].get<double>();
            if (out[i] < -90.0 || out[i] > 60.0)
                return false;
        }
        return true;
    };
    auto readNumber = [&](const char* key, double& out) {
        if (!j.contains(key) || !j[key].is_number())
            return false;
        out = j[key].get<double>();
        return out >= -90.0 && out <= 60.0;
    };
    if (!readMonths("tmax_c", n.tmaxC) || !readMonths("tmin_c", n.tminC) ||
        !readMonths("dew_point_c", n.dewPointC) ||
        !readNumber("design_dry_bulb_c", n.designDryBulbC) ||
        !readNumber("design_wet_bulb_c", n.designWetBulbC) ||
        !readNumber("heating_dry_bulb_c", n.heatingDryBulbC))
        return accepted;
    if (j.contains("seed")) {
        if (!j["seed"].is_number_integer() || j["seed"].get<long long>() < 0 ||
            j["seed"].get<long long>() > 2147483647LL)
            return accepted;
        n.seed = j["seed"].get<int>();
    }
    for (auto it = j.begin(); it != j.end(); ++it)
        if (it.key() != "tmax_c" && it.key() != "tmin_c" && it.key() != "dew_point_c" &&
            it.key() != "design_dry_bulb_c" && it.key() != "design_wet_bulb_c" &&
            it.key() != "heating_dry_bulb_c" && it.key() != "seed")
            return accepted + "; unknown key '" + it.key() + "'";
    double warmest = n.tmaxC[0];
    double coldest = n.tminC[0];
    for (std::size_t i = 0; i < 12; ++i) {
        if (n.tminC[i] > n.tmaxC[i])
            return accepted + "; tmin_c above tmax_c in month " + std::to_string(i + 1);
        warmest = std::max(warmest, n.tmaxC[i]);
        coldest = std::min(coldest, n.tminC[i]);
    }
    if (n.designDryBulbC < warmest || n.heatingDryBulbC > coldest ||
        n.designWetBulbC > n.designDryBulbC)
        return accepted;
    s.climateNormals = n;
    return {};
}

json writeClimateNormals(const SiteSpec& s)
{
    const ClimateNormals& n = s.climateNormals;
    if (!n.present)
        return nullptr;
    auto months = [](const std::array<double, 12>& a) {
        json out = json::array();
        for (double v : a)
            out.push_back(v);
        return out;
    };
    return {{"tmax_c", months(n.tmaxC)},
            {"tmin_c", months(n.tminC)},
            {"dew_point_c", months(n.dewPointC)},
            {"design_dry_bulb_c", n.designDryBulbC},
            {"design_wet_bulb_c", n.designWetBulbC},
            {"heating_dry_bulb_c", n.heatingDryBulbC},
            {"seed", n.seed}};
}

/** Reads an array of \a count positive factors (or an empty array / null: flat). */
std::string readFactors(std::vector<double>& out, const json& j, std::size_t count)
{
    const std::string accepted = "null, [] or an array of " + std::to_string(count) +
                                 " numbers in (0, 10], each over the annual mean";
    if (j.is_null()) {
        out.clear();
        return {};
    }
    if (!j.is_array() || (!j.empty() && j.size() != count))
        return accepted;
    std::vector<double> factors;
    for (const auto& v : j) {
        if (!v.is_number() || v.get<double>() <= 0.0 || v.get<double>() > 10.0)
            return accepted;
        factors.push_back(v.get<double>());
    }
    out = std::move(factors);
    return {};
}

json writeFactors(const std::vector<double>& factors)
{
    json a = json::array();
    for (double v : factors)
        a.push_back(v);
    return a;
}

std::string readTariff(SiteSpec& s, const json& j)
{
    const std::string accepted =
        "null or an object {\"peak_usd_per_kwh\", \"off_peak_usd_per_kwh\": numbers in [0, 10], "
        "\"peak_start_hour\": integer 0..23, \"peak_end_hour\": integer after it, up to 24, "
        "\"demand_usd_per_kw_month\": number in [0, 1000]}";
    if (j.is_null()) {
        s.tariff = Tariff{};
        return {};
    }
    if (!j.is_object())
        return accepted;
    for (auto it = j.begin(); it != j.end(); ++it)
        if (it.key() != "peak_usd_per_kwh" && it.key() != "off_peak_usd_per_kwh" &&
            it.key() != "peak_start_hour" && it.key() != "peak_end_hour" &&
            it.key() != "demand_usd_per_kw_month")
            return accepted + "; unknown key '" + it.key() + "'";
    auto number = [&](const char* key, double high, double& out) {
        if (!j.contains(key) || !j[key].is_number())
            return false;
        out = j[key].get<double>();
        return out >= 0.0 && out <= high;
    };
    auto hour = [&](const char* key, int low, int high, int& out) {
        if (!j.contains(key) || !j[key].is_number_integer())
            return false;
        const long long v = j[key].get<long long>();
        if (v < low || v > high)
            return false;
        out = static_cast<int>(v);
        return true;
    };
    Tariff t;
    t.present = true;
    if (!number("peak_usd_per_kwh", 10.0, t.peakUsdPerKwh) ||
        !number("off_peak_usd_per_kwh", 10.0, t.offPeakUsdPerKwh) ||
        !number("demand_usd_per_kw_month", 1000.0, t.demandUsdPerKwMonth) ||
        !hour("peak_start_hour", 0, 23, t.peakStartHour) ||
        !hour("peak_end_hour", 1, 24, t.peakEndHour) || t.peakEndHour <= t.peakStartHour)
        return accepted;
    s.tariff = t;
    return {};
}

json writeTariff(const SiteSpec& s)
{
    const Tariff& t = s.tariff;
    if (!t.present)
        return nullptr;
    return {{"peak_usd_per_kwh", t.peakUsdPerKwh},
            {"off_peak_usd_per_kwh", t.offPeakUsdPerKwh},
            {"peak_start_hour", t.peakStartHour},
            {"peak_end_hour", t.peakEndHour},
            {"demand_usd_per_kw_month", t.demandUsdPerKwMonth}};
}

json writeClimateBins(const SiteSpec& s)
{
    json a = json::array();
    for (const auto& b : s.climateBins)
        a.push_back({{"dry_bulb_c", b.dryBulbC}, {"wet_bulb_c", b.wetBulbC}, {"hours", b.hours}});
    return a;
}

std::string readTiers(EgressPricing& p, const json& j)
{
    const std::string accepted =
        "an array of objects {\"up_to_gb\": number > 0 or null for the last tier, "
        "\"usd_per_gb\": number >= 0}, in increasing order";
    if (!j.is_array() || j.empty())
        return accepted;
    std::vector<PriceTier> tiers;
    double previous = 0.0;
    for (std::size_t i = 0; i < j.size(); ++i) {
        const auto& t = j[i];
        if (!t.is_object() || !t.contains("usd_per_gb") || !t["usd_per_gb"].is_number() ||
            t["usd_per_gb"].get<double>() < 0.0 || !t.contains("up_to_gb"))
            return accepted;
        PriceTier tier;
        tier.usdPerGb = t["usd_per_gb"].get<double>();
        const bool last = i + 1 == j.size();
        if (t["up_to_gb"].is_null()) {
            if (!last)
                return accepted + "; only the last tier may have no end";
        } else {
            if (!t["up_to_gb"].is_number() || t["up_to_gb"].get<double>() <= previous)
                return accepted;
            tier.upToGb = t["up_to_gb"].get<double>();
            previous = tier.upToGb;
            if (last)
                return accepted + "; the last tier must have \"up_to_gb\": null";
        }
        tiers.push_back(tier);
    }
    p.tiers = std::move(tiers);
    return {};
}

json writeTiers(const EgressPricing& p)
{
    json a = json::array();
    for (const auto& t : p.tiers)
        a.push_back({{"up_to_gb", t.upToGb > 0.0 ? json(t.upToGb) : json(nullptr)},
                     {"usd_per_gb", t.usdPerGb}});
    return a;
}

} // namespace

const FieldTable<SiteSpec>& SiteSpec::fields()
{
    using S = SiteSpec;
    static const FieldTable<S> table = {
        f::text<S>("name", &S::name, "Display name"),
        f::text<S>("country", &S::country, "Country"),
        f::number<S>("latitude_deg", &S::latitudeDeg, "°", "Latitude", -90.0, 90.0),
        f::number<S>("longitude_deg", &S::longitudeDeg, "°", "Longitude", -180.0, 180.0),
        f::number<S>("elevation_m", &S::elevationM, "m", "Elevation", -500.0, 9000.0),
        f::number<S>("electricity_price_usd_per_kwh", &S::electricityPriceUsdPerKwh, "USD/kWh",
                     "Electricity price", 0.0, 10.0),
        f::number<S>("carbon_kg_per_kwh", &S::carbonKgPerKwh, "kg CO2e/kWh",
                     "Grid carbon intensity", 0.0, 5.0),
        f::text<S>("climate", &S::climate, "Climate description"),
        f::custom<S>("climate_bins", "Annual hours in each outdoor temperature bin",
                     json{{"type", "array"},
                          {"items",
                           {{"type", "object"},
                            {"required", json::array({"dry_bulb_c", "hours"})},
                            {"additionalProperties", false},
                            {"properties",
                             {{"dry_bulb_c", {{"type", "number"}}},
                              {"wet_bulb_c", {{"type", "number"}}},
                              {"hours", {{"type", "number"}, {"minimum", 0}}}}}}}},
                     writeClimateBins, readClimateBins),
        f::custom<S>(
            "climate_normals",
            "Monthly climate normals and annual design values the hourly year is built from "
            "(docs/siteyear.md); when given, they replace climate_bins",
            json{{"type", json::array({"object", "null"})},
                 {"additionalProperties", false},
                 {"required", json::array({"tmax_c", "tmin_c", "dew_point_c", "design_dry_bulb_c",
                                           "design_wet_bulb_c", "heating_dry_bulb_c"})},
                 {"properties",
                  {{"tmax_c",
                    {{"type", "array"},
                     {"minItems", 12},
                     {"maxItems", 12},
                     {"items", {{"type", "number"}}}}},
                   {"tmin_c",
                    {{"type", "array"},
                     {"minItems", 12},
                     {"maxItems", 12},
                     {"items", {{"type", "number"}}}}},
                   {"dew_point_c",
                    {{"type", "array"},
                     {"minItems", 12},
                     {"maxItems", 12},
                     {"items", {{"type", "number"}}}}},
                   {"design_dry_bulb_c", {{"type", "number"}}},
                   {"design_wet_bulb_c", {{"type", "number"}}},
                   {"heating_dry_bulb_c", {{"type", "number"}}},
                   {"seed", {{"type", "integer"}, {"minimum", 0}}}}}},
            writeClimateNormals, readClimateNormals),
        f::custom<S>(
            "carbon_month_factors",
            "Grid carbon intensity of each month (January first) over carbon_kg_per_kwh",
            json{{"type", json::array({"array", "null"})},
                 {"maxItems", 12},
                 {"items", {{"type", "number"}, {"exclusiveMinimum", 0}, {"maximum", 10}}}},
            [](const S& s) { return writeFactors(s.carbonMonthFactors); },
            [](S& s, const json& j) { return readFactors(s.carbonMonthFactors, j, 12); }),
        f::custom<S>(
            "carbon_hour_factors",
            "Grid carbon intensity of each local hour (0-1 first) over the day's mean",
            json{{"type", json::array({"array", "null"})},
                 {"maxItems", 24},
                 {"items", {{"type", "number"}, {"exclusiveMinimum", 0}, {"maximum", 10}}}},
            [](const S& s) { return writeFactors(s.carbonHourFactors); },
            [](S& s, const json& j) { return readFactors(s.carbonHourFactors, j, 24); }),
        f::custom<S>(
            "tariff",
            "Time-of-use energy prices and a monthly demand charge (replace "
            "electricity_price_usd_per_kwh when given)",
            json{{"type", json::array({"object", "null"})},
                 {"additionalProperties", false},
                 {"required",
                  json::array({"peak_usd_per_kwh", "off_peak_usd_per_kwh", "peak_start_hour",
                               "peak_end_hour", "demand_usd_per_kw_month"})},
                 {"properties",
                  {{"peak_usd_per_kwh", {{"type", "number"}, {"minimum", 0}}},
                   {"off_peak_usd_per_kwh", {{"type", "number"}, {"minimum", 0}}},
                   {"peak_start_hour", {{"type", "integer"}, {"minimum", 0}, {"maximum", 23}}},
                   {"peak_end_hour", {{"type", "integer"}, {"minimum", 1}, {"maximum", 24}}},
                   {"demand_usd_per_kw_month", {{"type", "number"}, {"minimum", 0}}}}}},
            writeTariff, readTariff),
    };
    return table;
}

const FieldTable<EgressPricing>& EgressPricing::fields()
{
    using S = EgressPricing;
    static const FieldTable<S> table = {
        f::text<S>("name", &S::name, "Display name"),
        f::text<S>("provider", &S::provider, "Cloud provider"),
        f::custom<S>("tiers", "Monthly volume tiers, cumulative",
                     json{{"type", "array"},
                          {"minItems", 1},
                          {"items",
                           {{"type", "object"},
                            {"required", json::array({"up_to_gb", "usd_per_gb"})},
                            {"properties",
                             {{"up_to_gb", {{"type", json::array({"number", "null"})}}},
                              {"usd_per_gb", {{"type", "number"}, {"minimum", 0}}}}}}}},
                     writeTiers, readTiers),
    };
    return table;
}

const FieldTable<PortOffer>& PortOffer::fields()
{
    using S = PortOffer;
    static const FieldTable<S> table = {
        f::text<S>("name", &S::name, "Display name"),
        f::text<S>("provider", &S::provider, "Provider"),
        // Floor 0.1 Gb/s: the slowest unmetered port hosting providers sell (100 Mb/s).
        f::number<S>("port_gbps", &S::portGbps, "Gb/s", "Port speed", 0.1, 1e5),
        f::number<S>("usd_per_month", &S::usdPerMonth, "USD/month", "Fixed monthly price", 0.0,
                     1e9),
    };
    return table;
}

const FieldTable<FailureRateSpec>& FailureRateSpec::fields()
{
    using S = FailureRateSpec;
    static const FieldTable<S> table = {
        f::text<S>("name", &S::name, "Display name"),
        f::text<S>("component", &S::component, "The component that fails"),
        f::choice<S, FailureUnit>("per", &S::per,
                                  {{FailureUnit::Gpu, "gpu"},
                                   {FailureUnit::Node, "node"},
                                   {FailureUnit::Nic, "nic"},
                                   {FailureUnit::Switch, "switch"},
                                   {FailureUnit::Link, "link"}},
                                  "The unit the rate is counted per"),
        // Ceiling 10^6 per 10^6 hours: one interruption per unit-hour, far above any published
        // field rate (the highest, a GPU's, is below 10 per 10^6 GPU-hours).
        f::number<S>("failures_per_million_hours", &S::failuresPerMillionHours, "1/(10^6 h)",
                     "Job interruptions per million unit-hours", 0.0, 1e6),
        f::boolean<S>("replaces_node", &S::replacesNode,
                      "Recovery swaps the failed node out (a hot spare avoids waiting for repair)"),
    };
    return table;
}

const FieldTable<PlantUnitSpec>& PlantUnitSpec::fields()
{
    using S = PlantUnitSpec;
    static const FieldTable<S> table = {
        f::text<S>("name", &S::name, "Display name"),
        f::choice<S, PlantRole>("role", &S::role,
                                {{PlantRole::Utility, "utility"},
                                 {PlantRole::Ups, "ups"},
                                 {PlantRole::Generator, "generator"},
                                 {PlantRole::Chiller, "chiller"},
                                 {PlantRole::Cdu, "cdu"}},
                                "What the unit does in the facility"),
        f::custom<S>(
            "module_sizes_kw",
            "Standard ratings the unit is sold in, ascending (kW; kW of heat for chillers); "
            "empty for the utility feed and for CDUs (the cooling system's cdu_capacity_kw)",
            json{{"type", "array"}, {"items", {{"type", "number"}, {"exclusiveMinimum", 0}}}},
            [](const S& s) { return json(s.moduleSizesKw); },
            [](S& s, const json& j) -> std::string {
                const std::string accepted = "an array of ascending ratings in kW, each > 0";
                if (!j.is_array())
                    return accepted + ", found " + jsonTypeName(j);
                std::vector<double> sizes;
                for (const auto& v : j) {
                    if (!v.is_number() || v.get<double>() <= 0.0 ||
                        (!sizes.empty() && v.get<double>() <= sizes.back()))
                        return accepted;
                    sizes.push_back(v.get<double>());
                }
                s.moduleSizesKw = std::move(sizes);
                return {};
            }),
        f::number<S>("usd_per_kw", &S::usdPerKw, "USD/kW", "Installed price per kW of rating", 0.0,
                     1e6),
        // Ceiling 10^6 per 10^6 hours: a failure every hour, far above any plant unit's rate.
        f::number<S>("failures_per_million_hours", &S::failuresPerMillionHours, "1/(10^6 h)",
                     "Failures per million unit-hours", 0.0, 1e6),
        // Floor 0.01 h: even a breaker reclose takes seconds; ceiling a year.
        f::number<S>("repair_hours", &S::repairHours, "h", "Mean time to repair or restore", 0.01,
                     8760.0),
        f::number<S>("start_failure_probability", &S::startFailureProbability, "",
                     "Probability a standby unit fails to start and carry its load when called",
                     0.0, 1.0),
        f::number<S>("standby_availability", &S::standbyAvailability, "",
                     "Share of the time a standby unit is not down for maintenance or repair when "
                     "called; when set it replaces failures_per_million_hours and repair_hours",
                     0.0, 1.0),
        // Ceiling 10^6 per 10^6 hours: a failure every running hour.
        f::number<S>("run_failures_per_million_hours", &S::runFailuresPerMillionHours, "1/(10^6 h)",
                     "Failures per million running hours of a standby unit once started (in a "
                     "utility outage)",
                     0.0, 1e6),
        f::custom<S>(
            "efficiency_curve",
            "Measured efficiency against load (UPS): [load over rating, efficiency] pairs, "
            "ascending in load; empty for units without one",
            json{{"type", "array"},
                 {"items",
                  {{"type", "array"},
                   {"items", {{"type", "number"}}},
                   {"minItems", 2},
                   {"maxItems", 2}}}},
            [](const S& s) {
                json out = json::array();
                for (const auto& [load, efficiency] : s.efficiencyCurve)
                    out.push_back(json::array({load, efficiency}));
                return out;
            },
            [](S& s, const json& j) -> std::string {
                const std::string accepted =
                    "an array of [load fraction, efficiency] pairs, load fractions ascending in "
                    "(0, 2], efficiencies in (0, 1]";
                if (!j.is_array())
                    return accepted + ", found " + jsonTypeName(j);
                std::vector<std::pair<double, double>> curve;
                for (const auto& point : j) {
                    if (!point.is_array() || point.size() != 2 || !point[0].is_number() ||
                        !point[1].is_number())
                        return accepted;
                    const double load = point[0].get<double>();
                    const double efficiency = point[1].get<double>();
                    if (!(load > 0.0 && load <= 2.0) || !(efficiency > 0.0 && efficiency <= 1.0) ||
                        (!curve.empty() && load <= curve.back().first))
                        return accepted;
                    curve.emplace_back(load, efficiency);
                }
                s.efficiencyCurve = std::move(curve);
                return {};
            }),
        f::custom<S>(
            "parts",
            "Parts the unit's availability is composed from when no rate for the whole unit is "
            "published: objects with name, count, needed, failures_per_million_hours, "
            "repair_hours and source",
            json{{"type", "array"},
                 {"items",
                  {{"type", "object"},
                   {"required", json::array({"name", "failures_per_million_hours", "repair_hours",
                                             "source"})}}}},
            [](const S& s) {
                json out = json::array();
                for (const auto& p : s.parts)
                    out.push_back({{"name", p.name},
                                   {"count", p.count},
                                   {"needed", p.needed},
                                   {"failures_per_million_hours", p.failuresPerMillionHours},
                                   {"repair_hours", p.repairHours},
                                   {"source", p.source}});
                return out;
            },
            [](S& s, const json& j) -> std::string {
                const std::string accepted =
                    "an array of objects with a non-empty 'name' and 'source', "
                    "'failures_per_million_hours' >= 0, 'repair_hours' in [0.01, 8760], and "
                    "optional integers 1 <= 'needed' <= 'count' <= 100";
                if (!j.is_array())
                    return accepted + ", found " + jsonTypeName(j);
                std::vector<model::PlantPart> parts;
                for (const auto& item : j) {
                    if (!item.is_object())
                        return accepted;
                    model::PlantPart p;
                    const auto text = [&](const char* key, std::string& to) {
                        const auto it = item.find(key);
                        if (it == item.end() || !it->is_string() || it->get<std::string>().empty())
                            return false;
                        to = it->get<std::string>();
                        return true;
                    };
                    const auto number = [&](const char* key, double lo, double hi, double& to) {
                        const auto it = item.find(key);
                        if (it == item.end() || !it->is_number())
                            return false;
                        to = it->get<double>();
                        return to >= lo && to <= hi;
                    };
                    const auto integer = [&](const char* key, int& to) {
                        const auto it = item.find(key);
                        if (it == item.end())
                            return true;
                        if (!it->is_number_integer())
                            return false;
                        to = it->get<int>();
                        return to >= 1 && to <= 100;
                    };
                    if (!text("name", p.name) || !text("source", p.source) ||
                        !number("failures_per_million_hours", 0.0, 1e6,
                                p.failuresPerMillionHours) ||
                        !number("repair_hours", 0.01, 8760.0, p.repairHours) ||
                        !integer("count", p.count) || !integer("needed", p.needed) ||
                        p.needed > p.count)
                        return accepted;
                    parts.push_back(std::move(p));
                }
                s.parts = std::move(parts);
                return {};
            }),
    };
    return table;
}

} // namespace dct::model
