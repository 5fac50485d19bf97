#pragma once

#include "dct/model/coolingsystemspec.h"

#include <Eigen/Core>
#include <memory>

namespace dct::solvers {

/**
 * A counterflow cooling tower as Merkel's theory gives it, in Braun's effectiveness-NTU form
 * (J. E. Braun, S. A. Klein, J. W. Mitchell, "Effectiveness models for cooling towers and cooling
 * coils", ASHRAE Transactions 95(2), 1989): the air's enthalpy rises toward the saturated
 * enthalpy at the water's temperature, with the saturated air's equivalent specific heat
 * (the slope of its enthalpy over the water's range) as the air side's capacity. That slope
 * falls steeply as the air cools, so a tower leaves its water further above a cold wet bulb than
 * above a warm one (docs/siteyear.md, "Cooling towers").
 */
struct CoolingTower
{
    double ntu = 0.0;        ///< Transfer units of the fill (sized at the design point).
    double waterToAir = 1.0; ///< Water over dry-air mass flow (L/G).
    double rangeK = 5.6;     ///< Water temperature drop through the tower.
    double pressureKpa = 101.325;

    bool operator==(const CoolingTower&) const = default;
};

/**
 * Returns the tower whose water leaves \a approachK above \a designWetBulbC with \a rangeK of
 * range and \a waterToAir L/G: its NTU. An approach the fill cannot reach (at or below zero)
 * gives the largest NTU tried (20).
 */
CoolingTower sizeCoolingTower(double designWetBulbC, double rangeK, double approachK,
                              double waterToAir = 1.0, double pressureKpa = 101.325);

/** Returns the approach (leaving water minus wet bulb) of \a tower at \a wetBulbC, K. */
double towerApproachK(const CoolingTower& tower, double wetBulbC);

/**
 * The approach of one tower tabulated over wet bulbs from -50 to 40 C every 0.25 K (built once
 * per distinct tower and shared, thread-safe), read by linear interpolation (within 0.01 K of
 * towerApproachK()).
 */
class TowerApproachTable
{
public:
    explicit TowerApproachTable(const CoolingTower& tower);
    /** The approach at each of \a wetBulbC, K (clamped to the table's wet bulbs). */
    Eigen::ArrayXd operator()(const Eigen::ArrayXd& wetBulbC) const;
    double operator()(double wetBulbC) const;
    /** Returns the wet bulb at which the tower's water leaves at \a waterC (monotone inverse). */
    double wetBulbForWaterC(double waterC) const;

private:
    Eigen::ArrayXd m_approachK;
};

/** Returns the shared table of \a tower (built on first use). */
std::shared_ptr<const TowerApproachTable> towerApproachTable(const CoolingTower& tower);

/**
 * Returns the cooling tower of \a system's plant run at \a pressureKpa carrying \a load of its
 * design heat on its design water flow (the range shrinks with the heat): rated as towers are
 * (Cooling Technology Institute, 95/85/78 F: water cooled over the system's
 * condenser_water_range_c at a 78 F (25.6 C) wet bulb) to leave its water
 * tower_design_approach_c above that wet bulb at sea level, at L/G 1 (assumption: the middle of
 * the 0.75-1.5 of HVAC towers; from 0.8 to 1.5 the approach at a 10 C wet bulb moves 0.45 K).
 * The load is rounded to 1/64 (the shared tables are per distinct tower).
 */
CoolingTower plantCoolingTower(const model::CoolingSystemSpec& system, double pressureKpa,
                               double load = 1.0);

} // namespace dct::solvers
