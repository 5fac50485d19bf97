#pragma once

#include "dct/model/catalogentry.h"
#include "dct/model/enums.h"
#include "dct/model/field.h"

#include <string>

namespace dct::model {

/** What carries the signal between the ends. */
enum class CableMedium
{
    Copper,    ///< Twinax (DAC, AEC).
    Multimode, ///< Multimode fiber (OM3/OM4): SR optics and VCSEL AOCs.
    Singlemode ///< Single-mode fiber (OS2): DR/FR optics.
};

/** Which fabrics a cable or transceiver is sold for. */
enum class CableProtocols
{
    Any,      ///< Firmware for both InfiniBand and Ethernet (NVIDIA LinkX parts detect the switch).
    Ethernet, ///< Ethernet (RoCE) switch ports only.
    Infiniband ///< InfiniBand switch ports only.
};

/**
 * A cable or an optical transceiver. Its rate is that of its (switch-end) plug: a twin-port OSFP
 * plug carries two 400G ports at 800G. A splitter cable has several plugs at its far end, each
 * carrying rate / far_plugs.
 */
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
    int farPlugs = 1;          ///< Plugs at the far end: 1 straight, 2 or 4 a splitter.
    std::string optics;        ///< Transceivers: optical interface per port (SR4, DR4, FR4).
    CableProtocols protocols = CableProtocols::Any;

    static constexpr const char* kind = "cable";
    static const FieldTable<CableSpec>& fields();

    bool operator==(const CableSpec&) const = default;
};

} // namespace dct::model
