#pragma once

#include "dct/model/catalogentry.h"
#include "dct/model/field.h"

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

    static constexpr const char* kind = "plant";
    static const FieldTable<PlantUnitSpec>& fields();

    bool operator==(const PlantUnitSpec&) const = default;
};

} // namespace dct::model
