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

/** What eval's consistency checks (model::validateScenario) say about a resolved scenario. */
struct ScenarioConsistency
{
    Diagnostics diagnostics;    ///< The checks' findings, with the file set.
    bool fabricSolvable = true; ///< False when eval would solve nothing (errors beyond /workload).
    bool ok() const { return !diagnostics.hasErrors(); }
};

/**
 * Runs the checks eval makes before it solves (protocol, switch and NIC agreement, planes,
 * breakout, capacity, parallelism, ...) on \a resolved, read from \a file. Commands that solve
 * the fabric alone (collectives, topology) refuse what eval refuses, with the same errors.
 */
ScenarioConsistency checkConsistency(const model::ResolvedScenario& resolved,
                                     const std::filesystem::path& file);

} // namespace dct::cli
