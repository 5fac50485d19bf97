#include "dct/solvers/redundancymetrics.h"

#include "metrictext.h"

#include <cmath>
#include <string_view>

namespace dct::solvers {

namespace {

void addSubsystem(Evaluation& e, std::string_view prefix, std::string_view name,
                  const SubsystemDesign& d, const MetricInputs& inputs)
{
    thread_local MetricText key, label;
    const std::string_view design = redundancyName(d.redundancy);
    e.add(key({"redundancy.", prefix, "_units"}), label({name, " installed (", design, ")"}),
          d.installedUnits, "", MetricTraits{Better::Lower, 0}, inputs);
    e.add(key({"redundancy.", prefix, "_required_units"}), label({name, " needed (N)"}),
          d.requiredUnits, "", Better::Neither, inputs);
    e.add(key({"redundancy.", prefix, "_unit_kw"}), label({name, ": rating of one unit"}),
          d.unitSizeKw, "kW", Better::Neither, inputs);
    e.add(key({"redundancy.", prefix, "_design_load_kw"}), label({name, ": peak-hour load"}),
          d.loadKw, "kW", Better::Neither, inputs);
    e.add(key({"redundancy.", prefix, "_load_fraction"}),
          label({name, ": load per unit over its rating"}), d.loadFraction, "share",
          Better::Neither, inputs);
    e.add(key({"redundancy.", prefix, "_capex_usd"}), label({name, ": capex of every unit"}),
          d.capexUsd, "USD", Better::Lower, inputs);
    // Availabilities are all close to 1: the hours a year without enough units read better.
    e.add(key({"redundancy.", prefix, "_downtime_hours_per_year"}),
          label({name, ": hours a year too few units run (or start, for standby units)"}),
          (1.0 - d.availability) * 8760.0, "h/year", Better::Lower, inputs);
}

/** Nines of an availability: 3 for 99.9 %. Capped at 12 (beyond the rates' precision). */
double nines(double availability)
{
    const double down = 1.0 - availability;
    return down > 1e-12 ? -std::log10(down) : 12.0;
}

} // namespace

void addRedundancyMetrics(Evaluation& e)
{
    const RedundancyResult& r = e.redundancy;
    const MetricInputs all =
        metricInputs<"/facility/ups_redundancy", "/facility/generator_redundancy",
                     "/cooling/chiller_redundancy", "/cooling/cdu_redundancy", "/site",
                     "/cooling/system">();
    addSubsystem(e, "ups", "UPS modules", r.ups,
                 metricInputs<"/facility/ups_redundancy", "/facility/design_load_fraction",
                              "/compute/node">());
    e.add("redundancy.ups_efficiency", "UPS efficiency at its running part load", r.upsEfficiency,
          "share", Better::Higher,
          metricInputs<"/facility/ups_redundancy", "/facility/ups_no_load_fraction",
                       "/facility/ups_proportional_fraction", "/facility/ups_square_fraction">());
    e.add("redundancy.ups_efficiency_at_n", "UPS efficiency if N modules carried the load",
          r.upsEfficiencyAtN, "share", Better::Higher,
          metricInputs<"/facility/ups_no_load_fraction", "/facility/ups_proportional_fraction",
                       "/facility/ups_square_fraction">());
    addSubsystem(e, "generator", "Generator sets", r.generators,
                 metricInputs<"/facility/generator_redundancy", "/facility/design_load_fraction",
                              "/site", "/cooling/system">());
    // A long utility outage: the sets that started keep failing while they run (Marqusee and
    // Jenket 2020), so the odds of riding it out fall with its length (docs/redundancy.md).
    const MetricInputs generatorInputs =
        metricInputs<"/facility/generator_redundancy", "/facility/design_load_fraction", "/site",
                     "/cooling/system">();
    e.add("redundancy.generator_carry_probability_24h",
          "Generator sets: probability they carry the facility through a 24 h utility outage",
          r.generators.requiredUnits > 0 ? carryProbability(r.generators, 24.0) : 0.0, "share",
          Better::Higher, generatorInputs);
    e.add("redundancy.generator_carry_probability_two_weeks",
          "Generator sets: probability they carry the facility through a two-week utility outage",
          r.generators.requiredUnits > 0 ? carryProbability(r.generators, 336.0) : 0.0, "share",
          Better::Higher, generatorInputs);
    addSubsystem(e, "chiller", "Chillers", r.chillers,
                 metricInputs<"/cooling/chiller_redundancy", "/cooling/system", "/site">());
    addSubsystem(e, "cdu", "CDUs", r.cdus,
                 metricInputs<"/cooling/cdu_redundancy", "/cooling/system">());
    e.add("redundancy.power_downtime_hours_per_year",
          "Hours a year without power (utility and generators down, or UPS short)",
          (1.0 - r.powerAvailability) * 8760.0, "h/year", Better::Lower, all);
    e.add("redundancy.cooling_downtime_hours_per_year",
          "Hours a year without enough cooling (chillers or CDUs short)",
          (1.0 - r.coolingAvailability) * 8760.0, "h/year", Better::Lower, all);
    e.add("redundancy.availability", "Availability of the whole IT load", r.availability, "share",
          Better::Higher, all);
    e.add("redundancy.availability_nines", "Availability in nines", nines(r.availability), "",
          Better::Higher, all);
    e.add("redundancy.downtime_hours_per_year", "Expected downtime of the IT load",
          r.downtimeHoursPerYear, "h/year", Better::Lower, all);
    e.add("redundancy.capex_usd", "Capex of UPS, generators, chillers and CDUs", r.capexUsd, "USD",
          Better::Lower, all);
    e.add("redundancy.redundancy_capex_usd", "Capex of the units beyond N", r.redundancyCapexUsd,
          "USD", Better::Lower, all);
}

} // namespace dct::solvers
