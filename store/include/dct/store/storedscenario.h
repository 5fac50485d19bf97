#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace dct::store {

/** One scenario of the store as listed: its name, latest version, tags and notes. */
struct StoredScenario
{
    std::int64_t id = 0;
    std::string name;      ///< Unique key of the scenario in the store.
    int latestVersion = 0; ///< Highest version number saved.
    int versionCount = 0;  ///< Number of versions kept.
    std::string createdAt; ///< UTC, ISO 8601.
    std::string updatedAt; ///< UTC, ISO 8601: time of the latest version.
    std::vector<std::string> tags;
    std::string notes;
};

/** One saved version of a scenario: the JSON document exactly as saved. */
struct ScenarioVersion
{
    std::string name;    ///< The scenario's name.
    int version = 0;     ///< 1 for the first save, then one more per save.
    std::string json;    ///< The scenario document.
    std::string hash;    ///< contentHash() of json, checked when read.
    std::string comment; ///< Why it was saved ("imported from x.json", "restored version 2").
    std::string savedAt; ///< UTC, ISO 8601.
};

} // namespace dct::store
