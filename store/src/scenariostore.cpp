// The scenario library in one SQLite file. Durability comes from SQLite's transactions in WAL
// mode (https://www.sqlite.org/wal.html): a save is one transaction, so a program killed at any
// instant leaves either the whole save or none of it. Foreign files are recognised before any
// write: the 16-byte SQLite header (https://www.sqlite.org/fileformat.html, 1.3), then our
// application_id at header offset 68, a schema version we know (user_version, offset 60) and our
// tables. Then PRAGMA integrity_check (https://www.sqlite.org/pragma.html#pragma_integrity_check)
// decides whether the store may be written: a damaged one is only read, and recover() copies
// what is readable into a new store.
#include "dct/store/scenariostore.h"

#include "dct/model/contenthash.h"
#include "dct/model/jsonread.h"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <fstream>
#include <limits>
#include <map>
#include <nlohmann/json.hpp>
#include <random>
#include <set>
#include <sqlite3.h>
#include <unistd.h>

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

/**
 * Schema steps: migrations[v - 1] takes a store from version v - 1 to version v. Each step only
 * adds what is missing (IF NOT EXISTS), so a store whose user_version lags behind tables it
 * already has (checked column by column by checkSchema() first) is completed, not refused.
 */
const std::vector<const char*>& migrations()
{
    static const std::vector<const char*> steps = {
        // 1: scenarios, their versions and tags.
        "CREATE TABLE IF NOT EXISTS scenarios ("
        "  id INTEGER PRIMARY KEY,"
        "  name TEXT NOT NULL UNIQUE,"
        "  notes TEXT NOT NULL DEFAULT '',"
        "  created_at TEXT NOT NULL,"
        "  updated_at TEXT NOT NULL);"
        "CREATE TABLE IF NOT EXISTS versions ("
        "  scenario_id INTEGER NOT NULL REFERENCES scenarios(id) ON DELETE CASCADE,"
        "  version INTEGER NOT NULL,"
        "  json TEXT NOT NULL,"
        "  hash TEXT NOT NULL,"
        "  comment TEXT NOT NULL DEFAULT '',"
        "  saved_at TEXT NOT NULL,"
        "  PRIMARY KEY (scenario_id, version));"
        "CREATE TABLE IF NOT EXISTS tags ("
        "  scenario_id INTEGER NOT NULL REFERENCES scenarios(id) ON DELETE CASCADE,"
        "  tag TEXT NOT NULL,"
        "  PRIMARY KEY (scenario_id, tag));",
        // 2: cached evaluation results beside the versions they were computed from.
        "CREATE TABLE IF NOT EXISTS results ("
        "  scenario_id INTEGER NOT NULL REFERENCES scenarios(id) ON DELETE CASCADE,"
        "  version INTEGER NOT NULL,"
        "  inputs_hash TEXT NOT NULL,"
        "  model_version TEXT NOT NULL,"
        "  result_json TEXT NOT NULL,"
        "  evaluated_at TEXT NOT NULL,"
        "  PRIMARY KEY (scenario_id, version));",
        // 3: calibration profiles of the collectives engine (dctwin-cli calibrate), by name;
        // scenarios name the one they use in /network/calibration_profile.
        "CREATE TABLE IF NOT EXISTS calibration_profiles ("
        "  name TEXT PRIMARY KEY,"
        "  json TEXT NOT NULL,"
        "  saved_at TEXT NOT NULL);",
    };
    return steps;
}

/** A table of the schema: the version that adds it and the columns the program reads. */
struct TableSchema
{
    const char* name;
    int since;
    std::vector<std::string> columns;
};

const std::vector<TableSchema>& schemaTables()
{
    static const std::vector<TableSchema> tables = {
        {"scenarios", 1, {"id", "name", "notes", "created_at", "updated_at"}},
        {"versions", 1, {"scenario_id", "version", "json", "hash", "comment", "saved_at"}},
        {"tags", 1, {"scenario_id", "tag"}},
        {"results",
         2,
         {"scenario_id", "version", "inputs_hash", "model_version", "result_json", "evaluated_at"}},
        {"calibration_profiles", 3, {"name", "json", "saved_at"}},
    };
    return tables;
}

constexpr const char* now = "strftime('%Y-%m-%dT%H:%M:%fZ', 'now')";

std::string sqlMessage(sqlite3* db)
{
    return db ? sqlite3_errmsg(db) : "out of memory";
}

int primaryCode(sqlite3* db)
{
    return db ? (sqlite3_extended_errcode(db) & 0xff) : SQLITE_NOMEM;
}

/** What to do with a store that was found damaged: the command that saves what is readable. */
std::string recoverAdvice(const std::string& file)
{
    return "recover what is readable into a new store with `dctwin-cli store recover " + file +
           " NEW.sqlite`, then use the new file (--store or DCT_STORE)";
}

/** The error for an SQLite failure while identifying \a file, before anything was written. */
Error identifyError(sqlite3* db, const std::string& file)
{
    const int code = primaryCode(db);
    if (code == SQLITE_CORRUPT)
        return Error{file, "",
                     "the DC Twin scenario store is damaged and cannot be read (" + sqlMessage(db) +
                         "); the file was left untouched",
                     recoverAdvice(file)};
    if (code == SQLITE_BUSY || code == SQLITE_LOCKED)
        return Error{file, "",
                     "the store stayed locked by another program (" + sqlMessage(db) +
                         "); the file was left untouched",
                     "close the other program or try again"};
    if (code == SQLITE_NOTADB || code == SQLITE_FORMAT)
        return Error{file, "",
                     "not a DC Twin scenario store (not a readable SQLite database: " +
                         sqlMessage(db) + "); the file was left untouched",
                     "a store made by DC Twin, or a path where a new one can be created"};
    return Error{file, "", "cannot read the store (" + sqlMessage(db) + ")",
                 "a readable DC Twin store (set --store or DCT_STORE)"};
}

Result<std::int64_t> pragmaNumber(sqlite3* db, const std::string& file, const char* sql)
{
    Statement s(db, sql);
    if (!s.step())
        return tl::unexpected(identifyError(db, file));
    return s.integer(0);
}

Result<std::vector<std::string>> tableNames(sqlite3* db, const std::string& file)
{
    Statement s(db, "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name");
    std::vector<std::string> names;
    while (s.step())
        names.push_back(s.text(0));
    if (!s.ok())
        return tl::unexpected(identifyError(db, file));
    return names;
}

/** Returns the column names of \a table. */
Result<std::vector<std::string>> columnNames(sqlite3* db, const std::string& file,
                                             const std::string& table)
{
    Statement s(db, "SELECT name FROM pragma_table_info(?1)");
    s.bind(1, table);
    std::vector<std::string> names;
    while (s.step())
        names.push_back(s.text(0));
    if (!s.ok())
        return tl::unexpected(identifyError(db, file));
    return names;
}

/**
 * Checks the tables of a store at schema \a version: every table of that version is there, and
 * every table of the schema that is there (also one of a later version, left by an interrupted
 * migration or an older program) has the columns this program reads.
 */
Result<void> checkSchema(sqlite3* db, const std::string& file, int version,
                         const std::vector<std::string>& tables)
{
    for (const auto& table : schemaTables()) {
        const bool present = std::find(tables.begin(), tables.end(), table.name) != tables.end();
        if (!present) {
            if (table.since <= version)
                return makeError(file, "",
                                 "damaged DC Twin scenario store: the table '" +
                                     std::string(table.name) + "' of schema version " +
                                     std::to_string(version) +
                                     " is missing; the file was left "
                                     "untouched",
                                 "a store made by DC Twin (restore it from a backup)");
            continue;
        }
        auto columns = columnNames(db, file, table.name);
        if (!columns)
            return tl::unexpected(columns.error());
        for (const auto& column : table.columns)
            if (std::find(columns->begin(), columns->end(), column) == columns->end())
                return makeError(file, "",
                                 "damaged DC Twin scenario store: the table '" +
                                     std::string(table.name) + "' has no column '" + column +
                                     "'; the file was left untouched",
                                 "a store made by DC Twin (restore it from a backup)");
    }
    return {};
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

/** How a store file looked before anything was written to it. */
enum class Identity
{
    Empty, ///< No tables and no application id: a new store is to be made in it.
    Ours,  ///< A DC Twin store of a schema version this program reads.
};

/**
 * Identifies the file open in \a db by reading only: our application id, a schema version from
 * oldestSchemaVersion - 1 to \a target and the tables of that version.
 */
Result<Identity> identify(sqlite3* db, const std::string& file, int target)
{
    auto appId = pragmaNumber(db, file, "PRAGMA application_id");
    if (!appId)
        return tl::unexpected(appId.error());
    auto tables = tableNames(db, file);
    if (!tables)
        return tl::unexpected(tables.error());
    auto version = pragmaNumber(db, file, "PRAGMA user_version");
    if (!version)
        return tl::unexpected(version.error());
    if (*appId == 0 && tables->empty() && *version == 0)
        return Identity::Empty;
    if (*appId != ScenarioStore::applicationId)
        return makeError(file, "",
                         "not a DC Twin scenario store (an SQLite database of another "
                         "program); the file was left untouched",
                         "a store made by DC Twin, or a path where a new one can be "
                         "created");
    // user_version is any 32-bit number in the file: only the versions this program knows
    // (0 for a store whose creation stopped before it was set) are read, never indexed blindly.
    const std::string accepted = "a DC Twin store of schema version " +
                                 std::to_string(ScenarioStore::oldestSchemaVersion) + " to " +
                                 std::to_string(target);
    if (*version > target)
        return makeError(file, "",
                         "the store has schema version " + std::to_string(*version) +
                             ", newer than this program's " + std::to_string(target) +
                             "; the file was left untouched",
                         accepted + " (a newer DC Twin reads this one)");
    if (*version < 0)
        return makeError(file, "",
                         "the store has schema version " + std::to_string(*version) +
                             ", which no DC Twin writes (the file is damaged); the file was left "
                             "untouched",
                         accepted + "; " + recoverAdvice(file));
    if (auto r = checkSchema(db, file, static_cast<int>(*version), *tables); !r)
        return tl::unexpected(r.error());
    return Identity::Ours;
}

/** What the integrity check on open found. */
struct IntegrityCheck
{
    std::string damage; ///< The problems found, "" when none.
    std::string note;   ///< Said when the check could not run to the end.
};

/**
 * Runs PRAGMA integrity_check (at most 10 problems) for at most \a budgetMs milliseconds. It reads
 * every page, so its time grows with the file: 0.43 s for a 144 MB store here (35,000 versions,
 * warm cache), so the default 2 s budget checks stores of several hundred MB whole. A larger store
 * is checked for the budget only; a damaged page later in such a file is found when it is read.
 */
Result<IntegrityCheck> checkIntegrity(sqlite3* db, const std::string& file, int budgetMs)
{
    IntegrityCheck check;
    if (budgetMs <= 0)
        return check;
    struct Budget
    {
        std::chrono::steady_clock::time_point deadline;
        bool expired = false;
    } budget{std::chrono::steady_clock::now() + std::chrono::milliseconds(budgetMs), false};
    sqlite3_progress_handler(
        db, 1000,
        [](void* data) -> int {
            auto* b = static_cast<Budget*>(data);
            b->expired = std::chrono::steady_clock::now() > b->deadline;
            return b->expired ? 1 : 0;
        },
        &budget);
    std::vector<std::string> rows;
    bool failed = false;
    {
        Statement s(db, "PRAGMA integrity_check(10)");
        while (s.step())
            rows.push_back(s.text(0));
        failed = !s.ok();
    }
    sqlite3_progress_handler(db, 0, nullptr, nullptr);
    if (failed && budget.expired) {
        std::error_code ec;
        const auto size = std::filesystem::file_size(file, ec);
        check.note = "the store (" + std::to_string(ec ? 0 : size / (1024 * 1024)) +
                     " MB) was not fully checked for damage in " + std::to_string(budgetMs) +
                     " ms; `sqlite3 " + file + " 'PRAGMA integrity_check'` checks it whole";
        return check;
    }
    if (failed) {
        if (primaryCode(db) == SQLITE_CORRUPT || primaryCode(db) == SQLITE_NOTADB) {
            check.damage = sqlMessage(db);
            return check;
        }
        return tl::unexpected(identifyError(db, file));
    }
    if (rows.size() == 1 && rows.front() == "ok")
        return check;
    for (const auto& row : rows)
        check.damage += (check.damage.empty() ? "" : "; ") + row;
    if (check.damage.empty())
        check.damage = "the integrity check returned nothing";
    return check;
}

/** Applies the schema steps from \a from + 1 to \a target and, for a new store, seeds it. */
Result<void> initialise(sqlite3* db, const std::string& file, int from, int target, bool fresh,
                        const std::filesystem::path& seedDirectory)
{
    for (int v = std::max(from, 0) + 1; v <= target; ++v)
        if (auto r = exec(db, file, migrations()[static_cast<std::size_t>(v - 1)]); !r)
            return r;
    if (fresh) {
        const std::string id =
            "PRAGMA application_id = " + std::to_string(ScenarioStore::applicationId);
        if (auto r = exec(db, file, id.c_str()); !r)
            return r;
        if (auto r = seed(db, file, seedDirectory); !r)
            return r;
    }
    const std::string uv = "PRAGMA user_version = " + std::to_string(target);
    return exec(db, file, uv.c_str());
}

/** Runs \a body in a write transaction (waiting for the lock) of \a db. */
template <class F> Result<void> writeTransaction(sqlite3* db, const std::string& file, F&& body)
{
    if (auto r = exec(db, file, "BEGIN IMMEDIATE"); !r)
        return r;
    auto done = body();
    if (!done) {
        exec(db, file, "ROLLBACK");
        return done;
    }
    if (auto r = exec(db, file, "COMMIT"); !r) {
        exec(db, file, "ROLLBACK");
        return r;
    }
    return {};
}

/** Removes an SQLite file with the journal files SQLite may leave beside it. */
void removeDatabaseFiles(const std::filesystem::path& path)
{
    std::error_code ec;
    for (const char* suffix : {"", "-wal", "-shm", "-journal"})
        std::filesystem::remove(path.string() + suffix, ec);
}

/**
 * Makes a complete new store in a temporary file beside \a path and links it to \a path. link()
 * fails when \a path exists, so of programs creating the same store at once one wins and the
 * others open its store; no program ever sees a half-made file. Returns false when the file
 * system has no hard links (the caller then creates the store in place).
 */
Result<bool> createAtomically(const std::filesystem::path& path, int target,
                              const StoreOpenOptions& options)
{
    const std::string file = path.string();
    std::random_device entropy;
    const std::filesystem::path temporary =
        path.parent_path() / ("." + path.filename().string() + ".new-" +
                              std::to_string(::getpid()) + "-" + std::to_string(entropy()));
    sqlite3* raw = nullptr;
    const int status =
        sqlite3_open_v2(temporary.c_str(), &raw,
                        SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, nullptr);
    std::unique_ptr<sqlite3, int (*)(sqlite3*)> db(raw, sqlite3_close_v2);
    auto fail = [&](const std::string& what) -> Result<bool> {
        const std::string message = what + ": " + sqlMessage(db.get());
        db.reset();
        removeDatabaseFiles(temporary);
        return makeError(file, "", "cannot create the store (" + message + ")",
                         "a writable folder (set --store or DCT_STORE)");
    };
    if (status != SQLITE_OK)
        return fail("cannot create " + temporary.string());
    // The file is private until linked, so the journal mode can be set before any table: the
    // linked file is in WAL mode from its first byte.
    if (!exec(db.get(), file, "PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL"))
        return fail("cannot set up " + temporary.string());
    auto made = writeTransaction(db.get(), file, [&] {
        return initialise(db.get(), file, 0, target, true, options.seedDirectory);
    });
    if (!made) {
        db.reset();
        removeDatabaseFiles(temporary);
        return tl::unexpected(made.error());
    }
    // Closing checkpoints the WAL into the file and removes it: the file is then complete.
    if (sqlite3_close(db.get()) != SQLITE_OK)
        return fail("cannot close " + temporary.string());
    db.release();
    const int linked = ::link(temporary.c_str(), path.c_str());
    const int linkError = errno;
    removeDatabaseFiles(temporary);
    if (linked == 0) {
        // The new name survives a power cut once its folder is on disk too.
        const std::string folder = path.has_parent_path() ? path.parent_path().string() : ".";
        if (const int fd = ::open(folder.c_str(), O_RDONLY | O_DIRECTORY); fd >= 0) {
            ::fsync(fd);
            ::close(fd);
        }
        return true;
    }
    if (linkError == EEXIST)
        return true; // Another program made it at the same time: it is complete too.
    if (linkError == EPERM || linkError == ENOTSUP || linkError == EOPNOTSUPP ||
        linkError == ENOSYS || linkError == EXDEV)
        return false;
    return makeError(file, "", std::string("cannot create the store: ") + std::strerror(linkError),
                     "a writable folder (set --store or DCT_STORE)");
}

/** What salvage() read of a table and what it could not. */
struct SalvageScan
{
    std::int64_t rows = 0;
    std::vector<std::string> problems;
};

/**
 * Calls \a row for every readable row of \a select ("SELECT rowid, ... FROM t NOT INDEXED": the
 * table's own b-tree, no index that may be damaged) in rowid order. A read error stops a scan at
 * a damaged page; the scan then resumes past rowids further and further on (1, 2, 4, ... after
 * the last row read), and the rowids skipped are read one by one, so that only the rows on the
 * damaged pages are lost. Each loss is described in the problems.
 */
template <class F>
SalvageScan salvage(sqlite3* db, const std::string& table, const std::string& select, F&& row)
{
    using Limits = std::numeric_limits<std::int64_t>;
    constexpr std::int64_t probeLimit = 4096; // rowids read one by one after a damaged page
    SalvageScan scan;
    const std::string range = select + " WHERE rowid > ?1 ORDER BY rowid";
    const std::string single = select + " WHERE rowid = ?1";
    // Reads rowids from + 1 to to - 1 one at a time: those on a damaged page fail alone.
    auto probe = [&](std::int64_t from, std::int64_t to, const std::string& error) {
        const bool bounded = to - from <= probeLimit + 1;
        const std::int64_t end = bounded ? to : from + probeLimit + 1;
        std::int64_t lost = 0;
        for (std::int64_t id = from + 1; id < end; ++id) {
            Statement s(db, single.c_str());
            s.bind(1, id);
            if (s.step()) {
                row(s);
                ++scan.rows;
            } else if (!s.ok()) {
                ++lost;
            }
        }
        if (!bounded)
            scan.problems.push_back(table + ": the rows after rowid " + std::to_string(from) +
                                    " could not all be read (" + error + ")");
        else if (lost > 0)
            scan.problems.push_back(table + ": " + std::to_string(lost) +
                                    (lost == 1 ? " row" : " rows") + " between rowid " +
                                    std::to_string(from) + " and " + std::to_string(to) +
                                    " could not be read (" + error + ")");
    };
    std::int64_t after = Limits::min();
    std::string error; // the read error being skipped past, "" while reading normally
    std::int64_t errorAfter = 0;
    std::int64_t skip = 1;
    for (int attempt = 0; attempt < 128; ++attempt) {
        Statement s(db, range.c_str());
        s.bind(1, after);
        while (s.step()) {
            const std::int64_t rowid = s.integer(0);
            if (!error.empty()) {
                probe(errorAfter, rowid, error);
                error.clear();
            }
            row(s);
            ++scan.rows;
            after = rowid;
        }
        if (s.ok()) {
            // Nothing follows the rowid the last jump reached: read the rowids jumped over.
            if (!error.empty())
                probe(errorAfter, after < Limits::max() ? after + 1 : after, error);
            return scan;
        }
        if (error.empty()) {
            error = sqlMessage(db);
            errorAfter = after == Limits::min() ? 0 : after;
            skip = 1;
        } else if (skip > Limits::max() / 4) {
            break;
        } else {
            skip *= 2;
        }
        if (errorAfter > Limits::max() - skip)
            break;
        after = errorAfter + skip;
    }
    scan.problems.push_back(table + ": the rows after rowid " + std::to_string(errorAfter) +
                            " could not be read (" + (error.empty() ? "unknown error" : error) +
                            ")");
    return scan;
}

/** Returns true when \a text is valid UTF-8 without control characters. */
bool printableName(const std::string& text)
{
    std::size_t i = 0;
    while (i < text.size()) {
        const auto c = static_cast<unsigned char>(text[i]);
        std::size_t length = 0;
        if (c < 0x20 || c == 0x7f)
            return false;
        if (c < 0x80)
            length = 1;
        else if ((c & 0xe0) == 0xc0 && c >= 0xc2)
            length = 2;
        else if ((c & 0xf0) == 0xe0)
            length = 3;
        else if ((c & 0xf8) == 0xf0 && c <= 0xf4)
            length = 4;
        else
            return false;
        if (i + length > text.size())
            return false;
        for (std::size_t k = 1; k < length; ++k)
            if ((static_cast<unsigned char>(text[i + k]) & 0xc0) != 0x80)
                return false;
        i += length;
    }
    return !text.empty();
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
    bool exists = std::filesystem::exists(path, ec);
    if (!exists) {
        if (path.has_parent_path()) {
            std::filesystem::create_directories(path.parent_path(), ec);
            if (ec)
                return makeError(file, "", "cannot create the store's folder: " + ec.message(),
                                 "a writable location (set --store or DCT_STORE)");
        }
        auto created = createAtomically(path, target, options);
        if (!created)
            return tl::unexpected(created.error());
        exists = *created; // false: no hard links here, so the store is made in place below
    }
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
    }
    // Closing the last connection copies the WAL into the file (a checkpoint). A WAL with
    // content is only copied once the store is known to be sound and ours.
    const bool walHasContent = std::filesystem::file_size(file + "-wal", ec) > 0 && !ec;

    sqlite3* raw = nullptr;
    const int flags =
        SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX | (exists ? 0 : SQLITE_OPEN_CREATE);
    const int status = sqlite3_open_v2(file.c_str(), &raw, flags, nullptr);
    ScenarioStore store(path, raw);
    if (status != SQLITE_OK)
        return makeError(file, "", "cannot open the store: " + sqlMessage(raw),
                         "a readable and writable file (set --store or DCT_STORE)");
    sqlite3* db = raw;
    // Before the first statement, so that every read below waits for a writer too.
    sqlite3_busy_timeout(db, options.busyTimeoutMs);
    sqlite3_extended_result_codes(db, 1);
    if (walHasContent)
        sqlite3_db_config(db, SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, 1, nullptr);
    // Reads only until the file is known to be ours, of a known schema and sound.
    if (auto r = exec(db, file, "PRAGMA query_only = ON"); !r)
        return tl::unexpected(r.error());
    auto identity = identify(db, file, target);
    if (!identity)
        return tl::unexpected(identity.error());
    if (*identity == Identity::Ours) {
        auto check = checkIntegrity(db, file, options.integrityCheckBudgetMs);
        if (!check)
            return tl::unexpected(check.error());
        store.m_checkNote = check->note;
        if (!check->damage.empty()) {
            // Read-only from here: query_only stays on and every write method refuses.
            store.m_damage = check->damage;
            return store;
        }
    }
    if (auto r = exec(db, file, "PRAGMA query_only = OFF"); !r)
        return tl::unexpected(r.error());

    auto version = pragmaNumber(db, file, "PRAGMA user_version");
    if (!version)
        return tl::unexpected(version.error());
    if (*identity == Identity::Empty || *version < target) {
        // Create or migrate in one write transaction; another program may have done it while
        // we waited for the lock, so look again inside it.
        auto done = writeTransaction(db, file, [&]() -> Result<void> {
            auto again = identify(db, file, target);
            if (!again)
                return tl::unexpected(again.error());
            auto current = pragmaNumber(db, file, "PRAGMA user_version");
            if (!current)
                return tl::unexpected(current.error());
            return initialise(db, file, static_cast<int>(*current), target,
                              *again == Identity::Empty, options.seedDirectory);
        });
        if (!done)
            return tl::unexpected(done.error());
    }
    // WAL lets readers and one writer work at once; FULL syncs each commit to disk.
    if (auto r = exec(db, file, "PRAGMA journal_mode = WAL"); !r)
        return tl::unexpected(r.error());
    if (auto r = exec(db, file, "PRAGMA synchronous = FULL; PRAGMA foreign_keys = ON"); !r)
        return tl::unexpected(r.error());
    sqlite3_db_config(db, SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, 0, nullptr);
    return store;
}

Result<RecoveryReport> ScenarioStore::recover(const std::filesystem::path& damaged,
                                              const std::filesystem::path& target,
                                              const StoreOpenOptions& options)
{
    const std::string file = damaged.string();
    std::error_code ec;
    if (!std::filesystem::is_regular_file(damaged, ec))
        return makeError(file, "", "no store file to recover here",
                         "the path of an existing DC Twin store");
    if (std::filesystem::exists(target, ec) || std::filesystem::is_symlink(target, ec))
        return makeError(target.string(), "",
                         "the file exists; recover writes a new store and never replaces a file",
                         "a path where no file exists yet");
    auto header = hasSqliteHeader(damaged);
    if (!header)
        return tl::unexpected(header.error());
    if (!*header)
        return makeError(file, "",
                         "not a DC Twin scenario store (not an SQLite database); nothing to "
                         "recover",
                         "a store made by DC Twin");

    // The damaged file is only read: no checkpoint on close, no write by any statement.
    const bool walHasContent = std::filesystem::file_size(file + "-wal", ec) > 0 && !ec;
    sqlite3* raw = nullptr;
    const int status =
        sqlite3_open_v2(file.c_str(), &raw, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX, nullptr);
    std::unique_ptr<sqlite3, int (*)(sqlite3*)> source(raw, sqlite3_close_v2);
    if (status != SQLITE_OK)
        return makeError(file, "", "cannot open the store: " + sqlMessage(raw),
                         "a readable DC Twin store");
    sqlite3* db = source.get();
    sqlite3_busy_timeout(db, options.busyTimeoutMs);
    sqlite3_extended_result_codes(db, 1);
    if (walHasContent)
        sqlite3_db_config(db, SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, 1, nullptr);
    if (auto r = exec(db, file, "PRAGMA query_only = ON"); !r)
        return tl::unexpected(r.error());
    auto tables = tableNames(db, file);
    if (!tables)
        return makeError(file, "",
                         "the store's list of tables cannot be read (" + sqlMessage(db) +
                             "); nothing can be recovered from it",
                         "a backup of the store");
    auto has = [&](const char* table) {
        return std::find(tables->begin(), tables->end(), table) != tables->end();
    };
    // The application id sits in the first page; a store whose header is damaged is still
    // recognised by its tables.
    auto appId = pragmaNumber(db, file, "PRAGMA application_id");
    if ((!appId || *appId != applicationId) && !(has("scenarios") && has("versions")))
        return makeError(file, "", "not a DC Twin scenario store; nothing to recover",
                         "a store made by DC Twin");
    if (!has("versions"))
        return makeError(file, "",
                         "the table of scenario versions cannot be found; nothing to recover",
                         "a DC Twin store whose schema is readable");

    RecoveryReport report;
    struct Scenario
    {
        std::string name;
        std::string notes;
        std::string createdAt;
        std::string updatedAt;
    };
    struct Version
    {
        std::int64_t number = 0;
        std::string json;
        std::string hash;
        std::string comment;
        std::string savedAt;
    };
    std::map<std::int64_t, Scenario> scenarios;
    std::map<std::int64_t, std::vector<Version>> versions;
    std::map<std::int64_t, std::vector<std::string>> tags;
    auto keep = [&report](SalvageScan scan) {
        for (auto& p : scan.problems)
            report.problems.push_back(std::move(p));
    };
    if (has("scenarios"))
        keep(salvage(db, "scenarios",
                     "SELECT rowid, name, notes, created_at, updated_at FROM scenarios NOT INDEXED",
                     [&](const Statement& s) {
                         scenarios[s.integer(0)] = {s.text(1), s.text(2), s.text(3), s.text(4)};
                     }));
    else
        report.problems.push_back("the table of scenario names is missing: every scenario is "
                                  "named after its number");
    keep(salvage(db, "versions",
                 "SELECT rowid, scenario_id, version, json, hash, comment, saved_at FROM versions "
                 "NOT INDEXED",
                 [&](const Statement& s) {
                     versions[s.integer(1)].push_back(
                         {s.integer(2), s.text(3), s.text(4), s.text(5), s.text(6)});
                 }));
    if (has("tags"))
        keep(salvage(db, "tags", "SELECT rowid, scenario_id, tag FROM tags NOT INDEXED",
                     [&](const Statement& s) { tags[s.integer(1)].push_back(s.text(2)); }));

    // The new store: empty, made atomically like any new store.
    StoreOpenOptions fresh;
    fresh.busyTimeoutMs = options.busyTimeoutMs;
    auto opened = open(target, fresh);
    if (!opened)
        return tl::unexpected(opened.error());
    auto existing = opened->list();
    if (!existing || !existing->empty())
        return makeError(target.string(), "",
                         "another program made a store at this path meanwhile; nothing written",
                         "a path where no file exists yet");
    sqlite3* out = opened->m_db.get();
    const std::string outFile = target.string();
    std::set<std::string> names;
    auto written = writeTransaction(out, outFile, [&]() -> Result<void> {
        for (auto& [id, list] : versions) {
            const auto found = scenarios.find(id);
            std::string name = found != scenarios.end() ? found->second.name : std::string();
            const std::string label = "scenario " + std::to_string(id);
            if (found == scenarios.end()) {
                name = "recovered-" + std::to_string(id);
                report.problems.push_back(label + ": its name could not be read; recovered as '" +
                                          name + "'");
            } else if (!printableName(name)) {
                name = "recovered-" + std::to_string(id);
                report.problems.push_back(label +
                                          ": its name is damaged (not readable text); "
                                          "recovered as '" +
                                          name + "'");
            }
            if (names.count(name)) {
                std::string renamed = name + "-recovered-" + std::to_string(id);
                for (int k = 2; names.count(renamed); ++k)
                    renamed = name + "-recovered-" + std::to_string(id) + "-" + std::to_string(k);
                report.problems.push_back(label + ": a second scenario named '" + name +
                                          "'; recovered as '" + renamed + "'");
                name = renamed;
            }
            std::sort(list.begin(), list.end(),
                      [](const Version& a, const Version& b) { return a.number < b.number; });
            std::vector<const Version*> good;
            for (const auto& v : list) {
                const std::string which =
                    "'" + name + "' version " + std::to_string(v.number) + ": ";
                if (!good.empty() && good.back()->number == v.number) {
                    report.problems.push_back(which + "saved twice; the first copy was kept");
                    continue;
                }
                const auto json = nlohmann::json::parse(v.json, nullptr, false);
                if (model::contentHash(v.json) != v.hash || json.is_discarded() ||
                    !json.is_object() || v.number <= 0)
                    report.problems.push_back(which + "damaged (its text does not match its "
                                                      "hash); not recovered");
                else
                    good.push_back(&v);
            }
            if (good.empty()) {
                report.problems.push_back(label + " ('" + name +
                                          "'): no readable version; not recovered");
                continue;
            }
            names.insert(name);
            const Scenario info = found != scenarios.end() ? found->second : Scenario{};
            const std::string insert =
                std::string("INSERT INTO scenarios (name, notes, created_at, updated_at) VALUES "
                            "(?1, ?2, COALESCE(NULLIF(?3, ''), ") +
                now + "), COALESCE(NULLIF(?4, ''), " + now + "))";
            Statement a(out, insert.c_str());
            a.bind(1, name)
                .bind(2, info.notes)
                .bind(3, info.createdAt)
                .bind(4, info.updatedAt)
                .step();
            if (!a.ok())
                return makeError(outFile, "", "cannot write the new store: " + sqlMessage(out));
            const std::int64_t newId = sqlite3_last_insert_rowid(out);
            ++report.scenarios;
            if (!info.notes.empty())
                ++report.notes;
            for (const Version* v : good) {
                const std::string insertVersion =
                    std::string("INSERT INTO versions (scenario_id, version, json, hash, comment, "
                                "saved_at) VALUES (?1, ?2, ?3, ?4, ?5, COALESCE(NULLIF(?6, ''), ") +
                    now + "))";
                Statement b(out, insertVersion.c_str());
                b.bind(1, newId)
                    .bind(2, v->number)
                    .bind(3, v->json)
                    .bind(4, v->hash)
                    .bind(5, v->comment)
                    .bind(6, v->savedAt)
                    .step();
                if (!b.ok())
                    return makeError(outFile, "", "cannot write the new store: " + sqlMessage(out));
                ++report.versions;
            }
            for (const auto& tag : tags[id]) {
                if (tag.empty() || tag.find('\n') != std::string::npos || !printableName(tag)) {
                    report.problems.push_back("'" + name + "': a damaged tag was left out");
                    continue;
                }
                Statement c(out, "INSERT OR IGNORE INTO tags (scenario_id, tag) VALUES (?1, ?2)");
                c.bind(1, newId).bind(2, tag).step();
                if (!c.ok())
                    return makeError(outFile, "", "cannot write the new store: " + sqlMessage(out));
                report.tags += sqlite3_changes(out) > 0 ? 1 : 0;
            }
        }
        for (const auto& [id, scenario] : scenarios)
            if (!versions.count(id))
                report.problems.push_back(
                    "scenario " + std::to_string(id) + " ('" +
                    (printableName(scenario.name) ? scenario.name : std::string("?")) +
                    "'): no readable version; not recovered");
        return {};
    });
    if (!written) {
        opened = makeError("", "", ""); // close the new store before removing it
        removeDatabaseFiles(target);
        return tl::unexpected(written.error());
    }
    return report;
}

Error ScenarioStore::sqlError(const std::string& what) const
{
    return Error{m_path.string(), "", what + ": " + sqlMessage(m_db.get()), {}};
}

Result<void> ScenarioStore::writable(const std::string& what) const
{
    if (m_damage.empty())
        return {};
    return makeError(m_path.string(), "",
                     "the store is damaged (integrity check: " + m_damage +
                         "), so it was opened read-only: " + what +
                         " was refused and nothing was written",
                     recoverAdvice(m_path.string()));
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
    // A damaged store's index on the names may have lost rows its table still has ("row 4
    // missing from index"): read the table itself, as its list does.
    Statement s(m_db.get(), m_damage.empty()
                                ? "SELECT id FROM scenarios WHERE name = ?1"
                                : "SELECT id FROM scenarios NOT INDEXED WHERE name = ?1");
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
    if (auto w = writable("saving '" + name + "'"); !w)
        return tl::unexpected(w.error());
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
    if (auto w = writable("restoring '" + name + "'"); !w)
        return tl::unexpected(w.error());
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
    if (auto w = writable("removing '" + name + "'"); !w)
        return w;
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
    if (auto w = writable("tagging '" + name + "'"); !w)
        return w;
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
    if (auto w = writable("untagging '" + name + "'"); !w)
        return w;
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
    if (auto w = writable("setting the notes of '" + name + "'"); !w)
        return w;
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
    if (auto w = writable("caching the result of '" + name + "'"); !w)
        return w;
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

Result<void> ScenarioStore::saveCalibrationProfile(const std::string& name, const std::string& json)
{
    if (auto w = writable("saving the calibration profile '" + name + "'"); !w)
        return w;
    if (name.empty())
        return makeError(m_path.string(), "", "a calibration profile needs a name",
                         "a non-empty name (--name)");
    const std::string sql = std::string("INSERT INTO calibration_profiles (name, json, saved_at) "
                                        "VALUES (?1, ?2, ") +
                            now +
                            ") ON CONFLICT(name) DO UPDATE SET json = excluded.json, "
                            "saved_at = excluded.saved_at";
    Statement s(m_db.get(), sql.c_str());
    s.bind(1, name).bind(2, json).step();
    if (!s.ok())
        return tl::unexpected(sqlError("cannot save the calibration profile '" + name + "'"));
    return {};
}

Result<StoredCalibrationProfile>
ScenarioStore::loadCalibrationProfile(const std::string& name) const
{
    Statement s(m_db.get(),
                "SELECT name, json, saved_at FROM calibration_profiles WHERE name = ?1");
    if (!s.bind(1, name).step()) {
        if (!s.ok())
            return tl::unexpected(sqlError("cannot read the calibration profile '" + name + "'"));
        auto all = calibrationProfiles();
        std::string names;
        if (all)
            for (const auto& p : *all)
                names += (names.empty() ? "" : ", ") + p.name;
        return makeError(m_path.string(), "",
                         "no calibration profile named '" + name + "' in the store",
                         names.empty() ? "a profile stored by `dctwin-cli calibrate nccl-tests "
                                         "--name NAME` (the store has none)"
                                       : "one of " + names);
    }
    return StoredCalibrationProfile{s.text(0), s.text(1), s.text(2)};
}

Result<std::vector<StoredCalibrationProfile>> ScenarioStore::calibrationProfiles() const
{
    Statement s(m_db.get(), "SELECT name, json, saved_at FROM calibration_profiles ORDER BY name");
    std::vector<StoredCalibrationProfile> out;
    while (s.step())
        out.push_back(StoredCalibrationProfile{s.text(0), s.text(1), s.text(2)});
    if (!s.ok())
        return tl::unexpected(sqlError("cannot list the calibration profiles"));
    return out;
}

} // namespace dct::store
