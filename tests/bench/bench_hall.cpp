// Hall benchmark (Google Benchmark; not registered with ctest): the floor plan and the cable run
// of every link of a 65,536-endpoint 3-tier fat tree (8,192 nodes x 8 rails, 64-port switches:
// 65,536 node-leaf, 65,536 leaf-spine and 65,536 spine-core links). Target: under 200 ms and
// 200 MB (issue 14).

#include "dct/model/catalog.h"
#include "dct/model/resolver.h"
#include "dct/model/scenarioio.h"
#include "dct/solvers/fabricbuilder.h"
#include "dct/solvers/hallayout.h"
#include "dct/solvers/networksolver.h"

#include <benchmark/benchmark.h>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <sys/resource.h>

using namespace dct;
using namespace dct::solvers;

namespace {

model::ResolvedScenario fatTree65k()
{
    const auto catalog = model::Catalog::load(std::string(DCT_DATA_DIR) + "/catalog");
    if (!catalog) {
        std::fprintf(stderr, "%s\n", catalog.error().toString().c_str());
        std::abort();
    }
    const nlohmann::json doc = {
        {"schema_version", 2},
        {"name", "65,536-endpoint 3-tier fat tree"},
        {"site", "frankfurt"},
        {"compute", {{"node", "hgx-h100"}, {"node_count", 8192}}},
        {"network",
         {{"protocol", "infiniband"},
          {"topology", "fat_tree"},
          {"tiers", 3},
          {"switch", "qm9700"},
          {"nic", "connectx-7-400g"}}},
        {"facility", {{"rack_power_limit_kw", 45}, {"racks_per_row", 16}}},
        {"hall", {{"network_placement", "middle_of_row"}}},
        {"cooling", {{"system", "d2c-rdhx"}}},
    };
    auto read = model::readScenario(doc);
    auto resolved = model::resolveScenario(*read.scenario, *catalog);
    if (!resolved.resolved)
        std::abort();
    return *resolved.resolved;
}

double peakRssMb()
{
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    return static_cast<double>(usage.ru_maxrss) / 1024.0;
}

model::ResolvedScenario multiplane16k()
{
    const auto catalog = model::Catalog::load(std::string(DCT_DATA_DIR) + "/catalog");
    auto read =
        model::readScenarioFile(std::string(DCT_DATA_DIR) + "/examples/multiplane-16k-h100.json");
    if (!catalog || !read.scenario)
        std::abort();
    auto resolved = model::resolveScenario(*read.scenario, *catalog);
    if (!resolved.resolved)
        std::abort();
    return *resolved.resolved;
}

/** The hall of \a r laid out with \a cabling, once per iteration. */
void layOut(benchmark::State& state, const model::ResolvedScenario& r, HallCabling cabling)
{
    Diagnostics scratch;
    const FabricPlan plan = planFabric(fabricSpec(r), scratch);
    const double before = peakRssMb();
    long long links = 0;
    std::size_t bundles = 0, racks = 0;
    for (auto _ : state) {
        Diagnostics d;
        HallResult h = layoutHall(r, plan, d, cabling);
        for (const auto& l : h.bill)
            links += l.links;
        bundles = h.bundles.size();
        racks = h.racks.size();
        benchmark::DoNotOptimize(h);
    }
    state.counters["bundles"] = static_cast<double>(bundles);
    state.counters["racks"] = static_cast<double>(racks);
    state.counters["links"] =
        benchmark::Counter(static_cast<double>(links) / static_cast<double>(state.iterations()));
    state.counters["peak_rss_mb"] = peakRssMb();
    state.counters["rss_growth_mb"] = peakRssMb() - before;
}

/** The 16,384-GPU example's hall (2,048 nodes x 8 planes, 32,768 links): counted per rack pair,
 *  as the evaluation lays it out. */
void BM_HallLayout16k(benchmark::State& state)
{
    layOut(state, multiplane16k(), HallCabling::ByRackPair);
}
BENCHMARK(BM_HallLayout16k)->Unit(benchmark::kMicrosecond);

/** The same hall with every link run one by one (the reference the tests hold it to). */
void BM_HallLayout16kPerLink(benchmark::State& state)
{
    layOut(state, multiplane16k(), HallCabling::PerLink);
}
BENCHMARK(BM_HallLayout16kPerLink)->Unit(benchmark::kMicrosecond);

/** The 65,536-endpoint fat tree's hall, run link by link. */
void BM_HallLayout65kPerLink(benchmark::State& state)
{
    layOut(state, fatTree65k(), HallCabling::PerLink);
}
BENCHMARK(BM_HallLayout65kPerLink)->Unit(benchmark::kMillisecond);

void BM_HallLayout65k(benchmark::State& state)
{
    const model::ResolvedScenario r = fatTree65k();
    Diagnostics scratch;
    const FabricPlan plan = planFabric(fabricSpec(r), scratch);
    const double before = peakRssMb();
    long long links = 0;
    for (auto _ : state) {
        Diagnostics d;
        HallResult h = layoutHall(r, plan, d);
        for (const auto& l : h.bill)
            links += l.links;
        benchmark::DoNotOptimize(h);
    }
    state.counters["links"] =
        benchmark::Counter(static_cast<double>(links) / static_cast<double>(state.iterations()));
    state.counters["peak_rss_mb"] = peakRssMb();
    state.counters["rss_growth_mb"] = peakRssMb() - before;
}
BENCHMARK(BM_HallLayout65k)->Unit(benchmark::kMillisecond);

} // namespace

BENCHMARK_MAIN();
