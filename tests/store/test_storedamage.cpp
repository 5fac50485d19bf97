// The store against files that are damaged, of unknown schema versions or created by several
// programs at once: a damaged file is only read (never changed), an unknown version is refused,
// recover() saves what is readable, and first-use creation never fails a concurrent opener.
#include "dct/model/contenthash.h"
#include "dct/store/scenariostore.h"
#include "storedamage.h"

#include <catch2/catch.hpp>
#include <chrono>
#include <nlohmann/json.hpp>
#include <random>
#include <sys/wait.h>
#include <unistd.h>

using dct::store::ScenarioStore;
using dct::store::StoreOpenOptions;
using dct::test::fileBytes;
namespace fs = std::filesystem;

namespace {

struct ScratchDir
{
    fs::path path;
    explicit ScratchDir(const std::string& name)
    {
        path = fs::temp_directory_path() /
               ("dct-storedamage-" + name + "-" + std::to_string(::getpid()));
        fs::remove_all(path);
        fs::create_directories(path);
    }
    ~ScratchDir() { fs::remove_all(path); }
};

std::string scenarioJson(int i, std::size_t padding = 200)
{
    nlohmann::json j = {{"schema_version", 2},
                        {"name", "variant " + std::to_string(i)},
                        {"compute", {{"node", "hgx-h100"}, {"node_count", i + 1}}},
                        {"description", "marker-" + std::to_string(1000 + i) + " " +
                                            std::string(padding, static_cast<char>('a' + i % 26))}};
    return j.dump(2);
}

/**
 * Makes a closed store at \a path with scenarios plan-1 .. plan-n (scenario row i + 1 holds
 * plan-i), each with \a versions versions, a tag and notes. Closing it copies the WAL into the
 * file, so the file alone is the whole store.
 */
void makeStore(const fs::path& path, int n = 6, int versions = 2, std::size_t padding = 200)
{
    auto store = ScenarioStore::open(path);
    REQUIRE(store);
    for (int i = 0; i < n; ++i) {
        const std::string name = "plan-" + std::to_string(i);
        for (int v = 0; v < versions; ++v)
            REQUIRE(store->save(name, scenarioJson(i * 10 + v, padding), "v" + std::to_string(v)));
        REQUIRE(store->addTag(name, "tag-" + std::to_string(i)));
        REQUIRE(store->setNotes(name, "notes of " + name));
    }
}

/** The store at \a path with row 4 of scenarios renamed behind the name index's back. */
void damageNameIndex(const fs::path& path)
{
    makeStore(path);
    dct::test::rewriteInTable(path, "scenarios", "plan-3", "plan-X");
    REQUIRE(dct::test::integrityReport(path).find("row 4 missing from index") != std::string::npos);
}

void setUserVersion(const fs::path& path, int version)
{
    dct::test::sqlOn(path, "PRAGMA user_version = " + std::to_string(version));
}

bool contains(const std::string& text, const std::string& part)
{
    return text.find(part) != std::string::npos;
}

} // namespace

TEST_CASE("a store of a schema version this program does not know is refused, never written",
          "[store][corrupt][version]")
{
    ScratchDir dir("version");
    const fs::path path = dir.path / "s.sqlite";
    makeStore(path, 2, 1);
    for (const int version : {-1, -7, -2147483647 - 1, 4, 99, 2147483647}) {
        CAPTURE(version);
        setUserVersion(path, version);
        const std::string before = fileBytes(path);
        auto store = ScenarioStore::open(path);
        REQUIRE_FALSE(store);
        CHECK(store.error().file == path.string());
        CHECK(contains(store.error().message, "schema version " + std::to_string(version)));
        CHECK(contains(store.error().message, "left untouched"));
        CHECK(contains(store.error().accepted, "schema version 1 to 3"));
        CHECK(fileBytes(path) == before);
    }
}

TEST_CASE("a store whose user_version lags behind its tables is completed, not refused",
          "[store][migration]")
{
    ScratchDir dir("lagging");
    const fs::path path = dir.path / "s.sqlite";
    for (const int version : {0, 1}) {
        CAPTURE(version);
        fs::remove(path);
        makeStore(path, 2, 2);
        setUserVersion(path, version); // every table, results included, is already there
        auto store = ScenarioStore::open(path);
        if (!store)
            FAIL(store.error().toString());
        CHECK(store->schemaVersion().value() == ScenarioStore::currentSchemaVersion);
        CHECK(store->list()->size() == 2);
        CHECK(store->load("plan-1")->version == 2);
        CHECK(store->storeEvaluation("plan-1", 2, "h", "m", "{}"));
        CHECK(store->integrityCheck().value() == "ok");
    }
    SECTION("a table of the schema with other columns is refused")
    {
        fs::remove(path);
        makeStore(path, 1, 1);
        dct::test::sqlOn(path, "DROP TABLE results; CREATE TABLE results(x); "
                               "PRAGMA user_version = 1");
        const std::string before = fileBytes(path);
        auto store = ScenarioStore::open(path);
        REQUIRE_FALSE(store);
        CHECK(contains(store.error().message, "the table 'results' has no column 'scenario_id'"));
        CHECK(fileBytes(path) == before);
    }
}

TEST_CASE("a damaged store is opened read-only: listed, but every write is refused",
          "[store][corrupt][damaged]")
{
    ScratchDir dir("damaged");
    const fs::path path = dir.path / "s.sqlite";
    damageNameIndex(path);
    const std::string before = fileBytes(path);
    {
        auto store = ScenarioStore::open(path);
        REQUIRE(store);
        CHECK(store->readOnly());
        CHECK(contains(store->damage(), "row 4 missing from index"));
        auto list = store->list();
        REQUIRE(list);
        CHECK(list->size() == 6);
        CHECK(store->load("plan-1")->json == scenarioJson(11));
        // The renamed row is missing from the name index, yet it is found by its name.
        auto renamed = store->load("plan-X");
        REQUIRE(renamed);
        CHECK(renamed->json == scenarioJson(31));

        auto refused = [&](const dct::Error& e) {
            CHECK(e.file == path.string());
            CHECK(contains(e.message, "damaged"));
            CHECK(contains(e.message, "read-only"));
            CHECK(contains(e.accepted, "dctwin-cli store recover " + path.string()));
        };
        auto save = store->save("new", scenarioJson(1));
        REQUIRE_FALSE(save);
        refused(save.error());
        auto tag = store->addTag("plan-1", "x");
        REQUIRE_FALSE(tag);
        refused(tag.error());
        auto untag = store->removeTag("plan-1", "tag-1");
        REQUIRE_FALSE(untag);
        refused(untag.error());
        auto notes = store->setNotes("plan-1", "x");
        REQUIRE_FALSE(notes);
        refused(notes.error());
        auto removed = store->remove("plan-1");
        REQUIRE_FALSE(removed);
        refused(removed.error());
        auto restored = store->restore("plan-1", 1);
        REQUIRE_FALSE(restored);
        refused(restored.error());
        auto cached = store->storeEvaluation("plan-1", 1, "h", "m", "{}");
        REQUIRE_FALSE(cached);
        refused(cached.error());
    }
    CHECK(fileBytes(path) == before);

    SECTION("an index page overwritten with garbage")
    {
        fs::remove(path);
        makeStore(path);
        const auto [pageSize, root] = dct::test::rootPage(path, "sqlite_autoindex_scenarios_1");
        (void)pageSize;
        dct::test::overwritePage(path, root, '\x5a', 8);
        REQUIRE(dct::test::integrityReport(path) != "ok\n");
        const std::string garbled = fileBytes(path);
        {
            auto store = ScenarioStore::open(path);
            if (store) {
                CHECK(store->readOnly());
                CHECK_FALSE(store->save("new", scenarioJson(1)));
                CHECK_FALSE(store->addTag("plan-1", "x"));
            } else {
                CHECK(contains(store.error().message, "damaged"));
            }
        }
        CHECK(fileBytes(path) == garbled);
    }
}

TEST_CASE("a store too large to check within the time budget opens writable, with a note",
          "[store][corrupt][budget]")
{
    ScratchDir dir("budget");
    const fs::path path = dir.path / "s.sqlite";
    makeStore(path, 1, 1);
    // About 12 MB of versions in one transaction: checking them takes far more than 1 ms.
    dct::test::sqlOn(path, "WITH RECURSIVE n(i) AS (SELECT 2 UNION ALL SELECT i + 1 FROM n "
                           "WHERE i < 4000) INSERT INTO versions (scenario_id, version, json, "
                           "hash, comment, saved_at) SELECT 1, i, '{\"d\": \"' || "
                           "printf('%.3000c', 'x') || '\"}', '', '', '' FROM n");
    StoreOpenOptions options;
    options.integrityCheckBudgetMs = 1;
    auto store = ScenarioStore::open(path, options);
    REQUIRE(store);
    CHECK_FALSE(store->readOnly());
    CHECK(contains(store->checkNote(), "was not fully checked for damage in 1 ms"));
    CHECK(contains(store->checkNote(), path.string()));
    CHECK(store->save("plan-0", scenarioJson(5)));
    // With the default budget the same store is checked whole.
    auto whole = ScenarioStore::open(path);
    REQUIRE(whole);
    CHECK(whole->checkNote().empty());
}

TEST_CASE("recover copies every readable version, tag and note into a new store",
          "[store][corrupt][recover]")
{
    ScratchDir dir("recover");
    const fs::path damaged = dir.path / "damaged.sqlite";
    const fs::path target = dir.path / "recovered" / "new.sqlite";

    SECTION("rows that disagree with their index")
    {
        damageNameIndex(damaged);
        const std::string before = fileBytes(damaged);
        auto report = ScenarioStore::recover(damaged, target);
        if (!report)
            FAIL(report.error().toString());
        CHECK(report->scenarios == 6);
        CHECK(report->versions == 12);
        CHECK(report->tags == 6);
        CHECK(report->notes == 6);
        CHECK(report->problems.empty());
        CHECK(fileBytes(damaged) == before);

        auto store = ScenarioStore::open(target);
        REQUIRE(store);
        CHECK_FALSE(store->readOnly());
        CHECK(store->integrityCheck().value() == "ok");
        auto renamed = store->find("plan-X"); // the name the table holds
        REQUIRE(renamed);
        CHECK(renamed->versionCount == 2);
        CHECK(renamed->tags == std::vector<std::string>{"tag-3"});
        CHECK(renamed->notes == "notes of plan-3");
        auto history = store->history("plan-5");
        REQUIRE(history);
        REQUIRE(history->size() == 2);
        CHECK((*history)[1].version == 2);
        CHECK((*history)[1].comment == "v1");
        CHECK((*history)[1].json == scenarioJson(51));
        CHECK(store->save("plan-5", scenarioJson(99)).value() == 3); // the new store is writable
    }
    SECTION("a table page of versions overwritten: only its rows are lost, and said")
    {
        // One version per page (3 kB each), so damaging one page loses exactly one version.
        makeStore(damaged, 6, 2, 3000);
        const auto page = dct::test::pageHolding(damaged, "marker-1031");
        dct::test::overwritePage(damaged, page, '\xff');
        const std::string before = fileBytes(damaged);
        auto opened = ScenarioStore::open(damaged);
        if (opened)
            CHECK(opened->readOnly());
        auto report = ScenarioStore::recover(damaged, target);
        if (!report)
            FAIL(report.error().toString());
        CHECK(fileBytes(damaged) == before);
        CHECK(report->scenarios == 6);
        CHECK(report->versions == 11);
        REQUIRE_FALSE(report->problems.empty());
        CHECK(contains(report->problems.front(), "versions: 1 row between"));
        auto store = ScenarioStore::open(target);
        REQUIRE(store);
        CHECK(store->find("plan-3")->versionCount == 1);
        CHECK(store->find("plan-4")->versionCount == 2);
        CHECK(store->load("plan-3")->json == scenarioJson(30, 3000));
    }
    SECTION("the new store must not exist")
    {
        makeStore(damaged, 1, 1);
        fs::create_directories(target.parent_path());
        dct::test::writeBytes(target, "mine");
        auto report = ScenarioStore::recover(damaged, target);
        REQUIRE_FALSE(report);
        CHECK(report.error().file == target.string());
        CHECK(fileBytes(target) == "mine");
    }
}

TEST_CASE("programs creating one new store at once all open it", "[store][concurrent][create]")
{
    // Four programs opening a store that does not exist yet, released at the same instant, 120
    // times: before creation was atomic, 5 to 11 of 100 such rounds of `dctwin-cli store list`
    // had a program fail.
    ScratchDir dir("create");
    StoreOpenOptions options;
    options.seedDirectory = fs::path(DCT_TEST_DATA_DIR) / "examples";
    std::size_t examples = 0;
    for (const auto& e : fs::directory_iterator(options.seedDirectory))
        examples += e.path().extension() == ".json";
    REQUIRE(examples > 0);
    constexpr int rounds = 120;
    constexpr int programs = 4;
    int failures = 0;
    for (int round = 0; round < rounds; ++round) {
        const fs::path path = dir.path / std::to_string(round) / "scenarios.sqlite";
        int gate[2];
        REQUIRE(::pipe(gate) == 0);
        std::vector<pid_t> children;
        for (int p = 0; p < programs; ++p) {
            const pid_t child = ::fork();
            REQUIRE(child >= 0);
            if (child == 0) {
                ::close(gate[1]);
                char go = 0;
                if (::read(gate[0], &go, 1) != 1)
                    ::_exit(3);
                auto store = ScenarioStore::open(path, options);
                if (!store)
                    ::_exit(4);
                auto list = store->list();
                ::_exit(list && list->size() == examples ? 0 : 5);
            }
            children.push_back(child);
        }
        ::close(gate[0]);
        const char go[programs] = {};
        REQUIRE(::write(gate[1], go, programs) == programs);
        ::close(gate[1]);
        for (const pid_t child : children) {
            int status = 0;
            ::waitpid(child, &status, 0);
            if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
                ++failures;
        }
    }
    CHECK(failures == 0);
    // No temporary file of the creation is left behind.
    for (const auto& entry : fs::recursive_directory_iterator(dir.path))
        CHECK(entry.path().filename().string().find(".new-") == std::string::npos);
}

TEST_CASE("a mutated store file is opened or refused, never crashes and is never changed "
          "when damaged",
          "[store][corrupt][fuzz]")
{
    // Seeded random damage of a real store: bytes flipped anywhere or in the header's fields,
    // whole pages overwritten, the file cut short.
    ScratchDir dir("fuzz");
    const fs::path original = dir.path / "original.sqlite";
    makeStore(original, 8, 3, 600);
    const std::string pristine = fileBytes(original);
    const auto pageSize =
        static_cast<std::size_t>(std::stoll(dct::test::sqlText(original, "PRAGMA page_size")));
    std::mt19937 rng(20261123);
    const fs::path path = dir.path / "case.sqlite";
    StoreOpenOptions options;
    options.busyTimeoutMs = 100;
    int opened = 0, readOnly = 0, refused = 0;
    const auto start = std::chrono::steady_clock::now();
    constexpr int cases = 400;
    for (int i = 0; i < cases; ++i) {
        std::string bytes = pristine;
        const int kind = i % 4;
        auto offset = [&](std::size_t limit) { return static_cast<std::size_t>(rng() % limit); };
        if (kind == 0) { // a few bytes flipped anywhere
            for (int k = 0, n = 1 + static_cast<int>(rng() % 8); k < n; ++k)
                bytes[offset(bytes.size())] ^= static_cast<char>(1 + rng() % 255);
        } else if (kind == 1) { // a field of the 100-byte header (user_version, sizes, ...)
            bytes[offset(100)] = static_cast<char>(rng());
        } else if (kind == 2) { // a whole page after the first overwritten
            const std::size_t page = 1 + offset(bytes.size() / pageSize - 1);
            const char fill = static_cast<char>(rng());
            for (std::size_t k = page * pageSize; k < (page + 1) * pageSize; ++k)
                bytes[k] = (rng() % 4 == 0) ? static_cast<char>(rng()) : fill;
        } else { // cut short
            bytes.resize(offset(bytes.size()));
        }
        for (const char* suffix : {"-wal", "-shm"})
            fs::remove(path.string() + suffix);
        dct::test::writeBytes(path, bytes);
        CAPTURE(i, kind);
        bool damaged = true;
        {
            auto store = ScenarioStore::open(path, options);
            if (!store) {
                ++refused;
                CHECK(store.error().file == path.string());
                CHECK_FALSE(store.error().message.empty());
            } else if (store->readOnly()) {
                ++readOnly;
                CHECK_FALSE(store->damage().empty());
                if (auto list = store->list())
                    for (const auto& item : *list)
                        (void)store->load(item.name);
                CHECK_FALSE(store->save("new", scenarioJson(1)));
                CHECK_FALSE(store->setNotes("plan-1", "x"));
            } else {
                ++opened;
                damaged = false;
                if (auto list = store->list())
                    for (const auto& item : *list)
                        (void)store->load(item.name);
            }
        }
        if (damaged)
            CHECK(fileBytes(path) == bytes);
    }
    const auto seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    WARN(cases << " mutated stores: " << opened << " opened, " << readOnly
               << " read-only (damaged), " << refused << " refused, in " << seconds << " s");
    CHECK(readOnly > 0);
    CHECK(refused > 0);
    CHECK(seconds < 120);
}
