#pragma once

#include "dct/model/diagnostics.h"
#include "dct/model/resolvedscenario.h"

namespace dct::model {

/**
 * Checks a resolved scenario for inconsistent or impossible values: parallelism that does not
 * divide the GPUs, a rack that cannot hold one node, a NIC whose protocol the fabric does not
 * speak, and the like. Range and type checks happen earlier, when the file is read.
 */
Diagnostics validateScenario(const ResolvedScenario& resolved);

} // namespace dct::model
