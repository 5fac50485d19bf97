#pragma once

#include "dct/model/enums.h"
#include "dct/model/resolvedscenario.h"
#include "dct/solvers/coolingresult.h"
#include "dct/solvers/powerresult.h"

#include <string>
#include <utility>
#include <vector>

namespace dct::solvers {

/** One redundant subsystem (UPS, generators, chillers, CDUs): its units, sizes, cost, odds. */
struct SubsystemDesign
{
    model::Redundancy redundancy = model::Redundancy::N;
    double loadKw = 0.0;             ///< The peak-hour load it carries (kW; heat for cooling).
    double capacityKw = 0.0;         ///< The rating the load needs (load over the design fraction).
    double unitSizeKw = 0.0;         ///< Standard rating of one unit.
    int requiredUnits = 0;           ///< N: units that carry the load.
    int installedUnits = 0;          ///< N plus the redundant units.
    int systems = 1;                 ///< Independent systems (2 for 2N, 3 for 3N/2, 4 for 4N/3).
    double loadFraction = 0.0;       ///< Load of each unit over its rating in normal operation.
    double capexUsd = 0.0;           ///< Every installed unit.
    double redundancyCapexUsd = 0.0; ///< The units beyond N.
    double unitAvailability = 1.0;   ///< One unit: MTBF / (MTBF + MTTR).
    double availability = 1.0;       ///< Probability the subsystem carries the whole load.
    /// Failures per hour of a started standby unit while it runs (generators; 0 otherwise).
    double runFailuresPerHour = 0.0;
};

/** The facility's redundancy design and what it buys (docs/redundancy.md). */
struct RedundancyResult
{
    SubsystemDesign ups;
    SubsystemDesign generators;
    SubsystemDesign chillers;
    SubsystemDesign cdus;
    double upsEfficiency = 0.0;       ///< At the part load each module really runs at.
    double upsEfficiencyAtN = 0.0;    ///< The same load on N modules only (for comparison).
    double utilityAvailability = 1.0; ///< One utility circuit.
    /// Mean share of a utility outage the generators do not carry: those that fail to start,
    /// and the rest of the outage after too many running sets fail (generatorUncoveredShare()).
    double generatorUncoveredShare = 1.0;
    double sourceAvailability = 1.0;   ///< Utility or enough generators.
    double powerAvailability = 1.0;    ///< Source and UPS.
    double coolingAvailability = 1.0;  ///< Chillers and CDUs.
    double availability = 1.0;         ///< Every IT load served (power and cooling).
    double downtimeHoursPerYear = 0.0; ///< (1 - availability) x 8,760 h.
    double capexUsd = 0.0;             ///< Every installed unit of the four subsystems.
    double redundancyCapexUsd = 0.0;   ///< The units beyond N (added to the cost's capex).
};

/** Returns "N", "N+1", "N+2", "2N", "3N/2" or "4N/3". */
const char* redundancyName(model::Redundancy redundancy);

/**
 * Returns the share of the time one \a unit is up and, for a standby unit, starts when called:
 * MTBF / (MTBF + MTTR) from its failure rate and repair time, or the product over its parts
 * (each part kind k-out-of-n) when it lists parts, times 1 - start_failure_probability.
 */
double unitAvailability(const model::PlantUnitSpec& unit);

/**
 * Returns the probability that at least \a k of \a n independent units, each available with
 * probability \a a, are available (k-out-of-n reliability).
 */
double kOutOfN(int k, int n, double a);

/**
 * Returns the probability that \a design carries its load when each of its units is up with
 * probability \a unitUp: at least N of the installed units (N, N+1, N+2), or at least m - 1 of
 * its m systems each with all its units (2N, 3N/2, 4N/3).
 */
double subsystemAvailability(const SubsystemDesign& design, double unitUp);

/**
 * Returns the probability that the standby \a design (generators) still carries its load
 * \a hours into a utility outage: each set is up when called with the design's
 * unitAvailability and, once running, fails at runFailuresPerHour, without repair during the
 * outage (docs/redundancy.md).
 */
double carryProbability(const SubsystemDesign& design, double hours);

/**
 * Returns the mean share of a utility outage that the standby \a design does not carry, the
 * outage's duration exponential with mean \a meanOutageHours: the integral of
 * (1 - carryProbability(t)) exp(-t / mean) dt over the mean. With no running failures it is
 * 1 - availability; with them it grows with the outage's length.
 */
double generatorUncoveredShare(const SubsystemDesign& design, double meanOutageHours);

/**
 * Returns the units installed when \a requiredUnits carry the load under \a redundancy: N, N+1,
 * N+2; 2N and distributed redundancy build m systems, any m - 1 of which carry the load, of
 * ceil(N / (m - 1)) units each. The plant's design and the hall's floor plan count them so.
 */
int installedUnits(int requiredUnits, model::Redundancy redundancy);

/**
 * Returns the design of one subsystem carrying \a loadKw with units of \a unit (sizes from its
 * module_sizes_kw, else \a fixedSizeKw) at most \a designLoadFraction loaded when N units carry
 * the load, under \a redundancy.
 */
SubsystemDesign designSubsystem(double loadKw, double designLoadFraction,
                                const model::PlantUnitSpec& unit, double fixedSizeKw,
                                model::Redundancy redundancy);

/**
 * Returns the efficiency a measured \a curve ((load over rating, efficiency) points, ascending)
 * gives at \a loadFraction: linear between the points, the last point's beyond it. Below the
 * first point the first point's loss in kW is held (efficiencyLossKw()).
 */
double curveEfficiency(const std::vector<std::pair<double, double>>& curve, double loadFraction);

/**
 * Returns the loss (kW) of units of total rating \a ratingKw carrying \a outKw, read from the
 * measured \a curve at the load fraction outKw / ratingKw. Below the curve's first point the
 * loss stays at the first point's: a measured curve says nothing lighter, and a converter's
 * fixed losses (control, fans, magnetising) do not fall with load (assumption,
 * docs/redundancy.md).
 */
double curveLossKw(const std::vector<std::pair<double, double>>& curve, double outKw,
                   double ratingKw);

/** Returns the plant unit of \a role in \a scenario (the first by id), or nullptr. */
const model::PlantUnitSpec* plantUnit(const model::ResolvedScenario& scenario,
                                      model::PlantRole role);

/** Returns the UPS design for the scenario's UPS load \a loadKw (used by the power solver). */
SubsystemDesign upsDesign(const model::ResolvedScenario& scenario, double loadKw);

/**
 * Designs the UPS, generators, chillers and CDUs for the peak hour of the site year, and
 * estimates the availability of the whole IT load from their failure rates and repair times.
 */
RedundancyResult solveRedundancy(const model::ResolvedScenario& scenario, const PowerResult& power,
                                 const CoolingResult& cooling);

} // namespace dct::solvers
