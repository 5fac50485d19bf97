#pragma once

#include "dct/model/catalogentry.h"
#include "dct/model/field.h"

namespace dct::model {

/** A fixed-price unmetered internet port. */
struct PortOffer : CatalogEntry
{
    std::string provider;
    double portGbps = 10.0;
    double usdPerMonth = 0.0;

    static constexpr const char* kind = "port";
    static const FieldTable<PortOffer>& fields();

    bool operator==(const PortOffer&) const = default;
};

} // namespace dct::model
