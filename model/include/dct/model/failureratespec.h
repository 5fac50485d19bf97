#pragma once

#include "dct/model/catalogentry.h"
#include "dct/model/field.h"

namespace dct::model {

/** What a component failure rate is counted per: the job's units of that kind. */
enum class FailureUnit
{
    Gpu,    ///< Per GPU of the job (the GPU, its HBM, SRAM, system processor).
    Node,   ///< Per node (host CPU, memory, PSU, SSD, chassis, host software).
    Nic,    ///< Per scale-out NIC.
    Switch, ///< Per fabric switch.
    Link    ///< Per fabric link (NIC-leaf and switch-switch: ports, cables, optics).
};

/**
 * The rate at which one kind of component interrupts a synchronous training job, per unit: the
 * job's interruption rate is the sum over components of rate x units, so it grows with the job.
 */
struct FailureRateSpec : CatalogEntry
{
    std::string component; ///< What fails ("GPU HBM3 memory").
    FailureUnit per = FailureUnit::Gpu;
    double failuresPerMillionHours = 0.0; ///< Job interruptions per 10^6 unit-hours.
    /** True when recovery needs the failed node swapped out (a hot spare avoids the repair). */
    bool replacesNode = false;

    static constexpr const char* kind = "failure";
    static const FieldTable<FailureRateSpec>& fields();

    bool operator==(const FailureRateSpec&) const = default;
};

} // namespace dct::model
