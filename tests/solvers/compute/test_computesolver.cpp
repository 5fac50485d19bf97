#include "dct/model/resolver.h"
#include "dct/model/scenarioio.h"
#include "dct/solvers/computesolver.h"
#include "testsupport.h"

#include <cmath>

using namespace dct;
using namespace dct::model;
using namespace dct::solvers;
using nlohmann::json;

namespace {

ResolvedScenario resolve(const json& j)
{
    auto read = readScenario(j);
    REQUIRE_FALSE(read.diagnostics.hasErrors());
    auto r = resolveScenario(*read.scenario, test::catalog());
    REQUIRE(r.resolved);
    return *r.resolved;
}

json cluster(int nodes)
{
    return {{"schema_version", 2},
            {"site", "dallas"},
            {"compute", {{"node", "dgx-h100"}, {"node_count", nodes}}},
            {"network", {{"switch", "qm9700"}, {"protocol", "infiniband"}}},
            {"cooling", {{"system", "d2c-rdhx"}}},
            {"workload",
             {{"parameters_billion", 70},
              {"tokens_billion", 1000},
              {"mfu", 0.5},
              {"jitter_cv", 0.0},
              {"overlap_fraction", 1.0}}},
            {"storage", {{"write_gbyte_per_s", 1e6}, {"read_gbyte_per_s", 1e6}}}};
}

} // namespace

TEST_CASE("Without a solved fabric, training time is 6PD / (GPUs x peak x MFU)", "[compute]")
{
    const ResolvedScenario r = resolve(cluster(16));
    Diagnostics d;
    const ComputeResult c = solveCompute(r, {}, d);
    const double peak = r.gpu.peakTflopsBf16 * 1e12;
    // P of the dense model synthesized from parameters_billion (within 1% of 70 B).
    const double p = r.model.parameters();
    CHECK(p == Approx(70e9).epsilon(0.01));
    const double expected = 6.0 * p * 1000e9 / (128 * peak * 0.5) / 86400.0;
    CHECK(c.trainingFlops == Approx(6.0 * p * 1000e9).epsilon(1e-12));
    CHECK(c.idealTrainingDays == Approx(expected).epsilon(1e-9));
    // Nothing else slows this job (all communication hidden, no jitter, instant storage), so
    // the full figure only adds checkpoint writes.
    CHECK(c.trainingDays == Approx(expected).epsilon(1e-3));
    CHECK(c.trainingDays >= c.idealTrainingDays);
}

TEST_CASE("Exposed communication, throttling and jitter lengthen the step", "[compute]")
{
    json j = cluster(16);
    j["workload"]["overlap_fraction"] = 0.5;
    j["workload"]["jitter_cv"] = 0.02;
    const ResolvedScenario r = resolve(j);
    Diagnostics d;
    const ComputeResult base = solveCompute(r, {0.0, 1.0}, d);
    const ComputeResult comm = solveCompute(r, {base.computeSecondsPerStep * 4.0, 1.0}, d);
    CHECK(comm.exposedCommSecondsPerStep == Approx(base.computeSecondsPerStep * 3.0).epsilon(1e-9));
    const ComputeResult throttled = solveCompute(r, {0.0, 0.8}, d);
    CHECK(throttled.computeSecondsPerStep ==
          Approx(base.computeSecondsPerStep / 0.8).epsilon(1e-9));
    CHECK(throttled.trainingDays > base.trainingDays);
    CHECK(base.stragglerSecondsPerStep > 0.0);
    CHECK(base.stragglerSecondsPerStep ==
          Approx(0.02 * base.computeSecondsPerStep * expectedMaxOfNormals(128)).epsilon(1e-9));
}

TEST_CASE("Virtual machines add jitter and so straggler loss", "[compute]")
{
    json j = cluster(16);
    j["workload"]["jitter_cv"] = 0.01;
    const ResolvedScenario bare = resolve(j);
    j["workload"]["virtualized"] = true;
    const ResolvedScenario vm = resolve(j);
    Diagnostics d;
    CHECK(solveCompute(vm, {}, d).stragglerSecondsPerStep >
          2.0 * solveCompute(bare, {}, d).stragglerSecondsPerStep);
}

TEST_CASE("Expected maximum of normals matches tabulated order statistics", "[compute][stats]")
{
    // Harter (1961) expected values of normal order statistics: n=2: 0.5642, n=10: 1.5388,
    // n=100: 2.5076, n=1000: 3.2414. Exact below 100 ranks, Blom's approximation above.
    CHECK(expectedMaxOfNormals(1) == 0.0);
    CHECK(expectedMaxOfNormals(2) == Approx(0.5642).epsilon(0.001));
    CHECK(expectedMaxOfNormals(10) == Approx(1.5388).epsilon(0.001));
    CHECK(expectedMaxOfNormals(100) == Approx(2.5076).epsilon(0.01));
    CHECK(expectedMaxOfNormals(1000) == Approx(3.2414).epsilon(0.01));
}

TEST_CASE("Checkpoints: size from bytes per parameter, time from write bandwidth", "[compute]")
{
    json j = cluster(16);
    j["storage"]["write_gbyte_per_s"] = 50;
    const ResolvedScenario r = resolve(j);
    Diagnostics d;
    const ComputeResult c = solveCompute(r, {}, d);
    const double p = r.model.parameters();
    CHECK(c.checkpointGb == Approx(p * 14 / 1e9));
    CHECK(c.checkpointWriteSeconds == Approx(p / 1e9 * 14 / 50));
    CHECK(c.checkpoints > 0);
}

TEST_CASE("Slow storage makes the data loader set the step time", "[compute]")
{
    // One hard disk's bandwidth (the range's floor) feeding image-sized samples per token.
    json j = cluster(16);
    j["storage"]["read_gbyte_per_s"] = 0.1;
    j["workload"]["sample_bytes_per_token"] = 4000;
    const ResolvedScenario r = resolve(j);
    Diagnostics d;
    const ComputeResult c = solveCompute(r, {}, d);
    CHECK(d.hasCode("dataloader-bound"));
    CHECK(c.stepSeconds == Approx(c.dataLoaderSecondsPerStep));
}
