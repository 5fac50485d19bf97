// The layout search over the 16k-GPU Llama 3 405B example (every TP, PP, CP, micro-batch,
// virtual-stage, ZeRO and recompute choice the model and the cluster allow); run by hand in a
// Release build:
//   build/tests/bench/bench_plan
#include "dct/model/catalog.h"
#include "dct/model/resolver.h"
#include "dct/model/scenarioio.h"
#include "dct/study/layoutplanner.h"

#include <benchmark/benchmark.h>

using namespace dct;

namespace {

model::ResolvedScenario resolvedExample(const char* name)
{
    static const model::Catalog catalog =
        model::Catalog::load(model::Catalog::defaultDirectory()).value();
    auto read = model::readScenarioFile(model::Catalog::dataDirectory() / "examples" / name);
    return *model::resolveScenario(*read.scenario, catalog).resolved;
}

void planLayouts(benchmark::State& state, const char* name, bool prune)
{
    const model::ResolvedScenario r = resolvedExample(name);
    study::LayoutPlanOptions options;
    options.prune = prune;
    study::LayoutPlan plan;
    for (auto _ : state) {
        plan = study::planLayouts(r, options);
        benchmark::DoNotOptimize(plan.best.data());
    }
    state.counters["layouts"] = static_cast<double>(plan.candidates);
    state.counters["timed"] = static_cast<double>(plan.evaluated);
    state.counters["layouts_per_s"] = benchmark::Counter(
        static_cast<double>(plan.candidates) * static_cast<double>(state.iterations()),
        benchmark::Counter::kIsRate);
}

} // namespace

BENCHMARK_CAPTURE(planLayouts, multiplane_16k_405b, "multiplane-16k-h100.json", true)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(planLayouts, multiplane_16k_405b_unpruned, "multiplane-16k-h100.json", false)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(planLayouts, gb200_nvl72, "gb200-nvl72-liquid.json", true)
    ->Unit(benchmark::kMillisecond);

BENCHMARK_MAIN();
