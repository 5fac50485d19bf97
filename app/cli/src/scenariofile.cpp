#include "dct/cli/scenariofile.h"

#include "dct/model/resolver.h"
#include "dct/model/scenarioio.h"

#include <ostream>

namespace dct::cli {

std::optional<model::Catalog> loadCatalog(const std::string& catalogDir, std::ostream& err)
{
    const std::filesystem::path dir =
        catalogDir.empty() ? model::Catalog::defaultDirectory() : std::filesystem::path(catalogDir);
    auto catalog = model::Catalog::load(dir);
    if (!catalog) {
        err << "dctwin-cli: error: " << catalog.error().toString() << "\n";
        return std::nullopt;
    }
    return std::move(*catalog);
}

LoadedScenario loadScenario(const std::filesystem::path& path, const model::Catalog& catalog)
{
    LoadedScenario loaded;
    auto read = model::readScenarioFile(path);
    loaded.diagnostics = read.diagnostics;
    if (!read.scenario || read.diagnostics.hasErrors())
        return loaded;
    auto resolved = model::resolveScenario(*read.scenario, catalog, path.string());
    loaded.diagnostics.append(resolved.diagnostics);
    loaded.resolved = std::move(resolved.resolved);
    return loaded;
}

} // namespace dct::cli
