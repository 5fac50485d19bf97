#pragma once

#include "dct/solvers/evaluation.h"

namespace dct::solvers {

/**
 * Turns every metric of \a evaluation that is not a finite number (NaN or infinite) into an
 * error diagnostic at the first JSON pointer of its inputs, naming all of them, so that no
 * evaluation holding such a figure is "ok". Metrics with the same inputs share one diagnostic.
 * Returns the number of such metrics. Allocates nothing when every metric is finite: the
 * document evaluation and the sweep runner call it after every evaluation.
 */
std::size_t checkFiniteMetrics(Evaluation& evaluation);

} // namespace dct::solvers
