#pragma once

#include "dct/solvers/evaluation.h"

namespace dct::solvers {

/** Appends the "power.*", "cooling.*", "egress.*" and "cost.*" metrics of \a evaluation. */
void addFacilityMetrics(Evaluation& evaluation);

} // namespace dct::solvers
