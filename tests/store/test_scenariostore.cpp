// The scenario store against what users do to it: kill the program mid-save, point it at the
// wrong file, use it from the desktop program and the CLI at once, go back in history.
#include "dct/model/contenthash.h"
#include "dct/store/calibrationlookup.h"
#include "dct/store/scenariostore.h"

#include <atomic>
#include <catch2/catch.hpp>
#include <csignal>
#include <fstream>
#include <nlohmann/json.hpp>
#include <random>
#include <sqlite3.h>
#include <sstream>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

using dct::store::ScenarioStore;
using dct::store::StoreOpenOptions;
namespace fs = std::filesystem;

namespace {

/** A fresh folder under the temporary directory, removed at the end of the test. */
struct ScratchDir
{
    fs::path path;
    explicit ScratchDir(const std::string& name)
    {
        path = fs::temp_directory_path() / ("dct-store-" + name + "-" + std::to_string(::getpid()));
        fs::remove_all(path);
        fs::create_directories(path);
    }
    ~ScratchDir() { fs::remove_all(path); }
};

std::string readBytes(const fs::path& path)
{
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

std::string scenarioJson(int i)
{
    nlohmann::json j = {
        {"schema_version", 2},
        {"name", "variant " + std::to_string(i)},
        {"compute", {{"node", "hgx-h100"}, {"node_count", i + 1}}},
        // Padding makes each save span several pages, so a kill can tear one.
        {"description", std::string(3000 + i % 5000, static_cast<char>('a' + i % 26))}};
    return j.dump(2);
}

ScenarioStore openOrFail(const fs::path& path, const StoreOpenOptions& options = {})
{
    auto store = ScenarioStore::open(path, options);
    if (!store)
        FAIL(store.error().toString());
    return std::move(*store);
}

} // namespace

TEST_CASE("a new store is created and seeded with the bundled examples once", "[store]")
{
    ScratchDir dir("seed");
    const fs::path path = dir.path / "nested" / "scenarios.sqlite";
    StoreOpenOptions options;
    options.seedDirectory = fs::path(DCT_TEST_DATA_DIR) / "examples";
    std::size_t examples = 0;
    for (const auto& e : fs::directory_iterator(options.seedDirectory))
        examples += e.path().extension() == ".json";
    REQUIRE(examples > 0);
    {
        auto store = openOrFail(path, options);
        auto list = store.list();
        REQUIRE(list);
        CHECK(list->size() == examples);
        auto tagged = store.list("example");
        REQUIRE(tagged);
        CHECK(tagged->size() == examples);
        auto seed = store.load("seed-h100-dallas-d2c");
        REQUIRE(seed);
        CHECK(seed->version == 1);
        CHECK(nlohmann::json::parse(seed->json)["site"] == "dallas");
        CHECK(store.schemaVersion().value() == ScenarioStore::currentSchemaVersion);
    }
    auto again = openOrFail(path, options);
    CHECK(again.list()->size() == examples); // not seeded twice
}

TEST_CASE("the default path follows DCT_STORE, then XDG_DATA_HOME", "[store]")
{
    const char* oldStore = std::getenv("DCT_STORE");
    const std::string saved = oldStore ? oldStore : "";
    ::setenv("DCT_STORE", "/tmp/x/my.sqlite", 1);
    CHECK(ScenarioStore::defaultPath() == fs::path("/tmp/x/my.sqlite"));
    ::unsetenv("DCT_STORE");
    ::setenv("XDG_DATA_HOME", "/tmp/xdg", 1);
    CHECK(ScenarioStore::defaultPath() == fs::path("/tmp/xdg/dctwin/scenarios.sqlite"));
    if (oldStore)
        ::setenv("DCT_STORE", saved.c_str(), 1);
}

TEST_CASE("every save is a version and restoring one makes a new version", "[store][history]")
{
    ScratchDir dir("history");
    auto store = openOrFail(dir.path / "s.sqlite");
    REQUIRE(store.save("plan", scenarioJson(1), "first").value() == 1);
    REQUIRE(store.save("plan", scenarioJson(2), "second").value() == 2);
    REQUIRE(store.save("plan", scenarioJson(3)).value() == 3);

    auto history = store.history("plan");
    REQUIRE(history);
    REQUIRE(history->size() == 3);
    CHECK((*history)[0].json == scenarioJson(1));
    CHECK((*history)[1].comment == "second");

    auto restored = store.restore("plan", 1);
    REQUIRE(restored);
    CHECK(*restored == 4);
    auto latest = store.load("plan");
    REQUIRE(latest);
    CHECK(latest->version == 4);
    CHECK(latest->json == scenarioJson(1));
    CHECK(latest->comment == "restored version 1");
    CHECK(store.history("plan")->size() == 4); // nothing was lost

    auto missing = store.load("plan", 9);
    REQUIRE_FALSE(missing);
    CHECK(missing.error().message.find("no version 9") != std::string::npos);
    CHECK(missing.error().accepted == "a version from 1 to 4");
    auto unknown = store.load("nope");
    REQUIRE_FALSE(unknown);
    CHECK(unknown.error().accepted.find("plan") != std::string::npos);
    CHECK_FALSE(store.save("plan", "[1, 2]"));
    CHECK_FALSE(store.save("plan", "{not json"));
}

TEST_CASE("tags and notes belong to a scenario", "[store]")
{
    ScratchDir dir("tags");
    auto store = openOrFail(dir.path / "s.sqlite");
    store.save("a", scenarioJson(1)).value();
    store.save("b", scenarioJson(2)).value();
    REQUIRE(store.addTag("a", "finance"));
    REQUIRE(store.addTag("a", "q3"));
    REQUIRE(store.addTag("b", "q3"));
    REQUIRE(store.setNotes("b", "spread racks"));
    CHECK(store.list("finance")->size() == 1);
    CHECK(store.list("q3")->size() == 2);
    auto a = store.find("a");
    REQUIRE(a);
    CHECK(a->tags == std::vector<std::string>{"finance", "q3"});
    CHECK(store.find("b")->notes == "spread racks");
    REQUIRE(store.removeTag("a", "q3"));
    CHECK(store.list("q3")->size() == 1);
    REQUIRE(store.remove("a"));
    CHECK_FALSE(store.contains("a").value());
    CHECK(store.list()->size() == 1);
}

TEST_CASE("cached results are invalidated by new inputs or a new model version", "[store][cache]")
{
    ScratchDir dir("cache");
    auto store = openOrFail(dir.path / "s.sqlite");
    const int v = store.save("plan", scenarioJson(1)).value();
    const std::string hash = ScenarioStore::inputsHash(scenarioJson(1), "catalog-1");
    REQUIRE(store.storeEvaluation("plan", v, hash, "model-1", R"({"pue": 1.2})"));

    auto hit = store.cachedEvaluation("plan", v, hash, "model-1");
    REQUIRE(hit);
    REQUIRE(hit->has_value());
    CHECK(**hit == R"({"pue": 1.2})");

    // The catalog changed: the inputs hash differs.
    const std::string otherCatalog = ScenarioStore::inputsHash(scenarioJson(1), "catalog-2");
    CHECK(otherCatalog != hash);
    CHECK_FALSE(store.cachedEvaluation("plan", v, otherCatalog, "model-1")->has_value());
    // The program's models changed.
    CHECK_FALSE(store.cachedEvaluation("plan", v, hash, "model-2")->has_value());
    // The scenario changed: a new version has no result yet, and its hash differs.
    const int v2 = store.save("plan", scenarioJson(2)).value();
    const std::string hash2 = ScenarioStore::inputsHash(scenarioJson(2), "catalog-1");
    CHECK(hash2 != hash);
    CHECK_FALSE(store.cachedEvaluation("plan", v2, hash2, "model-1")->has_value());
    // Re-evaluating replaces the stale entry.
    REQUIRE(store.storeEvaluation("plan", v, otherCatalog, "model-1", R"({"pue": 1.3})"));
    CHECK(store.cachedEvaluation("plan", v, otherCatalog, "model-1")->value() == R"({"pue": 1.3})");
    CHECK_FALSE(store.cachedEvaluation("plan", v, hash, "model-1")->has_value());
}

TEST_CASE("a file that is not a DC Twin store is refused and left byte-identical",
          "[store][corrupt]")
{
    ScratchDir dir("foreign");

    SECTION("random bytes")
    {
        const fs::path path = dir.path / "random.sqlite";
        std::string bytes(8192, '\0');
        std::mt19937 rng(7);
        for (auto& c : bytes)
            c = static_cast<char>(rng());
        std::ofstream(path, std::ios::binary) << bytes;
        auto store = ScenarioStore::open(path);
        REQUIRE_FALSE(store);
        CHECK(store.error().file == path.string());
        CHECK(store.error().message.find("not a DC Twin scenario store") != std::string::npos);
        CHECK(readBytes(path) == bytes);
    }
    SECTION("a text file")
    {
        const fs::path path = dir.path / "notes.txt";
        std::ofstream(path) << "my important notes\n";
        REQUIRE_FALSE(ScenarioStore::open(path));
        CHECK(readBytes(path) == "my important notes\n");
    }
    SECTION("another program's SQLite database")
    {
        const fs::path path = dir.path / "other.sqlite";
        sqlite3* db = nullptr;
        REQUIRE(sqlite3_open(path.c_str(), &db) == SQLITE_OK);
        sqlite3_exec(db, "CREATE TABLE contacts(name TEXT); INSERT INTO contacts VALUES('x')",
                     nullptr, nullptr, nullptr);
        sqlite3_close(db);
        const std::string before = readBytes(path);
        auto store = ScenarioStore::open(path);
        REQUIRE_FALSE(store);
        CHECK(store.error().message.find("another program") != std::string::npos);
        CHECK(readBytes(path) == before);
        CHECK_FALSE(fs::exists(path.string() + "-wal"));
    }
    SECTION("our application id without our tables")
    {
        const fs::path path = dir.path / "damaged.sqlite";
        sqlite3* db = nullptr;
        REQUIRE(sqlite3_open(path.c_str(), &db) == SQLITE_OK);
        const std::string sql =
            "PRAGMA application_id = " + std::to_string(ScenarioStore::applicationId) +
            "; PRAGMA user_version = 2; CREATE TABLE scenarios(x);";
        sqlite3_exec(db, sql.c_str(), nullptr, nullptr, nullptr);
        sqlite3_close(db);
        const std::string before = readBytes(path);
        auto store = ScenarioStore::open(path);
        REQUIRE_FALSE(store);
        CHECK(store.error().message.find("damaged") != std::string::npos);
        CHECK(readBytes(path) == before);
    }
    SECTION("a store of a newer program")
    {
        const fs::path path = dir.path / "newer.sqlite";
        openOrFail(path);
        sqlite3* db = nullptr;
        REQUIRE(sqlite3_open(path.c_str(), &db) == SQLITE_OK);
        sqlite3_exec(db, "PRAGMA journal_mode = DELETE; PRAGMA user_version = 99", nullptr, nullptr,
                     nullptr);
        sqlite3_close(db);
        const std::string before = readBytes(path);
        auto store = ScenarioStore::open(path);
        REQUIRE_FALSE(store);
        CHECK(store.error().message.find("newer") != std::string::npos);
        CHECK(readBytes(path) == before);
    }
    SECTION("a folder")
    {
        REQUIRE_FALSE(ScenarioStore::open(dir.path));
    }
}

TEST_CASE("an older schema is migrated and keeps its scenarios", "[store][migration]")
{
    ScratchDir dir("migrate");
    const fs::path path = dir.path / "s.sqlite";
    {
        StoreOpenOptions v1;
        v1.schemaVersion = 1;
        auto old = openOrFail(path, v1);
        CHECK(old.schemaVersion().value() == 1);
        old.save("plan", scenarioJson(5)).value();
        REQUIRE(old.addTag("plan", "kept"));
        // Version 1 has no result cache.
        CHECK_FALSE(old.storeEvaluation("plan", 1, "h", "m", "{}"));
    }
    auto store = openOrFail(path);
    CHECK(store.schemaVersion().value() == ScenarioStore::currentSchemaVersion);
    CHECK(store.load("plan")->json == scenarioJson(5));
    CHECK(store.list("kept")->size() == 1);
    CHECK(store.storeEvaluation("plan", 1, "h", "m", "{}"));
    CHECK(store.integrityCheck().value() == "ok");
}

TEST_CASE("two connections use one store at once", "[store][concurrent]")
{
    ScratchDir dir("concurrent");
    const fs::path path = dir.path / "s.sqlite";
    openOrFail(path);
    constexpr int savesPerWriter = 60;
    std::atomic<bool> failed{false};
    std::atomic<int> reads{0};
    auto writer = [&](const std::string& name) {
        auto store = ScenarioStore::open(path);
        if (!store) {
            failed = true;
            return;
        }
        for (int i = 0; i < savesPerWriter; ++i)
            if (!store->save(name, scenarioJson(i)))
                failed = true;
    };
    std::atomic<bool> writing{true};
    auto reader = [&] {
        auto store = ScenarioStore::open(path);
        if (!store) {
            failed = true;
            return;
        }
        while (writing) {
            auto list = store->list();
            if (!list)
                failed = true;
            for (const auto& item : *list)
                if (!store->load(item.name))
                    failed = true;
            ++reads;
        }
    };
    std::thread r(reader);
    std::thread a(writer, "desktop");
    std::thread b(writer, "cli");
    a.join();
    b.join();
    writing = false;
    r.join();

    CHECK_FALSE(failed);
    CHECK(reads > 0);
    auto store = openOrFail(path);
    CHECK(store.find("desktop")->latestVersion == savesPerWriter);
    CHECK(store.find("cli")->versionCount == savesPerWriter);
    CHECK(store.integrityCheck().value() == "ok");
}

TEST_CASE("a program killed in the middle of saves leaves every committed scenario intact",
          "[store][kill]")
{
    ScratchDir dir("kill");
    const fs::path path = dir.path / "s.sqlite";
    openOrFail(path);
    int committed = 0;
    for (int round = 0; round < 3; ++round) {
        int pipeFds[2];
        REQUIRE(::pipe(pipeFds) == 0);
        const pid_t child = ::fork();
        REQUIRE(child >= 0);
        if (child == 0) {
            ::close(pipeFds[0]);
            auto store = ScenarioStore::open(path);
            if (!store)
                ::_exit(3);
            for (int i = committed;; ++i) {
                if (!store->save("s" + std::to_string(i), scenarioJson(i)))
                    ::_exit(4);
                // Report only after the commit returned: the parent then knows i is durable.
                if (::write(pipeFds[1], &i, sizeof i) != sizeof i)
                    ::_exit(5);
            }
        }
        ::close(pipeFds[1]);
        // Let it commit a varying number of saves, then kill it without warning mid-save.
        const int wanted = committed + 20 + round * 17;
        int last = -1;
        while (last + 1 < wanted) {
            int value = 0;
            if (::read(pipeFds[0], &value, sizeof value) != sizeof value)
                break;
            last = value;
        }
        ::usleep(static_cast<useconds_t>(1000 * (round + 1)));
        ::kill(child, SIGKILL);
        int status = 0;
        ::waitpid(child, &status, 0);
        int value = 0;
        while (::read(pipeFds[0], &value, sizeof value) == sizeof value)
            last = value;
        ::close(pipeFds[0]);
        REQUIRE(WIFSIGNALED(status));
        REQUIRE(last + 1 >= wanted);

        auto store = openOrFail(path);
        REQUIRE(store.integrityCheck().value() == "ok");
        auto list = store.list();
        REQUIRE(list);
        // Every save the child reported is there, whole; at most the one in flight is extra.
        CHECK(static_cast<int>(list->size()) >= last + 1);
        CHECK(static_cast<int>(list->size()) <= last + 2);
        for (const auto& item : *list) {
            auto v = store.load(item.name); // checks the content hash
            REQUIRE(v);
            const int i = std::stoi(item.name.substr(1));
            CHECK(v->json == scenarioJson(i));
            CHECK(v->version == 1);
        }
        committed = static_cast<int>(list->size());
    }
}

TEST_CASE("content hashes differ for different texts and are stable", "[store]")
{
    using dct::model::contentHash;
    CHECK(contentHash("abc") == contentHash("abc"));
    CHECK(contentHash("abc") != contentHash("abd"));
    CHECK(contentHash("").size() == 32);
}

TEST_CASE("a version 2 store gains the calibration profiles on open and keeps its scenarios",
          "[store][migration][calibration]")
{
    ScratchDir dir("migrate-calibration");
    const fs::path path = dir.path / "s.sqlite";
    {
        StoreOpenOptions v2;
        v2.schemaVersion = 2;
        auto old = openOrFail(path, v2);
        CHECK(old.schemaVersion().value() == 2);
        old.save("plan", scenarioJson(3)).value();
        REQUIRE(old.storeEvaluation("plan", 1, "h", "m", "{}"));
        // Version 2 has no calibration profiles.
        CHECK_FALSE(old.saveCalibrationProfile("fit", "{}"));
    }
    auto store = openOrFail(path);
    CHECK(store.schemaVersion().value() == 3);
    CHECK(store.load("plan")->json == scenarioJson(3));
    CHECK(store.cachedEvaluation("plan", 1, "h", "m").value() == std::optional<std::string>("{}"));
    CHECK(store.calibrationProfiles()->empty());
    REQUIRE(store.saveCalibrationProfile("fit", "{\"name\": \"fit\"}"));
    CHECK(store.integrityCheck().value() == "ok");
}

TEST_CASE("calibration profiles are saved, replaced by name, listed and looked up",
          "[store][calibration]")
{
    ScratchDir dir("calibration");
    const fs::path path = dir.path / "s.sqlite";
    {
        auto store = openOrFail(path);
        REQUIRE(store.saveCalibrationProfile("b-fit", "{\"v\": 1}"));
        REQUIRE(store.saveCalibrationProfile("a-fit", "{\"v\": 2}"));
        REQUIRE(store.saveCalibrationProfile("b-fit", "{\"v\": 3}"));
        CHECK_FALSE(store.saveCalibrationProfile("", "{}"));
    }
    auto store = openOrFail(path);
    const auto all = store.calibrationProfiles();
    REQUIRE(all);
    REQUIRE(all->size() == 2);
    CHECK((*all)[0].name == "a-fit");
    CHECK((*all)[1].json == "{\"v\": 3}");
    CHECK_FALSE((*all)[1].savedAt.empty());
    const auto missing = store.loadCalibrationProfile("c-fit");
    REQUIRE_FALSE(missing);
    CHECK_THAT(missing.error().toString(),
               Catch::Contains("no calibration profile named 'c-fit' in the store (accepted: "
                               "one of a-fit, b-fit)"));
    CHECK(store.loadCalibrationProfile("a-fit")->json == "{\"v\": 2}");
}

TEST_CASE("a calibration profile stored before the protocol latency factors loads with them at 1",
          "[store][calibration][migration]")
{
    // As `dctwin-cli calibrate` stored a profile of model version 8: five factors, two fitted.
    const std::string legacy = R"({"name": "a3mega", "created_at": "2026-11-20T10:00:00Z",
        "logs": ["a3mega-2x8-h100-all_reduce_perf.log"],
        "system": {"gpus": 16, "gpus_per_node": 8, "gpu": "h100-sxm5", "nic": "connectx-6-200g",
                   "switch": "sn4700", "rails": 8, "protocol": "roce_v2", "topology": "fat_tree"},
        "factors": {"launch_latency_factor": 1.0, "scale_up_latency_factor": 1.0,
                    "fabric_latency_factor": 9.5, "scale_up_bandwidth_factor": 1.0,
                    "fabric_bandwidth_factor": 0.93},
        "fitted": ["fabric_latency_factor", "fabric_bandwidth_factor"],
        "relative_error": {"fabric_latency_factor": 0.08, "fabric_bandwidth_factor": 0.02},
        "rms_residual_percent": 24.0, "model_version": "8", "points": []})";
    ScratchDir dir("calibration-legacy");
    const fs::path path = dir.path / "s.sqlite";
    {
        auto store = openOrFail(path);
        REQUIRE(store.saveCalibrationProfile("a3mega", legacy));
    }
    const auto profile = dct::store::calibrationLookup(path)("a3mega");
    REQUIRE(profile);
    using dct::model::CollectiveCalibration;
    CHECK(profile->factors.fabricLatencyFactor == 9.5);
    CHECK(profile->factors.fabricBandwidthFactor == 0.93);
    CHECK(profile->fitted[2]);
    CHECK(profile->relativeError[4] == 0.02);
    for (std::size_t i = CollectiveCalibration::firstOptional; i < CollectiveCalibration::count;
         ++i) {
        INFO(CollectiveCalibration::key(i));
        CHECK(profile->factors.at(i) == CollectiveCalibration::heldValue(i));
        CHECK_FALSE(profile->fitted[i]);
    }
    // A factor of the first five missing is still an error naming it.
    const std::string broken = std::string(legacy).replace(
        legacy.find("\"fabric_latency_factor\": 9.5"),
        std::string("\"fabric_latency_factor\": 9.5").size(), "\"other\": 1");
    auto bad = dct::model::readCalibrationProfile(broken, "old.json");
    REQUIRE_FALSE(bad);
    CHECK_THAT(bad.error().toString(), Catch::Contains("/factors/fabric_latency_factor"));

    // The proxy's serial posts may be stored as 0 (off) or above; a factor may not be 0, nor
    // the posts below it; either error names the field and what is accepted.
    const auto withFactor = [&](const std::string& key, const std::string& value) {
        return std::string(legacy).replace(legacy.find("\"fabric_bandwidth_factor\": 0.93"),
                                           std::string("\"fabric_bandwidth_factor\": 0.93").size(),
                                           "\"fabric_bandwidth_factor\": 0.93, \"" + key +
                                               "\": " + value);
    };
    auto posts = dct::model::readCalibrationProfile(withFactor("proxy_post_factor", "0.53"), "p");
    REQUIRE(posts);
    CHECK(posts->factors.proxyPostFactor == 0.53);
    auto off = dct::model::readCalibrationProfile(withFactor("proxy_post_factor", "0"), "p");
    REQUIRE(off);
    CHECK(off->factors.identity() == false); // fabric factors of the legacy profile
    CHECK(off->factors.proxyPostFactor == 0.0);
    auto negative = dct::model::readCalibrationProfile(withFactor("proxy_post_factor", "-1"), "p");
    REQUIRE_FALSE(negative);
    CHECK_THAT(negative.error().toString(), Catch::Contains("/factors/proxy_post_factor") &&
                                                Catch::Contains("a number >= 0 and <= 1000"));
    auto zero = dct::model::readCalibrationProfile(withFactor("ll_latency_factor", "0"), "p");
    REQUIRE_FALSE(zero);
    CHECK_THAT(zero.error().toString(), Catch::Contains("/factors/ll_latency_factor") &&
                                            Catch::Contains("a number > 0 and <= 1000"));
}
