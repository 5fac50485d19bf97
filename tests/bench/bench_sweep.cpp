// Sweep throughput and the time of one coupled evaluation; run by hand in a Release build:
//   build-release/tests/bench/bench_sweep
#include "dct/model/catalog.h"
#include "dct/model/resolver.h"
#include "dct/model/scenarioio.h"
#include "dct/solvers/coolingsolver.h"
#include "dct/solvers/evaluator.h"
#include "dct/solvers/gridsolver.h"
#include "dct/solvers/hourlyyear.h"
#include "dct/solvers/powersolver.h"
#include "dct/solvers/redundancy.h"
#include "dct/study/sweeprunner.h"

#include <benchmark/benchmark.h>
#include <ostream>
#include <streambuf>

using namespace dct;

namespace {

/** Discards what is written, so that the benchmark measures the sweep, not the disk. */
class NullBuffer : public std::streambuf
{
protected:
    int overflow(int c) override { return c; }
    std::streamsize xsputn(const char*, std::streamsize n) override { return n; }
};

const model::Catalog& catalog()
{
    static const model::Catalog c =
        model::Catalog::load(model::Catalog::defaultDirectory()).value();
    return c;
}

model::Scenario example(const char* name)
{
    auto read = model::readScenarioFile(model::Catalog::dataDirectory() / "examples" / name);
    return *read.scenario;
}

study::SweepSpec gridSpec(int nodeValues, int mfuValues)
{
    nlohmann::json nodes = nlohmann::json::array();
    for (int i = 0; i < nodeValues; ++i)
        nodes.push_back(8 + 8 * i);
    nlohmann::json j = {
        {"base", "seed-h100-dallas-d2c.json"},
        {"axes",
         {{{"field", "/compute/node_count"}, {"values", nodes}},
          {{"field", "/network/tiers"}, {"values", {0}}},
          {{"field", "/workload/mfu"},
           {"sample", "uniform"},
           {"min", 0.3},
           {"max", 0.5},
           {"count", mfuValues},
           {"seed", 1}}}},
        {"metrics", {"compute.training_days", "cooling.pue", "cost.tco_usd_per_year"}}};
    return study::parseSweepSpec(j, "bench.json").value();
}

/** Variants per second of a sweep with the full coupled evaluation, on every core. */
void sweepFullEvaluation(benchmark::State& state)
{
    const auto runner = study::SweepRunner::create(gridSpec(16, 64),
                                                   example("seed-h100-dallas-d2c.json"), catalog())
                            .value();
    NullBuffer buffer;
    std::ostream out(&buffer);
    std::uint64_t variants = 0;
    for (auto _ : state) {
        auto summary = runner.run({}, study::SweepFormat::Csv, out);
        variants += summary.variants;
    }
    state.SetItemsProcessed(static_cast<std::int64_t>(variants));
    state.counters["variants_per_s"] =
        benchmark::Counter(static_cast<double>(variants), benchmark::Counter::kIsRate);
}
BENCHMARK(sweepFullEvaluation)->Unit(benchmark::kMillisecond)->UseRealTime();

/** Variants per second of the sweep machinery alone (set fields, format rows, order output),
 *  with a trivial evaluator: the ceiling that fast solvers would reach. */
void sweepMachineryOnly(benchmark::State& state)
{
    auto resolved = model::resolveScenario(example("seed-h100-dallas-d2c.json"), catalog());
    const auto runner =
        study::SweepRunner::create(
            gridSpec(64, 1024), *resolved.resolved,
            [](const model::ResolvedScenario& r) {
                solvers::Evaluation e;
                e.metrics.resize(3);
                e.metrics[0] = {"compute.training_days", "", r.scenario.workload.mfu, "", {}};
                e.metrics[1] = {"cooling.pue", "", 1.2, "", {}, {}};
                e.metrics[2] = {"cost.tco_usd_per_year", "", r.gpuCount() * 1.0, "", {}};
                return e;
            })
            .value();
    NullBuffer buffer;
    std::ostream out(&buffer);
    std::uint64_t variants = 0;
    for (auto _ : state) {
        auto summary = runner.run({}, study::SweepFormat::Csv, out);
        variants += summary.variants;
    }
    state.SetItemsProcessed(static_cast<std::int64_t>(variants));
    state.counters["variants_per_s"] =
        benchmark::Counter(static_cast<double>(variants), benchmark::Counter::kIsRate);
}
BENCHMARK(sweepMachineryOnly)->Unit(benchmark::kMillisecond)->UseRealTime();

/** One coupled evaluation (every solver and the thermal loop) of the 16k-GPU example. */
void evaluateMultiplane16k(benchmark::State& state)
{
    auto resolved = model::resolveScenario(example("multiplane-16k-h100.json"), catalog());
    const model::ResolvedScenario& r = *resolved.resolved;
    for (auto _ : state) {
        auto e = solvers::evaluate(r);
        benchmark::DoNotOptimize(e);
    }
}
BENCHMARK(evaluateMultiplane16k)->Unit(benchmark::kMicrosecond);

/** The same evaluation again and again into one reused Evaluation (warm): the metrics keep their
 *  strings' storage, and the fabric and facility parts are kept, their inputs being the same
 *  (compared field by field every evaluation); the workload's part is solved every time. */
void evaluateMultiplane16kReused(benchmark::State& state)
{
    auto resolved = model::resolveScenario(example("multiplane-16k-h100.json"), catalog());
    const model::ResolvedScenario& r = *resolved.resolved;
    solvers::Evaluation e;
    for (auto _ : state) {
        solvers::evaluate(r, e);
        benchmark::DoNotOptimize(e);
    }
    state.counters["metrics"] = static_cast<double>(e.metrics.size());
    state.counters["kept"] = e.memo.fabricKept() + e.memo.facilityKept();
}
BENCHMARK(evaluateMultiplane16kReused)->Unit(benchmark::kMicrosecond);

/** A sweep over the workload into one reused Evaluation (warm): every evaluation changes the
 *  training tokens and the share of the all-reduce hidden under compute, as a sweep's thread does;
 * the fabric and the facility are kept, everything reading the workload is solved. */
void evaluateMultiplane16kWorkloadSweep(benchmark::State& state)
{
    auto resolved = model::resolveScenario(example("multiplane-16k-h100.json"), catalog());
    model::ResolvedScenario r = *resolved.resolved;
    const model::ResolvedScenario base = r;
    model::ResolvedScenario other = r;
    other.scenario.workload.tokensBillion *= 2.0;
    other.scenario.workload.overlapFraction = 0.6;
    solvers::Evaluation e;
    bool flip = false;
    for (auto _ : state) {
        flip = !flip;
        solvers::evaluate(flip ? other : base, e);
        benchmark::DoNotOptimize(e);
    }
    state.counters["metrics"] = static_cast<double>(e.metrics.size());
    state.counters["kept"] = e.memo.fabricKept() + e.memo.facilityKept();
}
BENCHMARK(evaluateMultiplane16kWorkloadSweep)->Unit(benchmark::kMicrosecond);

/** Into one reused Evaluation whose memo is cleared every time (cold, reused storage): every part
 *  solved, as when each variant of a sweep changes the fabric or the site. */
void evaluateMultiplane16kReusedCold(benchmark::State& state)
{
    auto resolved = model::resolveScenario(example("multiplane-16k-h100.json"), catalog());
    const model::ResolvedScenario& r = *resolved.resolved;
    solvers::Evaluation e;
    for (auto _ : state) {
        e.memo.clear();
        solvers::evaluate(r, e);
        benchmark::DoNotOptimize(e);
    }
}
BENCHMARK(evaluateMultiplane16kReusedCold)->Unit(benchmark::kMicrosecond);

/**
 * One field of the 16k-GPU example changed every evaluation into one reused Evaluation, as a
 * planner's edit or a sweep's step: the stages that read the field are solved again, the others
 * kept (each keyed on its own inputs). state.range(0) picks the field: 0 the site's electricity
 * price (the grid alone), 1 the fabric's routing (the fabric and its collectives; the hall and
 * the site year kept), 2 the hall's slack (the hall's layout and the site year that checks its
 * racks), 3 the site's elevation (the site year and the grid).
 */
void evaluateMultiplane16kOneFieldEdit(benchmark::State& state)
{
    auto resolved = model::resolveScenario(example("multiplane-16k-h100.json"), catalog());
    const model::ResolvedScenario base = *resolved.resolved;
    model::ResolvedScenario other = base;
    switch (state.range(0)) {
    case 0:
        other.site.electricityPriceUsdPerKwh += 0.01;
        state.SetLabel("site price");
        break;
    case 1:
        other.scenario.network.routing = base.scenario.network.routing == model::Routing::Ecmp
                                             ? model::Routing::Adaptive
                                             : model::Routing::Ecmp;
        state.SetLabel("network routing");
        break;
    case 2:
        other.scenario.hall.slackFraction += 0.1;
        state.SetLabel("hall slack");
        break;
    default:
        other.site.elevationM += 500.0;
        state.SetLabel("site elevation");
        break;
    }
    solvers::Evaluation e;
    bool flip = false;
    for (auto _ : state) {
        flip = !flip;
        solvers::evaluate(flip ? other : base, e);
        benchmark::DoNotOptimize(e);
    }
    state.counters["hall_kept"] = e.memo.hallKept();
    state.counters["fabric_kept"] = e.memo.fabricKept();
    state.counters["year_kept"] = e.memo.facilityKept();
    state.counters["grid_kept"] = e.memo.gridKept();
}
BENCHMARK(evaluateMultiplane16kOneFieldEdit)
    ->Arg(0)
    ->Arg(1)
    ->Arg(2)
    ->Arg(3)
    ->Unit(benchmark::kMicrosecond);

/** The site's year of the 16k-GPU example as the evaluation runs it: the plant, the facility
 *  power and the grid over the year's distinct climate states (climateStates()). */
void yearMultiplane16kStates(benchmark::State& state)
{
    auto resolved = model::resolveScenario(example("multiplane-16k-h100.json"), catalog());
    const model::ResolvedScenario& r = *resolved.resolved;
    const solvers::Evaluation e = solvers::evaluate(r);
    for (auto _ : state) {
        const auto c = solvers::solveCooling(r, r.cooling, e.power);
        const auto p = solvers::completeFacilityPower(r, e.power, c);
        auto g = solvers::solveGrid(r, p, c);
        benchmark::DoNotOptimize(g);
    }
    state.counters["states"] = static_cast<double>(e.cooling.year->hours.size());
}
BENCHMARK(yearMultiplane16kStates)->Unit(benchmark::kMicrosecond);

/** The same year run hour by hour over the 8,760 hours (the reference). */
void yearMultiplane16kHourByHour(benchmark::State& state)
{
    auto resolved = model::resolveScenario(example("multiplane-16k-h100.json"), catalog());
    const model::ResolvedScenario& r = *resolved.resolved;
    const solvers::Evaluation e = solvers::evaluate(r);
    for (auto _ : state) {
        const auto c = solvers::solveCoolingHourByHour(r, r.cooling, e.power);
        const auto p = solvers::completeFacilityPower(r, e.power, c);
        auto g = solvers::solveGrid(r, p, c);
        benchmark::DoNotOptimize(g);
    }
}
BENCHMARK(yearMultiplane16kHourByHour)->Unit(benchmark::kMicrosecond);

/** The side-by-side PUE of every cooling option of the 16k-GPU example. */
void optionsMultiplane16k(benchmark::State& state)
{
    auto resolved = model::resolveScenario(example("multiplane-16k-h100.json"), catalog());
    const model::ResolvedScenario& r = *resolved.resolved;
    const solvers::Evaluation e = solvers::evaluate(r);
    for (auto _ : state) {
        auto o = solvers::coolingOptionPues(r, e.power);
        benchmark::DoNotOptimize(o);
    }
}
BENCHMARK(optionsMultiplane16k)->Unit(benchmark::kMicrosecond);

/** One coupled evaluation of the 256-GPU seed case. */
void evaluateSeed(benchmark::State& state)
{
    auto resolved = model::resolveScenario(example("seed-h100-dallas-d2c.json"), catalog());
    const model::ResolvedScenario& r = *resolved.resolved;
    for (auto _ : state) {
        auto e = solvers::evaluate(r);
        benchmark::DoNotOptimize(e);
    }
}
BENCHMARK(evaluateSeed)->Unit(benchmark::kMicrosecond);

/** The redundancy design of the 16k-GPU example: four subsystems and their availability. */
void redundancyMultiplane16k(benchmark::State& state)
{
    auto resolved = model::resolveScenario(example("multiplane-16k-h100.json"), catalog());
    const model::ResolvedScenario& r = *resolved.resolved;
    const solvers::Evaluation e = solvers::evaluate(r);
    for (auto _ : state) {
        auto d = solvers::solveRedundancy(r, e.power, e.cooling);
        benchmark::DoNotOptimize(d);
    }
}
BENCHMARK(redundancyMultiplane16k)->Unit(benchmark::kMicrosecond);

/** The 16k-GPU example's year expanded from its climate states to 8,760 hours (eval --hourly,
 *  the heat maps). */
void hourlyMultiplane16k(benchmark::State& state)
{
    auto resolved = model::resolveScenario(example("multiplane-16k-h100.json"), catalog());
    const model::ResolvedScenario& r = *resolved.resolved;
    const solvers::Evaluation e = solvers::evaluate(r);
    for (auto _ : state) {
        auto y = solvers::expandHourly(r, e);
        benchmark::DoNotOptimize(y);
    }
}
BENCHMARK(hourlyMultiplane16k)->Unit(benchmark::kMicrosecond);

} // namespace

BENCHMARK_MAIN();
