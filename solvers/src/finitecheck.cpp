#include "dct/solvers/finitecheck.h"

#include <cmath>
#include <string>
#include <vector>

namespace dct::solvers {

namespace {

std::string valueText(double v)
{
    return std::isnan(v) ? "NaN" : v > 0 ? "+infinity" : "-infinity";
}

} // namespace

std::size_t checkFiniteMetrics(Evaluation& evaluation)
{
    std::size_t count = 0;
    for (const Metric& m : evaluation.metrics)
        count += std::isfinite(m.value) ? 0 : 1;
    if (count == 0)
        return 0;

    // One diagnostic per distinct list of inputs, in the order of the metrics.
    std::vector<bool> reported(evaluation.metrics.size(), false);
    for (std::size_t i = 0; i < evaluation.metrics.size(); ++i) {
        const Metric& first = evaluation.metrics[i];
        if (reported[i] || std::isfinite(first.value))
            continue;
        std::string figures;
        for (std::size_t j = i; j < evaluation.metrics.size(); ++j) {
            const Metric& m = evaluation.metrics[j];
            if (reported[j] || std::isfinite(m.value) || !(m.inputs == first.inputs))
                continue;
            reported[j] = true;
            figures += (figures.empty() ? "" : ", ") + m.key + " (" + m.label + ") is " +
                       valueText(m.value);
        }
        std::string inputs;
        for (const std::string& pointer : first.inputs)
            inputs += (inputs.empty() ? "" : ", ") + pointer;
        evaluation.diagnostics.error(
            first.inputs.empty() ? std::string() : first.inputs[0], "no finite figure: " + figures,
            inputs.empty() ? "inputs within their physical ranges"
                           : "values of " + inputs +
                                 " that give finite figures (a rate, size or share near zero "
                                 "or near its limit gives none)",
            "non-finite");
    }
    return count;
}

} // namespace dct::solvers
