#pragma once

#include "dct/model/catalog.h"
#include "dct/model/diagnostics.h"
#include "dct/model/resolvedscenario.h"

#include <optional>

namespace dct::model {

/** A resolved scenario, or the reasons it could not be resolved. */
struct ResolveResult
{
    std::optional<ResolvedScenario> resolved;
    Diagnostics diagnostics;
};

/**
 * Resolves the catalog references of \a scenario against \a catalog: looks up each id (a missing
 * id is an error listing the ids there are), applies overrides (an unknown key is an error), and
 * records the provenance of every input. \a file names the scenario in diagnostics.
 */
ResolveResult resolveScenario(const Scenario& scenario, const Catalog& catalog,
                              const std::string& file = {});

/**
 * Sets what a resolved scenario derives from its fields and catalog entries (GPUs per node,
 * rails, the data-parallel size when left at 0): the one place of these rules, applied by
 * resolveScenario() and again by sweeps after they set a field.
 */
void applyDerivedRules(ResolvedScenario& scenario);

} // namespace dct::model
