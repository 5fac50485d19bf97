#pragma once

namespace dct::solvers {

/**
 * Version of the program's models: results cached in the store under another version are stale.
 * Bump it whenever a solver's formulas, defaults or metric keys change.
 */
inline constexpr const char* modelVersion = "dctwin-0.1/models-60";

} // namespace dct::solvers
