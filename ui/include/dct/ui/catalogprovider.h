#pragma once

#include "dct/model/catalog.h"

#include <memory>
#include <string>

namespace dct::ui {

/** Loads the bundled catalog once and shares it, read-only, with every evaluation thread. */
class CatalogProvider
{
public:
    /** Returns the shared catalog, or nullptr when it could not be read (see loadError()). */
    static std::shared_ptr<const model::Catalog> catalog();
    /** Returns why the catalog could not be read, or "" when it was. */
    static std::string loadError();
    /** Returns the ids of catalog kind \a kind, sorted; empty when there is no catalog. */
    static std::vector<std::string> ids(const std::string& kind);

private:
    struct State
    {
        std::shared_ptr<const model::Catalog> catalog;
        std::string error;
    };
    static const State& state();
};

} // namespace dct::ui
