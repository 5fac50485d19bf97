// Physical ranges of the field tables: values the schema once accepted as "> 0" but that no
// real cluster has (and that gave infinite or NaN figures) are refused where they are read,
// naming the field; the bundled examples and catalog entries stay inside the ranges.
#include "dct/model/resolver.h"
#include "dct/model/scenarioio.h"
#include "dct/model/schema.h"
#include "testsupport.h"

#include <fstream>

using namespace dct;
using namespace dct::model;
using nlohmann::json;

namespace {

json seedDocument()
{
    std::ifstream in(test::dataDir() / "examples" / "seed-h100-dallas-d2c.json");
    return json::parse(in);
}

/** Returns the first error of reading, then resolving, \a document. */
Diagnostic firstError(const json& document)
{
    auto read = readScenario(document, "s.json");
    Diagnostics all = read.diagnostics;
    if (read.scenario && !read.diagnostics.hasErrors())
        all.append(resolveScenario(*read.scenario, test::catalog(), "s.json").diagnostics);
    for (const auto& d : all)
        if (d.severity == Severity::Error)
            return d;
    return {Severity::Note, "", "no error", "", "", ""};
}

/** Checks that \a value at \a section / \a key is refused with \a accepted in the hint. */
void checkRefused(const std::string& section, const std::string& key, double value,
                  const std::string& accepted)
{
    json document = seedDocument();
    document[section][key] = value;
    const Diagnostic d = firstError(document);
    INFO(d.toString());
    CHECK(d.severity == Severity::Error);
    CHECK(d.path == "/" + section + "/" + key);
    CHECK(d.code == "range");
    CHECK_THAT(d.hint, Catch::Contains(accepted));
}

/** Checks that overriding \a key of the catalog entry at \a section / \a reference is refused. */
void checkOverrideRefused(const std::string& section, const std::string& reference,
                          const std::string& id, const std::string& key, double value,
                          const std::string& accepted)
{
    json document = seedDocument();
    document[section][reference] = {{"id", id}, {key, value}};
    const Diagnostic d = firstError(document);
    INFO(d.toString());
    CHECK(d.severity == Severity::Error);
    CHECK(d.path == "/" + section + "/" + reference + "/" + key);
    CHECK(d.code == "range");
    CHECK_THAT(d.hint, Catch::Contains(accepted));
}

} // namespace

TEST_CASE("issue reproducer: mfu 5e-324 is refused by its range", "[model][ranges]")
{
    checkRefused("workload", "mfu", 5e-324, "a number >= 0.01 and <= 1");
}

TEST_CASE("issue reproducer: design_load_fraction 1e-200 is refused", "[model][ranges]")
{
    checkRefused("facility", "design_load_fraction", 1e-200, "a number >= 0.1 and <= 1");
}

TEST_CASE("issue reproducer: amortization_years near zero is refused", "[model][ranges]")
{
    checkRefused("economics", "amortization_years", 1e-300, "a number >= 0.5 and <= 50 (years)");
}

TEST_CASE("issue reproducer: storage bandwidths and IOPS near zero are refused", "[model][ranges]")
{
    checkRefused("storage", "read_gbyte_per_s", 1e-310, ">= 0.1");
    checkRefused("storage", "write_gbyte_per_s", 1e-310, ">= 0.1");
    checkRefused("storage", "read_iops", 1e-310, "a number >= 100");
}

TEST_CASE("issue reproducer: checkpoint interval near zero is refused", "[model][ranges]")
{
    checkRefused("workload", "checkpoint_interval_hours", 1e-310, "a number >= 0.01");
}

TEST_CASE("issue reproducer: catalog overrides peak_tflops_bf16 and port_gbps 1e-310 are refused",
          "[model][ranges]")
{
    checkOverrideRefused("compute", "gpu", "h100-sxm5", "peak_tflops_bf16", 1e-310,
                         "0 or a number >= 0.1 and <= 100000 (TFLOP/s)");
    checkOverrideRefused("economics", "unmetered_port", "port-10g", "port_gbps", 1e-310,
                         "a number >= 0.1");
    checkOverrideRefused("network", "nic", "connectx-6dx-100g", "rate_gbps", 1e-310,
                         "a number >= 1 and <= 100000 (Gb/s)");
    checkOverrideRefused("network", "switch", "sn2700", "port_rate_gbps", 1e-310, "a number >= 1");
}

TEST_CASE("a peak of 0 says the GPU lacks the precision and is accepted", "[model][ranges]")
{
    json document = seedDocument();
    document["compute"]["gpu"] = {{"id", "h100-sxm5"}, {"peak_tflops_fp8", 0}};
    auto read = readScenario(document, "s.json");
    REQUIRE(read.scenario);
    const auto resolved = resolveScenario(*read.scenario, test::catalog(), "s.json");
    CHECK_FALSE(resolved.diagnostics.hasErrors());
    REQUIRE(resolved.resolved);
    CHECK(resolved.resolved->gpu.peakTflopsFp8 == 0.0);
    // Negative values stay refused.
    document["compute"]["gpu"]["peak_tflops_fp8"] = -1;
    CHECK(firstError(document).path == "/compute/gpu/peak_tflops_fp8");
}

TEST_CASE("every bundled example reads and resolves inside the ranges", "[model][ranges]")
{
    const auto files = test::examples();
    REQUIRE(files.size() >= 5);
    for (const auto& file : files) {
        INFO(file.string());
        auto read = readScenarioFile(file);
        for (const auto& d : read.diagnostics)
            INFO(d.toString());
        REQUIRE(read.scenario);
        CHECK_FALSE(read.diagnostics.hasErrors());
        const auto resolved = resolveScenario(*read.scenario, test::catalog(), file.string());
        for (const auto& d : resolved.diagnostics)
            if (d.severity == Severity::Error)
                FAIL_CHECK(d.toString());
    }
}

TEST_CASE("every scenario field with a floor says so in the JSON Schema", "[model][ranges]")
{
    const json schema = scenarioJsonSchema();
    const json& workload = schema["properties"]["workload"]["properties"];
    // mfu is 0 (predicted) or an explicit share from 0.01 to 1.
    const json& mfuRange = workload["mfu"]["anyOf"][1];
    CHECK(workload["mfu"]["anyOf"][0]["const"] == 0);
    CHECK(mfuRange["minimum"] == 0.01);
    CHECK(mfuRange["maximum"] == 1.0);
    CHECK_FALSE(mfuRange.contains("exclusiveMinimum"));
    CHECK(schema["properties"]["economics"]["properties"]["amortization_years"]["minimum"] == 0.5);
    // A catalog field that may be 0 ("none") says so in its range text.
    const auto* fp8 = findField(GpuSpec::fields(), "peak_tflops_fp8");
    REQUIRE(fp8);
    CHECK(fp8->rangeText() == "0 or a number >= 0.1 and <= 100000 (TFLOP/s)");
    CHECK(fp8->checkRange(0.0).empty());
    CHECK_FALSE(fp8->checkRange(0.05).empty());
}
