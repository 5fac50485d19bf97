#include "clirunner.h"

#include <regex>
#include <sstream>

using namespace dct;
using nlohmann::json;
using test::CliRun;
using test::example;
using test::runCli;

TEST_CASE("compare: D2C and air twins side by side, deltas against the first", "[cli][compare]")
{
    const std::string catalog = (test::dataDir() / "catalog").string();
    const auto run =
        runCli({"--catalog", catalog, "compare", "--format", "json",
                example("seed-h100-dallas-d2c.json"), example("legacy-air-h100-dallas.json")});
    INFO(run.err);
    REQUIRE(run.code == 0);
    const json doc = json::parse(run.out);
    REQUIRE(doc["scenarios"].size() == 2);
    REQUIRE_FALSE(doc["metrics"].empty());
    bool sawPue = false;
    for (const auto& m : doc["metrics"]) {
        REQUIRE(m["values"].size() == 2);
        if (m["key"] == "cooling.pue") {
            sawPue = true;
            const double a = m["values"][0].get<double>();
            const double b = m["values"][1].get<double>();
            CHECK(m["deltas"][0].get<double>() == 0.0);
            CHECK(m["deltas"][1].get<double>() == Approx(b - a).epsilon(1e-12));
            CHECK(b > a);
        }
    }
    CHECK(sawPue);
}

TEST_CASE("compare: table and csv formats, and one file is a usage error", "[cli][compare]")
{
    const std::string catalog = (test::dataDir() / "catalog").string();
    const auto table =
        runCli({"--catalog", catalog, "compare", example("seed-h100-dallas-d2c.json"),
                example("legacy-air-h100-dallas.json")});
    CHECK(table.code == 0);
    CHECK(table.out.find("PUE (annual)") != std::string::npos);
    CHECK(table.out.find("dB") != std::string::npos);
    // The one number rule: money with its scale beside the number, shares in percent.
    CHECK(std::regex_search(table.out, std::regex(R"(\n  Capex \[USD\] +11\.83 M )")));
    CHECK(std::regex_search(table.out, std::regex(R"(\n  Effective MFU \[%\] +27\.85 )")));
    const auto csv =
        runCli({"--catalog", catalog, "compare", "-f", "csv", example("seed-h100-dallas-d2c.json"),
                example("legacy-air-h100-dallas.json")});
    CHECK(csv.code == 0);
    CHECK(csv.out.rfind("key,label,unit,", 0) == 0);
    CHECK(csv.out.find("\ncooling.pue,") != std::string::npos);
    const auto one =
        runCli({"--catalog", catalog, "compare", example("seed-h100-dallas-d2c.json")});
    CHECK(one.code == 2);
    CHECK(one.out.empty());
    CHECK_THAT(one.err, Catch::Contains("files"));
}

TEST_CASE("compare --differences-only keeps the figures that differ", "[cli][compare]")
{
    const std::string catalog = (test::dataDir() / "catalog").string();
    const std::vector<std::string> files = {example("seed-h100-dallas-d2c.json"),
                                            example("legacy-air-h100-dallas.json")};
    const auto all = runCli({"--catalog", catalog, "compare", "-f", "json", files[0], files[1]});
    const auto some = runCli(
        {"--catalog", catalog, "compare", "-f", "json", "--differences-only", files[0], files[1]});
    REQUIRE(all.code == 0);
    REQUIRE(some.code == 0);
    const json full = json::parse(all.out);
    const json diff = json::parse(some.out);
    REQUIRE_FALSE(diff["metrics"].empty());
    CHECK(diff["metrics"].size() < full["metrics"].size());
    bool sawGpus = false;
    for (const auto& m : diff["metrics"]) {
        // Same cluster, other cooling: the GPU count is the same, the PUE is not.
        sawGpus |= m["key"] == "compute.gpus";
        CHECK(m["values"][0] != m["values"][1]);
    }
    CHECK_FALSE(sawGpus);
    // Both scenarios carry their verdict.
    CHECK(diff["scenarios"][0]["verdict"]["feasibility"] == "feasible");
    CHECK(diff["scenarios"][1]["verdict"]["feasibility"] == "feasible_with_warnings");
}
