// The check after every evaluation: a figure that is NaN or infinite becomes an error naming the
// inputs it depends on, so that the evaluation is not "ok".
#include "dct/model/scenarioio.h"
#include "dct/solvers/finitecheck.h"
#include "finitesupport.h"

#include <limits>

using namespace dct;
using namespace dct::solvers;

TEST_CASE("finite figures pass the check untouched", "[finite][check]")
{
    Evaluation e;
    e.add("compute.days", "Days", 12.5, "days", Better::Lower,
          metricInputs<"/workload/tokens_billion">());
    e.add("power.it_kw", "IT power", 0.0, "kW", Better::Lower);
    CHECK(checkFiniteMetrics(e) == 0);
    CHECK(e.diagnostics.empty());
    CHECK(e.ok());
}

TEST_CASE("a NaN or infinite figure is an error naming its inputs", "[finite][check]")
{
    const double inf = std::numeric_limits<double>::infinity();
    Evaluation e;
    e.add("compute.days", "Training time", inf, "days", Better::Lower,
          metricInputs<"/workload/tokens_billion", "/workload/mfu">());
    e.add("compute.ok", "Fine", 3.0, "", Better::Neither, metricInputs<"/workload/mfu">());
    e.add("compute.tokens_per_second", "Throughput", -inf, "tokens/s", Better::Higher,
          metricInputs<"/workload/tokens_billion", "/workload/mfu">());
    e.add("cost.yearly_usd", "Yearly cost", std::numeric_limits<double>::quiet_NaN(), "USD",
          Better::Lower, metricInputs<"/economics/amortization_years">());
    e.add("cost.other", "Other", inf, "USD", Better::Lower);

    CHECK(checkFiniteMetrics(e) == 4);
    CHECK_FALSE(e.ok());
    // One error per list of inputs, at its first input, naming all of them.
    REQUIRE(e.diagnostics.size() == 3);
    const Diagnostic& training = e.diagnostics.items()[0];
    CHECK(training.severity == Severity::Error);
    CHECK(training.code == "non-finite");
    CHECK(training.path == "/workload/tokens_billion");
    CHECK(training.message == "no finite figure: compute.days (Training time) is +infinity, "
                              "compute.tokens_per_second (Throughput) is -infinity");
    CHECK_THAT(training.hint, Catch::Contains("/workload/tokens_billion, /workload/mfu"));
    CHECK(e.diagnostics.items()[1].path == "/economics/amortization_years");
    CHECK_THAT(e.diagnostics.items()[1].message, Catch::Contains("cost.yearly_usd"));
    CHECK_THAT(e.diagnostics.items()[1].message, Catch::Contains("is NaN"));
    CHECK(e.diagnostics.items()[2].path.empty());
    CHECK_THAT(e.diagnostics.items()[2].message, Catch::Contains("cost.other"));
}

TEST_CASE("an edited scenario past the reader's ranges evaluates to an error, not to infinity",
          "[finite][document]")
{
    // The desktop evaluates its edited scenario without reading it again: an mfu of 5e-324
    // (the reproducer) reaches the solvers and every training figure is infinite.
    auto read = model::readScenarioFile(test::dataDir() / "examples" / "seed-h100-dallas-d2c.json");
    REQUIRE(read.scenario);
    model::Scenario scenario = *read.scenario;
    scenario.workload.mfu = 5e-324;
    const DocumentEvaluation d = evaluateScenario(scenario, test::catalog(), "edited");
    REQUIRE(d.evaluated());
    CHECK_FALSE(test::nonFiniteMetrics(d).empty());
    CHECK_FALSE(d.ok());
    CHECK_FALSE(d.evaluation->ok());
    CHECK(d.diagnostics.hasCode("non-finite"));
    CHECK(test::errorNames(d.diagnostics, "/workload/mfu"));
    for (const auto& diagnostic : d.diagnostics)
        if (diagnostic.code == "non-finite")
            CHECK(diagnostic.file == "edited");
}
