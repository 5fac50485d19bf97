#include "dct/model/catalog.h"
#include "dct/model/jsonread.h"
#include "dct/model/scenarioio.h"
#include "testsupport.h"

#include <fstream>
#include <sstream>

using namespace dct;
using namespace dct::model;
using nlohmann::json;

namespace {

/** Returns \a levels nested arrays, "[[[...]]]". */
std::string nestedArrays(std::size_t levels)
{
    return std::string(levels, '[') + std::string(levels, ']');
}

/** Returns \a levels nested objects, {"a":{"a":...{}}}. */
std::string nestedObjects(std::size_t levels)
{
    std::string text;
    text.reserve(levels * 6 + 2);
    for (std::size_t i = 0; i < levels; ++i)
        text += "{\"a\":";
    text += "{}";
    text += std::string(levels, '}');
    return text;
}

/** Returns "/0/0/..." (\a count times), the JSON pointer into nested arrays. */
std::string zeros(std::size_t count)
{
    std::string pointer;
    for (std::size_t i = 0; i < count; ++i)
        pointer += "/0";
    return pointer;
}

std::string seedText()
{
    std::ifstream in(test::dataDir() / "examples" / "seed-h100-dallas-d2c.json");
    std::ostringstream buffer;
    buffer << in.rdbuf();
    return buffer.str();
}

/** Returns the seed scenario with \a value (raw JSON text) in place of compute.node_count. */
std::string seedWithNodeCount(const std::string& value)
{
    std::string text = seedText();
    const std::string key = "\"node_count\":";
    const auto at = text.find(key);
    REQUIRE(at != std::string::npos);
    const auto end = text.find_first_of(",\n}", at + key.size());
    return text.substr(0, at + key.size()) + " " + value + text.substr(end);
}

} // namespace

TEST_CASE("The JSON reader reads what nlohmann reads", "[model][json]")
{
    const std::string text = seedText();
    const auto parsed = parseJson(text, "seed.json", "a scenario");
    REQUIRE(parsed);
    CHECK(*parsed == json::parse(text));
    const auto scalar = parseJson(" 12.5 ", "x", "");
    REQUIRE(scalar);
    CHECK(*scalar == 12.5);
}

TEST_CASE("The JSON reader refuses nesting deeper than its limit at the JSON pointer",
          "[model][json][depth]")
{
    SECTION("at the limit it reads")
    {
        CHECK(parseJson(nestedArrays(jsonDepthLimit), "deep.json", ""));
        CHECK(parseJson(nestedObjects(jsonDepthLimit - 1), "deep.json", ""));
    }
    SECTION("one level more is an error naming file, pointer and limit")
    {
        const auto parsed = parseJson(nestedArrays(jsonDepthLimit + 1), "deep.json", "");
        REQUIRE_FALSE(parsed);
        const Error& e = parsed.error().error;
        CHECK(parsed.error().code == "json-depth");
        CHECK(e.file == "deep.json");
        CHECK(e.path == zeros(jsonDepthLimit));
        CHECK_THAT(e.message, Catch::Contains("128 levels"));
        CHECK_THAT(e.accepted, Catch::Contains("at most 128 levels"));
    }
    SECTION("100,000 nested arrays and objects fail without exhausting the stack")
    {
        const auto arrays = parseJson(nestedArrays(100000), "deep.json", "");
        REQUIRE_FALSE(arrays);
        CHECK(arrays.error().code == "json-depth");
        const auto objects = parseJson(nestedObjects(100000), "deep.json", "");
        REQUIRE_FALSE(objects);
        CHECK(objects.error().code == "json-depth");
        CHECK_THAT(objects.error().error.path, Catch::StartsWith("/a/a/a/"));
    }
}

TEST_CASE("The JSON reader refuses a duplicate key naming both positions", "[model][json][dup]")
{
    const std::string text = "{\n  \"compute\": {\n    \"node_count\": 32,\n"
                             "    \"gpu\": \"h100-sxm\", \"node_count\": 64\n  }\n}\n";
    const auto parsed = parseJson(text, "dup.json", "");
    REQUIRE_FALSE(parsed);
    const Error& e = parsed.error().error;
    CHECK(parsed.error().code == "duplicate-key");
    CHECK(e.file == "dup.json");
    CHECK(e.path == "/compute/node_count");
    CHECK(e.message ==
          "duplicate key 'node_count': first at line 3, column 5, again at line 4, column 24");
    CHECK_THAT(e.toString(), Catch::StartsWith("dup.json: /compute/node_count: duplicate key"));

    SECTION("a key with escaped quotes and a slash")
    {
        const auto again = parseJson(R"({"a\"/b": 1, "a\"/b": 2})", "dup.json", "");
        REQUIRE_FALSE(again);
        CHECK(again.error().error.path == "/a\"~1b");
        CHECK_THAT(again.error().error.message,
                   Catch::Contains("line 1, column 2,") && Catch::Contains("line 1, column 14"));
    }
    SECTION("the same key in two objects is fine")
    {
        CHECK(parseJson(R"({"a": {"x": 1}, "b": {"x": 2}, "c": [{"x": 1}, {"x": 2}]})", "", ""));
    }
}

TEST_CASE("The JSON reader reports a number too large for a double at its field",
          "[model][json][number]")
{
    for (const char* number : {"1e309", "-1e309", "1e400"}) {
        INFO(number);
        const auto parsed = parseJson(
            std::string(R"({"compute": {"items": [1, 2, )") + number + "]}}", "big.json", "");
        REQUIRE_FALSE(parsed);
        CHECK(parsed.error().code == "number-range");
        CHECK(parsed.error().error.path == "/compute/items/2");
        CHECK_THAT(parsed.error().error.message,
                   Catch::Contains(number) && Catch::Contains("too large for a double"));
    }
    // The largest double still reads.
    CHECK(parseJson("[1.7976931348623157e308]", "", ""));
}

TEST_CASE("The JSON reader keeps syntax errors as before, with the pointer reached",
          "[model][json][syntax]")
{
    const auto parsed = parseJson("{\"compute\": {\"node_count\": 3x}}", "bad.json", "an object");
    REQUIRE_FALSE(parsed);
    CHECK(parsed.error().code == "json-syntax");
    CHECK(parsed.error().error.path == "/compute/node_count");
    CHECK_THAT(parsed.error().error.message,
               Catch::StartsWith("not valid JSON: parse error at line 1"));
    CHECK(parsed.error().error.accepted == "an object");
    CHECK_FALSE(parseJson("", "empty.json", ""));
    CHECK_FALSE(parseJson("{} {}", "two.json", ""));
}

TEST_CASE("Scenario reading reports depth, duplicates and overflow with file and pointer",
          "[model][json][scenario]")
{
    SECTION("100,000 nested arrays as the document")
    {
        const auto read = readScenarioText(nestedArrays(100000), "deep.json");
        REQUIRE(read.diagnostics.hasErrors());
        const Diagnostic& d = read.diagnostics.items().front();
        CHECK(d.code == "json-depth");
        CHECK(d.file == "deep.json");
        CHECK(d.path == zeros(jsonDepthLimit));
    }
    SECTION("100,000 nested objects in a field")
    {
        const auto read = readScenarioText(seedWithNodeCount(nestedObjects(100000)), "deep.json");
        REQUIRE(read.diagnostics.hasErrors());
        const Diagnostic& d = read.diagnostics.items().front();
        CHECK(d.code == "json-depth");
        CHECK_THAT(d.path, Catch::StartsWith("/compute/node_count/a/a/"));
        CHECK_THAT(d.toString(), Catch::StartsWith("deep.json: error: /compute/node_count/a/a"));
    }
    SECTION("a duplicate key")
    {
        std::string text = seedText();
        text.insert(text.find('{') + 1, "\n  \"site\": \"dallas\",");
        const auto read = readScenarioText(text, "dup.json");
        REQUIRE(read.diagnostics.hasErrors());
        const Diagnostic& d = read.diagnostics.items().front();
        CHECK(d.code == "duplicate-key");
        CHECK(d.path == "/site");
        CHECK_THAT(d.message, Catch::Contains("first at line 2, column 3"));
    }
    SECTION("1e309 in a field")
    {
        const auto read = readScenarioText(seedWithNodeCount("1e309"), "big.json");
        REQUIRE(read.diagnostics.hasErrors());
        const Diagnostic& d = read.diagnostics.items().front();
        CHECK(d.code == "number-range");
        CHECK(d.path == "/compute/node_count");
        CHECK(d.file == "big.json");
    }
}

TEST_CASE("The catalog loader refuses deep nesting, duplicate keys and overflowing numbers",
          "[model][json][catalog]")
{
    const auto folder = std::filesystem::temp_directory_path() / "dct-jsonread-catalog";
    std::filesystem::remove_all(folder);
    std::filesystem::copy(test::dataDir() / "catalog", folder);
    const auto gpus = folder / "gpus.json";
    std::string original;
    {
        std::ifstream in(gpus);
        std::ostringstream buffer;
        buffer << in.rdbuf();
        original = buffer.str();
    }
    const auto rewrite = [&](const std::string& text) { std::ofstream(gpus) << text; };
    const auto at = original.find("\"entries\"");
    REQUIRE(at != std::string::npos);

    SECTION("100,000 nested arrays in an entry")
    {
        rewrite(original.substr(0, at) + "\"deep\": " + nestedArrays(100000) + ", " +
                original.substr(at));
        const auto loaded = Catalog::load(folder);
        REQUIRE_FALSE(loaded);
        CHECK(loaded.error().file == gpus.string());
        CHECK_THAT(loaded.error().path, Catch::StartsWith("/deep/0/0/"));
        CHECK_THAT(loaded.error().message, Catch::Contains("nested deeper than 128"));
    }
    SECTION("a duplicate key")
    {
        rewrite(original.substr(0, at) + "\"entries\": [], " + original.substr(at));
        const auto loaded = Catalog::load(folder);
        REQUIRE_FALSE(loaded);
        CHECK(loaded.error().path == "/entries");
        CHECK_THAT(loaded.error().message, Catch::Contains("duplicate key 'entries'"));
    }
    SECTION("1e309 as a number")
    {
        rewrite(original.substr(0, at) + "\"big\": -1e309, " + original.substr(at));
        const auto loaded = Catalog::load(folder);
        REQUIRE_FALSE(loaded);
        CHECK(loaded.error().path == "/big");
        CHECK_THAT(loaded.error().toString(),
                   Catch::Contains(gpus.string()) && Catch::Contains("too large for a double"));
    }
    std::filesystem::remove_all(folder);
}
