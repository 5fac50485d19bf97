#include "dct/cli/scenariofile.h"

#include "dct/model/resolver.h"
#include "dct/model/scenarioio.h"
#include "dct/model/validator.h"

#include <algorithm>
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

ScenarioConsistency checkConsistency(const model::ResolvedScenario& resolved,
                                     const std::filesystem::path& file)
{
    ScenarioConsistency c;
    c.diagnostics = model::validateScenario(resolved);
    c.diagnostics.setFile(file.string());
    // As solvers::evaluate: an error in the workload alone leaves the cluster well defined.
    c.fabricSolvable =
        std::all_of(c.diagnostics.begin(), c.diagnostics.end(), [](const Diagnostic& d) {
            return d.severity != Severity::Error || d.path.rfind("/workload", 0) == 0;
        });
    return c;
}

} // namespace dct::cli
