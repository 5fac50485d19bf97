// The fuzz targets are seeded from the repository's own files (seeds.txt), read where they are:
// every bundled example scenario, sweep spec, planning recipe and nccl-tests log must be one of
// those seeds, and scripts/fuzz.sh must read the same list as the replay tests.
#include "seedlist.h"

#include <catch2/catch.hpp>
#include <cstdio>
#include <filesystem>
#include <set>
#include <sstream>
#include <string>
#include <utility>

namespace fs = std::filesystem;

namespace {

const fs::path sourceDir = DCT_TEST_SOURCE_DIR;

/** Returns every (target, file) the seed rules give; the files relative to the source tree. */
std::set<std::pair<std::string, std::string>> seeds()
{
    std::set<std::pair<std::string, std::string>> out;
    for (const auto& rule : dct::test::seedRules(sourceDir))
        for (const auto& file : dct::test::seedFiles(sourceDir, rule))
            out.insert({rule.target, fs::relative(file, sourceDir).generic_string()});
    return out;
}

bool isSeed(const std::string& target, const fs::path& file)
{
    return seeds().count({target, fs::relative(file, sourceDir).generic_string()}) == 1;
}

} // namespace

TEST_CASE("every rule of seeds.txt names a fuzz target and finds files", "[fuzz][seeds]")
{
    std::set<std::string> targets;
    std::istringstream names(DCT_FUZZ_TARGET_NAMES); // DCT_FUZZ_TARGETS of the CMakeLists.txt
    for (std::string name; names >> name;)
        targets.insert(name);
    REQUIRE(targets.count("scenario") == 1);
    const auto rules = dct::test::seedRules(sourceDir);
    REQUIRE(rules.size() >= 3);
    for (const auto& rule : rules) {
        INFO(rule.target << " " << rule.folder.string() << " " << rule.pattern);
        CHECK(targets.count(rule.target) == 1);
        CHECK(!dct::test::seedFiles(sourceDir, rule).empty());
    }
}

TEST_CASE("every bundled example, sweep spec and recipe seeds its fuzz target", "[fuzz][seeds]")
{
    int scenarios = 0;
    int specs = 0;
    for (const auto& entry : fs::recursive_directory_iterator(sourceDir / "data" / "examples")) {
        if (entry.path().extension() != ".json")
            continue;
        INFO(entry.path().string());
        // The examples folder holds scenarios; its subfolders (sweeps/, recipes/) sweep specs.
        if (entry.path().parent_path() == sourceDir / "data" / "examples") {
            CHECK(isSeed("scenario", entry.path()));
            ++scenarios;
        } else {
            CHECK(isSeed("sweepspec", entry.path()));
            ++specs;
        }
    }
    CHECK(scenarios >= 6);
    CHECK(specs >= 8);
}

TEST_CASE("every nccl-tests log of the repository seeds the log reader's fuzz target",
          "[fuzz][seeds]")
{
    int logs = 0;
    for (auto it = fs::recursive_directory_iterator(sourceDir);
         it != fs::recursive_directory_iterator(); ++it) {
        const auto name = it->path().filename().string();
        // Not the build trees, git's folder or the fuzz corpus itself.
        if (it->is_directory() &&
            ((it.depth() == 0 && (name.starts_with("build") || name.starts_with("."))) ||
             it->path() == sourceDir / "tests" / "fuzz")) {
            it.disable_recursion_pending();
            continue;
        }
        if (it->path().extension() != ".log")
            continue;
        INFO(it->path().string());
        CHECK(isSeed("nccltestslog", it->path()));
        ++logs;
    }
    CHECK(logs >= 7);
}

TEST_CASE("scripts/fuzz.sh --list-seeds lists exactly the seeds of seeds.txt", "[fuzz][seeds]")
{
    const std::string command =
        "bash '" + (sourceDir / "scripts" / "fuzz.sh").string() + "' --list-seeds 2>&1";
    std::FILE* pipe = ::popen(command.c_str(), "r");
    REQUIRE(pipe != nullptr);
    std::string output;
    char buffer[4096];
    for (std::size_t n; (n = std::fread(buffer, 1, sizeof buffer, pipe)) > 0;)
        output.append(buffer, n);
    INFO(output);
    REQUIRE(::pclose(pipe) == 0);
    std::set<std::pair<std::string, std::string>> listed;
    std::istringstream lines(output);
    for (std::string target, file; lines >> target >> file;)
        listed.insert({target, file});
    const auto expected = seeds();
    CHECK(expected.size() >= 15);
    CHECK(listed == expected);
}
