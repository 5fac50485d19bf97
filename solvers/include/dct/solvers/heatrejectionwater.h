#pragma once

#include "dct/model/coolingsystemspec.h"
#include "dct/solvers/siteyear.h"

#include <Eigen/Core>
#include <array>

namespace dct::solvers {

/** Water drawn by the heat rejection, entry by entry of the site's year, in litres. */
struct HeatRejectionWater
{
    Eigen::ArrayXd evaporationL; ///< Cooling tower evaporation, or adiabatic pre-cooler spray.
    Eigen::ArrayXd blowdownL;    ///< Tower blowdown that holds the cycles of concentration.
    Eigen::ArrayXd driftL;       ///< Droplets carried out of the tower.
    Eigen::ArrayXd totalL;
    std::array<double, 12> monthlyL{}; ///< All of it, month by month.
    double peakLPerHour = 0.0;         ///< In the hour that draws most.
};

/**
 * Returns the litres of water evaporated per kWh a cooling tower rejects, from the entering air
 * (\a dryBulbC, \a dewPointC) and its exhaust leaving saturated at \a exhaustC, at \a pressureKpa:
 * the ratio of the air's humidity-ratio rise to its enthalpy rise (ASHRAE Handbook HVAC Systems
 * and Equipment 2020, ch. 40).
 */
double towerEvaporationLPerKwh(double dryBulbC, double dewPointC, double exhaustC,
                               double pressureKpa);

/**
 * Returns the water of \a system rejecting \a rejectedKw (heat plus compressor power) entry by
 * entry of \a year: towers evaporate, blow down and drift; dry coolers with adiabatic assist spray
 * above their threshold; dry coolers without it use none. The towers carry \a towerLoad of their
 * design heat (CoolingResult::towerLoad): their water's approach and range. Where the caller has
 * the towers' water entry by entry (\a leavingWaterC, the plant's condenser water, warmer in the
 * chillers' hours with the compressors' heat), the exhaust is taken over it and each entry's
 * range (the range at \a towerLoad times the entry's heat over the loops' \a loopsKw).
 */
HeatRejectionWater heatRejectionWater(const model::CoolingSystemSpec& system, const SiteYear& year,
                                      const Eigen::ArrayXd& rejectedKw, double pressureKpa,
                                      double towerLoad = 1.0,
                                      const Eigen::ArrayXd* leavingWaterC = nullptr,
                                      double loopsKw = 0.0);

/**
 * Returns the air temperature a dry cooler of \a system sees in each entry of \a year: the dry
 * bulb, pre-cooled toward the wet bulb by the adiabatic assist above its threshold.
 */
Eigen::ArrayXd dryCoolerAirC(const model::CoolingSystemSpec& system, const SiteYear& year);

} // namespace dct::solvers
