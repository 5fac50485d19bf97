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
    CatalogRef(std::string id_, nlohmann::json overrides_ = nlohmann::json::object())
        : id(std::move(id_)), overrides(std::move(overrides_))
    {}
    CatalogRef(const CatalogRef&) = default;
    CatalogRef(CatalogRef&&) noexcept = default;
    CatalogRef& operator=(CatalogRef&&) noexcept = default;
    /** Copies \a other; the overrides' JSON only when it differs (copying even an empty object
     *  allocates), so assigning an equal reference, as a memo's key is assigned, allocates
     *  nothing. The result equals \a other either way. */
    CatalogRef& operator=(const CatalogRef& other)
    {
        id = other.id;
        if (!(overrides == other.overrides))
            overrides = other.overrides;
        return *this;
    }
    ~CatalogRef() = default;

    bool empty() const { return id.empty(); }
    bool operator==(const CatalogRef& other) const = default;

    /** Returns the JSON form: the bare id without overrides, else an object. */
    nlohmann::json toJson() const;
};

} // namespace dct::model
