#include "testsupport.h"

#include "dct/model/resolver.h"
#include "dct/model/scenarioio.h"
#include "dct/solvers/evaluator.h"

using namespace dct;
using namespace dct::model;
using namespace dct::solvers;

TEST_CASE("Every example evaluates; training time agrees with 6PD / (GPUs x peak x MFU)",
          "[evaluator][examples]")
{
    for (const auto& file : test::examples()) {
        INFO(file.string());
        auto read = readScenarioFile(file);
        REQUIRE(read.scenario);
        auto r = resolveScenario(*read.scenario, test::catalog(), file.string());
        REQUIRE(r.resolved);
        const Evaluation e = evaluate(*r.resolved);
        for (const auto& d : e.diagnostics)
            UNSCOPED_INFO(d.toString());
        REQUIRE(e.ok());
        const auto& w = r.resolved->scenario.workload;
        const double ideal = 6.0 * w.parametersBillion * 1e9 * w.tokensBillion * 1e9 /
                             (r.resolved->gpuCount() * r.resolved->gpu.peakTflops(w.precision) *
                              1e12 * w.mfu) /
                             86400.0;
        CHECK(e.value("compute.ideal_training_days") == Approx(ideal).epsilon(1e-9));
        CHECK(e.value("compute.training_days") >= ideal);
        // Communication, stragglers, throttling and checkpoints cost time but not multiples.
        CHECK(e.value("compute.training_days") < 3.0 * ideal);
        CHECK(e.value("compute.gpus") == r.resolved->gpuCount());
        for (const auto& m : e.metrics) {
            INFO(m.key);
            CHECK(std::isfinite(m.value));
            CHECK_FALSE(m.label.empty());
        }
    }
}

TEST_CASE("An impossible scenario stops at validation with errors", "[evaluator]")
{
    auto read = readScenarioFile(test::examples().front());
    REQUIRE(read.scenario);
    read.scenario->workload.dataParallel = 7;
    auto r = resolveScenario(*read.scenario, test::catalog());
    REQUIRE(r.resolved);
    const Evaluation e = evaluate(*r.resolved);
    CHECK_FALSE(e.ok());
    CHECK(e.metrics.empty());
}
