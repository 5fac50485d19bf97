#include "dct/model/scenario.h"
#include "dct/model/schema.h"
#include "testsupport.h"

#include <fstream>

using namespace dct::model;
using nlohmann::json;

TEST_CASE("The committed JSON Schema matches the parser's field tables", "[model][schema]")
{
    std::ifstream in(dct::test::dataDir() / "schema" / "scenario.schema.json");
    REQUIRE(in);
    const json committed = json::parse(in);
    // Regenerate with: dctwin-cli schema > data/schema/scenario.schema.json
    CHECK(committed == scenarioJsonSchema());
}

TEST_CASE("The schema lists every field with its range", "[model][schema]")
{
    const json schema = scenarioJsonSchema();
    const json& compute = schema["properties"]["compute"];
    CHECK(compute["additionalProperties"] == false);
    CHECK(compute["properties"]["node_count"]["type"] == "integer");
    CHECK(compute["properties"]["node_count"]["minimum"] == 1.0);
    CHECK(compute["properties"]["node"]["x-catalog-kind"] == "node");
    const json& network = schema["properties"]["network"]["properties"];
    CHECK(network["protocol"]["enum"] == json::array({"roce_v2", "infiniband"}));
    CHECK(schema["properties"]["workload"]["properties"].size() ==
          WorkloadSection::fields().size());
}
