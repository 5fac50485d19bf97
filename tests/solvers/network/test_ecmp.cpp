#include "dct/solvers/ecmp.h"

#include <catch2/catch.hpp>
#include <cmath>

using namespace dct::solvers;

TEST_CASE("Expected distinct uplinks is m(1-(1-1/m)^f)", "[network][ecmp]")
{
    CHECK(expectedDistinctUplinks(32, 1) == Approx(1.0).epsilon(1e-12));
    CHECK(expectedDistinctUplinks(32, 32) ==
          Approx(32.0 * (1.0 - std::pow(31.0 / 32.0, 32))).epsilon(1e-12));
    // Many flows on many uplinks: about 1 - 1/e of the uplinks carry traffic.
    CHECK(expectedDistinctUplinks(10000, 10000) / 10000.0 ==
          Approx(1.0 - std::exp(-1.0)).epsilon(1e-4));
    CHECK(ecmpThroughputShare(32, 32, 1) ==
          Approx(expectedDistinctUplinks(32, 32) / 32.0).epsilon(1e-12));
}

TEST_CASE("Closed form and seeded Monte Carlo of ECMP hashing agree", "[network][ecmp]")
{
    for (int m : {4, 16, 32, 64})
        for (int f : {1, 4, 16, 32, 64})
            for (int q : {1, 4}) {
                const EcmpMonteCarlo mc = ecmpMonteCarlo(m, f, q, 20000, 42);
                INFO("m " << m << " f " << f << " q " << q);
                if (q == 1)
                    CHECK(mc.distinctUplinks ==
                          Approx(expectedDistinctUplinks(m, f)).epsilon(0.01));
                CHECK(mc.throughputShare == Approx(ecmpThroughputShare(m, f, q)).epsilon(0.01));
            }
    // The same seed gives the same answer.
    CHECK(ecmpMonteCarlo(32, 32, 1, 1000, 7).throughputShare ==
          ecmpMonteCarlo(32, 32, 1, 1000, 7).throughputShare);
}

TEST_CASE("Multi-rail splitting, pinning and adaptive routing recover ECMP losses",
          "[network][ecmp]")
{
    const double ecmp = routingShare(dct::model::Routing::Ecmp, 32, 32, 1);
    const double multiRail = routingShare(dct::model::Routing::Ecmp, 32, 32, 8);
    const double pinned = routingShare(dct::model::Routing::StaticPinned, 32, 32, 1);
    const double adaptive = routingShare(dct::model::Routing::Adaptive, 32, 32, 1);
    CHECK(ecmp == Approx(0.6376).epsilon(1e-3));
    CHECK(multiRail > ecmp + 0.15);
    CHECK(pinned == 1.0);
    CHECK(adaptive > multiRail);
    // The slowest flow suffers more than the aggregate.
    const EcmpMonteCarlo mc = ecmpMonteCarlo(32, 32, 1, 5000, 1);
    CHECK(mc.slowestFlowShare < mc.throughputShare);
}
