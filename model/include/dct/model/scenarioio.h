#pragma once

#include "dct/model/diagnostics.h"
#include "dct/model/error.h"
#include "dct/model/scenario.h"

#include <filesystem>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

namespace dct::model {

/** A scenario read from JSON, with what the reader found wrong or migrated. */
struct ScenarioReadResult
{
    std::optional<Scenario> scenario; ///< Empty when the document could not be read at all.
    Diagnostics diagnostics;          ///< Errors make the scenario unusable.
    int migratedFrom = 0;             ///< Schema version of the input when it was migrated.
};

/** Reads a scenario from a JSON document; \a file names it in diagnostics. */
ScenarioReadResult readScenario(const nlohmann::json& json, const std::string& file = {});
/** Parses \a text as JSON and reads a scenario from it. */
ScenarioReadResult readScenarioText(const std::string& text, const std::string& file = {});
/** Reads a scenario file. An unreadable file or invalid JSON is an error naming the file. */
ScenarioReadResult readScenarioFile(const std::filesystem::path& path);

/** Returns the scenario as JSON at the current schema version. */
nlohmann::json writeScenario(const Scenario& scenario);
/** Writes the scenario to \a path atomically (a temporary file renamed over the target). */
Result<void> saveScenarioFile(const Scenario& scenario, const std::filesystem::path& path);

/**
 * Brings a scenario document of an older schema version up to the current one, in place.
 * Returns the version it started from, or an Error for an unknown or future version.
 */
Result<int> migrateScenario(nlohmann::json& json, const std::string& file = {});

} // namespace dct::model
