#pragma once

#include "dct/model/catalogentry.h"
#include "dct/model/enums.h"
#include "dct/model/field.h"

namespace dct::model {

/** A cable or an optical transceiver at one rate. */
struct CableSpec : CatalogEntry
{
    CableKind cableKind = CableKind::Dac;
    double rateGbps = 400.0;
    double reachM = 3.0;   ///< Longest supported length.
    double powerW = 0.0;   ///< Per cable (DAC/AEC/AOC) or per transceiver.
    double priceUsd = 0.0; ///< Per cable or per transceiver.

    static constexpr const char* kind = "cable";
    static const FieldTable<CableSpec>& fields();
};

} // namespace dct::model
