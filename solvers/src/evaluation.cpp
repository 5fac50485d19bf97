#include "dct/solvers/evaluation.h"

namespace dct::solvers {

const Metric* Evaluation::metric(const std::string& key) const
{
    for (const auto& m : metrics)
        if (m.key == key)
            return &m;
    return nullptr;
}

double Evaluation::value(const std::string& key, double fallback) const
{
    const Metric* m = metric(key);
    return m ? m->value : fallback;
}

void Evaluation::add(std::string key, std::string label, double value, std::string unit,
                     std::vector<std::string> inputs)
{
    metrics.push_back({std::move(key), std::move(label), value, std::move(unit), std::move(inputs)});
}

} // namespace dct::solvers
