#include "dct/model/resolver.h"
#include "dct/model/scenarioio.h"
#include "dct/solvers/evaluator.h"
#include "testsupport.h"

#include <cstring>

using namespace dct;
using namespace dct::model;
using namespace dct::solvers;

TEST_CASE("Every example evaluates, training time agrees with FLOPs / (GPUs x peak x MFU)",
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
        // The model FLOPs at the predicted (or explicit) MFU, and at least 6 per active
        // parameter per token (attention and logits add to it).
        const double mfu = e.value("compute.mfu");
        const double ideal =
            e.value("compute.training_flops") /
            (r.resolved->gpuCount() * r.resolved->gpu.peakTflops(w.precision) * 1e12 * mfu) /
            86400.0;
        CHECK(e.value("compute.training_flops") >=
              6.0 * r.resolved->model.activeParameters() * w.tokensBillion * 1e9);
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
    read.scenario->network.mtuBytes = 3000;
    auto r = resolveScenario(*read.scenario, test::catalog());
    REQUIRE(r.resolved);
    const Evaluation e = evaluate(*r.resolved);
    CHECK_FALSE(e.ok());
    CHECK(e.metrics.empty());
    // An error in the workload alone leaves what does not depend on it evaluated.
    read.scenario->network.mtuBytes = 4096;
    read.scenario->workload.dataParallel = 7;
    auto w = resolveScenario(*read.scenario, test::catalog());
    REQUIRE(w.resolved);
    const Evaluation partial = evaluate(*w.resolved);
    CHECK_FALSE(partial.ok());
    CHECK(partial.metric("cooling.pue") != nullptr);
    CHECK(partial.metric("compute.training_days") == nullptr);
}

namespace {

/** Checks that \a reused holds exactly what \a fresh holds: every metric and diagnostic. */
void checkSameEvaluation(const Evaluation& reused, const Evaluation& fresh)
{
    CHECK(reused.scenarioName == fresh.scenarioName);
    CHECK(reused.ok() == fresh.ok());
    CHECK(reused.coupling.iterations == fresh.coupling.iterations);
    CHECK(reused.coupling.residual == fresh.coupling.residual);
    REQUIRE(reused.metrics.size() == fresh.metrics.size());
    for (std::size_t i = 0; i < fresh.metrics.size(); ++i) {
        const Metric& a = reused.metrics[i];
        const Metric& b = fresh.metrics[i];
        INFO(b.key);
        CHECK(a.key == b.key);
        CHECK(a.label == b.label);
        CHECK(a.unit == b.unit);
        CHECK(a.inputs == b.inputs);
        // Bit for bit: the same arithmetic in the same order.
        CHECK(std::memcmp(&a.value, &b.value, sizeof(double)) == 0);
    }
    REQUIRE(reused.diagnostics.size() == fresh.diagnostics.size());
    auto d = fresh.diagnostics.begin();
    for (const auto& item : reused.diagnostics) {
        CHECK(item.toString() == d->toString());
        ++d;
    }
}

} // namespace

TEST_CASE("Evaluating into a reused Evaluation gives exactly the fresh evaluation",
          "[evaluator][reuse]")
{
    // A sweep evaluates variant after variant into one Evaluation; whatever the previous one
    // held (another example, more or fewer metrics, errors), the result must be the same.
    std::vector<ResolvedScenario> scenarios;
    for (const auto& file : test::examples()) {
        auto read = readScenarioFile(file);
        REQUIRE(read.scenario);
        auto r = resolveScenario(*read.scenario, test::catalog(), file.string());
        REQUIRE(r.resolved);
        scenarios.push_back(*r.resolved);
    }
    REQUIRE(!scenarios.empty());
    ResolvedScenario partial = scenarios.front();
    partial.scenario.workload.dataParallel = 7;
    partial.dataParallel = 7;
    scenarios.push_back(partial);
    ResolvedScenario broken = scenarios.front();
    broken.scenario.network.mtuBytes = 3000;
    scenarios.push_back(broken);
    REQUIRE(scenarios.size() >= 3);

    Evaluation reused;
    for (int pass = 0; pass < 2; ++pass)
        for (std::size_t i = 0; i < scenarios.size(); ++i) {
            // Forwards on the first pass, backwards on the second: each follows another.
            const ResolvedScenario& s = scenarios[pass == 0 ? i : scenarios.size() - 1 - i];
            INFO(s.scenario.name << " (pass " << pass << ")");
            evaluate(s, reused);
            checkSameEvaluation(reused, evaluate(s));
        }
    // The broken scenario after a full evaluation leaves no metric of the previous one behind.
    REQUIRE(reused.ok());
    REQUIRE_FALSE(reused.metrics.empty());
    evaluate(broken, reused);
    CHECK_FALSE(reused.ok());
    CHECK(reused.metrics.empty());
}

TEST_CASE("Metric inputs name static lists that compare by content", "[evaluator][metric]")
{
    const MetricInputs a = metricInputs<"/compute/node_count", "/compute/node">();
    const MetricInputs b = metricInputs<"/compute/node_count", "/compute/node">();
    CHECK(a.begin() == b.begin()); // one list per distinct set of pointers
    REQUIRE(a.size() == 2);
    CHECK(a[0] == "/compute/node_count");
    CHECK(a[1] == "/compute/node");
    CHECK(a != metricInputs<"/compute/node">());
    CHECK(MetricInputs().empty());
    CHECK(MetricInputs() == MetricInputs());
}
