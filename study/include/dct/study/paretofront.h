#pragma once

#include <cstddef>
#include <vector>

namespace dct::study {

/**
 * Returns the indices (ascending) of the points of \a points not dominated by any other: a point
 * dominates another when it is at least as good in every objective and better in one.
 * \a minimize[k] says whether objective k is minimized (else maximized). Equal points are all
 * kept. Points with a NaN objective are never on the front.
 */
std::vector<std::size_t> paretoFront(const std::vector<std::vector<double>>& points,
                                     const std::vector<bool>& minimize);

/** Returns true when \a a dominates \a b under \a minimize. */
bool dominates(const std::vector<double>& a, const std::vector<double>& b,
               const std::vector<bool>& minimize);

} // namespace dct::study
