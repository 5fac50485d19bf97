#include "dct/cli/scenariofile.h"

#include "dct/model/resolver.h"
#include "dct/model/scenarioio.h"

namespace dct::cli {

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
