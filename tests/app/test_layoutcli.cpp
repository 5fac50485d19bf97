// dctwin-cli layout: the hall of a scenario, its cable bill and its floor plan.
#include "clirunner.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

using namespace dct;
using nlohmann::json;
using test::CliRun;
using test::example;
using test::runCli;

TEST_CASE("layout: the 16,384-GPU example's rows, racks, verdict and a cable bill with optics",
          "[cli][layout]")
{
    const CliRun r = runCli({"layout", example("multiplane-16k-h100.json")});
    INFO(r.err);
    REQUIRE(r.code == cli::ExitOk);
    CHECK_THAT(r.out, Catch::Contains("Verdict: Feasible") && Catch::Contains("compute rows") &&
                          Catch::Contains("Cable bill") && Catch::Contains("R01") &&
                          Catch::Contains("MDA1") && Catch::Contains("transceiver-"));
    const CliRun j = runCli({"layout", "--format", "json", example("multiplane-16k-h100.json")});
    REQUIRE(j.code == cli::ExitOk);
    const json doc = json::parse(j.out);
    CHECK(doc.at("compute_racks") == 410);
    // 52 rows in blocks side by side: a hall about square, not a 131 m strip.
    CHECK(doc.at("row_blocks").get<int>() > 1);
    const double w = doc.at("width_m").get<double>(), d = doc.at("depth_m").get<double>();
    CHECK(std::max(w / d, d / w) < 2.0);
    CHECK(doc.at("transceivers").get<long long>() > 0);
    long long nodeLeaf = 0;
    for (const auto& line : doc.at("bill"))
        if (line.at("link_class") == "node-leaf")
            nodeLeaf += line.at("links").get<long long>();
    CHECK(nodeLeaf == 16384);
    CHECK(doc.at("verdict").at("feasibility") != "infeasible");
}

TEST_CASE("layout --svg writes the floor plan with racks, aisles and runs per tier",
          "[cli][layout]")
{
    const auto path = std::filesystem::temp_directory_path() / "dctwin-layout-test.svg";
    std::filesystem::remove(path);
    const CliRun r = runCli(
        {"layout", example("dgx-superpod-4su.json"), "--svg", path.string(), "--color", "limit"});
    INFO(r.err);
    REQUIRE(r.code == cli::ExitOk);
    std::ifstream file(path);
    REQUIRE(file);
    std::stringstream text;
    text << file.rdbuf();
    const std::string svg = text.str();
    CHECK(svg.rfind("<svg", 0) == 0);
    CHECK_THAT(svg, Catch::Contains("id=\"runs-leaf-spine\"") &&
                        Catch::Contains("id=\"runs-node-leaf\"") && Catch::Contains("hot aisle") &&
                        Catch::Contains("R01-01: 4 nodes") && Catch::Contains("MDA1-01"));
    std::filesystem::remove(path);
}

TEST_CASE("layout: a bad hall field is exit code 2 naming the file and the pointer",
          "[cli][layout]")
{
    const auto path = std::filesystem::temp_directory_path() / "dctwin-layout-bad.json";
    {
        std::ifstream in(example("dgx-superpod-4su.json"));
        json doc = json::parse(in);
        doc["hall"] = {{"containment", "both"}};
        std::ofstream(path) << doc.dump();
    }
    const CliRun r = runCli({"layout", path.string()});
    CHECK(r.code == cli::ExitUsage);
    CHECK_THAT(r.err, Catch::Contains(path.string()) && Catch::Contains("/hall/containment") &&
                          Catch::Contains("hot_aisle"));
    std::filesystem::remove(path);
}

TEST_CASE("layout: a row over its busway makes the design infeasible and names the row",
          "[cli][layout]")
{
    const auto path = std::filesystem::temp_directory_path() / "dctwin-layout-busway.json";
    {
        std::ifstream in(example("dgx-superpod-4su.json"));
        json doc = json::parse(in);
        doc["hall"] = {{"row_busway_kw", 200}};
        std::ofstream(path) << doc.dump();
    }
    // Exit 1 as eval: the plan is printed, its verdict says it cannot be built.
    const CliRun r = runCli({"layout", "--format", "json", path.string()});
    CHECK(r.code == cli::ExitEvaluation);
    const json doc = json::parse(r.out);
    CHECK(doc.at("verdict").at("feasibility") == "infeasible");
    CHECK_THAT(r.err, Catch::Contains("error: /hall/row_busway_kw") && Catch::Contains("R01") &&
                          Catch::Contains("[makes the design infeasible]") &&
                          Catch::Contains("infeasible: /hall/row_busway_kw"));
    CHECK_THAT(r.err, !Catch::Contains("warning: /hall/row_busway_kw"));
    const CliRun t = runCli({"layout", path.string()});
    CHECK(t.code == cli::ExitEvaluation);
    CHECK_THAT(t.out, Catch::Contains("Verdict: Infeasible") && Catch::Contains("Cable bill"));
    // The same words as eval's table.
    const CliRun e = runCli({"eval", path.string()});
    CHECK(e.code == cli::ExitEvaluation);
    CHECK_THAT(e.out, Catch::Contains("Verdict: Infeasible"));
    std::filesystem::remove(path);
}
