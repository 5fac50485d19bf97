// A sweep variant's verdict is the one eval gives the variant written out as a scenario file:
// checked over every sweep spec of data/examples (the planning recipes and the sweeps).
#include "dct/model/scenarioio.h"
#include "dct/solvers/documentevaluation.h"
#include "dct/solvers/verdict.h"
#include "dct/study/sweeprunner.h"
#include "dct/study/sweepspec.h"
#include "testsupport.h"

#include <algorithm>
#include <fstream>
#include <sstream>

using namespace dct;
using namespace dct::study;
using nlohmann::json;
namespace fs = std::filesystem;

namespace {

std::vector<fs::path> sweepSpecs()
{
    std::vector<fs::path> specs;
    for (const char* folder : {"recipes", "sweeps"})
        for (const auto& e : fs::directory_iterator(test::dataDir() / "examples" / folder))
            if (e.path().extension() == ".json")
                specs.push_back(e.path());
    std::sort(specs.begin(), specs.end());
    return specs;
}

std::vector<std::string> splitCsv(const std::string& line)
{
    std::vector<std::string> fields;
    std::string field;
    std::istringstream in(line);
    while (std::getline(in, field, ','))
        fields.push_back(field);
    return fields;
}

/**
 * Runs \a spec without its filters and checks the verdict of up to 12 of its variants, spread
 * over the grid, against eval's verdict of the variant written out. Returns the verdicts seen.
 */
std::vector<std::string> compareVerdicts(SweepSpec spec)
{
    // Every variant gets a row: filters and feasible_only would hide the ones to compare.
    spec.filters.clear();
    spec.feasibleOnly = false;
    std::ifstream baseFile(spec.base);
    REQUIRE(baseFile);
    const json base = json::parse(baseFile);
    auto baseScenario = model::readScenarioFile(spec.base);
    REQUIRE(baseScenario.scenario);
    auto runner = SweepRunner::create(spec, *baseScenario.scenario, test::catalog());
    REQUIRE(runner);
    SweepRunOptions options;
    options.threads = 2;
    std::ostringstream out;
    runner->run(options, SweepFormat::Csv, out);
    std::istringstream lines(out.str());
    std::string line;
    std::getline(lines, line);
    const auto header = splitCsv(line);
    const auto verdictAt = static_cast<std::size_t>(
        std::find(header.begin(), header.end(), "verdict") - header.begin());
    REQUIRE(verdictAt < header.size());
    std::vector<std::string> verdicts;
    while (std::getline(lines, line))
        verdicts.push_back(splitCsv(line).at(verdictAt));
    REQUIRE(verdicts.size() == runner->variantCount());

    std::vector<std::string> compared;
    const std::uint64_t count = runner->variantCount();
    const std::uint64_t step = std::max<std::uint64_t>(1, (count + 10) / 11);
    for (std::uint64_t index = 0; index < count; index += step) {
        const std::uint64_t variant = index + step >= count ? count - 1 : index;
        json document = base;
        std::uint64_t stride = 1;
        for (auto axis = spec.axes.rbegin(); axis != spec.axes.rend(); ++axis) {
            document[json::json_pointer(axis->pointer)] =
                axis->values[(variant / stride) % axis->values.size()];
            stride *= axis->values.size();
        }
        const solvers::DocumentEvaluation eval =
            solvers::evaluateDocument(document, test::catalog(), spec.base.string());
        INFO("variant " << variant);
        CHECK(verdicts[variant] ==
              solvers::feasibilityKey(solvers::feasibilityOf(eval.diagnostics)));
        compared.push_back(verdicts[variant]);
        if (variant == count - 1)
            break;
    }
    return compared;
}

} // namespace

TEST_CASE("a sweep variant's verdict is eval's verdict of the variant, for every example spec",
          "[sweep][verdict]")
{
    const auto specs = sweepSpecs();
    REQUIRE(specs.size() >= 9);
    std::size_t compared = 0;
    std::size_t withWarnings = 0;
    for (const fs::path& path : specs) {
        INFO(path.filename().string());
        auto read = readSweepSpecFile(path);
        REQUIRE(read);
        for (const std::string& verdict : compareVerdicts(*read)) {
            withWarnings += verdict == "feasible_with_warnings";
            ++compared;
        }
    }
    CHECK(compared >= 40);
    // The comparison means something only if some variants carry warnings.
    CHECK(withWarnings > 0);
}

TEST_CASE("a swept field counts as set by the file: parameters_billion beside a catalog model",
          "[sweep][verdict]")
{
    // The SuperPOD example names the catalog model llama3-70b; a parameters_billion set beside
    // it is not used, which eval warns about. A sweep that sets it must warn alike.
    const json j = {{"base", (test::dataDir() / "examples" / "dgx-superpod-4su.json").string()},
                    {"axes",
                     {{{"field", "/workload/parameters_billion"}, {"values", {405}}},
                      {{"field", "/workload/global_batch_sequences"}, {"values", {1016}}}}}};
    auto spec = parseSweepSpec(j, "spec.json");
    REQUIRE(spec);
    const auto verdicts = compareVerdicts(*spec);
    REQUIRE(verdicts.size() == 1);
    CHECK(verdicts[0] == "feasible_with_warnings");
}
