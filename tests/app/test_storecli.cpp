// `dctwin-cli store` as a user runs it: a fresh store seeded with the examples, imports, history,
// restore, export, a refused foreign file, a store of an unknown schema version and a damaged
// store recovered into a new one.
#include "clirunner.h"
#include "storedamage.h"

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
    // Text like eval's, the verdict first; JSON when asked for.
    CHECK(first.out.rfind("Scenario: ", 0) == 0);
    CHECK(first.out.find("\nVerdict: Feasible") != std::string::npos);
    CHECK(first.out.find("\nCost\n") != std::string::npos);
    CHECK(first.out.find("M USD") != std::string::npos);
    Run asJson = runCli({"store", "--store", store, "eval", "-f", "json", "seed-h100-dallas-d2c"});
    REQUIRE(asJson.code == 0);
    CHECK(nlohmann::json::parse(asJson.out).contains("metrics"));
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

TEST_CASE("store commands refuse a store of an unknown schema version", "[cli][store][corrupt]")
{
    const fs::path dir = scratch("version");
    const fs::path store = dir / "s.sqlite";
    REQUIRE(runCli({"store", "--store", store.string(), "list"}).code == 0);
    test::sqlOn(store, "PRAGMA user_version = -1");
    const std::string before = test::fileBytes(store);
    for (const char* command : {"list", "import"}) {
        CAPTURE(command);
        std::vector<std::string> args = {"store", "--store", store.string(), command};
        if (std::string(command) == "import")
            args.push_back(test::example("seed-h100-dallas-d2c.json"));
        Run run = runCli(args);
        CHECK(run.code == 2);
        CHECK(run.err.find(store.string() + ": ") != std::string::npos);
        CHECK(run.err.find("schema version -1") != std::string::npos);
        CHECK(run.err.find("schema version 1 to 3") != std::string::npos);
        CHECK(run.out.empty());
    }
    CHECK(test::fileBytes(store) == before);
    fs::remove_all(dir);
}

TEST_CASE("store on a damaged store reads, refuses every write and recovers into a new store",
          "[cli][store][corrupt]")
{
    const fs::path dir = scratch("damaged");
    const fs::path store = dir / "s.sqlite";
    const std::string path = store.string();
    // Seeded with the examples; then the third scenario row is renamed behind its index.
    REQUIRE(runCli({"store", "--store", path, "import", test::example("seed-h100-dallas-d2c.json"),
                    "--name", "zz-plan", "-t", "q3"})
                .code == 0);
    REQUIRE(runCli({"store", "--store", path, "notes", "zz-plan", "kept notes"}).code == 0);
    const std::string third = test::sqlText(store, "SELECT name FROM scenarios WHERE id = 3");
    REQUIRE(third.size() > 2);
    test::rewriteInTable(store, "scenarios", third, third.substr(0, third.size() - 1) + "#");
    REQUIRE(test::integrityReport(store).find("row 3 missing from index") != std::string::npos);
    const std::string before = test::fileBytes(store);

    Run list = runCli({"store", "--store", path, "list"});
    CHECK(list.code == 0);
    CHECK(list.out.find("zz-plan") != std::string::npos);
    CHECK(list.err.find("the store is damaged") != std::string::npos);
    CHECK(list.err.find("row 3 missing from index") != std::string::npos);
    CHECK(list.err.find("store recover " + path) != std::string::npos);
    Run shown = runCli({"store", "--store", path, "show", "zz-plan"});
    CHECK(shown.code == 0);

    const std::vector<std::vector<std::string>> writes = {
        {"import", test::example("seed-h100-dallas-d2c.json"), "--name", "other"},
        {"tag", "zz-plan", "new-tag"},
        {"tag", "zz-plan", "q3", "--remove"},
        {"notes", "zz-plan", "changed"},
        {"remove", "zz-plan"},
        {"restore", "zz-plan", "1"},
    };
    for (const auto& write : writes) {
        std::vector<std::string> args = {"store", "--store", path};
        args.insert(args.end(), write.begin(), write.end());
        CAPTURE(write.front());
        Run run = runCli(args);
        CHECK(run.code == 2);
        CHECK(run.err.find("read-only") != std::string::npos);
        CHECK(run.err.find("nothing was written") != std::string::npos);
        CHECK(run.err.find("dctwin-cli store recover " + path + " NEW.sqlite") !=
              std::string::npos);
    }
    // eval still evaluates; only the cache, a write, is skipped.
    Run eval = runCli({"store", "--store", path, "eval", "zz-plan"});
    CHECK(eval.code == 0);
    CHECK(eval.err.find("not cached") != std::string::npos);
    CHECK(test::fileBytes(store) == before);

    const fs::path recovered = dir / "new.sqlite";
    Run recover = runCli({"store", "recover", path, recovered.string()});
    REQUIRE(recover.code == 0);
    std::size_t examples = 0;
    for (const auto& e : fs::directory_iterator(test::dataDir() / "examples"))
        examples += e.path().extension() == ".json";
    REQUIRE(examples > 0);
    const std::string n = std::to_string(examples + 1);
    CHECK(recover.out.find("recovered " + n + " scenarios (" + n + " versions, " + n +
                           " tags, notes of 1) from " + path + " into " + recovered.string()) !=
          std::string::npos);
    CHECK(recover.out.find("everything was readable") != std::string::npos);
    CHECK(test::fileBytes(store) == before);
    Run listed = runCli({"store", "--store", recovered.string(), "list", "-f", "json"});
    REQUIRE(listed.code == 0);
    CHECK(listed.err.empty());
    const auto items = nlohmann::json::parse(listed.out);
    CHECK(items.size() == examples + 1);
    Run info = runCli({"store", "--store", recovered.string(), "show", "zz-plan", "--info"});
    REQUIRE(info.code == 0);
    CHECK(nlohmann::json::parse(info.out)["notes"] == "kept notes");
    CHECK(runCli({"store", "--store", recovered.string(), "tag", "zz-plan", "again"}).code == 0);

    Run again = runCli({"store", "recover", path, recovered.string()});
    CHECK(again.code == 2);
    CHECK(again.err.find(recovered.string() + ": the file exists") != std::string::npos);
    fs::remove_all(dir);
}
