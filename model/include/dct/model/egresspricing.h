#pragma once

#include "dct/model/catalogentry.h"
#include "dct/model/field.h"

#include <vector>

namespace dct::model {

/** One step of a tiered price: volume up to \a upToGb in the month is billed at \a usdPerGb. */
struct PriceTier
{
    double upToGb = 0.0; ///< Cumulative monthly volume where the tier ends; 0 means no end.
    double usdPerGb = 0.0;

    bool operator==(const PriceTier&) const = default;
};

/** A cloud provider's internet egress price table. */
struct EgressPricing : CatalogEntry
{
    std::string provider;
    std::vector<PriceTier> tiers; ///< In increasing order of upToGb; the last one has no end.

    static constexpr const char* kind = "egress";
    static const FieldTable<EgressPricing>& fields();

    bool operator==(const EgressPricing&) const = default;
};

} // namespace dct::model
