#pragma once

#include "dct/model/diagnostics.h"
#include "dct/model/resolvedscenario.h"
#include "dct/solvers/computeresult.h"
#include "dct/solvers/costresult.h"
#include "dct/solvers/egressresult.h"
#include "dct/solvers/powerresult.h"

namespace dct::solvers {

/** What the cost solver takes from the solvers upstream of it. */
struct CostInputs
{
    double networkCapexUsd = 0.0; ///< Switches, NICs, cables and optics; the evaluator fills it.
    /** True: the figures below come from the grid solver (hourly tariff and carbon); false: the
     *  site's flat price and annual carbon intensity apply to the annual energy. */
    bool hasGrid = false;
    double electricityUsdPerYear = 0.0; ///< Energy and demand charges over the year.
    double averagePriceUsdPerKwh = 0.0; ///< Electricity cost over facility energy.
    double carbonTonnesPerYear = 0.0;
    double redundancyCapexUsd = 0.0; ///< Redundant plant units beyond N (redundancy.h).
};

/** Computes capex, opex, TCO per year, cost per GPU-hour and the cost of the training run. */
CostResult solveCost(const model::ResolvedScenario& scenario, const PowerResult& power,
                     const EgressResult& egress, const ComputeResult& compute,
                     const CostInputs& inputs, Diagnostics& diagnostics);

} // namespace dct::solvers
