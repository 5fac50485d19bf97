#include "dct/solvers/metricsection.h"

namespace dct::solvers {

const std::vector<MetricSection>& metricSections()
{
    static const std::vector<MetricSection> sections = {
        {"compute", "Compute and workload"},
        {"step", "Training step and memory"},
        {"reliability", "Reliability"},
        {"network", "Network fabric"},
        {"collectives", "Collectives"},
        {"hall", "Hall and cabling"},
        {"power", "Power"},
        {"cooling", "Cooling"},
        {"redundancy", "Redundancy and availability"},
        {"site", "Site year: climate, water, carbon and tariff"},
        {"egress", "Egress and WAN"},
        {"cost", "Cost"},
        {"coupling", "Coupling"},
    };
    return sections;
}

std::string_view metricSectionTitle(std::string_view key)
{
    for (const auto& section : metricSections())
        if (section.key == key)
            return section.title;
    return key;
}

} // namespace dct::solvers
