#include "dct/solvers/ecmp.h"

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

namespace dct::solvers {

double expectedDistinctUplinks(int uplinks, int flows)
{
    if (uplinks <= 0 || flows <= 0)
        return 0.0;
    const double m = uplinks;
    // Each uplink stays empty with probability (1 - 1/m)^f (balls in bins).
    return m * (1.0 - std::pow(1.0 - 1.0 / m, flows));
}

double ecmpThroughputShare(int uplinks, int flows, int subflowsPerFlow)
{
    if (uplinks <= 0 || flows <= 0)
        return 1.0;
    const int q = std::max(1, subflowsPerFlow);
    const long long n = static_cast<long long>(flows) * q;
    const double p = 1.0 / uplinks;
    // E[min(X/q, 1)] for X ~ Binomial(n, p): sum the pmf below q, the rest delivers 1. The pmf
    // is built in logs so large n stays finite.
    double belowQ = 0.0;
    double massBelowQ = 0.0;
    // The terms that do not depend on x, computed once (the same values every iteration).
    const double nReal = static_cast<double>(n);
    const double logNFactorial = std::lgamma(nReal + 1.0);
    const double logP = std::log(p);
    const double logQ = std::log1p(-p);
    for (long long x = 0; x < q && x <= n; ++x) {
        const double xReal = static_cast<double>(x);
        const double logPmf = logNFactorial - std::lgamma(xReal + 1.0) -
                              std::lgamma(nReal - xReal + 1.0) + xReal * logP +
                              (nReal - xReal) * logQ;
        const double pmf = std::exp(logPmf);
        belowQ += pmf * static_cast<double>(x) / q;
        massBelowQ += pmf;
    }
    const double perLink = belowQ + (1.0 - massBelowQ);
    return uplinks * perLink / std::min(flows, uplinks);
}

EcmpMonteCarlo ecmpMonteCarlo(int uplinks, int flows, int subflowsPerFlow, int trials,
                              std::uint64_t seed)
{
    EcmpMonteCarlo mc;
    if (uplinks <= 0 || flows <= 0 || trials <= 0)
        return mc;
    const int q = std::max(1, subflowsPerFlow);
    std::mt19937_64 rng(seed);
    std::uniform_int_distribution<int> hash(0, uplinks - 1);
    std::vector<int> load(static_cast<std::size_t>(uplinks));
    const double wanted = std::min(flows, uplinks);
    const double fairRate = std::min(1.0, static_cast<double>(uplinks) / flows);
    for (int t = 0; t < trials; ++t) {
        std::fill(load.begin(), load.end(), 0);
        for (long long s = 0; s < static_cast<long long>(flows) * q; ++s)
            ++load[static_cast<std::size_t>(hash(rng))];
        int distinct = 0;
        int maxLoad = 0;
        double delivered = 0.0;
        for (int l : load) {
            distinct += l > 0 ? 1 : 0;
            maxLoad = std::max(maxLoad, l);
            delivered += std::min(static_cast<double>(l) / q, 1.0);
        }
        mc.distinctUplinks += distinct;
        mc.throughputShare += delivered / wanted;
        // Max-min fair sharing: a sub-flow on the busiest uplink gets 1 / maxLoad of it.
        mc.slowestFlowShare += std::min(1.0, static_cast<double>(q) / maxLoad) / fairRate;
    }
    mc.trials = trials;
    mc.distinctUplinks /= trials;
    mc.throughputShare /= trials;
    mc.slowestFlowShare = std::min(1.0, mc.slowestFlowShare / trials);
    return mc;
}

double routingShare(model::Routing routing, int uplinks, int flows, int subflowsPerFlow,
                    double adaptiveEfficiency)
{
    switch (routing) {
    case model::Routing::Ecmp:
        return ecmpThroughputShare(uplinks, flows, subflowsPerFlow);
    case model::Routing::StaticPinned:
        return 1.0;
    case model::Routing::Adaptive:
        return adaptiveEfficiency;
    }
    return 1.0;
}

} // namespace dct::solvers
