#pragma once

#include "dct/model/catalogentry.h"
#include "dct/model/field.h"

#include <vector>

namespace dct::model {

/** Hours of the year spent in one outdoor temperature bin. */
struct ClimateBin
{
    double dryBulbC = 0.0; ///< Bin centre, dry bulb.
    double wetBulbC = 0.0; ///< Mean coincident wet bulb.
    double hours = 0.0;
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

    static constexpr const char* kind = "site";
    static const FieldTable<SiteSpec>& fields();
};

} // namespace dct::model
