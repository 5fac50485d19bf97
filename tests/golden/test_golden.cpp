// Golden evaluations: every bundled example's full `dctwin-cli eval --format json` is compared with
// the committed file tests/golden/<example>.json. Run scripts/update-golden.sh after an intended
// model change to write them anew; the diff of the golden files is then the review.
#include "../app/clirunner.h"

#include <cmath>
#include <cstdlib>
#include <fstream>
#include <sstream>

using namespace dct;
using nlohmann::json;

namespace {

/** Relative tolerance on every figure: what a change of compiler or flags may move. */
constexpr double relativeTolerance = 1e-9;
/** Absolute tolerance for figures that are (near) zero. */
constexpr double absoluteTolerance = 1e-12;

std::filesystem::path goldenDir()
{
    return std::filesystem::path(DCT_TEST_SOURCE_DIR) / "tests" / "golden";
}

/** Every "file" field of \a j (the evaluation's, each diagnostic's, each verdict reason's) becomes
 *  \a name: the golden files must not depend on where the repository is cloned. */
void nameFilesOnly(json& j, const std::string& name)
{
    if (j.is_object()) {
        for (auto& [key, value] : j.items()) {
            if (key == "file" && value.is_string())
                value = name;
            else
                nameFilesOnly(value, name);
        }
    } else if (j.is_array()) {
        for (auto& item : j)
            nameFilesOnly(item, name);
    }
}

/** The evaluation of \a example as `eval --format json` prints it, with the file as its name. */
json evaluate(const std::filesystem::path& example)
{
    const test::CliRun r = test::runCli({"eval", "--format", "json", example.string()});
    INFO(r.err);
    // The overpacked hall is infeasible by design: evaluated, and eval says no (exit 1).
    const bool infeasible = example.filename() == "overpacked-air-h100-dallas.json";
    REQUIRE(r.code == (infeasible ? cli::ExitEvaluation : cli::ExitOk));
    json j = json::parse(r.out);
    nameFilesOnly(j, example.filename().string());
    return j;
}

/** Compares \a actual with \a golden, field by field, numbers within the tolerances above. */
void compare(const json& golden, const json& actual, const std::string& path,
             std::vector<std::string>& differences)
{
    if (golden.is_number() && actual.is_number()) {
        const double g = golden.get<double>();
        const double a = actual.get<double>();
        const double allowed = std::max(absoluteTolerance, relativeTolerance * std::fabs(g));
        if (!(std::fabs(a - g) <= allowed))
            differences.push_back(path + ": golden " + golden.dump() + ", now " + actual.dump());
        return;
    }
    if (golden.type() != actual.type()) {
        differences.push_back(path + ": golden " + golden.dump() + ", now " + actual.dump());
        return;
    }
    if (golden.is_object()) {
        for (const auto& [key, value] : golden.items()) {
            if (!actual.contains(key))
                differences.push_back(path + "/" + key + ": missing now");
            else
                compare(value, actual[key], path + "/" + key, differences);
        }
        for (const auto& [key, value] : actual.items())
            if (!golden.contains(key))
                differences.push_back(path + "/" + key + ": new, " + value.dump());
        return;
    }
    if (golden.is_array()) {
        if (golden.size() != actual.size()) {
            differences.push_back(path + ": golden has " + std::to_string(golden.size()) +
                                  " items, now " + std::to_string(actual.size()));
            return;
        }
        for (std::size_t i = 0; i < golden.size(); ++i)
            compare(golden[i], actual[i], path + "/" + std::to_string(i), differences);
        return;
    }
    if (golden != actual)
        differences.push_back(path + ": golden " + golden.dump() + ", now " + actual.dump());
}

} // namespace

TEST_CASE("every bundled example evaluates to its golden file", "[golden]")
{
    const auto examples = test::examples();
    REQUIRE(examples.size() >= 5);
    const bool update = std::getenv("DCT_UPDATE_GOLDEN") != nullptr;
    for (const auto& example : examples) {
        const auto goldenFile = goldenDir() / (example.stem().string() + ".json");
        const json actual = evaluate(example);
        if (update) {
            std::ofstream(goldenFile) << actual.dump(2) << "\n";
            continue;
        }
        INFO("golden file " << goldenFile.string()
                            << " (scripts/update-golden.sh writes it after an intended change)");
        std::ifstream in(goldenFile);
        REQUIRE(in.good());
        const json golden = json::parse(in);
        std::vector<std::string> differences;
        compare(golden, actual, "", differences);
        std::string list;
        for (std::size_t i = 0; i < differences.size() && i < 40; ++i)
            list += "  " + differences[i] + "\n";
        INFO(differences.size() << " differences:\n" << list);
        CHECK(differences.empty());
    }
}

TEST_CASE("the golden comparison sees a changed figure", "[golden]")
{
    const json golden = {{"metrics", {{"a", {{"value", 100.0}}}, {"b", {{"value", 0.0}}}}}};
    json same = golden;
    same["metrics"]["a"]["value"] = 100.0 * (1 + 1e-12);
    json moved = golden;
    moved["metrics"]["a"]["value"] = 100.0 * (1 + 1e-6);
    json gone = golden;
    gone["metrics"].erase("b");
    std::vector<std::string> d1, d2, d3;
    compare(golden, same, "", d1);
    compare(golden, moved, "", d2);
    compare(golden, gone, "", d3);
    CHECK(d1.empty());
    REQUIRE(d2.size() == 1);
    CHECK(d2[0].rfind("/metrics/a/value", 0) == 0);
    CHECK(d3.size() == 1);
}
