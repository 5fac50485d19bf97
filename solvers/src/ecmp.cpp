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
    // by its recurrence P(x+1) = P(x) (n-x)/(x+1) p/(1-p) from P(0) = (1-p)^n: two calls into
    // libm in all, not two log-gammas and an exponential per term. P(0) comes from logs, so a
    // large n underflows to 0 (X below q is then that unlikely), never to NaN.
    if (uplinks == 1)
        return 1.0; // every sub-flow on the one uplink: X = n >= q, each flow at full rate
    double belowQ = 0.0;
    double massBelowQ = 0.0;
    const double nReal = static_cast<double>(n);
    const double ratio = p / (1.0 - p);
    double pmf = std::exp(nReal * std::log1p(-p));
    for (long long x = 0; x < q && x <= n; ++x) {
        const double xReal = static_cast<double>(x);
        belowQ += pmf * xReal / q;
        massBelowQ += pmf;
        pmf *= (nReal - xReal) / (xReal + 1.0) * ratio;
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
