#include "dct/solvers/facilitymetrics.h"

#include "metrictext.h"

#include <string>
#include <vector>

namespace dct::solvers {

namespace {

void addPowerMetrics(Evaluation& e)
{
    const PowerResult& p = e.power;
    const MetricInputs node = metricInputs<"/compute/node", "/compute/gpu", "/compute/utilization",
                                           "/compute/gpu_power_limit_w">();
    const MetricInputs chain = metricInputs<"/facility/design_load_fraction", "/facility/hvdc">();
    e.add("power.gpu_w", "GPU power", p.gpuPowerW, "W", Better::Neither, node);
    e.add("power.gpu_power_limit_clock_factor", "Clock factor the GPUs' power limit allows",
          p.powerLimitClockFactor, "", Better::Higher,
          metricInputs<"/compute/gpu", "/compute/gpu_power_limit_w">());
    e.add("power.node_kw", "Node power", p.nodePowerKw, "kW", Better::Neither, node);
    e.add("power.nodes_kw", "Nodes power", p.nodesPowerKw, "kW", Better::Lower,
          metricInputs<"/compute/node_count">());
    e.add("power.network_kw", "Network power", p.networkPowerKw, "kW", Better::Lower,
          metricInputs<"/network">());
    e.add("power.storage_kw", "Storage power", p.storagePowerKw, "kW", Better::Lower,
          metricInputs<"/storage/power_kw">());
    e.add("power.it_kw", "IT power", p.itPowerKw, "kW", MetricTraits{Better::Lower, 4}, node);
    e.add("power.nodes_per_rack", "Nodes per rack", p.nodesPerRack, "", Better::Neither,
          metricInputs<"/facility/rack_power_limit_kw", "/facility/rack_units",
                       "/facility/rack_layout", "/cooling/system">());
    e.add("power.racks", "Compute racks", p.racks, "", MetricTraits{Better::Neither, 8},
          metricInputs<"/compute/node_count">());
    e.add("power.rows", "Rows", p.rows, "", Better::Neither,
          metricInputs<"/facility/racks_per_row">());
    e.add("power.floor_m2", "Floor area", p.floorM2, "m²", Better::Lower,
          metricInputs<"/facility/floor_m2_per_rack">());
    // A rack's power follows its node count, which the rack limits and the layout set.
    e.add("power.rack_kw", "Rack power (fullest rack)", p.rackPowerKw, "kW",
          MetricTraits{Better::Lower, 7},
          metricInputs<"/compute/node", "/compute/utilization", "/facility/rack_power_limit_kw",
                       "/facility/rack_layout", "/cooling/system">());
    e.add("power.rack_design_kw", "Rack heat at full load", p.rackDesignPowerKw, "kW",
          Better::Neither, node);
    e.add("power.rack_nameplate_kw", "Rack nameplate", p.rackNameplateKw, "kW", Better::Neither,
          metricInputs<"/compute/node", "/compute/gpu_power_limit_w">());
    e.add("power.racks_over_capacity", "Racks over cooling capacity", p.racksOverCapacity, "",
          Better::Lower, metricInputs<"/cooling/system", "/facility/rack_layout">());
    e.add("power.spread_layout", "Racks spread to cooling capacity",
          p.rackLayout == model::RackLayout::Spread ? 1.0 : 0.0, "yes/no", Better::Neither,
          metricInputs<"/facility/rack_layout">());
    e.add("power.pdu_loss_kw", "PDU loss", p.pduLossKw, "kW", Better::Lower, chain);
    e.add("power.ups_loss_kw", "UPS (or HVDC rectifier) loss", p.upsLossKw, "kW", Better::Lower,
          chain);
    e.add("power.transformer_loss_kw", "Transformer loss", p.transformerLossKw, "kW", Better::Lower,
          chain);
    e.add("power.losses_kw", "Power-chain losses", p.lossesKw, "kW", Better::Lower, chain);
    e.add("power.lighting_kw", "Lighting", p.lightingKw, "kW", Better::Lower,
          metricInputs<"/facility/lighting_w_per_m2">());
    e.add("power.cooling_kw", "Cooling power", p.coolingPowerKw, "kW", Better::Lower,
          metricInputs<"/cooling/system">());
    e.add("power.facility_kw", "Facility power (annual average)", p.facilityPowerKw, "kW",
          MetricTraits{Better::Lower, 5}, metricInputs<"/cooling/system", "/site">());
    e.add("power.peak_facility_kw", "Facility power (peak hour)", p.peakFacilityPowerKw, "kW",
          Better::Lower, metricInputs<"/cooling/system", "/site">());
    e.add("power.hottest_hour_facility_kw", "Facility power (hottest hour)",
          p.hottestHourFacilityKw, "kW", Better::Lower, metricInputs<"/cooling/system", "/site">());
    e.add("power.it_nameplate_kw", "IT nameplate (every node at its maximum)", p.itNameplateKw,
          "kW", Better::Lower, metricInputs<"/compute/node", "/compute/node_count">());
    e.add("power.design_facility_kw", "Facility design load (nameplate IT, peak hour)",
          p.designFacilityKw, "kW", Better::Lower,
          metricInputs<"/compute/node", "/cooling/system", "/site">());
    e.add("power.annual_it_mwh", "IT energy per year", p.annualItEnergyMwh, "MWh", Better::Lower,
          node);
    e.add("power.annual_facility_mwh", "Facility energy per year", p.annualFacilityEnergyMwh, "MWh",
          Better::Lower, metricInputs<"/cooling/system", "/site">());
}

void addCoolingMetrics(Evaluation& e)
{
    const CoolingResult& c = e.cooling;
    thread_local MetricText key, label; // dynamic keys and labels without allocating
    const MetricInputs sys = metricInputs<"/cooling/system", "/site">();
    e.add("cooling.pue", "PUE (annual)", c.pue, "", MetricTraits{Better::Lower, 6}, sys);
    e.add("cooling.peak_pue", "PUE (peak hour)", e.power.peakPue, "", Better::Lower, sys);
    e.add("cooling.best_pue", "PUE (lowest hour)", e.power.bestPue, "", Better::Lower, sys);
    e.add("cooling.cooling_kw", "Cooling power (annual average)", c.coolingKw, "kW", Better::Lower,
          sys);
    e.add("cooling.peak_cooling_kw", "Cooling power (peak hour)", c.peakCoolingKw, "kW",
          Better::Lower, sys);
    e.add("cooling.hottest_hour_cooling_kw", "Cooling power (hottest hour)", c.hottestHourCoolingKw,
          "kW", Better::Lower, sys);
    e.add("cooling.fan_kw", "Fans (CRAC/CRAH/RDHx)", c.fanKw, "kW", Better::Lower, sys);
    e.add("cooling.pump_kw", "Pumps", c.pumpKw, "kW", Better::Lower, sys);
    e.add("cooling.chiller_kw", "Chillers (annual average)", c.chillerKw, "kW", Better::Lower, sys);
    e.add("cooling.heat_rejection_kw", "Heat rejection (annual average)", c.heatRejectionKw, "kW",
          Better::Lower, sys);
    e.add("cooling.liquid_heat_kw", "Heat to liquid", c.liquidHeatKw, "kW", Better::Neither, sys);
    e.add("cooling.air_heat_kw", "Heat to air", c.airHeatKw, "kW", Better::Neither, sys);
    e.add("cooling.chiller_cop", "Chiller COP (annual)", c.averageChillerCop, "", Better::Higher,
          sys);
    e.add("cooling.free_cooling_hours", "Full free-cooling hours", c.fullFreeCoolingHours, "h",
          Better::Higher, metricInputs<"/cooling/economizer", "/site">());
    e.add("cooling.partial_free_cooling_hours", "Partial free-cooling hours",
          c.partialFreeCoolingHours, "h", Better::Higher,
          metricInputs<"/cooling/economizer", "/site">());
    e.add("cooling.chiller_hours", "Hours with chillers running", c.chillerHours, "h",
          Better::Lower, metricInputs<"/cooling/economizer", "/site">());
    e.add("cooling.economizer_share", "Heat removed by free cooling", c.economizerHeatShare,
          "share", Better::Higher, metricInputs<"/cooling/economizer", "/site">());
    if (c.meanTowerApproachK > 0.0) {
        e.add("cooling.tower_load", "Cooling towers: heat carried over their design heat",
              c.towerLoad, "share", Better::Neither,
              metricInputs<"/cooling/system", "/compute/utilization">());
        e.add("cooling.tower_approach_c", "Cooling towers: water above the wet bulb (annual mean)",
              c.meanTowerApproachK, "°C", Better::Lower,
              metricInputs<"/cooling/system", "/site">());
    }
    e.add("cooling.rack_capacity_kw", "Rack cooling capacity", c.rackCapacityKw, "kW",
          Better::Neither, sys);
    e.add("cooling.rack_overload", "Rack heat over cooling capacity (ratio)", c.rackOverloadRatio,
          "", Better::Lower, sys);
    e.add("cooling.inlet_temp_c", "Server inlet temperature", c.inletTempC, "°C", Better::Lower,
          sys);
    if (c.coolantTempC > 0.0)
        e.add("cooling.coolant_temp_c", "Cold-plate coolant temperature", c.coolantTempC, "°C",
              Better::Lower, sys);
    e.add("cooling.gpu_temp_c", "GPU temperature", c.gpuTempC, "°C", Better::Lower,
          metricInputs<"/cooling/system", "/compute/gpu">());
    e.add("cooling.clock_factor", "Thermal clock factor", c.throttle.clockFactor, "",
          Better::Higher, metricInputs<"/cooling/system", "/compute/gpu">());
    e.add("cooling.throttle_hours", "Hours of thermal throttling", c.throttleHours, "h",
          Better::Lower, metricInputs<"/cooling/system", "/compute/gpu", "/site">());
    if (c.liquidHeatKw > 0.0) {
        const MetricInputs plant = metricInputs<"/cooling/system", "/compute/node_count">();
        e.add("cooling.cdu_count", "CDUs (N)", c.cduCount, "", Better::Lower, plant);
        e.add("cooling.cdu_capacity_kw", "CDU capacity (each)", c.cduCapacityKw, "kW",
              Better::Neither, plant);
        e.add("cooling.coolant_flow_l_per_s", "Coolant flow to the cold plates", c.coolantFlowLPerS,
              "L/s", Better::Neither, plant);
        e.add("cooling.cdu_pump_kw", "CDU pump power (of the pumps)", c.cduPumpKw, "kW",
              Better::Lower, plant);
        e.add("cooling.facility_water_supply_c", "Facility water supply to the CDUs",
              c.facilityWaterSupplyC, "°C", Better::Higher, sys);
        e.add("cooling.facility_water_return_c", "Facility water return from the CDUs",
              c.facilityWaterReturnC, "°C", Better::Neither, sys);
        e.add("cooling.chiller_free_outdoor_c", "Liquid loop needs no chiller up to (outdoor)",
              c.chillerFreeOutdoorC, "°C", Better::Higher, sys);
        e.add("cooling.liquid_chiller_hours", "Hours the liquid loop needs a chiller",
              c.liquidChillerHours, "h", Better::Lower,
              metricInputs<"/cooling/system", "/cooling/economizer", "/site">());
    }
    for (const auto& option : e.coolingOptions)
        e.add(key({"cooling.option_pue.", option.systemId}), label({"PUE with ", option.systemId}),
              option.pue, "", Better::Lower, metricInputs<"/cooling/system", "/site">());
}

void addSiteMetrics(Evaluation& e)
{
    const CoolingResult& c = e.cooling;
    if (!c.year)
        return;
    const SiteYear& y = *c.year;
    const MetricInputs climate = metricInputs<"/site/climate_normals", "/site/climate_bins">();
    const bool hourly = y.hourly || y.source;
    e.add("site.climate_hours", hourly ? "Hours of the year (hourly)" : "Hours of the year (bins)",
          y.totalHours, "h", Better::Neither, climate);
    // The path the plant took: the distinct climate states of the hourly year (the fast path,
    // docs/siteyear.md), every hour, or the climate bins.
    e.add("site.climate_states",
          y.source   ? "Climate states solved (grouped hours: fast path)"
          : y.hourly ? "Climate states solved (every hour)"
                     : "Climate states solved (climate bins)",
          static_cast<double>(y.hours.size()), "", Better::Neither, climate);
    e.add("site.mean_dry_bulb_c", "Outdoor dry bulb (annual mean)", y.meanDryBulbC, "°C",
          Better::Neither, climate);
    e.add("site.hottest_dry_bulb_c", "Outdoor dry bulb (hottest hour)", c.hottestHourDryBulbC, "°C",
          Better::Neither, climate);
    e.add("site.hottest_wet_bulb_c", "Outdoor wet bulb (hottest hour)", c.hottestHourWetBulbC, "°C",
          Better::Neither, climate);
    e.add("site.design_dry_bulb_c", "Outdoor dry bulb exceeded 0.4 % of the year",
          y.design04DryBulbC, "°C", Better::Neither, climate);
    e.add("site.design_wet_bulb_c", "Mean coincident wet bulb of those hours", y.design04WetBulbC,
          "°C", Better::Neither, climate);
    e.add("site.heating_dry_bulb_c", "Outdoor dry bulb undercut 0.4 % of the year",
          y.heating996DryBulbC, "°C", Better::Neither, climate);
    e.add("site.max_wet_bulb_c", "Outdoor wet bulb (highest hour)", y.maxWetBulbC, "°C",
          Better::Neither, climate);

    thread_local MetricText label; // dynamic labels without allocating
    const MetricInputs water = metricInputs<"/cooling/system", "/site", "/compute/node_count">();
    e.add("site.water_m3_per_year", label({"Water per year (", c.heatRejection, ")"}),
          c.waterM3PerYear, "m³", Better::Lower, water);
    e.add("site.wue_l_per_kwh", "WUE (site water over IT energy)", c.wueLPerKwh, "L/kWh",
          Better::Lower, water);
    e.add("site.evaporation_m3_per_year", "Water evaporated (tower or adiabatic spray)",
          c.evaporationM3PerYear, "m³", Better::Lower, water);
    e.add("site.blowdown_m3_per_year", "Tower blowdown", c.blowdownM3PerYear, "m³", Better::Lower,
          water);
    e.add("site.drift_m3_per_year", "Tower drift", c.driftM3PerYear, "m³", Better::Lower, water);
    e.add("site.water_hours", "Hours drawing water", c.waterHours, "h", Better::Lower, water);
    e.add("site.peak_water_m3_per_hour", "Water (peak hour)", c.peakWaterM3PerHour, "m³/h",
          Better::Lower, water);

    const GridResult& g = e.grid;
    const MetricInputs carbon =
        metricInputs<"/site/carbon_kg_per_kwh", "/site/carbon_month_factors",
                     "/site/carbon_hour_factors", "/cooling/system">();
    e.add("site.carbon_tonnes_per_year", "Carbon per year (hour by hour)", g.carbonTonnesPerYear,
          "t CO2e", Better::Lower, carbon);
    e.add("site.average_carbon_kg_per_kwh", "Grid carbon intensity (energy-weighted)",
          g.averageCarbonKgPerKwh, "kg CO2e/kWh", Better::Lower, carbon);
    e.add("site.cue_kg_per_kwh", "CUE (carbon over IT energy)", g.cueKgPerKwh, "kg CO2e/kWh",
          Better::Lower, carbon);
    const MetricInputs tariff =
        metricInputs<"/site/tariff", "/site/electricity_price_usd_per_kwh", "/cooling/system">();
    e.add("site.energy_charges_usd_per_year",
          g.hasTariff ? "Energy charges (time of use, hour by hour)"
                      : "Energy charges (flat price)",
          g.energyUsdPerYear, "USD/year", Better::Lower, tariff);
    e.add("site.demand_charges_usd_per_year", "Demand charges (monthly peak hour)",
          g.demandUsdPerYear, "USD/year", Better::Lower, tariff);
    e.add("site.average_price_usd_per_kwh", "Electricity price (average paid)",
          g.averagePriceUsdPerKwh, "USD/kWh", Better::Lower, tariff);
    e.add("site.peak_demand_kw", "Peak demand (highest hour)", g.peakDemandKw, "kW", Better::Lower,
          metricInputs<"/cooling/system", "/site">());
    e.add("site.contract_demand_kw", "Utility contract demand (nameplate IT, peak hour)",
          g.contractDemandKw, "kW", Better::Lower,
          metricInputs<"/compute/node", "/cooling/system", "/site">());
}

void addEgressMetrics(Evaluation& e)
{
    const EgressResult& g = e.egress;
    thread_local MetricText label; // dynamic labels without allocating
    const MetricInputs eco = metricInputs<"/economics/egress_tb_per_month">();
    e.add("egress.monthly_tb", "Egress per month", g.monthlyGb / 1000.0, "TB", Better::Neither,
          eco);
    e.add("egress.average_gbps", "Average egress rate", g.averageGbps, "Gb/s", Better::Neither,
          eco);
    if (g.hasMetered) {
        e.add("egress.metered_usd_per_month", label({"Metered egress (", g.pricingId, ")"}),
              g.meteredUsdPerMonth, "USD/month", Better::Lower,
              metricInputs<"/economics/egress_pricing">());
        e.add("egress.metered_usd_per_gb", "Metered average price", g.meteredUsdPerGb, "USD/GB",
              Better::Lower, metricInputs<"/economics/egress_pricing">());
    }
    if (g.hasPort) {
        e.add("egress.port_usd_per_month", label({"Unmetered port (", g.portId, ")"}),
              g.portUsdPerMonth, "USD/month", Better::Lower,
              metricInputs<"/economics/unmetered_port">());
        e.add("egress.port_gbps", "Port rate", g.portGbps, "Gb/s", Better::Neither,
              metricInputs<"/economics/unmetered_port">());
        e.add("egress.port_utilization", "Port utilization", g.portUtilization, "share",
              Better::Neither, metricInputs<"/economics/unmetered_port">());
        e.add("egress.port_carries", "Port carries the volume", g.portCarries ? 1 : 0, "yes/no",
              Better::Higher, metricInputs<"/economics/unmetered_port">());
        if (g.hasMetered)
            e.add("egress.break_even_tb_per_month", "Break-even volume", g.breakEvenTbPerMonth,
                  "TB/month", Better::Neither,
                  metricInputs<"/economics/egress_pricing", "/economics/unmetered_port">());
    }
    if (g.hasCheapestPort) {
        e.add("egress.cheapest_port_gbps",
              label({"Cheapest carrying port (", g.cheapestPortId, ")"}), g.cheapestPortGbps,
              "Gb/s", Better::Neither, eco);
        e.add("egress.cheapest_port_usd_per_month", "Cheapest carrying port price",
              g.cheapestPortUsdPerMonth, "USD/month", Better::Lower, eco);
    }
    e.add("egress.usd_per_month", label({"Egress cost (", g.choice, ")"}), g.egressUsdPerMonth,
          "USD/month", MetricTraits{Better::Lower, 14}, eco);
    const MetricInputs wan = metricInputs<"/economics/wan_dataset_tb", "/economics/wan_rtt_ms",
                                          "/economics/tcp_window_mb">();
    e.add("egress.wan_stream_gbps", "TCP stream rate (window / RTT)", g.perStreamGbps, "Gb/s",
          Better::Higher, wan);
    e.add("egress.wan_single_stream_hours", "Data set over one stream", g.singleStreamHours, "h",
          Better::Lower, wan);
    if (g.pathGbps > 0.0) {
        e.add("egress.wan_streams_to_fill_port", "Streams to fill the port", g.streamsToFillPort,
              "", Better::Neither, wan);
        e.add("egress.wan_port_limited_hours", "Data set at the port rate", g.portLimitedHours, "h",
              Better::Lower, wan);
    }
}

void addCostMetrics(Evaluation& e)
{
    const CostResult& c = e.cost;
    const MetricInputs eco = metricInputs<"/economics">();
    e.add("cost.capex_nodes_usd", "Capex: nodes", c.capexNodesUsd, "USD", Better::Lower,
          metricInputs<"/compute/node">());
    e.add("cost.capex_network_usd", "Capex: network", c.capexNetworkUsd, "USD", Better::Lower,
          metricInputs<"/network">());
    e.add("cost.capex_storage_usd", "Capex: storage", c.capexStorageUsd, "USD", Better::Lower,
          metricInputs<"/storage">());
    e.add("cost.capex_racks_usd", "Capex: racks", c.capexRacksUsd, "USD", Better::Lower,
          metricInputs<"/economics/rack_price_usd">());
    e.add("cost.capex_cooling_usd", "Capex: cooling plant", c.capexCoolingUsd, "USD", Better::Lower,
          metricInputs<"/cooling/system">());
    e.add("cost.capex_power_usd", "Capex: power plant", c.capexPowerUsd, "USD", Better::Lower,
          metricInputs<"/economics/power_capex_usd_per_kw">());
    e.add("cost.capex_redundancy_usd", "Capex: redundant plant units", c.capexRedundancyUsd, "USD",
          Better::Lower,
          metricInputs<"/facility/ups_redundancy", "/facility/generator_redundancy",
                       "/cooling/chiller_redundancy", "/cooling/cdu_redundancy">());
    e.add("cost.capex_usd", "Capex", c.capexUsd, "USD", MetricTraits{Better::Lower, 10}, eco);
    e.add("cost.energy_usd_per_year", "Energy", c.energyUsdPerYear, "USD/year", Better::Lower,
          metricInputs<"/site", "/cooling/system">());
    e.add("cost.egress_usd_per_year", "Egress", c.egressUsdPerYear, "USD/year", Better::Lower,
          metricInputs<"/economics/egress_tb_per_month">());
    e.add("cost.maintenance_usd_per_year", "Maintenance", c.maintenanceUsdPerYear, "USD/year",
          Better::Lower, metricInputs<"/economics/maintenance_fraction_per_year">());
    e.add("cost.opex_usd_per_year", "Opex", c.opexUsdPerYear, "USD/year", Better::Lower, eco);
    e.add("cost.amortized_capex_usd_per_year", "Amortized capex", c.amortizedCapexUsdPerYear,
          "USD/year", Better::Lower, metricInputs<"/economics/amortization_years">());
    e.add("cost.tco_usd_per_year", "Total cost of ownership", c.tcoUsdPerYear, "USD/year",
          MetricTraits{Better::Lower, 11}, eco);
    e.add("cost.usd_per_gpu_hour", "Cost per GPU-hour", c.usdPerGpuHour, "USD/GPU-h",
          MetricTraits{Better::Lower, 12}, eco);
    e.add("cost.training_run_usd", "Training run", c.trainingRunUsd, "USD",
          MetricTraits{Better::Lower, 13}, metricInputs<"/workload", "/economics">());
    e.add("cost.training_run_energy_mwh", "Training run energy", c.trainingRunEnergyMwh, "MWh",
          Better::Lower, metricInputs<"/workload">());
    e.add("cost.training_run_energy_usd", "Training run energy cost", c.trainingRunEnergyUsd, "USD",
          Better::Lower, metricInputs<"/workload", "/site">());
    e.add("cost.carbon_tonnes_per_year", "Carbon per year", c.carbonTonnesPerYear, "t CO2e",
          Better::Lower, metricInputs<"/site">());
}

} // namespace

void addFacilityMetrics(Evaluation& e)
{
    addPowerMetrics(e);
    addCoolingMetrics(e);
    addSiteMetrics(e);
    addEgressMetrics(e);
    addCostMetrics(e);
}

} // namespace dct::solvers
