// What a reused Evaluation keeps between evaluations (EvaluationMemo, evaluator.cpp): the fabric
// part of the network solve and the facility part (thermal loop, power, cooling over the year,
// grid, redundancy, cooling options). Each test evaluates a base scenario into a reused
// Evaluation, then a variant that changes one input of one kind, and requires exactly the
// figures and diagnostics of a fresh evaluation of the variant, bit for bit.

#include "dct/model/resolver.h"
#include "dct/model/scenarioio.h"
#include "dct/solvers/evaluator.h"
#include "dct/solvers/networksolver.h"
#include "testsupport.h"

#include <catch2/catch.hpp>
#include <cstring>
#include <functional>
#include <string>

using namespace dct;
using namespace dct::model;
using namespace dct::solvers;

namespace {

ResolvedScenario resolvedExample(const std::string& name)
{
    const auto file = test::dataDir() / "examples" / name;
    auto read = readScenarioFile(file);
    REQUIRE(read.scenario);
    auto r = resolveScenario(*read.scenario, test::catalog(), file.string());
    REQUIRE(r.resolved);
    return *r.resolved;
}

bool sameBits(double a, double b)
{
    return std::memcmp(&a, &b, sizeof(double)) == 0;
}

/** Requires \a reused to hold what \a fresh holds: every metric (bit for bit), every diagnostic,
 *  and the hall and network figures the floor plan, the report and the CLI read. */
void requireSame(const Evaluation& reused, const Evaluation& fresh)
{
    REQUIRE(reused.metrics.size() == fresh.metrics.size());
    for (std::size_t i = 0; i < fresh.metrics.size(); ++i) {
        INFO(fresh.metrics[i].key);
        CHECK(reused.metrics[i].key == fresh.metrics[i].key);
        CHECK(reused.metrics[i].label == fresh.metrics[i].label);
        CHECK(sameBits(reused.metrics[i].value, fresh.metrics[i].value));
    }
    REQUIRE(reused.diagnostics.size() == fresh.diagnostics.size());
    auto d = fresh.diagnostics.begin();
    for (const auto& item : reused.diagnostics)
        CHECK(item.toString() == (d++)->toString());
    CHECK(reused.coupling.iterations == fresh.coupling.iterations);
    CHECK(sameBits(reused.coupling.residual, fresh.coupling.residual));
    CHECK(sameBits(reused.power.clockFactor, fresh.power.clockFactor));
    CHECK(sameBits(reused.power.facilityPowerKw, fresh.power.facilityPowerKw));
    REQUIRE(reused.power.hourlyFacilityKw.size() == fresh.power.hourlyFacilityKw.size());
    for (Eigen::Index i = 0; i < fresh.power.hourlyFacilityKw.size(); ++i)
        CHECK(sameBits(reused.power.hourlyFacilityKw[i], fresh.power.hourlyFacilityKw[i]));
    REQUIRE(reused.coolingOptions.size() == fresh.coolingOptions.size());
    const HallResult& a = reused.network.hall;
    const HallResult& b = fresh.network.hall;
    REQUIRE(a.racks.size() == b.racks.size());
    for (std::size_t i = 0; i < b.racks.size(); ++i) {
        CHECK(a.racks[i].name == b.racks[i].name);
        CHECK(sameBits(a.racks[i].nameplateKw, b.racks[i].nameplateKw));
        CHECK(sameBits(a.racks[i].designKw, b.racks[i].designKw));
    }
    REQUIRE(a.rows.size() == b.rows.size());
    for (std::size_t i = 0; i < b.rows.size(); ++i)
        CHECK(sameBits(a.rows[i].designKw, b.rows[i].designKw));
    CHECK(a.bundles.size() == b.bundles.size());
    CHECK(a.bill.size() == b.bill.size());
    REQUIRE(reused.network.collectives.size() == fresh.network.collectives.size());
    for (std::size_t i = 0; i < fresh.network.collectives.size(); ++i)
        CHECK(
            sameBits(reused.network.collectives[i].seconds, fresh.network.collectives[i].seconds));
    CHECK(sameBits(reused.network.gradientAllReduce.seconds,
                   fresh.network.gradientAllReduce.seconds));
}

/** Returns whether two evaluations differ in some metric or diagnostic. */
bool differ(const Evaluation& a, const Evaluation& b)
{
    if (a.metrics.size() != b.metrics.size() || a.diagnostics.size() != b.diagnostics.size())
        return true;
    for (std::size_t i = 0; i < a.metrics.size(); ++i)
        if (!sameBits(a.metrics[i].value, b.metrics[i].value))
            return true;
    auto d = b.diagnostics.begin();
    for (const auto& item : a.diagnostics)
        if (item.toString() != (d++)->toString())
            return true;
    return false;
}

struct Change
{
    const char* what;
    std::function<void(ResolvedScenario&)> apply;
};

/** Evaluates \a base, then each change of it, into one reused Evaluation; each must give the
 *  fresh evaluation's figures, and each must move some figure (else it tests nothing). */
void checkChanges(const ResolvedScenario& base, const std::vector<Change>& changes)
{
    const Evaluation baseFresh = evaluate(base);
    REQUIRE(baseFresh.ok());
    Evaluation reused;
    for (const Change& change : changes) {
        INFO(change.what);
        ResolvedScenario variant = base;
        change.apply(variant);
        // The base first: the memo then holds the base's inputs, the variant changes one.
        evaluate(base, reused);
        requireSame(reused, baseFresh);
        evaluate(variant, reused);
        const Evaluation fresh = evaluate(variant);
        CHECK(differ(fresh, baseFresh));
        requireSame(reused, fresh);
        // And again: a variant kept from itself.
        evaluate(variant, reused);
        requireSame(reused, fresh);
    }
}

} // namespace

TEST_CASE("A reused Evaluation solves the fabric again when an input of it changes",
          "[evaluator][memo]")
{
    const ResolvedScenario base = resolvedExample("multiplane-16k-h100.json");
    checkChanges(
        base,
        {
            {"compute section: node count",
             [](ResolvedScenario& r) { r.scenario.compute.nodeCount -= 16; }},
            {"compute section: utilization (the hall's rack power)",
             [](ResolvedScenario& r) { r.scenario.compute.utilization = 0.6; }},
            {"network section: MTU",
             [](ResolvedScenario& r) { r.scenario.network.mtuBytes = 1024; }},
            {"network section: a risk flag (a diagnostic only)",
             [](ResolvedScenario& r) { r.scenario.network.managementSeparated = false; }},
            {"storage section: power",
             [](ResolvedScenario& r) { r.scenario.storage.powerKw += 100.0; }},
            {"facility section: rack power limit",
             [](ResolvedScenario& r) { r.scenario.facility.rackPowerLimitKw /= 2.0; }},
            {"hall section: racks per row",
             [](ResolvedScenario& r) { r.scenario.hall.racksPerRow = 12; }},
            {"hall section: slack",
             [](ResolvedScenario& r) { r.scenario.hall.slackFraction = 0.3; }},
            {"GPU entry: TDP", [](ResolvedScenario& r) { r.gpu.tdpW += 50.0; }},
            {"node entry: base power", [](ResolvedScenario& r) { r.node.basePowerKw += 1.0; }},
            {"NIC entry: latency", [](ResolvedScenario& r) { r.nic.latencyUs += 0.5; }},
            {"switch entry: power", [](ResolvedScenario& r) { r.fabricSwitch.powerW += 200.0; }},
            {"cooling system entry: rack capacity",
             [](ResolvedScenario& r) { r.cooling.maxRackKw = 20.0; }},
            {"catalog cables: every price",
             [](ResolvedScenario& r) {
                 for (CableSpec& c : r.cables)
                     c.priceUsd *= 1.5;
             }},
            {"derived: rails", [](ResolvedScenario& r) { r.rails /= 2; }},
            {"calibration profile factors",
             [](ResolvedScenario& r) { r.collectiveCalibration.fabricBandwidthFactor = 0.8; }},
            {"calibration profile timing: NCCL 2.9.9's picks",
             [](ResolvedScenario& r) {
                 r.collectiveTiming = {CalibrationTiming::Choice::NcclRelease, 2, 9, 9};
             }},
        });
}

TEST_CASE("A reused Evaluation solves the facility again when an input of it changes",
          "[evaluator][memo]")
{
    const ResolvedScenario base = resolvedExample("multiplane-16k-h100.json");
    checkChanges(
        base,
        {
            {"site: electricity price",
             [](ResolvedScenario& r) { r.site.electricityPriceUsdPerKwh += 0.05; }},
            {"site: carbon intensity", [](ResolvedScenario& r) { r.site.carbonKgPerKwh += 0.1; }},
            {"site: elevation", [](ResolvedScenario& r) { r.site.elevationM += 1500.0; }},
            {"cooling options: every fan power",
             [](ResolvedScenario& r) {
                 for (CoolingSystemSpec& c : r.coolingOptions)
                     c.fanPowerWPerKw *= 2.0;
             }},
            {"plant units: every price",
             [](ResolvedScenario& r) {
                 for (PlantUnitSpec& u : r.plantUnits)
                     u.usdPerKw *= 2.0;
             }},
            {"cooling section's system entry: chiller COP",
             [](ResolvedScenario& r) { r.cooling.chillerCopRated -= 1.0; }},
        });
}

TEST_CASE("A reused Evaluation keeps nothing of a scenario over options that changed",
          "[evaluator][memo]")
{
    const ResolvedScenario r = resolvedExample("gb200-nvl72-liquid.json");
    EvaluateOptions loose;
    loose.tolerance = 1e-2;
    EvaluateOptions one;
    one.maxIterations = 1;
    Evaluation reused;
    for (const EvaluateOptions* o : {&loose, &one}) {
        evaluate(r, reused);
        evaluate(r, reused, *o);
        requireSame(reused, evaluate(r, *o));
    }
}

TEST_CASE("A sweep over the workload keeps the fabric and the facility and gives fresh figures",
          "[evaluator][memo]")
{
    ResolvedScenario r = resolvedExample("multiplane-16k-h100.json");
    Evaluation reused;
    for (double tokens : {1000.0, 2000.0, 15000.0}) {
        for (int tp : {4, 8}) {
            INFO(tokens << " billion tokens, TP " << tp);
            r.scenario.workload.tokensBillion = tokens;
            r.scenario.workload.tensorParallel = tp;
            r.dataParallel =
                r.gpuCount() / (tp * std::max(1, r.scenario.workload.pipelineParallel) *
                                std::max(1, r.scenario.workload.contextParallel));
            evaluate(r, reused);
            requireSame(reused, evaluate(r));
        }
    }
    // A copy keeps the figures but not the memo: reused again it solves everything and agrees.
    Evaluation copy = reused;
    ResolvedScenario other = r;
    other.scenario.compute.utilization = 0.5;
    evaluate(other, copy);
    requireSame(copy, evaluate(other));
}

TEST_CASE("Every bundled example evaluated after every other into one Evaluation",
          "[evaluator][memo]")
{
    std::vector<ResolvedScenario> scenarios;
    std::vector<Evaluation> fresh;
    for (const auto& file : test::examples()) {
        scenarios.push_back(resolvedExample(file.filename().string()));
        fresh.push_back(evaluate(scenarios.back()));
    }
    Evaluation reused;
    for (std::size_t i = 0; i < scenarios.size(); ++i)
        for (std::size_t j = 0; j < scenarios.size(); ++j) {
            INFO(scenarios[i].scenario.name << " then " << scenarios[j].scenario.name);
            evaluate(scenarios[i], reused);
            evaluate(scenarios[j], reused);
            requireSame(reused, fresh[j]);
        }
}

TEST_CASE("A reused Evaluation keeps the fabric and the facility when their inputs are the same",
          "[evaluator][memo]")
{
    for (const auto& file : test::examples()) {
        ResolvedScenario r = resolvedExample(file.filename().string());
        INFO(r.scenario.name);
        Evaluation reused;
        evaluate(r, reused);
        CHECK_FALSE(reused.memo.fabricKept());
        CHECK_FALSE(reused.memo.facilityKept());
        // The same scenario again, and the same with another workload: both kept.
        evaluate(r, reused);
        CHECK(reused.memo.fabricKept());
        CHECK(reused.memo.facilityKept());
        r.scenario.workload.tokensBillion *= 2.0;
        evaluate(r, reused);
        CHECK(reused.memo.fabricKept());
        CHECK(reused.memo.facilityKept());
        requireSame(reused, evaluate(r));
        // The site's price alone: the fabric and the site year kept, the grid solved again.
        r.site.electricityPriceUsdPerKwh += 0.01;
        evaluate(r, reused);
        CHECK(reused.memo.fabricKept());
        CHECK(reused.memo.facilityKept());
        CHECK_FALSE(reused.memo.gridKept());
        requireSame(reused, evaluate(r));
        // The switch: both solved again.
        r.fabricSwitch.powerW += 1.0;
        evaluate(r, reused);
        CHECK_FALSE(reused.memo.fabricKept());
        CHECK_FALSE(reused.memo.facilityKept());
        // A fresh evaluation and a cleared memo keep nothing.
        reused.memo.clear();
        evaluate(r, reused);
        CHECK_FALSE(reused.memo.fabricKept());
        CHECK_FALSE(evaluate(r).memo.fabricKept());
    }
}

TEST_CASE("A network solve with a FabricMemo times the gradient again and keeps the fabric",
          "[network][memo]")
{
    ResolvedScenario r = resolvedExample("multiplane-16k-h100.json");
    NetworkResult net;
    FabricMemo memo;
    auto check = [&](double bytes, bool kept) {
        Diagnostics fresh, replayed;
        const NetworkResult a = solveNetwork(r, bytes, fresh);
        CHECK(solveNetwork(r, bytes, replayed, net, memo) == kept);
        solveReportedCollectives(net, memo);
        CHECK(sameBits(net.gradientAllReduce.seconds, a.gradientAllReduce.seconds));
        CHECK(sameBits(net.topology.costUsd, a.topology.costUsd));
        CHECK(sameBits(net.fabricAlphaUs, a.fabricAlphaUs));
        CHECK(net.hall.racks.size() == a.hall.racks.size());
        REQUIRE(net.collectives.size() == a.collectives.size());
        for (std::size_t i = 0; i < a.collectives.size(); ++i)
            CHECK(sameBits(net.collectives[i].seconds, a.collectives[i].seconds));
        REQUIRE(replayed.size() == fresh.size());
        auto d = fresh.begin();
        for (const auto& item : replayed)
            CHECK(item.toString() == (d++)->toString());
    };
    check(35e9, false);
    check(17e9, true);
    r.scenario.network.routing = Routing::Ecmp;
    check(17e9, false);
    check(35e9, true);
    r.scenario.network.pfcWatchdog = false; // a warning of the fabric part, replayed
    r.scenario.network.protocol = Protocol::RoceV2;
    check(35e9, false);
    check(35e9, true);
    // The warning gone again: the diagnostics kept are replaced, not kept because they begin
    // alike, nor left as they were.
    r.scenario.network.pfcWatchdog = true;
    check(35e9, false);
    check(35e9, true);
    r.scenario.network.pfcWatchdog = false;
    check(35e9, false);
    check(35e9, true);
}

namespace {

/** Requires the network \a net solved with a memo to hold what the fresh solve \a fresh holds:
 *  the fabric's price, power and cable lines, the hall's bill and the gradient all-reduce. */
void requireSameNetwork(const NetworkResult& net, const NetworkResult& fresh)
{
    CHECK(sameBits(net.topology.costUsd, fresh.topology.costUsd));
    CHECK(sameBits(net.topology.powerW, fresh.topology.powerW));
    CHECK(sameBits(net.topology.cableCostUsd, fresh.topology.cableCostUsd));
    CHECK(sameBits(net.topology.cablePowerW, fresh.topology.cablePowerW));
    REQUIRE(net.topology.cables.size() == fresh.topology.cables.size());
    for (std::size_t i = 0; i < fresh.topology.cables.size(); ++i) {
        const CableLine& a = net.topology.cables[i];
        const CableLine& b = fresh.topology.cables[i];
        CHECK(a.linkClass == b.linkClass);
        CHECK(a.cableId == b.cableId);
        CHECK(a.cableKind == b.cableKind);
        CHECK(a.cables == b.cables);
        CHECK(a.transceivers == b.transceivers);
        CHECK(sameBits(a.costUsd, b.costUsd));
        CHECK(sameBits(a.powerW, b.powerW));
    }
    CHECK(net.hall.valid == fresh.hall.valid);
    CHECK(net.hall.racks.size() == fresh.hall.racks.size());
    CHECK(net.hall.cdus == fresh.hall.cdus);
    CHECK(sameBits(net.hall.cableCostUsd, fresh.hall.cableCostUsd));
    CHECK(sameBits(net.fabricAlphaUs, fresh.fabricAlphaUs));
    CHECK(sameBits(net.routingShare, fresh.routingShare));
    CHECK(sameBits(net.multiRailShare, fresh.multiRailShare));
    CHECK(sameBits(net.gradientAllReduce.seconds, fresh.gradientAllReduce.seconds));
}

} // namespace

TEST_CASE("A FabricMemo solves the fabric and the hall again when an input they share changes",
          "[network][memo]")
{
    // The hall and facility sections, the switch, the cooling system, the catalog's cables and
    // the port breakout are held once for the fabric and the hall and compared once a solve;
    // the typical-length runs' media are kept while they stay the same. Each change, alone or
    // with a change of the fabric alone (the routing), must give a fresh solve's figures.
    struct SharedChange
    {
        const char* what;
        std::function<void(ResolvedScenario&)> apply;
    };
    const std::vector<SharedChange> changes = {
        {"hall section: racks per row",
         [](ResolvedScenario& r) { r.scenario.hall.racksPerRow = 12; }},
        {"facility section: racks per row",
         [](ResolvedScenario& r) { r.scenario.facility.racksPerRow = 6; }},
        {"switch entry: price", [](ResolvedScenario& r) { r.fabricSwitch.priceUsd *= 2.0; }},
        {"switch entry: latency", [](ResolvedScenario& r) { r.fabricSwitch.latencyUs += 0.4; }},
        {"cooling system entry: rack capacity",
         [](ResolvedScenario& r) { r.cooling.maxRackKw = 20.0; }},
        {"catalog cables: every price",
         [](ResolvedScenario& r) {
             for (CableSpec& c : r.cables)
                 c.priceUsd *= 1.5;
         }},
        {"catalog cables: every power",
         [](ResolvedScenario& r) {
             for (CableSpec& c : r.cables)
                 c.powerW *= 2.0;
         }},
    };
    for (const auto lengths : {CableLengthModel::Layout, CableLengthModel::Typical}) {
        ResolvedScenario base = resolvedExample("multiplane-16k-h100.json");
        base.scenario.hall.cableLengths = lengths;
        for (const SharedChange& change : changes)
            for (const bool routingToo : {false, true}) {
                INFO(change.what << (routingToo ? ", with the routing" : "")
                                 << (lengths == CableLengthModel::Typical ? ", typical lengths"
                                                                          : ""));
                ResolvedScenario variant = base;
                change.apply(variant);
                if (routingToo)
                    variant.scenario.network.routing =
                        base.scenario.network.routing == Routing::Ecmp ? Routing::Adaptive
                                                                       : Routing::Ecmp;
                NetworkResult net;
                FabricMemo memo;
                Diagnostics first, second, third, fresh, freshBase;
                const NetworkResult baseFresh = solveNetwork(base, 35e9, freshBase);
                solveNetwork(base, 35e9, first, net, memo);
                requireSameNetwork(net, baseFresh);
                const long long layouts = memo.hallLayouts();
                const NetworkResult a = solveNetwork(variant, 35e9, fresh);
                CHECK_FALSE(solveNetwork(variant, 35e9, second, net, memo));
                // The change reaches the figures (else this tests nothing) and the hall is laid
                // out again for it.
                bool moved = !sameBits(a.topology.costUsd, baseFresh.topology.costUsd) ||
                             !sameBits(a.topology.powerW, baseFresh.topology.powerW) ||
                             !sameBits(a.hall.cableCostUsd, baseFresh.hall.cableCostUsd) ||
                             a.hall.racks.size() != baseFresh.hall.racks.size() ||
                             a.hall.cdus != baseFresh.hall.cdus ||
                             !sameBits(a.fabricAlphaUs, baseFresh.fabricAlphaUs);
                for (std::size_t i = 0; i < a.hall.racks.size() && !moved; ++i)
                    moved = !sameBits(a.hall.racks[i].coolingLimitKw,
                                      baseFresh.hall.racks[i].coolingLimitKw);
                CHECK(moved);
                CHECK_FALSE(memo.hallKept());
                CHECK(memo.hallLayouts() == layouts + 1);
                requireSameNetwork(net, a);
                REQUIRE(second.size() == fresh.size());
                auto d = fresh.begin();
                for (const auto& item : second)
                    CHECK(item.toString() == (d++)->toString());
                // The variant again: kept whole; the base again: laid out again.
                CHECK(solveNetwork(variant, 35e9, third, net, memo));
                requireSameNetwork(net, a);
                Diagnostics back;
                CHECK_FALSE(solveNetwork(base, 35e9, back, net, memo));
                CHECK_FALSE(memo.hallKept());
                requireSameNetwork(net, baseFresh);
            }
    }
}

TEST_CASE(
    "A FabricMemo keeps the fabric's plan, prices and hall when only its rates' inputs change",
    "[network][memo]")
{
    // The routing, the MTU and the calibration profile reach only the fabric's rates (shares,
    // wire overhead, the collectives' inputs): the plan, counts, prices, hall and diagnostics
    // kept, the rates solved again, every figure a fresh solve's.
    struct Change
    {
        const char* what;
        bool shape; ///< Reaches the plan: the fabric is planned again.
        std::function<void(ResolvedScenario&)> apply;
    };
    const std::vector<Change> changes = {
        {"routing", false,
         [](ResolvedScenario& r) {
             r.scenario.network.routing =
                 r.scenario.network.routing == Routing::Ecmp ? Routing::Adaptive : Routing::Ecmp;
         }},
        {"MTU", false, [](ResolvedScenario& r) { r.scenario.network.mtuBytes = 1024; }},
        {"calibration factors", false,
         [](ResolvedScenario& r) { r.collectiveCalibration.fabricBandwidthFactor = 0.8; }},
        {"calibration profile's name", false,
         [](ResolvedScenario& r) { r.scenario.network.calibrationProfile = "measured"; }},
        {"oversubscription", true,
         [](ResolvedScenario& r) { r.scenario.network.oversubscription = 2.0; }},
        {"MTU and the PFC watchdog", true,
         [](ResolvedScenario& r) {
             r.scenario.network.mtuBytes = 1024;
             r.scenario.network.pfcWatchdog = !r.scenario.network.pfcWatchdog;
         }},
    };
    const ResolvedScenario base = resolvedExample("multiplane-16k-h100.json");
    for (const Change& change : changes) {
        INFO(change.what);
        ResolvedScenario variant = base;
        change.apply(variant);
        NetworkResult net;
        FabricMemo memo;
        Diagnostics first, second, fresh;
        solveNetwork(base, 35e9, first, net, memo);
        const long long plans = memo.fabricPlans();
        const NetworkResult a = solveNetwork(variant, 35e9, fresh);
        CHECK_FALSE(solveNetwork(variant, 35e9, second, net, memo));
        CHECK(memo.fabricPlans() == plans + (change.shape ? 1 : 0));
        requireSameNetwork(net, a);
        CHECK(sameBits(net.fabricGbytePerSPerGpu, a.fabricGbytePerSPerGpu));
        CHECK(sameBits(net.wire.efficiency, a.wire.efficiency));
        CHECK(net.worldInputs == a.worldInputs);
        REQUIRE(second.size() == fresh.size());
        auto d = fresh.begin();
        for (const auto& item : second)
            CHECK(item.toString() == (d++)->toString());
        // Kept whole the second time; the base again gives the base's figures.
        Diagnostics third, back, baseDiagnostics;
        CHECK(solveNetwork(variant, 35e9, third, net, memo));
        solveNetwork(base, 35e9, back, net, memo);
        requireSameNetwork(net, solveNetwork(base, 35e9, baseDiagnostics));
        CHECK(memo.fabricPlans() == plans + (change.shape ? 2 : 0));
    }
}

TEST_CASE("A FabricMemo keeps the hall's cable lines and the typical runs' media across scenario "
          "objects",
          "[network][memo]")
{
    // Two scenario objects whose cables are equal but live apart, alternated as an editor flips
    // the routing: the memo keeps the media by position in the catalog's cables, and the hall's
    // lines by the hall kept.
    for (const auto lengths : {CableLengthModel::Layout, CableLengthModel::Typical}) {
        ResolvedScenario ecmp = resolvedExample("multiplane-16k-h100.json");
        ecmp.scenario.hall.cableLengths = lengths;
        ecmp.scenario.network.routing = Routing::Ecmp;
        ResolvedScenario adaptive = ecmp;
        adaptive.scenario.network.routing = Routing::Adaptive;
        Diagnostics quiet;
        const NetworkResult freshEcmp = solveNetwork(ecmp, 35e9, quiet);
        const NetworkResult freshAdaptive = solveNetwork(adaptive, 35e9, quiet);
        CHECK_FALSE(sameBits(freshEcmp.routingShare, freshAdaptive.routingShare));
        NetworkResult net;
        FabricMemo memo;
        for (int i = 0; i < 4; ++i) {
            Diagnostics d;
            const bool even = i % 2 == 0;
            CHECK_FALSE(solveNetwork(even ? ecmp : adaptive, 35e9, d, net, memo));
            CHECK(memo.hallKept() == (i > 0));
            CHECK(memo.hallLayouts() == 1);
            requireSameNetwork(net, even ? freshEcmp : freshAdaptive);
            for (const CableLine& line : net.topology.cables)
                CHECK_FALSE(line.cableId.empty());
        }
    }
}

namespace {

/** What the last evaluation into \a e kept, stage by stage. */
struct Kept
{
    bool hall, fabric, collectives, year, grid;
};

void requireKept(const Evaluation& e, Kept k)
{
    CHECK(e.memo.hallKept() == k.hall);
    CHECK(e.memo.fabricKept() == k.fabric);
    CHECK(e.memo.collectivesKept() == k.collectives);
    CHECK(e.memo.facilityKept() == k.year);
    CHECK(e.memo.gridKept() == k.grid);
}

} // namespace

TEST_CASE("Each stage of a reused Evaluation is solved again only when its own inputs change",
          "[evaluator][memo]")
{
    const ResolvedScenario base = resolvedExample("multiplane-16k-h100.json");
    struct StageChange
    {
        const char* what;
        std::function<void(ResolvedScenario&)> apply;
        Kept kept;
        bool laidOut; ///< The hall laid out again.
    };
    const std::vector<StageChange> changes = {
        {"the workload: every stage kept",
         [](ResolvedScenario& r) { r.scenario.workload.tokensBillion *= 2.0; },
         {true, true, true, true, true},
         false},
        {"the site's electricity price: the grid alone",
         [](ResolvedScenario& r) { r.site.electricityPriceUsdPerKwh += 0.05; },
         {true, true, true, true, false},
         false},
        {"the site's tariff and carbon: the grid alone",
         [](ResolvedScenario& r) {
             r.site.carbonKgPerKwh += 0.1;
             r.site.tariff.present = true;
             r.site.tariff.peakUsdPerKwh = 0.2;
             r.site.tariff.offPeakUsdPerKwh = 0.05;
             r.site.tariff.peakStartHour = 12;
             r.site.tariff.peakEndHour = 20;
         },
         {true, true, true, true, false},
         false},
        {"the site's elevation: the site year and the grid",
         [](ResolvedScenario& r) { r.site.elevationM += 1500.0; },
         {true, true, true, false, false},
         false},
        {"the fabric's routing: the fabric and its collectives, not the hall",
         [](ResolvedScenario& r) {
             r.scenario.network.routing =
                 r.scenario.network.routing == Routing::Ecmp ? Routing::Adaptive : Routing::Ecmp;
         },
         {true, false, false, true, true},
         false},
        {"the NIC's latency: the fabric and its collectives, not the hall",
         [](ResolvedScenario& r) { r.nic.latencyUs += 0.5; },
         {true, false, false, true, true},
         false},
        {"a risk flag: the fabric's diagnostics, its collectives kept",
         [](ResolvedScenario& r) { r.scenario.network.managementSeparated = false; },
         {true, false, true, true, true},
         false},
        {"the hall's racks per row: the hall and the site year that checks its racks",
         [](ResolvedScenario& r) { r.scenario.hall.racksPerRow = 12; },
         {false, false, false, false, false},
         true},
        {"the hall's network placement: the hall laid out again",
         [](ResolvedScenario& r) {
             r.scenario.hall.networkPlacement =
                 r.scenario.hall.networkPlacement == NetworkPlacement::Central
                     ? NetworkPlacement::EndOfRow
                     : NetworkPlacement::Central;
         },
         {false, false, false, false, false},
         true},
        {"the GPU's power: the hall's cooling units counted again for the new heat",
         [](ResolvedScenario& r) { r.gpu.tdpW += 100.0; },
         {false, false, true, false, false},
         true},
        {"the CDUs' redundancy: the hall draws the spares again",
         [](ResolvedScenario& r) { r.scenario.cooling.cduRedundancy = Redundancy::TwoN; },
         {false, false, true, false, false},
         true},
        {"the catalog's cables: the hall prices its runs again",
         [](ResolvedScenario& r) {
             for (CableSpec& c : r.cables)
                 c.priceUsd *= 1.5;
         },
         {false, false, true, false, false},
         true},
    };
    Evaluation reused;
    for (const StageChange& change : changes) {
        INFO(change.what);
        ResolvedScenario variant = base;
        change.apply(variant);
        evaluate(base, reused);
        const long long layouts = reused.memo.hallLayouts();
        evaluate(variant, reused);
        requireKept(reused, change.kept);
        CHECK((reused.memo.hallLayouts() == layouts + 1) == change.laidOut);
        CHECK(reused.memo.hallLayouts() <= layouts + 1);
        const Evaluation fresh = evaluate(variant);
        requireSame(reused, fresh);
        // The same variant again keeps every stage.
        evaluate(variant, reused);
        requireKept(reused, {true, true, true, true, true});
        requireSame(reused, fresh);
    }
}

TEST_CASE("A refilled metric takes its new key, label and unit, literal or not",
          "[evaluator][memo][metrics]")
{
    Evaluation e;
    e.add("power.a", "Label one", 1.0, "kW", Better::Lower);
    e.add(std::string("power.b"), std::string("Label two"), 2.0, "", Better::Neither);
    REQUIRE(e.metrics.size() == 2);

    // Another literal of the same length at the same position: the text follows it.
    const bool second = true;
    e.restartMetrics();
    e.add("power.c", second ? "Label six" : "Label ten", 3.0, "MW", Better::Lower);
    e.add("power.b", "Label two", 4.0, "", Better::Neither);
    e.finishMetrics();
    REQUIRE(e.metrics.size() == 2);
    CHECK(e.metrics[0].key == "power.c");
    CHECK(e.metrics[0].label == "Label six");
    CHECK(e.metrics[0].unit == "MW");
    CHECK(e.metrics[1].key == "power.b");
    CHECK(e.metrics[1].value == 4.0);

    // Text from elsewhere where a literal was, then the literal again after the metrics were
    // edited from outside (as evaluate() drops the workload's figures).
    e.restartMetrics();
    const std::string dynamicKey = "power.d";
    e.add(dynamicKey, "Label six", 5.0, "MW", Better::Lower);
    e.add("power.b", "Label two", 6.0, "", Better::Neither);
    e.finishMetrics();
    CHECK(e.metrics[0].key == "power.d");
    e.metrics.erase(e.metrics.begin());
    e.restartMetrics();
    e.add("power.c", "Label six", 7.0, "MW", Better::Lower);
    e.add("power.b", "Label two", 8.0, "", Better::Neither);
    e.finishMetrics();
    REQUIRE(e.metrics.size() == 2);
    CHECK(e.metrics[0].key == "power.c");
    CHECK(e.metrics[0].unit == "MW");
    CHECK(e.metrics[1].key == "power.b");
    CHECK(e.metrics[1].label == "Label two");
    CHECK(e.metrics[1].unit.empty());
}
