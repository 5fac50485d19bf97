#pragma once

#include "dct/model/sitespec.h"

#include <Eigen/Core>
#include <memory>
#include <string>

namespace dct::solvers {

/**
 * A site's year as the plant sees it: one entry per hour of a 365-day year (8,760) when the site
 * has climate normals, else one entry per climate bin weighted by its hours (docs/siteyear.md).
 */
struct SiteYear
{
    bool hourly = false;      ///< True: 8,760 chronological hours from the normals.
    Eigen::ArrayXd dryBulbC;  ///< Outdoor dry bulb of each entry.
    Eigen::ArrayXd wetBulbC;  ///< Outdoor thermodynamic wet bulb of each entry.
    Eigen::ArrayXd dewPointC; ///< Outdoor dew point of each entry (hourly years only, else wet).
    Eigen::ArrayXd hours;     ///< Hours each entry stands for (1 for an hourly year).
    Eigen::ArrayXd humidityRatio;   ///< Outdoor air, kg water per kg dry air.
    Eigen::ArrayXd enthalpyKjPerKg; ///< Outdoor air, per kg dry air (Fundamentals ch. 1, eq. 32).
    double pressureKpa = 101.325;   ///< Station pressure.
    Eigen::ArrayXi month;           ///< Month 0..11 of each entry (-1 for bins).
    Eigen::ArrayXi hourOfDay;       ///< Local solar hour 0..23 of each entry (-1 for bins).
    double totalHours = 0.0;
    Eigen::Index hottestIndex = 0;   ///< Entry of the highest dry bulb.
    double design04DryBulbC = 0.0;   ///< Dry bulb exceeded 0.4 % of the year (35 h).
    double design04WetBulbC = 0.0;   ///< Mean wet bulb of the hours at or above it.
    double heating996DryBulbC = 0.0; ///< Dry bulb undercut 0.4 % of the year (99.6 % heating).
    double meanDryBulbC = 0.0;
    double maxWetBulbC = 0.0;
    double hotScaleK = 0.0;   ///< Calibrated warm-anomaly scale of the day-to-day variation.
    double coldScaleK = 0.0;  ///< Calibrated cold-anomaly scale.
    double dewCoupling = 0.0; ///< Calibrated dew-point change per K of daily anomaly.

    // Grouped years only (climateStates()): the entries are the distinct climate states of an
    // hourly year, each standing for the hours it groups.
    std::shared_ptr<const SiteYear> source; ///< The hourly year grouped; null otherwise.
    Eigen::ArrayXi hourEntry;               ///< Entry of each hour of the source year.
    Eigen::ArrayXXd monthHours;             ///< Hours of each entry in each month (entries x 12).
    Eigen::ArrayXd outdoorC;            ///< The temperature the plant sees in the state (its key).
    Eigen::ArrayXXd monthHumidityRatio; ///< Sum over each entry's hours in each month.
    Eigen::ArrayXXd monthDryBulbC;      ///< Sum over each entry's hours in each month.
    Eigen::ArrayXd minHumidityRatio;    ///< Driest hour of each entry (its most tower water).
    Eigen::ArrayXd maxDryBulbC;         ///< Warmest hour of each entry (its most pad water).
};

/** Returns the hours of each entry of \a year in each month (entries x 12); climate bins spread
 *  evenly over the months. */
Eigen::ArrayXXd entryMonthHours(const SiteYear& year);

/**
 * The heat-rejection side of a cooling system as the climate reaches it: the plant of a system
 * depends on the hour only through one outdoor temperature (the wet bulb for towers, the dry bulb
 * for dry coolers, the pads' outlet air for dry coolers with adiabatic assist).
 */
struct ClimateKey
{
    bool wet = false;                  ///< Towers: the wet bulb.
    double adiabaticEffectiveness = 0; ///< Dry coolers with pads; 0 without.
    double adiabaticThresholdC = 0;    ///< Pads run above this dry bulb.
    bool operator<(const ClimateKey& o) const;
};

/** Lattice step of the climate states, K: the states' sums equal the hours' to its rounding. */
inline constexpr double kClimateStateStepK = 0.05;

/**
 * Returns the distinct climate states of the hourly \a year as \a key sees it, on the
 * kClimateStateStepK lattice and month by month: one entry per state, weighted by its hours, with
 * its hours by month, the hours' mean dry and wet bulb, humidity ratio and enthalpy, and the entry
 * of every hour (docs/siteyear.md). Built once per year and key (cached, thread-safe) and shared; a
 * year that is not hourly is returned as it is.
 */
std::shared_ptr<const SiteYear> climateStates(const std::shared_ptr<const SiteYear>& year,
                                              const ClimateKey& key);

/** Returns \a perEntry of the grouped \a entries hour by hour of their source year (itself when
 *  \a entries is not grouped). */
Eigen::ArrayXd hourByHour(const SiteYear& entries, const Eigen::ArrayXd& perEntry);

/** How many evaluations ran their site year on each path since the process started. */
struct SiteYearPathCounts
{
    unsigned long long climateStates = 0; ///< The fast path: an hourly year's grouped states.
    unsigned long long hourByHour = 0;    ///< Every one of the 8,760 hours (the reference).
    unsigned long long climateBins = 0;   ///< A site without normals: its bins (or placeholder).
};

/** Returns the counts of the paths evaluations took (sweeps report them). */
SiteYearPathCounts siteYearPathCounts();

/** Counts one evaluation on the path \a year stands for (coolingsolver.cpp calls it). */
void countSiteYearPath(const SiteYear& year);

/** Returns the path \a counts took, as text: "grouped climate states (fast path)", ... */
std::string siteYearPathText(const SiteYearPathCounts& counts);

/** Hours of a 365-day year. */
constexpr int kHoursPerYear = 8760;

/**
 * Returns the thermodynamic wet bulb of air at \a dryBulbC with dew point \a dewPointC (capped at
 * the dry bulb) at station pressure \a pressureKpa (ASHRAE Handbook Fundamentals 2017, ch. 1,
 * eqs. 33 and 35).
 */
double wetBulbC(double dryBulbC, double dewPointC, double pressureKpa);

/** Returns the standard-atmosphere pressure at \a elevationM in kPa (Fundamentals ch. 1, eq. 3). */
double stationPressureKpa(double elevationM);

/** Returns the saturation vapour pressure in kPa over water (>= 0 C) or ice (Alduchov and
 *  Eskridge 1996); the array form element-wise. */
double saturationPressureKpa(double tC);
Eigen::ArrayXd saturationPressureKpa(const Eigen::ArrayXd& tC);

/** Returns the humidity ratio at vapour pressure \a pwKpa and total \a pKpa, element-wise. */
double humidityRatio(double pwKpa, double pKpa);
Eigen::ArrayXd humidityRatio(const Eigen::ArrayXd& pwKpa, double pKpa);

/** Returns moist air's enthalpy in kJ/kg dry air (Fundamentals 2017, ch. 1, eq. 32). */
double moistAirEnthalpyKjPerKg(double tC, double w);
Eigen::ArrayXd moistAirEnthalpyKjPerKg(const Eigen::ArrayXd& tC, const Eigen::ArrayXd& w);

/** Builds the hourly year of \a normals at \a elevationM (docs/siteyear.md); deterministic. */
SiteYear synthesizeSiteYear(const model::ClimateNormals& normals, double elevationM);

/**
 * Returns the year of \a site: synthesized from its climate normals once per distinct normals
 * (cached, thread-safe), else its climate bins, else one placeholder bin of \a placeholderDryBulbC
 * and \a placeholderWetBulbC for the whole year.
 */
std::shared_ptr<const SiteYear> siteYear(const model::SiteSpec& site, double placeholderDryBulbC,
                                         double placeholderWetBulbC);

} // namespace dct::solvers
