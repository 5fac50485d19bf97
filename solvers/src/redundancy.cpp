#include "dct/solvers/redundancy.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <vector>

namespace dct::solvers {

namespace {

/**
 * Fewest units a subsystem is built of when its standard sizes allow: the largest standard size
 * that still gives at least this many units is taken, so that one spare (N+1) costs at most a
 * quarter of the load and DR blocks divide evenly. Assumption (docs/redundancy.md): planners
 * favour fewer, larger units down to about four; below that a spare doubles or thirds the plant.
 */
constexpr int kPreferredMinUnits = 4;

/** Systems of a design, and how many of them must run (2N: one of two; 3N/2: two of three). */
int systemsOf(model::Redundancy r)
{
    switch (r) {
    case model::Redundancy::TwoN:
        return 2;
    case model::Redundancy::ThreeToMakeTwo:
        return 3;
    case model::Redundancy::FourToMakeThree:
        return 4;
    default:
        return 1;
    }
}

/** Nodes and weights of Gauss-Laguerre quadrature: the integral of f(u) exp(-u) over u >= 0. */
struct LaguerreRule
{
    std::array<double, 32> nodes{};
    std::array<double, 32> weights{};
};

/**
 * The 32-node Gauss-Laguerre rule: the roots of the Laguerre polynomial L_32 by Newton's method
 * from the usual asymptotic first guesses, each weight -1 / (n L_32'(x) L_31(x)).
 */
LaguerreRule laguerreRule()
{
    LaguerreRule rule;
    const int n = static_cast<int>(rule.nodes.size());
    double z = 0.0;
    for (int i = 0; i < n; ++i) {
        if (i == 0) {
            z = 3.0 / (1.0 + 2.4 * n);
        } else if (i == 1) {
            z += 15.0 / (1.0 + 2.5 * n);
        } else {
            const double ai = i - 1;
            z += (1.0 + 2.55 * ai) / (1.9 * ai) * (z - rule.nodes[i - 2]);
        }
        double p1 = 1.0, p2 = 0.0, slope = 1.0;
        for (int iteration = 0; iteration < 100; ++iteration) {
            p1 = 1.0;
            p2 = 0.0;
            for (int j = 1; j <= n; ++j) {
                const double p3 = p2;
                p2 = p1;
                p1 = ((2.0 * j - 1.0 - z) * p2 - (j - 1.0) * p3) / j;
            }
            slope = n * (p1 - p2) / z;
            const double previous = z;
            z = previous - p1 / slope;
            if (std::abs(z - previous) <= 1e-14 * std::abs(z))
                break;
        }
        rule.nodes[i] = z;
        rule.weights[i] = -1.0 / (slope * n * p2);
    }
    return rule;
}

} // namespace

/**
 * Unit availability from a failure rate per 10^6 h and a repair time, MTBF / (MTBF + MTTR),
 * times the probability that a standby unit starts and takes its load when called (1 for units
 * that run all the time).
 */
double unitAvailability(const model::PlantUnitSpec& unit)
{
    const double starts = 1.0 - std::clamp(unit.startFailureProbability, 0.0, 1.0);
    // A standby unit with a measured operational availability (not down for maintenance or
    // repair when called) takes it instead of its failure rate and repair time.
    if (unit.standbyAvailability > 0.0)
        return starts * std::clamp(unit.standbyAvailability, 0.0, 1.0);
    if (unit.parts.empty())
        return starts / (1.0 + unit.failuresPerMillionHours * 1e-6 * unit.repairHours);
    // A unit built of parts: each part kind in its own k-out-of-n, the kinds in series.
    double up = starts;
    for (const auto& part : unit.parts)
        up *= kOutOfN(part.needed, part.count,
                      1.0 / (1.0 + part.failuresPerMillionHours * 1e-6 * part.repairHours));
    return up;
}

const char* redundancyName(model::Redundancy r)
{
    switch (r) {
    case model::Redundancy::N:
        return "N";
    case model::Redundancy::NPlus1:
        return "N+1";
    case model::Redundancy::NPlus2:
        return "N+2";
    case model::Redundancy::TwoN:
        return "2N";
    case model::Redundancy::ThreeToMakeTwo:
        return "3N/2";
    case model::Redundancy::FourToMakeThree:
        return "4N/3";
    }
    return "N";
}

namespace {

/**
 * kOutOfN(k, n, a) with the log of each term's binomial coefficient, log C(n, down), from
 * \a logBinomial(down): every term adds the same values in the same order.
 */
template <class LogBinomial> double kOutOfNSum(int k, int n, double a, LogBinomial&& logBinomial)
{
    if (k <= 0)
        return 1.0;
    if (k > n)
        return 0.0;
    // Sum over j >= k of C(n, j) a^j (1 - a)^(n - j), with the binomial terms built in logs so
    // that a hundred units neither overflow nor lose the tiny unavailabilities.
    const double q = 1.0 - a;
    if (q <= 0.0)
        return 1.0;
    if (a <= 0.0)
        return 0.0;
    // The failures the design tolerates are few: summing the complement (more than n - k units
    // down) keeps the precision of probabilities near 1.
    const double logQ = std::log(q);
    const double logA = std::log(a);
    double failed = 0.0;
    for (int down = n - k + 1; down <= n; ++down) {
        const double logTerm = logBinomial(down) + down * logQ + (n - down) * logA;
        failed += std::exp(logTerm);
    }
    return std::clamp(1.0 - failed, 0.0, 1.0);
}

/** subsystemAvailability() with its k-out-of-n availability from \a kOutOfNOf(k, n, a). */
template <class KOutOfN>
double availabilityFrom(const SubsystemDesign& d, double unitUp, KOutOfN&& kOutOfNOf)
{
    const int n = d.requiredUnits;
    if (n <= 0)
        return 0.0;
    switch (d.redundancy) {
    case model::Redundancy::N:
    case model::Redundancy::NPlus1:
    case model::Redundancy::NPlus2:
        return kOutOfNOf(n, d.installedUnits, unitUp);
    default: {
        // Each of the m systems stands only with all its units; any m - 1 carry the load.
        const int m = d.systems;
        const int perSystem = d.installedUnits / m;
        return kOutOfNOf(m - 1, m, std::pow(unitUp, perSystem));
    }
    }
}

} // namespace

double kOutOfN(int k, int n, double a)
{
    // The terms' common log is taken once (lgamma sets signgam, so the compiler does not hoist
    // it out of the loop itself).
    const double logFactorialN = k > 0 && k <= n ? std::lgamma(n + 1.0) : 0.0;
    return kOutOfNSum(k, n, a, [&](int down) {
        return logFactorialN - std::lgamma(down + 1.0) - std::lgamma(n - down + 1.0);
    });
}

int installedUnits(int requiredUnits, model::Redundancy redundancy)
{
    const int n = std::max(0, requiredUnits);
    if (n == 0)
        return 0; // nothing to carry: no spare either
    switch (redundancy) {
    case model::Redundancy::N:
        return n;
    case model::Redundancy::NPlus1:
        return n + 1;
    case model::Redundancy::NPlus2:
        return n + 2;
    default: {
        const int m = systemsOf(redundancy);
        return m * ((n + m - 2) / (m - 1));
    }
    }
}

SubsystemDesign designSubsystem(double loadKw, double designLoadFraction,
                                const model::PlantUnitSpec& unit, double fixedSizeKw,
                                model::Redundancy redundancy)
{
    SubsystemDesign d;
    d.redundancy = redundancy;
    d.systems = systemsOf(redundancy);
    d.loadKw = std::max(0.0, loadKw);
    d.capacityKw = designLoadFraction > 0.0 ? d.loadKw / designLoadFraction : d.loadKw;
    d.unitAvailability = unitAvailability(unit);
    if (d.capacityKw <= 0.0)
        return d;
    auto unitsFor = [&](double size) { return std::ceil(d.capacityKw / size - 1e-9); };
    if (fixedSizeKw > 0.0) {
        d.unitSizeKw = fixedSizeKw;
    } else if (!unit.moduleSizesKw.empty()) {
        d.unitSizeKw = unit.moduleSizesKw.front();
        for (double size : unit.moduleSizesKw)
            if (unitsFor(size) >= kPreferredMinUnits)
                d.unitSizeKw = size;
    } else {
        return d;
    }
    // A unit far too small for the load (a CDU of a few watts) gives no design, not an overflow.
    constexpr double kMostUnits = 1e6;
    const double needed = unitsFor(d.unitSizeKw);
    if (!(needed <= kMostUnits))
        return SubsystemDesign{redundancy, d.loadKw, d.capacityKw};
    d.requiredUnits = std::max(1, static_cast<int>(needed));
    d.installedUnits = installedUnits(d.requiredUnits, redundancy);
    d.availability = subsystemAvailability(d, d.unitAvailability);
    d.runFailuresPerHour = std::max(0.0, unit.runFailuresPerMillionHours) * 1e-6;
    d.loadFraction = d.loadKw / (d.installedUnits * d.unitSizeKw);
    d.capexUsd = d.installedUnits * d.unitSizeKw * unit.usdPerKw;
    d.redundancyCapexUsd = (d.installedUnits - d.requiredUnits) * d.unitSizeKw * unit.usdPerKw;
    return d;
}

double subsystemAvailability(const SubsystemDesign& d, double unitUp)
{
    return availabilityFrom(d, unitUp, kOutOfN);
}

double carryProbability(const SubsystemDesign& d, double hours)
{
    return subsystemAvailability(d, d.unitAvailability *
                                        std::exp(-d.runFailuresPerHour * std::max(0.0, hours)));
}

double generatorUncoveredShare(const SubsystemDesign& d, double meanOutageHours)
{
    if (d.requiredUnits <= 0)
        return 1.0;
    if (d.runFailuresPerHour <= 0.0 || meanOutageHours <= 0.0)
        return 1.0 - d.availability;
    // Over u = t / mean: the integral of (1 - carry(mean u)) exp(-u) du from 0 to infinity, by
    // Gauss-Laguerre quadrature; carry is a smooth function of exp(-rate mean u), so 32 nodes
    // are exact to about 1e-10 for any rate x mean below 1 (an outage shorter than a set's
    // mean running life), at 32 evaluations.
    static const LaguerreRule rule = laguerreRule();
    // Every node's carry is the same k-out-of-n at another unit availability: the binomial
    // coefficients' logs are taken once (kOutOfN's expressions, in its order) for the 32.
    std::vector<double> logBinomial;
    int tableN = -1;
    int tableFirst = 0;
    auto cachedKOutOfN = [&](int k, int n, double a) {
        if (tableN != n || tableFirst != n - k + 1) {
            tableN = n;
            tableFirst = n - k + 1;
            logBinomial.clear();
            if (k > 0 && k <= n) {
                const double logFactorialN = std::lgamma(n + 1.0);
                logBinomial.reserve(static_cast<std::size_t>(k));
                for (int down = tableFirst; down <= n; ++down)
                    logBinomial.push_back(logFactorialN - std::lgamma(down + 1.0) -
                                          std::lgamma(n - down + 1.0));
            }
        }
        return kOutOfNSum(k, n, a, [&](int down) {
            return logBinomial[static_cast<std::size_t>(down - tableFirst)];
        });
    };
    double sum = 0.0;
    for (std::size_t i = 0; i < rule.nodes.size(); ++i) {
        // carryProbability(d, meanOutageHours x node), with the coefficients kept.
        const double hours = meanOutageHours * rule.nodes[i];
        const double carry = availabilityFrom(
            d, d.unitAvailability * std::exp(-d.runFailuresPerHour * std::max(0.0, hours)),
            cachedKOutOfN);
        sum += rule.weights[i] * (1.0 - carry);
    }
    return std::clamp(sum, 0.0, 1.0);
}

double curveEfficiency(const std::vector<std::pair<double, double>>& curve, double loadFraction)
{
    if (curve.empty())
        return 1.0;
    if (loadFraction <= curve.front().first) {
        // The first point's loss held: efficiency = f / (f + loss share at the first point).
        const auto [f0, e0] = curve.front();
        const double lossShare = f0 * (1.0 / e0 - 1.0);
        return loadFraction > 0.0 ? loadFraction / (loadFraction + lossShare) : 0.0;
    }
    for (std::size_t i = 1; i < curve.size(); ++i) {
        const auto [f1, e1] = curve[i];
        if (loadFraction <= f1) {
            const auto [f0, e0] = curve[i - 1];
            return e0 + (e1 - e0) * (loadFraction - f0) / (f1 - f0);
        }
    }
    return curve.back().second;
}

double curveLossKw(const std::vector<std::pair<double, double>>& curve, double outKw,
                   double ratingKw)
{
    if (curve.empty() || ratingKw <= 0.0)
        return 0.0;
    const double f = std::max(0.0, outKw) / ratingKw;
    if (f <= curve.front().first) {
        const auto [f0, e0] = curve.front();
        return ratingKw * f0 * (1.0 / e0 - 1.0);
    }
    return outKw * (1.0 / curveEfficiency(curve, f) - 1.0);
}

const model::PlantUnitSpec* plantUnit(const model::ResolvedScenario& r, model::PlantRole role)
{
    for (const auto& unit : r.plantUnits)
        if (unit.role == role)
            return &unit;
    return nullptr;
}

SubsystemDesign upsDesign(const model::ResolvedScenario& r, double loadKw)
{
    const model::PlantUnitSpec* unit = plantUnit(r, model::PlantRole::Ups);
    if (!unit)
        return {};
    return designSubsystem(loadKw, r.scenario.facility.designLoadFraction, *unit, 0.0,
                           r.scenario.facility.upsRedundancy);
}

RedundancyResult solveRedundancy(const model::ResolvedScenario& r, const PowerResult& p,
                                 const CoolingResult& c)
{
    RedundancyResult out;
    const auto& fac = r.scenario.facility;
    // The UPS carries the IT load at full clocks through the PDUs (powersolver.cpp sizes it the
    // same way); its loss is the facility's UPS loss curve at the load each module carries.
    out.ups = upsDesign(r, p.upsLoadKw);
    out.upsEfficiency = p.upsEfficiency;
    out.upsEfficiencyAtN = p.upsEfficiencyAtN;

    // Generators carry the whole facility in a utility outage: the peak hour of the year with
    // every node at its nameplate (power.design_facility_kw), as the utility contract is sized.
    if (const auto* gen = plantUnit(r, model::PlantRole::Generator))
        out.generators = designSubsystem(p.designFacilityKw, fac.designLoadFraction, *gen, 0.0,
                                         fac.generatorRedundancy);

    // Chillers: the mechanical cooling of the hour that needs most of it (the economizer's share
    // of each loop removed), at full clocks. Rated at their design condition: no extra headroom.
    const double fullClocks = p.itPowerKw > 0.0 ? p.itDesignPowerKw / p.itPowerKw : 1.0;
    double chillerHeatKw = 0.0;
    const Eigen::Index n =
        std::min(c.hourlyEconomizerShareAir.size(), c.hourlyEconomizerShareLiquid.size());
    for (Eigen::Index i = 0; i < n; ++i)
        chillerHeatKw =
            std::max(chillerHeatKw, (1.0 - c.hourlyEconomizerShareAir(i)) * c.airHeatKw +
                                        (1.0 - c.hourlyEconomizerShareLiquid(i)) * c.liquidHeatKw);
    if (n == 0)
        chillerHeatKw = c.airHeatKw + c.liquidHeatKw;
    if (const auto* chiller = plantUnit(r, model::PlantRole::Chiller))
        out.chillers = designSubsystem(chillerHeatKw * fullClocks, 1.0, *chiller, 0.0,
                                       r.scenario.cooling.chillerRedundancy);

    // CDUs: the liquid loop's heat at full clocks, in units of the system's CDU.
    if (const auto* cdu = plantUnit(r, model::PlantRole::Cdu); cdu && c.cduCapacityKw > 0.0)
        out.cdus = designSubsystem(c.liquidHeatKw * fullClocks, 1.0, *cdu, c.cduCapacityKw,
                                   r.scenario.cooling.cduRedundancy);

    // Availability: the critical load needs a source (the utility, or enough generators while
    // it is down), its UPS, and its cooling (chillers and CDUs), taken as independent in series
    // (IEEE Std 493-2007 ch. 2, series and parallel availability; docs/redundancy.md).
    // The source is lost for the share of each utility outage the generators do not carry:
    // those too few to start, and the rest of a long outage after too many running sets fail
    // (the outage's length exponential with the utility's mean repair time; assumption).
    double meanOutageHours = 0.0;
    if (const auto* utility = plantUnit(r, model::PlantRole::Utility)) {
        out.utilityAvailability = unitAvailability(*utility);
        meanOutageHours = utility->repairHours;
    }
    out.generatorUncoveredShare = generatorUncoveredShare(out.generators, meanOutageHours);
    out.sourceAvailability = 1.0 - (1.0 - out.utilityAvailability) * out.generatorUncoveredShare;
    out.powerAvailability = out.sourceAvailability * out.ups.availability;
    out.coolingAvailability = out.chillers.availability * out.cdus.availability;
    out.availability = out.powerAvailability * out.coolingAvailability;
    out.downtimeHoursPerYear = (1.0 - out.availability) * 8760.0;
    for (const SubsystemDesign* d : {&out.ups, &out.generators, &out.chillers, &out.cdus}) {
        out.capexUsd += d->capexUsd;
        out.redundancyCapexUsd += d->redundancyCapexUsd;
    }
    return out;
}

} // namespace dct::solvers
