// `dctwin-cli store` as a user runs it: a fresh store seeded with the examples, imports, history,
// restore, export and a refused foreign file.
#include "clirunner.h"

#include <fstream>
#include <sstream>
#include <unistd.h>

using namespace dct;
using test::runCli;
using Run = test::CliRun;
namespace fs = std::filesystem;

namespace {

fs::path scratch(const std::string& name)
{
    const fs::path dir =
        fs::temp_directory_path() / ("dct-storecli-" + name + "-" + std::to_string(::getpid()));
    fs::remove_all(dir);
    fs::create_directories(dir);
    return dir;
}

std::string slurp(const fs::path& path)
{
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

} // namespace

TEST_CASE("store list, import, history, restore and export", "[cli][store]")
{
    const fs::path dir = scratch("flow");
    const std::string store = (dir / "s.sqlite").string();
    const std::string seed = (test::dataDir() / "examples" / "seed-h100-dallas-d2c.json").string();

    Run list = runCli({"store", "--store", store, "list"});
    REQUIRE(list.code == 0);
    CHECK(list.out.find("seed-h100-dallas-d2c") != std::string::npos);
    CHECK(list.out.find("example") != std::string::npos);

    Run imported =
        runCli({"store", "--store", store, "import", seed, "--name", "plan", "-t", "q3"});
    REQUIRE(imported.code == 0);
    CHECK(imported.out == "plan: version 1\n");
    // A second import of another document is version 2.
    nlohmann::json changed = nlohmann::json::parse(slurp(seed));
    changed["compute"]["node_count"] = 64;
    const fs::path changedFile = dir / "changed.json";
    std::ofstream(changedFile) << changed.dump(2);
    Run second = runCli({"store", "--store", store, "import", changedFile.string(), "-n", "plan"});
    REQUIRE(second.code == 0);
    REQUIRE(second.out == "plan: version 2\n");

    Run history = runCli({"store", "--store", store, "history", "plan", "-f", "json"});
    REQUIRE(history.code == 0);
    CHECK(nlohmann::json::parse(history.out).size() == 2);

    Run restored = runCli({"store", "--store", store, "restore", "plan", "1"});
    REQUIRE(restored.code == 0);
    CHECK(restored.out.find("restored as version 3") != std::string::npos);

    const fs::path exported = dir / "out.json";
    Run exportRun = runCli({"store", "--store", store, "export", "plan", "-o", exported.string()});
    REQUIRE(exportRun.code == 0);
    CHECK(exportRun.out == "plan: version 3 written to " + exported.string() + "\n");
    CHECK(nlohmann::json::parse(slurp(exported)) == nlohmann::json::parse(slurp(seed)));
    Run v2 = runCli({"store", "--store", store, "show", "plan", "--version", "2"});
    REQUIRE(v2.code == 0);
    CHECK(nlohmann::json::parse(v2.out)["compute"]["node_count"] == 64);

    Run tagged = runCli({"store", "--store", store, "list", "--tag", "q3", "-f", "json"});
    REQUIRE(tagged.code == 0);
    REQUIRE(nlohmann::json::parse(tagged.out).size() == 1);
    fs::remove_all(dir);
}

TEST_CASE("store eval caches its result until the scenario changes", "[cli][store][cache]")
{
    const fs::path dir = scratch("eval");
    const std::string store = (dir / "s.sqlite").string();
    Run first = runCli({"store", "--store", store, "eval", "seed-h100-dallas-d2c"});
    REQUIRE(first.code == 0);
    CHECK(first.err.find("cached") == std::string::npos);
    Run second = runCli({"store", "--store", store, "eval", "seed-h100-dallas-d2c"});
    REQUIRE(second.code == 0);
    CHECK(second.err.find("cached result") != std::string::npos);
    CHECK(second.out == first.out);
    fs::remove_all(dir);
}

TEST_CASE("store refuses bad input with exit code 2 and a clear message", "[cli][store]")
{
    const fs::path dir = scratch("bad");
    const fs::path foreign = dir / "notes.sqlite";
    std::ofstream(foreign) << "not a database";
    Run refused = runCli({"store", "--store", foreign.string(), "list"});
    CHECK(refused.code == 2);
    CHECK(refused.err.find("not a DC Twin scenario store") != std::string::npos);
    CHECK(slurp(foreign) == "not a database");

    const std::string store = (dir / "s.sqlite").string();
    Run missing = runCli({"store", "--store", store, "show", "nope"});
    CHECK(missing.code == 2);
    CHECK(missing.err.find("no scenario named 'nope'") != std::string::npos);

    const fs::path broken = dir / "broken.json";
    std::ofstream(broken) << R"({"schema_version": 2, "compute": {"node_count": "many"}})";
    Run junk = runCli({"store", "--store", store, "import", broken.string()});
    CHECK(junk.code == 2);
    CHECK(junk.err.find("/compute/node_count") != std::string::npos);
    Run unsaved = runCli({"store", "--store", store, "show", "broken"}); // nothing was saved
    CHECK(unsaved.code == 2);
    CHECK(unsaved.err.find("no scenario named 'broken'") != std::string::npos);
    fs::remove_all(dir);
}
