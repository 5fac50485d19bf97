#include "dct/model/scenarioio.h"
#include "testsupport.h"

#include <fstream>

using namespace dct;
using namespace dct::model;
using nlohmann::json;

namespace {

json minimalScenario()
{
    return json::parse(R"({
        "schema_version": 2,
        "name": "minimal",
        "site": "dallas",
        "compute": {"node": "dgx-h100", "node_count": 4},
        "network": {"switch": "qm9700", "protocol": "infiniband"},
        "cooling": {"system": "d2c-rdhx"}
    })");
}

/** Returns the first error diagnostic, failing the test when there is none. */
Diagnostic firstError(const ScenarioReadResult& r)
{
    for (const auto& d : r.diagnostics)
        if (d.severity == Severity::Error)
            return d;
    FAIL("expected an error diagnostic");
    return {};
}

} // namespace

TEST_CASE("A minimal scenario reads with defaults filled in", "[model][io]")
{
    auto r = readScenario(minimalScenario(), "minimal.json");
    REQUIRE_FALSE(r.diagnostics.hasErrors());
    REQUIRE(r.scenario);
    CHECK(r.scenario->compute.nodeCount == 4);
    CHECK(r.scenario->compute.node.id == "dgx-h100");
    CHECK(r.scenario->network.protocol == Protocol::Infiniband);
    CHECK(r.scenario->workload.mfu == 0.0); // 0: predicted by the step model
    CHECK(r.scenario->present.count("/compute/node_count") == 1);
    CHECK(r.scenario->present.count("/workload/mfu") == 0);
}

TEST_CASE("Truncated JSON is an error naming the file", "[model][io][bad-input]")
{
    const std::string text = minimalScenario().dump().substr(0, 60);
    auto r = readScenarioText(text, "broken.json");
    REQUIRE_FALSE(r.scenario);
    const Diagnostic d = firstError(r);
    CHECK(d.file == "broken.json");
    CHECK(d.code == "json-syntax");
    CHECK_THAT(d.toString(), Catch::Contains("broken.json") && Catch::Contains("not valid JSON"));
}

TEST_CASE("A wrong type is an error at its JSON path saying what is accepted",
          "[model][io][bad-input]")
{
    json j = minimalScenario();
    j["compute"]["node_count"] = "four";
    auto r = readScenario(j, "s.json");
    const Diagnostic d = firstError(r);
    CHECK(d.path == "/compute/node_count");
    CHECK_THAT(d.hint, Catch::Contains("an integer") && Catch::Contains("a string"));
}

TEST_CASE("A negative count is an out-of-range error", "[model][io][bad-input]")
{
    json j = minimalScenario();
    j["compute"]["node_count"] = -3;
    auto r = readScenario(j, "s.json");
    const Diagnostic d = firstError(r);
    CHECK(d.path == "/compute/node_count");
    CHECK(d.code == "range");
    CHECK_THAT(d.hint, Catch::Contains(">= 1"));
}

TEST_CASE("A fraction above one is an out-of-range error", "[model][io][bad-input]")
{
    json j = minimalScenario();
    j["workload"] = {{"mfu", 1.5}};
    auto r = readScenario(j, "s.json");
    const Diagnostic d = firstError(r);
    CHECK(d.path == "/workload/mfu");
    CHECK_THAT(d.hint, Catch::Contains("<= 1"));
}

TEST_CASE("Unknown keys are errors listing the accepted keys", "[model][io][bad-input]")
{
    SECTION("inside a section")
    {
        json j = minimalScenario();
        j["compute"]["nodes"] = 4;
        const Diagnostic d = firstError(readScenario(j, "s.json"));
        CHECK(d.path == "/compute/nodes");
        CHECK(d.code == "unknown-key");
        CHECK_THAT(d.hint, Catch::Contains("node_count"));
    }
    SECTION("at the top level")
    {
        json j = minimalScenario();
        j["colling"] = json::object();
        const Diagnostic d = firstError(readScenario(j, "s.json"));
        CHECK(d.path == "/colling");
        CHECK_THAT(d.hint, Catch::Contains("cooling"));
    }
}

TEST_CASE("A missing required section or key is an error", "[model][io][bad-input]")
{
    json j = minimalScenario();
    j.erase("network");
    CHECK(firstError(readScenario(j)).path == "/network");
    j = minimalScenario();
    j["compute"].erase("node");
    CHECK(firstError(readScenario(j)).path == "/compute/node");
}

TEST_CASE("An enumeration value outside its choices lists them", "[model][io][bad-input]")
{
    json j = minimalScenario();
    j["network"]["protocol"] = "ethernet";
    const Diagnostic d = firstError(readScenario(j));
    CHECK(d.path == "/network/protocol");
    CHECK_THAT(d.hint, Catch::Contains("'roce_v2'") && Catch::Contains("'infiniband'"));
}

TEST_CASE("Schema versions: missing, future and non-integer are errors", "[model][io][bad-input]")
{
    json j = minimalScenario();
    j.erase("schema_version");
    CHECK(firstError(readScenario(j)).path == "/schema_version");
    j["schema_version"] = 99;
    CHECK_THAT(firstError(readScenario(j)).message, Catch::Contains("newer"));
    j["schema_version"] = "2";
    CHECK(firstError(readScenario(j)).path == "/schema_version");
    CHECK(firstError(readScenario(json::array())).path.empty());
}

TEST_CASE("Schema version 1 files migrate to version 2", "[model][io][migration]")
{
    json j = minimalScenario();
    j["schema_version"] = 1;
    j["cooling"] = {{"type", "air"}};
    j["workload"] = {{"parameters", 7.0e10}, {"tokens", 1.0e12}};
    auto r = readScenario(j, "old.json");
    REQUIRE_FALSE(r.diagnostics.hasErrors());
    CHECK(r.migratedFrom == 1);
    CHECK(r.diagnostics.hasCode("migrated"));
    CHECK(r.scenario->cooling.system.id == "crac-air");
    CHECK(r.scenario->workload.parametersBillion == Approx(70.0));
    CHECK(r.scenario->workload.tokensBillion == Approx(1000.0));
    CHECK(writeScenario(*r.scenario)["schema_version"] == Scenario::currentSchemaVersion);
}

TEST_CASE("Catalog references accept an id or an object with overrides", "[model][io]")
{
    json j = minimalScenario();
    j["compute"]["gpu"] = {{"id", "h100-sxm5"}, {"tdp_w", 650}};
    auto r = readScenario(j);
    REQUIRE_FALSE(r.diagnostics.hasErrors());
    CHECK(r.scenario->compute.gpu.id == "h100-sxm5");
    CHECK(r.scenario->compute.gpu.overrides["tdp_w"] == 650);
    j["compute"]["gpu"] = {{"tdp_w", 650}};
    CHECK(firstError(readScenario(j)).path == "/compute/gpu");
}

TEST_CASE("Several problems are all reported at once", "[model][io][bad-input]")
{
    json j = minimalScenario();
    j["compute"]["node_count"] = 0;
    j["network"]["planes"] = "two";
    j["workload"] = {{"precison", "bf16"}};
    auto r = readScenario(j);
    CHECK(r.diagnostics.count(Severity::Error) == 3);
}

TEST_CASE("Every example survives a read, write, read round trip", "[model][io][examples]")
{
    const auto files = test::examples();
    REQUIRE(files.size() >= 4);
    for (const auto& file : files) {
        INFO(file.string());
        auto first = readScenarioFile(file);
        REQUIRE_FALSE(first.diagnostics.hasErrors());
        const json written = writeScenario(*first.scenario);
        auto second = readScenario(written, file.string());
        REQUIRE_FALSE(second.diagnostics.hasErrors());
        CHECK(writeScenario(*second.scenario) == written);
        CHECK(second.scenario->compute.nodeCount == first.scenario->compute.nodeCount);
        CHECK(second.scenario->network.fabricSwitch == first.scenario->network.fabricSwitch);
    }
}

TEST_CASE("A missing file and a folder are errors naming the path", "[model][io][bad-input]")
{
    auto r = readScenarioFile("/nonexistent/dir/x.json");
    REQUIRE(r.diagnostics.hasErrors());
    CHECK(r.diagnostics.items().front().file == "/nonexistent/dir/x.json");
    auto d = readScenarioFile(test::dataDir());
    CHECK_THAT(d.diagnostics.items().front().message, Catch::Contains("directory"));
}
