#pragma once

#include <algorithm>
#include <cstddef>
#include <string>

namespace dct::solvers {

/**
 * The JSON pointers a metric depends on: a view of a list with static storage, so that an
 * evaluation's ~150 metrics name their inputs without copying a string. Iterates as
 * `const std::string&`. Lists are made by metricInputs<"/a", "/b">() or from a static array.
 */
class MetricInputs
{
public:
    constexpr MetricInputs() = default;
    /** Views \a list, which must outlive every metric that holds it (static storage). */
    template <std::size_t N>
    constexpr MetricInputs(const std::string (&list)[N]) : m_begin(list), m_size(N)
    {}

    const std::string* begin() const { return m_begin; }
    const std::string* end() const { return m_begin + m_size; }
    std::size_t size() const { return m_size; }
    bool empty() const { return m_size == 0; }
    const std::string& operator[](std::size_t i) const { return m_begin[i]; }

    /** Returns true when both name the same pointers in the same order. */
    friend bool operator==(const MetricInputs& a, const MetricInputs& b)
    {
        return std::equal(a.begin(), a.end(), b.begin(), b.end());
    }

private:
    const std::string* m_begin = nullptr;
    std::size_t m_size = 0;
};

/** A string literal usable as a template argument (C++20 class-type template parameter). */
template <std::size_t N> struct InputPointer
{
    char text[N];
    constexpr InputPointer(const char (&s)[N]) { std::copy_n(s, N, text); }
};

/**
 * Returns the list of \a Pointers with static storage, built once per distinct list:
 * `metricInputs<"/compute/node_count", "/compute/node">()`.
 */
template <InputPointer... Pointers> MetricInputs metricInputs()
{
    static const std::string list[] = {std::string(Pointers.text)...};
    return MetricInputs(list);
}

/** Which way a figure is better, as a planner reads it: compare, reports and Pareto use it. */
enum class Better
{
    Neither, ///< A size or a count that is neither good nor bad in itself (GPUs, racks).
    Lower,   ///< Less is better (cost, time, power, PUE, latency, temperature).
    Higher   ///< More is better (bandwidth, MFU, clock factor, free-cooling hours).
};

/** Returns "neither", "lower" or "higher". */
const char* betterName(Better better);

/**
 * What a metric declares of itself beside its value, written where the solver adds it: which
 * way is better, and whether (and in which place) it is a headline figure that the dashboard
 * and the reports show first.
 */
struct MetricTraits
{
    Better better = Better::Neither;
    int headlineRank = 0; ///< 1, 2, ... for headline figures in the order shown; 0 for others.

    constexpr MetricTraits() = default;
    constexpr MetricTraits(Better direction, int rank = 0) : better(direction), headlineRank(rank)
    {}
};

/** One figure of an evaluation, with its unit, its traits and the inputs it came from. */
struct Metric
{
    std::string key;   ///< Stable key, "<section>.<name>", e.g. "compute.training_days".
    std::string label; ///< Human label, e.g. "Training time".
    double value = 0.0;
    std::string unit;    ///< Unit as printed, e.g. "days", "kW", "USD".
    MetricInputs inputs; ///< JSON pointers of the inputs it depends on.
    MetricTraits traits; ///< Which way is better; headline or not.
    /**
     * The string literals key, label and unit were last copied from by Evaluation::add (null
     * where the text came from elsewhere): a refill that passes the same literals again skips
     * comparing the text. Code that edits key, label or unit itself resets them.
     */
    struct Origin
    {
        const char* key = nullptr;
        const char* label = nullptr;
        const char* unit = nullptr;
    };
    Origin origin{}; ///< Defaulted, so that aggregate initializers may leave it out.

    /** Returns true when the metric is one of the headline figures. */
    bool headline() const { return traits.headlineRank > 0; }

    /** Returns the section part of the key ("compute" for "compute.training_days"). */
    std::string section() const { return key.substr(0, key.find('.')); }
};

} // namespace dct::solvers
