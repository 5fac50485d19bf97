// The one evaluation entry for a scenario document (file, stored text, JSON or an edited
// scenario), and the traits every metric declares beside its value.
#include "dct/model/scenarioio.h"
#include "dct/solvers/documentevaluation.h"
#include "dct/solvers/metricsection.h"
#include "testsupport.h"

#include <fstream>
#include <set>
#include <sstream>

using namespace dct;
using namespace dct::solvers;
using nlohmann::json;

namespace {

std::string seedText()
{
    std::ifstream in(test::dataDir() / "examples" / "seed-h100-dallas-d2c.json");
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
}

} // namespace

TEST_CASE("a file, its text, its JSON and its scenario evaluate to the same figures",
          "[evaluator][document]")
{
    const auto path = test::dataDir() / "examples" / "seed-h100-dallas-d2c.json";
    const DocumentEvaluation fromFile = evaluateDocumentFile(path, test::catalog());
    REQUIRE(fromFile.ok());
    CHECK(fromFile.origin == path.string());
    REQUIRE(fromFile.scenario);
    REQUIRE(fromFile.resolved);

    const DocumentEvaluation fromText =
        evaluateDocumentText(seedText(), test::catalog(), "store:seed@1");
    const DocumentEvaluation fromJson =
        evaluateDocument(json::parse(seedText()), test::catalog(), "seed.json");
    const DocumentEvaluation fromScenario =
        evaluateScenario(*fromFile.scenario, test::catalog(), "edited");
    for (const DocumentEvaluation* other : {&fromText, &fromJson, &fromScenario}) {
        REQUIRE(other->ok());
        REQUIRE(other->evaluation->metrics.size() == fromFile.evaluation->metrics.size());
        for (std::size_t i = 0; i < other->evaluation->metrics.size(); ++i) {
            INFO(other->origin << " " << fromFile.evaluation->metrics[i].key);
            CHECK(other->evaluation->metrics[i].value == fromFile.evaluation->metrics[i].value);
        }
    }
}

TEST_CASE("each step that fails is an error naming the document, later steps are not run",
          "[evaluator][document]")
{
    SECTION("unreadable JSON")
    {
        const auto d = evaluateDocumentText("{\"name\": ", test::catalog(), "store:broken@2");
        CHECK_FALSE(d.scenario);
        CHECK_FALSE(d.evaluated());
        CHECK_FALSE(d.ok());
        REQUIRE(d.diagnostics.hasErrors());
        for (const auto& item : d.diagnostics)
            CHECK(item.file == "store:broken@2");
    }
    SECTION("an unknown catalog id is read but not resolved")
    {
        json document = json::parse(seedText());
        document["compute"]["gpu"] = "no-such-gpu";
        const auto d = evaluateDocument(document, test::catalog(), "bad-gpu.json");
        CHECK(d.scenario);
        CHECK_FALSE(d.resolved);
        CHECK_FALSE(d.evaluated());
        REQUIRE(d.diagnostics.hasErrors());
        CHECK(d.diagnostics.items().front().path == "/compute/gpu");
        CHECK(d.diagnostics.items().front().file == "bad-gpu.json");
    }
    SECTION("a file that is not there")
    {
        const auto d = evaluateDocumentFile("/nonexistent/scenario.json", test::catalog());
        CHECK_FALSE(d.evaluated());
        REQUIRE(d.diagnostics.hasErrors());
        CHECK(d.diagnostics.items().front().file == "/nonexistent/scenario.json");
    }
}

TEST_CASE("every metric declares its direction and the headline figures come in rank order",
          "[evaluator][metric]")
{
    const auto d = evaluateDocumentText(seedText(), test::catalog(), "seed");
    REQUIRE(d.ok());
    const Evaluation& e = *d.evaluation;
    auto better = [&](const char* key) {
        const Metric* m = e.metric(key);
        REQUIRE(m);
        return m->traits.better;
    };
    // Money, time, power and PUE: less is better; bandwidth, MFU and clocks: more is better;
    // sizes and counts are neither (a smaller cluster is not a better one).
    CHECK(better("cost.tco_usd_per_year") == Better::Lower);
    CHECK(better("compute.training_days") == Better::Lower);
    CHECK(better("cooling.pue") == Better::Lower);
    CHECK(better("power.facility_kw") == Better::Lower);
    CHECK(better("collectives.gradient_allreduce_busbw_gbyte_per_s") == Better::Higher);
    CHECK(better("compute.effective_mfu") == Better::Higher);
    CHECK(better("cooling.free_cooling_hours") == Better::Higher);
    CHECK(better("compute.gpus") == Better::Neither);
    CHECK(better("power.nodes_per_rack") == Better::Neither);
    CHECK(better("network.switches") == Better::Neither);

    const auto headlines = e.headlines();
    REQUIRE(headlines.size() >= 10);
    CHECK(headlines.front()->key == "compute.gpus");
    std::set<int> ranks;
    for (std::size_t i = 0; i < headlines.size(); ++i) {
        ranks.insert(headlines[i]->traits.headlineRank);
        if (i > 0)
            CHECK(headlines[i - 1]->traits.headlineRank < headlines[i]->traits.headlineRank);
    }
    CHECK(ranks.size() == headlines.size()); // no two headlines share a place

    // Every metric belongs to a registered section.
    for (const auto& m : e.metrics) {
        INFO(m.key);
        CHECK(metricSectionTitle(m.section()) != m.section());
    }
}
