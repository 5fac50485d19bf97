// Sweeps and figures that are not finite numbers: a variant whose evaluation gives NaN or
// infinity is a failed row naming the input, never an "ok" row printing inf, nan or null; and
// axis values outside a field's physical range are refused before the sweep runs.
#include "dct/model/resolver.h"
#include "dct/model/scenarioio.h"
#include "dct/study/sweeprunner.h"
#include "dct/study/sweepspec.h"
#include "testsupport.h"

#include <limits>
#include <sstream>

using namespace dct;
using namespace dct::study;
using nlohmann::json;

namespace {

const std::string seedPath = (test::dataDir() / "examples" / "seed-h100-dallas-d2c.json").string();

model::Scenario seedScenario()
{
    auto read = model::readScenarioFile(seedPath);
    REQUIRE(read.scenario);
    return *read.scenario;
}

model::ResolvedScenario resolve(const model::Scenario& scenario)
{
    auto resolved = model::resolveScenario(scenario, test::catalog());
    REQUIRE(resolved.resolved);
    return *resolved.resolved;
}

SweepSpec specOf(const json& j)
{
    auto spec = parseSweepSpec(j, "spec.json");
    if (!spec)
        FAIL(spec.error().toString());
    return *spec;
}

std::string run(const SweepRunner& runner, SweepFormat format, SweepSummary& summary)
{
    SweepRunOptions options;
    options.threads = 2;
    std::ostringstream out;
    summary = runner.run(options, format, out);
    return out.str();
}

/** Returns true when a row of \a text (CSV with a header, or JSON lines) holds a value that
 *  is not a finite number: inf, nan (either sign) or null. */
bool printsNonFinite(const std::string& text, SweepFormat format)
{
    std::istringstream lines(text);
    std::string line;
    if (format == SweepFormat::Csv)
        std::getline(lines, line); // the header
    while (std::getline(lines, line)) {
        if (format == SweepFormat::Jsonl) {
            const json row = json::parse(line, nullptr, false);
            if (row.is_discarded())
                return true; // inf and nan are not JSON
            for (const auto& [key, value] : row["metrics"].items())
                if (!value.is_number())
                    return true;
            continue;
        }
        std::istringstream cells(line);
        std::string cell;
        while (std::getline(cells, cell, ','))
            if (cell == "inf" || cell == "-inf" || cell == "nan" || cell == "-nan" ||
                cell == "null") // whole cells: the verdict "infeasible" is text, not a number
                return true;
    }
    return false;
}

} // namespace

TEST_CASE("sweep variants with a non-finite figure are failed rows naming the input",
          "[sweep][finite]")
{
    // An mfu of 5e-324 reaches the solvers only past the reader (its range starts at 0.01),
    // e.g. from a scenario edited in memory: every training figure is then infinite.
    model::Scenario scenario = seedScenario();
    scenario.workload.mfu = 5e-324;
    const model::ResolvedScenario base = resolve(scenario);
    const SweepSpec spec = specOf(
        {{"base", seedPath}, {"axes", {{{"field", "/compute/node_count"}, {"values", {16, 32}}}}}});
    auto runner = SweepRunner::create(spec, base);
    REQUIRE(runner);

    SweepSummary summary;
    const std::string csv = run(*runner, SweepFormat::Csv, summary);
    CHECK(summary.variants == 2);
    CHECK(summary.failed == 2);
    CHECK_FALSE(printsNonFinite(csv, SweepFormat::Csv));
    CHECK(csv.find("\n0,16,0,") != std::string::npos);

    const std::string jsonl = run(*runner, SweepFormat::Jsonl, summary);
    CHECK_FALSE(printsNonFinite(jsonl, SweepFormat::Jsonl));
    CHECK(jsonl.find("\"ok\":false") != std::string::npos);
    CHECK(jsonl.find("/workload/") != std::string::npos);
    CHECK(jsonl.find("no finite figure") != std::string::npos);
}

TEST_CASE("a NaN figure from a custom sweep evaluator fails only its own row", "[sweep][finite]")
{
    const SweepSpec spec = specOf(
        {{"base", seedPath}, {"axes", {{{"field", "/compute/node_count"}, {"values", {16, 32}}}}}});
    auto evaluator = [](const model::ResolvedScenario& r) {
        solvers::Evaluation e;
        const double nodes = r.scenario.compute.nodeCount;
        e.add("cost.usd", "Cost", nodes * 10.0, "USD", solvers::Better::Lower,
              solvers::metricInputs<"/compute/node_count">());
        e.add("compute.days", "Days",
              nodes == 16 ? std::numeric_limits<double>::quiet_NaN() : 1000.0 / nodes, "days",
              solvers::Better::Lower, solvers::metricInputs<"/compute/node_count">());
        return e;
    };
    auto runner = SweepRunner::create(spec, resolve(seedScenario()), evaluator);
    REQUIRE(runner);
    SweepSummary summary;
    const std::string csv = run(*runner, SweepFormat::Csv, summary);
    CHECK(summary.failed == 1);
    CHECK_FALSE(printsNonFinite(csv, SweepFormat::Csv));
    CHECK(csv.find("\n0,16,0,infeasible,,\n") != std::string::npos);
    CHECK(csv.find("\n1,32,1,feasible,320,31.25\n") != std::string::npos);

    const std::string jsonl = run(*runner, SweepFormat::Jsonl, summary);
    CHECK_FALSE(printsNonFinite(jsonl, SweepFormat::Jsonl));
    CHECK(jsonl.find("\"error\":\"/compute/node_count: no finite figure: compute.days (Days) is "
                     "NaN\"") != std::string::npos);
}

TEST_CASE("sweep axes outside a field's physical range are refused, naming the value",
          "[sweep][finite]")
{
    SECTION("a NIC rate near zero (issue reproducer: rate_gbps 1e-310)")
    {
        const SweepSpec spec =
            specOf({{"base", seedPath},
                    {"axes", {{{"field", "/network/nic/rate_gbps"}, {"values", {100, 1e-310}}}}}});
        auto runner = SweepRunner::create(spec, seedScenario(), test::catalog());
        REQUIRE_FALSE(runner);
        CHECK(runner.error().path == "/axes/0/values/1");
        CHECK_THAT(runner.error().accepted, Catch::Contains("a number >= 1 and <= 100000 (Gb/s)"));
    }
    SECTION("an mfu of 5e-324")
    {
        const SweepSpec spec = specOf(
            {{"base", seedPath}, {"axes", {{{"field", "/workload/mfu"}, {"values", {5e-324}}}}}});
        auto runner = SweepRunner::create(spec, seedScenario(), test::catalog());
        REQUIRE_FALSE(runner);
        CHECK_THAT(runner.error().accepted, Catch::Contains(">= 0.01"));
    }
    SECTION("a peak of 0 means the GPU lacks the precision, and is accepted")
    {
        const SweepSpec spec = specOf(
            {{"base", seedPath},
             {"axes", {{{"field", "/compute/gpu/peak_tflops_fp8"}, {"values", {0, 1979}}}}}});
        auto runner = SweepRunner::create(spec, seedScenario(), test::catalog());
        REQUIRE(runner);
        CHECK(runner->variantCount() == 2);
    }
}
