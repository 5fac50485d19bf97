#include "dct/solvers/coolingsolver.h"
#include "dct/solvers/coolingtower.h"
#include "dct/solvers/evaluator.h"
#include "dct/solvers/powersolver.h"
#include "facilitysupport.h"

using namespace dct;
using namespace dct::solvers;

TEST_CASE("Economizer share: full, none and partial free cooling", "[cooling]")
{
    // Supply 18 C, return 24 C: free cooling reaches 15 C -> all; 30 C -> none; 21 C -> half.
    CHECK(economizerShare(18.0, 24.0, 15.0) == Approx(1.0).epsilon(1e-12));
    CHECK(economizerShare(18.0, 24.0, 30.0) == Approx(0.0).margin(1e-12));
    CHECK(economizerShare(18.0, 24.0, 21.0) == Approx(0.5).epsilon(1e-12));
}

TEST_CASE("Chiller COP: rated at its rating point, rising as the condenser cools", "[cooling]")
{
    const auto crac = test::coolingSystem("crac-air");
    CHECK(chillerCop(crac, crac.chilledWaterSupplyC, crac.chillerRatedCondenserC) ==
          Approx(crac.chillerCopRated).epsilon(1e-9));
    const double hot = chillerCop(crac, crac.chilledWaterSupplyC, 40.0);
    const double mild = chillerCop(crac, crac.chilledWaterSupplyC, 20.0);
    CHECK(hot < crac.chillerCopRated);
    CHECK(mild > crac.chillerCopRated);
    // Warmer chilled water (less lift) helps too.
    CHECK(chillerCop(crac, 18.0, 35.0) > crac.chillerCopRated);
}

TEST_CASE("The chiller at its rating draws the rated input whatever its share",
          "[cooling][chiller]")
{
    model::CoolingSystemSpec s = test::coolingSystem("crah-air-chw");
    for (double share : {0.0, 0.38, 0.8}) {
        s.chillerLiftIndependentShare = share;
        CHECK(chillerCop(s, s.chilledWaterSupplyC, s.chillerRatedCondenserC) ==
              Approx(s.chillerCopRated).epsilon(1e-9));
        // A lower lift always helps, less the larger the share.
        CHECK(chillerCop(s, s.chilledWaterSupplyC, 15.0) > s.chillerCopRated);
    }
    s.chillerLiftIndependentShare = 0.0;
    const double carnot = chillerCop(s, s.chilledWaterSupplyC, 15.0);
    s.chillerLiftIndependentShare = 0.38;
    CHECK(chillerCop(s, s.chilledWaterSupplyC, 15.0) < 0.85 * carnot);
    // The share bounds the COP at vanishing lift: COP_rated / share.
    CHECK(chillerCop(s, 25.0, 0.0) < s.chillerCopRated / 0.38);
}

TEST_CASE("Chiller part load: the EIR curve is 1 at full load and falls with load", "[cooling]")
{
    CHECK(chillerPartLoadPowerFraction(1.0) == Approx(1.0).epsilon(1e-4));
    CHECK(chillerPartLoadPowerFraction(0.5) < 0.5);
    CHECK(chillerPartLoadPowerFraction(0.1) < chillerPartLoadPowerFraction(0.5));
    CHECK(chillerPartLoadPowerFraction(0.0) == Approx(0.0).margin(1e-12));
}

TEST_CASE("Thermal throttle: full clocks, SW thermal slowdown, then HW slowdown", "[cooling]")
{
    model::GpuSpec gpu;
    gpu.tdpW = 700.0;
    gpu.idleW = 70.0;
    gpu.maxOperatingTempC = 87.0;
    gpu.slowdownTempC = 90.0;
    gpu.baseClockMhz = 1590.0;
    gpu.boostClockMhz = 1980.0;
    const double u = 1.0;
    const double rAir = 0.08;
    // 25 C inlet: 25 + 0.08 x 700 = 81 C, full clocks.
    const auto cool = thermalThrottle(gpu, u, 25.0, rAir);
    CHECK(cool.state == ThrottleState::None);
    CHECK(cool.clockFactor == 1.0);
    CHECK(cool.gpuTempC == Approx(81.0).epsilon(1e-12));
    // 35 C inlet: 91 C at full clocks; SW slowdown holds 87 C: P = 52 / 0.08 = 650 W,
    // c = cbrt((650 - 70) / 630) (above the voltage floor the dynamic power goes as c^3).
    const auto warm = thermalThrottle(gpu, u, 35.0, rAir);
    CHECK(warm.state == ThrottleState::SwThermal);
    CHECK(warm.gpuTempC == Approx(87.0).epsilon(1e-9));
    CHECK(warm.clockFactor == Approx(std::cbrt(580.0 / 630.0)).epsilon(1e-9));
    // 60 C inlet: even at base clock (0.803) the GPU passes 90 C (60 + 0.08 x 396 W = 91.7 C):
    // HW slowdown halves the clock.
    const auto hot = thermalThrottle(gpu, u, 60.0, rAir);
    CHECK(hot.state == ThrottleState::HwSlowdown);
    CHECK(std::string(throttleStateName(hot.state)) == "hw-slowdown");
    CHECK(hot.clockFactor == Approx(0.5 * 1590.0 / 1980.0).epsilon(1e-12));
}

TEST_CASE("PUE: D2C+RDHx beats air, a hot humid site costs more than a cool one", "[cooling]")
{
    auto variant = [](const std::string& site, const std::string& cooling) {
        return test::resolvedExample("seed-h100-dallas-d2c", [&](model::Scenario& s) {
            s.site.id = site;
            s.cooling.system.id = cooling;
        });
    };
    const double d2cDallas = evaluate(variant("dallas", "d2c-rdhx")).power.pue;
    const double airDallas = evaluate(variant("dallas", "crac-air")).power.pue;
    const double airLondon = evaluate(variant("london", "crac-air")).power.pue;
    const double airSingapore = evaluate(variant("singapore", "crac-air")).power.pue;
    CHECK(d2cDallas < airDallas);
    CHECK(airLondon < airDallas);
    CHECK(airDallas < airSingapore);
}

TEST_CASE("Free cooling: more hours in London than in Singapore, none without economizer",
          "[cooling]")
{
    auto cooling = [](const std::string& site, bool economizer) {
        const auto r = test::resolvedExample("seed-h100-dallas-d2c", [&](model::Scenario& s) {
            s.site.id = site;
            s.cooling.economizer = economizer;
        });
        Diagnostics d;
        const PowerResult p = solvePower(r, {}, d);
        return solveCooling(r, r.cooling, p, d);
    };
    const auto london = cooling("london", true);
    const auto singapore = cooling("singapore", true);
    const auto off = cooling("london", false);
    CHECK(london.fullFreeCoolingHours > singapore.fullFreeCoolingHours);
    CHECK(london.economizerHeatShare > singapore.economizerHeatShare);
    CHECK(off.fullFreeCoolingHours == 0.0);
    CHECK(off.economizerHeatShare == 0.0);
    CHECK(off.coolingKw > london.coolingKw);
    CHECK(london.climateHours == Approx(8760.0).epsilon(0.01));
}

TEST_CASE("Every cooling option gets a PUE for the same cluster", "[cooling]")
{
    const auto r = test::resolvedExample("seed-h100-dallas-d2c");
    const Evaluation e = evaluate(r);
    REQUIRE(e.coolingOptions.size() == r.coolingOptions.size());
    for (const auto& option : e.coolingOptions) {
        INFO(option.systemId);
        CHECK(option.pue > 1.0);
        CHECK(e.metric("cooling.option_pue." + option.systemId) != nullptr);
        // The options run on the year's 0.05 K temperature lattice (the fast path), the chosen
        // system hour by hour: the same PUE to within the rounding.
        if (option.systemId == r.cooling.id)
            CHECK(option.pue == Approx(e.power.pue).epsilon(1e-5));
    }
}

TEST_CASE("Cooling tower: rated approach at its rating, larger at colder wet bulbs, tabulated",
          "[cooling][tower]")
{
    const CoolingTower t = sizeCoolingTower(25.556, 5.6, 3.9);
    CHECK(towerApproachK(t, 25.556) == Approx(3.9).margin(1e-6));
    double previous = towerApproachK(t, 30.0);
    for (double wb = 25.0; wb >= -20.0; wb -= 5.0) {
        const double a = towerApproachK(t, wb);
        CHECK(a > previous);
        // The leaving water still gets colder with the wet bulb.
        CHECK(wb + a < wb + 5.0 + towerApproachK(t, wb + 5.0));
        previous = a;
    }
    // A smaller range (less heat on the same water flow) leaves the water closer to the wet bulb.
    CoolingTower light = t;
    light.rangeK = 3.0;
    CHECK(towerApproachK(light, 10.0) < towerApproachK(t, 10.0));
    // More fill, closer approach.
    CHECK(sizeCoolingTower(25.556, 5.6, 2.5).ntu > t.ntu);
    const TowerApproachTable table(t);
    for (double wb : {-37.3, -4.1, 0.0, 3.3, 17.8, 25.556, 31.2})
        CHECK(table(wb) == Approx(towerApproachK(t, wb)).margin(0.01));
    const double wb = table.wetBulbForWaterC(29.0);
    CHECK(wb + table(wb) == Approx(29.0).margin(1e-6));
    // One table per tower, shared.
    CHECK(towerApproachTable(t) == towerApproachTable(t));
}

TEST_CASE("In chiller hours the towers carry the compressors' heat: their water runs warmer",
          "[cooling][tower]")
{
    // The condenser's heat balance: the towers reject the loops' heat plus the compressors'
    // work. Each hour's water is the approach of the plant's tower at that hour's heat (its range
    // in proportion), whatever the hour: within 0.1 K of the tower computed at the hour's exact
    // load with the chillers' power the evaluation reports (the plant interpolates between two
    // tabulated loads, each rounded to 1/64, and passes until the water settles). With the liquid
    // loop cooled by the towers' water most of the year (D2C) the compressors' heat is small; with
    // chilled- water CRAHs every hour with chillers carries it.
    for (const char* id : {"d2c-rdhx", "crah-air-chw"}) {
        const Evaluation e = evaluate(test::resolvedExample(
            "seed-h100-dallas-d2c", [&](model::Scenario& s) { s.cooling.system.id = id; }));
        const CoolingResult& c = e.cooling;
        const model::CoolingSystemSpec system = test::coolingSystem(id);
        INFO(id);
        REQUIRE(c.year);
        const double loopsKw = c.airHeatKw + c.liquidHeatKw;
        REQUIRE(loopsKw > 0.0);
        REQUIRE(c.chillerHours > 100.0);
        const CoolingTower rated = plantCoolingTower(system, c.year->pressureKpa, 1.0);
        const auto light =
            towerApproachTable(plantCoolingTower(system, c.year->pressureKpa, c.towerLoad));
        double warmestRiseK = 0.0;
        double chillerLoadShare = 0.0;
        for (Eigen::Index i = 0; i < c.year->wetBulbC.size(); ++i) {
            const double wb = c.year->wetBulbC(i);
            const double load = c.towerLoad * (1.0 + c.hourlyChillerKw(i) / loopsKw);
            CoolingTower atLoad = rated;
            atLoad.rangeK = system.condenserWaterRangeC * load;
            INFO("wet bulb " << wb << " C, load " << load);
            CHECK(c.hourlyCondenserWaterC(i) ==
                  Approx(wb + towerApproachK(atLoad, wb)).margin(0.1));
            // Against the loops' heat alone: warmer by the compressors' heat, the same without.
            if (c.hourlyChillerKw(i) > 0.0) {
                warmestRiseK =
                    std::max(warmestRiseK, c.hourlyCondenserWaterC(i) - wb - (*light)(wb));
                chillerLoadShare = std::max(chillerLoadShare, c.hourlyChillerKw(i) / loopsKw);
            } else {
                CHECK(c.hourlyCondenserWaterC(i) == Approx(wb + (*light)(wb)).margin(1e-9));
            }
        }
        CHECK(warmestRiseK > 0.0);
        if (std::string(id) == "crah-air-chw") {
            // Compressors at a sixth of the heat or so: several tenths of a kelvin warmer.
            CHECK(chillerLoadShare > 0.1);
            CHECK(warmestRiseK > 0.3);
            CHECK(warmestRiseK < 1.5);
        }
    }
}
