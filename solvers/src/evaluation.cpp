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

namespace {

/**
 * Makes \a target hold \a text, copied into the buffer it already has, unless it holds it: it
 * does when \a text is the string literal \a origin it was last copied from (\a literal, null
 * for other text), else when the texts compare equal.
 */
void refill(std::string& target, const char*& origin, std::string_view text, const char* literal)
{
    const bool same = literal != nullptr && origin == literal && target.size() == text.size();
    if (!same && target != text)
        target.assign(text);
    origin = literal;
}

} // namespace

void Evaluation::add(std::string_view key, std::string_view label, double value,
                     std::string_view unit, MetricTraits traits, MetricInputs inputs)
{
    addText({key.data(), key.size(), nullptr}, {label.data(), label.size(), nullptr}, value,
            {unit.data(), unit.size(), nullptr}, traits, inputs);
}

void Evaluation::addText(Text key, Text label, double value, Text unit, MetricTraits traits,
                         MetricInputs inputs)
{
    const std::string_view keyText(key.data, key.size);
    const std::string_view labelText(label.data, label.size);
    const std::string_view unitText(unit.data, unit.size);
    if (!m_refilling || m_metricsFilled == metrics.size()) {
        metrics.push_back({std::string(keyText), std::string(labelText), value,
                           std::string(unitText), inputs, traits,
                           Metric::Origin{key.literal, label.literal, unit.literal}});
        if (m_refilling)
            ++m_metricsFilled;
        return;
    }
    // A refilled metric mostly keeps its text: compare (by the literals' addresses where both
    // are literals), and copy into the buffers it already has only what changed.
    Metric& m = metrics[m_metricsFilled++];
    refill(m.key, m.origin.key, keyText, key.literal);
    refill(m.label, m.origin.label, labelText, label.literal);
    m.value = value;
    refill(m.unit, m.origin.unit, unitText, unit.literal);
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
