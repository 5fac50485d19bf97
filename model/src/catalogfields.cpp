// Field tables of the catalog entry types. The numbers themselves live in data/catalog/*.json,
// each with its source; these tables say what each key means, its unit and accepted range.
#include "dct/model/cablespec.h"
#include "dct/model/coolingsystemspec.h"
#include "dct/model/egresspricing.h"
#include "dct/model/failureratespec.h"
#include "dct/model/gpuspec.h"
#include "dct/model/nicspec.h"
#include "dct/model/nodespec.h"
#include "dct/model/portoffer.h"
#include "dct/model/sitespec.h"
#include "dct/model/switchspec.h"

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
        f::number<S>("economizer_approach_c", &S::economizerApproachC, "°C",
                     "Approach of the free-cooling heat exchanger", 0.0, 30.0),
        f::number<S>("heat_rejection_w_per_kw", &S::heatRejectionWPerKw, "W/kW",
                     "Tower or dry-cooler fans per kW rejected", 0.0, 1000.0),
        f::boolean<S>("evaporative_heat_rejection", &S::evaporativeHeatRejection,
                      "Heat goes out through a cooling tower (limited by the wet bulb) instead of "
                      "dry coolers or air-cooled condensers (limited by the dry bulb)"),
        f::number<S>("capex_usd_per_kw", &S::capexUsdPerKw, "USD/kW",
                     "Plant cost per kW of IT heat", 0.0, 1e6),
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

} // namespace dct::model
