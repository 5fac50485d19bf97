// The scenario library in one SQLite file. Durability comes from SQLite's transactions in WAL
// mode (https://www.sqlite.org/wal.html): a save is one transaction, so a program killed at any
// instant leaves either the whole save or none of it. Foreign files are recognised before any
// write: the 16-byte SQLite header (https://www.sqlite.org/fileformat.html, 1.3), then our
// application_id at header offset 68 and our tables.
#include "dct/store/scenariostore.h"

#include "dct/model/contenthash.h"
#include "dct/model/jsonread.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sqlite3.h>

namespace dct::store {

namespace {

/** A prepared statement, finalized when it goes out of scope. */
class Statement
{
public:
    Statement(sqlite3* db, const char* sql) : m_db(db)
    {
        m_status = sqlite3_prepare_v2(db, sql, -1, &m_statement, nullptr);
    }
    ~Statement() { sqlite3_finalize(m_statement); }
    Statement(const Statement&) = delete;
    Statement& operator=(const Statement&) = delete;

    bool ok() const
    {
        return m_status == SQLITE_OK || m_status == SQLITE_ROW || m_status == SQLITE_DONE;
    }
    Statement& bind(int index, const std::string& text)
    {
        if (ok())
            m_status = sqlite3_bind_text(m_statement, index, text.data(),
                                         static_cast<int>(text.size()), SQLITE_TRANSIENT);
        return *this;
    }
    Statement& bind(int index, std::int64_t value)
    {
        if (ok())
            m_status = sqlite3_bind_int64(m_statement, index, value);
        return *this;
    }
    /** Steps once; returns true while there is a row. Check ok() after the loop. */
    bool step()
    {
        if (!ok() || !m_statement)
            return false;
        m_status = sqlite3_step(m_statement);
        return m_status == SQLITE_ROW;
    }
    std::string text(int column) const
    {
        const auto* p = sqlite3_column_text(m_statement, column);
        return p ? std::string(reinterpret_cast<const char*>(p),
                               static_cast<std::size_t>(sqlite3_column_bytes(m_statement, column)))
                 : std::string();
    }
    std::int64_t integer(int column) const { return sqlite3_column_int64(m_statement, column); }

private:
    sqlite3* m_db;
    sqlite3_stmt* m_statement = nullptr;
    int m_status = SQLITE_OK;
};

/** Schema steps: migrations[v - 1] takes a store from version v - 1 to version v. */
const std::vector<const char*>& migrations()
{
    static const std::vector<const char*> steps = {
        // 1: scenarios, their versions and tags.
        "CREATE TABLE scenarios ("
        "  id INTEGER PRIMARY KEY,"
        "  name TEXT NOT NULL UNIQUE,"
        "  notes TEXT NOT NULL DEFAULT '',"
        "  created_at TEXT NOT NULL,"
        "  updated_at TEXT NOT NULL);"
        "CREATE TABLE versions ("
        "  scenario_id INTEGER NOT NULL REFERENCES scenarios(id) ON DELETE CASCADE,"
        "  version INTEGER NOT NULL,"
        "  json TEXT NOT NULL,"
        "  hash TEXT NOT NULL,"
        "  comment TEXT NOT NULL DEFAULT '',"
        "  saved_at TEXT NOT NULL,"
        "  PRIMARY KEY (scenario_id, version));"
        "CREATE TABLE tags ("
        "  scenario_id INTEGER NOT NULL REFERENCES scenarios(id) ON DELETE CASCADE,"
        "  tag TEXT NOT NULL,"
        "  PRIMARY KEY (scenario_id, tag));",
        // 2: cached evaluation results beside the versions they were computed from.
        "CREATE TABLE results ("
        "  scenario_id INTEGER NOT NULL REFERENCES scenarios(id) ON DELETE CASCADE,"
        "  version INTEGER NOT NULL,"
        "  inputs_hash TEXT NOT NULL,"
        "  model_version TEXT NOT NULL,"
        "  result_json TEXT NOT NULL,"
        "  evaluated_at TEXT NOT NULL,"
        "  PRIMARY KEY (scenario_id, version));",
    };
    return steps;
}

/** Tables a store of schema \a version must have. */
std::vector<std::string> requiredTables(int version)
{
    std::vector<std::string> tables = {"scenarios", "versions", "tags"};
    if (version >= 2)
        tables.push_back("results");
    return tables;
}

constexpr const char* now = "strftime('%Y-%m-%dT%H:%M:%fZ', 'now')";

std::string sqlMessage(sqlite3* db)
{
    return db ? sqlite3_errmsg(db) : "out of memory";
}

Result<std::int64_t> pragmaNumber(sqlite3* db, const std::string& file, const char* sql)
{
    Statement s(db, sql);
    if (!s.step())
        return makeError(file, "",
                         "not a DC Twin scenario store (not a readable SQLite database: " +
                             sqlMessage(db) + "); the file was left untouched",
                         "a store made by DC Twin, or a path where a new one can be created");
    return s.integer(0);
}

Result<std::vector<std::string>> tableNames(sqlite3* db, const std::string& file)
{
    Statement s(db, "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name");
    std::vector<std::string> names;
    while (s.step())
        names.push_back(s.text(0));
    if (!s.ok())
        return makeError(file, "", "cannot read the store's tables: " + sqlMessage(db));
    return names;
}

Result<void> exec(sqlite3* db, const std::string& file, const char* sql)
{
    char* message = nullptr;
    if (sqlite3_exec(db, sql, nullptr, nullptr, &message) != SQLITE_OK) {
        std::string text = message ? message : sqlMessage(db);
        sqlite3_free(message);
        return makeError(file, "", std::string("store: ") + text);
    }
    return {};
}

/** Returns true when the file starts with the SQLite header, false when it starts otherwise. */
Result<bool> hasSqliteHeader(const std::filesystem::path& path)
{
    std::ifstream in(path, std::ios::binary);
    if (!in)
        return makeError(path.string(), "", "cannot read the store file",
                         "a readable file or a new path");
    char header[16] = {};
    in.read(header, sizeof header);
    return in.gcount() == sizeof header && std::memcmp(header, "SQLite format 3", 16) == 0;
}

Result<void> seed(sqlite3* db, const std::string& file, const std::filesystem::path& directory)
{
    std::error_code ec;
    if (directory.empty() || !std::filesystem::is_directory(directory, ec))
        return {};
    std::vector<std::filesystem::path> files;
    for (const auto& entry : std::filesystem::directory_iterator(directory, ec))
        if (entry.path().extension() == ".json" && entry.is_regular_file(ec))
            files.push_back(entry.path());
    std::sort(files.begin(), files.end());
    for (const auto& path : files) {
        std::ifstream in(path, std::ios::binary);
        std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        const auto json = model::parseJson(text, path.string(), {});
        if (!json || !json->is_object())
            continue; // A broken example must not stop the store from being created.
        const std::string name = path.stem().string();
        const std::string insertScenario = std::string("INSERT OR IGNORE INTO scenarios "
                                                       "(name, created_at, updated_at) VALUES "
                                                       "(?1, ") +
                                           now + ", " + now + ")";
        Statement a(db, insertScenario.c_str());
        a.bind(1, name).step();
        const std::string insertVersion =
            std::string("INSERT OR IGNORE INTO versions "
                        "(scenario_id, version, json, hash, comment, saved_at) "
                        "SELECT id, 1, ?2, ?3, ?4, ") +
            now + " FROM scenarios WHERE name = ?1";
        Statement b(db, insertVersion.c_str());
        b.bind(1, name)
            .bind(2, text)
            .bind(3, model::contentHash(text))
            .bind(4, "bundled example " + path.filename().string())
            .step();
        Statement c(db, "INSERT OR IGNORE INTO tags (scenario_id, tag) "
                        "SELECT id, 'example' FROM scenarios WHERE name = ?1");
        c.bind(1, name).step();
        if (!a.ok() || !b.ok() || !c.ok())
            return makeError(file, "", "cannot import the bundled examples: " + sqlMessage(db));
    }
    return {};
}

} // namespace

void ScenarioStore::Closer::operator()(sqlite3* db) const
{
    sqlite3_close_v2(db);
}

ScenarioStore::ScenarioStore(std::filesystem::path path, sqlite3* db)
    : m_path(std::move(path)), m_db(db)
{}

ScenarioStore::ScenarioStore(ScenarioStore&&) noexcept = default;
ScenarioStore& ScenarioStore::operator=(ScenarioStore&&) noexcept = default;
ScenarioStore::~ScenarioStore() = default;

std::filesystem::path ScenarioStore::defaultPath()
{
    if (const char* store = std::getenv("DCT_STORE"); store && *store)
        return store;
    std::filesystem::path base;
    if (const char* xdg = std::getenv("XDG_DATA_HOME"); xdg && *xdg)
        base = xdg;
    else if (const char* home = std::getenv("HOME"); home && *home)
        base = std::filesystem::path(home) / ".local" / "share";
    else
        base = std::filesystem::temp_directory_path();
    return base / "dctwin" / "scenarios.sqlite";
}

Result<ScenarioStore> ScenarioStore::open(const std::filesystem::path& path,
                                          const StoreOpenOptions& options)
{
    const std::string file = path.string();
    const int target = options.schemaVersion > 0 ? options.schemaVersion : currentSchemaVersion;
    std::error_code ec;
    const bool exists = std::filesystem::exists(path, ec);
    if (exists) {
        if (std::filesystem::is_directory(path, ec))
            return makeError(file, "", "the store path is a folder",
                             "a path to a DC Twin store file");
        // A non-empty file that is not SQLite is refused before SQLite ever touches it.
        if (std::filesystem::file_size(path, ec) > 0) {
            auto header = hasSqliteHeader(path);
            if (!header)
                return tl::unexpected(header.error());
            if (!*header)
                return makeError(file, "",
                                 "not a DC Twin scenario store (not an SQLite database); the "
                                 "file was left untouched",
                                 "a store made by DC Twin, or a path where a new one can be "
                                 "created");
        }
    } else if (path.has_parent_path()) {
        std::filesystem::create_directories(path.parent_path(), ec);
        if (ec)
            return makeError(file, "", "cannot create the store's folder: " + ec.message(),
                             "a writable location (set --store or DCT_STORE)");
    }

    sqlite3* raw = nullptr;
    const int flags =
        SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX | (exists ? 0 : SQLITE_OPEN_CREATE);
    const int status = sqlite3_open_v2(file.c_str(), &raw, flags, nullptr);
    ScenarioStore store(path, raw);
    if (status != SQLITE_OK)
        return makeError(file, "", "cannot open the store: " + sqlMessage(raw),
                         "a readable and writable file (set --store or DCT_STORE)");
    sqlite3* db = raw;
    sqlite3_busy_timeout(db, options.busyTimeoutMs);
    sqlite3_extended_result_codes(db, 1);

    // Identify the file without writing to it: reads only until it is known to be ours.
    auto identify = [&]() -> Result<bool> { // true: ours; false: empty, to be created
        auto appId = pragmaNumber(db, file, "PRAGMA application_id");
        if (!appId)
            return tl::unexpected(appId.error());
        auto tables = tableNames(db, file);
        if (!tables)
            return tl::unexpected(tables.error());
        if (*appId == 0 && tables->empty())
            return false;
        if (*appId != applicationId)
            return makeError(file, "",
                             "not a DC Twin scenario store (an SQLite database of another "
                             "program); the file was left untouched",
                             "a store made by DC Twin, or a path where a new one can be "
                             "created");
        auto version = pragmaNumber(db, file, "PRAGMA user_version");
        if (!version)
            return tl::unexpected(version.error());
        if (*version > target)
            return makeError(file, "",
                             "the store has schema version " + std::to_string(*version) +
                                 ", newer than this program's " + std::to_string(target),
                             "a newer DC Twin, or another store");
        for (const auto& table : requiredTables(static_cast<int>(*version)))
            if (std::find(tables->begin(), tables->end(), table) == tables->end())
                return makeError(file, "",
                                 "damaged DC Twin scenario store: the table '" + table +
                                     "' is missing; the file was left untouched",
                                 "a store made by DC Twin (restore it from a backup)");
        return true;
    };
    auto ours = identify();
    if (!ours)
        return tl::unexpected(ours.error());

    auto version = pragmaNumber(db, file, "PRAGMA user_version");
    if (!version)
        return tl::unexpected(version.error());
    if (!*ours || *version < target) {
        // Create or migrate in one write transaction; another program may have done it while
        // we waited for the lock, so look again inside it.
        if (auto r = exec(db, file, "BEGIN IMMEDIATE"); !r)
            return tl::unexpected(r.error());
        auto body = [&]() -> Result<void> {
            auto again = identify();
            if (!again)
                return tl::unexpected(again.error());
            auto current = pragmaNumber(db, file, "PRAGMA user_version");
            if (!current)
                return tl::unexpected(current.error());
            const bool fresh = !*again;
            for (int v = static_cast<int>(*current) + 1; v <= target; ++v)
                if (auto r = exec(db, file, migrations()[static_cast<std::size_t>(v - 1)]); !r)
                    return r;
            if (fresh) {
                const std::string id = "PRAGMA application_id = " + std::to_string(applicationId);
                if (auto r = exec(db, file, id.c_str()); !r)
                    return r;
                if (auto r = seed(db, file, options.seedDirectory); !r)
                    return r;
            }
            const std::string uv = "PRAGMA user_version = " + std::to_string(target);
            return exec(db, file, uv.c_str());
        };
        auto done = body();
        if (!done) {
            exec(db, file, "ROLLBACK");
            return tl::unexpected(done.error());
        }
        if (auto r = exec(db, file, "COMMIT"); !r) {
            exec(db, file, "ROLLBACK");
            return tl::unexpected(r.error());
        }
    }
    // WAL lets readers and one writer work at once; FULL syncs each commit to disk.
    if (auto r = exec(db, file, "PRAGMA journal_mode = WAL"); !r)
        return tl::unexpected(r.error());
    if (auto r = exec(db, file, "PRAGMA synchronous = FULL; PRAGMA foreign_keys = ON"); !r)
        return tl::unexpected(r.error());
    return store;
}

Error ScenarioStore::sqlError(const std::string& what) const
{
    return Error{m_path.string(), "", what + ": " + sqlMessage(m_db.get()), {}};
}

template <class F> auto ScenarioStore::transaction(F&& body) -> decltype(body())
{
    if (auto r = exec(m_db.get(), m_path.string(), "BEGIN IMMEDIATE"); !r)
        return tl::unexpected(r.error());
    auto result = body();
    if (!result) {
        exec(m_db.get(), m_path.string(), "ROLLBACK");
        return result;
    }
    if (auto r = exec(m_db.get(), m_path.string(), "COMMIT"); !r) {
        exec(m_db.get(), m_path.string(), "ROLLBACK");
        return tl::unexpected(r.error());
    }
    return result;
}

Result<int> ScenarioStore::schemaVersion() const
{
    auto v = pragmaNumber(m_db.get(), m_path.string(), "PRAGMA user_version");
    if (!v)
        return tl::unexpected(v.error());
    return static_cast<int>(*v);
}

Result<std::string> ScenarioStore::integrityCheck() const
{
    Statement s(m_db.get(), "PRAGMA integrity_check");
    std::string text;
    while (s.step())
        text += (text.empty() ? "" : "\n") + s.text(0);
    if (!s.ok())
        return tl::unexpected(sqlError("integrity check failed"));
    return text;
}

Result<std::int64_t> ScenarioStore::scenarioId(const std::string& name) const
{
    Statement s(m_db.get(), "SELECT id FROM scenarios WHERE name = ?1");
    if (s.bind(1, name).step())
        return s.integer(0);
    if (!s.ok())
        return tl::unexpected(sqlError("cannot read the store"));
    std::string names;
    Statement all(m_db.get(), "SELECT name FROM scenarios ORDER BY name LIMIT 20");
    while (all.step())
        names += (names.empty() ? "" : ", ") + all.text(0);
    return makeError(m_path.string(), "", "no scenario named '" + name + "' in the store",
                     names.empty() ? "the store is empty; import a scenario first"
                                   : "one of " + names);
}

Result<std::vector<StoredScenario>> ScenarioStore::list(const std::string& tag) const
{
    const char* sql =
        "SELECT s.id, s.name, MAX(v.version), COUNT(v.version), s.created_at, s.updated_at, "
        "       s.notes, (SELECT group_concat(tag, char(10)) FROM "
        "                  (SELECT tag FROM tags WHERE scenario_id = s.id ORDER BY tag)) "
        "FROM scenarios s LEFT JOIN versions v ON v.scenario_id = s.id "
        "WHERE ?1 = '' OR EXISTS (SELECT 1 FROM tags t WHERE t.scenario_id = s.id AND "
        "                         t.tag = ?1) "
        "GROUP BY s.id ORDER BY s.name";
    Statement s(m_db.get(), sql);
    s.bind(1, tag);
    std::vector<StoredScenario> out;
    while (s.step()) {
        StoredScenario item;
        item.id = s.integer(0);
        item.name = s.text(1);
        item.latestVersion = static_cast<int>(s.integer(2));
        item.versionCount = static_cast<int>(s.integer(3));
        item.createdAt = s.text(4);
        item.updatedAt = s.text(5);
        item.notes = s.text(6);
        std::string tags = s.text(7);
        std::size_t start = 0;
        while (start < tags.size()) {
            const std::size_t end = std::min(tags.find('\n', start), tags.size());
            item.tags.push_back(tags.substr(start, end - start));
            start = end + 1;
        }
        out.push_back(std::move(item));
    }
    if (!s.ok())
        return tl::unexpected(sqlError("cannot list the store"));
    return out;
}

Result<StoredScenario> ScenarioStore::find(const std::string& name) const
{
    auto id = scenarioId(name);
    if (!id)
        return tl::unexpected(id.error());
    auto all = list();
    if (!all)
        return tl::unexpected(all.error());
    for (auto& item : *all)
        if (item.id == *id)
            return std::move(item);
    return makeError(m_path.string(), "", "no scenario named '" + name + "' in the store");
}

Result<bool> ScenarioStore::contains(const std::string& name) const
{
    Statement s(m_db.get(), "SELECT 1 FROM scenarios WHERE name = ?1");
    const bool found = s.bind(1, name).step();
    if (!s.ok())
        return tl::unexpected(sqlError("cannot read the store"));
    return found;
}

Result<int> ScenarioStore::save(const std::string& name, const std::string& json,
                                const std::string& comment)
{
    if (name.empty())
        return makeError(m_path.string(), "", "a scenario needs a name", "a non-empty name");
    const auto parsed = model::parseJson(json, m_path.string(), "a scenario document");
    if (!parsed)
        return tl::unexpected(parsed.error().error);
    if (!parsed->is_object())
        return makeError(m_path.string(), "", "scenario '" + name + "' is not a JSON object",
                         "a scenario document");
    return transaction([&]() -> Result<int> {
        const std::string insert = std::string("INSERT OR IGNORE INTO scenarios (name, "
                                               "created_at, updated_at) VALUES (?1, ") +
                                   now + ", " + now + ")";
        Statement a(m_db.get(), insert.c_str());
        a.bind(1, name).step();
        if (!a.ok())
            return tl::unexpected(sqlError("cannot save '" + name + "'"));
        auto id = scenarioId(name);
        if (!id)
            return tl::unexpected(id.error());
        Statement next(m_db.get(),
                       "SELECT COALESCE(MAX(version), 0) + 1 FROM versions WHERE scenario_id = ?1");
        next.bind(1, *id).step();
        const auto version = next.integer(0);
        if (!next.ok())
            return tl::unexpected(sqlError("cannot save '" + name + "'"));
        const std::string insertVersion =
            std::string("INSERT INTO versions (scenario_id, version, json, hash, comment, "
                        "saved_at) VALUES (?1, ?2, ?3, ?4, ?5, ") +
            now + ")";
        Statement b(m_db.get(), insertVersion.c_str());
        b.bind(1, *id)
            .bind(2, version)
            .bind(3, json)
            .bind(4, model::contentHash(json))
            .bind(5, comment)
            .step();
        const std::string touch =
            std::string("UPDATE scenarios SET updated_at = ") + now + " WHERE id = ?1";
        Statement c(m_db.get(), touch.c_str());
        c.bind(1, *id).step();
        if (!b.ok() || !c.ok())
            return tl::unexpected(sqlError("cannot save '" + name + "'"));
        return static_cast<int>(version);
    });
}

Result<ScenarioVersion> ScenarioStore::load(const std::string& name, int version) const
{
    auto id = scenarioId(name);
    if (!id)
        return tl::unexpected(id.error());
    Statement s(m_db.get(), "SELECT version, json, hash, comment, saved_at FROM versions "
                            "WHERE scenario_id = ?1 AND (?2 = 0 OR version = ?2) "
                            "ORDER BY version DESC LIMIT 1");
    if (!s.bind(1, *id).bind(2, static_cast<std::int64_t>(version)).step()) {
        if (!s.ok())
            return tl::unexpected(sqlError("cannot read '" + name + "'"));
        auto latest = find(name);
        return makeError(m_path.string(), "",
                         "scenario '" + name + "' has no version " + std::to_string(version),
                         latest ? "a version from 1 to " + std::to_string(latest->latestVersion)
                                : std::string());
    }
    ScenarioVersion v;
    v.name = name;
    v.version = static_cast<int>(s.integer(0));
    v.json = s.text(1);
    v.hash = s.text(2);
    v.comment = s.text(3);
    v.savedAt = s.text(4);
    if (model::contentHash(v.json) != v.hash)
        return makeError(m_path.string(), "",
                         "version " + std::to_string(v.version) + " of '" + name +
                             "' does not match its hash (the store is damaged)");
    return v;
}

Result<std::vector<ScenarioVersion>> ScenarioStore::history(const std::string& name) const
{
    auto id = scenarioId(name);
    if (!id)
        return tl::unexpected(id.error());
    Statement s(m_db.get(), "SELECT version, json, hash, comment, saved_at FROM versions "
                            "WHERE scenario_id = ?1 ORDER BY version");
    s.bind(1, *id);
    std::vector<ScenarioVersion> out;
    while (s.step()) {
        ScenarioVersion v;
        v.name = name;
        v.version = static_cast<int>(s.integer(0));
        v.json = s.text(1);
        v.hash = s.text(2);
        v.comment = s.text(3);
        v.savedAt = s.text(4);
        out.push_back(std::move(v));
    }
    if (!s.ok())
        return tl::unexpected(sqlError("cannot read the history of '" + name + "'"));
    return out;
}

Result<int> ScenarioStore::restore(const std::string& name, int version)
{
    if (version <= 0)
        return makeError(m_path.string(), "", "invalid version " + std::to_string(version),
                         "a version number from 1");
    auto old = load(name, version);
    if (!old)
        return tl::unexpected(old.error());
    return save(name, old->json, "restored version " + std::to_string(version));
}

Result<void> ScenarioStore::remove(const std::string& name)
{
    return transaction([&]() -> Result<void> {
        auto id = scenarioId(name);
        if (!id)
            return tl::unexpected(id.error());
        Statement s(m_db.get(), "DELETE FROM scenarios WHERE id = ?1");
        s.bind(1, *id).step();
        if (!s.ok())
            return tl::unexpected(sqlError("cannot remove '" + name + "'"));
        return {};
    });
}

Result<void> ScenarioStore::addTag(const std::string& name, const std::string& tag)
{
    if (tag.empty() || tag.find('\n') != std::string::npos)
        return makeError(m_path.string(), "", "invalid tag", "a non-empty single-line tag");
    auto id = scenarioId(name);
    if (!id)
        return tl::unexpected(id.error());
    Statement s(m_db.get(), "INSERT OR IGNORE INTO tags (scenario_id, tag) VALUES (?1, ?2)");
    s.bind(1, *id).bind(2, tag).step();
    if (!s.ok())
        return tl::unexpected(sqlError("cannot tag '" + name + "'"));
    return {};
}

Result<void> ScenarioStore::removeTag(const std::string& name, const std::string& tag)
{
    auto id = scenarioId(name);
    if (!id)
        return tl::unexpected(id.error());
    Statement s(m_db.get(), "DELETE FROM tags WHERE scenario_id = ?1 AND tag = ?2");
    s.bind(1, *id).bind(2, tag).step();
    if (!s.ok())
        return tl::unexpected(sqlError("cannot untag '" + name + "'"));
    return {};
}

Result<void> ScenarioStore::setNotes(const std::string& name, const std::string& notes)
{
    auto id = scenarioId(name);
    if (!id)
        return tl::unexpected(id.error());
    Statement s(m_db.get(), "UPDATE scenarios SET notes = ?2 WHERE id = ?1");
    s.bind(1, *id).bind(2, notes).step();
    if (!s.ok())
        return tl::unexpected(sqlError("cannot set the notes of '" + name + "'"));
    return {};
}

Result<std::optional<std::string>>
ScenarioStore::cachedEvaluation(const std::string& name, int version, const std::string& inputsHash,
                                const std::string& modelVersion) const
{
    auto id = scenarioId(name);
    if (!id)
        return tl::unexpected(id.error());
    Statement s(m_db.get(), "SELECT inputs_hash, model_version, result_json FROM results "
                            "WHERE scenario_id = ?1 AND version = ?2");
    if (!s.bind(1, *id).bind(2, static_cast<std::int64_t>(version)).step()) {
        if (!s.ok())
            return tl::unexpected(sqlError("cannot read cached results"));
        return std::optional<std::string>();
    }
    // Stale when the scenario, the catalog or the program's models changed since.
    if (s.text(0) != inputsHash || s.text(1) != modelVersion)
        return std::optional<std::string>();
    return std::optional<std::string>(s.text(2));
}

Result<void> ScenarioStore::storeEvaluation(const std::string& name, int version,
                                            const std::string& inputsHash,
                                            const std::string& modelVersion,
                                            const std::string& resultJson)
{
    auto id = scenarioId(name);
    if (!id)
        return tl::unexpected(id.error());
    const std::string sql = std::string("INSERT OR REPLACE INTO results (scenario_id, version, "
                                        "inputs_hash, model_version, result_json, evaluated_at) "
                                        "VALUES (?1, ?2, ?3, ?4, ?5, ") +
                            now + ")";
    Statement s(m_db.get(), sql.c_str());
    s.bind(1, *id)
        .bind(2, static_cast<std::int64_t>(version))
        .bind(3, inputsHash)
        .bind(4, modelVersion)
        .bind(5, resultJson)
        .step();
    if (!s.ok())
        return tl::unexpected(sqlError("cannot cache the result of '" + name + "'"));
    return {};
}

std::string ScenarioStore::inputsHash(const std::string& scenarioJson,
                                      const std::string& catalogFingerprint)
{
    return model::contentHash(scenarioJson + '\n' + catalogFingerprint);
}

} // namespace dct::store
