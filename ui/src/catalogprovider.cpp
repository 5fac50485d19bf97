#include "dct/ui/catalogprovider.h"

#include <algorithm>

namespace dct::ui {

const CatalogProvider::State& CatalogProvider::state()
{
    // A function-local static is initialized once, thread-safely, on first use.
    static const State loaded = [] {
        State s;
        try {
            auto result = model::Catalog::load(model::Catalog::defaultDirectory());
            if (result)
                s.catalog = std::make_shared<const model::Catalog>(std::move(*result));
            else
                s.error = result.error().toString();
        } catch (const std::exception& e) {
            s.error = std::string("catalog: ") + e.what();
        }
        return s;
    }();
    return loaded;
}

std::shared_ptr<const model::Catalog> CatalogProvider::catalog()
{
    return state().catalog;
}

std::string CatalogProvider::loadError()
{
    return state().error;
}

std::vector<std::string> CatalogProvider::ids(const std::string& kind)
{
    const auto c = catalog();
    if (!c)
        return {};
    auto ids = c->ids(kind);
    std::sort(ids.begin(), ids.end());
    return ids;
}

} // namespace dct::ui
