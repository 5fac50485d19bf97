#pragma once

// Internal to dct_solvers (not installed): builds the dynamic keys and labels of metrics.

#include <initializer_list>
#include <string>
#include <string_view>

namespace dct::solvers {

/**
 * Joins strings in storage it keeps, so that dynamic metric keys and labels ("network." + tier
 * + "_switches") cost no allocation once the buffer has grown. Keep one per thread
 * (thread_local): the view it returns is valid until the next call.
 */
class MetricText
{
public:
    /** Returns \a parts joined; valid until the next call. */
    std::string_view operator()(std::initializer_list<std::string_view> parts)
    {
        m_text.clear();
        for (std::string_view part : parts)
            m_text.append(part);
        return m_text;
    }

private:
    std::string m_text;
};

} // namespace dct::solvers
