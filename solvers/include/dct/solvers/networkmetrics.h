#pragma once

#include "dct/solvers/evaluation.h"

namespace dct::solvers {

/** Adds the "network.*" and "collectives.*" metrics of \a evaluation's network result. */
void addNetworkMetrics(Evaluation& evaluation);

} // namespace dct::solvers
