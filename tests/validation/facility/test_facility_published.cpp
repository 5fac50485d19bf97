// Published power, cooling and egress figures (docs/references.md, "Power and
// cooling", "Egress", "WAN"). The model computes them from its component physics and the catalog's
// sourced parameters; nothing here is fitted to the expected answer.
#include "../../solvers/facility/facilitysupport.h"
#include "dct/solvers/evaluator.h"
#include "dct/solvers/powersolver.h"

using namespace dct;
using namespace dct::solvers;

namespace {

Evaluation seedVariant(const std::string& site, const std::string& cooling)
{
    return evaluate(test::resolvedExample("seed-h100-dallas-d2c", [&](model::Scenario& s) {
        s.site.id = site;
        s.cooling.system.id = cooling;
    }));
}

} // namespace

TEST_CASE("Seed whitepaper: D2C+RDHx in Dallas has a PUE near 1.15", "[validation][cooling]")
{
    const Evaluation e = evaluate(test::resolvedExample("seed-h100-dallas-d2c"));
    REQUIRE(e.ok());
    INFO("PUE " << e.power.pue);
    CHECK(e.power.pue == Approx(1.15).margin(0.05));
}

TEST_CASE("Seed whitepaper: CRAC air cooling in Dallas has a PUE of 1.50 to 1.80",
          "[validation][cooling]")
{
    const Evaluation e = evaluate(test::resolvedExample("legacy-air-h100-dallas"));
    REQUIRE(e.ok());
    INFO("PUE " << e.power.pue);
    CHECK(e.power.pue >= 1.50);
    CHECK(e.power.pue <= 1.80);
    // The air-cooled twin says what it did with its racks: flagged dense, or spread.
    CHECK((e.diagnostics.hasCode("rack-over-capacity") ||
           e.diagnostics.hasCode("rack-layout-spread")));
}

TEST_CASE("Seed whitepaper: CRAC air PUE stays within 1.50-1.80 in hot sites, D2C within "
          "1.10-1.20 in hot sites and at most 1.20, no better than the best audited campus, in "
          "cool ones",
          "[validation][cooling]")
{
    for (const std::string site : {"dallas", "singapore"}) {
        INFO(site);
        const double air = seedVariant(site, "crac-air").power.pue;
        CHECK(air >= 1.50);
        CHECK(air <= 1.80);
        const double d2c = seedVariant(site, "d2c-rdhx").power.pue;
        CHECK(d2c >= 1.10);
        CHECK(d2c <= 1.20);
    }
    // In London and Frankfurt the economizer carries most hours and the UPS runs on its
    // measured curve (97 %), so D2C lands just under 1.10. The floor is the best audited
    // campus figure: Google's Central Ohio campuses at a trailing-twelve-month PUE of
    // 1.04-1.06 (Data Centre Magazine, February 2026, p. 46, "Top 10 sustainable data centres").
    for (const std::string site : {"london", "frankfurt"}) {
        INFO(site);
        const double d2c = seedVariant(site, "d2c-rdhx").power.pue;
        CHECK(d2c >= 1.04);
        CHECK(d2c <= 1.20);
    }
}

TEST_CASE("Seed whitepaper and NVIDIA: an 8-GPU H100 chassis pulls up to about 10 kW",
          "[validation][power]")
{
    // At full utilization and clocks a DGX H100 stays within its 10.2 kW nameplate
    // (NVIDIA DGX H100 datasheet); eight 700 W GPUs alone are 5.6 kW of it.
    const auto r = test::resolvedExample("seed-h100-dallas-d2c", [](model::Scenario& s) {
        s.compute.node.id = "dgx-h100";
        s.compute.utilization = 1.0;
    });
    Diagnostics d;
    const PowerResult p = solvePower(r, {}, d);
    CHECK(p.gpuPowerW == Approx(700.0).epsilon(1e-12));
    CHECK(p.nodePowerKw <= 10.2);
    CHECK(p.nodePowerKw >= 8.0);
}

// Held out: Latif, Newkirk, Carbone, Munir, Lin, Koomey, Yu and Dong, "Single-Node Power Demand
// During AI Training: Measurements on an 8-GPU NVIDIA H100 System" (IEEE Access 13, 2025;
// arXiv 2412.08602): an HGX H100 8-GPU node training Llama2-13b and ResNet, and under gpu-burn,
// drew at most 8.48 kW, 18% below its 10.2 kW rating, with the GPUs near full utilization.
// Newkirk et al., "Empirically-Calibrated H100 Node Power Models" (arXiv 2506.14551, 2025), on
// the same nodes: compute-intensive training draws on average 76% of the 10.2 kW (7.75 kW). The
// catalog's host power is a bottom-up sum (CPUs, memory, NVSwitches, NICs, fans, power-supply
// losses: data/catalog/nodes.json), set before these measurements were read.
TEST_CASE("Latif et al.: an HGX H100 node at full load draws 8.48 kW, 18% under its rating, "
          "and Newkirk et al. 76% of it on average in training",
          "[validation][power]")
{
    auto nodePower = [](const char* node, double utilization) {
        const auto r = test::resolvedExample("seed-h100-dallas-d2c", [&](model::Scenario& s) {
            s.compute.node.id = node;
            s.compute.utilization = utilization;
        });
        Diagnostics d;
        return solvePower(r, {}, d).nodePowerKw;
    };
    constexpr double measuredMaxKw = 8.48;
    constexpr double ratedKw = 10.2;
    for (const char* node : {"hgx-h100", "dgx-h100"}) {
        const double full = nodePower(node, 1.0);
        WARN(node << " at full load: " << full << " kW against " << measuredMaxKw
                  << " kW measured (" << (full / measuredMaxKw - 1.0) * 100.0 << "%), "
                  << (1.0 - full / ratedKw) * 100.0 << "% under the 10.2 kW rating");
        CHECK(full == Approx(measuredMaxKw).epsilon(0.03));
        CHECK(1.0 - full / ratedKw >= 0.15);
    }
    // The examples' utilization (0.85: the GPUs' average draw between idle and the TDP) puts the
    // node at the average Newkirk et al. measured in compute-intensive training.
    const double average = nodePower("hgx-h100", 0.85);
    WARN("hgx-h100 at utilization 0.85: " << average << " kW against " << 0.76 * ratedKw
                                          << " kW measured");
    CHECK(average == Approx(0.76 * ratedKw).epsilon(0.03));
}

TEST_CASE("Seed whitepaper: air cooling struggles past 15 kW a rack, D2C+RDHx holds 50 kW+",
          "[validation][cooling]")
{
    // Five H100 nodes in a 50 kW rack: about 38 kW. Air flags it; D2C+RDHx carries it.
    auto fiveNodes = [](const std::string& cooling) {
        return evaluate(test::resolvedExample("seed-h100-dallas-d2c", [&](model::Scenario& s) {
            s.cooling.system.id = cooling;
            s.facility.rackPowerLimitKw = 50.0;
        }));
    };
    const Evaluation air = fiveNodes("crac-air");
    const Evaluation d2c = fiveNodes("d2c-rdhx");
    CHECK(air.power.rackDesignPowerKw > 15.0);
    CHECK(air.diagnostics.hasCode("rack-over-capacity"));
    // Recirculation lifts the inlet past the ASHRAE TC9.9 recommended 27 C.
    CHECK(air.cooling.inletTempC > 27.0);
    CHECK_FALSE(d2c.diagnostics.hasCode("rack-over-capacity"));
    CHECK(d2c.cooling.rackCapacityKw >= 50.0);
    CHECK(d2c.cooling.inletTempC <= 27.0);
}

TEST_CASE("Seed whitepaper: 500 TB a month costs $0.05-0.09 a GB metered, far above a port",
          "[validation][egress]")
{
    const Evaluation e = evaluate(test::resolvedExample("seed-h100-dallas-d2c"));
    CHECK(e.egress.meteredUsdPerGb >= 0.05);
    CHECK(e.egress.meteredUsdPerGb <= 0.09);
    CHECK(e.egress.portCarries);
    CHECK(e.egress.portUsdPerMonth < e.egress.meteredUsdPerMonth);
}

TEST_CASE("Uptime Institute survey: a legacy raised-floor CRAC hall has a PUE of 1.5-1.8 in every "
          "bundled climate",
          "[validation][cooling][siteyear]")
{
    // Uptime Institute Global Data Center Survey: average annual PUE 1.67 (2019) and 1.58 (2023)
    // over all respondents, legacy halls at or above it; the seed whitepaper gives 1.50-1.80 for
    // CRAC air cooling (references/published.md). The model gets there from its mechanisms:
    // bypass air (fans move the servers' flow over 1 - bypass), compressors all year (no
    // economizer on a pre-90.1-2010 hall), air-cooled condensers at the hour's dry bulb.
    for (const auto& [id, site] : test::catalog().sites().entries) {
        INFO(id);
        const Evaluation e = evaluate(test::resolvedExample(
            "legacy-air-h100-dallas", [&](model::Scenario& s) { s.site.id = id; }));
        REQUIRE(e.ok());
        INFO("PUE " << e.power.pue << ", fans " << e.cooling.fanKw << " kW, chillers "
                    << e.cooling.chillerKw << " kW of " << e.power.itPowerKw << " kW IT");
        CHECK(e.power.pue >= 1.50);
        CHECK(e.power.pue <= 1.80);
        // No free-cooling path: the compressors run every hour.
        CHECK(e.cooling.fullFreeCoolingHours == 0.0);
        CHECK(e.cooling.chillerHours == Approx(8760.0));
    }
}
