#pragma once

#include "dct/model/catalogentry.h"
#include "dct/model/enums.h"
#include "dct/model/field.h"

namespace dct::model {

/** A fabric switch: radix, port rate, latency, power and price. */
struct SwitchSpec : CatalogEntry
{
    std::string vendor;
    Protocol protocol = Protocol::Infiniband;
    int ports = 64;
    double portRateGbps = 400.0;
    /** Logical ports one port splits into at most (an 800G port as 2 x 400G: 2; 1: none). */
    int maxBreakout = 1;
    /** Ports sharing one pluggable cage (a twin-port OSFP cage: 2), so one module serves them. */
    int portsPerCage = 1;
    double latencyUs = 0.13; ///< Port-to-port, cut-through.
    double powerW = 1700.0;  ///< Typical with optics excluded.
    int heightU = 1;
    bool inNetworkReduction = false; ///< Supports in-network all-reduce (e.g. SHARP).
    double priceUsd = 0.0;

    static constexpr const char* kind = "switch";
    static const FieldTable<SwitchSpec>& fields();

    bool operator==(const SwitchSpec&) const = default;
};

} // namespace dct::model
