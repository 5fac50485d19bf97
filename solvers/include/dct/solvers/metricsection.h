#pragma once

#include <string_view>
#include <vector>

namespace dct::solvers {

/** A section of an evaluation's metrics: the key prefix and the title people read. */
struct MetricSection
{
    std::string_view key;   ///< The prefix of its metrics' keys ("power" of "power.it_kw").
    std::string_view title; ///< "Power".
};

/**
 * Returns the sections of an evaluation in the order every face shows them (CLI table,
 * dashboard, reports): the one registry of metric sections.
 */
const std::vector<MetricSection>& metricSections();

/** Returns the title of section \a key, or \a key itself for a section not registered. */
std::string_view metricSectionTitle(std::string_view key);

} // namespace dct::solvers
