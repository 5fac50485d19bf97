#include "dct/solvers/coolingtower.h"

#include "dct/solvers/siteyear.h"

#include <algorithm>
#include <cmath>
#include <mutex>
#include <utility>
#include <vector>

namespace dct::solvers {

namespace {

/** Water's specific heat, kJ/(kg K) (ASHRAE Handbook Fundamentals 2017, ch. 33). */
constexpr double kWaterCpKjPerKgK = 4.18;
/** The table's wet bulbs: -50 to 40 C every 0.25 K. */
constexpr double kTableFirstC = -50.0;
constexpr double kTableStepK = 0.25;
constexpr int kTableSize = 361;
/** Bisection steps: 2^-60 of the bracket, far below a millikelvin. */
constexpr int kBisectionSteps = 60;
constexpr double kMaximumNtu = 20.0;
/** Cooling Technology Institute rating wet bulb, 78 F. */
constexpr double kRatingWetBulbC = (78.0 - 32.0) / 1.8;
/** Water over air mass flow of the rated tower (assumption, coolingtower.h). */
constexpr double kRatingWaterToAir = 1.0;
constexpr double kSeaLevelKpa = 101.325;
/** Towers kept by the shared tables' cache before the oldest goes. */
constexpr std::size_t kMaximumTables = 64;

/** Enthalpy of saturated moist air at \a tC, kJ/kg dry air (siteyear.h's psychrometrics; the
 *  vapour pressure kept below the total). */
double saturatedEnthalpy(double tC, double pressureKpa)
{
    const double pw = std::min(saturationPressureKpa(tC), 0.99 * pressureKpa);
    return moistAirEnthalpyKjPerKg(tC, humidityRatio(pw, pressureKpa));
}

/**
 * Heat the tower can move, less the heat the water brings, per kg of dry air, with the water
 * leaving at \a waterOutC: Braun's air-side effectiveness times the enthalpy potential, minus
 * L/G x c_p x range. Rises with \a waterOutC (a warmer tower rejects more).
 */
double surplus(const CoolingTower& t, double wetBulbC, double waterOutC)
{
    const double waterInC = waterOutC + t.rangeK;
    const double hIn = saturatedEnthalpy(waterInC, t.pressureKpa);
    const double hOut = saturatedEnthalpy(waterOutC, t.pressureKpa);
    // The saturated air's equivalent specific heat over the water's range.
    const double cs = (hIn - hOut) / std::max(t.rangeK, 1e-6);
    const double mStar = cs / (t.waterToAir * kWaterCpKjPerKgK);
    double effectiveness = 0.0;
    if (std::fabs(1.0 - mStar) < 1e-9) {
        effectiveness = t.ntu / (1.0 + t.ntu);
    } else {
        const double e = std::exp(-t.ntu * (1.0 - mStar));
        effectiveness = (1.0 - e) / (1.0 - mStar * e);
    }
    // Entering air carries about the saturated enthalpy at its wet bulb.
    const double potential = hIn - saturatedEnthalpy(wetBulbC, t.pressureKpa);
    return effectiveness * potential - t.waterToAir * kWaterCpKjPerKgK * t.rangeK;
}

} // namespace

double towerApproachK(const CoolingTower& tower, double wetBulbC)
{
    if (!(tower.ntu > 0.0) || !(tower.rangeK > 0.0) || !(tower.waterToAir > 0.0))
        return 0.0;
    double lo = wetBulbC;
    double hi = wetBulbC + 80.0;
    for (int i = 0; i < kBisectionSteps; ++i) {
        const double mid = 0.5 * (lo + hi);
        (surplus(tower, wetBulbC, mid) > 0.0 ? hi : lo) = mid;
    }
    return 0.5 * (lo + hi) - wetBulbC;
}

CoolingTower sizeCoolingTower(double designWetBulbC, double rangeK, double approachK,
                              double waterToAir, double pressureKpa)
{
    // Sizing runs a bisection of bisections (some 10,000 exponentials): once per distinct rating,
    // shared (a plant's tower is sized in every evaluation).
    struct Sized
    {
        double designWetBulbC, rangeK, approachK, waterToAir, pressureKpa, ntu;
    };
    static std::mutex mutex;
    static std::vector<Sized> sized;
    {
        const std::lock_guard<std::mutex> lock(mutex);
        for (const Sized& s : sized)
            if (s.designWetBulbC == designWetBulbC && s.rangeK == rangeK &&
                s.approachK == approachK && s.waterToAir == waterToAir &&
                s.pressureKpa == pressureKpa)
                return CoolingTower{s.ntu, waterToAir, rangeK, pressureKpa};
    }
    CoolingTower t;
    t.rangeK = rangeK;
    t.waterToAir = waterToAir;
    t.pressureKpa = pressureKpa;
    double lo = 1e-3;
    double hi = kMaximumNtu;
    for (int i = 0; i < kBisectionSteps; ++i) {
        t.ntu = 0.5 * (lo + hi);
        // More transfer units leave the water closer to the wet bulb.
        (towerApproachK(t, designWetBulbC) > approachK ? lo : hi) = t.ntu;
    }
    t.ntu = 0.5 * (lo + hi);
    const std::lock_guard<std::mutex> lock(mutex);
    if (sized.size() >= kMaximumTables)
        sized.erase(sized.begin());
    sized.push_back({designWetBulbC, rangeK, approachK, waterToAir, pressureKpa, t.ntu});
    return t;
}

TowerApproachTable::TowerApproachTable(const CoolingTower& tower) : m_approachK(kTableSize)
{
    for (int i = 0; i < kTableSize; ++i)
        m_approachK(i) = towerApproachK(tower, kTableFirstC + kTableStepK * i);
}

double TowerApproachTable::operator()(double wetBulbC) const
{
    const double x = std::clamp((wetBulbC - kTableFirstC) / kTableStepK, 0.0,
                                static_cast<double>(kTableSize - 1));
    const int i = std::min(static_cast<int>(x), kTableSize - 2);
    const double f = x - i;
    return m_approachK(i) * (1.0 - f) + m_approachK(i + 1) * f;
}

Eigen::ArrayXd TowerApproachTable::operator()(const Eigen::ArrayXd& wetBulbC) const
{
    Eigen::ArrayXd out(wetBulbC.size());
    for (Eigen::Index k = 0; k < wetBulbC.size(); ++k)
        out(k) = (*this)(wetBulbC(k));
    return out;
}

double TowerApproachTable::wetBulbForWaterC(double waterC) const
{
    // Leaving water wet bulb + approach rises with the wet bulb (the approach falls more slowly
    // than the wet bulb rises): bisection over the table's wet bulbs.
    double lo = kTableFirstC;
    double hi = kTableFirstC + kTableStepK * (kTableSize - 1);
    if (lo + (*this)(lo) >= waterC)
        return lo;
    if (hi + (*this)(hi) <= waterC)
        return hi;
    for (int i = 0; i < kBisectionSteps; ++i) {
        const double mid = 0.5 * (lo + hi);
        (mid + (*this)(mid) > waterC ? hi : lo) = mid;
    }
    return 0.5 * (lo + hi);
}

std::shared_ptr<const TowerApproachTable> towerApproachTable(const CoolingTower& tower)
{
    static std::mutex mutex;
    static std::vector<std::pair<CoolingTower, std::shared_ptr<const TowerApproachTable>>> tables;
    const std::lock_guard<std::mutex> lock(mutex);
    for (const auto& [t, table] : tables)
        if (t == tower)
            return table;
    auto table = std::make_shared<const TowerApproachTable>(tower);
    if (tables.size() >= kMaximumTables)
        tables.erase(tables.begin());
    tables.emplace_back(tower, table);
    return table;
}

CoolingTower plantCoolingTower(const model::CoolingSystemSpec& system, double pressureKpa,
                               double load)
{
    CoolingTower t = sizeCoolingTower(kRatingWetBulbC, system.condenserWaterRangeC,
                                      system.towerDesignApproachC, kRatingWaterToAir, kSeaLevelKpa);
    t.pressureKpa = pressureKpa > 0.0 ? pressureKpa : kSeaLevelKpa;
    const double rounded = std::round(std::clamp(load, 1.0 / 64.0, 2.0) * 64.0) / 64.0;
    t.rangeK = system.condenserWaterRangeC * rounded;
    return t;
}

} // namespace dct::solvers
