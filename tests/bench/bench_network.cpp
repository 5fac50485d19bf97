// Network benchmarks (Google Benchmark; not registered with ctest): the 65,536-endpoint 3-tier
// fat tree of 64-port switches with its max-flow bisection, and the network solver of a
// 16,384-GPU multi-plane fabric.

#include "dct/model/resolvedscenario.h"
#include "dct/solvers/fabricbuilder.h"
#include "dct/solvers/fabricgraph.h"
#include "dct/solvers/networksolver.h"

#include <benchmark/benchmark.h>
#include <vector>

using namespace dct;
using namespace dct::solvers;

namespace {

FabricSpec fatTree65k()
{
    FabricSpec s;
    s.kind = model::TopologyKind::FatTree;
    s.nodes = 65536;
    s.railsPerNode = 1;
    s.switchPorts = 64;
    return s;
}

FabricSpec multiPlane16k()
{
    FabricSpec s;
    s.kind = model::TopologyKind::MultiPlane;
    s.nodes = 2048;
    s.railsPerNode = 8;
    s.planes = 8;
    s.switchPorts = 64;
    return s;
}

model::ResolvedScenario multiPlaneScenario()
{
    model::ResolvedScenario r;
    r.scenario.compute.nodeCount = 2048;
    r.gpusPerNode = 8;
    r.rails = 8;
    r.dataParallel = 2048;
    r.scenario.workload.tensorParallel = 8;
    r.scenario.network.topology = model::TopologyKind::MultiPlane;
    r.scenario.network.planes = 8;
    r.scenario.network.protocol = model::Protocol::Infiniband;
    r.fabricSwitch.ports = 64;
    r.fabricSwitch.portRateGbps = 400.0;
    r.fabricSwitch.inNetworkReduction = true;
    r.nic.rateGbps = 400.0;
    model::CableSpec aec;
    aec.id = "aec-400g";
    aec.cableKind = model::CableKind::Aec;
    aec.reachM = 7.0;
    aec.priceUsd = 500.0;
    model::CableSpec aoc = aec;
    aoc.id = "aoc-400g";
    aoc.cableKind = model::CableKind::Aoc;
    aoc.reachM = 30.0;
    aoc.priceUsd = 900.0;
    r.cables = {aec, aoc};
    return r;
}

void fatTree65kBuild(benchmark::State& state)
{
    Diagnostics d;
    const FabricPlan plan = planFabric(fatTree65k(), d);
    for (auto _ : state) {
        FabricGraph g = buildFabricGraph(plan);
        benchmark::DoNotOptimize(g.edges.size());
    }
}
BENCHMARK(fatTree65kBuild)->Unit(benchmark::kMillisecond);

void fatTree65kBuildAndMaxFlow(benchmark::State& state)
{
    Diagnostics d;
    const FabricPlan plan = planFabric(fatTree65k(), d);
    double bisection = 0.0;
    for (auto _ : state) {
        const FabricGraph g = buildFabricGraph(plan);
        bisection = bisectionGbps(g);
        benchmark::DoNotOptimize(bisection);
    }
    state.counters["bisection_gbps"] = bisection;
}
BENCHMARK(fatTree65kBuildAndMaxFlow)->Unit(benchmark::kMillisecond);

void multiPlane16kNetworkSolve(benchmark::State& state)
{
    const model::ResolvedScenario r = multiPlaneScenario();
    for (auto _ : state) {
        Diagnostics d;
        NetworkResult n = solveNetwork(r, 35e9, d);
        benchmark::DoNotOptimize(n.gradientAllReduce.seconds);
    }
}
BENCHMARK(multiPlane16kNetworkSolve)->Unit(benchmark::kMicrosecond);

/**
 * The same network solve into one NetworkResult with its FabricMemo, as a reused Evaluation runs
 * it over a sweep of the workload: the gradient's bytes change every solve, the fabric's inputs
 * do not, so the plan, the hall and the reported collectives are kept (compared with the
 * scenario's fabric inputs, field by field) and only the gradient all-reduce is timed again.
 */
void multiPlane16kNetworkSolveKept(benchmark::State& state)
{
    const model::ResolvedScenario r = multiPlaneScenario();
    NetworkResult n;
    FabricMemo memo;
    double bytes = 35e9;
    for (auto _ : state) {
        Diagnostics d;
        bytes = bytes == 35e9 ? 17.5e9 : 35e9;
        solveNetwork(r, bytes, d, n, memo);
        benchmark::DoNotOptimize(n.gradientAllReduce.seconds);
    }
}
BENCHMARK(multiPlane16kNetworkSolveKept)->Unit(benchmark::kMicrosecond);

/**
 * Solves the network of \a a and \a b in turn with one memo, as an editor flipping a setting
 * does; counts the fabric's diagnostics, whether the hall was kept, its layouts and the fabric's
 * plans per solve.
 */
void solveAlternating(benchmark::State& state, const model::ResolvedScenario& a,
                      const model::ResolvedScenario& b)
{
    NetworkResult n;
    FabricMemo memo;
    bool flip = false;
    std::size_t diagnostics = 0;
    for (auto _ : state) {
        Diagnostics d;
        flip = !flip;
        const bool kept = solveNetwork(flip ? b : a, 35e9, d, n, memo);
        benchmark::DoNotOptimize(kept);
        benchmark::DoNotOptimize(n.gradientAllReduce.seconds);
        diagnostics = d.size();
    }
    state.counters["diagnostics"] = static_cast<double>(diagnostics);
    state.counters["hall_kept"] = memo.hallKept();
    state.counters["layouts"] = static_cast<double>(memo.hallLayouts());
    state.counters["plans_per_solve"] =
        static_cast<double>(memo.fabricPlans()) / static_cast<double>(state.iterations());
}

/**
 * The network solve as a planner's edit of the fabric runs it in a reused Evaluation: the PFC
 * watchdog flips every solve (a setting of the fabric's risk checks), so the fabric is planned
 * and priced again (plan, topology, prices, diagnostics, shares, latency, the gradient
 * all-reduce); the hall's inputs do not change, so its layout (its own stage,
 * BM_HallLayout16k) is kept, and the reported collectives are left to the view that shows them
 * (solveReportedCollectives, multiPlane16kNetworkCollectives).
 */
void multiPlane16kNetworkSolveHallKept(benchmark::State& state)
{
    const model::ResolvedScenario r = multiPlaneScenario();
    model::ResolvedScenario other = r;
    other.scenario.network.pfcWatchdog = !r.scenario.network.pfcWatchdog;
    solveAlternating(state, r, other);
}
BENCHMARK(multiPlane16kNetworkSolveHallKept)->Unit(benchmark::kMicrosecond);

/**
 * The network solve as a planner's edit of the routing runs it (ECMP and adaptive in turn): the
 * fabric's plan, counts, prices and hall are kept (FabricReplay::Shape), its rates (shares,
 * latency, the collectives' inputs) solved again and the gradient all-reduce timed again.
 */
void multiPlane16kNetworkSolveRoutingEdit(benchmark::State& state)
{
    model::ResolvedScenario r = multiPlaneScenario();
    model::ResolvedScenario adaptive = r;
    adaptive.scenario.network.routing = model::Routing::Adaptive;
    r.scenario.network.routing = model::Routing::Ecmp;
    solveAlternating(state, r, adaptive);
}
BENCHMARK(multiPlane16kNetworkSolveRoutingEdit)->Unit(benchmark::kMicrosecond);

/**
 * The collectives of one network solve on the 16k-GPU fabric, without the fabric, hall and cable
 * work around them: the sixteen reported at 1 GiB and the gradient all-reduce.
 */
void multiPlane16kNetworkCollectives(benchmark::State& state)
{
    const model::ResolvedScenario r = multiPlaneScenario();
    Diagnostics d;
    const NetworkResult n = solveNetwork(r, 35e9, d);
    for (auto _ : state) {
        std::vector<CollectiveTiming> reported = reportedCollectives(n.worldInputs);
        const CollectiveTiming gradient = gradientAllReduce(r, n, 35e9, nullptr);
        benchmark::DoNotOptimize(reported.back().seconds);
        benchmark::DoNotOptimize(gradient.seconds);
    }
}
BENCHMARK(multiPlane16kNetworkCollectives)->Unit(benchmark::kMicrosecond);

/** The 16k-GPU fabric's all-reduce curve: the fastest algorithm and protocol at each of 33 sizes,
 *  8 B to 32 GiB (as `dctwin-cli collectives` prints it), one call per size. */
void multiPlane16kAllReduceCurve(benchmark::State& state)
{
    const model::ResolvedScenario r = multiPlaneScenario();
    Diagnostics d;
    const NetworkResult n = solveNetwork(r, 35e9, d);
    std::vector<CollectiveTiming> curve;
    for (auto _ : state) {
        curve.clear();
        double bytes = 8.0;
        for (int i = 0; i < 33; ++i, bytes *= 2.0)
            curve.push_back(bestCollective(CollectiveOp::AllReduce, bytes, n.worldInputs));
        benchmark::DoNotOptimize(curve.back().seconds);
    }
    state.counters["sizes"] = static_cast<double>(curve.size());
}
BENCHMARK(multiPlane16kAllReduceCurve)->Unit(benchmark::kMicrosecond);

/** The same curve from one CollectiveEngine: the fabric's paths worked out once for all sizes. */
void multiPlane16kAllReduceCurveEngine(benchmark::State& state)
{
    const model::ResolvedScenario r = multiPlaneScenario();
    Diagnostics d;
    const NetworkResult n = solveNetwork(r, 35e9, d);
    std::vector<CollectiveTiming> curve;
    for (auto _ : state) {
        const CollectiveEngine engine(n.worldInputs);
        curve = engine.bestCurve(CollectiveOp::AllReduce, 8.0, 8.0 * 4294967296.0);
        benchmark::DoNotOptimize(curve.back().seconds);
    }
    state.counters["sizes"] = static_cast<double>(curve.size());
}
BENCHMARK(multiPlane16kAllReduceCurveEngine)->Unit(benchmark::kMicrosecond);

void multiPlane16kGraphChecks(benchmark::State& state)
{
    Diagnostics d;
    const FabricPlan plan = planFabric(multiPlane16k(), d);
    for (auto _ : state) {
        const FabricGraph g = buildFabricGraph(plan, true);
        benchmark::DoNotOptimize(bisectionGbps(g));
        benchmark::DoNotOptimize(hopStats(g, 8).diameterSwitchHops);
    }
}
BENCHMARK(multiPlane16kGraphChecks)->Unit(benchmark::kMillisecond);

} // namespace

BENCHMARK_MAIN();
