// dctwin-cli plan: the fastest layouts as a table, JSON and CSV, errors that name the file and
// the field; compare shows the step of two layouts; the bash completion and the man page know
// every command.
#include "clirunner.h"

#include <fstream>
#include <nlohmann/json.hpp>

using namespace dct;
using namespace dct::test;
using nlohmann::json;
namespace fs = std::filesystem;

namespace {

/** Writes \a j to a file in the temporary folder and returns its path. */
std::string writeTemp(const std::string& name, const json& j)
{
    const fs::path path = fs::temp_directory_path() / name;
    std::ofstream(path) << j.dump(2);
    return path.string();
}

json readJson(const std::string& path)
{
    std::ifstream in(path);
    return json::parse(in);
}

std::string readText(const fs::path& path)
{
    std::ifstream in(path);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

} // namespace

TEST_CASE("plan prints the fastest layouts with their step, MFU, memory and breakdown",
          "[cli][plan]")
{
    const CliRun run = runCli({"plan", example("multiplane-16k-h100.json"), "--top", "3", "-q"});
    INFO(run.err);
    REQUIRE(run.code == 0);
    CHECK(run.out.find("step s") != std::string::npos);
    CHECK(run.out.find("MFU") != std::string::npos);
    CHECK(run.out.find("mem GB") != std::string::npos);
    CHECK(run.out.find("bubble") != std::string::npos);
    CHECK(run.out.find("\n  1 ") != std::string::npos);
    CHECK(run.out.find("\n  3 ") != std::string::npos);
    CHECK(run.out.find("\n  4 ") == std::string::npos);
    CHECK(run.out.find("now") != std::string::npos);
    CHECK(run.out.find("To apply #1, set in \"workload\":\n  \"tensor_parallel\": ") !=
          std::string::npos);
    CHECK(run.err.empty()); // -q: no progress bar, no summary, and no diagnostics to show
}

TEST_CASE("plan --json and --csv give the same layouts", "[cli][plan]")
{
    const CliRun j = runCli({"plan", example("multiplane-16k-h100.json"), "-n", "4", "--json"});
    REQUIRE(j.code == 0);
    const json doc = json::parse(j.out);
    REQUIRE(doc["layouts"].size() == 4);
    CHECK(doc["gpus"] == 16384);
    CHECK(doc["search"]["layouts"].get<int>() > doc["search"]["timed"].get<int>());
    double previous = 0.0;
    for (const auto& layout : doc["layouts"]) {
        const double step = layout["step_seconds"];
        CHECK(step >= previous);
        previous = step;
        CHECK(layout["memory_gb"].get<double>() <= layout["memory_capacity_gb"].get<double>());
        CHECK(layout["breakdown_seconds"].contains("bubble"));
        CHECK(layout["breakdown_seconds"].contains("tensor_parallel"));
        CHECK(layout["fields"].contains("/workload/pipeline_parallel"));
        // The parts add up to the step (stragglers included, no data-loader wait here).
        double sum = 0.0;
        for (const auto& [key, seconds] : layout["breakdown_seconds"].items())
            sum += seconds.get<double>();
        CHECK(sum == Approx(step).epsilon(1e-9));
    }
    REQUIRE(doc.contains("current"));
    CHECK(doc["current"]["fits"] == true);

    const CliRun c = runCli({"plan", example("multiplane-16k-h100.json"), "-n", "4", "--csv"});
    REQUIRE(c.code == 0);
    std::istringstream lines(c.out);
    std::string header, current, first;
    std::getline(lines, header);
    std::getline(lines, current);
    std::getline(lines, first);
    CHECK(header.rfind("rank,tensor_parallel,", 0) == 0);
    CHECK(current.rfind("current,", 0) == 0);
    CHECK(first.rfind("1,", 0) == 0);
    const int layout = doc["layouts"][0]["layout"]["tensor_parallel"];
    CHECK(first.rfind("1," + std::to_string(layout) + ",", 0) == 0);
    // The last two columns: the slowdown the hidden data-parallel collectives cost the GEMMs,
    // which the ZeRO-1 layout of the example has (its gradients and weights reduced under the
    // step), and the GPUs' wait for the host, which its dense 405B's long kernels never have.
    const std::string last = "overlap_contention_seconds,host_wait_seconds";
    REQUIRE(header.size() > last.size());
    CHECK(header.compare(header.size() - last.size(), last.size(), last) == 0);
    const std::string withoutLast = current.substr(0, current.rfind(','));
    CHECK(std::stod(withoutLast.substr(withoutLast.rfind(',') + 1)) > 0.0);
    CHECK(std::stod(current.substr(current.rfind(',') + 1)) == 0.0);
}

TEST_CASE("plan applies the constraints it is given", "[cli][plan]")
{
    const CliRun run = runCli({"plan", example("multiplane-16k-h100.json"), "--json", "--tp", "4",
                               "--pp", "8,16", "--recompute", "full", "--zero", "1"});
    REQUIRE(run.code == 0);
    const json doc = json::parse(run.out);
    REQUIRE_FALSE(doc["layouts"].empty());
    for (const auto& layout : doc["layouts"]) {
        CHECK(layout["layout"]["tensor_parallel"] == 4);
        const int pp = layout["layout"]["pipeline_parallel"];
        CHECK((pp == 8 || pp == 16));
        CHECK(layout["layout"]["recompute"] == "full");
        CHECK(layout["layout"]["zero_stage"] == 1);
    }
}

TEST_CASE("plan --headroom-gb keeps that much GPU memory free in every layout", "[cli][plan]")
{
    const CliRun full = runCli({"plan", example("multiplane-16k-h100.json"), "--json", "-n", "3"});
    const CliRun spare = runCli(
        {"plan", example("multiplane-16k-h100.json"), "--json", "-n", "3", "--headroom-gb", "8"});
    REQUIRE(full.code == 0);
    REQUIRE(spare.code == 0);
    const json a = json::parse(full.out);
    const json b = json::parse(spare.out);
    REQUIRE_FALSE(b["layouts"].empty());
    double fullest = 0.0;
    for (const auto& layout : a["layouts"])
        fullest = std::max(fullest, layout["memory_gb"].get<double>());
    // The search without headroom fills the memory closer than 8 GB (the test's premise).
    CHECK(fullest > 72.0);
    for (const auto& layout : b["layouts"])
        CHECK(layout["memory_gb"].get<double>() <= 80.0 - 8.0 + 1e-9);

    const CliRun none =
        runCli({"plan", example("multiplane-16k-h100.json"), "--headroom-gb", "79", "--quiet"});
    CHECK(none.code == 1);
    CHECK(none.err.find("with 79 GB left free") != std::string::npos);
    CHECK(runCli({"plan", example("multiplane-16k-h100.json"), "--headroom-gb", "-1"}).code == 2);
}

TEST_CASE("plan's errors name the file and the field, exit codes as eval's", "[cli][plan][errors]")
{
    const CliRun missing = runCli({"plan", "/nonexistent/scenario.json"});
    CHECK(missing.code == 2);
    CHECK(missing.err.find("/nonexistent/scenario.json") != std::string::npos);

    json bad = readJson(example("multiplane-16k-h100.json"));
    bad["workload"]["tensor_parallel"] = "eight";
    const std::string badPath = writeTemp("dct-plan-bad.json", bad);
    const CliRun wrong = runCli({"plan", badPath});
    CHECK(wrong.code == 2);
    CHECK(wrong.err.find("dct-plan-bad.json") != std::string::npos);
    CHECK(wrong.err.find("/workload/tensor_parallel") != std::string::npos);

    const CliRun none = runCli({"plan", example("multiplane-16k-h100.json"), "--tp", "3", "-q"});
    CHECK(none.code == 1);
    CHECK(none.err.find("multiplane-16k-h100.json") != std::string::npos);
    CHECK(none.err.find("no layout") != std::string::npos);

    const CliRun usage = runCli({"plan", example("multiplane-16k-h100.json"), "--zero", "5"});
    CHECK(usage.code == 2);
}

TEST_CASE("compare shows the step figures of two layouts", "[cli][compare][plan]")
{
    json other = readJson(example("multiplane-16k-h100.json"));
    other["workload"]["virtual_stages"] = 4;
    other["name"] = "16k, 4 virtual stages";
    const std::string otherPath = writeTemp("dct-plan-v4.json", other);
    const CliRun run = runCli({"compare", example("multiplane-16k-h100.json"), otherPath, "-d"});
    INFO(run.err);
    REQUIRE(run.code == 0);
    CHECK(run.out.find("Pipeline bubble") != std::string::npos);
    CHECK(run.out.find("Step time of the layout (before stragglers)") != std::string::npos);
    CHECK(run.out.find("Step time (the layout's step + stragglers)") != std::string::npos);
}

TEST_CASE("the bash completion and the man page name every command", "[cli][packaging]")
{
    const fs::path packaging = fs::path(DCT_TEST_SOURCE_DIR) / "packaging";
    const std::string completion = readText(packaging / "completion" / "dctwin-cli");
    const std::string man = readText(packaging / "man" / "dctwin-cli.1");
    REQUIRE_FALSE(completion.empty());
    REQUIRE_FALSE(man.empty());
    const std::size_t commandsAt = completion.find("local commands=\"");
    REQUIRE(commandsAt != std::string::npos);
    const std::string commands =
        " " +
        completion.substr(commandsAt + 16,
                          completion.find('"', commandsAt + 16) - commandsAt - 16) +
        " ";
    for (const std::string& name : cli::commandNames()) {
        INFO(name);
        std::string spaced = commands;
        for (char& ch : spaced)
            if (ch == '\n')
                ch = ' ';
        CHECK(spaced.find(" " + name + " ") != std::string::npos);
        std::string manName = name;
        for (std::size_t at = manName.find('-'); at != std::string::npos;
             at = manName.find('-', at + 2))
            manName.replace(at, 1, "\\-");
        CHECK((man.find(".BI " + manName + " ") != std::string::npos ||
               man.find(".BR " + manName + " ") != std::string::npos ||
               man.find(".B " + manName + "\n") != std::string::npos ||
               man.find(".BI \"" + manName) != std::string::npos));
    }
}

TEST_CASE("plan tries the expert all-to-all overlap of a mixture of experts, and --a2a-overlap "
          "narrows it",
          "[cli][plan][moe]")
{
    // The bundled Qwen3-30B-A3B example: its fastest layouts hold the expert all-to-all
    // overlapped where Megatron-Core runs it; each says so in JSON, in CSV and in the table, and
    // the fields to apply set it.
    const CliRun j = runCli({"plan", example("moe-qwen3-h100.json"), "--json", "-n", "20"});
    INFO(j.err);
    REQUIRE(j.code == 0);
    const json doc = json::parse(j.out);
    int on = 0;
    for (const auto& layout : doc["layouts"]) {
        REQUIRE(layout["layout"].contains("moe_a2a_overlap"));
        if (layout["layout"]["moe_a2a_overlap"].get<bool>()) {
            ++on;
            CHECK(layout["fields"]["/workload/moe_a2a_overlap"] == true);
            CHECK(layout["layout"]["expert_parallel"].get<int>() > 1);
            CHECK(layout["layout"]["recompute"] != "full");
        }
    }
    CHECK(on > 0);
    CHECK(doc["current"]["layout"]["moe_a2a_overlap"] == false);

    const CliRun off = runCli(
        {"plan", example("moe-qwen3-h100.json"), "--json", "-n", "20", "--a2a-overlap", "off"});
    REQUIRE(off.code == 0);
    const json plain = json::parse(off.out);
    REQUIRE_FALSE(plain["layouts"].empty());
    for (const auto& layout : plain["layouts"]) {
        CHECK(layout["layout"]["moe_a2a_overlap"] == false);
        CHECK_FALSE(layout["fields"].contains("/workload/moe_a2a_overlap"));
    }
    CHECK(plain["search"]["layouts"].get<long long>() < doc["search"]["layouts"].get<long long>());

    const CliRun text = runCli({"plan", example("moe-qwen3-h100.json"), "-n", "3", "-q"});
    REQUIRE(text.code == 0);
    CHECK(text.out.find(" ovl ") != std::string::npos);
    CHECK(text.out.find("\"moe_a2a_overlap\": true") != std::string::npos);
    const CliRun csv = runCli({"plan", example("moe-qwen3-h100.json"), "-n", "3", "--csv"});
    REQUIRE(csv.code == 0);
    CHECK(csv.out.find(",activation_offload_layers,moe_a2a_overlap,step_seconds,") !=
          std::string::npos);
    CHECK(runCli({"plan", example("moe-qwen3-h100.json"), "--a2a-overlap", "maybe"}).code == 2);
}
