#pragma once

#include <nlohmann/json.hpp>
#include <string>

namespace dct::model {

/**
 * A reference from a scenario to a catalog entry, with optional overrides of its fields.
 * In JSON either "h100-sxm5" or {"id": "h100-sxm5", "tdp_w": 650}.
 */
struct CatalogRef
{
    std::string id;
    nlohmann::json overrides = nlohmann::json::object();

    bool empty() const { return id.empty(); }
    bool operator==(const CatalogRef& other) const = default;

    /** Returns the JSON form: the bare id without overrides, else an object. */
    nlohmann::json toJson() const;
};

} // namespace dct::model
