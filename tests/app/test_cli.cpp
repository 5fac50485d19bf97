#include "clirunner.h"

#include <fstream>
#include <map>
#include <regex>
#include <sstream>

using namespace dct;
using nlohmann::json;
using test::CliRun;
using test::example;
using test::runCli;

namespace {

/** Writes \a text to a temporary scenario file and returns its path. */
std::string scratchFile(const std::string& name, const std::string& text)
{
    const auto path = std::filesystem::temp_directory_path() / ("dct-cli-" + name);
    std::ofstream(path) << text;
    return path.string();
}

std::string seedWith(const std::function<void(json&)>& edit)
{
    std::ifstream in(example("seed-h100-dallas-d2c.json"));
    json j = json::parse(in);
    edit(j);
    return j.dump(2);
}

} // namespace

TEST_CASE("eval prints a table of figures for every example", "[cli][eval]")
{
    const auto files = test::examples();
    REQUIRE_FALSE(files.empty());
    for (const auto& file : files) {
        INFO(file.string());
        const CliRun r = runCli({"eval", file.string()});
        INFO(r.err);
        // The overpacked hall is the example of an infeasible design: figures, verdict, exit 1.
        const bool overpacked = file.filename() == "overpacked-air-h100-dallas.json";
        CHECK(r.code == (overpacked ? cli::ExitEvaluation : cli::ExitOk));
        CHECK_THAT(r.out, Catch::Contains("Training time") && Catch::Contains("GPUs"));
        CHECK_THAT(r.out,
                   Catch::Contains(overpacked ? "Verdict: Infeasible" : "Verdict: Feasible"));
    }
}

TEST_CASE("eval --format json parses and holds the metrics", "[cli][eval][json]")
{
    const CliRun r = runCli({"eval", "--format", "json", example("seed-h100-dallas-d2c.json")});
    REQUIRE(r.code == cli::ExitOk);
    const json j = json::parse(r.out);
    CHECK(j["ok"] == true);
    CHECK(j["metrics"]["compute.gpus"]["value"] == 256);
    CHECK(j["metrics"]["compute.training_days"]["unit"] == "days");

    const CliRun two = runCli({"eval", "-f", "json", example("seed-h100-dallas-d2c.json"),
                               example("dgx-superpod-4su.json")});
    REQUIRE(two.code == cli::ExitOk);
    CHECK(json::parse(two.out).size() == 2);
}

TEST_CASE("eval --format csv has a header and one row per metric", "[cli][eval][csv]")
{
    const CliRun r = runCli({"eval", "--format", "csv", example("seed-h100-dallas-d2c.json")});
    REQUIRE(r.code == cli::ExitOk);
    std::istringstream lines(r.out);
    std::string header;
    std::getline(lines, header);
    CHECK(header == "file,scenario,key,label,value,unit");
    int rows = 0;
    for (std::string line; std::getline(lines, line);)
        rows += line.find("compute.") != std::string::npos ? 1 : 0;
    CHECK(rows > 10);
}

TEST_CASE("eval shows the predicted step, its breakdown and memory in table, JSON and CSV",
          "[cli][eval][step]")
{
    const std::string file = example("multiplane-16k-h100.json");
    const CliRun table = runCli({"eval", file});
    REQUIRE(table.code == cli::ExitOk);
    CHECK_THAT(table.out, Catch::Contains("Predicted MFU") && Catch::Contains("Pipeline bubble") &&
                              Catch::Contains("Memory per GPU"));

    const CliRun j = runCli({"eval", "--format", "json", file});
    REQUIRE(j.code == cli::ExitOk);
    const json metrics = json::parse(j.out)["metrics"];
    const double mfu = metrics["step.mfu"]["value"].get<double>();
    CHECK(mfu > 0.2);
    CHECK(mfu < 0.7);
    CHECK(metrics["compute.mfu"]["value"].get<double>() == Approx(mfu));
    CHECK(metrics["step.parameters_billion"]["value"].get<double>() == Approx(405.0).epsilon(0.01));
    CHECK(metrics["step.memory_total_gb"]["unit"] == "GB");

    const CliRun csv = runCli({"eval", "--format", "csv", file});
    REQUIRE(csv.code == cli::ExitOk);
    CHECK_THAT(csv.out, Catch::Contains(",step.bubble_seconds,") &&
                            Catch::Contains(",step.tensor_parallel_seconds,"));

    // A layout that does not fit: exit 1, the field and the shortfall named.
    const std::string tight = scratchFile("step-tight.json", seedWith([](json& d) {
                                              d["workload"]["tensor_parallel"] = 1;
                                              d["workload"]["zero_stage"] = 0;
                                          }));
    const CliRun refused = runCli({"eval", tight});
    CHECK(refused.code == cli::ExitEvaluation);
    CHECK_THAT(refused.out + refused.err,
               Catch::Contains("/workload/zero_stage") && Catch::Contains("GB short"));
}

TEST_CASE("eval's table prints money in M USD, shares as percent and yes/no, after the "
          "diagnostics",
          "[cli][eval][format]")
{
    const CliRun r = runCli({"eval", example("overpacked-air-h100-dallas.json")});
    INFO(r.out);
    // Infeasible by design: the verdict's exit code, with every figure still printed.
    CHECK(r.code == cli::ExitEvaluation);
    CHECK(std::regex_search(r.out, std::regex(R"(\n  Capex +11\.99 M USD\n)")));
    CHECK(std::regex_search(r.out, std::regex(R"(\n  Effective MFU +27\.66 %\n)")));
    CHECK(std::regex_search(r.out, std::regex(R"(\n  Coupling converged +yes \n)")));
    CHECK_THAT(r.out, Catch::Contains("2.164 \xc2\xb5s"));
    CHECK_THAT(r.out, !Catch::Contains("(1 = yes)"));
    // Every warning, whole with its field, comes before the first figure.
    const auto warning = r.out.find("warning: /cooling/system: server inlet air reaches");
    REQUIRE(warning != std::string::npos);
    CHECK(warning < r.out.find("\nCompute and workload\n"));
}

TEST_CASE("eval --format csv rounds to the display digits unless --precision full",
          "[cli][eval][csv]")
{
    const auto mfuValue = [](const std::string& csv) {
        const auto at = csv.find(",compute.effective_mfu,");
        REQUIRE(at != std::string::npos);
        const auto line = csv.substr(at, csv.find('\n', at) - at);
        return line.substr(line.find("Effective MFU,") + 14);
    };
    const CliRun display =
        runCli({"eval", "--format", "csv", example("seed-h100-dallas-d2c.json")});
    REQUIRE(display.code == cli::ExitOk);
    CHECK(mfuValue(display.out) == "0.2785,share");
    CHECK_THAT(display.out, !Catch::Contains("8,960,000"));
    const CliRun full = runCli(
        {"eval", "--format", "csv", "--precision", "full", example("seed-h100-dallas-d2c.json")});
    REQUIRE(full.code == cli::ExitOk);
    CHECK(mfuValue(full.out).size() > std::string("0.2785,share").size());
    CHECK(runCli({"eval", "--precision", "most", example("seed-h100-dallas-d2c.json")}).code ==
          cli::ExitUsage);
}

TEST_CASE("eval reports a bad value and an unknown catalog id at once, and a missing section "
          "names only the keys it needs",
          "[cli][bad-input][errors]")
{
    const std::string file = scratchFile("two-errors.json", seedWith([](json& j) {
                                             j["compute"]["node_count"] = -3;
                                             j["site"] = "nowhere";
                                         }));
    const CliRun r = runCli({"eval", file});
    CHECK(r.code == cli::ExitUsage);
    CHECK_THAT(r.err, Catch::Contains("error: /compute/node_count: invalid value -3"));
    CHECK_THAT(r.err, Catch::Contains("error: /site: no site with id 'nowhere'"));

    const std::string noNetwork =
        scratchFile("no-network.json", seedWith([](json& j) { j.erase("network"); }));
    const CliRun missing = runCli({"eval", noNetwork});
    CHECK(missing.code == cli::ExitUsage);
    CHECK_THAT(missing.err, Catch::Contains("missing required section 'network' (an object with "
                                            "at least the keys switch; its"));
    CHECK_THAT(missing.err, Catch::Contains("other keys have defaults)"));
}

TEST_CASE("validate and eval report two input errors and an evaluation error in one pass",
          "[cli][bad-input][errors]")
{
    // Two fields that cannot be read (facility, economics) and a parallel layout the cluster
    // cannot hold (127 nodes do not split into 4 pipeline stages): independent, so all three
    // come out at once instead of one after the other.
    const std::string file = scratchFile("three-errors.json", seedWith([](json& j) {
                                             j["compute"]["node_count"] = 127;
                                             j["network"]["tiers"] = 0;
                                             j["workload"]["pipeline_parallel"] = 4;
                                             j["facility"]["racks_per_row"] = "ten";
                                             j["economics"]["amortization_years"] = -5;
                                         }));
    for (const char* command : {"validate", "eval"}) {
        INFO(command);
        const CliRun r = runCli({command, file});
        CHECK(r.code == cli::ExitUsage);
        CHECK_THAT(r.err, Catch::Contains("error: /facility/racks_per_row"));
        CHECK_THAT(r.err, Catch::Contains("error: /economics/amortization_years"));
        CHECK_THAT(r.err, Catch::Contains("error: /workload/pipeline_parallel"));
    }
    std::filesystem::remove(file);
}

TEST_CASE("Bad input exits 2 with a message naming the file and the path", "[cli][bad-input]")
{
    struct Case
    {
        const char* name;
        std::string text;
        const char* expected;
    };
    const std::vector<Case> cases = {
        {"truncated.json", seedWith([](json&) {}).substr(0, 120), "not valid JSON"},
        {"wrongtype.json", seedWith([](json& j) { j["compute"]["node_count"] = "many"; }),
         "/compute/node_count"},
        {"negative.json", seedWith([](json& j) { j["compute"]["node_count"] = -32; }),
         "/compute/node_count"},
        {"unknownkey.json", seedWith([](json& j) { j["network"]["swtich"] = "qm9700"; }),
         "/network/swtich"},
        {"missingid.json", seedWith([](json& j) { j["compute"]["node"] = "dgx-h900"; }),
         "/compute/node"},
        {"empty.json", "", "not valid JSON"},
        {"array.json", "[1, 2]", "JSON object"},
    };
    for (const auto& c : cases) {
        INFO(c.name);
        const std::string path = scratchFile(c.name, c.text);
        const CliRun r = runCli({"eval", path});
        CHECK(r.code == cli::ExitUsage);
        CHECK_THAT(r.err, Catch::Contains(path) && Catch::Contains(c.expected));
        const CliRun v = runCli({"validate", path});
        CHECK(v.code == cli::ExitUsage);
        std::filesystem::remove(path);
    }
}

TEST_CASE("A missing file exits 2 naming it", "[cli][bad-input]")
{
    const CliRun r = runCli({"eval", "/nonexistent/scenario.json"});
    CHECK(r.code == cli::ExitUsage);
    CHECK_THAT(r.err, Catch::Contains("/nonexistent/scenario.json"));
}

TEST_CASE("An inconsistent scenario exits 1 from eval and validate", "[cli][evaluation]")
{
    const std::string path = scratchFile(
        "inconsistent.json", seedWith([](json& j) { j["workload"]["data_parallel"] = 5; }));
    const CliRun e = runCli({"eval", path});
    CHECK(e.code == cli::ExitEvaluation);
    CHECK_THAT(e.err, Catch::Contains("/workload/data_parallel"));
    const CliRun v = runCli({"validate", path});
    CHECK(v.code == cli::ExitEvaluation);
    std::filesystem::remove(path);
}

TEST_CASE("validate reports valid examples", "[cli][validate]")
{
    const CliRun r = runCli({"validate", example("seed-h100-dallas-d2c.json")});
    CHECK(r.code == cli::ExitOk);
    CHECK_THAT(r.out, Catch::Contains("valid"));
    const CliRun j = runCli({"validate", "--format", "json", example("seed-h100-dallas-d2c.json")});
    CHECK(j.code == cli::ExitOk);
    CHECK(json::parse(j.out)["valid"] == true);
}

TEST_CASE("Bad usage exits 2 and --help exits 0 on every command", "[cli][usage]")
{
    const CliRun none = runCli({});
    CHECK(none.code == cli::ExitUsage);
    CHECK_THAT(none.err, Catch::Contains("subcommand"));
    const CliRun noFiles = runCli({"eval"});
    CHECK(noFiles.code == cli::ExitUsage);
    CHECK_THAT(noFiles.err, Catch::Contains("files"));
    const CliRun xml = runCli({"eval", "--format", "xml", example("seed-h100-dallas-d2c.json")});
    CHECK(xml.code == cli::ExitUsage);
    CHECK_THAT(xml.err, Catch::Contains("xml"));
    CHECK(xml.out.empty());
    const auto commands = cli::commandNames();
    REQUIRE_FALSE(commands.empty());
    for (const auto& command : commands) {
        INFO(command);
        const CliRun r = runCli({command, "--help"});
        CHECK(r.code == cli::ExitOk);
        CHECK_THAT(r.out, Catch::Contains("Usage") || Catch::Contains("usage"));
        CHECK_THAT(r.out, Catch::Contains(command));
    }
}

TEST_CASE("Every command of the table is listed by --help and an unknown one exits 2",
          "[cli][usage][commands]")
{
    const std::vector<std::string> expected = {
        "validate",    "eval",   "compare",  "catalog",     "schema",    "store",  "sweep",
        "sweep-merge", "report", "topology", "collectives", "calibrate", "layout", "plan"};
    const auto commands = cli::commandNames();
    CHECK(commands == expected);

    const CliRun help = runCli({"--help"});
    CHECK(help.code == cli::ExitOk);
    CHECK(help.err.empty());
    REQUIRE_FALSE(commands.empty());
    for (const auto& command : commands) {
        INFO(command);
        // Each subcommand is one line of the help: "  <name>  <description>".
        CHECK_THAT(help.out, Catch::Contains("\n  " + command + " "));
    }

    const CliRun unknown = runCli({"frobnicate"});
    CHECK(unknown.code == cli::ExitUsage);
    // CLI11 reports an unknown name as a missing subcommand (it does not name it).
    CHECK_THAT(unknown.err, Catch::Contains("A subcommand is required"));
    CHECK(unknown.out.empty());
}

TEST_CASE("dctwin-cli --version prints the project version", "[cli][version]")
{
    const CliRun r = runCli({"--version"});
    CHECK(r.code == cli::ExitOk);
    CHECK(r.out == "dctwin-cli " DCT_VERSION "\n");
    CHECK(r.err.empty());
}

TEST_CASE("schema prints the JSON Schema of scenario files", "[cli][schema]")
{
    const CliRun r = runCli({"schema"});
    REQUIRE(r.code == cli::ExitOk);
    CHECK(r.err.empty());
    const json schema = json::parse(r.out);
    CHECK(schema.contains("properties"));
}

TEST_CASE("catalog lists kinds and shows an entry with its source", "[cli][catalog]")
{
    const CliRun all = runCli({"catalog"});
    CHECK(all.code == cli::ExitOk);
    CHECK_THAT(all.out, Catch::Contains("gpu:") && Catch::Contains("h100-sxm5"));
    const CliRun one = runCli({"catalog", "switch", "qm9700"});
    REQUIRE(one.code == cli::ExitOk);
    const json entry = json::parse(one.out);
    CHECK(entry["ports"] == 64);
    CHECK_FALSE(entry["source"].get<std::string>().empty());
    const CliRun gpus = runCli({"catalog", "gpu"});
    CHECK(gpus.code == cli::ExitOk);
    CHECK_THAT(gpus.out, Catch::Contains("h100-sxm5\n"));
    const CliRun missing = runCli({"catalog", "gpu", "nonexistent"});
    CHECK(missing.code == cli::ExitUsage);
    CHECK_THAT(missing.err, Catch::Contains("no gpu with id 'nonexistent'"));
    const CliRun kind = runCli({"catalog", "spaceship"});
    CHECK(kind.code == cli::ExitUsage);
    CHECK_THAT(kind.err, Catch::Contains("unknown catalog kind 'spaceship'"));
}

TEST_CASE("sweep --merge and sweep-merge join shards into the unsharded sweep", "[cli][sweep]")
{
    const auto dir = std::filesystem::temp_directory_path() / "dct-cli-sweep-merge";
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);
    const std::string spec =
        (test::dataDir() / "examples" / "sweeps" / "seed-nodes-cooling-site.json").string();
    const std::string first = (dir / "part-0.csv").string();
    const std::string second = (dir / "part-1.csv").string();

    const CliRun whole = runCli({"sweep", spec, "-q"});
    INFO(whole.err);
    REQUIRE(whole.code == cli::ExitOk);
    CHECK_THAT(whole.out, Catch::StartsWith("variant"));
    for (const auto& [shard, path] : {std::pair{"0/2", first}, std::pair{"1/2", second}}) {
        const CliRun part = runCli({"sweep", spec, "-q", "--shard", shard, "-o", path});
        CHECK(part.code == cli::ExitOk);
        CHECK(part.out.empty());
    }

    const CliRun merged = runCli({"sweep-merge", first, second});
    CHECK(merged.code == cli::ExitOk);
    CHECK(merged.out == whole.out);
    const CliRun viaSweep = runCli({"sweep", spec, "--merge", first, second});
    CHECK(viaSweep.code == cli::ExitOk);
    CHECK(viaSweep.out == whole.out);

    const CliRun noSpec = runCli({"sweep-merge", first, second, "--pareto", "front.csv"});
    CHECK(noSpec.code == cli::ExitUsage);
    CHECK_THAT(noSpec.err, Catch::Contains("--pareto needs --spec"));
    std::filesystem::remove_all(dir);
}

TEST_CASE("report writes HTML in process and exits 2 with nothing to write", "[cli][report]")
{
    const CliRun nothing = runCli({"report", example("seed-h100-dallas-d2c.json")});
    CHECK(nothing.code == cli::ExitUsage);
    CHECK_THAT(nothing.err, Catch::Contains("nothing to write"));

    const auto html = std::filesystem::temp_directory_path() / "dct-cli-report.html";
    std::filesystem::remove(html);
    const CliRun r =
        runCli({"report", example("seed-h100-dallas-d2c.json"), "--html", html.string()});
    INFO(r.err);
    CHECK(r.code == cli::ExitOk);
    std::ifstream in(html);
    REQUIRE(in.good());
    std::stringstream text;
    text << in.rdbuf();
    CHECK_THAT(text.str(), Catch::Contains("<html"));
    std::filesystem::remove(html);
}

TEST_CASE("objectives without a goal: sweep and sweep-merge give the same Pareto front",
          "[cli][sweep][pareto]")
{
    const auto dir = std::filesystem::temp_directory_path() / "dct-cli-sweep-goals";
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);
    const json spec = {
        {"base", (test::dataDir() / "examples" / "seed-h100-dallas-d2c.json").string()},
        {"axes",
         {{{"field", "/compute/node_count"}, {"values", {8, 16, 32, 64}}},
          {{"field", "/cooling/system"}, {"values", {"crac-air", "d2c-rdhx"}}}}},
        {"metrics", {"cost.tco_usd_per_year", "compute.training_days"}},
        // No goals: TCO and training days both declare that lower is better.
        {"pareto", {"cost.tco_usd_per_year", "compute.training_days"}}};
    const std::string specFile = (dir / "spec.json").string();
    std::ofstream(specFile) << spec.dump(2);
    const std::string front = (dir / "front.csv").string();
    const std::string part = (dir / "all.csv").string();
    const std::string mergedFront = (dir / "merged-front.csv").string();

    const CliRun sweep = runCli({"sweep", specFile, "-q", "-o", part, "--pareto", front});
    INFO(sweep.err);
    REQUIRE(sweep.code == cli::ExitOk);
    const CliRun merge = runCli({"sweep-merge", part, "--spec", specFile, "--pareto", mergedFront});
    INFO(merge.err);
    REQUIRE(merge.code == cli::ExitOk);
    auto slurp = [](const std::string& path) {
        std::ifstream in(path);
        std::stringstream text;
        text << in.rdbuf();
        return text.str();
    };
    const std::string frontText = slurp(front);
    CHECK(std::count(frontText.begin(), frontText.end(), '\n') >= 2); // header and a row
    CHECK(frontText == slurp(mergedFront));
    std::filesystem::remove_all(dir);
}

TEST_CASE("validate runs the checks eval runs and names the broken limit",
          "[cli][validate][verdict]")
{
    const std::string overpacked = example("overpacked-air-h100-dallas.json");
    const CliRun v = runCli({"validate", overpacked});
    CHECK(v.code == cli::ExitEvaluation);
    CHECK_THAT(v.err, Catch::Contains("inlet air reaches"));
    CHECK_THAT(v.err, Catch::Contains("infeasible"));
    const CliRun j = runCli({"validate", "--format", "json", overpacked});
    CHECK(j.code == cli::ExitEvaluation);
    const json doc = json::parse(j.out);
    CHECK(doc["valid"] == false);
    CHECK(doc["verdict"]["feasibility"] == "infeasible");
    REQUIRE_FALSE(doc["verdict"]["reasons"].empty());
    CHECK(doc["verdict"]["reasons"][0]["code"] == "inlet-over-allowable");
    // eval agrees, in every format.
    const CliRun e = runCli({"eval", "--format", "json", overpacked});
    CHECK(e.code == cli::ExitEvaluation);
    CHECK(json::parse(e.out)["verdict"]["feasibility"] == "infeasible");
    const CliRun csv = runCli({"eval", "--format", "csv", overpacked});
    CHECK(csv.code == cli::ExitEvaluation);
    CHECK_THAT(csv.out, Catch::Contains(",verdict,Verdict,infeasible,"));
    // A design within its limits validates as feasible.
    const CliRun seed = runCli({"validate", example("seed-h100-dallas-d2c.json")});
    CHECK(seed.code == cli::ExitOk);
    CHECK_THAT(seed.out, Catch::Contains("valid, feasible"));
}

TEST_CASE("eval with a workload error still prints the facility figures", "[cli][eval][partial]")
{
    const std::string path = scratchFile("partial.json", seedWith([](json& j) {
                                             j["compute"]["node_count"] = 127;
                                             j["network"]["tiers"] = 0;
                                             j["workload"]["pipeline_parallel"] = 4;
                                         }));
    const CliRun r = runCli({"eval", path});
    CHECK(r.code == cli::ExitEvaluation);
    CHECK_THAT(r.err, Catch::Contains("/workload/pipeline_parallel"));
    CHECK_THAT(r.out, Catch::Contains("PUE") && Catch::Contains("Compute racks") &&
                          Catch::Contains("Total cost of ownership"));
    CHECK_THAT(r.out, !Catch::Contains("Training time"));
    CHECK_THAT(r.out,
               Catch::Contains("workload-not-evaluated") || Catch::Contains("not evaluated"));
    std::filesystem::remove(path);
}

TEST_CASE("every planning recipe of the README runs and answers", "[cli][sweep][recipes]")
{
    std::vector<std::filesystem::path> recipes;
    for (const auto& e :
         std::filesystem::directory_iterator(test::dataDir() / "examples" / "recipes"))
        if (e.path().extension() == ".json")
            recipes.push_back(e.path());
    REQUIRE(recipes.size() >= 7);
    for (const auto& recipe : recipes) {
        INFO(recipe.string());
        const CliRun r = runCli({"sweep", recipe.string(), "-q"});
        INFO(r.err);
        CHECK(r.code == cli::ExitOk);
        std::istringstream lines(r.out);
        std::string header;
        std::getline(lines, header);
        CHECK_THAT(header, Catch::StartsWith("variant"));
        int okRows = 0;
        for (std::string line; std::getline(lines, line);)
            okRows += line.find(",1,") != std::string::npos ? 1 : 0;
        CHECK(okRows >= 1);
    }
}

namespace {

/** The rows of a recipe's sweep (its filters applied), as JSON lines. */
std::vector<json> recipeRows(const std::string& name)
{
    const CliRun r = runCli(
        {"sweep", (test::dataDir() / "examples" / "recipes" / name).string(), "-q", "-f", "jsonl"});
    INFO(name << ": " << r.err);
    REQUIRE(r.code == cli::ExitOk);
    std::vector<json> rows;
    std::istringstream lines(r.out);
    for (std::string line; std::getline(lines, line);)
        rows.push_back(json::parse(line));
    return rows;
}

} // namespace

TEST_CASE("the README's planning recipes give the figures the README states", "[cli][recipes]")
{
    // README "Planning recipes": these are the figures it quotes; a model change that moves
    // them fails here, so the README is restated rather than left to drift.
    SECTION("1. racks and megawatts for 16k B200")
    {
        const auto rows = recipeRows("b200-16k-racks-power.json");
        REQUIRE(rows.size() == 2);
        const json& d2c = rows[0]["metrics"];
        CHECK(rows[0]["verdict"] == "feasible");
        CHECK(d2c["power.racks"] == 683);
        CHECK(d2c["power.facility_kw"].get<double>() == Approx(26800).epsilon(0.01));
        CHECK(d2c["power.peak_facility_kw"].get<double>() == Approx(27400).epsilon(0.01));
        CHECK(d2c["power.design_facility_kw"].get<double>() == Approx(35100).epsilon(0.01));
        // The air hall: 31.7 C at the inlets, above the DGX B200's 30 C.
        CHECK(rows[1]["verdict"] == "infeasible");
        CHECK(rows[1]["metrics"]["power.design_facility_kw"].get<double>() ==
              Approx(42200).epsilon(0.01));
    }
    SECTION("2. 400G or 800G NICs")
    {
        const auto rows = recipeRows("nic-400g-or-800g.json");
        REQUIRE(rows.size() == 2);
        const json& slow = rows[0]["metrics"];
        const json& fast = rows[1]["metrics"];
        CHECK(rows[0]["verdict"] == "feasible");
        CHECK(rows[1]["verdict"] == "feasible");
        CHECK(slow["network.switches"] == 96);
        CHECK(slow["network.tiers"] == 2);
        CHECK(fast["network.switches"] == 320);
        CHECK(fast["network.tiers"] == 3);
        CHECK(slow["cost.capex_network_usd"].get<double>() == Approx(12.3e6).epsilon(0.01));
        CHECK(fast["cost.capex_network_usd"].get<double>() == Approx(37.2e6).epsilon(0.01));
        CHECK(slow["compute.training_days"].get<double>() == Approx(10.69).epsilon(0.01));
        CHECK(fast["compute.training_days"].get<double>() == Approx(7.38).epsilon(0.01));
    }
    SECTION("3. InfiniBand or RoCE for 4k GPUs")
    {
        const auto ib = recipeRows("infiniband-4k.json");
        const auto roce = recipeRows("roce-4k.json");
        REQUIRE(ib.size() == 1);
        REQUIRE(roce.size() == 1);
        CHECK(ib[0]["verdict"] == "feasible");
        CHECK(roce[0]["verdict"] == "feasible");
        CHECK(ib[0]["metrics"]["network.switches"] == 320);
        CHECK(roce[0]["metrics"]["network.switches"] == 96);
        CHECK(roce[0]["metrics"]["network.port_breakout"] == 2);
    }
    SECTION("9. GPUs in a 20 MW feed")
    {
        const auto rows = recipeRows("gpus-in-20mw.json");
        REQUIRE_FALSE(rows.empty());
        CHECK(rows.back()["values"]["/compute/node_count"] == 1600);
        CHECK(rows.back()["metrics"]["power.design_facility_kw"].get<double>() ==
              Approx(19940).epsilon(0.01));
    }
    SECTION("10. the cheapest cluster for 405B in 90 days")
    {
        const auto rows = recipeRows("cheapest-405b-in-90-days.json");
        // 12 variants; the 90-day filter drops the three smallest H100 and the smallest B200.
        REQUIRE(rows.size() == 8);
        const json* cheapest = nullptr;
        for (const json& row : rows) {
            CHECK(row["verdict"] == "feasible");
            CHECK(row["metrics"]["compute.training_days"].get<double>() <= 90.0);
            if (!cheapest || row["metrics"]["cost.capex_usd"].get<double>() <
                                 (*cheapest)["metrics"]["cost.capex_usd"].get<double>())
                cheapest = &row;
        }
        REQUIRE(cheapest);
        CHECK((*cheapest)["values"]["/compute/node"] == "dgx-b200");
        CHECK((*cheapest)["values"]["/compute/node_count"] == 1008);
        CHECK((*cheapest)["metrics"]["compute.training_days"].get<double>() ==
              Approx(73.6).epsilon(0.01));
        CHECK((*cheapest)["metrics"]["cost.capex_usd"].get<double>() ==
              Approx(656e6).epsilon(0.01));
        CHECK((*cheapest)["metrics"]["compute.mfu"].get<double>() == Approx(0.334).epsilon(0.01));
    }
    SECTION("11. more GPUs at a power limit in 20 MW")
    {
        const auto rows = recipeRows("power-limit-in-20mw.json");
        // The largest cluster within 20 MW at each limit, and the clock the limit leaves.
        std::map<int, int> largest;
        std::map<int, double> clock;
        for (const json& row : rows) {
            const int limit = row["values"]["/compute/gpu_power_limit_w"].get<int>();
            const int nodes = row["values"]["/compute/node_count"].get<int>();
            largest[limit] = std::max(largest[limit], nodes);
            clock[limit] = row["metrics"]["compute.clock_factor"].get<double>();
        }
        CHECK(largest[0] == 1600);
        CHECK(largest[600] == 1728);
        CHECK(largest[500] == 1856);
        CHECK(clock[600] == Approx(0.944).margin(0.001));
        CHECK(clock[500] == Approx(0.880).margin(0.001));
        auto days = [&](int nodes, int limit) {
            for (const json& row : rows)
                if (row["values"]["/compute/node_count"] == nodes &&
                    row["values"]["/compute/gpu_power_limit_w"] == limit)
                    return row["metrics"]["compute.training_days"].get<double>();
            FAIL("no row of " << nodes << " nodes at " << limit << " W");
            return 0.0;
        };
        CHECK(days(1536, 0) == Approx(2.21).margin(0.005));
        CHECK(days(1664, 600) == Approx(2.10).margin(0.005));
        CHECK(days(1856, 500) == Approx(1.995).margin(0.002));
    }
    SECTION("12. the power limit that spends the least energy")
    {
        const auto rows = recipeRows("power-limit-least-energy.json");
        REQUIRE(rows.size() == 9);
        const json* least = &rows.front();
        for (const json& row : rows)
            if (row["metrics"]["cost.training_run_energy_mwh"].get<double>() <
                (*least)["metrics"]["cost.training_run_energy_mwh"].get<double>())
                least = &row;
        CHECK((*least)["values"]["/compute/gpu_power_limit_w"] == 400);
        const json& full = rows.front()["metrics"];
        const json& best = (*least)["metrics"];
        CHECK(full["cost.training_run_energy_mwh"].get<double>() == Approx(39100).epsilon(0.005));
        CHECK(best["cost.training_run_energy_mwh"].get<double>() == Approx(34500).epsilon(0.005));
        CHECK(full["compute.training_days"].get<double>() == Approx(77.9).margin(0.05));
        CHECK(best["compute.training_days"].get<double>() == Approx(91.9).margin(0.05));
        CHECK(full["cost.training_run_usd"].get<double>() == Approx(62.4e6).epsilon(0.005));
        CHECK(best["cost.training_run_usd"].get<double>() == Approx(68.6e6).epsilon(0.005));
        // Below the voltage floor both the days and the energy grow.
        const json& deepest = rows.back()["metrics"];
        CHECK(deepest["cost.training_run_energy_mwh"].get<double>() ==
              Approx(40700).epsilon(0.005));
        CHECK(deepest["compute.training_days"].get<double>() == Approx(122.2).margin(0.05));
    }
}

TEST_CASE("eval --hourly writes the 8,760 hours of the site year as CSV", "[cli][eval][hourly]")
{
    const auto path = std::filesystem::temp_directory_path() / "dct-cli-hourly.csv";
    std::filesystem::remove(path);
    const CliRun r = runCli({"eval", "--hourly", path.string(), "--format", "json",
                             example("multiplane-16k-h100.json")});
    INFO(r.err);
    REQUIRE(r.code == cli::ExitOk);
    std::ifstream in(path);
    std::string line;
    std::getline(in, line);
    CHECK_THAT(line, Catch::StartsWith("hour_index,month,day,hour,dry_bulb_c,wet_bulb_c,it_kw,"
                                       "facility_kw,pue,cooling_kw"));
    int rows = 0;
    double waterL = 0.0;
    while (std::getline(in, line)) {
        ++rows;
        std::istringstream cells(line);
        std::string cell;
        for (int c = 0; c < 12; ++c) // water_l is the 12th column
            std::getline(cells, cell, ',');
        waterL += std::stod(cell);
    }
    CHECK(rows == 8760);
    const auto doc = nlohmann::json::parse(r.out);
    double waterM3 = 0.0;
    if (doc["metrics"].contains("site.water_m3_per_year"))
        waterM3 = doc["metrics"]["site.water_m3_per_year"]["value"].get<double>();
    CHECK(waterL / 1000.0 == Approx(waterM3).epsilon(1e-4).margin(1e-6));
    std::filesystem::remove(path);

    // One scenario only: the rows belong to one site year.
    const CliRun two =
        runCli({"eval", "--hourly", path.string(), example("multiplane-16k-h100.json"),
                example("seed-h100-dallas-d2c.json")});
    CHECK(two.code == cli::ExitUsage);
    CHECK_THAT(two.err, Catch::Contains("exactly one scenario"));
}
