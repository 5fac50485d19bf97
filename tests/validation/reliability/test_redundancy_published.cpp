// Redundant plant against published starting probabilities and availability calculations.
#include "dct/solvers/redundancy.h"
#include "testsupport.h"

#include <utility>
#include <vector>

using namespace dct;
using namespace dct::solvers;

namespace {

/** A standby set of 1,000 kW that fails to start once in 100 calls and never while running. */
model::PlantUnitSpec standbySet()
{
    model::PlantUnitSpec set;
    set.role = model::PlantRole::Generator;
    set.moduleSizesKw = {1000.0};
    set.usdPerKw = 500.0;
    set.failuresPerMillionHours = 0.0;
    set.repairHours = 24.0;
    set.startFailureProbability = 0.01;
    return set;
}

} // namespace

TEST_CASE("King and Knight 2003, ch. 3, Table 3.2: starting probabilities of one, two and three "
          "standby sets that each fail 1 start in 100",
          "[validation][reliability][redundancy]")
{
    // A. C. King and W. Knight, "Uninterruptible Power Supplies and Standby Power Systems",
    // McGraw-Hill 2003, ch. 3, "The Statistics of Redundancy", pp. 98-99 and Table 3.2: each
    // set starts with probability 0.99. Table 3.2 rows (all start / one fails / two fail):
    // 1 set 0.99000 / 0.01000; 2 sets 0.98010 / 0.01980 / 0.00010; 3 sets 0.97030 / 0.02940 /
    // 0.00030. N+1 succeeds when all start or one fails: 0.9999 for two sets (p. 98), 0.9997
    // for three. The twin computes them with its own k-out-of-n mechanism from the per-set
    // starting probability, the same one it uses for every redundant subsystem.
    const model::PlantUnitSpec set = standbySet();
    const double a = unitAvailability(set);
    REQUIRE(a == Approx(0.99).epsilon(1e-12));
    auto exactlyDown = [a](int n, int down) {
        return kOutOfN(n - down, n, a) - kOutOfN(n - down + 1, n, a);
    };
    CHECK(kOutOfN(1, 1, a) == Approx(0.99000).margin(5e-6));
    CHECK(kOutOfN(2, 2, a) == Approx(0.98010).margin(5e-6));
    CHECK(exactlyDown(2, 1) == Approx(0.01980).margin(5e-6));
    CHECK(exactlyDown(2, 2) == Approx(0.00010).margin(5e-6));
    CHECK(kOutOfN(3, 3, a) == Approx(0.97030).margin(5e-6));
    CHECK(exactlyDown(3, 1) == Approx(0.02940).margin(5e-6));
    CHECK(exactlyDown(3, 2) == Approx(0.00030).margin(5e-6));

    // The designs the twin builds around the same sets: one set carrying the load (N), with a
    // spare (N+1) or a second whole system (2N); two sets carrying it with a spare (N+1).
    const auto one = [&](model::Redundancy r) { return designSubsystem(800.0, 1.0, set, 0.0, r); };
    CHECK(one(model::Redundancy::N).installedUnits == 1);
    CHECK(one(model::Redundancy::N).availability == Approx(0.99).epsilon(1e-12));
    CHECK(one(model::Redundancy::NPlus1).installedUnits == 2);
    CHECK(one(model::Redundancy::NPlus1).availability == Approx(0.9999).margin(5e-7));
    CHECK(one(model::Redundancy::TwoN).availability == Approx(0.9999).margin(5e-7));
    // "the probability of total failure is reduced by 100 by the addition of the second set"
    CHECK((1.0 - one(model::Redundancy::N).availability) /
              (1.0 - one(model::Redundancy::NPlus1).availability) ==
          Approx(100.0).epsilon(1e-9));
    const auto two = designSubsystem(1800.0, 1.0, set, 0.0, model::Redundancy::NPlus1);
    CHECK(two.requiredUnits == 2);
    CHECK(two.installedUnits == 3);
    CHECK(two.availability == Approx(0.97030 + 0.02940).margin(5e-6));
}

TEST_CASE("Marqusee and Jenket 2020: a single emergency diesel set carries a two-week utility "
          "outage with about 80 % probability when well maintained",
          "[validation][reliability][redundancy]")
{
    // J. Marqusee and D. Jenket, "Reliability of emergency and standby diesel generators:
    // Impact on energy resiliency solutions", Applied Energy 268 (2020) 114918 (NREL), abstract
    // and highlights: "the single emergency diesel generators configurations are only 80%
    // likely to provide power for the duration of a two-week grid outage" ("Well maintained
    // generators are 20% likely to fail within two weeks"), and "Poorly maintained generators
    // are 50% likely to fail within 48 h". Neither figure sets an input: the bundled set's
    // standby availability, fail-to-start probability and running failure rate are NREL
    // REopt's backup-reliability defaults (data/catalog/plant.json), and the twin composes the
    // odds by its own mechanism (standby availability x (1 - fail to start) x exp(-rate T)).
    const auto& shelf = test::catalog().plantUnits().entries;
    const auto it = shelf.find("diesel-standby-genset");
    REQUIRE(it != shelf.end());
    const SubsystemDesign one =
        designSubsystem(800.0, 1.0, it->second, 1000.0, model::Redundancy::N);
    REQUIRE(one.installedUnits == 1);
    const double twoWeeks = carryProbability(one, 14 * 24.0);
    const double twoDays = carryProbability(one, 48.0);
    // 0.995 x (1 - 0.0094) x exp(-336 / 1,100) = 0.726: 7 points below the well-maintained
    // fleet's 80 % (the defaults' single running rate is not the paper's well-maintained row,
    // which could not be read), within 10 points of it and not above it.
    CHECK(twoWeeks == Approx(0.80).margin(0.10));
    CHECK(twoWeeks <= 0.80);
    // Far better than the poorly maintained fleet, half of whose sets fail within 48 h.
    CHECK(twoDays > 0.5);
    // The odds fall with the outage's length: two days is carried far more often than two
    // weeks.
    CHECK(twoDays - twoWeeks > 0.15);
}

namespace {

/** A part of a chiller train that fails \a perYear times a year and takes \a repairHours. */
model::PlantPart trainPart(const char* name, double perYear, double repairHours)
{
    model::PlantPart part;
    part.name = name;
    part.failuresPerMillionHours = perYear / 8760.0 * 1e6;
    part.repairHours = repairHours;
    return part;
}

/** A unit made of \a parts in series, each needed. */
model::PlantUnitSpec trainOf(std::vector<model::PlantPart> parts)
{
    model::PlantUnitSpec unit;
    unit.role = model::PlantRole::Chiller;
    unit.parts = std::move(parts);
    return unit;
}

} // namespace

TEST_CASE("OREDA-2009 chiller-plant availability calculation, sec. 3.9.4: one chiller train and "
          "its components from their failure rates and repair times",
          "[validation][reliability][redundancy]")
{
    // A plant availability calculation for a centrifugal-chiller plant, sec. 3.9.4 "Plant
    // Availability" (public transcription: Scribd document 338528572, "Availability
    // Calculation"), failure rates and MTTRs from OREDA-2009. Each row gives failures a year and
    // MTTR for major failures and random trips, the hours a year not working, and the
    // availability; the train is the compressor (electric-motor-driven), the exchanger, the
    // primary chilled-water and cooling-water pumps and the cooling tower in series. Printed:
    // compressor 10.29 h a year, 99.883 %; exchanger 0.33 h, 99.996 %; each pump 7.27 h,
    // 99.917 %; cooling tower 4.06 h, 99.954 %; "Total for one chiller train" 99.667 %; heat
    // exchanger and control valve (0.023 a year, 3.4 h) "as one HEX + valve" 99.995 %. The
    // table's inputs are taken as they are; the twin composes the availabilities with its own
    // mechanism (each part up 1 / (1 + lambda r), part kinds in series), the one every unit
    // built of parts goes through (data/catalog/plant.json: chillers and CDUs). Two of its MTTR
    // rows are also the bundled chiller compressor's and CDU pump's repair times; the train's
    // availability is not an input anywhere.
    const auto compressorMajor = trainPart("compressor, major failures", 0.588, 12.0);
    const auto compressorTrips = trainPart("compressor, random trips", 0.249, 13.0);
    const auto exchanger = trainPart("exchanger", 0.078, 4.2);
    const auto pumpMajor = trainPart("pump, major failures", 0.347, 18.0);
    const auto pumpTrips = trainPart("pump, random trips", 0.079, 13.0);
    const auto towerMajor = trainPart("cooling tower, major failures", 0.220, 13.0);
    const auto towerTrips = trainPart("cooling tower, random trips", 0.121, 9.9);
    const auto valve = trainPart("control valve", 0.023, 3.4);

    // Hours a year not working: failures a year times MTTR, summed over the modes.
    auto hoursDown = [](const model::PlantUnitSpec& unit) {
        double hours = 0.0;
        for (const auto& part : unit.parts)
            hours += part.failuresPerMillionHours * 1e-6 * 8760.0 * part.repairHours;
        return hours;
    };
    const auto compressor = trainOf({compressorMajor, compressorTrips});
    const auto pump = trainOf({pumpMajor, pumpTrips});
    const auto tower = trainOf({towerMajor, towerTrips});
    CHECK(hoursDown(compressor) == Approx(10.29).margin(0.005));
    CHECK(hoursDown(pump) == Approx(7.27).margin(0.005));
    CHECK(hoursDown(tower) == Approx(4.06).margin(0.005));

    // Each row's availability to the table's three decimals of a per cent.
    CHECK(100.0 * unitAvailability(compressor) == Approx(99.883).margin(0.0005));
    CHECK(100.0 * unitAvailability(trainOf({exchanger})) == Approx(99.996).margin(0.0005));
    CHECK(100.0 * unitAvailability(pump) == Approx(99.917).margin(0.0005));
    CHECK(100.0 * unitAvailability(tower) == Approx(99.954).margin(0.0005));
    CHECK(100.0 * unitAvailability(trainOf({exchanger, valve})) == Approx(99.995).margin(0.0005));

    // The whole train in series: 99.667 % (the twin: 99.6670 %).
    const auto train = trainOf({compressorMajor, compressorTrips, exchanger, pumpMajor, pumpTrips,
                                pumpMajor, pumpTrips, towerMajor, towerTrips});
    CHECK(100.0 * unitAvailability(train) == Approx(99.667).margin(0.0005));
}
