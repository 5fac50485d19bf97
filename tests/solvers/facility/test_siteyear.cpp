#include "dct/solvers/coolingsolver.h"
#include "dct/solvers/coolingtower.h"
#include "dct/solvers/evaluator.h"
#include "dct/solvers/gridsolver.h"
#include "dct/solvers/heatrejectionwater.h"
#include "dct/solvers/powersolver.h"
#include "dct/solvers/siteyear.h"
#include "facilitysupport.h"

#include <array>

using namespace dct;
using namespace dct::solvers;

namespace {

/** Days of the months of a 365-day year. */
constexpr std::array<int, 12> kMonthDays = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};

const model::SiteSpec& site(const std::string& id)
{
    const auto& shelf = test::catalog().sites().entries;
    const auto it = shelf.find(id);
    if (it == shelf.end())
        FAIL("no site " << id);
    return it->second;
}

} // namespace

TEST_CASE("Psychrometrics: wet bulb of saturated and of dry air", "[siteyear]")
{
    // Saturated air: the wet bulb is the dry bulb.
    CHECK(wetBulbC(20.0, 20.0, 101.325) == Approx(20.0).margin(0.01));
    // ASHRAE Fundamentals 2017, ch. 1, Example 2 style check: 30 C dry bulb with a 20 C dew point
    // at sea level has a wet bulb of about 22.9 C (psychrometric chart).
    CHECK(wetBulbC(30.0, 20.0, 101.325) == Approx(22.9).margin(0.2));
    // Fundamentals ch. 1, Table 1: 101.325 kPa at sea level, 89.875 kPa at 1,000 m.
    CHECK(stationPressureKpa(0.0) == Approx(101.325).epsilon(1e-9));
    CHECK(stationPressureKpa(1000.0) == Approx(89.875).epsilon(1e-3));
}

TEST_CASE("Site year: every bundled site has 8,760 hours that reproduce its normals", "[siteyear]")
{
    for (const auto& [id, spec] : test::catalog().sites().entries) {
        INFO(id);
        REQUIRE(spec.climateNormals.present);
        const SiteYear y = synthesizeSiteYear(spec.climateNormals, spec.elevationM);
        REQUIRE(y.hourly);
        REQUIRE(y.dryBulbC.size() == kHoursPerYear);
        CHECK(y.totalHours == Approx(8760.0).epsilon(1e-12));
        // Each month's mean daily maximum and minimum are the normals (ASHRAE profile: the
        // maximum at hour 15, the minimum at hour 5 of each day).
        int day = 0;
        for (std::size_t m = 0; m < 12; ++m) {
            double highs = 0.0;
            double lows = 0.0;
            for (int k = 0; k < kMonthDays[m]; ++k, ++day) {
                const auto today = y.dryBulbC.segment(day * 24, 24);
                highs += today.maxCoeff();
                lows += today.minCoeff();
            }
            INFO("month " << m + 1);
            CHECK(highs / kMonthDays[m] == Approx(spec.climateNormals.tmaxC[m]).margin(0.05));
            CHECK(lows / kMonthDays[m] == Approx(spec.climateNormals.tminC[m]).margin(0.05));
        }
        // The tails reproduce the ASHRAE design conditions the normals cite.
        CHECK(y.design04DryBulbC == Approx(spec.climateNormals.designDryBulbC).margin(0.1));
        CHECK(y.heating996DryBulbC == Approx(spec.climateNormals.heatingDryBulbC).margin(0.1));
        CHECK(y.design04WetBulbC == Approx(spec.climateNormals.designWetBulbC).margin(0.3));
        // The wet bulb never passes the dry bulb; the hottest hour is above the design value.
        CHECK((y.wetBulbC <= y.dryBulbC + 1e-9).all());
        CHECK(y.dryBulbC(y.hottestIndex) > y.design04DryBulbC);
    }
}

TEST_CASE("Site year: the same seed gives the same year, another seed another", "[siteyear]")
{
    model::ClimateNormals normals = site("london").climateNormals;
    const SiteYear a = synthesizeSiteYear(normals, 25.0);
    const SiteYear b = synthesizeSiteYear(normals, 25.0);
    CHECK((a.dryBulbC == b.dryBulbC).all());
    CHECK((a.wetBulbC == b.wetBulbC).all());
    normals.seed = 7;
    const SiteYear c = synthesizeSiteYear(normals, 25.0);
    CHECK_FALSE((a.dryBulbC == c.dryBulbC).all());
    // Yet the calibration holds the design value for any seed.
    CHECK(c.design04DryBulbC == Approx(normals.designDryBulbC).margin(0.1));
}

TEST_CASE("Site year: one synthesis per site, shared by every evaluation", "[siteyear]")
{
    const auto first = siteYear(site("dallas"), 20.0, 15.0);
    const auto second = siteYear(site("dallas"), 20.0, 15.0);
    CHECK(first.get() == second.get());
    // A site with neither normals nor bins gets one placeholder bin for the whole year.
    model::SiteSpec bare;
    const auto placeholder = siteYear(bare, 20.0, 15.0);
    CHECK_FALSE(placeholder->hourly);
    CHECK(placeholder->totalHours == Approx(8760.0));
}

TEST_CASE("Hourly plant: the annual figures are the sums over the 8,760 hours", "[siteyear]")
{
    const auto r = test::resolvedExample("legacy-air-h100-dallas");
    const Evaluation e = evaluate(r);
    const CoolingResult& c = e.cooling;
    REQUIRE(c.year);
    REQUIRE(c.year->source);
    // The plant ran over the year's climate states; spread back over the 8,760 hours.
    const Eigen::ArrayXd coolingKw = hourByHour(*c.year, c.hourlyCoolingKw);
    REQUIRE(coolingKw.size() == kHoursPerYear);
    CHECK(c.climateHours == Approx(8760.0));
    CHECK(c.coolingKw == Approx(coolingKw.mean()).epsilon(1e-12));
    CHECK(e.power.facilityPowerKw ==
          Approx(hourByHour(*c.year, e.power.hourlyFacilityKw).mean()).epsilon(1e-12));
    // Every hour is full free cooling, partial free cooling, or chiller alone.
    CHECK(c.fullFreeCoolingHours + c.partialFreeCoolingHours <= 8760.0);
    CHECK(c.chillerHours == Approx(8760.0 - c.fullFreeCoolingHours));
    // The hottest hour costs the most; the annual PUE lies between the best and the peak hour.
    CHECK(e.power.bestPue < e.power.pue);
    CHECK(e.power.pue < e.power.peakPue);
    CHECK(c.hottestHourCoolingKw == Approx(c.peakCoolingKw).epsilon(1e-9));
    CHECK(c.hottestHourDryBulbC > 38.9);
    // Hour 15 of a July day is warmer than hour 5 of the same day, and costs more cooling.
    const Eigen::Index july15 = (181 + 14) * 24;
    CHECK(c.year->source->dryBulbC(july15 + 14) > c.year->source->dryBulbC(july15 + 4));
    CHECK(coolingKw(july15 + 14) > coolingKw(july15 + 4));
    // The metrics carry the hourly figures.
    REQUIRE(e.metric("cooling.peak_pue") != nullptr);
    CHECK(e.metric("cooling.peak_pue")->value == Approx(e.power.peakPue));
    REQUIRE(e.metric("site.design_dry_bulb_c") != nullptr);
    CHECK(e.metric("site.climate_hours")->value == Approx(8760.0));
}

TEST_CASE("Tower water: close to all-latent in summer, less in winter", "[siteyear][water]")
{
    // Summer: 33 C dry bulb, 20.5 C dew point, exhaust saturated at 32.4 C: about 1.4 L/kWh,
    // near the all-latent 3600 / 2430 = 1.48 L/kWh (ASHRAE HVAC Systems and Equipment 2020,
    // ch. 40: evaporation about 1 % of the flow per 7 K of range, i.e. nearly all heat latent).
    const double summer = towerEvaporationLPerKwh(33.0, 20.5, 32.4, 101.325);
    CHECK(summer > 1.2);
    CHECK(summer < 1.55);
    // Winter: 2 C air, 0 C dew point, exhaust at 8.4 C: cold air takes much heat as sensible.
    const double winter = towerEvaporationLPerKwh(2.0, 0.0, 8.4, 101.325);
    CHECK(winter < 0.8 * summer);
    CHECK(winter > 0.3);
}

TEST_CASE("Water: towers draw evaporation, blowdown and drift, dry coolers none",
          "[siteyear][water]")
{
    auto evaluation = [](const std::string& cooling) {
        return evaluate(test::resolvedExample(
            "seed-h100-dallas-d2c", [&](model::Scenario& s) { s.cooling.system.id = cooling; }));
    };
    const Evaluation tower = evaluation("crah-air-chw");
    const Evaluation dry = evaluation("crac-air");
    const CoolingResult& c = tower.cooling;
    CHECK(c.heatRejection == "cooling_tower");
    CHECK(c.waterM3PerYear > 0.0);
    CHECK(c.waterM3PerYear ==
          Approx(c.evaporationM3PerYear + c.blowdownM3PerYear + c.driftM3PerYear).epsilon(1e-9));
    // Blowdown at 5 cycles of concentration: a quarter of the evaporation.
    CHECK(c.blowdownM3PerYear == Approx(c.evaporationM3PerYear / 4.0).epsilon(1e-9));
    CHECK(c.driftM3PerYear < 0.01 * c.evaporationM3PerYear);
    // Order-of-magnitude check, not a validation: on-site WUE of tower-cooled plants is commonly
    // reported at about 1-2 L/kWh of IT energy (e.g. Lei and Masanet 2022, Resources,
    // Conservation and Recycling 182, 106323).
    CHECK(c.wueLPerKwh > 1.0);
    CHECK(c.wueLPerKwh < 2.5);
    // Dallas: July draws more than January.
    CHECK(c.monthlyWaterM3[6] > c.monthlyWaterM3[0]);
    CHECK(dry.cooling.heatRejection == "dry_cooler");
    CHECK(dry.cooling.waterM3PerYear == 0.0);
    CHECK(dry.cooling.wueLPerKwh == 0.0);
    REQUIRE(tower.metric("site.wue_l_per_kwh") != nullptr);
    CHECK(tower.metric("site.wue_l_per_kwh")->value == Approx(c.wueLPerKwh));
}

TEST_CASE("Water: an adiabatic assist sprays in the hot hours and cuts the chiller's lift",
          "[siteyear][water]")
{
    const auto r = test::resolvedExample("legacy-air-h100-dallas");
    Diagnostics d;
    const PowerResult p = solvePower(r, {}, d);
    model::CoolingSystemSpec wet = r.cooling;
    wet.adiabaticEffectiveness = 0.7;
    wet.adiabaticThresholdC = 25.0;
    const CoolingResult plain = solveCooling(r, r.cooling, p);
    const CoolingResult assisted = solveCooling(r, wet, p);
    CHECK(assisted.heatRejection == "dry_cooler_adiabatic");
    CHECK(assisted.waterM3PerYear > 0.0);
    CHECK(assisted.blowdownM3PerYear == 0.0);
    // Only hours above the threshold draw water.
    const auto hot = (assisted.year->source->dryBulbC > 25.0).cast<double>().sum();
    CHECK(assisted.waterHours == Approx(hot));
    CHECK(assisted.chillerKw < plain.chillerKw);
    CHECK(assisted.peakCoolingKw < plain.peakCoolingKw);
}

TEST_CASE("Carbon: the hour's intensity, averaging the annual mean over a flat year",
          "[siteyear][carbon]")
{
    const auto r = test::resolvedExample("seed-h100-dallas-d2c");
    const Evaluation e = evaluate(r);
    // Hour by hour (the evaluation's grouped year gives the same sums: test_climatestates).
    const CoolingResult c = solveCoolingHourByHour(r, r.cooling, e.power);
    const PowerResult p = completeFacilityPower(r, e.power, c);
    const GridResult g = solveGrid(r, p, c);
    const model::SiteSpec& dallas = site("dallas");
    REQUIRE(g.hourlyCarbonKgPerKwh.size() == kHoursPerYear);
    CHECK(g.hourlyCarbonKgPerKwh.mean() == Approx(dallas.carbonKgPerKwh).epsilon(1e-9));
    // ERCOT's evening ramp is dirtier than its solar noon (EIA-930 shape in the site's data).
    const Eigen::Index day = 100 * 24;
    CHECK(g.hourlyCarbonKgPerKwh(day + 19) > g.hourlyCarbonKgPerKwh(day + 12));
    // Tonnes: the hourly sum, close to the flat estimate for a nearly flat load.
    const double flat = e.power.annualFacilityEnergyMwh * dallas.carbonKgPerKwh;
    CHECK(g.carbonTonnesPerYear == Approx(flat).epsilon(0.02));
    CHECK(g.carbonTonnesPerYear ==
          Approx((p.hourlyFacilityKw * g.hourlyCarbonKgPerKwh).sum() / 1000.0).epsilon(1e-9));
    // CUE = PUE x the energy-weighted intensity (The Green Grid WP#32).
    CHECK(g.cueKgPerKwh == Approx(p.pue * g.averageCarbonKgPerKwh).epsilon(1e-9));
    CHECK(e.cost.carbonTonnesPerYear == Approx(g.carbonTonnesPerYear).epsilon(1e-4));
}

TEST_CASE("Tariff: time-of-use energy and each month's peak hour at the demand rate",
          "[siteyear][tariff]")
{
    const auto r = test::resolvedExample("seed-h100-dallas-d2c");
    const Evaluation e = evaluate(r);
    const CoolingResult c = solveCoolingHourByHour(r, r.cooling, e.power);
    const PowerResult p = completeFacilityPower(r, e.power, c);
    const GridResult g = solveGrid(r, p, c);
    const model::Tariff& t = site("dallas").tariff;
    REQUIRE(g.hasTariff);
    // 15:00 is on peak, 03:00 off peak.
    CHECK(g.hourlyPriceUsdPerKwh(15) == Approx(t.peakUsdPerKwh));
    CHECK(g.hourlyPriceUsdPerKwh(3) == Approx(t.offPeakUsdPerKwh));
    CHECK(g.energyUsdPerYear ==
          Approx((p.hourlyFacilityKw * g.hourlyPriceUsdPerKwh).sum()).epsilon(1e-9));
    double demand = 0.0;
    for (double peak : g.monthlyPeakKw)
        demand += t.demandUsdPerKwMonth * peak;
    CHECK(g.demandUsdPerYear == Approx(demand).epsilon(1e-9));
    // The peak month is a summer month; the contract is sized on nameplate IT in the peak hour.
    CHECK(g.monthlyPeakKw[7] > g.monthlyPeakKw[0]);
    CHECK(g.peakDemandKw == Approx(p.peakFacilityPowerKw));
    CHECK(g.contractDemandKw >= g.peakDemandKw);
    CHECK(e.cost.energyUsdPerYear == Approx(g.electricityUsdPerYear).epsilon(1e-4));
    // The cited average price is kept within 15 % by the tariff for this near-flat load.
    CHECK(g.averagePriceUsdPerKwh ==
          Approx(site("dallas").electricityPriceUsdPerKwh).epsilon(0.15));
}

TEST_CASE("Tariff: a site without one pays its flat price, with no demand charge",
          "[siteyear][tariff]")
{
    auto r = test::resolvedExample("seed-h100-dallas-d2c");
    r.site.tariff = model::Tariff{};
    r.site.carbonMonthFactors.clear();
    r.site.carbonHourFactors.clear();
    const Evaluation e = evaluate(r);
    CHECK_FALSE(e.grid.hasTariff);
    CHECK(e.grid.demandUsdPerYear == 0.0);
    CHECK(e.grid.averagePriceUsdPerKwh == Approx(r.site.electricityPriceUsdPerKwh));
    CHECK(e.grid.averageCarbonKgPerKwh == Approx(r.site.carbonKgPerKwh));
}

TEST_CASE("Liquid plant: CDUs, coolant flow, facility water and the warm-water limit",
          "[siteyear][liquid]")
{
    auto evaluation = [](const std::string& site) {
        return evaluate(test::resolvedExample("seed-h100-dallas-d2c",
                                              [&](model::Scenario& s) { s.site.id = site; }));
    };
    const Evaluation dallas = evaluation("dallas");
    const Evaluation stockholm = evaluation("stockholm");
    const CoolingResult& c = dallas.cooling;
    const model::CoolingSystemSpec d2c = test::coolingSystem("d2c-rdhx");
    // Flow from the heat and the rise: m = Q / (c_p dT), water at 1 kg/L.
    CHECK(c.coolantFlowLPerS == Approx(c.liquidHeatKw / (4.18 * d2c.coolantRiseC)).epsilon(1e-9));
    // CDU pumps: flow x head / efficiency, within the plant's pump power.
    CHECK(c.cduPumpKw ==
          Approx(c.coolantFlowLPerS / 1000.0 * d2c.coolantLoopHeadKpa / d2c.coolantPumpEfficiency)
              .epsilon(1e-9));
    CHECK(c.cduPumpKw < c.pumpKw);
    CHECK(c.cduCount >= 1);
    CHECK(c.cduCount * d2c.cduCapacityKw >=
          d2c.liquidCaptureFraction * dallas.power.itDesignPowerKw);
    // Facility water behind the CDU approach; the loop needs no chiller while the tower's water,
    // its approach above the wet bulb (at the towers' load), and the economizer's heat exchanger
    // stay below the supply.
    CHECK(c.facilityWaterSupplyC < d2c.liquidSupplyTempC);
    CHECK(c.facilityWaterReturnC > c.facilityWaterSupplyC);
    CHECK(c.towerLoad > 0.5);
    CHECK(c.towerLoad < 1.0);
    const auto tower = towerApproachTable(plantCoolingTower(d2c, c.year->pressureKpa, c.towerLoad));
    CHECK(c.chillerFreeOutdoorC + (*tower)(c.chillerFreeOutdoorC) +
              (d2c.economizerApproachC - d2c.towerDesignApproachC) ==
          Approx(c.facilityWaterSupplyC).margin(1e-6));
    // Above that wet bulb the liquid loop needs its chillers; below it too in hours the towers'
    // water runs warmer with the air loop's compressors' heat (the towers are shared): exactly
    // the hours the economizer's water is above the loop's supply.
    const double above =
        ((c.year->wetBulbC > c.chillerFreeOutdoorC).cast<double>() * c.year->hours).sum();
    const Eigen::ArrayXd economizerWaterC =
        c.hourlyCondenserWaterC + (d2c.economizerApproachC - d2c.towerDesignApproachC);
    const double warmer =
        ((economizerWaterC > c.facilityWaterSupplyC).cast<double>() * c.year->hours).sum();
    CHECK(c.liquidChillerHours == Approx(warmer));
    CHECK(c.liquidChillerHours >= above);
    CHECK(c.liquidChillerHours < above + 0.05 * c.chillerHours);
    // Stockholm's wet bulb never reaches the limit: the liquid loop can do without chillers.
    CHECK(stockholm.cooling.liquidChillerHours == 0.0);
    CHECK(stockholm.cooling.year->maxWetBulbC < stockholm.cooling.chillerFreeOutdoorC);
    REQUIRE(dallas.metric("cooling.cdu_count") != nullptr);
    // An air hall has no liquid plant and no such figures.
    const Evaluation air = evaluate(test::resolvedExample("legacy-air-h100-dallas"));
    CHECK(air.cooling.cduCount == 0);
    CHECK(air.metric("cooling.cdu_count") == nullptr);
}
