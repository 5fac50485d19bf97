// `dctwin-cli calibrate nccl-tests` end to end: the fit printed and stored, `eval` and
// `store eval` using the profile a scenario names, and every refusal with its exit code.
#include "clirunner.h"

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <unistd.h>

using namespace dct;
using namespace dct::test;
namespace fs = std::filesystem;
using nlohmann::json;

namespace {

fs::path ncclData()
{
    return fs::path(DCT_TEST_SOURCE_DIR) / "tests" / "data" / "nccl-tests";
}

std::string a3megaLog()
{
    return (ncclData() / "a3mega-2x8-h100-all_reduce_perf.log").string();
}

std::string a3megaScenario()
{
    return (ncclData() / "a3mega-2x8-h100.json").string();
}

struct Scratch
{
    fs::path path;
    explicit Scratch(const std::string& name)
    {
        path = fs::temp_directory_path() /
               ("dct-calibrate-" + name + "-" + std::to_string(::getpid()));
        fs::remove_all(path);
        fs::create_directories(path);
    }
    ~Scratch() { fs::remove_all(path); }
    std::string store() const { return (path / "library.sqlite").string(); }
};

/** Writes the A3 Mega scenario with \a profile named and \a nodes nodes; returns its path. */
std::string scenarioNaming(const Scratch& dir, const std::string& profile, int nodes = 2)
{
    std::ifstream in(a3megaScenario());
    json j = json::parse(in);
    j["network"]["calibration_profile"] = profile;
    j["compute"]["node_count"] = nodes;
    const fs::path file =
        dir.path / ("scenario-" + profile + "-" + std::to_string(nodes) + ".json");
    std::ofstream(file) << j.dump(2);
    return file.string();
}

CliRun calibrate(const Scratch& dir, const std::string& name = "a3mega")
{
    return runCli({"calibrate", "nccl-tests", a3megaLog(), "--scenario", a3megaScenario(), "--name",
                   name, "--store", dir.store()});
}

double gradientAllReduceBusbw(const std::string& jsonText)
{
    const json j = json::parse(jsonText);
    return j.at("metrics")
        .at("collectives.gradient_allreduce_busbw_gbyte_per_s")
        .at("value")
        .get<double>();
}

} // namespace

TEST_CASE("calibrate nccl-tests prints the fit and every size and stores the profile",
          "[cli][calibrate]")
{
    Scratch dir("fit");
    const CliRun r = calibrate(dir);
    INFO(r.err);
    REQUIRE(r.code == cli::ExitOk);
    CHECK(r.err.empty());
    CHECK_THAT(r.out, Catch::Contains("Calibration profile 'a3mega'"));
    CHECK_THAT(r.out, Catch::Contains("Fitted on 31 sizes of a3mega-2x8-h100-all_reduce_perf.log"));
    CHECK_THAT(r.out, Catch::Contains("network transport bandwidth"));
    CHECK_THAT(r.out, Catch::Contains("all_reduce_perf       8 GiB"));
    CHECK_THAT(r.out, Catch::Contains("Stored as calibration profile 'a3mega' in " + dir.store()));

    const CliRun j = runCli({"calibrate", "nccl-tests", a3megaLog(), "--scenario", a3megaScenario(),
                             "--name", "a3mega", "--store", dir.store(), "--format", "json"});
    REQUIRE(j.code == cli::ExitOk);
    const json profile = json::parse(j.out);
    CHECK(profile.at("name") == "a3mega");
    CHECK(profile.at("system").at("gpus") == 16);
    CHECK(profile.at("points").size() == 31);
    CHECK(profile.at("factors").contains("fabric_bandwidth_factor"));
    CHECK(profile.at("rms_residual_percent").get<double>() <
          profile.at("uncalibrated_rms_residual_percent").get<double>());
    // "Within 5%" both ways: the largest residual and the count of sizes within it.
    CHECK(profile.at("max_abs_residual_percent").get<double>() >=
          profile.at("rms_residual_percent").get<double>());
    CHECK(profile.at("sizes_within_5_percent").get<int>() <= 31);
    CHECK(profile.at("nccl_version").is_null()); // the A3 Mega log prints no banner
    CHECK(profile.at("choice") == "engine");
}

TEST_CASE("calibrate prints the largest residual, the noisy sizes and the NCCL release",
          "[cli][calibrate]")
{
    Scratch dir("release");
    const CliRun a3 = calibrate(dir);
    REQUIRE(a3.code == cli::ExitOk);
    CHECK_THAT(a3.out, Catch::Contains("largest |residual|: "));
    CHECK_THAT(a3.out, Catch::Contains(" of 31 sizes within 5%"));
    // A3 Mega's 1 KiB: 147.1 us out of place, 123.1 in place (16.3% apart), marked and kept.
    CHECK_THAT(a3.out, Catch::Contains("16.3%* "));
    CHECK_THAT(a3.out, Catch::Contains("(marked *) time in place and out of place more than 5%"));
    CHECK_THAT(a3.out, Catch::Contains("the logs do not name their NCCL release"));

    const std::string p4dLog = (ncclData() / "p4d-2x8-a100-efa-all_reduce_perf.log").string();
    const std::string p4d = (ncclData() / "p4d-2x8-a100.json").string();
    const CliRun engine = runCli({"calibrate", "nccl-tests", p4dLog, "--scenario", p4d, "--name",
                                  "p4d", "--store", dir.store()});
    INFO(engine.err);
    REQUIRE(engine.code == cli::ExitOk);
    CHECK_THAT(engine.out, Catch::Contains("the engine's fastest (the logs ran NCCL 2.9.9; "
                                           "--nccl-choice release times its tuner's picks)"));
    const CliRun release = runCli({"calibrate", "nccl-tests", p4dLog, "--scenario", p4d, "--name",
                                   "p4d", "--store", dir.store(), "--nccl-choice", "release"});
    INFO(release.err);
    REQUIRE(release.code == cli::ExitOk);
    CHECK_THAT(release.out,
               Catch::Contains("the algorithm and protocol NCCL 2.9.9's tuner picks (line 25 of"));
    CHECK_THAT(release.out, Catch::Contains("tree/LL128"));
    CHECK_THAT(release.out, !Catch::Contains("ring/"));
}

TEST_CASE("eval uses the profile a scenario names and says so", "[cli][calibrate]")
{
    Scratch dir("eval");
    const CliRun fit =
        runCli({"calibrate", "nccl-tests", a3megaLog(), "--scenario", a3megaScenario(), "--name",
                "a3mega", "--store", dir.store(), "-f", "json"});
    REQUIRE(fit.code == cli::ExitOk);
    const double fabricFactor =
        json::parse(fit.out).at("factors").at("fabric_bandwidth_factor").get<double>();
    const CliRun plain = runCli({"eval", a3megaScenario(), "--store", dir.store(), "-f", "json"});
    const CliRun calibrated =
        runCli({"eval", scenarioNaming(dir, "a3mega"), "--store", dir.store(), "-f", "json"});
    INFO(calibrated.err);
    CHECK(plain.code == cli::ExitOk);
    CHECK(calibrated.code == cli::ExitOk);
    CHECK_THAT(calibrated.out, Catch::Contains("the collectives use the calibration profile "
                                               "'a3mega'"));
    // The gradients' all-reduce (3.2 GB between the two nodes, one rank each) is bound by the
    // network: its bus bandwidth moves by the profile's network bandwidth factor.
    const double ratio = gradientAllReduceBusbw(calibrated.out) / gradientAllReduceBusbw(plain.out);
    INFO("busbw ratio " << ratio << ", fitted network bandwidth factor " << fabricFactor);
    CHECK(ratio != 1.0);
    CHECK(ratio == Approx(fabricFactor).epsilon(0.01));
}

// A profile says how its fit timed the sizes; eval times them so and says so (issue 11: a
// profile fitted with --nccl-choice release kept a chunk step factor eval never read).
TEST_CASE("A profile fitted on a release's picks is evaluated on them and says so",
          "[cli][calibrate]")
{
    Scratch dir("timing");
    const std::string p4dLog = (ncclData() / "p4d-2x8-a100-efa-all_reduce_perf.log").string();
    const std::string p4d = (ncclData() / "p4d-2x8-a100.json").string();
    const CliRun fit =
        runCli({"calibrate", "nccl-tests", p4dLog, "--scenario", p4d, "--name", "p4d", "--store",
                dir.store(), "--nccl-choice", "release", "-f", "json"});
    INFO(fit.err);
    REQUIRE(fit.code == cli::ExitOk);
    const json profile = json::parse(fit.out);
    CHECK(profile.at("timing").at("choice") == "nccl_release");
    CHECK(profile.at("timing").at("nccl_version") == "2.9.9");
    const CliRun engine = runCli({"calibrate", "nccl-tests", p4dLog, "--scenario", p4d, "--name",
                                  "p4d-engine", "--store", dir.store(), "-f", "json"});
    REQUIRE(engine.code == cli::ExitOk);
    CHECK(json::parse(engine.out).at("timing").at("choice") == "engine");
    CHECK(json::parse(engine.out).at("timing").at("nccl_version") == "2.9.9");

    std::ifstream in(p4d);
    json scenario = json::parse(in);
    scenario["network"]["calibration_profile"] = "p4d";
    const fs::path file = dir.path / "p4d.json";
    std::ofstream(file) << scenario.dump(2);
    const CliRun eval = runCli({"eval", file.string(), "--store", dir.store(), "-f", "json"});
    INFO(eval.err);
    CHECK(eval.code == cli::ExitOk);
    CHECK_THAT(eval.out, Catch::Contains("timed with the algorithm and protocol NCCL 2.9.9's tuner "
                                         "picks, its tree pipelined as that release does"));
}

TEST_CASE("A profile that is not in the library is an error of the field", "[cli][calibrate]")
{
    Scratch dir("missing");
    REQUIRE(calibrate(dir).code == cli::ExitOk);
    const CliRun r = runCli({"eval", scenarioNaming(dir, "nope"), "--store", dir.store()});
    CHECK(r.code == cli::ExitUsage);
    CHECK_THAT(r.err, Catch::Contains("/network/calibration_profile"));
    CHECK_THAT(r.err, Catch::Contains("no calibration profile named 'nope' in the store"));
    CHECK_THAT(r.err, Catch::Contains("one of a3mega"));

    const CliRun noLibrary = runCli(
        {"eval", scenarioNaming(dir, "a3mega"), "--store", (dir.path / "absent.sqlite").string()});
    CHECK(noLibrary.code == cli::ExitUsage);
    CHECK_THAT(noLibrary.err, Catch::Contains("no scenario library here"));
    CHECK_FALSE(fs::exists(dir.path / "absent.sqlite"));
}

TEST_CASE("A profile fitted on another GPU count is refused", "[cli][calibrate]")
{
    Scratch dir("mismatch");
    REQUIRE(calibrate(dir).code == cli::ExitOk);
    const CliRun r = runCli({"eval", scenarioNaming(dir, "a3mega", 4), "--store", dir.store()});
    CHECK(r.code == cli::ExitUsage);
    CHECK_THAT(r.err, Catch::Contains("/network/calibration_profile: the calibration profile "
                                      "'a3mega' was fitted on another system: measured on 16 "
                                      "GPUs, the scenario has 32"));
}

TEST_CASE("Logs that do not match the scenario or do not parse exit 2 with the line",
          "[cli][calibrate]")
{
    Scratch dir("refused");
    SECTION("a run on another GPU count")
    {
        const CliRun r = runCli({"calibrate", "nccl-tests", a3megaLog(), "--scenario",
                                 scenarioNaming(dir, "", 4), "--store", dir.store()});
        CHECK(r.code == cli::ExitUsage);
        CHECK_THAT(r.err, Catch::Contains("a3mega-2x8-h100-all_reduce_perf.log: line 12: the "
                                          "run has 16 GPUs (2 nodes of 8), the scenario"));
        CHECK(r.out.empty());
    }
    SECTION("a malformed log")
    {
        const fs::path bad = dir.path / "all_reduce_perf.log";
        std::ifstream in(a3megaLog());
        std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        text.replace(text.find("   1261.6 "), 10, "   12x1.6 ");
        std::ofstream(bad) << text;
        const CliRun r = runCli({"calibrate", "nccl-tests", bad.string(), "--scenario",
                                 a3megaScenario(), "--store", dir.store()});
        CHECK(r.code == cli::ExitUsage);
        CHECK_THAT(r.err, Catch::Contains(bad.string() + ": line 55: the out-of-place time"));
    }
    SECTION("no log")
    {
        const CliRun r = runCli({"calibrate", "nccl-tests", "--scenario", a3megaScenario()});
        CHECK(r.code == cli::ExitUsage);
    }
}

TEST_CASE("store eval uses the profile and a new fit makes its cached result stale",
          "[cli][calibrate][store]")
{
    Scratch dir("storeeval");
    REQUIRE(calibrate(dir).code == cli::ExitOk);
    REQUIRE(runCli({"store", "--store", dir.store(), "import", scenarioNaming(dir, "a3mega"),
                    "--name", "a3"})
                .code == cli::ExitOk);
    const CliRun first = runCli({"store", "--store", dir.store(), "eval", "a3"});
    INFO(first.err);
    CHECK(first.code == cli::ExitOk);
    CHECK_THAT(first.out, Catch::Contains("calibration profile 'a3mega'"));
    const CliRun cached = runCli({"store", "--store", dir.store(), "eval", "a3"});
    CHECK(cached.code == cli::ExitOk);
    CHECK_THAT(cached.err, Catch::Contains("cached result"));
    // Fitted again under the same name, on the sizes up to 4 GiB: the cached result no longer
    // holds.
    std::ifstream in(a3megaLog());
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    const auto last = text.find("  8589934592");
    REQUIRE(last != std::string::npos);
    text.erase(last, text.find('\n', last) + 1 - last);
    const fs::path shorter = dir.path / "all_reduce_perf-to-4g.log";
    std::ofstream(shorter) << text;
    REQUIRE(runCli({"calibrate", "nccl-tests", shorter.string(), "--scenario", a3megaScenario(),
                    "--name", "a3mega", "--store", dir.store()})
                .code == cli::ExitOk);
    const CliRun again = runCli({"store", "--store", dir.store(), "eval", "a3"});
    CHECK(again.code == cli::ExitOk);
    CHECK_THAT(again.err, !Catch::Contains("cached result"));
}

TEST_CASE("The HTML report of a calibrated scenario shows measured against model",
          "[cli][calibrate][report]")
{
    Scratch dir("report");
    REQUIRE(calibrate(dir).code == cli::ExitOk);
    // report reads the profiles of the default library, DCT_STORE.
    ::setenv("DCT_STORE", dir.store().c_str(), 1);
    const fs::path html = dir.path / "report.html";
    const CliRun r = runCli({"report", scenarioNaming(dir, "a3mega"), "--html", html.string()});
    ::unsetenv("DCT_STORE");
    INFO(r.err);
    CHECK(r.code == cli::ExitOk);
    std::ifstream in(html);
    const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    CHECK_THAT(text, Catch::Contains("Calibration of the collectives"));
    CHECK_THAT(text, Catch::Contains("Measured busbw (GB/s)"));
    CHECK_THAT(text, Catch::Contains("Each collective is timed with the engine&#39;s fastest "
                                     "algorithm and protocol, as in the fit") ||
                         Catch::Contains("Each collective is timed with the engine's fastest "
                                         "algorithm and protocol, as in the fit"));
    // One program for every size: named once in the note, not in a column of its own; the
    // section starts a page, so that its heading never ends one.
    CHECK_THAT(text, Catch::Contains("sizes of all_reduce_perf runs"));
    CHECK_THAT(text, !Catch::Contains("<th>Test</th>"));
    CHECK_THAT(text, Catch::Contains("<th>Timed with</th>"));
    CHECK_THAT(text, Catch::Contains("<h2 style=\"page-break-before: always\">Calibration of the "
                                     "collectives</h2>"));
    CHECK_THAT(text, Catch::Contains("calibration profile &#39;a3mega&#39;") ||
                         Catch::Contains("calibration profile 'a3mega'"));
}
