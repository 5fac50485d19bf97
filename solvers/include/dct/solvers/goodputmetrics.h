#pragma once

#include "dct/solvers/evaluation.h"

namespace dct::solvers {

/** Appends the "reliability.*" metrics of \a evaluation (failures, checkpoints, goodput). */
void addReliabilityMetrics(Evaluation& evaluation);

} // namespace dct::solvers
