#pragma once

#include "dct/model/catalogentry.h"
#include "dct/model/field.h"

#include <array>
#include <vector>

namespace dct::model {

/** Hours of the year spent in one outdoor temperature bin. */
struct ClimateBin
{
    double dryBulbC = 0.0; ///< Bin centre, dry bulb.
    double wetBulbC = 0.0; ///< Mean coincident wet bulb.
    double hours = 0.0;

    bool operator==(const ClimateBin&) const = default;
};

/**
 * Published climate normals of a site, from which the solvers synthesize its hourly year
 * (docs/siteyear.md): monthly mean daily maximum and minimum, monthly mean dew point and the
 * annual design values the synthetic year reproduces.
 */
struct ClimateNormals
{
    bool present = false;               ///< False: the site gives none (climate bins are used).
    std::array<double, 12> tmaxC{};     ///< Monthly mean daily maximum dry bulb, Jan..Dec.
    std::array<double, 12> tminC{};     ///< Monthly mean daily minimum dry bulb, Jan..Dec.
    std::array<double, 12> dewPointC{}; ///< Monthly mean dew point, Jan..Dec.
    double designDryBulbC = 0.0;        ///< 0.4 % annual cooling design dry bulb.
    double designWetBulbC = 0.0;        ///< Mean coincident wet bulb of the 0.4 % dry bulb.
    double heatingDryBulbC = 0.0;       ///< 99.6 % annual heating design dry bulb.
    int seed = 1;                       ///< Seed of the day-to-day variation.

    bool operator==(const ClimateNormals&) const = default;
};

/**
 * A time-of-use electricity tariff with a demand charge: energy at the peak price in the hours
 * [peak_start_hour, peak_end_hour) of every day, at the off-peak price otherwise, plus each
 * month's highest hourly demand at the demand rate.
 */
struct Tariff
{
    bool present = false; ///< False: energy at electricity_price_usd_per_kwh, no demand charge.
    double peakUsdPerKwh = 0.0;
    double offPeakUsdPerKwh = 0.0;
    int peakStartHour = 0; ///< First peak hour, 0..23 local time.
    int peakEndHour = 0;   ///< First hour after the peak, 1..24.
    double demandUsdPerKwMonth = 0.0;

    bool operator==(const Tariff&) const = default;
};

/** A data-center site: location, climate and electricity price. */
struct SiteSpec : CatalogEntry
{
    std::string country;
    double latitudeDeg = 0.0;
    double longitudeDeg = 0.0;
    double elevationM = 0.0;
    double electricityPriceUsdPerKwh = 0.08;
    double carbonKgPerKwh = 0.4;
    std::string climate;                 ///< Short description, e.g. "humid subtropical (Cfa)".
    std::vector<ClimateBin> climateBins; ///< Annual temperature bins; hours add up to 8760.
    ClimateNormals climateNormals;       ///< When present, the hourly year is built from them.
    /** Grid carbon intensity of each month over the annual mean (12 values, or empty: flat). */
    std::vector<double> carbonMonthFactors;
    /** Grid carbon intensity of each hour of the day over the day's mean (24, or empty). */
    std::vector<double> carbonHourFactors;
    Tariff tariff; ///< Time-of-use energy and demand charges, when the site gives them.

    static constexpr const char* kind = "site";
    static const FieldTable<SiteSpec>& fields();

    bool operator==(const SiteSpec&) const = default;
};

} // namespace dct::model
