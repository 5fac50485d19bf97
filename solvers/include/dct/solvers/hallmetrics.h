#pragma once

#include "dct/solvers/evaluation.h"

namespace dct::solvers {

/** Adds the "hall.*" metrics of \a evaluation's floor plan and cable runs. */
void addHallMetrics(Evaluation& evaluation);

} // namespace dct::solvers
