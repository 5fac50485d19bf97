#include "dct/study/paretofront.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace dct::study {

bool dominates(const std::vector<double>& a, const std::vector<double>& b,
               const std::vector<bool>& minimize)
{
    bool better = false;
    for (std::size_t k = 0; k < a.size(); ++k) {
        const double x = minimize[k] ? a[k] : -a[k];
        const double y = minimize[k] ? b[k] : -b[k];
        if (x > y)
            return false;
        better |= x < y;
    }
    return better;
}

std::vector<std::size_t> paretoFront(const std::vector<std::vector<double>>& points,
                                     const std::vector<bool>& minimize)
{
    // Sort by the first objective so that a point can only be dominated by one before it or
    // tied with it; then compare against the front found so far (Kung et al., JACM 1975, in
    // its simple form). O(n * front) comparisons.
    std::vector<std::size_t> order;
    for (std::size_t i = 0; i < points.size(); ++i)
        if (std::none_of(points[i].begin(), points[i].end(),
                         [](double v) { return std::isnan(v); }))
            order.push_back(i);
    auto key = [&](std::size_t i) { return minimize[0] ? points[i][0] : -points[i][0]; };
    std::stable_sort(order.begin(), order.end(),
                     [&](std::size_t a, std::size_t b) { return key(a) < key(b); });
    std::vector<std::size_t> front;
    for (const std::size_t i : order) {
        bool dominated = false;
        for (const std::size_t f : front)
            if (dominates(points[f], points[i], minimize)) {
                dominated = true;
                break;
            }
        if (dominated)
            continue;
        // A later point with an equal first objective may dominate earlier ones.
        std::erase_if(front,
                      [&](std::size_t f) { return dominates(points[i], points[f], minimize); });
        front.push_back(i);
    }
    std::sort(front.begin(), front.end());
    return front;
}

} // namespace dct::study
