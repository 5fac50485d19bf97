#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <utility>

namespace dct::model {

/**
 * A reference from a scenario to a catalog entry, with optional overrides of its fields.
 * In JSON either "h100-sxm5" or {"id": "h100-sxm5", "tdp_w": 650}.
 */
struct CatalogRef
{
    std::string id;
    nlohmann::json overrides = nlohmann::json::object();

    CatalogRef() = default;
    CatalogRef(std::string catalogId, nlohmann::json fieldOverrides)
        : id(std::move(catalogId)), overrides(std::move(fieldOverrides))
    {}
    CatalogRef(const CatalogRef&) = default;
    CatalogRef(CatalogRef&&) noexcept = default;
    CatalogRef& operator=(CatalogRef&&) noexcept = default;
    /** Copies \a other; equal overrides are left as they are (a json copy allocates anew). */
    CatalogRef& operator=(const CatalogRef& other)
    {
        id = other.id;
        if (overrides != other.overrides)
            overrides = other.overrides;
        return *this;
    }

    bool empty() const { return id.empty(); }
    bool operator==(const CatalogRef& other) const = default;

    /** Returns the JSON form: the bare id without overrides, else an object. */
    nlohmann::json toJson() const;
};

} // namespace dct::model
