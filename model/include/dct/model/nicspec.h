#pragma once

#include "dct/model/catalogentry.h"
#include "dct/model/field.h"

namespace dct::model {

/** A network adapter of the scale-out fabric. */
struct NicSpec : CatalogEntry
{
    std::string vendor;
    double rateGbps = 400.0;
    int ports = 1;
    bool infiniband = true;
    bool ethernet = true;
    double latencyUs = 0.6; ///< Adapter traversal, one way, sender plus receiver counted apart.
    double powerW = 25.0;
    double priceUsd = 0.0;
    /** NCCL runs its LL protocol between nodes over this adapter's transport. */
    bool llAcrossNodes = true;
    /** NCCL runs its LL128 protocol between nodes over this adapter's transport. */
    bool ll128AcrossNodes = true;

    static constexpr const char* kind = "nic";
    static const FieldTable<NicSpec>& fields();

    bool operator==(const NicSpec&) const = default;
};

} // namespace dct::model
