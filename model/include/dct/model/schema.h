#pragma once

#include <nlohmann/json.hpp>

namespace dct::model {

/** Returns the JSON Schema (draft 2020-12) of scenario files, generated from the field tables. */
nlohmann::json scenarioJsonSchema();

} // namespace dct::model
