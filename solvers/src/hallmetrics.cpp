#include "dct/solvers/hallmetrics.h"

#include <algorithm>

namespace dct::solvers {

void addHallMetrics(Evaluation& e)
{
    const HallResult& h = e.network.hall;
    if (!h.valid)
        return;
    const auto plan = metricInputs<"/hall", "/facility/racks_per_row", "/compute/node_count">();
    const auto runs =
        metricInputs<"/hall", "/network/switch", "/network/nic", "/network/topology">();
    e.add("hall.rows", "Compute rows", h.computeRows, "", Better::Neither, plan);
    e.add("hall.compute_racks", "Compute racks", h.computeRacks, "", Better::Neither, plan);
    e.add("hall.network_racks", "Network racks in the rows", h.networkRacks, "", Better::Neither,
          plan);
    e.add("hall.mda_racks", "Racks in the main distribution area", h.mdaRacks, "", Better::Neither,
          plan);
    e.add("hall.floor_m2", "Hall floor (racks and aisles)", h.areaM2, "m²", Better::Lower, plan);
    double rowKw = 0.0;
    for (const HallRow& row : h.rows)
        rowKw = std::max(rowKw, row.nameplateKw);
    e.add("hall.row_max_kw", "Fullest row at nameplate", rowKw, "kW", Better::Neither, plan);
    e.add("hall.cables", "Fabric cables and fibers", static_cast<double>(h.cables), "",
          Better::Neither, runs);
    e.add("hall.transceivers", "Optical transceivers (every end)",
          static_cast<double>(h.transceivers), "", Better::Neither, runs);
    e.add("hall.cable_length_m", "Fabric cable laid", h.cableLengthM, "m", Better::Lower, runs);
    e.add("hall.cable_power_kw", "Cables and optics power", h.cablePowerW / 1000.0, "kW",
          Better::Lower, runs);
    e.add("hall.cable_capex_usd", "Cables and optics cost", h.cableCostUsd, "USD", Better::Lower,
          runs);
    for (const HallClassSummary& c : h.classes) {
        const char* name = hallLinkClassName(c.linkClass);
        const std::string key = c.linkClass == HallLinkClass::NodeLeaf    ? "node_leaf"
                                : c.linkClass == HallLinkClass::LeafSpine ? "leaf_spine"
                                                                          : "spine_core";
        e.add("hall.longest_" + key + "_m", std::string("Longest ") + name + " run", c.maxLengthM,
              "m", Better::Lower, runs);
        e.add("hall.mean_" + key + "_m", std::string("Mean ") + name + " run", c.meanLengthM, "m",
              Better::Lower, runs);
    }
    e.add("hall.links_beyond_reach", "Links no catalog cable reaches",
          static_cast<double>(h.linksBeyondReach), "", Better::Lower, runs);
}

} // namespace dct::solvers
