#pragma once

// Internal to dct_solvers (not installed): the hours of each climate state of a grouped year.

#include "dct/solvers/siteyear.h"

#include <Eigen/Core>

namespace dct::solvers {

/**
 * What a pass over the hours of a grouped year (climateStates()) needs beyond its states: each
 * state's hours and their extremes, so that a pass for a maximum can skip the states that cannot
 * reach it (heatRejectionWater's peak hour). Kept beside the grouped years climateStates()
 * caches, which live as long as the process.
 */
struct ClimateStateHours
{
    Eigen::ArrayXd maxEnthalpyKjPerKg; ///< Highest enthalpy of each state's hours (NaN kept).
    Eigen::ArrayXd maxDepressionK;     ///< Largest dry bulb - wet bulb of each state's hours.
    /** The source year's hours state by state, each state's in hour order: state e's hours are
     *  hours[begin(e) .. begin(e + 1)). */
    Eigen::ArrayXi begin;
    Eigen::ArrayXi hours;
};

/** Returns the state hours of \a grouped when climateStates() made it (else null); they live as
 *  long as the process. */
const ClimateStateHours* climateStateHours(const SiteYear& grouped);

} // namespace dct::solvers
