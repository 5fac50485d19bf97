#pragma once

#include "dct/solvers/evaluation.h"

namespace dct::solvers {

/** Appends the "redundancy.*" metrics of \a evaluation (docs/redundancy.md). */
void addRedundancyMetrics(Evaluation& evaluation);

} // namespace dct::solvers
