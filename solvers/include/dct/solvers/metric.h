#pragma once

#include <string>
#include <vector>

namespace dct::solvers {

/** One figure of an evaluation, with its unit and the inputs it came from. */
struct Metric
{
    std::string key;     ///< Stable key, "<section>.<name>", e.g. "compute.training_days".
    std::string label;   ///< Human label, e.g. "Training time".
    double value = 0.0;
    std::string unit;    ///< Unit as printed, e.g. "days", "kW", "USD".
    std::vector<std::string> inputs; ///< JSON pointers of the inputs it depends on.

    /** Returns the section part of the key ("compute" for "compute.training_days"). */
    std::string section() const { return key.substr(0, key.find('.')); }
};

} // namespace dct::solvers
