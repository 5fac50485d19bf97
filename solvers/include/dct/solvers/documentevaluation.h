#pragma once

#include "dct/model/catalog.h"
#include "dct/model/diagnostics.h"
#include "dct/model/resolvedscenario.h"
#include "dct/model/scenario.h"
#include "dct/solvers/evaluation.h"
#include "dct/solvers/evaluator.h"

#include <filesystem>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

namespace dct::solvers {

/**
 * What one scenario document came to: read (older schema versions migrated), resolved against
 * the catalog and evaluated. Each step is kept when it succeeded, so a caller shows as much as
 * could be had; the diagnostics of all steps are in one list, each naming the document.
 */
struct DocumentEvaluation
{
    std::string origin;                              ///< File path, or "store:name@version".
    std::optional<model::Scenario> scenario;         ///< Empty when it could not be read.
    std::optional<model::ResolvedScenario> resolved; ///< Empty when it could not be resolved.
    /** The calibration profile the scenario names, when it was found and applied. */
    std::optional<model::CalibrationProfile> calibration;
    std::optional<Evaluation> evaluation; ///< Empty when it was not evaluated; its diagnostics
                                          ///< are the whole list below.
    Diagnostics diagnostics;              ///< Reading, resolving and evaluating, in order.

    /** Returns true when the document was read and resolved (evaluated, perhaps with errors). */
    bool evaluated() const { return evaluation.has_value(); }
    /** Returns true when it was evaluated without any error. */
    bool ok() const { return evaluated() && !diagnostics.hasErrors(); }
};

/**
 * The one way from a scenario document to its evaluation, for every caller (CLI commands, the
 * store, reports, the desktop): reads \a document, resolves it against \a catalog, evaluates it.
 * \a origin names the document in every diagnostic. Never throws: an unexpected failure
 * becomes an error diagnostic.
 */
DocumentEvaluation evaluateDocument(const nlohmann::json& document, const model::Catalog& catalog,
                                    const std::string& origin, const EvaluateOptions& options = {});

/** As evaluateDocument() for JSON text (a stored version); a parse error names \a origin. */
DocumentEvaluation evaluateDocumentText(const std::string& text, const model::Catalog& catalog,
                                        const std::string& origin,
                                        const EvaluateOptions& options = {});

/** As evaluateDocument() for the scenario file \a path. */
DocumentEvaluation evaluateDocumentFile(const std::filesystem::path& path,
                                        const model::Catalog& catalog,
                                        const EvaluateOptions& options = {});

/** As evaluateDocument() for a scenario already read (the desktop's edited document). */
DocumentEvaluation evaluateScenario(const model::Scenario& scenario, const model::Catalog& catalog,
                                    const std::string& origin, const EvaluateOptions& options = {});

} // namespace dct::solvers
