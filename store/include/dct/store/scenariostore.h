#pragma once

#include "dct/model/error.h"
#include "dct/store/storedscenario.h"

#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

struct sqlite3;

namespace dct::store {

/** How to open a scenario store. */
struct StoreOpenOptions
{
    /** Example scenarios (*.json) imported when the store is created; empty for none. */
    std::filesystem::path seedDirectory;
    /** Schema version to create or migrate to; tests use older ones to exercise migrations. */
    int schemaVersion = 0; ///< 0 means the current one.
    /** Milliseconds to wait for another program holding the write lock. */
    int busyTimeoutMs = 10000;
    /**
     * Milliseconds the integrity check on open may take. A store too large to be checked in that
     * time is opened with checkNote() saying so; 0 skips the check.
     */
    int integrityCheckBudgetMs = 2000;
};

/** A calibration profile of the collectives engine as stored: name, JSON, when it was saved. */
struct StoredCalibrationProfile
{
    std::string name;
    std::string json; ///< model::calibrationProfileJson() text.
    std::string savedAt;
};

/** What ScenarioStore::recover() copied into the new store and what it could not read. */
struct RecoveryReport
{
    int scenarios = 0; ///< Scenarios written to the new store.
    int versions = 0;  ///< Versions written (each with its number, comment and time).
    int tags = 0;      ///< Tags written.
    int notes = 0;     ///< Scenarios whose notes were written.
    /** One line per thing that could not be read or was renamed, empty when nothing was lost. */
    std::vector<std::string> problems;
};

/**
 * The scenario library: one SQLite file holding scenarios with every saved version, tags, notes
 * and cached evaluation results. Writes are transactions in WAL mode, so the desktop program and
 * the CLI can use one file at once and a killed program leaves every committed save intact. A file
 * that is not a DC Twin store (not SQLite, or SQLite without our application id and tables, or of
 * a schema version this program does not know) is refused with an error and never written to.
 * Every open runs PRAGMA integrity_check (bounded in time): a damaged store is opened read-only,
 * every write is refused with a message saying how to recover, and recover() copies what is
 * readable into a new store.
 */
class ScenarioStore
{
public:
    /** SQLite application_id of DC Twin stores ("DCTW"). */
    static constexpr int applicationId = 0x44435457;
    /** Schema version (PRAGMA user_version) this program creates and reads. */
    static constexpr int currentSchemaVersion = 3;

    ScenarioStore(ScenarioStore&&) noexcept;
    ScenarioStore& operator=(ScenarioStore&&) noexcept;
    ~ScenarioStore();

    /** Oldest schema version this program reads (and migrates). */
    static constexpr int oldestSchemaVersion = 1;

    /**
     * Opens the store at \a path, creating it (and its folder) and importing the examples of
     * \a options.seedDirectory when it does not exist, migrating an older schema. A new store is
     * made complete in a temporary file of the same folder and then linked to \a path, so that
     * programs opening the same new path at once all see either no file or a complete store.
     */
    static Result<ScenarioStore> open(const std::filesystem::path& path,
                                      const StoreOpenOptions& options = {});
    /**
     * Copies every readable scenario version (with its number, comment and time), tag and note
     * of the store \a damaged into a new store at \a target, which must not exist. Reads
     * \a damaged without writing to it, even when open() refuses it as damaged. Cached results
     * are not copied. Fails when \a damaged is not a DC Twin store or nothing of it is readable.
     */
    static Result<RecoveryReport> recover(const std::filesystem::path& damaged,
                                          const std::filesystem::path& target,
                                          const StoreOpenOptions& options = {});
    /** Returns $DCT_STORE, else $XDG_DATA_HOME/dctwin/scenarios.sqlite, else
     *  ~/.local/share/dctwin/scenarios.sqlite. */
    static std::filesystem::path defaultPath();

    /** Returns the file of the store. */
    const std::filesystem::path& path() const { return m_path; }
    /** Returns the schema version of the open file. */
    Result<int> schemaVersion() const;
    /** Returns the result of PRAGMA integrity_check ("ok" when the file is sound). */
    Result<std::string> integrityCheck() const;
    /** Returns true when the store was found damaged on open: every write is then refused. */
    bool readOnly() const { return !m_damage.empty(); }
    /** Returns what the integrity check on open found wrong, "" when the store is sound. */
    const std::string& damage() const { return m_damage; }
    /**
     * Returns a note for the user when the store could not be checked fully on open (too large
     * for StoreOpenOptions::integrityCheckBudgetMs), else "".
     */
    const std::string& checkNote() const { return m_checkNote; }

    /** Returns every scenario, by name; only those tagged \a tag when it is not empty. */
    Result<std::vector<StoredScenario>> list(const std::string& tag = {}) const;
    /** Returns the scenario named \a name. */
    Result<StoredScenario> find(const std::string& name) const;
    /** Returns true when a scenario named \a name exists. */
    Result<bool> contains(const std::string& name) const;

    /**
     * Saves \a json as the next version of scenario \a name (creating it when new) and returns
     * the version number. \a json must be a JSON object.
     */
    Result<int> save(const std::string& name, const std::string& json,
                     const std::string& comment = {});
    /** Returns version \a version of \a name, or the latest when \a version is 0. */
    Result<ScenarioVersion> load(const std::string& name, int version = 0) const;
    /** Returns every version of \a name, oldest first. */
    Result<std::vector<ScenarioVersion>> history(const std::string& name) const;
    /** Saves version \a version of \a name again as a new version; returns its number. */
    Result<int> restore(const std::string& name, int version);
    /** Removes \a name with its history, tags and cached results. */
    Result<void> remove(const std::string& name);

    /** Adds \a tag to \a name (no effect when it has it). */
    Result<void> addTag(const std::string& name, const std::string& tag);
    /** Removes \a tag from \a name. */
    Result<void> removeTag(const std::string& name, const std::string& tag);
    /** Replaces the notes of \a name. */
    Result<void> setNotes(const std::string& name, const std::string& notes);

    /**
     * Returns the cached evaluation (JSON) of version \a version of \a name when it was made from
     * the same inputs (\a inputsHash: scenario and catalog) by the same \a modelVersion of the
     * program; nothing when there is none or it is stale.
     */
    Result<std::optional<std::string>> cachedEvaluation(const std::string& name, int version,
                                                        const std::string& inputsHash,
                                                        const std::string& modelVersion) const;
    /** Stores the evaluation \a resultJson of version \a version of \a name, replacing any. */
    Result<void> storeEvaluation(const std::string& name, int version,
                                 const std::string& inputsHash, const std::string& modelVersion,
                                 const std::string& resultJson);
    /** Saves the calibration profile \a json as \a name, replacing one of that name. */
    Result<void> saveCalibrationProfile(const std::string& name, const std::string& json);
    /** Returns the calibration profile \a name; the error lists the profiles there are. */
    Result<StoredCalibrationProfile> loadCalibrationProfile(const std::string& name) const;
    /** Returns every calibration profile, by name. */
    Result<std::vector<StoredCalibrationProfile>> calibrationProfiles() const;

    /** Returns the inputs hash of a scenario document and a catalogFingerprint(). */
    static std::string inputsHash(const std::string& scenarioJson,
                                  const std::string& catalogFingerprint);

private:
    struct Closer
    {
        void operator()(sqlite3* db) const;
    };

    ScenarioStore(std::filesystem::path path, sqlite3* db);

    Result<std::int64_t> scenarioId(const std::string& name) const;
    /** Returns an error when the store is read-only (damaged), saying how to recover. */
    Result<void> writable(const std::string& what) const;
    Error sqlError(const std::string& what) const;
    template <class F> auto transaction(F&& body) -> decltype(body());

    std::filesystem::path m_path;
    std::unique_ptr<sqlite3, Closer> m_db;
    std::string m_damage;
    std::string m_checkNote;
};

} // namespace dct::store
