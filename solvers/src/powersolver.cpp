#include "dct/solvers/powersolver.h"

#include "dct/model/scaleupdomain.h"
#include "dct/solvers/coolingresult.h"
#include "dct/solvers/redundancy.h"

#include <Eigen/Core>
#include <algorithm>
#include <cmath>
#include <string>

namespace dct::solvers {

namespace {

/** Returns "1 node" or "n nodes". */
std::string nodesText(int n)
{
    return std::to_string(n) + (n == 1 ? " node" : " nodes");
}

/**
 * GPU dynamic power against the clock. CMOS dynamic power is C V^2 f (Weste and Harris, "CMOS
 * VLSI Design", 4th ed., ch. 5). Along the boost table the voltage tracks the clock, so near the
 * top the power goes as the cube of the clock; below the lowest voltage the boost table uses
 * under load the voltage stays there and the power falls only as the clock. That floor is about
 * 0.81 of the highest voltage in TechPowerUp's voltage-frequency analyses under 3D load
 * (GeForce RTX 3060 Ti 0.875-1.081 V, RTX 2060 0.862-1.068 V, GTX 1660 Ti 0.850-1.050 V);
 * taken as 0.8 of the voltage, reached at 0.8 of the clock. Held out against measured runs
 * under power limits (Zeus traces on V100 and A40, a GB300 under cuBLAS:
 * tests/validation/facility/test_power_limits_published.cpp; docs/references.md, "Power and
 * cooling").
 */
constexpr double kVoltageFloorClock = 0.8;

/** Dynamic power at \a clock as a share of the full clock's: c V(c)^2, V = max(c, floor). */
double dynamicPowerShare(double clock)
{
    const double v = std::max(clock, kVoltageFloorClock);
    return clock * v * v;
}

/** Inverse of dynamicPowerShare() on [0, 1]. */
double clockForDynamicPowerShare(double share)
{
    constexpr double kneeShare = kVoltageFloorClock * kVoltageFloorClock * kVoltageFloorClock;
    if (share >= kneeShare)
        return std::cbrt(share);
    return share / (kVoltageFloorClock * kVoltageFloorClock);
}

/**
 * HVDC distribution: a double-conversion UPS converts twice (AC-DC rectifier, DC-AC inverter) where
 * a 380 V DC plant converts once (rectifier), and the PDU needs no transformer. Assumption: the
 * rectifier carries half of the UPS loss curve, the PDU keeps only its conductor (square-law) loss.
 * LBNL's demonstration (Ton, Fortenbery and Tschudi, "DC Power for Improved Data Center
 * Efficiency", 2008) measured about 5-7 % less facility energy than AC, part of which comes from
 * server power supplies, which this model does not credit.
 */
constexpr double kHvdcRectifierShareOfUpsLoss = 0.5;

std::string num(double v)
{
    char buffer[64];
    std::snprintf(buffer, sizeof buffer, "%.4g", v);
    return buffer;
}

} // namespace

double gpuPowerW(const model::GpuSpec& gpu, double utilization, double clockFactor)
{
    const double u = std::clamp(utilization, 0.0, 1.0);
    const double c = std::clamp(clockFactor, 0.0, 1.0);
    return gpu.idleW + u * (gpu.tdpW - gpu.idleW) * dynamicPowerShare(c);
}

double clockFactorForGpuPowerW(const model::GpuSpec& gpu, double utilization, double powerW)
{
    const double dynamicW = std::clamp(utilization, 0.0, 1.0) * (gpu.tdpW - gpu.idleW);
    if (dynamicW <= 0.0)
        return powerW >= gpu.idleW ? 1.0 : 0.0;
    const double share = (powerW - gpu.idleW) / dynamicW;
    if (share <= 0.0)
        return 0.0;
    return share >= 1.0 ? 1.0 : clockForDynamicPowerShare(share);
}

double powerLimitClockFactor(const model::ResolvedScenario& r)
{
    const double cap = r.scenario.compute.gpuPowerLimitW;
    if (cap <= 0.0 || cap >= r.gpu.tdpW)
        return 1.0;
    // NVIDIA's power limiter holds the board's draw at the limit by lowering the clock; the
    // phases that reach it are the ones at full load (the GEMMs draw the TDP at full clocks),
    // so the clock is the one at which a fully loaded GPU draws the limit. Below the idle draw
    // no clock meets it (the validator refuses such limits); the floor keeps the clock positive.
    return std::max(clockFactorForGpuPowerW(r.gpu, 1.0, cap), 0.05);
}

double stageLossKw(double loadKw, double ratedKw, double noLoadFraction,
                   double proportionalFraction, double squareFraction)
{
    if (ratedKw <= 0.0)
        return 0.0;
    const double f = loadKw / ratedKw;
    return ratedKw * (noLoadFraction + proportionalFraction * f + squareFraction * f * f);
}

namespace {

/** What solvePower() and rackFit() both work out: the node's design and nameplate power, the
 *  IT design power and how many nodes a rack holds (by power, units and cooling). */
struct RackFigures
{
    int nodes = 0;
    double nodeDesignPowerKw = 0.0;
    double nodeNameplateKw = 0.0;
    double networkPowerKw = 0.0;
    double itDesignPowerKw = 0.0;
    int byPower = 0;
    int byUnits = 0;
    int byCooling = 0;
    int dense = 0;
    bool coolingLimited = false; ///< rack_layout 'spread' packs fewer nodes for the cooling.
    int nodesPerRack = 0;
    double limitClock = 1.0; ///< The clock the GPUs' power limit allows (the design clock).
};

RackFigures rackFigures(const model::ResolvedScenario& r, double networkPowerKw)
{
    RackFigures f;
    const auto& fac = r.scenario.facility;
    f.nodes = std::max(0, r.scenario.compute.nodeCount);
    const int nodes = f.nodes;
    const double u = r.scenario.compute.utilization;
    // The design point is full clocks, or the clock the GPUs' power limit allows; the limit also
    // holds back the nameplate (feeds provisioned to the enforced limit) by what each GPU may
    // no longer draw above it.
    f.limitClock = powerLimitClockFactor(r);
    f.nodeDesignPowerKw =
        r.node.basePowerKw + r.gpusPerNode * gpuPowerW(r.gpu, u, f.limitClock) / 1000.0;
    f.nodeNameplateKw = r.nodeNameplateKw();
    f.networkPowerKw = std::max(0.0, networkPowerKw);
    f.itDesignPowerKw = nodes * f.nodeDesignPowerKw + f.networkPowerKw + r.scenario.storage.powerKw;
    // Rack layout. Feeds and breakers are provisioned for the nameplate; cooling removes the
    // sustained heat, so the cooling limit uses the design heat (utilization, full clocks).
    const double capacityKw = r.cooling.maxRackKw;
    f.byPower = f.nodeNameplateKw > 0.0
                    ? static_cast<int>(std::floor(fac.rackPowerLimitKw / f.nodeNameplateKw + 1e-9))
                    : nodes;
    f.byUnits = r.node.heightU > 0 ? fac.rackUnits / r.node.heightU : nodes;
    f.byCooling = f.nodeDesignPowerKw > 0.0
                      ? static_cast<int>(std::floor(capacityKw / f.nodeDesignPowerKw + 1e-9))
                      : nodes;
    f.dense = std::max(1, std::min(f.byPower, f.byUnits));
    f.nodesPerRack = f.dense;
    if (fac.rackLayout == model::RackLayout::Spread && f.byCooling < f.dense) {
        f.nodesPerRack = std::max(1, f.byCooling);
        f.coolingLimited = true;
    }
    // An NVLink domain of several nodes (a GB200 NVL72 domain: 18 compute trays and the NVLink
    // switch trays that join them, cabled through the rack's spine) stays in its rack: a rack
    // holds whole domains when one fits.
    const int perDomain = model::nodesPerScaleUpDomain(r);
    if (perDomain > 1 && f.nodesPerRack >= perDomain)
        f.nodesPerRack = f.nodesPerRack / perDomain * perDomain;
    f.nodesPerRack = std::min(f.nodesPerRack, std::max(1, nodes));
    return f;
}

/** solvePower(); diagnostics only when \a diagnostics is not null (they cost strings). */
PowerResult powerResult(const model::ResolvedScenario& r, const PowerInputs& in,
                        Diagnostics* diagnostics)
{
    PowerResult out;
    const auto& fac = r.scenario.facility;
    const RackFigures rack = rackFigures(r, in.networkPowerKw);
    const int nodes = rack.nodes;
    const double u = r.scenario.compute.utilization;
    out.powerLimitClockFactor = rack.limitClock;
    out.clockFactor = std::clamp(in.clockFactor, 0.0, out.powerLimitClockFactor);

    if (diagnostics && out.powerLimitClockFactor < 1.0)
        diagnostics->note(
            "/compute/gpu_power_limit_w",
            "GPUs limited to " + num(r.scenario.compute.gpuPowerLimitW) + " W (TDP " +
                num(r.gpu.tdpW) + " W) run at " + num(out.powerLimitClockFactor) +
                " of their full clock under load: their matrix math takes " +
                num(100.0 * (1.0 / out.powerLimitClockFactor - 1.0)) +
                "% longer (the HBM-bound passes keep their pace), and each node's nameplate is " +
                num(r.gpusPerNode * (r.gpu.tdpW - r.scenario.compute.gpuPowerLimitW) / 1000.0) +
                " kW lower",
            "", "gpu-power-limited");

    // Node power: its GPUs at the utilization and clock, plus the rest of the chassis at load.
    out.gpuPowerW = gpuPowerW(r.gpu, u, out.clockFactor);
    out.nodePowerKw = r.node.basePowerKw + r.gpusPerNode * out.gpuPowerW / 1000.0;
    out.nodeDesignPowerKw = rack.nodeDesignPowerKw;
    out.nodeNameplateKw = rack.nodeNameplateKw;
    out.nodesPowerKw = nodes * out.nodePowerKw;
    out.networkPowerKw = rack.networkPowerKw;
    out.storagePowerKw = r.scenario.storage.powerKw;
    out.itPowerKw = out.nodesPowerKw + out.networkPowerKw + out.storagePowerKw;
    // Nameplate: every node at its rated maximum (what feeds and breakers are sized for).
    out.itNameplateKw = nodes * out.nodeNameplateKw + out.networkPowerKw + out.storagePowerKw;
    out.itDesignPowerKw = rack.itDesignPowerKw;

    // Rack layout (rackFigures()).
    const double capacityKw = r.cooling.maxRackKw;
    out.rackCoolingCapacityKw = capacityKw;
    out.nodesPerRackByPower = rack.byPower;
    out.nodesPerRackByUnits = rack.byUnits;
    out.nodesPerRackByCooling = rack.byCooling;
    const int dense = rack.dense;
    out.rackLimit = rack.coolingLimited                                  ? "cooling"
                    : out.nodesPerRackByPower <= out.nodesPerRackByUnits ? "power"
                                                                         : "units";
    const bool spread = fac.rackLayout == model::RackLayout::Spread;
    out.rackLayout = fac.rackLayout;
    out.nodesPerRack = rack.nodesPerRack;
    out.racks = nodes > 0 ? (nodes + out.nodesPerRack - 1) / out.nodesPerRack : 0;
    out.rows = out.racks > 0 ? (out.racks + fac.racksPerRow - 1) / fac.racksPerRow : 0;
    out.floorM2 = out.racks * fac.floorM2PerRack;
    const int fullest = std::min(out.nodesPerRack, nodes);
    out.rackPowerKw = fullest * out.nodePowerKw;
    out.rackDesignPowerKw = fullest * out.nodeDesignPowerKw;
    out.rackNameplateKw = fullest * out.nodeNameplateKw;
    const int fullRacks = nodes / out.nodesPerRack;
    const int lastRackNodes = nodes % out.nodesPerRack;
    out.racksOverCapacity =
        (out.nodesPerRack * out.nodeDesignPowerKw > capacityKw ? fullRacks : 0) +
        (lastRackNodes * out.nodeDesignPowerKw > capacityKw ? 1 : 0);

    const int perDomain = model::nodesPerScaleUpDomain(r);
    // A multi-node NVLink domain is cabled in copper through its racks' NVLink spine: one rack,
    // or two side by side. NVIDIA's multi-node NVLink tuning guide ("Understanding Your
    // Grace-Blackwell Systems"): "The GB200 architecture supports 36x2 and 72x1 configurations",
    // the 72 GPUs of a domain in one rack or in two of 36 joined by NVLink cable cartridges.
    constexpr int kMaxRacksPerScaleUpDomain = 2;
    const int racksPerDomain =
        out.nodesPerRack > 0 ? (perDomain + out.nodesPerRack - 1) / out.nodesPerRack : 0;
    if (diagnostics && perDomain > 1 && racksPerDomain > kMaxRacksPerScaleUpDomain &&
        nodes > out.nodesPerRack)
        diagnostics->warning(
            "/facility/rack_power_limit_kw",
            "an NVLink domain of " + nodesText(perDomain) + " needs " + num(racksPerDomain) +
                " racks (" + nodesText(out.nodesPerRack) + " per rack by its " + out.rackLimit +
                "): its copper NVLink spine joins one rack or two side by side (GB200 NVL72 as "
                "72x1 or 36x2), so the domain cannot be built",
            "racks that hold half a domain: " + nodesText((perDomain + 1) / 2) + " (" +
                num((perDomain + 1) / 2 * out.nodeNameplateKw) + " kW nameplate)",
            "scale-up-domain-beyond-racks");
    else if (diagnostics && perDomain > 1 && out.nodesPerRack < perDomain &&
             nodes > out.nodesPerRack)
        diagnostics->warning("/facility/rack_power_limit_kw",
                             "an NVLink domain of " + nodesText(perDomain) +
                                 " does not fit one rack (" + nodesText(out.nodesPerRack) +
                                 " per rack by its " + out.rackLimit +
                                 "): its NVLink cables would run between racks",
                             "a rack that holds " + nodesText(perDomain) + " (" +
                                 num(perDomain * out.nodeNameplateKw) + " kW nameplate, " +
                                 num(perDomain * r.node.heightU) + " U)",
                             "scale-up-domain-over-rack");
    if (diagnostics && out.racksOverCapacity > 0) {
        const std::string what = num(out.racksOverCapacity) + " of " + num(out.racks) +
                                 " racks carry " + num(out.rackDesignPowerKw) +
                                 " kW of heat, above the " + num(capacityKw) +
                                 " kW per rack that '" + r.cooling.id + "' removes";
        if (spread)
            diagnostics->warning(
                "/cooling/system", what + " even with one node per rack (rack_layout 'spread')",
                "a cooling system with max_rack_kw >= " + num(out.nodeDesignPowerKw) + " kW",
                "node-over-cooling-capacity");
        else
            diagnostics->warning("/cooling/system",
                                 what + "; rack_layout 'dense' keeps " +
                                     nodesText(out.nodesPerRack) +
                                     " per rack, so hot air recirculates to the inlets",
                                 "set /facility/rack_layout to \"spread\" (" +
                                     nodesText(std::max(1, out.nodesPerRackByCooling)) +
                                     " per rack) or choose a cooling system with max_rack_kw >= " +
                                     num(out.rackDesignPowerKw),
                                 "rack-over-capacity");
    } else if (diagnostics && spread && out.rackLimit == "cooling") {
        diagnostics->note("/facility/rack_layout",
                          "rack_layout 'spread': " + nodesText(out.nodesPerRack) +
                              " per rack instead of " + num(dense) + " to stay within the " +
                              num(capacityKw) + " kW that '" + r.cooling.id + "' removes; " +
                              num(out.racks) + " racks",
                          "a cooling system of higher max_rack_kw packs more nodes per rack",
                          "rack-layout-spread");
    }

    // Power chain from the IT load back: PDU, then UPS (each a no-load + proportional +
    // square-law loss at its load fraction; rated for the design IT load over the design load
    // fraction). The transformer also carries cooling, so completeFacilityPower() adds it.
    const double ratedKw = out.itDesignPowerKw / fac.designLoadFraction;
    double pduNoLoad = fac.pduNoLoadFraction;
    double pduProportional = fac.pduProportionalFraction;
    double upsScale = 1.0;
    if (fac.hvdc) {
        pduNoLoad = 0.0;
        pduProportional = 0.0;
        upsScale = kHvdcRectifierShareOfUpsLoss;
    }
    out.pduLossKw =
        stageLossKw(out.itPowerKw, ratedKw, pduNoLoad, pduProportional, fac.pduSquareFraction);
    // The UPS is built of standard modules under the scenario's redundancy (redundancy.h,
    // docs/redundancy.md), sized for the IT load at full clocks plus the PDU loss; every
    // installed module shares the load, so 2N runs each at half the load N would.
    out.upsLoadKw = out.itDesignPowerKw + stageLossKw(out.itDesignPowerKw, ratedKw, pduNoLoad,
                                                      pduProportional, fac.pduSquareFraction);
    const SubsystemDesign ups = upsDesign(r, out.upsLoadKw);
    out.upsInstalledKw = ups.installedUnits > 0 ? ups.installedUnits * ups.unitSizeKw : ratedKw;
    const double upsOutKw = out.itPowerKw + out.pduLossKw;
    // The loss at the load each installed module carries: read from the UPS unit's measured
    // efficiency curve (data/catalog/plant.json) where it has one, else the facility's
    // no-load + proportional + square-law loss fractions.
    const model::PlantUnitSpec* upsUnit = plantUnit(r, model::PlantRole::Ups);
    auto upsLoss = [&](double installedKw) {
        if (upsUnit && !upsUnit->efficiencyCurve.empty())
            return upsScale * curveLossKw(upsUnit->efficiencyCurve, upsOutKw, installedKw);
        return upsScale * stageLossKw(upsOutKw, installedKw, fac.upsNoLoadFraction,
                                      fac.upsProportionalFraction, fac.upsSquareFraction);
    };
    out.upsLossKw = upsLoss(out.upsInstalledKw);
    out.upsLoadFraction = out.upsInstalledKw > 0.0 ? upsOutKw / out.upsInstalledKw : 0.0;
    if (upsOutKw > 0.0) {
        out.upsEfficiency = upsOutKw / (upsOutKw + out.upsLossKw);
        const double atNKw =
            ups.requiredUnits > 0 ? ups.requiredUnits * ups.unitSizeKw : out.upsInstalledKw;
        out.upsEfficiencyAtN = upsOutKw / (upsOutKw + upsLoss(atNKw));
    }
    out.lightingKw = out.floorM2 * fac.lightingWPerM2 / 1000.0;
    out.indoorHeatKw = out.itPowerKw + out.pduLossKw + out.upsLossKw + out.lightingKw;
    return out;
}

} // namespace

PowerResult solvePower(const model::ResolvedScenario& r, const PowerInputs& in,
                       Diagnostics& diagnostics)
{
    return powerResult(r, in, &diagnostics);
}

PowerResult solvePower(const model::ResolvedScenario& r, const PowerInputs& in)
{
    return powerResult(r, in, nullptr);
}

RackFit rackFit(const model::ResolvedScenario& r, double networkPowerKw)
{
    const RackFigures f = rackFigures(r, networkPowerKw);
    return RackFit{f.nodesPerRack, f.itDesignPowerKw};
}

PowerResult completeFacilityPower(const model::ResolvedScenario& r, PowerResult p,
                                  const CoolingResult& cooling)
{
    const auto& fac = r.scenario.facility;
    // The transformer feeds everything: IT through the UPS, cooling and lighting beside it.
    const double ratedKw =
        (p.itDesignPowerKw + p.pduLossKw + p.upsLossKw + p.lightingKw + cooling.peakCoolingKw) /
        fac.designLoadFraction;
    // Hour by hour of the site's year (or climate bin by bin, weighted by their hours).
    const Eigen::ArrayXd& coolingKw = cooling.hourlyCoolingKw;
    if (!cooling.year || coolingKw.size() == 0 || cooling.climateHours <= 0.0)
        return p;
    const Eigen::ArrayXd& hours = cooling.year->hours;
    const double hoursTotal = cooling.climateHours;
    const Eigen::ArrayXd loadKw = p.indoorHeatKw + coolingKw;
    // stageLossKw() hour by hour.
    const Eigen::ArrayXd fraction = loadKw / ratedKw;
    const Eigen::ArrayXd transformerKw =
        ratedKw > 0.0 ? (ratedKw * (fac.transformerNoLoadFraction +
                                    fac.transformerProportionalFraction * fraction +
                                    fac.transformerSquareFraction * fraction * fraction))
                            .eval()
                      : Eigen::ArrayXd::Zero(coolingKw.size()).eval();
    p.hourlyFacilityKw = loadKw + transformerKw;
    p.peakFacilityPowerKw = p.hourlyFacilityKw.maxCoeff();
    p.hottestHourFacilityKw = p.hourlyFacilityKw(cooling.year->hottestIndex);
    p.transformerLossKw = (transformerKw * hours).sum() / hoursTotal;
    p.coolingPowerKw = (coolingKw * hours).sum() / hoursTotal;
    p.lossesKw = p.pduLossKw + p.upsLossKw + p.transformerLossKw;
    p.facilityPowerKw = (p.hourlyFacilityKw * hours).sum() / hoursTotal;
    // The design (nameplate) facility load a utility contract is sized on: the hour of highest
    // facility power with every node at its nameplate. Losses and cooling scale with the heat
    // they carry, lighting does not.
    p.designFacilityKw = p.itPowerKw > 0.0 ? p.lightingKw + (p.peakFacilityPowerKw - p.lightingKw) *
                                                                p.itNameplateKw / p.itPowerKw
                                           : p.peakFacilityPowerKw;
    if (p.itPowerKw > 0.0) {
        p.peakPue = p.peakFacilityPowerKw / p.itPowerKw;
        p.bestPue = p.hourlyFacilityKw.minCoeff() / p.itPowerKw;
    }
    p.pue = p.itPowerKw > 0.0 ? p.facilityPowerKw / p.itPowerKw : 0.0;
    // Annual energy: the average power over a 365-day year.
    p.annualItEnergyMwh = p.itPowerKw * 8760.0 / 1000.0;
    p.annualFacilityEnergyMwh = p.facilityPowerKw * 8760.0 / 1000.0;
    return p;
}

} // namespace dct::solvers
