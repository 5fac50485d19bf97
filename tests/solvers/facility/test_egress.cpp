#include "dct/solvers/egresssolver.h"
#include "facilitysupport.h"

using namespace dct;
using namespace dct::solvers;

namespace {

model::EgressPricing pricing(const std::string& id)
{
    const auto& shelf = test::catalog().egressPricing().entries;
    const auto it = shelf.find(id);
    if (it == shelf.end())
        FAIL("no egress pricing " << id);
    return it->second;
}

} // namespace

TEST_CASE("AWS egress of 500 TB a month on the cumulative tiers matches the arithmetic by hand",
          "[egress]")
{
    const auto aws = pricing("aws");
    // Tier ends (GB) 100 / 10,240 / 51,200 / 153,600 / none at $0, 0.09, 0.085, 0.07, 0.05:
    // 10,140 x 0.09 + 40,960 x 0.085 + 102,400 x 0.07 + (500,000 - 153,600) x 0.05.
    const double byHand = 10140 * 0.09 + 40960 * 0.085 + 102400 * 0.07 + 346400 * 0.05;
    CHECK(byHand == Approx(28882.2).epsilon(1e-12));
    CHECK(tieredEgressUsd(aws, 500000.0) == Approx(byHand).epsilon(1e-12));
    CHECK(tieredEgressUsd(aws, 100.0) == Approx(0.0).margin(1e-12));
    CHECK(tieredEgressUsd(aws, 1100.0) == Approx(90.0).epsilon(1e-12));
    // The inverse finds the volume back.
    CHECK(tieredEgressBreakEvenGb(aws, byHand) == Approx(500000.0).epsilon(1e-9));
    CHECK(tieredEgressBreakEvenGb(aws, 1500.0) ==
          Approx(10240.0 + (1500.0 - 912.6) / 0.085).epsilon(1e-9));
}

TEST_CASE("Seed case: 500 TB a month on a 10G unmetered port against AWS", "[egress]")
{
    const auto r = test::resolvedExample("seed-h100-dallas-d2c");
    Diagnostics d;
    const EgressResult e = solveEgress(r, d);
    // 500e12 bytes x 8 / (730 h x 3600 s) = 1.522 Gb/s.
    CHECK(e.averageGbps == Approx(500e12 * 8 / (730.0 * 3600.0) / 1e9).epsilon(1e-12));
    CHECK(e.portGbps == 10.0);
    CHECK(e.portUtilization == Approx(e.averageGbps / 10.0).epsilon(1e-12));
    CHECK(e.portCarries);
    CHECK(e.meteredUsdPerMonth == Approx(28882.2).epsilon(1e-9));
    CHECK(e.choice == "port");
    CHECK(e.egressUsdPerMonth == Approx(r.unmeteredPort.usdPerMonth).epsilon(1e-12));
    CHECK(tieredEgressUsd(r.egressPricing, e.breakEvenTbPerMonth * 1000.0) ==
          Approx(r.unmeteredPort.usdPerMonth).epsilon(1e-9));
    // Cheapest offer that carries 1.5 Gb/s: the cheapest port of at least that rate.
    double cheapest = 1e300;
    for (const auto& p : r.portOffers)
        if (p.portGbps >= e.averageGbps)
            cheapest = std::min(cheapest, p.usdPerMonth);
    CHECK(e.cheapestPortUsdPerMonth == cheapest);
    CHECK(e.cheapestPortGbps >= e.averageGbps);
}

TEST_CASE("WAN transfer: one TCP stream is bounded by window / RTT, the sum by the port",
          "[egress][wan]")
{
    const auto r = test::resolvedExample("seed-h100-dallas-d2c", [](model::Scenario& s) {
        s.economics.wanRttMs = 90.0; // Dallas-London engineered RTT 88-91 ms (seed whitepaper)
        s.economics.tcpWindowMb = 64.0;
        s.economics.wanDatasetTb = 100.0;
    });
    Diagnostics d;
    const EgressResult e = solveEgress(r, d);
    // 64e6 bytes x 8 / 0.090 s = 5.689 Gb/s per stream, under the 10G port.
    CHECK(e.perStreamGbps == Approx(64e6 * 8 / 0.090 / 1e9).epsilon(1e-12));
    CHECK(e.singleStreamGbps == Approx(e.perStreamGbps).epsilon(1e-12));
    CHECK(e.singleStreamHours ==
          Approx(100e12 * 8 / (e.perStreamGbps * 1e9) / 3600).epsilon(1e-12));
    CHECK(e.streamsToFillPort == 2);
    CHECK(e.portLimitedHours == Approx(100e12 * 8 / 10e9 / 3600).epsilon(1e-12));
}

TEST_CASE("A port too small for the volume is flagged", "[egress]")
{
    const auto r = test::resolvedExample("seed-h100-dallas-d2c", [](model::Scenario& s) {
        s.economics.unmeteredPort.id = "port-1g";
    });
    Diagnostics d;
    const EgressResult e = solveEgress(r, d);
    CHECK_FALSE(e.portCarries);
    CHECK(e.portUtilization > 1.0);
    CHECK(e.choice == "metered");
    CHECK(d.hasCode("port-too-small"));
}

TEST_CASE("A vanishing TCP window saturates the stream count instead of overflowing it",
          "[egress][wan]")
{
    // Found by the scenariofields fuzzer: a window near 1e-300 MB made the count far beyond
    // an int, and its cast undefined behaviour (tests/fuzz/regressions/scenariofields/).
    const auto r = test::resolvedExample(
        "seed-h100-dallas-d2c", [](model::Scenario& s) { s.economics.tcpWindowMb = 1e-300; });
    Diagnostics d;
    const EgressResult e = solveEgress(r, d);
    REQUIRE(e.pathGbps > 0.0);
    CHECK(e.streamsToFillPort == 1000000000);
    CHECK(std::isfinite(e.singleStreamHours));
}
