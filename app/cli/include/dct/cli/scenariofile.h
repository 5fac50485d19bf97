#pragma once

#include "dct/model/catalog.h"
#include "dct/model/diagnostics.h"
#include "dct/model/resolvedscenario.h"

#include <filesystem>
#include <iosfwd>
#include <optional>

namespace dct::cli {

/** A scenario file read and resolved against the catalog. */
struct LoadedScenario
{
    std::optional<model::ResolvedScenario> resolved; ///< Empty when reading or resolving failed.
    Diagnostics diagnostics; ///< Read and resolve diagnostics (errors mean exit code 2).
};

/** Loads the catalog from \a catalogDir (the default folder when empty), or prints why it cannot
 *  to \a err and returns nothing. */
std::optional<model::Catalog> loadCatalog(const std::string& catalogDir, std::ostream& err);

/** Reads \a path and resolves it against \a catalog. */
LoadedScenario loadScenario(const std::filesystem::path& path, const model::Catalog& catalog);

} // namespace dct::cli
