#pragma once

#include "dct/model/diagnostics.h"
#include "dct/model/egresspricing.h"
#include "dct/model/resolvedscenario.h"
#include "dct/solvers/egressresult.h"

namespace dct::solvers {

/** Returns the monthly bill in USD for \a gb on the cumulative tiers of \a pricing. */
double tieredEgressUsd(const model::EgressPricing& pricing, double gb);

/** Returns the monthly volume in GB whose bill on \a pricing equals \a usd (inverse of
 *  tieredEgressUsd()); a negative number when no volume reaches it. */
double tieredEgressBreakEvenGb(const model::EgressPricing& pricing, double usd);

/** Returns the average rate in Gb/s of \a tbPerMonth (1 TB = 1e12 bytes, a month = 730 h). */
double averageGbpsOfMonthlyTb(double tbPerMonth);

/** Computes metered against unmetered egress, the cheapest carrying port and WAN transfer time. */
EgressResult solveEgress(const model::ResolvedScenario& scenario, Diagnostics& diagnostics);

} // namespace dct::solvers
