#pragma once

#include "dct/solvers/evaluation.h"

#include <string>

namespace dct::report {

/**
 * Returns where a training step's time goes (solvers::stepBreakdown(): compute, exposed
 * communication by kind, bubble, stragglers, checkpoints, failures) as a standalone SVG bar
 * chart \a widthPx wide, each part with its share of the step; "" when the workload was not
 * evaluated.
 */
std::string stepBreakdownChartSvg(const solvers::Evaluation& evaluation, int widthPx = 640);

} // namespace dct::report
