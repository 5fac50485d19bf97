#pragma once

#include "dct/model/catalogentry.h"
#include "dct/model/enums.h"
#include "dct/model/field.h"

namespace dct::model {

/** What carries the signal between the ends. */
enum class CableMedium
{
    Copper,    ///< Twinax (DAC, AEC).
    Multimode, ///< Multimode fiber (OM3/OM4): SR optics and VCSEL AOCs.
    Singlemode ///< Single-mode fiber (OS2): DR/FR optics.
};

/** A cable or an optical transceiver at one rate. */
struct CableSpec : CatalogEntry
{
    CableKind cableKind = CableKind::Dac;
    double rateGbps = 400.0;
    double reachM = 3.0;   ///< Longest supported length.
    double powerW = 0.0;   ///< Per cable (DAC/AEC/AOC) or per transceiver.
    double priceUsd = 0.0; ///< Per cable or per transceiver.
    CableMedium medium = CableMedium::Copper;
    double latencyNs = 0.0;    ///< Added by the ends' electronics, beyond propagation.
    double fiberUsdPerM = 0.0; ///< Transceivers: the fiber laid between the two ends.

    static constexpr const char* kind = "cable";
    static const FieldTable<CableSpec>& fields();
};

} // namespace dct::model
