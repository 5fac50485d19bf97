#include "dct/solvers/coolingsolver.h"
#include "dct/solvers/evaluator.h"
#include "dct/solvers/gridsolver.h"
#include "dct/solvers/heatrejectionwater.h"
#include "dct/solvers/powersolver.h"
#include "dct/solvers/siteyear.h"
#include "facilitysupport.h"

#include <string>

using namespace dct;
using namespace dct::solvers;

namespace {

/** The plant, the facility power and the grid of \a e's cooling system run hour by hour. */
struct HourByHour
{
    CoolingResult cooling;
    PowerResult power;
    GridResult grid;
};

HourByHour hourByHourYear(const model::ResolvedScenario& r, const Evaluation& e,
                          const model::CoolingSystemSpec& sys)
{
    HourByHour out;
    out.cooling = solveCoolingHourByHour(r, sys, e.power);
    out.power = completeFacilityPower(r, e.power, out.cooling);
    out.grid = solveGrid(r, out.power, out.cooling);
    return out;
}

/** Relative tolerance of the grouped year: the 0.05 K lattice moves a sum by far less. */
constexpr double kRelative = 2e-4;
/** A peak hour's figure: its state stands at its hours' mean, up to 0.025 K from the hour. */
constexpr double kPeak = 1e-3;
/** The hottest hour's cooling: its state's humidity is its hours' mean (Singapore 0.11%). */
constexpr double kHottest = 2e-3;
/** The peak hour's water: its state's air enthalpy is its hours' mean (Dallas 1.3%). */
constexpr double kPeakWater = 2e-2;
/** A month's or the peak hour's water: a state's hours share its mean air enthalpy. */
constexpr double kWater = 1e-2;
/** Hours on either side of a threshold that one lattice state can move. */
constexpr double kHoursMargin = 12.0;

void checkSame(const model::ResolvedScenario& r, const Evaluation& e)
{
    const HourByHour ref = hourByHourYear(r, e, r.cooling);
    const CoolingResult& c = e.cooling;
    REQUIRE(c.year);
    REQUIRE(c.year->source);
    CHECK(c.year->hours.size() < kHoursPerYear / 4);
    CHECK(c.year->totalHours == Approx(8760.0));
    CHECK(c.coolingKw == Approx(ref.cooling.coolingKw).epsilon(kRelative));
    CHECK(c.chillerKw == Approx(ref.cooling.chillerKw).epsilon(kRelative).margin(1e-6));
    CHECK(c.heatRejectionKw == Approx(ref.cooling.heatRejectionKw).epsilon(kRelative));
    CHECK(c.peakCoolingKw == Approx(ref.cooling.peakCoolingKw).epsilon(kPeak));
    CHECK(c.hottestHourCoolingKw == Approx(ref.cooling.hottestHourCoolingKw).epsilon(kHottest));
    CHECK(c.hottestHourDryBulbC == Approx(ref.cooling.hottestHourDryBulbC));
    CHECK(c.economizerHeatShare ==
          Approx(ref.cooling.economizerHeatShare).epsilon(kRelative).margin(1e-6));
    CHECK(c.fullFreeCoolingHours == Approx(ref.cooling.fullFreeCoolingHours).margin(kHoursMargin));
    CHECK(c.partialFreeCoolingHours ==
          Approx(ref.cooling.partialFreeCoolingHours).margin(kHoursMargin));
    CHECK(c.chillerHours == Approx(ref.cooling.chillerHours).margin(kHoursMargin));
    CHECK(c.waterM3PerYear == Approx(ref.cooling.waterM3PerYear).epsilon(kWater).margin(1e-6));
    CHECK(c.wueLPerKwh == Approx(ref.cooling.wueLPerKwh).epsilon(kWater).margin(1e-9));
    CHECK(c.peakWaterM3PerHour ==
          Approx(ref.cooling.peakWaterM3PerHour).epsilon(kPeakWater).margin(1e-9));
    for (std::size_t m = 0; m < 12; ++m) {
        INFO("month " << m);
        CHECK(c.monthlyWaterM3[m] ==
              Approx(ref.cooling.monthlyWaterM3[m]).epsilon(kWater).margin(1e-6));
        CHECK(e.grid.monthlyCarbonTonnes[m] ==
              Approx(ref.grid.monthlyCarbonTonnes[m]).epsilon(kRelative));
        CHECK(e.grid.monthlyElectricityUsd[m] ==
              Approx(ref.grid.monthlyElectricityUsd[m]).epsilon(kRelative));
        CHECK(e.grid.monthlyPeakKw[m] == Approx(ref.grid.monthlyPeakKw[m]).epsilon(kPeak));
    }
    CHECK(e.power.pue == Approx(ref.power.pue).epsilon(kRelative));
    CHECK(e.power.peakPue == Approx(ref.power.peakPue).epsilon(kRelative));
    CHECK(e.power.bestPue == Approx(ref.power.bestPue).epsilon(kRelative));
    CHECK(e.power.facilityPowerKw == Approx(ref.power.facilityPowerKw).epsilon(kRelative));
    CHECK(e.power.hottestHourFacilityKw ==
          Approx(ref.power.hottestHourFacilityKw).epsilon(kRelative));
    CHECK(e.grid.carbonTonnesPerYear == Approx(ref.grid.carbonTonnesPerYear).epsilon(kRelative));
    CHECK(e.grid.energyUsdPerYear == Approx(ref.grid.energyUsdPerYear).epsilon(kRelative));
    CHECK(e.grid.demandUsdPerYear ==
          Approx(ref.grid.demandUsdPerYear).epsilon(kRelative).margin(1e-6));
    CHECK(e.grid.peakDemandKw == Approx(ref.grid.peakDemandKw).epsilon(kRelative));
    // The side-by-side options run on their own states too.
    for (const auto& option : e.coolingOptions) {
        INFO("option " << option.systemId);
        for (const auto& sys : r.coolingOptions)
            if (sys.id == option.systemId) {
                const CoolingResult oc = solveCoolingHourByHour(r, sys, e.power);
                const PowerResult op = completeFacilityPower(r, e.power, oc);
                CHECK(option.pue == Approx(op.pue).epsilon(kRelative));
            }
    }
}

} // namespace

TEST_CASE("Climate states: the grouped year gives the hour-by-hour figures on every site",
          "[siteyear][states]")
{
    for (const std::string example : {"seed-h100-dallas-d2c", "legacy-air-h100-dallas"}) {
        for (const auto& [id, spec] : test::catalog().sites().entries) {
            INFO(example << " at " << id);
            auto r = test::resolvedExample(example);
            r.site = spec;
            checkSame(r, evaluate(r));
        }
    }
}

TEST_CASE("Climate states: each system keys on the temperature its plant sees",
          "[siteyear][states]")
{
    const auto r = test::resolvedExample("seed-h100-dallas-d2c");
    const auto year = siteYear(r.site, 20.0, 15.0);
    REQUIRE(year->hourly);
    ClimateKey tower;
    tower.wet = true;
    const auto wet = climateStates(year, tower);
    const auto dry = climateStates(year, ClimateKey{});
    // Built once and shared.
    CHECK(climateStates(year, tower).get() == wet.get());
    REQUIRE(wet->source.get() == year.get());
    // Every hour maps to the state of its rounded wet bulb, and the states hold all the hours.
    CHECK(wet->hours.sum() == Approx(8760.0));
    CHECK(wet->monthHours.sum() == Approx(8760.0));
    for (Eigen::Index i = 0; i < year->hours.size(); i += 97)
        CHECK(std::abs(wet->outdoorC(wet->hourEntry(i)) - year->wetBulbC(i)) <= kClimateStateStepK);
    // hourByHour() spreads a state's figure back over its hours.
    const Eigen::ArrayXd back = hourByHour(*dry, dry->outdoorC);
    REQUIRE(back.size() == kHoursPerYear);
    CHECK((back - year->dryBulbC).abs().maxCoeff() <= kClimateStateStepK);
}

TEST_CASE("Climate states: the peak hour's water skips only states that cannot beat it",
          "[siteyear][states][water]")
{
    // The peak-hour pass bounds each state by its extreme hour and runs only the states that
    // could beat the peak found. A copy of the grouped year has no state hours kept for it, so
    // it runs every hour: both must give the same peak, bit for bit, on every site, for
    // towers and for dry coolers with pads, whatever heat each state rejects.
    int towers = 0;
    int pads = 0;
    for (const auto& [siteId, site] : test::catalog().sites().entries) {
        const auto year = siteYear(site, 20.0, 15.0);
        if (!year->hourly)
            continue;
        for (const auto& [sysId, entry] : test::catalog().coolingSystems().entries) {
            model::CoolingSystemSpec sys = entry;
            ClimateKey key;
            key.wet = sys.evaporativeHeatRejection;
            if (!sys.evaporativeHeatRejection) {
                // The catalog's dry coolers given pads (test values, not a product's).
                sys.adiabaticEffectiveness = 0.7;
                sys.adiabaticThresholdC = 20.0;
                if (sys.dryCoolerAirRiseC <= 0.0)
                    sys.dryCoolerAirRiseC = 10.0;
                key.adiabaticEffectiveness = sys.adiabaticEffectiveness;
                key.adiabaticThresholdC = sys.adiabaticThresholdC;
            }
            (sys.evaporativeHeatRejection ? towers : pads) += 1;
            const auto grouped = climateStates(year, key);
            const SiteYear copy = *grouped;
            const Eigen::Index n = grouped->hours.size();
            // Heat that varies from state to state, one state rejecting none and one (towers)
            // a negative heat, which has no bound and is always run.
            Eigen::ArrayXd rejectedKw =
                1000.0 + 400.0 * Eigen::ArrayXd::LinSpaced(n, 0.0, 7.0).sin();
            rejectedKw(n / 3) = 0.0;
            if (sys.evaporativeHeatRejection)
                rejectedKw(n / 2) = -50.0;
            INFO(siteId << " with " << sysId);
            const auto bounded =
                heatRejectionWater(sys, *grouped, rejectedKw, grouped->pressureKpa);
            const auto every = heatRejectionWater(sys, copy, rejectedKw, copy.pressureKpa);
            CHECK(bounded.peakLPerHour > 0.0);
            CHECK(bounded.peakLPerHour == every.peakLPerHour);
            CHECK(bounded.monthlyL == every.monthlyL);
        }
    }
    CHECK(towers > 0);
    CHECK(pads > 0);
}
