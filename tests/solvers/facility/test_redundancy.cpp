#include "dct/model/scenarioio.h"
#include "dct/solvers/evaluator.h"
#include "dct/solvers/powersolver.h"
#include "dct/solvers/redundancy.h"
#include "facilitysupport.h"

#include <cmath>

using namespace dct;
using namespace dct::solvers;

TEST_CASE("k-out-of-n availability: the binomial closed forms", "[redundancy]")
{
    const double a = 0.999;
    CHECK(kOutOfN(3, 3, a) == Approx(a * a * a).epsilon(1e-12));
    CHECK(kOutOfN(1, 2, a) == Approx(1.0 - (1.0 - a) * (1.0 - a)).epsilon(1e-12));
    CHECK(kOutOfN(2, 3, a) == Approx(3 * a * a - 2 * a * a * a).epsilon(1e-12));
    CHECK(kOutOfN(0, 5, a) == 1.0);
    CHECK(kOutOfN(6, 5, a) == 0.0);
    // Many units: one spare in 100 still leaves a tiny unavailability, not a rounding zero.
    const double u = 1.0 - kOutOfN(100, 101, 0.9999);
    CHECK(u > 0.0);
    CHECK(u == Approx(101.0 * 100.0 / 2.0 * 1e-8).epsilon(0.02));
}

TEST_CASE("Unit counts of N, N+1, N+2, 2N, 3N/2 and 4N/3 at a standard module size", "[redundancy]")
{
    model::PlantUnitSpec unit;
    unit.moduleSizesKw = {250.0, 500.0, 1000.0};
    unit.usdPerKw = 100.0;
    unit.failuresPerMillionHours = 5.0;
    unit.repairHours = 8.0;
    // 4,000 kW at 0.8: 5,000 kW of rating; 1,000 kW modules give 5 >= 4 units.
    const auto n = designSubsystem(4000.0, 0.8, unit, 0.0, model::Redundancy::N);
    CHECK(n.unitSizeKw == 1000.0);
    CHECK(n.requiredUnits == 5);
    CHECK(n.installedUnits == 5);
    CHECK(designSubsystem(4000.0, 0.8, unit, 0.0, model::Redundancy::NPlus1).installedUnits == 6);
    CHECK(designSubsystem(4000.0, 0.8, unit, 0.0, model::Redundancy::NPlus2).installedUnits == 7);
    const auto two = designSubsystem(4000.0, 0.8, unit, 0.0, model::Redundancy::TwoN);
    CHECK(two.installedUnits == 10);
    CHECK(two.systems == 2);
    // 2N halves the load each unit carries.
    CHECK(two.loadFraction == Approx(0.5 * n.loadFraction).epsilon(1e-12));
    // 3N/2: three systems of ceil(5/2) = 3; 4N/3: four of ceil(5/3) = 2.
    CHECK(
        designSubsystem(4000.0, 0.8, unit, 0.0, model::Redundancy::ThreeToMakeTwo).installedUnits ==
        9);
    CHECK(designSubsystem(4000.0, 0.8, unit, 0.0, model::Redundancy::FourToMakeThree)
              .installedUnits == 8);
    CHECK(two.capexUsd == Approx(10 * 1000.0 * 100.0).epsilon(1e-12));
    CHECK(two.redundancyCapexUsd == Approx(5 * 1000.0 * 100.0).epsilon(1e-12));
    // A small load takes the smallest module.
    const auto small = designSubsystem(300.0, 0.8, unit, 0.0, model::Redundancy::NPlus1);
    CHECK(small.unitSizeKw == 250.0);
    CHECK(small.requiredUnits == 2);
    CHECK(small.installedUnits == 3);
    // Availability rises with every spare.
    const double aN = n.availability;
    const double a1 =
        designSubsystem(4000.0, 0.8, unit, 0.0, model::Redundancy::NPlus1).availability;
    const double a2 =
        designSubsystem(4000.0, 0.8, unit, 0.0, model::Redundancy::NPlus2).availability;
    CHECK(aN < a1);
    CHECK(a1 < a2);
    CHECK(aN < two.availability);
    CHECK(aN == Approx(std::pow(1.0 / (1.0 + 5e-6 * 8.0), 5)).epsilon(1e-12));
}

namespace {

/** The bundled UPS unit (data/catalog/plant.json). */
const model::PlantUnitSpec& catalogUnit(const std::string& id)
{
    const auto& shelf = test::catalog().plantUnits().entries;
    const auto it = shelf.find(id);
    if (it == shelf.end())
        FAIL("no plant unit " << id);
    return it->second;
}

} // namespace

TEST_CASE("A measured efficiency curve is read linearly between its points", "[redundancy]")
{
    const std::vector<std::pair<double, double>> curve = {
        {0.25, 0.970}, {0.50, 0.973}, {0.75, 0.970}, {1.00, 0.964}};
    CHECK(curveEfficiency(curve, 0.25) == Approx(0.970).epsilon(1e-12));
    CHECK(curveEfficiency(curve, 0.50) == Approx(0.973).epsilon(1e-12));
    CHECK(curveEfficiency(curve, 0.375) == Approx(0.9715).epsilon(1e-12));
    CHECK(curveEfficiency(curve, 0.875) == Approx(0.967).epsilon(1e-12));
    // Beyond the last point the last efficiency holds.
    CHECK(curveEfficiency(curve, 1.2) == Approx(0.964).epsilon(1e-12));
    // Below the first point the first point's loss in kW holds, so efficiency falls with load.
    const double lossAt25 = 0.25 * (1.0 / 0.970 - 1.0);
    CHECK(curveEfficiency(curve, 0.10) == Approx(0.10 / (0.10 + lossAt25)).epsilon(1e-12));
    CHECK(curveLossKw(curve, 100.0, 1000.0) == Approx(1000.0 * lossAt25).epsilon(1e-12));
    CHECK(curveLossKw(curve, 0.0, 1000.0) == Approx(1000.0 * lossAt25).epsilon(1e-12));
    CHECK(curveLossKw(curve, 500.0, 1000.0) == Approx(500.0 * (1.0 / 0.973 - 1.0)).epsilon(1e-12));
    CHECK(curveEfficiency({}, 0.5) == 1.0);
}

TEST_CASE("UPS module efficiency from the measured Eaton 9395XR curve: 2N halves the module load, "
          "and runs below N's efficiency where the curve falls toward light load",
          "[redundancy][power]")
{
    // The curve is the Eaton 9395XR-1935 double-conversion efficiency at 25/50/75/100 % load
    // (data/catalog/plant.json names the source): 97.0, 97.3, 97.0, 96.4 %. It peaks near half
    // load, so whether 2N costs efficiency depends on the load N gives each module.
    const model::PlantUnitSpec& ups = catalogUnit("ups-static-module");
    REQUIRE(ups.efficiencyCurve.size() == 4);
    const auto& curve = ups.efficiencyCurve;
    // A hall whose N design loads each module to 60 %: 2N runs them at 30 %, on the falling
    // side of the curve, 0.12 points less efficient.
    CHECK(curveEfficiency(curve, 0.30) < curveEfficiency(curve, 0.60));
    CHECK(curveEfficiency(curve, 0.60) - curveEfficiency(curve, 0.30) ==
          Approx(0.0012).epsilon(1e-6));
    // A lightly loaded hall (N at 30 %, 2N at 15 %, under the curve's first point): 2N's fixed
    // losses weigh on half the load per module, 1.9 points less efficient.
    CHECK(curveEfficiency(curve, 0.30) - curveEfficiency(curve, 0.15) > 0.015);
    // At N's design loading of 80 % the modules sit past the peak: 2N at 40 % is the more
    // efficient, by 0.3 points.
    CHECK(curveEfficiency(curve, 0.40) > curveEfficiency(curve, 0.80));

    // The whole model reads the same curve at the load each design really gives a module.
    auto with = [](model::Redundancy r, int nodes) {
        return evaluate(
            test::resolvedExample("multiplane-16k-h100", [r, nodes](model::Scenario& s) {
                s.facility.upsRedundancy = r;
                s.compute.nodeCount = nodes;
            }));
    };
    for (int nodes : {2048, 512}) {
        INFO(nodes << " nodes");
        const Evaluation n = with(model::Redundancy::N, nodes);
        const Evaluation two = with(model::Redundancy::TwoN, nodes);
        REQUIRE(n.ok());
        REQUIRE(two.ok());
        CHECK(n.redundancy.upsEfficiency ==
              Approx(curveEfficiency(curve, n.power.upsLoadFraction)).epsilon(1e-9));
        CHECK(two.redundancy.upsEfficiency ==
              Approx(curveEfficiency(curve, two.power.upsLoadFraction)).epsilon(1e-9));
        // 2N's losses are what the curve gives at half N's module load: lower efficiency where
        // the curve is lower there, more loss kW and a higher PUE with it.
        const bool curveFalls = curveEfficiency(curve, two.power.upsLoadFraction) <
                                curveEfficiency(curve, n.power.upsLoadFraction);
        CHECK((two.redundancy.upsEfficiency < n.redundancy.upsEfficiency) == curveFalls);
        CHECK((two.power.upsLossKw > n.power.upsLossKw) == curveFalls);
        CHECK((two.power.pue > n.power.pue) == curveFalls);
    }
}

TEST_CASE("Units built of parts and standby units that must start", "[redundancy]")
{
    model::PlantUnitSpec unit;
    unit.failuresPerMillionHours = 10.0;
    unit.repairHours = 8.0;
    CHECK(unitAvailability(unit) == Approx(1.0 / (1.0 + 8e-5)).epsilon(1e-12));
    unit.startFailureProbability = 0.01;
    CHECK(unitAvailability(unit) == Approx(0.99 / (1.0 + 8e-5)).epsilon(1e-12));
    // Parts replace the unit's own rate: one of two pumps, and a controller, in series.
    model::PlantUnitSpec cdu;
    cdu.failuresPerMillionHours = 1e5; // ignored once parts are given
    cdu.repairHours = 100.0;
    cdu.parts = {{"pump", 2, 1, 30.0, 8.0, "s"}, {"controller", 1, 1, 8.0, 8.0, "s"}};
    const double pump = 1.0 / (1.0 + 30e-6 * 8.0);
    const double controller = 1.0 / (1.0 + 8e-6 * 8.0);
    CHECK(unitAvailability(cdu) ==
          Approx((1.0 - (1.0 - pump) * (1.0 - pump)) * controller).epsilon(1e-12));
    // The redundant pump pair leaves the controller's outages as nearly all the unit's.
    CHECK(1.0 - unitAvailability(cdu) == Approx(1.0 - controller).epsilon(0.01));
    // The bundled CDU and chiller are built of parts; the bundled generator must start.
    CHECK_FALSE(catalogUnit("cdu-liquid-to-liquid").parts.empty());
    CHECK_FALSE(catalogUnit("centrifugal-chiller").parts.empty());
    CHECK(catalogUnit("diesel-standby-genset").startFailureProbability > 0.0);
}

TEST_CASE("Standby sets fail while they run: a long utility outage is carried less often",
          "[redundancy]")
{
    model::PlantUnitSpec set;
    set.role = model::PlantRole::Generator;
    set.moduleSizesKw = {1000.0};
    set.failuresPerMillionHours = 1e5; // replaced by the measured standby availability
    set.repairHours = 100.0;
    set.standbyAvailability = 0.99;
    set.startFailureProbability = 0.02;
    set.runFailuresPerMillionHours = 1000.0; // one failure per 1,000 running hours
    const double a0 = 0.99 * 0.98;
    CHECK(unitAvailability(set) == Approx(a0).epsilon(1e-12));
    const double mu = 1e-3;

    // One set (N): it carries an outage of T hours with a0 exp(-mu T); a spare (N+1) with
    // 1 - (1 - p)^2 of that. The odds fall with the outage's length.
    const SubsystemDesign one = designSubsystem(800.0, 1.0, set, 0.0, model::Redundancy::N);
    const SubsystemDesign pair = designSubsystem(800.0, 1.0, set, 0.0, model::Redundancy::NPlus1);
    REQUIRE(pair.installedUnits == 2);
    CHECK(one.runFailuresPerHour == Approx(mu).epsilon(1e-12));
    CHECK(carryProbability(one, 0.0) == Approx(one.availability).epsilon(1e-12));
    for (double t : {1.0, 24.0, 336.0}) {
        const double p = a0 * std::exp(-mu * t);
        CHECK(carryProbability(one, t) == Approx(p).epsilon(1e-12));
        CHECK(carryProbability(pair, t) == Approx(1.0 - (1.0 - p) * (1.0 - p)).epsilon(1e-12));
    }
    CHECK(carryProbability(one, 336.0) < carryProbability(one, 24.0));
    CHECK(carryProbability(pair, 336.0) > carryProbability(one, 336.0));

    // The share of an outage (exponential, mean r) left uncovered, against the closed forms
    // of the integral of (1 - carry(t)) exp(-t / r) dt / r: 1 - a0 / (1 + mu r) for one set,
    // 1 - 2 a0 / (1 + mu r) + a0^2 / (1 + 2 mu r) for the pair.
    for (double r : {1.32, 24.0, 400.0, 900.0}) {
        CHECK(generatorUncoveredShare(one, r) == Approx(1.0 - a0 / (1.0 + mu * r)).margin(1e-7));
        CHECK(
            generatorUncoveredShare(pair, r) ==
            Approx(1.0 - 2.0 * a0 / (1.0 + mu * r) + a0 * a0 / (1.0 + 2.0 * mu * r)).margin(1e-7));
    }
    // Longer outages leave more uncovered; without running failures the share is the sets'
    // unavailability when called, whatever the outage's length.
    CHECK(generatorUncoveredShare(pair, 400.0) > generatorUncoveredShare(pair, 1.32));
    set.runFailuresPerMillionHours = 0.0;
    const SubsystemDesign steady = designSubsystem(800.0, 1.0, set, 0.0, model::Redundancy::NPlus1);
    CHECK(generatorUncoveredShare(steady, 400.0) == Approx(1.0 - steady.availability));
    // No generators: the whole outage is uncovered.
    CHECK(generatorUncoveredShare(SubsystemDesign{}, 1.32) == 1.0);

    // The bundled set fails while it runs, and the facility's figures carry it.
    CHECK(catalogUnit("diesel-standby-genset").runFailuresPerMillionHours > 0.0);
    const Evaluation e = evaluate(test::resolvedExample("multiplane-16k-h100"));
    REQUIRE(e.ok());
    const double uncovered = e.redundancy.generatorUncoveredShare;
    CHECK(uncovered > 1.0 - e.redundancy.generators.availability);
    CHECK(e.redundancy.sourceAvailability ==
          Approx(1.0 - (1.0 - e.redundancy.utilityAvailability) * uncovered).epsilon(1e-12));
}

TEST_CASE("2N UPS runs each module at half the load N would", "[redundancy][power]")
{
    auto with = [](model::Redundancy ups) {
        return test::resolvedExample("multiplane-16k-h100",
                                     [ups](model::Scenario& s) { s.facility.upsRedundancy = ups; });
    };
    const Evaluation n = evaluate(with(model::Redundancy::N));
    const Evaluation two = evaluate(with(model::Redundancy::TwoN));
    const Evaluation dr = evaluate(with(model::Redundancy::FourToMakeThree));
    REQUIRE(n.ok());
    REQUIRE(two.ok());
    CHECK(two.redundancy.ups.installedUnits == 2 * n.redundancy.ups.installedUnits);
    CHECK(two.power.upsLoadFraction == Approx(0.5 * n.power.upsLoadFraction).epsilon(1e-9));
    // The efficiency as built against the same load on N modules (the curve at each load is
    // checked above).
    CHECK(two.redundancy.upsEfficiencyAtN == Approx(n.redundancy.upsEfficiency).epsilon(1e-9));
    // DR 4N/3 sits between.
    CHECK(dr.power.upsLoadFraction > two.power.upsLoadFraction);
    CHECK(dr.power.upsLoadFraction < n.power.upsLoadFraction);
    // Redundancy buys availability and costs capex.
    CHECK(two.redundancy.availability > n.redundancy.availability);
    CHECK(two.redundancy.downtimeHoursPerYear < n.redundancy.downtimeHoursPerYear);
    CHECK(two.cost.capexRedundancyUsd > n.cost.capexRedundancyUsd);
    // The capex moves by the redundant units and by the power plant the larger loss needs.
    CHECK((two.cost.capexUsd - two.cost.capexPowerUsd) - (n.cost.capexUsd - n.cost.capexPowerUsd) ==
          Approx(two.cost.capexRedundancyUsd - n.cost.capexRedundancyUsd).epsilon(1e-9));
    CHECK(two.value("redundancy.ups_units") == two.redundancy.ups.installedUnits);
}

TEST_CASE("Plant sized for the peak hour of the site year, not the average", "[redundancy]")
{
    for (const char* name : {"multiplane-16k-h100", "legacy-air-h100-dallas"}) {
        INFO(name);
        const Evaluation e = evaluate(test::resolvedExample(name));
        REQUIRE(e.ok());
        const RedundancyResult& r = e.redundancy;
        // Generators carry the design facility load (nameplate IT in the peak hour).
        CHECK(r.generators.loadKw == Approx(e.power.designFacilityKw).epsilon(1e-12));
        CHECK(r.generators.loadKw > e.power.facilityPowerKw);
        CHECK(r.generators.requiredUnits * r.generators.unitSizeKw * 0.8 >=
              r.generators.loadKw * (1.0 - 1e-12));
        // UPS rating covers the IT load at full clocks.
        CHECK(r.ups.requiredUnits * r.ups.unitSizeKw * 0.8 >= e.power.upsLoadKw * (1.0 - 1e-12));
        // Chillers carry the most mechanical heat of any hour: at least the heat the annual
        // average leaves to them.
        const double meanMechanical =
            (1.0 - e.cooling.economizerHeatShare) * (e.cooling.airHeatKw + e.cooling.liquidHeatKw);
        CHECK(r.chillers.loadKw >= meanMechanical);
        CHECK(r.chillers.installedUnits * r.chillers.unitSizeKw >= r.chillers.loadKw);
        CHECK(r.availability > 0.99);
        CHECK(r.availability < 1.0);
        CHECK(r.downtimeHoursPerYear == Approx((1.0 - r.availability) * 8760.0).epsilon(1e-12));
    }
    // The legacy air hall has no cold plates: no CDUs.
    CHECK(
        evaluate(test::resolvedExample("legacy-air-h100-dallas")).redundancy.cdus.installedUnits ==
        0);
}

TEST_CASE("A redundancy that is not offered is an error at its JSON path", "[redundancy]")
{
    auto text = R"({"schema_version": 2, "name": "x", "site": "dallas",
        "compute": {"node": "dgx-h100", "node_count": 4},
        "network": {"switch": "qm9700"},
        "facility": {"ups_redundancy": "3N"},
        "cooling": {"system": "d2c-rdhx", "chiller_redundancy": 2}})";
    const auto read = model::readScenarioText(text, "bad.json");
    bool ups = false;
    bool chiller = false;
    for (const auto& d : read.diagnostics) {
        if (d.path == "/facility/ups_redundancy") {
            ups = true;
            CHECK_THAT(d.hint, Catch::Contains("'2N'") && Catch::Contains("'4N/3'"));
        }
        if (d.path == "/cooling/chiller_redundancy")
            chiller = true;
    }
    CHECK(ups);
    CHECK(chiller);
}
