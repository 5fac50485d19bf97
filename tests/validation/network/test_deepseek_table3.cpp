// DeepSeek-V3 hardware paper (Zhao et al., "Insights into DeepSeek-V3", ISCA 2025,
// arXiv 2505.09343), Table 3: FT2, MPFT and FT3 of 64-port 400G InfiniBand switches.

#include "dct/solvers/fabricbuilder.h"
#include "dct/solvers/fabricgraph.h"

#include <catch2/catch.hpp>
#include <cmath>

using namespace dct;
using namespace dct::solvers;
using model::TopologyKind;

namespace {

FabricSpec ft2()
{
    FabricSpec s;
    s.kind = TopologyKind::FatTree;
    s.nodes = 2048; // one NIC each: the endpoints of the table
    s.railsPerNode = 1;
    s.switchPorts = 64;
    return s;
}

FabricSpec mpft()
{
    FabricSpec s;
    s.kind = TopologyKind::MultiPlane;
    s.nodes = 2048; // 2048 nodes x 8 GPU-NIC pairs, pair i on plane i
    s.railsPerNode = 8;
    s.planes = 8;
    s.switchPorts = 64;
    return s;
}

FabricSpec ft3()
{
    FabricSpec s;
    s.kind = TopologyKind::FatTree;
    s.nodes = 65536;
    s.railsPerNode = 1;
    s.switchPorts = 64;
    return s;
}

TopologyResult counts(const FabricSpec& spec)
{
    Diagnostics d;
    const FabricPlan plan = planFabric(spec, d);
    REQUIRE(plan.valid);
    REQUIRE_FALSE(d.hasErrors());
    return topologyCounts(plan);
}

/**
 * The per-switch and per-link prices behind Table 3's costs (derived from DeepSeek-V3 Table 3):
 * solved from the FT2 and FT3 cost rows with the switch and link counts the model computes,
 * switches x s + links x l = cost.
 */
struct UnitPrices
{
    double switchUsd;
    double linkUsd;
};

UnitPrices derivedPrices()
{
    const TopologyResult a = counts(ft2());
    const TopologyResult b = counts(ft3());
    const double costA = 9.0e6;   // FT2, Table 3
    const double costB = 491.0e6; // FT3, Table 3
    const double det = static_cast<double>(a.switches) * static_cast<double>(b.switchLinks) -
                       static_cast<double>(b.switches) * static_cast<double>(a.switchLinks);
    const double s =
        (costA * static_cast<double>(b.switchLinks) - costB * static_cast<double>(a.switchLinks)) /
        det;
    const double l =
        (static_cast<double>(a.switches) * costB - static_cast<double>(b.switches) * costA) / det;
    return {s, l};
}

double cost(const TopologyResult& t, const UnitPrices& p)
{
    return static_cast<double>(t.switches) * p.switchUsd +
           static_cast<double>(t.switchLinks) * p.linkUsd;
}

/** Rounds \a value to \a decimals as the table prints it. */
double printed(double value, int decimals)
{
    const double scale = std::pow(10.0, decimals);
    return std::round(value * scale) / scale;
}

} // namespace

TEST_CASE("DeepSeek-V3 Table 3: endpoints, switches and links of FT2, MPFT and FT3",
          "[validation][network][deepseek]")
{
    const TopologyResult a = counts(ft2());
    CHECK(a.endpoints == 2048);
    CHECK(a.switches == 96);
    CHECK(a.switchLinks == 2048);
    CHECK(a.tiers == 2);

    const TopologyResult m = counts(mpft());
    CHECK(m.planes == 8);
    CHECK(m.endpoints == 16384);
    CHECK(m.switches == 768);
    CHECK(m.switchLinks == 16384);

    const TopologyResult c = counts(ft3());
    CHECK(c.endpoints == 65536);
    CHECK(c.switches == 5120);
    CHECK(c.switchLinks == 131072);
    CHECK(c.tiers == 3);
}

TEST_CASE("DeepSeek-V3 Table 3: costs follow from one switch and one link price",
          "[validation][network][deepseek]")
{
    const UnitPrices p = derivedPrices();
    // 96 s + 2048 l = 9 M$ and 5120 s + 131072 l = 491 M$ give s = 83,008 USD, l = 503.5 USD.
    CHECK(p.switchUsd == Approx(85.0e6 / 1024.0).epsilon(1e-9));
    CHECK(p.linkUsd == Approx(1031250.0 / 2048.0).epsilon(1e-9));

    const TopologyResult a = counts(ft2());
    const TopologyResult m = counts(mpft());
    const TopologyResult c = counts(ft3());
    // Cost (M$), printed to whole millions.
    CHECK(printed(cost(a, p) / 1e6, 0) == 9.0);
    CHECK(printed(cost(m, p) / 1e6, 0) == 72.0);
    CHECK(printed(cost(c, p) / 1e6, 0) == 491.0);
    // Cost per endpoint (k$): 4.39, 4.39 and 7.5 as printed.
    CHECK(printed(cost(a, p) / static_cast<double>(a.endpoints) / 1e3, 2) ==
          Approx(4.39).epsilon(1e-12));
    CHECK(printed(cost(m, p) / static_cast<double>(m.endpoints) / 1e3, 2) ==
          Approx(4.39).epsilon(1e-12));
    CHECK(printed(cost(c, p) / static_cast<double>(c.endpoints) / 1e3, 1) ==
          Approx(7.5).epsilon(1e-12));
}

TEST_CASE("DeepSeek-V3 Table 3: FT2 and MPFT closed forms equal the explicit graph",
          "[validation][network][deepseek]")
{
    for (const FabricSpec& spec : {ft2(), mpft()}) {
        Diagnostics d;
        const FabricPlan plan = planFabric(spec, d);
        const TopologyResult closed = topologyCounts(plan);
        const FabricGraph g = buildFabricGraph(plan);
        const TopologyResult graph = graphCounts(g);
        CHECK(graph.switches == closed.switches);
        CHECK(graph.switchLinks == closed.switchLinks);
        CHECK(graph.endpoints == closed.endpoints);
        // Both are non-blocking: bisection is half the endpoints at 400 Gbps.
        CHECK(bisectionGbps(g) ==
              Approx(static_cast<double>(closed.endpoints / 2) * 400.0).epsilon(1e-12));
    }
}
