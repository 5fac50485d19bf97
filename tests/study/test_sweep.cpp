// Sweeps: the grid a spec describes, values set by JSON pointer, shards that merge into exactly
// the unsharded output, filters, the Pareto front, and spec errors that say where they are.
#include "dct/model/resolver.h"
#include "dct/model/scenarioio.h"
#include "dct/model/textformat.h"
#include "dct/solvers/evaluator.h"
#include "dct/study/paretofront.h"
#include "dct/study/scenariopatcher.h"
#include "dct/study/sweepmerge.h"
#include "dct/study/sweeprunner.h"
#include "dct/study/sweepspec.h"
#include "testsupport.h"

#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <unistd.h>

using namespace dct;
using namespace dct::solvers;
using namespace dct::study;
using nlohmann::json;
namespace fs = std::filesystem;

namespace {

model::Scenario seedScenario()
{
    auto read = model::readScenarioFile(test::dataDir() / "examples" / "seed-h100-dallas-d2c.json");
    REQUIRE(read.scenario);
    return *read.scenario;
}

model::ResolvedScenario seedResolved()
{
    auto resolved = model::resolveScenario(seedScenario(), test::catalog());
    REQUIRE(resolved.resolved);
    return *resolved.resolved;
}

SweepSpec specOf(const json& j)
{
    auto spec = parseSweepSpec(j, "spec.json");
    if (!spec)
        FAIL(spec.error().toString());
    return *spec;
}

/** A spec over the seed case with a catalog-reference axis and numeric axes. */
json mixedSpec()
{
    return {{"base", (test::dataDir() / "examples" / "seed-h100-dallas-d2c.json").string()},
            {"axes",
             {{{"field", "/compute/node_count"}, {"values", {8, 16, 32, 48, 64}}},
              {{"field", "/cooling/system"}, {"values", {"crac-air", "d2c-rdhx"}}},
              {{"field", "/workload/mfu"}, {"from", 0.3}, {"to", 0.5}, {"step", 0.05}},
              {{"field", "/workload/precision"}, {"values", {"bf16", "fp8"}}}}},
            {"metrics", {"compute.training_days", "compute.gpus"}}};
}

std::string runToText(const SweepRunner& runner, SweepFormat format, SweepShard shard = {},
                      unsigned threads = 2, SweepSummary* summary = nullptr,
                      SweepPrecision precision = SweepPrecision::Full)
{
    SweepRunOptions options;
    options.shard = shard;
    options.threads = threads;
    options.precision = precision;
    options.chunkVariants = 7; // small chunks: many hand-offs between threads
    std::ostringstream out;
    SweepSummary s = runner.run(options, format, out);
    if (summary)
        *summary = s;
    return out.str();
}

/** Runs \a shard of \a runner into \a path with its record beside it, as `sweep -o` does. */
void writePart(const SweepRunner& runner, SweepFormat format, SweepShard shard,
               const fs::path& path, SweepPrecision precision = SweepPrecision::Full)
{
    SweepSummary summary;
    std::ofstream(path, std::ios::binary)
        << runToText(runner, format, shard, 2, &summary, precision);
    REQUIRE(runner.partRecord(shard, format, summary).writeBeside(path));
}

fs::path scratch(const std::string& name)
{
    const fs::path dir =
        fs::temp_directory_path() / ("dct-sweep-" + name + "-" + std::to_string(::getpid()));
    fs::remove_all(dir);
    fs::create_directories(dir);
    return dir;
}

/** A fast stand-in for evaluate(): two metrics from two fields, with known values. */
Evaluation syntheticEvaluation(const model::ResolvedScenario& r)
{
    Evaluation e;
    const double nodes = r.scenario.compute.nodeCount;
    const double mfu = r.scenario.workload.mfu;
    e.add("cost.usd", "Cost", nodes * 10.0 + mfu * 100.0, "USD", Better::Lower);
    e.add("compute.days", "Days", 1000.0 / (nodes * mfu), "days", Better::Lower);
    return e;
}

/** A spec of 1,200 variants over the node count and the MFU with a two-objective front. */
SweepSpec paretoSpec()
{
    return specOf({{"base", "seed.json"},
                   {"axes",
                    {{{"field", "/compute/node_count"}, {"from", 1}, {"to", 40}, {"step", 1}},
                     {{"field", "/workload/mfu"},
                      {"sample", "uniform"},
                      {"min", 0.2},
                      {"max", 0.6},
                      {"count", 30},
                      {"seed", 3}}}},
                   {"pareto", {"cost.usd", "compute.days"}}});
}

/** Writes the rows \a text of \a runner with their record into \a dir and returns the front of
 *  \a spec's objectives that sweep-merge --pareto reads back from them. */
std::vector<std::string> frontReadBack(const SweepRunner& runner, const SweepSpec& spec,
                                       const std::string& text, const SweepSummary& summary,
                                       const fs::path& dir)
{
    std::ofstream(dir / "all.csv", std::ios::binary) << text;
    REQUIRE(runner.partRecord({}, SweepFormat::Csv, summary).writeBeside(dir / "all.csv"));
    auto merged = mergeSweepParts({dir / "all.csv"});
    REQUIRE(merged);
    auto front = paretoRows(*merged, spec.objectives);
    REQUIRE(front);
    return *front;
}

} // namespace

TEST_CASE("a spec's grid is the product of its axes", "[sweep][spec]")
{
    const SweepSpec spec = specOf(mixedSpec());
    REQUIRE(spec.axes.size() == 4);
    CHECK(spec.axes[2].values.size() == 5); // 0.30, 0.35, 0.40, 0.45, 0.50
    CHECK(spec.axes[2].values.back().get<double>() == Approx(0.5).epsilon(1e-12));
    CHECK(spec.variantCount() == 5 * 2 * 5 * 2);

    auto runner = SweepRunner::create(spec, seedScenario(), test::catalog());
    REQUIRE(runner);
    CHECK(runner->variantCount() == 100);
    SweepSummary summary;
    const std::string text = runToText(*runner, SweepFormat::Csv, {}, 2, &summary);
    CHECK(summary.variants == 100);
    CHECK(summary.written + summary.filteredOut == 100);
    CHECK(std::count(text.begin(), text.end(), '\n') == 101); // header + one row per variant
}

TEST_CASE("integer ranges stay integers and the fields object form works", "[sweep][spec]")
{
    const SweepSpec spec =
        specOf({{"base", "x.json"},
                {"fields", {{"/compute/node_count", {{"from", 4}, {"to", 20}, {"step", 4}}}}}});
    REQUIRE(spec.axes.size() == 1);
    CHECK(spec.axes[0].values == std::vector<json>{4, 8, 12, 16, 20});
    CHECK(spec.base == fs::path("x.json"));
}

TEST_CASE("random samples are fixed by their seed", "[sweep][spec][sample]")
{
    auto sample = [](int seed, const char* kind) {
        return specOf({{"base", "x.json"},
                       {"axes",
                        {{{"field", "/compute/utilization"},
                          {"sample", kind},
                          {"min", 0.5},
                          {"max", 0.9},
                          {"count", 50},
                          {"seed", seed}}}}})
            .axes[0]
            .values;
    };
    const auto a = sample(42, "uniform");
    CHECK(a == sample(42, "uniform"));
    CHECK(a != sample(43, "uniform"));
    REQUIRE(a.size() == 50);
    std::set<double> distinct;
    for (const auto& v : a) {
        CHECK(v.get<double>() >= 0.5);
        CHECK(v.get<double>() < 0.9);
        distinct.insert(v.get<double>());
    }
    CHECK(distinct.size() == 50);
    for (const auto& v : sample(1, "log_uniform"))
        CHECK((v.get<double>() >= 0.5 && v.get<double>() < 0.9));
}

TEST_CASE("bad specs name the file and the JSON path", "[sweep][spec][errors]")
{
    const std::string base = (test::dataDir() / "examples" / "seed-h100-dallas-d2c.json").string();
    struct Case
    {
        json spec;
        std::string path;
        std::string words;
    };
    const std::vector<Case> parseCases = {
        {{{"axes", json::array()}}, "/base", "base"},
        {{{"base", base}, {"axes", {{{"field", "/compute/node_count"}}}}}, "/axes/0", "no values"},
        {{{"base", base}, {"axes", {{{"values", {1}}}}}}, "/axes/0/field", "pointer"},
        {{{"base", base},
          {"axes", {{{"field", "/compute/node_count"}, {"from", 1}, {"to", "x"}, {"step", 1}}}}},
         "/axes/0/to",
         "number"},
        {{{"base", base}, {"axes", {{{"field", "/a"}, {"values", {1}}}}}, {"bogus", 1}},
         "/bogus",
         "unknown key"},
        {{{"base", base},
          {"axes", {{{"field", "/compute/node_count"}, {"values", {1}}}}},
          {"pareto", {{{"metric", "a"}, {"goal", "up"}}, "b"}}},
         "/pareto/0/goal",
         "goal"},
    };
    for (const auto& c : parseCases) {
        INFO(c.spec.dump());
        auto spec = parseSweepSpec(c.spec, "bad.json");
        REQUIRE_FALSE(spec);
        CHECK(spec.error().file == "bad.json");
        CHECK(spec.error().path == c.path);
        CHECK(spec.error().toString().find(c.words) != std::string::npos);
    }

    const std::vector<Case> prepareCases = {
        {{{"base", base}, {"axes", {{{"field", "/compute/nodes"}, {"values", {1}}}}}},
         "/axes/0",
         "node_count"},
        {{{"base", base}, {"axes", {{{"field", "/compute/node_count"}, {"values", {8, 0}}}}}},
         "/axes/0/values/1",
         ">= 1"},
        {{{"base", base},
          {"axes", {{{"field", "/cooling/system"}, {"values", {"d2c-rdhx", "ice-cubes"}}}}}},
         "/axes/0/values/1",
         "ice-cubes"},
        {{{"base", base}, {"axes", {{{"field", "/workload/precision"}, {"values", {"fp4"}}}}}},
         "/axes/0/values/0",
         "bf16"},
        {{{"base", base}, {"axes", {{{"field", "/name"}, {"values", {"x"}}}}}},
         "/axes/0",
         "field key"},
        {{{"base", base},
          {"axes", {{{"field", "/compute/node_count"}, {"values", {8}}}}},
          {"filters", {{{"metric", "compute.nonsense"}, {"max", 1}}}}},
         "/filters/0/metric",
         "compute.training_days"},
    };
    for (const auto& c : prepareCases) {
        INFO(c.spec.dump());
        auto spec = parseSweepSpec(c.spec, "bad.json");
        REQUIRE(spec);
        auto runner = SweepRunner::create(*spec, seedScenario(), test::catalog());
        REQUIRE_FALSE(runner);
        CHECK(runner.error().file == "bad.json");
        CHECK(runner.error().path == c.path);
        CHECK(runner.error().toString().find(c.words) != std::string::npos);
    }
}

TEST_CASE("fields are set by JSON pointer through the field tables", "[sweep][patcher]")
{
    model::ResolvedScenario r = seedResolved();
    auto nodes = ScenarioPatcher::compile("/compute/node_count", "s.json", "/axes/0");
    REQUIRE(nodes);
    nodes->apply(r, nodes->toNumber(64, "/v").value());
    ScenarioPatcher::updateDerived(r);
    CHECK(r.scenario.compute.nodeCount == 64);
    CHECK(r.gpuCount() == 64 * r.gpusPerNode);
    CHECK(r.dataParallel == r.gpuCount() / (r.scenario.workload.tensorParallel *
                                            r.scenario.workload.pipelineParallel));

    auto tdp = ScenarioPatcher::compile("/compute/gpu/tdp_w", "s.json", "/axes/1");
    REQUIRE(tdp);
    tdp->apply(r, 650.0);
    CHECK(r.gpu.tdpW == 650.0);

    auto precision = ScenarioPatcher::compile("/workload/precision", "s.json", "/axes/2");
    REQUIRE(precision);
    precision->apply(r, precision->toNumber("fp8", "/v").value());
    CHECK(r.scenario.workload.precision == model::Precision::Fp8);

    auto economizer = ScenarioPatcher::compile("/cooling/economizer", "s.json", "/axes/3");
    REQUIRE(economizer);
    economizer->apply(r, economizer->toNumber(false, "/v").value());
    CHECK_FALSE(r.scenario.cooling.economizer);

    auto site = ScenarioPatcher::compile("/site", "s.json", "/axes/4");
    REQUIRE(site);
    CHECK(site->isCatalogReference());
    CHECK_FALSE(site->toNumber("dallas", "/v"));
}

TEST_CASE("sharded runs merged give exactly the unsharded output", "[sweep][shard]")
{
    json j = mixedSpec();
    j["filters"] = {{{"metric", "compute.training_days"}, {"max", 40}}};
    const SweepSpec spec = specOf(j);
    auto runner = SweepRunner::create(spec, seedScenario(), test::catalog());
    REQUIRE(runner);
    const fs::path dir = scratch("shard");
    for (const auto format : {SweepFormat::Csv, SweepFormat::Jsonl}) {
        const std::string whole = runToText(*runner, format);
        CHECK(whole == runToText(*runner, format, {}, 1)); // thread count does not matter
        for (const int n : {1, 3, 7, 150}) {
            std::vector<fs::path> parts;
            std::uint64_t covered = 0;
            for (int i = n - 1; i >= 0; --i) { // any order of parts
                const auto range = runner->shardRange({i, n});
                covered += range.second - range.first;
                const fs::path part = dir / ("part" + std::to_string(i));
                writePart(*runner, format, {i, n}, part);
                parts.push_back(part);
            }
            CHECK(covered == runner->variantCount());
            auto merged = mergeSweepParts(parts);
            INFO("shards: " << n);
            if (!merged)
                FAIL(merged.error().toString());
            CHECK(merged->text() == whole);
            // The merged record is the unsharded run's.
            std::ostringstream text;
            auto record = merged->write(text);
            REQUIRE(record);
            SweepSummary summary;
            runToText(*runner, format, {}, 2, &summary);
            CHECK(record->toJson() == runner->partRecord({}, format, summary).toJson());
        }
    }
    fs::remove_all(dir);
}

TEST_CASE("merging refuses overlapping or mismatched parts", "[sweep][shard]")
{
    auto runner = SweepRunner::create(specOf(mixedSpec()), seedScenario(), test::catalog());
    REQUIRE(runner);
    const fs::path dir = scratch("overlap");
    writePart(*runner, SweepFormat::Csv, {0, 2}, dir / "a");
    writePart(*runner, SweepFormat::Csv, {0, 2}, dir / "b");
    writePart(*runner, SweepFormat::Jsonl, {1, 2}, dir / "c");
    auto twice = mergeSweepParts({dir / "a", dir / "b"});
    REQUIRE_FALSE(twice);
    CHECK(twice.error().message.find("is also in") != std::string::npos);
    auto mixed = mergeSweepParts({dir / "a", dir / "c"});
    REQUIRE_FALSE(mixed);
    CHECK(mixed.error().file == (dir / "c").string());
    CHECK(SweepShard::parse("3/3").has_value() == false);
    CHECK(SweepShard::parse("2/3").value().index == 2);
    CHECK_FALSE(SweepShard::parse("a/b"));
    fs::remove_all(dir);
}

TEST_CASE("filters keep only the variants within bounds", "[sweep][filter]")
{
    json j = mixedSpec();
    j["filters"] = {{{"metric", "compute.training_days"}, {"min", 5}, {"max", 30}}};
    auto runner = SweepRunner::create(specOf(j), seedScenario(), test::catalog());
    REQUIRE(runner);
    SweepSummary summary;
    const std::string text = runToText(*runner, SweepFormat::Jsonl, {}, 2, &summary);
    CHECK(summary.filteredOut > 0);
    CHECK(summary.written > 0);
    CHECK(summary.written + summary.filteredOut == summary.variants);
    std::istringstream lines(text);
    std::string line;
    std::uint64_t rows = 0;
    while (std::getline(lines, line)) {
        const json row = json::parse(line);
        INFO(line);
        REQUIRE(row["ok"] == true);
        const double days = row["metrics"]["compute.training_days"];
        CHECK(days >= 5.0);
        CHECK(days <= 30.0);
        ++rows;
    }
    CHECK(rows == summary.written);
}

TEST_CASE("the Pareto front of a small known set", "[sweep][pareto]")
{
    // (cost, days): 0 and 1 trade off, 2 is dominated by 1, 3 is best in days, 4 duplicates 1,
    // 5 is dominated by everything, 6 has a NaN.
    const std::vector<std::vector<double>> points = {{1, 5}, {2, 3}, {3, 4},           {4, 1},
                                                     {2, 3}, {5, 5}, {0, std::nan("")}};
    CHECK(paretoFront(points, {true, true}) == std::vector<std::size_t>{0, 1, 3, 4});
    // Maximizing the second objective instead: larger days are better.
    CHECK(paretoFront(points, {true, false}) == std::vector<std::size_t>{0});
    CHECK(dominates({1, 1}, {1, 2}, {true, true}));
    CHECK_FALSE(dominates({1, 2}, {1, 2}, {true, true}));
}

TEST_CASE("the sweep's Pareto front matches the front of all its rows", "[sweep][pareto]")
{
    const SweepSpec spec = paretoSpec();
    auto runner = SweepRunner::create(spec, seedResolved(), syntheticEvaluation);
    REQUIRE(runner);
    SweepSummary summary;
    const std::string text = runToText(*runner, SweepFormat::Csv, {}, 2, &summary);
    const fs::path dir = scratch("pareto");
    CHECK_FALSE(summary.paretoRows.empty());
    CHECK(summary.paretoRows == frontReadBack(*runner, spec, text, summary, dir));
    // On this front, cost rises exactly as days fall.
    std::vector<std::pair<double, double>> pointsOnFront;
    for (const auto& row : summary.paretoRows) {
        std::vector<std::string> fields;
        std::stringstream ss(row);
        std::string field;
        while (std::getline(ss, field, ','))
            fields.push_back(field);
        // variant, node count, mfu, ok, verdict, cost, days
        pointsOnFront.emplace_back(std::stod(fields[5]), std::stod(fields[6]));
    }
    std::sort(pointsOnFront.begin(), pointsOnFront.end());
    for (std::size_t i = 1; i < pointsOnFront.size(); ++i)
        CHECK(pointsOnFront[i].second < pointsOnFront[i - 1].second);
    fs::remove_all(dir);
}

/** Returns the fields of each CSV line of \a text. */
std::vector<std::vector<std::string>> csvLines(const std::string& text)
{
    std::vector<std::vector<std::string>> lines;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);)
        lines.push_back(csvFields(line));
    return lines;
}

TEST_CASE("CSV metric values show the table's digits unless every digit is asked for",
          "[sweep][precision]")
{
    auto runner = SweepRunner::create(specOf(mixedSpec()), seedScenario(), test::catalog());
    REQUIRE(runner);
    SweepSummary fullSummary, displaySummary;
    const std::string full =
        runToText(*runner, SweepFormat::Csv, {}, 2, &fullSummary, SweepPrecision::Full);
    const std::string display =
        runToText(*runner, SweepFormat::Csv, {}, 2, &displaySummary, SweepPrecision::Display);
    CHECK(fullSummary.precision == SweepPrecision::Full);
    CHECK(displaySummary.precision == SweepPrecision::Display);
    const auto fullLines = csvLines(full);
    const auto displayLines = csvLines(display);
    REQUIRE(fullLines.size() == displayLines.size());
    REQUIRE(fullLines.size() > 1);
    CHECK(fullLines[0] == displayLines[0]); // one header
    const auto& columns = runner->columns();
    std::map<std::string, std::string> units;
    for (const auto& m : evaluate(seedResolved()).metrics)
        units[m.key] = m.unit;
    const auto unitOf = [&](const std::string& key) { return units.at(key); };
    int rounded = 0, metricValues = 0;
    for (std::size_t l = 1; l < fullLines.size(); ++l) {
        REQUIRE(fullLines[l].size() == columns.size());
        REQUIRE(displayLines[l].size() == columns.size());
        for (std::size_t k = 0; k < columns.size(); ++k) {
            const std::string& exact = fullLines[l][k];
            const std::string& shown = displayLines[l][k];
            if (columns[k].role != SweepColumnRole::Metric || exact.empty()) {
                CHECK(shown == exact); // variant, swept values, ok, verdict: as given
                continue;
            }
            ++metricValues;
            const double value = std::stod(exact);
            INFO(columns[k].name << " of row " << l << ": " << exact);
            CHECK(shown == formatPlain(value, unitOf(columns[k].name)));
            CHECK(shown.find(',') == std::string::npos); // no thousands separator in CSV
            rounded += shown != exact;
            // Rounded to about four significant digits: within half a unit of the fourth.
            CHECK(std::stod(shown) == Approx(value).epsilon(1e-3));
        }
    }
    CHECK(metricValues > 100);
    CHECK(rounded > 0); // training days have more digits than a table shows
    // JSON lines are for programs: every digit, whatever is asked.
    SweepSummary jsonSummary;
    CHECK(runToText(*runner, SweepFormat::Jsonl, {}, 2, &jsonSummary, SweepPrecision::Display) ==
          runToText(*runner, SweepFormat::Jsonl));
    CHECK(jsonSummary.precision == SweepPrecision::Full);
    CHECK(runner->partRecord({}, SweepFormat::Csv, displaySummary).precision ==
          SweepPrecision::Display);
    CHECK(runner->partRecord({}, SweepFormat::Jsonl, jsonSummary).precision ==
          SweepPrecision::Full);
}

TEST_CASE("parts at display precision merge into the unsharded output, mixed ones are refused",
          "[sweep][precision][shard]")
{
    auto runner = SweepRunner::create(specOf(mixedSpec()), seedScenario(), test::catalog());
    REQUIRE(runner);
    const fs::path dir = scratch("precision");
    writePart(*runner, SweepFormat::Csv, {0, 2}, dir / "a", SweepPrecision::Display);
    writePart(*runner, SweepFormat::Csv, {1, 2}, dir / "b", SweepPrecision::Display);
    writePart(*runner, SweepFormat::Csv, {1, 2}, dir / "c", SweepPrecision::Full);

    auto record = SweepPartRecord::readBeside(dir / "a");
    REQUIRE(record);
    CHECK(record->precision == SweepPrecision::Display);
    CHECK(record->toJson().find("\"precision\": \"display\"") != std::string::npos);

    auto merged = mergeSweepParts({dir / "b", dir / "a"});
    if (!merged)
        FAIL(merged.error().toString());
    SweepSummary summary;
    CHECK(merged->text() ==
          runToText(*runner, SweepFormat::Csv, {}, 2, &summary, SweepPrecision::Display));
    std::ostringstream text;
    auto written = merged->write(text);
    REQUIRE(written);
    CHECK(written->toJson() == runner->partRecord({}, SweepFormat::Csv, summary).toJson());

    auto mixed = mergeSweepParts({dir / "a", dir / "c"});
    REQUIRE_FALSE(mixed);
    CHECK(mixed.error().file == (dir / "c").string());
    CHECK(mixed.error().message.find("full precision") != std::string::npos);
    CHECK(mixed.error().message.find("display precision") != std::string::npos);
    CHECK(mixed.error().accepted.find("--precision") != std::string::npos);

    // A record names its precision as one of the two; one without it has every digit.
    std::string recordText = record->toJson();
    const auto at = recordText.find("\"display\"");
    REQUIRE(at != std::string::npos);
    auto bad = SweepPartRecord::fromJson(std::string(recordText).replace(at, 9, "\"rounded\""),
                                         "a.shard.json");
    REQUIRE_FALSE(bad);
    CHECK(bad.error().path == "/precision");
    CHECK(bad.error().file == "a.shard.json");
    json older = json::parse(recordText);
    older.erase("precision");
    auto old = SweepPartRecord::fromJson(older.dump(), "a.shard.json");
    REQUIRE(old);
    CHECK(old->precision == SweepPrecision::Full);
    fs::remove_all(dir);
}

TEST_CASE("at display precision the Pareto front is the front of the rows as written",
          "[sweep][precision][pareto]")
{
    const SweepSpec spec = paretoSpec();
    auto runner = SweepRunner::create(spec, seedResolved(), syntheticEvaluation);
    REQUIRE(runner);
    SweepSummary summary;
    const std::string text =
        runToText(*runner, SweepFormat::Csv, {}, 2, &summary, SweepPrecision::Display);
    const fs::path dir = scratch("pareto-display");
    CHECK_FALSE(summary.paretoRows.empty());
    CHECK(summary.paretoRows == frontReadBack(*runner, spec, text, summary, dir));
    fs::remove_all(dir);
}

TEST_CASE("an objective without a goal goes the way its metric declares", "[sweep][pareto]")
{
    const json axes = {{{"field", "/compute/node_count"}, {"values", {16, 32}}}};
    const SweepSpec spec =
        specOf({{"base", "seed.json"},
                {"axes", axes},
                {"pareto",
                 {"cost.tco_usd_per_year",
                  "compute.effective_mfu",
                  {{"metric", "compute.training_days"}, {"goal", "maximize"}}}}});
    auto runner = SweepRunner::create(spec, seedResolved());
    REQUIRE(runner);
    REQUIRE(runner->objectives().size() == 3);
    CHECK(runner->objectives()[0].minimize);       // cost: lower is better
    CHECK_FALSE(runner->objectives()[1].minimize); // MFU: higher is better
    CHECK_FALSE(runner->objectives()[2].minimize); // the spec's goal wins

    // A count declares no direction: the objective then needs a goal, and says where.
    const SweepSpec neither = specOf(
        {{"base", "seed.json"}, {"axes", axes}, {"pareto", {"compute.gpus", "cost.capex_usd"}}});
    auto refused = SweepRunner::create(neither, seedResolved());
    REQUIRE_FALSE(refused);
    CHECK(refused.error().path == "/pareto/0/goal");
}

TEST_CASE("sweep rows carry the verdict and infeasible designs stay off the Pareto front",
          "[sweep][verdict]")
{
    // The seed cluster in 50 kW racks under CRAC air: 5 nodes a rack breathe 49 C air, above
    // the nodes' 35 C (infeasible); the D2C variant is fine.
    json j = {{"base", (test::dataDir() / "examples" / "seed-h100-dallas-d2c.json").string()},
              {"axes",
               {{{"field", "/cooling/system"}, {"values", {"crac-air", "d2c-rdhx"}}},
                {{"field", "/facility/rack_power_limit_kw"}, {"values", {50}}}}},
              {"metrics", {"cost.tco_usd_per_year", "cooling.pue"}},
              {"pareto",
               {{{"metric", "cost.tco_usd_per_year"}, {"goal", "minimize"}},
                {{"metric", "cooling.pue"}, {"goal", "maximize"}}}}};
    auto runner = SweepRunner::create(specOf(j), seedScenario(), test::catalog());
    REQUIRE(runner);
    SweepSummary summary;
    const std::string text = runToText(*runner, SweepFormat::Csv, {}, 1, &summary);
    std::istringstream lines(text);
    std::string header, air, liquid;
    std::getline(lines, header);
    std::getline(lines, air);
    std::getline(lines, liquid);
    CHECK_THAT(header, Catch::Contains(",ok,verdict,"));
    CHECK_THAT(air, Catch::Contains(",1,infeasible,"));
    CHECK_THAT(liquid, Catch::Contains(",1,feasible"));
    // Maximizing PUE would put the air hall on the front; being infeasible keeps it off.
    REQUIRE(summary.paretoRows.size() == 1);
    CHECK_THAT(summary.paretoRows[0], Catch::Contains("d2c-rdhx"));

    // Asked for, infeasible variants join the front; feasible_only drops them from the rows.
    j["pareto"] = {{"objectives", j["pareto"]}, {"include_infeasible", true}};
    auto with = SweepRunner::create(specOf(j), seedScenario(), test::catalog());
    REQUIRE(with);
    SweepSummary withSummary;
    runToText(*with, SweepFormat::Csv, {}, 1, &withSummary);
    CHECK(withSummary.paretoRows.size() == 2);
    j["feasible_only"] = true;
    auto only = SweepRunner::create(specOf(j), seedScenario(), test::catalog());
    REQUIRE(only);
    SweepSummary onlySummary;
    const std::string kept = runToText(*only, SweepFormat::Jsonl, {}, 1, &onlySummary);
    CHECK(onlySummary.written == 1);
    CHECK(onlySummary.filteredOut == 1);
    CHECK_THAT(kept, Catch::Contains("\"verdict\":\"feasible") &&
                         !Catch::Contains("\"verdict\":\"infeasible\""));
    // A wrong type for the option is an error at its path.
    json bad = j;
    bad["feasible_only"] = "yes";
    auto refused = parseSweepSpec(bad, "spec.json");
    REQUIRE_FALSE(refused);
    CHECK(refused.error().path == "/feasible_only");
}

TEST_CASE("sweeps vary the parallel layout: stages, interleaving, ZeRO and recomputation",
          "[sweep][layout]")
{
    // The 16k-GPU example (Llama 3 405B, TP 8, PP 16, interleaved v 8) swept over its layout.
    const fs::path base = test::dataDir() / "examples" / "multiplane-16k-h100.json";
    auto read = model::readScenarioFile(base);
    REQUIRE(read.scenario);
    const json spec = {
        {"base", base.string()},
        {"axes",
         {{{"field", "/workload/pipeline_parallel"}, {"values", {8, 16}}},
          {{"field", "/workload/virtual_stages"}, {"values", {1, 2}}},
          {{"field", "/workload/zero_stage"}, {"values", {1, 2}}},
          {{"field", "/workload/recompute"}, {"values", {"selective", "full"}}},
          {{"field", "/workload/micro_batch_size"}, {"values", {1}}},
          {{"field", "/workload/context_parallel"}, {"values", {1}}}}},
        {"metrics",
         {"step.seconds", "step.bubble_seconds", "step.memory_total_gb",
          "step.data_parallel_total_seconds", "step.recompute_seconds", "step.micro_batches"}}};
    auto runner = SweepRunner::create(specOf(spec), *read.scenario, test::catalog());
    REQUIRE(runner);
    SweepSummary summary;
    const std::string text = runToText(*runner, SweepFormat::Jsonl, {}, 2, &summary);
    REQUIRE(summary.variants == 16);
    std::map<std::string, json> byLayout;
    std::istringstream lines(text);
    std::string line;
    while (std::getline(lines, line)) {
        const json row = json::parse(line);
        const json& f = row["values"];
        const std::string key = f["/workload/pipeline_parallel"].dump() + "/" +
                                f["/workload/virtual_stages"].dump() + "/" +
                                f["/workload/zero_stage"].dump() + "/" +
                                f["/workload/recompute"].get<std::string>();
        byLayout[key] = row["metrics"];
    }
    REQUIRE(byLayout.size() == 16);
    // Two virtual stages halve the bubble of the same pipeline (Narayanan et al. 2021, 2.2.2).
    const double bubble1 = byLayout["16/1/1/full"]["step.bubble_seconds"];
    const double bubble2 = byLayout["16/2/1/full"]["step.bubble_seconds"];
    CHECK(bubble2 == Approx(bubble1 / 2.0).epsilon(0.02));
    // Half the stages, half the bubble's (p - 1) / m at the same micro-batch count... and twice
    // the layers a stage: memory per GPU grows.
    CHECK(double(byLayout["8/1/1/full"]["step.memory_total_gb"]) >
          double(byLayout["16/1/1/full"]["step.memory_total_gb"]));
    // ZeRO 2 reduces the gradients every micro-batch: more data-parallel traffic than ZeRO 1.
    CHECK(double(byLayout["16/1/2/full"]["step.data_parallel_total_seconds"]) >
          double(byLayout["16/1/1/full"]["step.data_parallel_total_seconds"]));
    // Full recomputation runs the forward pass again; selective only attention's scores (with
    // ZeRO 1 the selective layout needs more than 80 GB: fp32 gradients and a second stage of 8
    // layers; ZeRO 2 shards the gradients and fits).
    CHECK(byLayout["16/1/1/selective"]["step.recompute_seconds"].is_null());
    CHECK(double(byLayout["16/1/2/full"]["step.recompute_seconds"]) >
          double(byLayout["16/1/2/selective"]["step.recompute_seconds"]));
}
