#include "dct/solvers/evaluator.h"
#include "dct/solvers/hourlyyear.h"
#include "facilitysupport.h"

#include <sstream>
#include <string>

using namespace dct;
using namespace dct::solvers;

TEST_CASE("The hourly year: 8,760 hours whose sums are the annual figures", "[siteyear][hourly]")
{
    for (const char* name :
         {"multiplane-16k-h100", "legacy-air-h100-dallas", "seed-h100-dallas-d2c"}) {
        INFO(name);
        const auto r = test::resolvedExample(name);
        const Evaluation e = evaluate(r);
        REQUIRE(e.ok());
        const HourlyYear y = expandHourly(r, e);
        REQUIRE(y.hourly);
        REQUIRE(y.month.size() == 8760);
        CHECK(y.facilityKw.sum() / 1000.0 == Approx(e.power.annualFacilityEnergyMwh).epsilon(1e-9));
        CHECK(y.itKw.sum() / 1000.0 == Approx(e.power.annualItEnergyMwh).epsilon(1e-9));
        CHECK(y.waterL.sum() / 1000.0 == Approx(e.cooling.waterM3PerYear).epsilon(1e-9));
        CHECK(y.carbonKg.sum() / 1000.0 == Approx(e.grid.carbonTonnesPerYear).epsilon(1e-9));
        CHECK(y.energyUsd.sum() == Approx(e.grid.energyUsdPerYear).epsilon(1e-9));
        CHECK(y.pue.maxCoeff() == Approx(e.power.peakPue).epsilon(1e-12));
        CHECK(y.dryBulbC.maxCoeff() == Approx(e.cooling.year->source->dryBulbC.maxCoeff()));
        // The calendar: January 1st at midnight first, December 31st at 23:00 last.
        CHECK(y.month(0) == 1);
        CHECK(y.day(0) == 1);
        CHECK(y.hour(0) == 0);
        CHECK(y.month(8759) == 12);
        CHECK(y.day(8759) == 31);
        CHECK(y.hour(8759) == 23);
        CHECK(y.day(31 * 24) == 1); // February 1st
        CHECK(y.month(31 * 24) == 2);
    }
}

TEST_CASE("The hourly CSV: a header and 8,760 rows", "[siteyear][hourly][csv]")
{
    const auto r = test::resolvedExample("seed-h100-dallas-d2c");
    const Evaluation e = evaluate(r);
    const HourlyYear y = expandHourly(r, e);
    std::ostringstream out;
    writeHourlyCsv(out, y);
    std::istringstream in(out.str());
    std::string line;
    std::getline(in, line);
    CHECK(line == "hour_index,month,day,hour,dry_bulb_c,wet_bulb_c,it_kw,facility_kw,pue,"
                  "cooling_kw,economizer_share,water_l,carbon_kg,energy_usd,inlet_c,coolant_c,"
                  "gpu_temp_c,clock_factor,throttled,condenser_water_c");
    int rows = 0;
    double facilityKwh = 0.0;
    while (std::getline(in, line)) {
        ++rows;
        // Column 8 (facility_kw).
        std::istringstream cells(line);
        std::string cell;
        for (int c = 0; c < 8; ++c)
            std::getline(cells, cell, ',');
        facilityKwh += std::stod(cell);
    }
    CHECK(rows == 8760);
    CHECK(facilityKwh / 1000.0 == Approx(e.power.annualFacilityEnergyMwh).epsilon(1e-5));
    // The towers' water stands further above the wet bulb in January than in July.
    double january = 0.0, july = 0.0;
    int januaryHours = 0, julyHours = 0;
    for (Eigen::Index i = 0; i < y.month.size(); ++i) {
        const double approach = y.condenserWaterC(i) - y.wetBulbC(i);
        CHECK(approach > 0.0);
        if (y.month(i) == 1) {
            january += approach;
            ++januaryHours;
        } else if (y.month(i) == 7) {
            july += approach;
            ++julyHours;
        }
    }
    REQUIRE(januaryHours > 0);
    REQUIRE(julyHours > 0);
    CHECK(january / januaryHours > 1.5 * (july / julyHours));
}
