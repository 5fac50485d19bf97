#pragma once

#include "dct/model/calibrationprofile.h"
#include "dct/model/resolvedscenario.h"
#include "dct/solvers/evaluation.h"

#include <functional>
#include <string>

namespace dct::solvers {

/** Options of one evaluation. */
struct EvaluateOptions
{
    int maxIterations = 50;  ///< Of the thermal coupling loop.
    double tolerance = 1e-6; ///< On the clock factor.
    /**
     * Finds the calibration profile a scenario names (/network/calibration_profile) in the
     * scenario library. Empty when no library is open: a scenario that names a profile is then
     * an error of that field, never evaluated uncalibrated without a word.
     */
    std::function<Result<model::CalibrationProfile>(const std::string& name)> calibrationProfile;
};

/**
 * Evaluates a resolved scenario: validates it, runs every solver in dependency order and closes
 * the thermal loop. Errors of validation stop before the solvers and come back as diagnostics.
 */
Evaluation evaluate(const model::ResolvedScenario& scenario, const EvaluateOptions& options = {});

/**
 * Evaluates \a scenario into \a evaluation, as evaluate() does, reusing the storage of what it
 * held: a sweep evaluates its variants into one Evaluation per thread without allocating for
 * the metrics' keys and labels. Every field of \a evaluation is replaced.
 */
void evaluate(const model::ResolvedScenario& scenario, Evaluation& evaluation,
              const EvaluateOptions& options = {});

} // namespace dct::solvers
