#include "clirunner.h"

#include <fstream>
#include <sstream>

using namespace dct;
using nlohmann::json;
using test::CliRun;
using test::example;
using test::runCli;

TEST_CASE("eval shows a Reliability section with goodput and both training times",
          "[cli][eval][reliability]")
{
    const CliRun r = runCli({"eval", example("multiplane-16k-h100.json")});
    REQUIRE(r.code == cli::ExitOk);
    CHECK_THAT(r.out, Catch::Contains("\nReliability\n") &&
                          Catch::Contains("Goodput (work / wall time)") &&
                          Catch::Contains("Training time, failure-free") &&
                          Catch::Contains("Training time with failures") &&
                          Catch::Contains("Optimal checkpoint interval (Daly)") &&
                          Catch::Contains("Cost of failures"));
}

TEST_CASE("eval JSON and CSV hold the reliability figures", "[cli][eval][json][csv][reliability]")
{
    const CliRun r = runCli({"eval", "-f", "json", example("multiplane-16k-h100.json")});
    REQUIRE(r.code == cli::ExitOk);
    const json m = json::parse(r.out)["metrics"];
    const double goodput = m["reliability.goodput"]["value"].get<double>();
    CHECK(goodput > 0.0);
    CHECK(goodput < 1.0);
    CHECK(m["reliability.effective_training_days"]["value"].get<double>() >
          m["compute.training_days"]["value"].get<double>());
    CHECK(m["reliability.failure_free_training_days"]["value"].get<double>() ==
          Approx(m["compute.training_days"]["value"].get<double>()).epsilon(1e-12));
    CHECK(m["reliability.interruptions"]["value"].get<double>() > 100.0);
    CHECK(m["reliability.failure_cost_usd"]["unit"] == "USD");
    CHECK(m["reliability.job_mtbf_hours"]["unit"] == "h");

    const CliRun csv = runCli({"eval", "-f", "csv", example("multiplane-16k-h100.json")});
    REQUIRE(csv.code == cli::ExitOk);
    std::istringstream lines(csv.out);
    int rows = 0;
    bool goodputRow = false;
    for (std::string line; std::getline(lines, line);) {
        rows += line.find(",reliability.") != std::string::npos ? 1 : 0;
        goodputRow |= line.find(",reliability.goodput,") != std::string::npos;
    }
    CHECK(rows >= 20);
    CHECK(goodputRow);
}

TEST_CASE("Bad reliability inputs exit 2 naming the file and the field", "[cli][bad-input]")
{
    struct Case
    {
        const char* name;
        const char* key;
        json value;
    };
    const std::vector<Case> cases = {
        {"spares.json", "hot_spare_nodes", -1},
        {"sparesfraction.json", "hot_spare_nodes", 1.5},
        {"restart.json", "restart_minutes", "ten"},
        {"repair.json", "node_repair_hours", -2.0},
    };
    for (const auto& c : cases) {
        INFO(c.name);
        std::ifstream in(example("seed-h100-dallas-d2c.json"));
        json j = json::parse(in);
        j["workload"][c.key] = c.value;
        const auto path =
            std::filesystem::temp_directory_path() / ("dct-cli-" + std::string(c.name));
        std::ofstream(path) << j.dump(2);
        const CliRun r = runCli({"eval", path.string()});
        CHECK(r.code == cli::ExitUsage);
        CHECK_THAT(r.err, Catch::Contains(path.string()) &&
                              Catch::Contains(std::string("/workload/") + c.key));
        std::filesystem::remove(path);
    }
}

TEST_CASE("catalog lists the failure rates with their sources", "[cli][catalog][reliability]")
{
    const CliRun all = runCli({"catalog"});
    CHECK(all.code == cli::ExitOk);
    CHECK_THAT(all.out, Catch::Contains("failure:") && Catch::Contains("gpu-hbm"));
    const CliRun one = runCli({"catalog", "failure", "gpu-hbm"});
    REQUIRE(one.code == cli::ExitOk);
    const json entry = json::parse(one.out);
    CHECK(entry["per"] == "gpu");
    CHECK(entry["replaces_node"] == true);
    CHECK_THAT(entry["source"].get<std::string>(), Catch::Contains("Table 5"));
}
