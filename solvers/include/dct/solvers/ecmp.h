#pragma once

#include "dct/model/enums.h"

#include <cstdint>

namespace dct::solvers {

/**
 * Returns the expected number of distinct uplinks that \a flows flows hashed uniformly onto
 * \a uplinks uplinks occupy: m (1 - (1 - 1/m)^f) (balls in bins).
 */
double expectedDistinctUplinks(int uplinks, int flows);

/**
 * Returns the share of the wanted uplink throughput that static ECMP hashing delivers when
 * \a flows unit-rate elephant flows, each split into \a subflowsPerFlow equal sub-flows (queue
 * pairs or rails), hash onto \a uplinks unit-capacity uplinks: m E[min(X/q, 1)] / min(f, m),
 * X ~ Binomial(f q, 1/m), computed exactly. With q = 1 it is expectedDistinctUplinks / min(f, m).
 */
double ecmpThroughputShare(int uplinks, int flows, int subflowsPerFlow = 1);

/** What a seeded Monte Carlo of ECMP hashing found. */
struct EcmpMonteCarlo
{
    int trials = 0;
    double distinctUplinks = 0.0;  ///< Mean distinct uplinks used (q = 1 flows).
    double throughputShare = 0.0;  ///< Mean delivered over wanted throughput.
    double slowestFlowShare = 0.0; ///< Mean rate of the slowest flow over its fair rate.
};

/**
 * Hashes \a flows flows (each split into \a subflowsPerFlow sub-flows) onto \a uplinks uplinks
 * \a trials times with std::mt19937_64 seeded by \a seed.
 */
EcmpMonteCarlo ecmpMonteCarlo(int uplinks, int flows, int subflowsPerFlow = 1, int trials = 20000,
                              std::uint64_t seed = 0x5eedULL);

/**
 * Returns the uplink share a routing scheme delivers to \a flows flows over \a uplinks: ECMP by
 * ecmpThroughputShare(), StaticPinned 1 (flows never share), Adaptive \a adaptiveEfficiency.
 */
double routingShare(model::Routing routing, int uplinks, int flows, int subflowsPerFlow = 1,
                    double adaptiveEfficiency = 0.95);

} // namespace dct::solvers
