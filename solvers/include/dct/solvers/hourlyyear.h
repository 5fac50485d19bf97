#pragma once

#include "dct/model/resolvedscenario.h"
#include "dct/solvers/evaluation.h"

#include <Eigen/Core>
#include <ostream>

namespace dct::solvers {

/**
 * An evaluation's site year hour by hour: the 8,760 hours of the site's year, each taking the
 * figures of the climate state it belongs to (docs/siteyear.md, "From states back to hours").
 */
struct HourlyYear
{
    bool hourly = false;      ///< False when the site has climate bins only (no hours to show).
    Eigen::ArrayXi month;     ///< 1..12.
    Eigen::ArrayXi day;       ///< Day of the month, 1..31.
    Eigen::ArrayXi dayOfYear; ///< 0..364.
    Eigen::ArrayXi hour;      ///< Local solar hour 0..23.
    Eigen::ArrayXd dryBulbC;
    Eigen::ArrayXd wetBulbC;
    Eigen::ArrayXd itKw;
    Eigen::ArrayXd facilityKw;
    Eigen::ArrayXd pue;
    Eigen::ArrayXd coolingKw;
    Eigen::ArrayXd economizerShare; ///< Share of the plant's heat removed without chillers.
    /** The heat rejection's water to the chillers' condensers (a tower's: its approach above
     *  the wet bulb). */
    Eigen::ArrayXd condenserWaterC;
    Eigen::ArrayXd waterL;    ///< Site water drawn in the hour.
    Eigen::ArrayXd carbonKg;  ///< The facility's energy at the hour's grid intensity.
    Eigen::ArrayXd energyUsd; ///< The hour's energy charge (demand charges are monthly).
    Eigen::ArrayXd inletC;    ///< Server inlet air.
    Eigen::ArrayXd coolantC;  ///< Coolant at the cold plates (0 without them).
    Eigen::ArrayXd gpuTempC;
    Eigen::ArrayXd clockFactor; ///< Thermal clock factor (1: full clocks).
};

/** Returns the hours of \a evaluation's site year (\a scenario is what it evaluated). */
HourlyYear expandHourly(const model::ResolvedScenario& scenario, const Evaluation& evaluation);

/** Writes \a year as CSV: a header and one row per hour (docs/siteyear.md lists the columns). */
void writeHourlyCsv(std::ostream& out, const HourlyYear& year);

} // namespace dct::solvers
