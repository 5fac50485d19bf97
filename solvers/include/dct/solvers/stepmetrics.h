#pragma once

#include "dct/solvers/evaluation.h"

namespace dct::solvers {

/** Adds the "step.*" metrics of \a evaluation's predicted training step, when there is one. */
void addStepMetrics(Evaluation& evaluation);

} // namespace dct::solvers
