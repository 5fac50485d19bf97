#pragma once

#include "dct/model/resolvedscenario.h"
#include "dct/solvers/coolingresult.h"
#include "dct/solvers/gridresult.h"
#include "dct/solvers/powerresult.h"

namespace dct::solvers {

/**
 * Computes the grid figures hour by hour of the site's year in \a cooling: carbon at the hour's
 * intensity (the site's annual mean shaped by its month and hour factors), energy at the hour's
 * time-of-use price, each month's peak demand at the demand rate, and the contract demand.
 */
GridResult solveGrid(const model::ResolvedScenario& scenario, const PowerResult& power,
                     const CoolingResult& cooling);

} // namespace dct::solvers
