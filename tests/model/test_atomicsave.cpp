#include "dct/model/scenarioio.h"
#include "testsupport.h"

#include <fstream>
#include <sstream>

using namespace dct::model;

TEST_CASE("Saving writes the whole file atomically and leaves no temporary", "[model][io][save]")
{
    const auto dir = std::filesystem::temp_directory_path() / "dct-test-save";
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);
    const auto example = dct::test::examples().front();
    auto read = readScenarioFile(example);
    REQUIRE(read.scenario);
    const auto target = dir / "saved.json";
    {
        std::ofstream old(target);
        old << "previous contents";
    }
    REQUIRE(saveScenarioFile(*read.scenario, target));
    std::size_t files = 0;
    for ([[maybe_unused]] const auto& e : std::filesystem::directory_iterator(dir))
        ++files;
    CHECK(files == 1);
    auto again = readScenarioFile(target);
    REQUIRE_FALSE(again.diagnostics.hasErrors());
    CHECK(writeScenario(*again.scenario) == writeScenario(*read.scenario));
    std::filesystem::remove_all(dir);
}

TEST_CASE("Saving into a missing folder fails cleanly and names the file", "[model][io][save]")
{
    Scenario s;
    auto r = saveScenarioFile(s, "/nonexistent-dir/x.json");
    REQUIRE_FALSE(r);
    CHECK(r.error().file == "/nonexistent-dir/x.json");
}
