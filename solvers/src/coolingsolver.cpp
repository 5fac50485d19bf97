#include "dct/solvers/coolingsolver.h"

#include "dct/solvers/coolingtower.h"
#include "dct/solvers/heatrejectionwater.h"
#include "dct/solvers/powersolver.h"

#include <algorithm>
#include <cmath>
#include <memory>
#include <string>
#include <utility>

namespace dct::solvers {

const char* throttleStateName(ThrottleState state)
{
    switch (state) {
    case ThrottleState::SwThermal:
        return "sw-thermal";
    case ThrottleState::SwThermalFloor:
        return "sw-thermal-floor";
    case ThrottleState::HwSlowdown:
        return "hw-slowdown";
    case ThrottleState::None:
        break;
    }
    return "none";
}

namespace {

// Outside-world numbers of the component model. Each is an engineering assumption stated here,
// used for every cooling system alike; none is fitted to a PUE.

/** Air temperature rise across a server at load (assumption: 15 K, within the 10-20 K usual for
 *  servers whose fans hold the exhaust temperature). Sizes recirculation when a rack's heat exceeds
 *  the airflow the cooling system delivers to it. */
constexpr double kServerAirRiseK = 15.0;
/** Chilled-water supply-to-return rise (assumption: 6 K, the common 10-12 F design). */
constexpr double kChilledWaterRiseK = 6.0;
/** Facility-water rise of a warm-water (D2C) loop (assumption: 10 K). */
constexpr double kLiquidLoopRiseK = 10.0;
/** Approach of the coolant distribution unit's liquid-to-liquid heat exchanger: facility water
 *  must be this much colder than the coolant to the cold plates (assumption: 3 K). */
constexpr double kCduApproachK = 3.0;
/** Refrigerant evaporates this far below the chilled-water supply (assumption: 2 K). */
constexpr double kEvaporatorApproachK = 2.0;
/** Refrigerant condenses this far above the condenser entering fluid: the fluid's rise plus the
 *  condenser approach (assumption: 8 K). */
constexpr double kCondenserOffsetK = 8.0;
/** Smallest lift a compressor runs at (assumption: 5 K). */
constexpr double kMinimumLiftK = 5.0;
/// Passes of the towers' water with the compressors' heat at most, and the change in the water
/// under which the passes stop (numerical settings, not physics: each pass moves the water about
/// a fifth of the one before, so what is left after the last is about a quarter of its move;
/// hour counts near the economizer's limit, chiller hours among them, need the water that close).
constexpr int kTowerPasses = 6;
constexpr double kTowerWaterToleranceK = 0.01;
/** Highest share of the Carnot COP a real chiller reaches at its rating (bounds an inconsistent
 *  rating). */
constexpr double kMaximumCarnotFraction = 0.9;
/** EIR as a function of part-load ratio, quadratic, of a variable-speed centrifugal chiller:
 *  EnergyPlus datasets/Chillers.idf, "ElectricEIRChiller Carrier 19XR 742kW/5.42COP/VSD"
 *  (CoolTools data), curve EIRFPLR; minimum part-load ratio 0.19 (below it the chiller cycles). */
constexpr double kEirPlrA = 0.1202277;
constexpr double kEirPlrB = 0.1396384;
constexpr double kEirPlrC = 0.7394038;
constexpr double kMinimumPartLoadRatio = 0.19;
/** ASHRAE TC9.9 recommended server inlet envelope, upper end (docs/references.md). */
constexpr double kAshraeRecommendedMaxInletC = 27.0;
/** Placeholder climate when a site has none (assumption: a temperate 20 C dry / 15 C wet bulb). */
constexpr double kPlaceholderDryBulbC = 20.0;
constexpr double kPlaceholderWetBulbC = 15.0;

constexpr double kKelvin = 273.15;
/** Water as the secondary coolant: c_p 4.18 kJ/(kg K), 1 kg/L (ASHRAE Fundamentals 2017, ch. 33;
 *  a propylene-glycol mix has a few percent less c_p, assumption: water). */
constexpr double kCoolantCpKjPerKgK = 4.18;
constexpr double kCoolantDensityKgPerL = 1.0;

std::string num(double v)
{
    char buffer[64];
    std::snprintf(buffer, sizeof buffer, "%.4g", v);
    return buffer;
}

/** Carnot COP of a refrigeration cycle serving \a supplyC and rejecting to \a condenserC. */
double carnotCop(double supplyC, double condenserC)
{
    const double evaporatingC = supplyC - kEvaporatorApproachK;
    const double condensingC = condenserC + kCondenserOffsetK;
    const double liftK = std::max(kMinimumLiftK, condensingC - evaporatingC);
    return (evaporatingC + kKelvin) / liftK;
}

/**
 * A chiller's input per unit of heat at full load, 1 / COP = perKelvin x lift / T_evaporating +
 * fixed (docs/siteyear.md, "The chiller"). At its rating the chiller draws 1 / COP_rated; the
 * share s (chiller_lift_independent_share) of that stays at every lift, the rest scales with the
 * lift over the evaporating temperature (the inverse of the Carnot COP, carnotCop()). s = 0 is a
 * chiller that keeps its rated share of the Carnot COP; published curves of water-cooled
 * centrifugal chillers fall off Carnot at low lift (tests/validation/facility).
 */
struct ChillerInput
{
    double perKelvin = 0.0; ///< Times lift / T_evaporating (K / K).
    double fixed = 0.0;     ///< At every lift.
};

ChillerInput chillerInput(const model::CoolingSystemSpec& system)
{
    const double ratedCarnot = carnotCop(system.chilledWaterSupplyC, system.chillerRatedCondenserC);
    // A rating above the bound is taken at the bound.
    const double ratedCop = std::min(system.chillerCopRated, kMaximumCarnotFraction * ratedCarnot);
    const double s = std::clamp(system.chillerLiftIndependentShare, 0.0, 0.9);
    ChillerInput in;
    in.perKelvin = (1.0 - s) / ratedCop * ratedCarnot; // x 1 / Carnot COP of the hour
    in.fixed = s / ratedCop;
    return in;
}

/** One heat loop of the plant: its heat, supply and return temperature. */
struct Loop
{
    double heatKw = 0.0;
    double supplyC = 0.0;
    double returnC = 0.0;
};

/** One loop of the plant over the year, entry by entry (vectorized over the hours). */
struct LoopYear
{
    Eigen::ArrayXd economizerShare;
    Eigen::ArrayXd chillerHeatKw;
    Eigen::ArrayXd chillerKw;
};

/** The coldest water the plant's heat rejection gives each hour, for the economizer and for the
 *  chillers' condensers (plantWater()). */
struct PlantWater
{
    Eigen::ArrayXd economizerC; ///< Leaving the free-cooling heat exchanger.
    Eigen::ArrayXd condenserC;  ///< Entering the chillers' condensers.
};

/**
 * The water \a system's heat rejection gives at each of \a outdoorC (the wet bulb for towers, the
 * dry bulb or pre-cooled air for dry coolers); \a tower, the approach of the plant's towers at
 * their load (null without towers). A cooling tower leaves its water its approach above the wet
 * bulb, larger the colder the wet bulb and the more heat it carries (coolingtower.h); the
 * chillers take it as it leaves the tower, the economizer behind its heat exchanger
 * (economizer_approach_c less the tower's rated approach). Dry coolers and air-cooled condensers
 * keep one approach, economizer_approach_c, for both.
 */
PlantWater plantWater(const model::CoolingSystemSpec& system, const Eigen::ArrayXd& outdoorC,
                      const TowerApproachTable* tower)
{
    PlantWater w;
    if (tower) {
        w.condenserC = outdoorC + (*tower)(outdoorC);
        w.economizerC =
            w.condenserC + std::max(0.0, system.economizerApproachC - system.towerDesignApproachC);
    } else {
        w.economizerC = outdoorC + system.economizerApproachC;
        w.condenserC = w.economizerC;
    }
    return w;
}

/**
 * The towers' water of a plant hour by hour when they carry the compressors' heat too: the
 * approach of a tower at the loops' heat alone (\a lightK, at \a lightLoad of its design heat)
 * and of one with the compressors at their rated COP (\a heavyK, at \a heavyLoad), each hour's
 * interpolated between them at its own load (the approach at a wet bulb grows about in
 * proportion to the heat: the range does, and the water's mean enthalpy difference with it).
 * The two approaches are looked up once; each pass only interpolates.
 */
class LoadedTowerWater
{
public:
    LoadedTowerWater(const model::CoolingSystemSpec& system, const Eigen::ArrayXd& outdoorC,
                     const Eigen::ArrayXd& lightK, double lightLoad, const Eigen::ArrayXd& heavyK,
                     double heavyLoad)
        : m_lightC(outdoorC + lightK),
          m_stepK(heavyLoad > lightLoad ? ((heavyK - lightK) / (heavyLoad - lightLoad)).eval()
                                        : Eigen::ArrayXd::Zero(outdoorC.size()).eval()),
          m_economizerOffsetK(
              std::max(0.0, system.economizerApproachC - system.towerDesignApproachC))
    {}

    /** Writes into \a water the towers' water with each hour's compressors' heat \a
     *  compressorLoad (a share of their design heat) on top of the loops'. */
    void operator()(const Eigen::ArrayXd& compressorLoad, PlantWater& water) const
    {
        water.condenserC = m_lightC + compressorLoad.max(0.0) * m_stepK;
        water.economizerC = water.condenserC + m_economizerOffsetK;
    }

private:
    Eigen::ArrayXd m_lightC; ///< Leaving the towers at the loops' heat alone.
    Eigen::ArrayXd m_stepK;  ///< Warmer per unit of load above it.
    double m_economizerOffsetK;
};

LoopYear solveLoopYear(const model::CoolingSystemSpec& system, bool economizer, const Loop& loop,
                       const PlantWater& water)
{
    const Eigen::Index n = water.economizerC.size();
    LoopYear out;
    if (loop.heatKw <= 0.0) {
        out.economizerShare = Eigen::ArrayXd::Zero(n);
        out.chillerHeatKw = Eigen::ArrayXd::Zero(n);
        out.chillerKw = Eigen::ArrayXd::Zero(n);
        return out;
    }
    // The economizer (free cooling) and the heat rejection of the chiller both reach the outdoor
    // temperature only to within the approach of the tower or dry cooler (plantWater()).
    const Eigen::ArrayXd& coldestC = water.economizerC;
    // economizerShare() hour by hour: (T_return - T_econ) / (T_return - T_supply), in [0, 1].
    const double rangeK = loop.returnC - loop.supplyC;
    if (!economizer)
        out.economizerShare = Eigen::ArrayXd::Zero(n);
    else if (rangeK <= 0.0)
        out.economizerShare = (coldestC <= loop.supplyC).cast<double>();
    else
        out.economizerShare = ((loop.returnC - coldestC) / rangeK).max(0.0).min(1.0);
    out.chillerHeatKw = (1.0 - out.economizerShare) * loop.heatKw;
    // chillerCop() hour by hour (ChillerInput): a share of the rated input at every lift, the
    // rest in proportion to the lift over the evaporating temperature. The chiller is sized for
    // the loop's whole heat; with the economizer in series it trims the rest at part load
    // (chillerPartLoadPowerFraction()). One pass over the hours (the plant solves this a few
    // times a year's evaluation: coolingResult()).
    const ChillerInput input = chillerInput(system);
    const double evaporatingC = loop.supplyC - kEvaporatorApproachK;
    const double perLiftK = loop.heatKw * input.perKelvin / (evaporatingC + kKelvin);
    const double fixedKw = loop.heatKw * input.fixed;
    const double liftOffsetK = kCondenserOffsetK - evaporatingC;
    const double eirFull = kEirPlrA + kEirPlrB + kEirPlrC;
    const double eirMinimum = kEirPlrA + kEirPlrB * kMinimumPartLoadRatio +
                              kEirPlrC * kMinimumPartLoadRatio * kMinimumPartLoadRatio;
    const double belowMinimum = eirMinimum / eirFull / kMinimumPartLoadRatio;
    out.chillerKw.resize(n);
    for (Eigen::Index i = 0; i < n; ++i) {
        const double plr = 1.0 - out.economizerShare(i);
        if (plr <= 0.0) {
            out.chillerKw(i) = 0.0;
            continue;
        }
        const double liftK = std::max(water.condenserC(i) + liftOffsetK, kMinimumLiftK);
        const double partLoad = plr < kMinimumPartLoadRatio
                                    ? belowMinimum * plr
                                    : (kEirPlrA + kEirPlrB * plr + kEirPlrC * plr * plr) / eirFull;
        out.chillerKw(i) = (perLiftK * liftK + fixedKw) * partLoad;
    }
    return out;
}

} // namespace

double economizerShare(double supplyC, double returnC, double economizerC)
{
    // A water-side economizer in series ahead of the chiller cools the return water as far as
    // the outdoor air allows (to economizerC); the chiller takes it the rest of the way to
    // supply. Energy balance on the loop's flow: share = (T_return - T_econ) / (T_return -
    // T_supply).
    const double rangeK = returnC - supplyC;
    if (rangeK <= 0.0)
        return economizerC <= supplyC ? 1.0 : 0.0;
    return std::clamp((returnC - economizerC) / rangeK, 0.0, 1.0);
}

double chillerCop(const model::CoolingSystemSpec& system, double supplyC, double condenserC)
{
    const ChillerInput input = chillerInput(system);
    return 1.0 / (input.perKelvin / carnotCop(supplyC, condenserC) + input.fixed);
}

double chillerPartLoadPowerFraction(double plr)
{
    const double p = std::clamp(plr, 0.0, 1.0);
    auto eir = [](double x) { return kEirPlrA + kEirPlrB * x + kEirPlrC * x * x; };
    // Normalized so that full load draws exactly the rated power (the fitted curve gives
    // 0.99927 at 1).
    if (p < kMinimumPartLoadRatio) // cycling at the minimum unloading point
        return eir(kMinimumPartLoadRatio) / eir(1.0) * p / kMinimumPartLoadRatio;
    return eir(p) / eir(1.0);
}

ThrottleResult thermalThrottle(const model::GpuSpec& gpu, double utilization,
                               double environmentTempC, double resistanceCPerW)
{
    // NVIDIA NVML clock event reasons: "SW Thermal Slowdown" lowers clocks so that the GPU stays
    // at or below its max operating temperature; "HW Thermal Slowdown" reduces the core clocks by
    // a factor of 2 or more when the slowdown temperature is reached. Model: full clocks while
    // T <= max_operating_temp_c; SW slowdown holds T at that limit down to the base clock; when
    // the base clock still passes slowdown_temp_c, HW slowdown halves the base clock.
    auto tempAt = [&](double c) {
        return environmentTempC + resistanceCPerW * gpuPowerW(gpu, utilization, c);
    };
    ThrottleResult out;
    out.gpuTempC = tempAt(1.0);
    if (out.gpuTempC <= gpu.maxOperatingTempC)
        return out;
    const double floor =
        gpu.boostClockMhz > 0.0 ? std::clamp(gpu.baseClockMhz / gpu.boostClockMhz, 0.0, 1.0) : 1.0;
    if (resistanceCPerW > 0.0) {
        const double allowedW = (gpu.maxOperatingTempC - environmentTempC) / resistanceCPerW;
        const double c = clockFactorForGpuPowerW(gpu, utilization, allowedW);
        if (c >= floor && allowedW > gpu.idleW) {
            out.clockFactor = c;
            out.gpuTempC = tempAt(c);
            out.state = ThrottleState::SwThermal;
            return out;
        }
    }
    if (tempAt(floor) <= gpu.slowdownTempC) {
        out.clockFactor = floor;
        out.gpuTempC = tempAt(floor);
        out.state = ThrottleState::SwThermalFloor;
        return out;
    }
    out.clockFactor = floor / 2.0;
    out.gpuTempC = tempAt(out.clockFactor);
    out.state = ThrottleState::HwSlowdown;
    return out;
}

namespace {

/** The rack, coolant and GPU temperatures of a cooling system and the clock they allow. */
struct RackThermal
{
    double rackCapacityKw = 0.0;
    double rackOverloadRatio = 0.0;
    double inletTempC = 0.0;
    double coolantTempC = 0.0;
    double gpuTempC = 0.0;
    ThrottleResult throttle;
};

RackThermal rackThermal(const model::ResolvedScenario& r, const model::CoolingSystemSpec& sys,
                        const PowerResult& power)
{
    // Rack capacity and temperatures. The system delivers airflow (and coolant flow) for
    // max_rack_kw per rack; a rack with more heat draws the deficit from its own exhaust
    // (recirculation). Mixing V_s at T_supply with (V_d - V_s) at T_inlet + dT gives
    // T_inlet = T_supply + (Q_rack / Q_capacity - 1) dT, with dT the server's air rise.
    RackThermal out;
    const bool liquid = sys.type == model::CoolingType::LiquidD2cRdhx;
    out.rackCapacityKw = sys.maxRackKw;
    out.rackOverloadRatio = sys.maxRackKw > 0.0 ? power.rackPowerKw / sys.maxRackKw : 0.0;
    const double excess = std::max(0.0, out.rackOverloadRatio - 1.0);
    out.inletTempC = sys.supplyAirTempC + excess * kServerAirRiseK;
    const double u = r.scenario.compute.utilization;
    double environmentC = out.inletTempC;
    double resistance = r.gpu.thermalResistanceAirCPerW;
    if (liquid) {
        out.coolantTempC = sys.liquidSupplyTempC + excess * kLiquidLoopRiseK;
        environmentC = out.coolantTempC;
        resistance = r.gpu.thermalResistanceLiquidCPerW;
    }
    out.gpuTempC = environmentC + resistance * gpuPowerW(r.gpu, u, power.clockFactor);
    out.throttle = thermalThrottle(r.gpu, u, environmentC, resistance);
    return out;
}

/** The outdoor temperature \a sys's plant sees (climateStates()). */
ClimateKey climateKey(const model::CoolingSystemSpec& sys)
{
    ClimateKey key;
    key.wet = sys.evaporativeHeatRejection;
    if (!sys.evaporativeHeatRejection && sys.adiabaticEffectiveness > 0.0) {
        key.adiabaticEffectiveness = sys.adiabaticEffectiveness;
        key.adiabaticThresholdC = sys.adiabaticThresholdC;
    }
    return key;
}

/** How much of a cooling result to work out. */
enum class CoolingPart
{
    Everything,
    /** Only what the facility's power and PUE read (completeFacilityPower: the hourly and
     *  average cooling power, its peak, the year), for the side-by-side PUE of the other
     *  options: no water, free-cooling hours, chiller statistics or rack temperatures. */
    Pue,
};

/** solveCooling(); diagnostics only when \a diagnostics is not null (they cost strings). */
CoolingResult coolingResult(const model::ResolvedScenario& r, const model::CoolingSystemSpec& sys,
                            const PowerResult& power, Diagnostics* diagnostics,
                            CoolingPart part = CoolingPart::Everything,
                            std::shared_ptr<const SiteYear> yearOverride = nullptr)
{
    CoolingResult out;
    out.systemId = sys.id;
    out.systemType = sys.type == model::CoolingType::AirCrac ? "air_crac" : "d2c_rdhx";
    const bool liquid = sys.type == model::CoolingType::LiquidD2cRdhx;
    const bool economizer = r.scenario.cooling.economizer && sys.economizerAvailable;

    // Heat split: the cold plates capture a share of the IT heat into liquid; the rest of the IT
    // heat and the indoor electrical losses and lighting go to air. Fan power ends up as heat in
    // the same air stream, pump power in the water it moves.
    const double capture = liquid ? sys.liquidCaptureFraction : 0.0;
    const double liquidHeatKw = capture * power.itPowerKw;
    const double airHeatKw = power.indoorHeatKw - liquidHeatKw;
    // Bypass air: in an uncontained room part of the supplied air returns to the units without
    // passing a server, so the fans move the servers' air flow over (1 - bypass); units running
    // at constant speed in parallel draw power in proportion to the air they move.
    out.fanKw = sys.fanPowerWPerKw / 1000.0 * airHeatKw / (1.0 - sys.bypassAirFraction);
    out.airHeatKw = airHeatKw + out.fanKw;
    out.liquidHeatKw = liquidHeatKw;
    out.pumpKw = sys.pumpPowerWPerKw / 1000.0 * (out.airHeatKw + out.liquidHeatKw);
    const double waterHeatKw = out.airHeatKw + out.liquidHeatKw;
    const double pumpAirKw = waterHeatKw > 0.0 ? out.pumpKw * out.airHeatKw / waterHeatKw : 0.0;

    // Two temperature levels: air is cooled by chilled water; the D2C coolant runs warm, so its
    // facility water can be far warmer and free cooling lasts much longer.
    Loop airLoop{out.airHeatKw + pumpAirKw, sys.chilledWaterSupplyC,
                 sys.chilledWaterSupplyC + kChilledWaterRiseK};
    const double liquidSupplyC = sys.liquidSupplyTempC - kCduApproachK;
    Loop liquidLoop{out.liquidHeatKw + (out.pumpKw - pumpAirKw), liquidSupplyC,
                    liquidSupplyC + kLiquidLoopRiseK};

    // The site's year: 8,760 synthesized hours (built once per site and shared), or its climate
    // bins weighted by their hours (docs/siteyear.md).
    // An hourly year runs on its distinct climate states (climateStates(), built once per site
    // and shared), unless the caller hands it a year to run hour by hour.
    out.year = yearOverride
                   ? std::move(yearOverride)
                   : climateStates(siteYear(r.site, kPlaceholderDryBulbC, kPlaceholderWetBulbC),
                                   climateKey(sys));
    const SiteYear& year = *out.year;
    if (diagnostics) // the evaluation's own pass, once per evaluation (sweeps report the paths)
        countSiteYearPath(year);
    if (diagnostics && !r.site.climateNormals.present && year.dryBulbC.size() == 1 &&
        r.site.climateBins.empty())
        diagnostics->note("/site/climate_normals",
                          "the site has no climate normals and no climate bins: cooling uses "
                          "one placeholder bin of " +
                              num(kPlaceholderDryBulbC) + " C dry bulb all year",
                          "give the site its climate normals (docs/siteyear.md)",
                          "climate-placeholder");

    // Towers reach toward the wet bulb; dry coolers and air-cooled condensers the dry bulb, or the
    // pre-cooled air of an adiabatic assist.
    const Eigen::ArrayXd outdoorC = year.outdoorC.size() == year.hours.size() ? year.outdoorC
                                    : sys.evaporativeHeatRejection            ? year.wetBulbC
                                                                   : dryCoolerAirC(sys, year);
    // The towers' load: the loops' heat over the heat they are designed for, the loops at the
    // nameplate IT power plus the chillers' compressors at their rated COP (the plant is sized
    // on the peak hour at nameplate).
    const double loopsKw = airLoop.heatKw + liquidLoop.heatKw;
    const double designRejectedKw =
        loopsKw *
        (power.itPowerKw > 0.0 ? std::max(1.0, power.itNameplateKw / power.itPowerKw) : 1.0) *
        (1.0 + 1.0 / std::max(1.0, sys.chillerCopRated));
    const double towerLoad = designRejectedKw > 0.0 ? loopsKw / designRejectedKw : 1.0;
    out.towerLoad = sys.evaporativeHeatRejection ? towerLoad : 1.0;
    // One lookup of the towers' table for the plant's water and its warm-water limit.
    const CoolingTower lightTower = sys.evaporativeHeatRejection
                                        ? plantCoolingTower(sys, year.pressureKpa, towerLoad)
                                        : CoolingTower{};
    const std::shared_ptr<const TowerApproachTable> tower =
        sys.evaporativeHeatRejection ? towerApproachTable(lightTower) : nullptr;
    PlantWater water = plantWater(sys, outdoorC, tower.get());
    LoopYear a = solveLoopYear(sys, economizer, airLoop, water);
    LoopYear l = solveLoopYear(sys, economizer, liquidLoop, water);
    // In the hours the chillers run, the towers carry their compressors' heat too (the heat
    // balance of the condenser: evaporator heat plus compressor work), so their water leaves
    // warmer than the loops' heat alone would leave it; and the chillers' power, and where the
    // economizer runs with them its share, depend on that water. Solved by successive passes
    // from the loops' heat alone until the water moves less than 0.01 K (two or three passes:
    // each moves it by the change in compressor power times the approach's slope).
    if (tower && sys.chillerCopRated > 0.0 && designRejectedKw > 0.0 &&
        ((a.chillerKw > 0.0).any() || (l.chillerKw > 0.0).any())) {
        const CoolingTower heavyTower = plantCoolingTower(
            sys, year.pressureKpa, towerLoad * (1.0 + 1.0 / std::max(1.0, sys.chillerCopRated)));
        const double range = std::max(1e-9, sys.condenserWaterRangeC);
        const LoadedTowerWater loaded(
            sys, outdoorC, water.condenserC - outdoorC, lightTower.rangeK / range,
            (*towerApproachTable(heavyTower))(outdoorC), heavyTower.rangeK / range);
        PlantWater next;
        for (int pass = 0; pass < kTowerPasses; ++pass) {
            loaded((a.chillerKw + l.chillerKw) / designRejectedKw, next);
            const double movedK = (next.condenserC - water.condenserC).abs().maxCoeff();
            std::swap(water, next);
            a = solveLoopYear(sys, economizer, airLoop, water);
            l = solveLoopYear(sys, economizer, liquidLoop, water);
            if (movedK < kTowerWaterToleranceK)
                break;
        }
    }
    if (sys.evaporativeHeatRejection && year.totalHours > 0.0)
        out.meanTowerApproachK =
            ((water.condenserC - outdoorC) * year.hours).sum() / year.totalHours;
    const Eigen::ArrayXd& hours = year.hours;
    out.hourlyChillerKw = a.chillerKw + l.chillerKw;
    // Heat rejection: tower or dry-cooler fans move the loops' heat plus the compressors'.
    out.hourlyHeatRejectionKw = sys.heatRejectionWPerKw / 1000.0 *
                                (airLoop.heatKw + liquidLoop.heatKw + out.hourlyChillerKw);
    out.hourlyCoolingKw = out.fanKw + out.pumpKw + out.hourlyChillerKw + out.hourlyHeatRejectionKw;

    out.climateHours = year.totalHours;
    if (out.climateHours > 0.0)
        out.coolingKw = (out.hourlyCoolingKw * hours).sum() / out.climateHours;
    out.peakCoolingKw = out.hourlyCoolingKw.size() > 0 ? out.hourlyCoolingKw.maxCoeff() : 0.0;
    if (part == CoolingPart::Pue)
        return out;

    out.hourlyEconomizerShareAir = a.economizerShare;
    out.hourlyEconomizerShareLiquid = l.economizerShare;
    out.hourlyCondenserWaterC = water.condenserC;
    const double chillerHeatKwh = ((a.chillerHeatKw + l.chillerHeatKw) * hours).sum();
    const double chillerKwh = (out.hourlyChillerKw * hours).sum();
    const double economizerKwh =
        ((a.economizerShare * airLoop.heatKw + l.economizerShare * liquidLoop.heatKw) * hours)
            .sum();
    const double heatKwh = (airLoop.heatKw + liquidLoop.heatKw) * year.totalHours;
    if (out.climateHours > 0.0) {
        out.chillerKw = chillerKwh / out.climateHours;
        out.heatRejectionKw = (out.hourlyHeatRejectionKw * hours).sum() / out.climateHours;
    }
    if (year.dryBulbC.size() > 0) {
        out.hottestHourCoolingKw = out.hourlyCoolingKw(year.hottestIndex);
        const SiteYear& hourly = year.source ? *year.source : year;
        out.hottestHourDryBulbC = hourly.dryBulbC(hourly.hottestIndex);
        out.hottestHourWetBulbC = hourly.wetBulbC(hourly.hottestIndex);
    }
    const Eigen::ArrayXd airFree = airLoop.heatKw <= 0.0
                                       ? Eigen::ArrayXd::Ones(hours.size())
                                       : (a.economizerShare >= 1.0).cast<double>().eval();
    const Eigen::ArrayXd liquidFree = liquidLoop.heatKw <= 0.0
                                          ? Eigen::ArrayXd::Ones(hours.size())
                                          : (l.economizerShare >= 1.0).cast<double>().eval();
    const Eigen::ArrayXd fullFree = airFree * liquidFree;
    const Eigen::ArrayXd anyShare =
        ((a.economizerShare > 0.0) || (l.economizerShare > 0.0)).cast<double>();
    out.fullFreeCoolingHours = (fullFree * hours).sum();
    out.partialFreeCoolingHours = ((1.0 - fullFree) * anyShare * hours).sum();
    out.chillerHours = ((out.hourlyChillerKw > 0.0).cast<double>() * hours).sum();
    out.economizerHeatShare = heatKwh > 0.0 ? economizerKwh / heatKwh : 0.0;

    // Liquid plant: CDUs for the design liquid heat (full clocks), the secondary coolant flow
    // from m = Q / (c_p dT), its pumps' power from flow x head / efficiency, the facility-water
    // temperatures behind the CDU approach, and the warm-water limit: the outdoor temperature
    // (wet bulb for towers, dry bulb for dry coolers) up to which the economizer takes the whole
    // liquid loop, so that the loop needs no chiller (the liquid loop's chiller-free hours).
    if (liquid && out.liquidHeatKw > 0.0) {
        out.cduCapacityKw = sys.cduCapacityKw;
        out.cduCount = designCduCount(sys, power.itDesignPowerKw);
        const double flowKgPerS = out.liquidHeatKw / (kCoolantCpKjPerKgK * sys.coolantRiseC);
        out.coolantFlowLPerS = flowKgPerS / kCoolantDensityKgPerL;
        out.cduPumpKw =
            out.coolantFlowLPerS / 1000.0 * sys.coolantLoopHeadKpa / sys.coolantPumpEfficiency;
        out.facilityWaterSupplyC = liquidLoop.supplyC;
        out.facilityWaterReturnC = liquidLoop.returnC;
        // The outdoor temperature at which the economizer's water reaches the loop's supply.
        out.chillerFreeOutdoorC =
            tower ? tower->wetBulbForWaterC(
                        liquidLoop.supplyC -
                        std::max(0.0, sys.economizerApproachC - sys.towerDesignApproachC))
                  : liquidLoop.supplyC - sys.economizerApproachC;
        out.liquidChillerHours = ((l.chillerKw > 0.0).cast<double>() * hours).sum();
    }

    // Water: everything the loops carry plus the compressors' power leaves through the heat
    // rejection, hour by hour.
    out.heatRejection = sys.evaporativeHeatRejection       ? "cooling_tower"
                        : sys.adiabaticEffectiveness > 0.0 ? "dry_cooler_adiabatic"
                                                           : "dry_cooler";
    if (sys.evaporativeHeatRejection || sys.adiabaticEffectiveness > 0.0) {
        const Eigen::ArrayXd rejectedKw = airLoop.heatKw + liquidLoop.heatKw + out.hourlyChillerKw;
        const HeatRejectionWater drawn =
            heatRejectionWater(sys, year, rejectedKw, year.pressureKpa, out.towerLoad,
                               &out.hourlyCondenserWaterC, airLoop.heatKw + liquidLoop.heatKw);
        out.hourlyWaterL = drawn.totalL;
        out.evaporationM3PerYear = drawn.evaporationL.sum() / 1000.0;
        out.blowdownM3PerYear = drawn.blowdownL.sum() / 1000.0;
        out.driftM3PerYear = drawn.driftL.sum() / 1000.0;
        out.peakWaterM3PerHour = drawn.peakLPerHour / 1000.0;
        for (std::size_t m = 0; m < 12; ++m)
            out.monthlyWaterM3[m] = drawn.monthlyL[m] / 1000.0;
    } else {
        out.hourlyWaterL = Eigen::ArrayXd::Zero(hours.size());
    }
    out.waterM3PerYear = out.hourlyWaterL.sum() / 1000.0;
    const double itKwh = power.itPowerKw * year.totalHours;
    // WUE: annual site water over IT energy, L/kWh (The Green Grid, White Paper #35, "Water
    // Usage Effectiveness (WUE): a green grid data center sustainability metric", 2011).
    out.wueLPerKwh = itKwh > 0.0 ? out.hourlyWaterL.sum() / itKwh : 0.0;
    out.waterHours = ((out.hourlyWaterL > 0.0).cast<double>() * hours).sum();
    out.averageChillerCop = chillerKwh > 0.0 ? chillerHeatKwh / chillerKwh : 0.0;

    const RackThermal thermal = rackThermal(r, sys, power);
    out.rackCapacityKw = thermal.rackCapacityKw;
    out.rackOverloadRatio = thermal.rackOverloadRatio;
    out.inletTempC = thermal.inletTempC;
    out.coolantTempC = thermal.coolantTempC;
    out.gpuTempC = thermal.gpuTempC;
    out.throttle = thermal.throttle;
    // The plant holds the supply setpoints in every hour (chillers sized on the hottest hour), so
    // the GPUs run in the same thermal state all year.
    out.throttleHours = out.throttle.state != ThrottleState::None ? out.climateHours : 0.0;
    if (!diagnostics)
        return out;

    if (out.inletTempC > r.node.maxInletTempC)
        diagnostics->warning("/cooling/system",
                             "server inlet air reaches " + num(out.inletTempC) + " C, above the " +
                                 num(r.node.maxInletTempC) + " C the node '" + r.node.id +
                                 "' is specified to run on",
                             "fewer nodes per rack (rack_layout \"spread\") or a cooling system "
                             "of higher max_rack_kw",
                             "inlet-over-allowable");
    else if (out.inletTempC > kAshraeRecommendedMaxInletC)
        diagnostics->warning("/cooling/system",
                             "server inlet air reaches " + num(out.inletTempC) +
                                 " C, above the ASHRAE TC9.9 recommended 27 C",
                             "fewer nodes per rack (rack_layout \"spread\") or a cooling system "
                             "of higher max_rack_kw",
                             "inlet-temperature");
    if (out.throttle.state != ThrottleState::None)
        diagnostics->warning("/cooling/system",
                             "GPUs reach " + num(out.throttle.gpuTempC) + " C and throttle (" +
                                 throttleStateName(out.throttle.state) + "): clock factor " +
                                 num(out.throttle.clockFactor),
                             "cooler inlet or coolant, fewer nodes per rack, or liquid cooling",
                             "gpu-throttle");
    if (out.throttle.gpuTempC >= r.gpu.shutdownTempC)
        diagnostics->error(
            "/cooling/system",
            "GPUs reach " + num(out.throttle.gpuTempC) +
                " C even at HW slowdown, at or above their shutdown temperature of " +
                num(r.gpu.shutdownTempC) + " C",
            "a cooling system that holds the GPUs below their limits", "gpu-thermal-shutdown");
    return out;
}

} // namespace

CoolingResult solveCooling(const model::ResolvedScenario& r, const model::CoolingSystemSpec& sys,
                           const PowerResult& power, Diagnostics& diagnostics)
{
    return coolingResult(r, sys, power, &diagnostics);
}

CoolingResult solveCooling(const model::ResolvedScenario& r, const model::CoolingSystemSpec& sys,
                           const PowerResult& power)
{
    return coolingResult(r, sys, power, nullptr);
}

ThrottleResult coolingThrottle(const model::ResolvedScenario& r,
                               const model::CoolingSystemSpec& sys, const PowerResult& power)
{
    return rackThermal(r, sys, power).throttle;
}

CoolingResult solveCoolingHourByHour(const model::ResolvedScenario& r,
                                     const model::CoolingSystemSpec& sys, const PowerResult& power)
{
    return coolingResult(r, sys, power, nullptr, CoolingPart::Everything,
                         siteYear(r.site, kPlaceholderDryBulbC, kPlaceholderWetBulbC));
}

std::vector<CoolingOptionPue> coolingOptionPues(const model::ResolvedScenario& r,
                                                const PowerResult& power)
{
    std::vector<CoolingOptionPue> out;
    out.reserve(r.coolingOptions.size());
    // Each option runs on the climate states its plant sees (climateStates()).
    const auto year = siteYear(r.site, kPlaceholderDryBulbC, kPlaceholderWetBulbC);
    for (const auto& option : r.coolingOptions) {
        const CoolingResult c = coolingResult(r, option, power, nullptr, CoolingPart::Pue,
                                              climateStates(year, climateKey(option)));
        const PowerResult p = completeFacilityPower(r, power, c);
        CoolingOptionPue row;
        row.systemId = option.id;
        row.systemType = c.systemType;
        row.pue = p.pue;
        row.coolingKw = c.coolingKw;
        row.rackOverCapacity = power.rackDesignPowerKw > option.maxRackKw;
        out.push_back(row);
    }
    return out;
}

namespace {

/** Most units a count returns: far above any plant, well within an int. */
constexpr double maxUnitCount = 1e8;

} // namespace

int designCduCount(const model::CoolingSystemSpec& sys, double itDesignPowerKw)
{
    if (sys.type != model::CoolingType::LiquidD2cRdhx || sys.cduCapacityKw <= 0.0)
        return 0;
    const double designLiquidKw = sys.liquidCaptureFraction * std::max(0.0, itDesignPowerKw);
    // Held below what an int holds: a capacity of a trillionth of a kW is refused by the hall.
    return static_cast<int>(
        std::min(std::ceil(designLiquidKw / sys.cduCapacityKw - 1e-9), maxUnitCount));
}

int designCrahCount(const model::CoolingSystemSpec& sys, double itDesignPowerKw)
{
    // Rear doors take the air share of a liquid system rack by rack; room units only serve an
    // air-cooled hall.
    if (sys.type != model::CoolingType::AirCrac || sys.crahCapacityKw <= 0.0)
        return 0;
    return static_cast<int>(std::min(
        std::ceil(std::max(0.0, itDesignPowerKw) / sys.crahCapacityKw - 1e-9), maxUnitCount));
}

} // namespace dct::solvers
