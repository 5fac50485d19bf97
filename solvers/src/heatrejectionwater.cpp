#include "dct/solvers/heatrejectionwater.h"

#include "climatestatehours.h"
#include "dct/solvers/coolingtower.h"

#include <algorithm>
#include <limits>

namespace dct::solvers {

namespace {

/** Seconds of an hour over kJ: kW x h = 3600 kJ. */
constexpr double kKjPerKwh = 3600.0;
/** Specific heat of water, kJ/(kg K) (Fundamentals 2017, ch. 33). */
constexpr double kWaterCpKjPerKgK = 4.186;
/** Specific heat of dry air, kJ/(kg K) (Fundamentals 2017, ch. 1, eq. 32). */
constexpr double kAirCpKjPerKgK = 1.006;
/** Latent heat of vaporization of water near 25 C, kJ/kg (Fundamentals 2017, ch. 1, Table 3). */
constexpr double kLatentHeatKjPerKg = 2442.0;
/** Litres per kg of water (1 kg/L near ambient). */
constexpr double kLitresPerKg = 1.0;
/** Smallest enthalpy rise of the tower air, kJ/kg: below it the tower rejects no heat by air
 *  (guards the ratio when the exhaust would be no warmer than the entering air). */
constexpr double kMinimumEnthalpyRiseKjPerKg = 1.0;

} // namespace

double towerEvaporationLPerKwh(double dryBulbC, double dewPointC, double exhaustC,
                               double pressureKpa)
{
    Eigen::ArrayXd t(2);
    t << std::min(dewPointC, dryBulbC), exhaustC;
    const Eigen::ArrayXd w = humidityRatio(saturationPressureKpa(t), pressureKpa);
    Eigen::ArrayXd temperatures(2);
    temperatures << dryBulbC, exhaustC;
    const Eigen::ArrayXd h = moistAirEnthalpyKjPerKg(temperatures, w);
    const double rise = std::max(kMinimumEnthalpyRiseKjPerKg, h(1) - h(0));
    return std::max(0.0, w(1) - w(0)) / rise * kKjPerKwh * kLitresPerKg;
}

Eigen::ArrayXd dryCoolerAirC(const model::CoolingSystemSpec& sys, const SiteYear& year)
{
    // Adiabatic pre-cooling pads (or sprays) bring the air toward its wet bulb by their
    // saturation effectiveness: T = T_db - eff (T_db - T_wb) (ASHRAE Handbook HVAC Systems and
    // Equipment 2020, ch. 41, direct evaporative air coolers). They run only above the
    // threshold, where the dry cooler alone would need the chiller.
    if (sys.evaporativeHeatRejection || sys.adiabaticEffectiveness <= 0.0)
        return year.dryBulbC;
    // A grouped year carries the pads' outlet air of its states (the mean of their hours').
    if (year.outdoorC.size() == year.dryBulbC.size())
        return year.outdoorC;
    return (year.dryBulbC > sys.adiabaticThresholdC)
        .select(year.dryBulbC - sys.adiabaticEffectiveness * (year.dryBulbC - year.wetBulbC),
                year.dryBulbC);
}

HeatRejectionWater heatRejectionWater(const model::CoolingSystemSpec& sys, const SiteYear& year,
                                      const Eigen::ArrayXd& rejectedKw, double pressureKpa,
                                      double towerLoad, const Eigen::ArrayXd* leavingWaterC,
                                      double loopsKw)
{
    HeatRejectionWater out;
    const Eigen::Index n = rejectedKw.size();
    out.evaporationL = Eigen::ArrayXd::Zero(n);
    out.blowdownL = Eigen::ArrayXd::Zero(n);
    out.driftL = Eigen::ArrayXd::Zero(n);
    const Eigen::ArrayXd kwh = rejectedKw * year.hours;
    // The towers' exhaust air of each entry (humidity ratio, enthalpy) and its enthalpy rise over
    // the entering air, for the year's sums and the peak hour alike.
    Eigen::ArrayXd exhaustW;
    Eigen::ArrayXd exhaustEnthalpy;
    Eigen::ArrayXd rise;
    if (sys.evaporativeHeatRejection) {
        // Cooling tower. The air leaves near saturation at about the mean water temperature in
        // the fill: condenser water leaves the tower at the wet bulb plus its approach
        // (coolingtower.h, larger at colder wet bulbs) and comes
        // back one range warmer, so the exhaust is taken saturated at T_wb + approach + range/2
        // (assumption; ASHRAE HVAC Systems and Equipment 2020, ch. 40: exhaust air is nearly
        // saturated). Energy and water balances on the air give the water evaporated per heat
        // rejected, (W_out - W_in) / (h_out - h_in): close to all-latent (about 1.5 L/kWh) in
        // summer, less in winter when cold air also takes sensible heat.
        const CoolingTower tower = plantCoolingTower(sys, pressureKpa, towerLoad);
        const bool hourly = leavingWaterC && leavingWaterC->size() == n && loopsKw > 0.0;
        const Eigen::ArrayXd exhaustC =
            hourly
                ? (*leavingWaterC + 0.5 * tower.rangeK * rejectedKw / loopsKw).eval()
                : (year.wetBulbC + (*towerApproachTable(tower))(year.wetBulbC) + 0.5 * tower.rangeK)
                      .eval();
        exhaustW = humidityRatio(saturationPressureKpa(exhaustC), pressureKpa);
        exhaustEnthalpy = moistAirEnthalpyKjPerKg(exhaustC, exhaustW);
        rise = (exhaustEnthalpy - year.enthalpyKjPerKg).max(kMinimumEnthalpyRiseKjPerKg);
        out.evaporationL =
            (exhaustW - year.humidityRatio).max(0.0) / rise * kKjPerKwh * kLitresPerKg * kwh;
        // Blowdown holds the dissolved solids at the cycles of concentration C: make-up M = E +
        // B + D with M/B = C gives B = E / (C - 1) (drift counted as part of the purge,
        // neglected here) (US DOE FEMP, "Cooling Towers: Understanding Key Components of Cooling
        // Towers and How to Improve Water Efficiency", 2011).
        if (sys.cyclesOfConcentration > 1.0)
            out.blowdownL = out.evaporationL / (sys.cyclesOfConcentration - 1.0);
        // Drift: a share of the circulating water, the design flow: it carries the loops' heat
        // over the towers' range at their load, and the compressors' heat over a range as much
        // wider (above), so it is the same every hour.
        if (tower.rangeK > 0.0)
            out.driftL = sys.driftFraction * (hourly ? (loopsKw * year.hours).eval() : kwh) *
                         kKjPerKwh / (kWaterCpKjPerKgK * tower.rangeK) * kLitresPerKg;
    } else if (sys.adiabaticEffectiveness > 0.0 && sys.dryCoolerAirRiseC > 0.0) {
        // Adiabatic assist: the air flow of the dry cooler, m = Q / (cp dT_air), picks up the
        // water that cools it by eff (T_db - T_wb) at constant enthalpy: cp dT / h_fg per kg.
        const Eigen::ArrayXd coolingK = year.dryBulbC - dryCoolerAirC(sys, year);
        out.evaporationL = kwh * kKjPerKwh / (kAirCpKjPerKgK * sys.dryCoolerAirRiseC) *
                           kAirCpKjPerKgK * coolingK / kLatentHeatKjPerKg * kLitresPerKg;
    }
    out.totalL = out.evaporationL + out.blowdownL + out.driftL;
    if (!year.source) {
        out.peakLPerHour = n > 0 ? (out.totalL / year.hours).maxCoeff() : 0.0;
        for (Eigen::Index i = 0; i < n; ++i) {
            const int m = year.month(i);
            if (m >= 0)
                out.monthlyL[static_cast<std::size_t>(m)] += out.totalL(i);
            else
                for (double& v : out.monthlyL)
                    v += out.totalL(i) / 12.0;
        }
        return out;
    }
    // A grouped year (climateStates()): the water of a state is linear in its hours' humidity
    // ratio (towers) or dry bulb (pads), so its months take their share from the month sums, and
    // its hour of most water is its driest (towers) or warmest (pads).
    const Eigen::ArrayXXd& hoursByMonth = year.monthHours;
    Eigen::ArrayXXd evaporation = Eigen::ArrayXXd::Zero(n, 12);
    // Litres per hour of each state at an hour's own air: per unit of (W_out - W) over the
    // enthalpy rise (towers), or per K of pad cooling (pads).
    Eigen::ArrayXd towerLPerHour = Eigen::ArrayXd::Zero(n);
    Eigen::ArrayXd padLPerK = Eigen::ArrayXd::Zero(n);
    if (sys.evaporativeHeatRejection) {
        const Eigen::ArrayXd perW = rejectedKw / rise * kKjPerKwh * kLitresPerKg;
        for (Eigen::Index m = 0; m < 12; ++m)
            evaporation.col(m) =
                perW * (hoursByMonth.col(m) * exhaustW - year.monthHumidityRatio.col(m)).max(0.0);
        towerLPerHour = rejectedKw * kKjPerKwh * kLitresPerKg;
    } else if (sys.adiabaticEffectiveness > 0.0 && sys.dryCoolerAirRiseC > 0.0) {
        const Eigen::ArrayXd perK = rejectedKw * kKjPerKwh /
                                    (kAirCpKjPerKgK * sys.dryCoolerAirRiseC) * kAirCpKjPerKgK /
                                    kLatentHeatKjPerKg * kLitresPerKg;
        const Eigen::ArrayXd sprayed = (out.evaporationL > 0.0).cast<double>();
        for (Eigen::Index m = 0; m < 12; ++m)
            evaporation.col(m) =
                sprayed * perK * (year.monthDryBulbC.col(m) - hoursByMonth.col(m) * year.outdoorC);
        padLPerK = sprayed * perK;
    }
    const double blowdown = sys.evaporativeHeatRejection && sys.cyclesOfConcentration > 1.0
                                ? 1.0 / (sys.cyclesOfConcentration - 1.0)
                                : 0.0;
    const Eigen::ArrayXd driftPerHour = out.driftL / year.hours;
    for (Eigen::Index m = 0; m < 12; ++m)
        out.monthlyL[static_cast<std::size_t>(m)] =
            ((1.0 + blowdown) * evaporation.col(m) + driftPerHour * hoursByMonth.col(m)).sum();
    // The peak hour at its own air (its humidity ratio and enthalpy, or its dry and wet bulb),
    // not its state's mean: each hour with its state's plant. A state's hours draw at most what
    // its extreme hour would (towers: the highest enthalpy and the lowest humidity ratio of its
    // hours; pads: the largest dry-bulb depression), the same expression at those values, which
    // rounds no lower than any of its hours'. So the state of the highest bound is run first,
    // then every state whose bound beats the peak found; the others cannot move it. The peak is
    // a maximum (taken in any order), so it comes out bit for bit as a pass over every hour
    // (which a grouped year without its state hours still takes). The passes run on the arrays'
    // data and a local maximum, so that the compiler keeps them in registers.
    const SiteYear& hourly = *year.source;
    const ClimateStateHours* stateHours = climateStateHours(year);
    const double* drift = driftPerHour.data();
    const double purge = 1.0 + blowdown;
    Eigen::ArrayXd bound(stateHours ? n : 0);
    double peak = 0.0;
    auto runStates = [&](auto&& hourL) {
        if (!stateHours) {
            const int* entry = year.hourEntry.data();
            for (Eigen::Index i = 0; i < year.hourEntry.size(); ++i) {
                const int state = entry[i];
                peak = std::max(peak, purge * hourL(state, static_cast<int>(i)) + drift[state]);
            }
            return;
        }
        // The state of the highest bound first (its hours most likely hold the peak), then the
        // states that could still beat it. A NaN bound never compares below the peak: run.
        const int* hours = stateHours->hours.data();
        const int* begin = stateHours->begin.data();
        Eigen::Index top = 0;
        for (Eigen::Index e = 1; e < n; ++e)
            if (bound(e) > bound(top))
                top = e;
        auto run = [&](Eigen::Index e) {
            const auto state = static_cast<int>(e);
            for (int j = begin[e]; j < begin[e + 1]; ++j)
                peak = std::max(peak, purge * hourL(state, hours[j]) + drift[state]);
        };
        if (n > 0)
            run(top);
        for (Eigen::Index e = 0; e < n; ++e)
            if (e != top && !(bound(e) <= peak))
                run(e);
    };
    if (sys.evaporativeHeatRejection) {
        const double* towerL = towerLPerHour.data();
        const double* exhaustH = exhaustEnthalpy.data();
        const double* exhaustWater = exhaustW.data();
        const double* hourH = hourly.enthalpyKjPerKg.data();
        const double* hourW = hourly.humidityRatio.data();
        auto towerHourL = [&](int state, double h, double w) {
            const double hourRise = std::max(kMinimumEnthalpyRiseKjPerKg, exhaustH[state] - h);
            return towerL[state] / hourRise * std::max(0.0, exhaustWater[state] - w);
        };
        for (Eigen::Index e = 0; e < bound.size(); ++e) {
            const auto state = static_cast<int>(e);
            // Monotone in h and w only while the heat is not negative; else no bound.
            bound(e) = towerL[state] >= 0.0
                           ? purge * towerHourL(state, stateHours->maxEnthalpyKjPerKg(e),
                                                year.minHumidityRatio(e)) +
                                 drift[state]
                           : std::numeric_limits<double>::infinity();
        }
        runStates([&](int state, int hour) { return towerHourL(state, hourH[hour], hourW[hour]); });
    } else {
        const double* padL = padLPerK.data();
        const double* dryBulb = hourly.dryBulbC.data();
        const double* wetBulb = hourly.wetBulbC.data();
        const double eff = sys.adiabaticEffectiveness;
        for (Eigen::Index e = 0; e < bound.size(); ++e) {
            const auto state = static_cast<int>(e);
            // padL > 0 only with pads (eff > 0): monotone in the depression.
            const double evaporationL =
                padL[state] > 0.0 ? padL[state] * eff * std::max(0.0, stateHours->maxDepressionK(e))
                                  : 0.0;
            bound(e) = purge * evaporationL + drift[state];
        }
        runStates([&](int state, int hour) {
            double evaporationL = 0.0;
            if (padL[state] > 0.0 && dryBulb[hour] > sys.adiabaticThresholdC)
                evaporationL = padL[state] * eff * (dryBulb[hour] - wetBulb[hour]);
            return evaporationL;
        });
    }
    out.peakLPerHour = peak;
    return out;
}

} // namespace dct::solvers
