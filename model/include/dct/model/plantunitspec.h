#pragma once

#include "dct/model/catalogentry.h"
#include "dct/model/field.h"

#include <string>
#include <utility>
#include <vector>

namespace dct::model {

/** What a plant unit does in the facility (docs/redundancy.md). */
enum class PlantRole
{
    Utility,   ///< The utility feed (one circuit): what the generators back up.
    Ups,       ///< A static UPS module.
    Generator, ///< A standby diesel generator set.
    Chiller,   ///< A chiller (mechanical cooling).
    Cdu        ///< A coolant distribution unit of a liquid loop.
};

/**
 * A part of a plant unit, when the unit's own failure rate is not published: a unit built of
 * parts is up while at least `needed` of each part's `count` are (docs/redundancy.md).
 */
struct PlantPart
{
    std::string name;
    int count = 1;  ///< Installed in one unit.
    int needed = 1; ///< Of them the unit needs to work.
    double failuresPerMillionHours = 0.0;
    double repairHours = 1.0; ///< Mean time to repair or swap.
    std::string source;       ///< Where the rate and repair time come from.

    bool operator==(const PlantPart&) const = default;
};

/**
 * A kind of facility plant unit: the standard sizes it is sold in, its price, and how often it
 * fails and how long a repair takes. The redundancy design (solvers/redundancy.h) counts and
 * sizes the units from these.
 */
struct PlantUnitSpec : CatalogEntry
{
    PlantRole role = PlantRole::Ups;
    std::vector<double> moduleSizesKw; ///< Standard ratings, ascending (kW; thermal for cooling).
    double usdPerKw = 0.0;             ///< Installed price per kW of rating.
    double failuresPerMillionHours = 0.0;
    double repairHours = 0.0; ///< Mean time to repair.
    /// Probability that a standby unit fails to start and take its load when called (generators).
    double startFailureProbability = 0.0;
    /// Share of the time a standby unit is not down for maintenance or repair when called
    /// (generators). 0: the unit's failures_per_million_hours and repair_hours give it instead.
    double standbyAvailability = 0.0;
    /// Failures per million hours of a standby unit once it runs (generators): in a utility
    /// outage of T hours a started set still runs at its end with probability exp(-rate T).
    double runFailuresPerMillionHours = 0.0;
    /// Measured efficiency against the load each unit carries (UPS): (load over rating,
    /// efficiency) points, ascending in load. Empty: the facility's UPS loss model.
    std::vector<std::pair<double, double>> efficiencyCurve;
    /// When not empty, the unit's availability is composed from these parts instead of its own
    /// failures_per_million_hours and repair_hours.
    std::vector<PlantPart> parts;

    static constexpr const char* kind = "plant";
    static const FieldTable<PlantUnitSpec>& fields();

    bool operator==(const PlantUnitSpec&) const = default;
};

} // namespace dct::model
