#include "dct/solvers/evaluation.h"

#include <algorithm>
#include <cstddef>

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

void Evaluation::add(std::string_view key, std::string_view label, double value,
                     std::string_view unit, MetricTraits traits, MetricInputs inputs)
{
    if (!m_refilling || m_metricsFilled == metrics.size()) {
        metrics.push_back(
            {std::string(key), std::string(label), value, std::string(unit), inputs, traits});
        if (m_refilling)
            ++m_metricsFilled;
        return;
    }
    Metric& m = metrics[m_metricsFilled++];
    // A refilled metric mostly keeps its text: compare, and copy (into the buffer it already
    // has) only what changed.
    if (m.key != key)
        m.key.assign(key);
    if (m.label != label)
        m.label.assign(label);
    m.value = value;
    if (m.unit != unit)
        m.unit.assign(unit);
    m.inputs = inputs;
    m.traits = traits;
}

std::vector<const Metric*> Evaluation::headlines() const
{
    std::vector<const Metric*> list;
    for (const auto& m : metrics)
        if (m.headline())
            list.push_back(&m);
    std::stable_sort(list.begin(), list.end(), [](const Metric* a, const Metric* b) {
        return a->traits.headlineRank < b->traits.headlineRank;
    });
    return list;
}

const char* betterName(Better better)
{
    switch (better) {
    case Better::Lower:
        return "lower";
    case Better::Higher:
        return "higher";
    case Better::Neither:
        break;
    }
    return "neither";
}

void Evaluation::restartMetrics()
{
    m_refilling = true;
    m_metricsFilled = 0;
}

void Evaluation::finishMetrics()
{
    if (m_refilling)
        metrics.erase(metrics.begin() + static_cast<std::ptrdiff_t>(m_metricsFilled),
                      metrics.end());
    m_refilling = false;
    m_metricsFilled = 0;
}

} // namespace dct::solvers
