// Sweep safety: spec limits counted before any axis is expanded, a run that stops when asked,
// output estimates, and merges that refuse every damaged or foreign part, naming the file and
// the line.
#include "dct/model/resolver.h"
#include "dct/model/scenarioio.h"
#include "dct/study/sweepmerge.h"
#include "dct/study/sweeprunner.h"
#include "dct/study/sweepspec.h"
#include "testsupport.h"

#include <atomic>
#include <chrono>
#include <fstream>
#include <random>
#include <sstream>
#include <unistd.h>

using namespace dct;
using namespace dct::solvers;
using namespace dct::study;
using nlohmann::json;
namespace fs = std::filesystem;

namespace {

model::ResolvedScenario seedResolved()
{
    auto read = model::readScenarioFile(test::dataDir() / "examples" / "seed-h100-dallas-d2c.json");
    REQUIRE(read.scenario);
    auto resolved = model::resolveScenario(*read.scenario, test::catalog());
    REQUIRE(resolved.resolved);
    return *resolved.resolved;
}

/** A fast stand-in for evaluate(): two metrics from two fields; small node counts fail. */
Evaluation syntheticEvaluation(const model::ResolvedScenario& r)
{
    Evaluation e;
    const double nodes = r.scenario.compute.nodeCount;
    // The seed predicts its MFU (mfu 0); the synthetic figures take 0.4 unless a sweep sets it.
    const double mfu = r.scenario.workload.mfu > 0.0 ? r.scenario.workload.mfu : 0.4;
    e.add("cost.usd", "Cost", nodes * 10.0 + mfu * 100.0, "USD", Better::Lower);
    e.add("compute.days", "Days", 1000.0 / (nodes * mfu), "days", Better::Lower);
    if (r.scenario.compute.nodeCount == 3)
        e.diagnostics.error("/compute/node_count", "three nodes fail here");
    return e;
}

SweepRunner syntheticRunner(int nodes = 12)
{
    auto spec = parseSweepSpec(
        {{"base", "seed.json"},
         {"axes",
          {{{"field", "/compute/node_count"}, {"from", 1}, {"to", nodes}, {"step", 1}},
           {{"field", "/workload/mfu"}, {"values", {0.3, 0.4, 0.5}}},
           {{"field", "/workload/precision"}, {"values", {"bf16", "fp8"}}}}}},
        "spec.json");
    REQUIRE(spec);
    auto runner = SweepRunner::create(*spec, seedResolved(), syntheticEvaluation);
    REQUIRE(runner);
    return std::move(*runner);
}

std::string runToText(const SweepRunner& runner, SweepFormat format, SweepShard shard,
                      SweepSummary* summary = nullptr, std::function<bool()> stop = {})
{
    SweepRunOptions options;
    options.shard = shard;
    options.threads = 2;
    options.chunkVariants = 5;
    options.stop = std::move(stop);
    std::ostringstream out;
    const SweepSummary s = runner.run(options, format, out);
    if (summary)
        *summary = s;
    return out.str();
}

fs::path scratch(const std::string& name)
{
    const fs::path dir =
        fs::temp_directory_path() / ("dct-sweepchecks-" + name + "-" + std::to_string(::getpid()));
    fs::remove_all(dir);
    fs::create_directories(dir);
    return dir;
}

/** Writes the \a count shards of \a runner into \a dir with their records; returns the paths. */
std::vector<fs::path> writeShards(const SweepRunner& runner, SweepFormat format, int count,
                                  const fs::path& dir, const std::string& stem = "part")
{
    std::vector<fs::path> parts;
    for (int i = 0; i < count; ++i) {
        const fs::path part = dir / (stem + std::to_string(i));
        SweepSummary summary;
        std::ofstream(part, std::ios::binary) << runToText(runner, format, {i, count}, &summary);
        REQUIRE(runner.partRecord({i, count}, format, summary).writeBeside(part));
        parts.push_back(part);
    }
    return parts;
}

std::string slurp(const fs::path& path)
{
    std::ifstream in(path, std::ios::binary);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
}

void spill(const fs::path& path, const std::string& text)
{
    std::ofstream(path, std::ios::binary | std::ios::trunc) << text;
}

std::vector<std::string> linesOf(const std::string& text)
{
    std::vector<std::string> lines;
    std::istringstream in(text);
    std::string line;
    while (std::getline(in, line))
        lines.push_back(line);
    return lines;
}

std::string joinLines(const std::vector<std::string>& lines)
{
    std::string text;
    for (const auto& line : lines)
        text += line + "\n";
    return text;
}

/** The peak resident memory of this process so far, in kB (Linux), or 0. */
long peakResidentKb()
{
    std::ifstream status("/proc/self/status");
    std::string line;
    while (std::getline(status, line))
        if (line.rfind("VmHWM:", 0) == 0)
            return std::stol(line.substr(6));
    return 0;
}

} // namespace

TEST_CASE("grid sizes are multiplied without wrapping around", "[sweep][spec][limits]")
{
    CHECK(multiplyCounts(1ULL << 32, 1ULL << 31).value() == 1ULL << 63);
    CHECK_FALSE(multiplyCounts(1ULL << 32, 1ULL << 32));
    CHECK_FALSE(multiplyCounts(UINT64_MAX, 2));
    CHECK(multiplyCounts(0, UINT64_MAX).value() == 0);
}

TEST_CASE("a spec with many huge axes is refused before they are expanded", "[sweep][spec][limits]")
{
    // Twelve axes of ten million values each: 10^84 variants. Expanding them first took
    // gigabytes; counting first refuses the spec at once.
    json axes = json::array();
    for (const char* field : {"/compute/node_count", "/compute/utilization", "/workload/mfu",
                              "/workload/overlap_fraction", "/economics/egress_tb_per_month",
                              "/compute/gpus_per_node", "/a", "/b", "/c", "/d", "/e", "/f"})
        axes.push_back({{"field", field}, {"from", 0}, {"to", 9999999}, {"step", 1}});
    const json spec = {{"base", "x.json"}, {"axes", axes}};
    const long before = peakResidentKb();
    const auto started = std::chrono::steady_clock::now();
    auto parsed = parseSweepSpec(spec, "huge.json");
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    REQUIRE_FALSE(parsed);
    CHECK(parsed.error().file == "huge.json");
    CHECK(parsed.error().path == "/axes");
    CHECK_THAT(parsed.error().message, Catch::Contains("more than 10^15 variants"));
    CHECK(seconds < 1.0);
    if (before > 0)
        CHECK(peakResidentKb() - before < 50'000); // under 50 MB more than before

    // Two axes of six million values: 3.6 * 10^13 variants, but 12 million values to hold.
    const json wide = {{"base", "x.json"},
                       {"axes",
                        {{{"field", "/compute/node_count"}, {"from", 1}, {"to", 6e6}, {"step", 1}},
                         {{"field", "/workload/mfu"},
                          {"sample", "uniform"},
                          {"min", 0.1},
                          {"max", 0.9},
                          {"count", 6e6}}}}};
    auto refused = parseSweepSpec(wide, "wide.json");
    REQUIRE_FALSE(refused);
    CHECK(refused.error().path == "/axes");
    CHECK_THAT(refused.error().message, Catch::Contains("values together"));
}

TEST_CASE("the per-run variant limit counts the shards", "[sweep][spec][limits]")
{
    const json spec = {{"base", "x.json"},
                       {"axes",
                        {{{"field", "/compute/node_count"}, {"from", 1}, {"to", 2000}, {"step", 1}},
                         {{"field", "/workload/mfu"}, {"from", 1}, {"to", 1000}, {"step", 1}}}}};
    SweepSpecLimits limits;
    limits.maxVariantsPerRun = 1'000'000;
    limits.accepted = "more shards";
    auto whole = parseSweepSpec(spec, "big.json", limits);
    REQUIRE_FALSE(whole);
    CHECK(whole.error().path == "/axes");
    CHECK_THAT(whole.error().message, Catch::Contains("2,000,000 variants"));
    CHECK_THAT(whole.error().message, Catch::Contains("more than 1,000,000 per run"));
    CHECK(whole.error().accepted == "more shards");
    limits.shards = 3;
    auto third = parseSweepSpec(spec, "big.json", limits);
    REQUIRE(third); // 666,667 variants a shard
    CHECK(third->variantCount() == 2'000'000);
    limits.shards = 2; // exactly 1,000,000 a shard: allowed
    CHECK(parseSweepSpec(spec, "big.json", limits));
}

TEST_CASE("the columns are defined once: header, rows and record follow them", "[sweep][columns]")
{
    const SweepRunner runner = syntheticRunner();
    const auto& columns = runner.columns();
    REQUIRE(columns.size() == 8);
    CHECK(columns[0].role == SweepColumnRole::Variant);
    CHECK(columns[1].type == SweepValueType::Number);
    CHECK(columns[3].name == "/workload/precision");
    CHECK(columns[3].type == SweepValueType::Text);
    CHECK(columns[4].name == "ok");
    CHECK(columns[5].name == "verdict");
    CHECK(columns[5].role == SweepColumnRole::Verdict);
    CHECK(columns[7].name == "compute.days");
    CHECK(runner.header(SweepFormat::Csv) ==
          "variant,/compute/node_count,/workload/mfu,/workload/precision,ok,verdict,cost.usd,"
          "compute.days\n");
    const std::string rows = runToText(runner, SweepFormat::Jsonl, {});
    const auto lines = linesOf(rows);
    REQUIRE(lines.size() == 72);
    CHECK(lines[0] == "{\"variant\":0,\"values\":{\"/compute/node_count\":1,\"/workload/mfu\":0.3,"
                      "\"/workload/precision\":\"bf16\"},\"ok\":true,\"verdict\":\"feasible\","
                      "\"metrics\":{\"cost.usd\":40,"
                      "\"compute.days\":3333.3333333333335}}");
    // Node count 3 fails: no metrics, and the error.
    CHECK(lines[12] ==
          "{\"variant\":12,\"values\":{\"/compute/node_count\":3,\"/workload/mfu\":0.3,"
          "\"/workload/precision\":\"bf16\"},\"ok\":false,\"verdict\":\"infeasible\","
          "\"metrics\":{},\"error\":"
          "\"/compute/node_count: three nodes fail here\"}");
    const auto csv = linesOf(runToText(runner, SweepFormat::Csv, {}));
    CHECK(csv[13] == "12,3,0.3,bf16,0,infeasible,,");
}

TEST_CASE("the output estimate is close to what a run writes", "[sweep][estimate]")
{
    const SweepRunner runner = syntheticRunner(400);
    for (const auto format : {SweepFormat::Csv, SweepFormat::Jsonl})
        for (const SweepShard shard : {SweepShard{}, SweepShard{1, 3}}) {
            const double written = static_cast<double>(runToText(runner, format, shard).size());
            const double estimate = static_cast<double>(runner.estimateOutputBytes(format, shard));
            INFO("written " << written << ", estimated " << estimate);
            CHECK(estimate == Approx(written).epsilon(0.1));
        }
}

TEST_CASE("a run stops when asked, between chunks", "[sweep][stop]")
{
    const SweepRunner runner = syntheticRunner(400);
    std::atomic<int> asked{0};
    SweepSummary summary;
    const std::string text =
        runToText(runner, SweepFormat::Csv, {}, &summary, [&] { return asked.fetch_add(1) >= 3; });
    CHECK(summary.stopped);
    CHECK(summary.written < summary.variants);
    CHECK(std::count(text.begin(), text.end(), '\n') == static_cast<long>(summary.written) + 1);

    SweepSummary whole;
    runToText(runner, SweepFormat::Csv, {}, &whole, [] { return false; });
    CHECK_FALSE(whole.stopped);
    CHECK(whole.written == whole.variants);
}

TEST_CASE("sweep-merge --pareto on a JSON line without metrics reads nothing past the object",
          "[sweep][pareto][merge]")
{
    // Rows as a hand-edited or foreign file may hold them: the front is built from the rows that
    // have both objectives; the others are off it (before, the lookup of "metrics" in a row
    // without it read past the JSON object).
    const fs::path dir = scratch("pareto-nometrics");
    spill(dir / "rows.jsonl", "{\"variant\":0,\"values\":{\"/compute/node_count\":8},\"ok\":true}\n"
                              "{\"variant\":1,\"ok\":true,\"metrics\":{\"a\":1,\"b\":2}}\n"
                              "{\"variant\":2,\"ok\":true,\"metrics\":5}\n"
                              "{\"variant\":3,\"ok\":true,\"metrics\":{\"a\":\"x\",\"b\":1}}\n"
                              "[1,2]\n"
                              "{\"variant\":5,\"ok\":true,\"metrics\":{\"a\":2,\"b\":1}}\n");
    MergedSweep merged;
    merged.format = SweepFormat::Jsonl;
    merged.parts = {dir / "rows.jsonl"};
    SweepObjective a, b;
    a.metric = "a";
    b.metric = "b";
    auto front = paretoRows(merged, {a, b});
    REQUIRE(front);
    REQUIRE(front->size() == 2);
    CHECK_THAT((*front)[0], Catch::StartsWith("{\"variant\":1,"));
    CHECK_THAT((*front)[1], Catch::StartsWith("{\"variant\":5,"));
    fs::remove_all(dir);
}

TEST_CASE("merging refuses every damaged or foreign part, naming the file and line",
          "[sweep][merge][checks]")
{
    const SweepRunner runner = syntheticRunner();
    const fs::path dir = scratch("defects");

    struct Damage
    {
        std::string name;
        SweepFormat format;
        std::size_t part; ///< Which of the three parts is damaged.
        std::function<void(const fs::path&)> apply;
        std::string path; ///< Expected Error::path ("" for none).
        std::string words;
    };
    auto editLines = [](std::function<void(std::vector<std::string>&)> edit) {
        return [edit](const fs::path& p) {
            auto lines = linesOf(slurp(p));
            edit(lines);
            spill(p, joinLines(lines));
        };
    };
    std::mt19937 random(7);
    const std::vector<Damage> damages = {
        {"truncated in its last row", SweepFormat::Csv, 1,
         [](const fs::path& p) {
             std::string text = slurp(p);
             text.resize(text.rfind(',')); // the last column and the newline gone
             spill(p, text);
         },
         "line 25", "no newline"},
        {"last column missing", SweepFormat::Csv, 1,
         editLines([](auto& lines) { lines.back().erase(lines.back().rfind(',')); }), "line 25",
         "7 columns, expected 8"},
        {"too few columns", SweepFormat::Csv, 0,
         editLines([](auto& lines) { lines[2] = "1,1,0.4"; }), "line 3", "3 columns, expected 8"},
        {"too many columns", SweepFormat::Csv, 2, editLines([](auto& lines) { lines[4] += ",9"; }),
         "line 5", "9 columns, expected 8"},
        {"a metric that is not a number", SweepFormat::Csv, 0, editLines([](auto& lines) {
             lines[1].replace(lines[1].rfind(','), std::string::npos, ",12abc");
         }),
         "line 2", "'12abc' is not a number"},
        {"an axis value that is not a number", SweepFormat::Csv, 0,
         editLines([](auto& lines) { lines[1].replace(2, 1, "x"); }), "line 2", "not a number"},
        {"a bad variant number", SweepFormat::Csv, 0,
         editLines([](auto& lines) { lines[3].replace(0, 1, "-"); }), "line 4",
         "not a variant number"},
        {"rows out of order", SweepFormat::Csv, 0,
         editLines([](auto& lines) { std::swap(lines[2], lines[3]); }), "line 4", "out of order"},
        {"a row of another shard", SweepFormat::Csv, 2,
         editLines([](auto& lines) { lines[1].replace(0, 3, "0,"); }), "line 2", "outside shard"},
        {"an empty part", SweepFormat::Csv, 1, [](const fs::path& p) { spill(p, ""); }, "line 1",
         "empty"},
        {"a header-only part", SweepFormat::Csv, 1, editLines([](auto& lines) { lines.resize(1); }),
         "line 2", "ends after 0 rows, its record says 24"},
        {"another header", SweepFormat::Csv, 2,
         editLines([](auto& lines) { lines[0] = "variant,x,ok"; }), "line 1", "header differs"},
        {"random bytes", SweepFormat::Csv, 1,
         [&random](const fs::path& p) {
             std::string bytes(4096, '\0');
             for (auto& c : bytes)
                 c = static_cast<char>(random() & 0xff);
             spill(p, bytes);
         },
         "line 1", ""},
        {"a changed value, well formed", SweepFormat::Csv, 0,
         editLines([](auto& lines) { lines[1].back() = lines[1].back() == '1' ? '2' : '1'; }),
         "line 25", "differs from the part's record"},
        {"a row without metrics", SweepFormat::Jsonl, 0, editLines([](auto& lines) {
             lines[1] =
                 "{\"variant\":1,\"values\":{\"/compute/node_count\":1,\"/workload/mfu\":0.4,"
                 "\"/workload/precision\":\"bf16\"},\"ok\":true,\"verdict\":\"feasible\"}";
         }),
         "line 2", "\"metrics\" is missing"},
        {"an invalid JSON line", SweepFormat::Jsonl, 1,
         editLines([](auto& lines) { lines[0].pop_back(); }), "line 1", "not a JSON object"},
        {"a metric that is text", SweepFormat::Jsonl, 2, editLines([](auto& lines) {
             const auto at = lines[0].find("\"cost.usd\":");
             lines[0].replace(at, 11, "\"cost.usd\":\"1\",\"x\":");
         }),
         "line 1", "is not number"},
        {"an extra member", SweepFormat::Jsonl, 2,
         editLines([](auto& lines) { lines[0].insert(1, "\"extra\":1,"); }), "line 1",
         "6 members, expected 5"},
        {"a nested bomb", SweepFormat::Jsonl, 0, editLines([](auto& lines) {
             lines[0] = std::string(100000, '[') + std::string(100000, ']');
         }),
         "line 1", "not a JSON object"},
        {"a truncated JSON line", SweepFormat::Jsonl, 2,
         [](const fs::path& p) {
             std::string text = slurp(p);
             text.resize(text.size() - 10);
             spill(p, text);
         },
         "line 24", "no newline"},
        {"a missing record", SweepFormat::Csv, 1,
         [](const fs::path& p) { fs::remove(SweepPartRecord::pathFor(p)); }, "", "no part record"},
        {"a damaged record", SweepFormat::Csv, 1,
         [](const fs::path& p) { spill(SweepPartRecord::pathFor(p), "{\"dctwin_sweep_part\": 1"); },
         "", "invalid JSON"},
    };
    for (const auto& d : damages) {
        INFO(d.name);
        const fs::path set = dir / "set";
        fs::remove_all(set);
        fs::create_directories(set);
        auto parts = writeShards(runner, d.format, 3, set);
        REQUIRE(mergeSweepParts(parts)); // whole before the damage
        d.apply(parts[d.part]);
        auto merged = mergeSweepParts(parts);
        REQUIRE_FALSE(merged);
        INFO(merged.error().toString());
        const bool recordError = d.words == "invalid JSON";
        CHECK(merged.error().file == (recordError ? SweepPartRecord::pathFor(parts[d.part]).string()
                                                  : parts[d.part].string()));
        if (d.path.empty())
            CHECK(merged.error().path.rfind("line", 0) == std::string::npos);
        else
            CHECK(merged.error().path == d.path);
        CHECK_THAT(merged.error().message, Catch::Contains(d.words));
    }

    // A shard left out: the rows of the others would be a silent part of the sweep.
    const fs::path set = dir / "set";
    fs::remove_all(set);
    fs::create_directories(set);
    auto parts = writeShards(runner, SweepFormat::Csv, 3, set);
    auto missing = mergeSweepParts({parts[0], parts[2]});
    REQUIRE_FALSE(missing);
    CHECK(missing.error().file == parts[0].string());
    CHECK_THAT(missing.error().message, Catch::Contains("shard 1/3 of this sweep is missing"));
    // A folder given as a part.
    auto folder = mergeSweepParts({parts[0], parts[1], parts[2], set});
    REQUIRE_FALSE(folder);
    CHECK(folder.error().file == set.string());
    CHECK_THAT(folder.error().message, Catch::Contains("a folder"));
    // A shard of another spec (another axis), and of another split.
    const SweepRunner other = syntheticRunner(13);
    auto foreign = writeShards(other, SweepFormat::Csv, 3, set, "other");
    auto mixed = mergeSweepParts({parts[0], foreign[1], parts[2]});
    REQUIRE_FALSE(mixed);
    CHECK(mixed.error().file == foreign[1].string());
    CHECK_THAT(mixed.error().message, Catch::Contains("spec hash"));
    auto halves = writeShards(runner, SweepFormat::Csv, 2, set, "half");
    auto split = mergeSweepParts({parts[0], halves[1]});
    REQUIRE_FALSE(split);
    CHECK_THAT(split.error().message, Catch::Contains("another split"));
    // Every part present once, undamaged: merged byte for byte.
    auto merged = mergeSweepParts({parts[2], parts[0], parts[1]});
    REQUIRE(merged);
    CHECK(merged->text() == runToText(runner, SweepFormat::Csv, {}));
    fs::remove_all(dir);
}

TEST_CASE("a part that matches its record but is filtered empty merges", "[sweep][merge]")
{
    // Filters can leave a shard without rows: its record says 0 rows, and a header-only part is
    // then whole.
    auto spec = parseSweepSpec(
        {{"base", "seed.json"},
         {"axes", {{{"field", "/compute/node_count"}, {"from", 1}, {"to", 30}, {"step", 1}}}},
         {"filters", {{{"metric", "cost.usd"}, {"max", 100}}}}},
        "spec.json");
    REQUIRE(spec);
    auto runner = SweepRunner::create(*spec, seedResolved(), syntheticEvaluation);
    REQUIRE(runner);
    const fs::path dir = scratch("filtered");
    auto parts = writeShards(*runner, SweepFormat::Csv, 3, dir);
    CHECK(linesOf(slurp(parts[2])).size() == 1); // header only: 21..30 nodes cost over 100
    auto merged = mergeSweepParts(parts);
    if (!merged)
        FAIL(merged.error().toString());
    CHECK(merged->text() == runToText(*runner, SweepFormat::Csv, {}));
    fs::remove_all(dir);
}

TEST_CASE("a merge of randomly damaged parts is refused or gives exactly the sweep",
          "[sweep][merge][fuzz]")
{
    // 300 random damages (bytes flipped, cut, lines repeated or dropped, bytes inserted): no
    // merge may succeed with other rows than the unsharded run's.
    const SweepRunner runner = syntheticRunner();
    const fs::path dir = scratch("fuzz");
    std::mt19937 random(2026);
    int refused = 0;
    for (int round = 0; round < 300; ++round) {
        const SweepFormat format = round % 2 ? SweepFormat::Jsonl : SweepFormat::Csv;
        const fs::path set = dir / std::to_string(round % 2);
        if (round < 2) {
            fs::create_directories(set);
            writeShards(runner, format, 3, set);
        }
        const std::vector<fs::path> parts = {set / "part0", set / "part1", set / "part2"};
        const fs::path victim = parts[random() % 3];
        const std::string original = slurp(victim);
        std::string text = original;
        const std::size_t at = text.empty() ? 0 : random() % text.size();
        switch (random() % 5) {
        case 0:
            if (!text.empty())
                text[at] = static_cast<char>(text[at] ^ (1 + random() % 255));
            break;
        case 1:
            text.resize(at);
            break;
        case 2: {
            const auto lines = linesOf(text);
            auto edited = lines;
            const std::size_t line = random() % lines.size();
            edited.insert(edited.begin() + static_cast<long>(line), lines[line]);
            text = joinLines(edited);
            break;
        }
        case 3: {
            auto lines = linesOf(text);
            lines.erase(lines.begin() + static_cast<long>(random() % lines.size()));
            text = joinLines(lines);
            break;
        }
        default:
            text.insert(at, std::string(1 + random() % 8, static_cast<char>(random() & 0xff)));
            break;
        }
        spill(victim, text);
        auto merged = mergeSweepParts(parts);
        if (merged)
            CHECK(merged->text() == runToText(runner, format, {}));
        else
            ++refused;
        const bool unchanged = text == original;
        CHECK((unchanged || !merged.has_value()));
        spill(victim, original);
    }
    CHECK(refused > 250);
    fs::remove_all(dir);
}
