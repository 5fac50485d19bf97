// dctwin-cli sweep and sweep-merge against hostile inputs: the estimate and the caps before a
// run, the shard records and the merge's checks, naming the file and the line, and temporary
// files left by killed runs.
#include "clirunner.h"
#include "dct/model/atomicfile.h"

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <sys/wait.h>
#include <tuple>
#include <unistd.h>

using namespace dct;
using dct::test::CliRun;
using dct::test::runCli;
using nlohmann::json;
namespace fs = std::filesystem;

namespace {

fs::path scratch(const std::string& name)
{
    const fs::path dir =
        fs::temp_directory_path() / ("dct-sweepcli-" + name + "-" + std::to_string(::getpid()));
    fs::remove_all(dir);
    fs::create_directories(dir);
    return dir;
}

std::string exampleSpec()
{
    return (test::dataDir() / "examples" / "sweeps" / "seed-nodes-cooling-site.json").string();
}

std::string seed()
{
    return (test::dataDir() / "examples" / "seed-h100-dallas-d2c.json").string();
}

std::string writeSpec(const fs::path& path, const json& spec)
{
    std::ofstream(path) << spec.dump(2);
    return path.string();
}

/** A spec of \a nodes x \a samples variants over the seed case, with every metric. */
json gridSpec(int nodes, int samples)
{
    return {{"base", seed()},
            {"axes",
             {{{"field", "/compute/node_count"}, {"from", 8}, {"to", 7 + nodes}, {"step", 1}},
              {{"field", "/network/tiers"}, {"values", {0}}},
              {{"field", "/workload/mfu"},
               {"sample", "uniform"},
               {"min", 0.3},
               {"max", 0.5},
               {"count", samples},
               {"seed", 1}}}}};
}

std::string slurp(const fs::path& path)
{
    std::ifstream in(path, std::ios::binary);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
}

double secondsSince(std::chrono::steady_clock::time_point start)
{
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

} // namespace

TEST_CASE("sweep prints its variant count and output estimate before it runs", "[cli][sweep]")
{
    const fs::path dir = scratch("estimate");
    const std::string out = (dir / "sweep.csv").string();
    const CliRun r = runCli({"sweep", exampleSpec(), "-o", out});
    INFO(r.err);
    REQUIRE(r.code == cli::ExitOk);
    CHECK_THAT(r.err, Catch::StartsWith("sweep: 120 variants, about "));
    CHECK_THAT(r.err, Catch::Contains(" kB of CSV\n"));
    CHECK(fs::exists(out + ".shard.json"));
    const CliRun shard =
        runCli({"sweep", exampleSpec(), "-f", "jsonl", "--shard", "1/3", "-o", out});
    CHECK(shard.code == cli::ExitOk);
    CHECK_THAT(shard.err, Catch::StartsWith("sweep: 40 variants (shard 1/3 of 120), about "));
    CHECK_THAT(shard.err, Catch::Contains("kB of JSON lines\n"));
    const CliRun quiet = runCli({"sweep", exampleSpec(), "-q", "-o", out});
    CHECK(quiet.code == cli::ExitOk);
    CHECK(quiet.err.empty());
    fs::remove_all(dir);
}

TEST_CASE("sweep writes CSV at the table's precision unless --precision full is given",
          "[cli][sweep][precision]")
{
    const fs::path dir = scratch("precision");
    const std::string shown = (dir / "shown.csv").string();
    const std::string exact = (dir / "exact.csv").string();
    const std::string exactTail = (dir / "exact-1.csv").string();
    REQUIRE(runCli({"sweep", exampleSpec(), "-q", "-o", shown}).code == cli::ExitOk);
    REQUIRE(runCli({"sweep", exampleSpec(), "-q", "--precision", "full", "-o", exact}).code ==
            cli::ExitOk);
    CHECK(json::parse(slurp(shown + ".shard.json"))["precision"] == "display");
    CHECK(json::parse(slurp(exact + ".shard.json"))["precision"] == "full");
    // The same rows; the rounded file is shorter (about four significant digits a value).
    const std::string shownText = slurp(shown);
    const std::string exactText = slurp(exact);
    CHECK(std::count(shownText.begin(), shownText.end(), '\n') ==
          std::count(exactText.begin(), exactText.end(), '\n'));
    CHECK(shownText.size() < exactText.size());
    CHECK(shownText.substr(0, shownText.find('\n')) == exactText.substr(0, exactText.find('\n')));

    // Parts written at both precisions are not merged into one file.
    for (const auto& [shard, path, precision] :
         {std::tuple{"0/2", shown, "display"}, std::tuple{"1/2", exactTail, "full"}})
        REQUIRE(runCli({"sweep", exampleSpec(), "-q", "--shard", shard, "--precision", precision,
                        "-o", path})
                    .code == cli::ExitOk);
    const CliRun mixed = runCli({"sweep-merge", shown, exactTail});
    CHECK(mixed.code == cli::ExitUsage);
    CHECK_THAT(mixed.err, Catch::Contains(exactTail + ": this part's values are at full "
                                                      "precision"));
    CHECK_THAT(mixed.err, Catch::Contains("--precision"));
    CHECK(mixed.out.empty());
    const CliRun bad = runCli({"sweep", exampleSpec(), "--precision", "rounded"});
    CHECK(bad.code == cli::ExitUsage);
    CHECK_THAT(bad.err, Catch::Contains("--precision"));
    fs::remove_all(dir);
}

TEST_CASE("sweep refuses a grid over 1,000,000 variants without --force, at once",
          "[cli][sweep][limits]")
{
    const fs::path dir = scratch("cap");
    const std::string spec = writeSpec(dir / "big.json", gridSpec(2000, 1000));
    const std::string out = (dir / "big.csv").string();
    const auto started = std::chrono::steady_clock::now();
    const CliRun r = runCli({"sweep", spec, "-o", out});
    CHECK(secondsSince(started) < 5.0);
    CHECK(r.code == cli::ExitUsage);
    CHECK_THAT(r.err, Catch::Contains(spec + ": /axes: the grid has 2,000,000 variants, more "
                                             "than 1,000,000 per run"));
    CHECK_THAT(r.err, Catch::Contains("--force"));
    CHECK_FALSE(fs::exists(out));

    // Many huge axes: counted, not expanded, even with --force.
    json huge = gridSpec(1, 1);
    for (const char* field : {"/compute/utilization", "/workload/overlap_fraction",
                              "/economics/egress_tb_per_month", "/a", "/b", "/c"})
        huge["axes"].push_back({{"field", field}, {"from", 0}, {"to", 9999999}, {"step", 1}});
    const std::string hugeSpec = writeSpec(dir / "huge.json", huge);
    const auto hugeStarted = std::chrono::steady_clock::now();
    const CliRun forced = runCli({"sweep", hugeSpec, "--force", "-o", out});
    CHECK(secondsSince(hugeStarted) < 5.0);
    CHECK(forced.code == cli::ExitUsage);
    CHECK_THAT(forced.err, Catch::Contains("more than 10^15 variants"));
    fs::remove_all(dir);
}

TEST_CASE("sweep refuses an output estimated over 2 GB without --force", "[cli][sweep][limits]")
{
    // 1,000,000 variants with every metric as JSON lines: several GB.
    const fs::path dir = scratch("size");
    const std::string spec = writeSpec(dir / "wide.json", gridSpec(1000, 1000));
    const std::string out = (dir / "wide.jsonl").string();
    const CliRun r = runCli({"sweep", spec, "-f", "jsonl", "-o", out});
    CHECK(r.code == cli::ExitUsage);
    CHECK_THAT(r.err, Catch::Contains("sweep: 1,000,000 variants, about "));
    CHECK_THAT(r.err, Catch::Contains(spec + ": the output would be about "));
    CHECK_THAT(r.err, Catch::Contains("GB of JSON lines for 1,000,000 variants, more than 2 GB"));
    CHECK_FALSE(fs::exists(out));
    fs::remove_all(dir);
}

TEST_CASE("sweep --shard needs -o, where the part's record goes", "[cli][sweep]")
{
    const CliRun r = runCli({"sweep", exampleSpec(), "--shard", "0/2"});
    CHECK(r.code == cli::ExitUsage);
    CHECK_THAT(r.err, Catch::Contains("--shard needs -o FILE"));
    CHECK(r.out.empty());
}

TEST_CASE("sweep-merge refuses damaged parts through the CLI, naming the file and the line",
          "[cli][sweep][merge]")
{
    const fs::path dir = scratch("merge");
    std::vector<std::string> parts;
    for (const char* shard : {"0/2", "1/2"}) {
        const std::string part = (dir / ("part-" + std::string(1, shard[0]) + ".jsonl")).string();
        const CliRun r =
            runCli({"sweep", exampleSpec(), "-q", "-f", "jsonl", "--shard", shard, "-o", part});
        REQUIRE(r.code == cli::ExitOk);
        parts.push_back(part);
    }
    const CliRun whole = runCli({"sweep-merge", parts[0], parts[1]});
    REQUIRE(whole.code == cli::ExitOk);

    // A missing shard: before, 4 of 6 rows with exit 0.
    const CliRun missing = runCli({"sweep-merge", parts[0]});
    CHECK(missing.code == cli::ExitUsage);
    CHECK_THAT(missing.err, Catch::Contains(parts[0] + ": shard 1/2 of this sweep is missing"));
    CHECK(missing.out.empty());
    // A folder, and random bytes without a record.
    const CliRun folder = runCli({"sweep-merge", parts[0], dir.string()});
    CHECK(folder.code == cli::ExitUsage);
    CHECK_THAT(folder.err, Catch::Contains(dir.string() + ": a folder"));
    std::ofstream(dir / "noise.bin", std::ios::binary) << std::string("\x01\x9f\x00zz,\n\xff", 8);
    const CliRun noise = runCli({"sweep-merge", (dir / "noise.bin").string()});
    CHECK(noise.code == cli::ExitUsage);
    CHECK_THAT(noise.err, Catch::Contains("no part record"));

    // A row without "metrics" (the --pareto reproducer): refused at its line.
    std::string text = slurp(parts[1]);
    const auto at = text.find(",\"metrics\":{");
    const auto end = text.find('}', text.find('{', at + 1)) + 1;
    text.erase(at, end - at);
    std::ofstream(parts[1], std::ios::binary | std::ios::trunc) << text;
    const CliRun pareto = runCli({"sweep-merge", parts[0], parts[1], "--spec", exampleSpec(),
                                  "--pareto", (dir / "front.jsonl").string()});
    CHECK(pareto.code == cli::ExitUsage);
    CHECK_THAT(pareto.err, Catch::Contains(parts[1] + ": line 1: \"metrics\" is missing"));
    CHECK_FALSE(fs::exists(dir / "front.jsonl"));

    // A truncated part (its last row cut): refused at its last line.
    std::string cut = slurp(parts[0]);
    cut.resize(cut.size() - 20);
    std::ofstream(parts[0], std::ios::binary | std::ios::trunc) << cut;
    const CliRun truncated = runCli({"sweep-merge", parts[0]});
    CHECK(truncated.code == cli::ExitUsage);
    CHECK_THAT(truncated.err, Catch::Contains(parts[0] + ": line "));
    CHECK_THAT(truncated.err, Catch::Contains("truncated"));
    fs::remove_all(dir);
}

TEST_CASE("sweep-merge --spec checks that the parts were run from that spec", "[cli][sweep][merge]")
{
    const fs::path dir = scratch("spechash");
    const std::string spec = writeSpec(dir / "a.json", gridSpec(4, 2));
    json otherJson = gridSpec(4, 2);
    otherJson["axes"][2]["seed"] = 2; // other samples of the same axis
    const std::string other = writeSpec(dir / "b.json", otherJson);
    const std::string part = (dir / "a.csv").string();
    REQUIRE(runCli({"sweep", spec, "-q", "-o", part}).code == cli::ExitOk);
    CHECK(runCli({"sweep-merge", part, "--spec", spec}).code == cli::ExitOk);
    const CliRun r = runCli({"sweep-merge", part, "--spec", other});
    CHECK(r.code == cli::ExitUsage);
    CHECK_THAT(r.err, Catch::Contains(other + ": the parts were not written from this spec"));
    fs::remove_all(dir);
}

TEST_CASE("a temporary file left by a killed sweep is removed by the next run writing the output",
          "[cli][sweep][signals]")
{
    const fs::path dir = scratch("stale");
    const fs::path out = dir / "sweep.csv";
    // A process that has ended: its id names the stale file.
    const pid_t child = ::fork();
    if (child == 0)
        ::_exit(0);
    REQUIRE(child > 0);
    int status = 0;
    ::waitpid(child, &status, 0);
    const std::string ours = temporaryPathFor(out).string();
    const std::string suffix = "-" + std::to_string(::getpid());
    REQUIRE(ours.size() > suffix.size());
    const std::string stem = ours.substr(0, ours.size() - suffix.size());
    const fs::path stale = stem + "-" + std::to_string(child);
    const fs::path live = stem + "-" + std::to_string(::getppid()); // still running
    const fs::path other = dir / "other.csv.part-1";                // another output's: not touched
    for (const auto& p : {stale, live, other})
        std::ofstream(p) << "partial rows\n";
    const CliRun r = runCli({"sweep", exampleSpec(), "-q", "-o", out.string()});
    CHECK(r.code == cli::ExitOk);
    CHECK_FALSE(fs::exists(stale));
    CHECK(fs::exists(live));
    CHECK(fs::exists(other));
    CHECK(fs::exists(out));
    fs::remove_all(dir);
}
