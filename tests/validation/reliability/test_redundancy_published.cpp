// Redundant standby plant against published starting probabilities.
#include "dct/solvers/redundancy.h"
#include "testsupport.h"

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
