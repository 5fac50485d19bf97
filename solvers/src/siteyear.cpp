#include "dct/solvers/siteyear.h"

#include "climatestatehours.h"

#include <algorithm>
#include <array>
#include <atomic>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <numeric>
#include <random>
#include <string>
#include <tuple>
#include <vector>

namespace dct::solvers {

namespace {

/** Days of the months of a 365-day year (8,760 h). */
constexpr std::array<int, 12> kMonthDays = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
constexpr int kDaysPerYear = 365;
constexpr int kHoursPerDay = 24;

/**
 * Fraction of the daily range below the day's maximum, hour by hour (hour 1 = 00:00-01:00 local
 * solar time ... hour 24): ASHRAE Handbook Fundamentals 2017, ch. 14, Table 6 (design day
 * temperature profile, derived from hourly observations; minimum near 05:00, maximum at 15:00).
 * T(h) = T_max - f(h) (T_max - T_min).
 */
constexpr std::array<double, 24> kDiurnalFraction = {
    0.87, 0.92, 0.96, 0.99, 1.00, 0.98, 0.93, 0.84, 0.71, 0.56, 0.39, 0.23,
    0.11, 0.03, 0.00, 0.03, 0.10, 0.21, 0.34, 0.47, 0.58, 0.68, 0.76, 0.82};

/**
 * Lag-one autocorrelation of the daily temperature anomaly: the day-to-day variation is a
 * first-order autoregressive series, the usual model of daily temperature anomalies (Wilks,
 * "Statistical Methods in the Atmospheric Sciences", 3rd ed., 2011, sec. 9.3.1). Assumption:
 * 0.7, within the 0.6-0.8 lag-one autocorrelations of daily mean temperature anomalies at
 * mid-latitude stations; the calibration to the design values sets the spread, not this.
 */
constexpr double kAnomalyAutocorrelation = 0.7;
/** Share of the year the design values stand for: 0.4 % (ASHRAE Fundamentals ch. 14). */
constexpr double kDesignShare = 0.004;
/** Largest anomaly scale the calibration tries, in K per standard deviation. */
constexpr double kMaxScaleK = 20.0;
/** Dew-point change per K of daily anomaly the calibration may take, either way. */
constexpr double kMaxDewCoupling = 1.5;
constexpr int kBisections = 40;

/** A minimal generator of standard normal numbers fixed by the C++ standard's mt19937_64 (the
 *  standard library's normal_distribution differs between implementations). Box-Muller. */
class NormalSeries
{
public:
    explicit NormalSeries(std::uint64_t seed) : m_engine(seed) {}
    double next()
    {
        const double u1 = uniform();
        const double u2 = uniform();
        return std::sqrt(-2.0 * std::log(u1)) * std::cos(2.0 * 3.14159265358979323846 * u2);
    }

private:
    double uniform()
    {
        // 53 random bits in (0, 1].
        return (static_cast<double>(m_engine() >> 11) + 1.0) * 0x1.0p-53;
    }
    std::mt19937_64 m_engine;
};

/** Month of each day of the year, and each month's first day. */
struct Calendar
{
    std::array<int, kDaysPerYear> month{};
    std::array<int, 12> firstDay{};
    Calendar()
    {
        int day = 0;
        for (int m = 0; m < 12; ++m) {
            firstDay[static_cast<std::size_t>(m)] = day;
            for (int k = 0; k < kMonthDays[static_cast<std::size_t>(m)]; ++k)
                month[static_cast<std::size_t>(day++)] = m;
        }
    }
};

const Calendar& calendar()
{
    static const Calendar c;
    return c;
}

/**
 * Daily values of a monthly normal: linear between mid-month points (cyclic), then shifted month
 * by month so that each month's mean is the normal exactly.
 */
std::array<double, kDaysPerYear> dailyFromMonthly(const std::array<double, 12>& monthly)
{
    const Calendar& cal = calendar();
    std::array<double, 12> middle{};
    for (std::size_t m = 0; m < 12; ++m)
        middle[m] = cal.firstDay[m] + 0.5 * kMonthDays[m];
    std::array<double, kDaysPerYear> out{};
    for (int d = 0; d < kDaysPerYear; ++d) {
        const double t = d + 0.5;
        // The mid-month point at or before t, cyclically.
        int before = 11;
        for (int m = 0; m < 12; ++m)
            if (middle[static_cast<std::size_t>(m)] <= t)
                before = m;
        const int after = (before + 1) % 12;
        double t0 = middle[static_cast<std::size_t>(before)];
        double t1 = middle[static_cast<std::size_t>(after)];
        double tt = t;
        if (t1 <= t0)
            t1 += kDaysPerYear;
        if (tt < t0)
            tt += kDaysPerYear;
        const double w = (tt - t0) / (t1 - t0);
        out[static_cast<std::size_t>(d)] = (1.0 - w) * monthly[static_cast<std::size_t>(before)] +
                                           w * monthly[static_cast<std::size_t>(after)];
    }
    for (std::size_t m = 0; m < 12; ++m) {
        const auto first = static_cast<std::size_t>(cal.firstDay[m]);
        const auto days = static_cast<std::size_t>(kMonthDays[m]);
        double sum = 0.0;
        for (std::size_t d = first; d < first + days; ++d)
            sum += out[d];
        const double shift = monthly[m] - sum / static_cast<double>(days);
        for (std::size_t d = first; d < first + days; ++d)
            out[d] += shift;
    }
    return out;
}

/** Value exceeded by \a share of the weighted year (descending) or undercut (ascending). */
double weightedPercentile(const Eigen::ArrayXd& values, const Eigen::ArrayXd& weights, double share,
                          bool fromTop)
{
    std::vector<Eigen::Index> order(static_cast<std::size_t>(values.size()));
    std::iota(order.begin(), order.end(), Eigen::Index{0});
    std::sort(order.begin(), order.end(), [&](Eigen::Index a, Eigen::Index b) {
        return fromTop ? values(a) > values(b) : values(a) < values(b);
    });
    const double limit = share * weights.sum();
    double accumulated = 0.0;
    for (Eigen::Index i : order) {
        accumulated += weights(i);
        if (accumulated > limit)
            return values(i);
    }
    return order.empty() ? 0.0 : values(order.back());
}

/** The dry-bulb value with \a rank hours above it (0.4 %: 35 of 8,760), by partial sort. */
double rankFromTop(std::vector<double>& scratch, std::size_t rank)
{
    std::nth_element(scratch.begin(), scratch.begin() + static_cast<std::ptrdiff_t>(rank),
                     scratch.end(), std::greater<>());
    return scratch[rank];
}

/** The synthesis's fixed parts: daily normals and the seeded standard anomaly series. */
struct Synthesis
{
    std::array<double, kDaysPerYear> tmax{};
    std::array<double, kDaysPerYear> tmin{};
    std::array<double, kDaysPerYear> dew{};
    std::array<double, kDaysPerYear> z{};
};

/**
 * Daily anomalies in K: the standard series times a spread that moves with the season, from
 * \a coldScaleK on the coldest day of the normals to \a hotScaleK on the warmest (linear in the
 * day's normal mean temperature), then re-centred to zero mean in every month.
 */
std::array<double, kDaysPerYear> anomalies(const Synthesis& s, double hotScaleK, double coldScaleK)
{
    const Calendar& cal = calendar();
    double coldest = s.tmax[0] + s.tmin[0];
    double warmest = coldest;
    for (std::size_t d = 0; d < kDaysPerYear; ++d) {
        coldest = std::min(coldest, s.tmax[d] + s.tmin[d]);
        warmest = std::max(warmest, s.tmax[d] + s.tmin[d]);
    }
    std::array<double, kDaysPerYear> a{};
    for (std::size_t d = 0; d < a.size(); ++d) {
        const double w =
            warmest > coldest ? (s.tmax[d] + s.tmin[d] - coldest) / (warmest - coldest) : 0.5;
        a[d] = s.z[d] * (w * hotScaleK + (1.0 - w) * coldScaleK);
    }
    for (std::size_t m = 0; m < 12; ++m) {
        const auto first = static_cast<std::size_t>(cal.firstDay[m]);
        const auto days = static_cast<std::size_t>(kMonthDays[m]);
        double sum = 0.0;
        for (std::size_t d = first; d < first + days; ++d)
            sum += a[d];
        const double mean = sum / static_cast<double>(days);
        for (std::size_t d = first; d < first + days; ++d)
            a[d] -= mean;
    }
    return a;
}

void fillDryBulb(const Synthesis& s, const std::array<double, kDaysPerYear>& a,
                 std::vector<double>& out)
{
    out.resize(kHoursPerYear);
    for (std::size_t d = 0; d < kDaysPerYear; ++d) {
        const double high = s.tmax[d] + a[d];
        const double range = s.tmax[d] - s.tmin[d];
        for (std::size_t h = 0; h < kHoursPerDay; ++h)
            out[d * kHoursPerDay + h] = high - kDiurnalFraction[h] * range;
    }
}

/** The two tails of the dry bulb: 0.4 % from the top and from the bottom. */
std::pair<double, double> tails(const Synthesis& s, double hotScaleK, double coldScaleK,
                                std::vector<double>& scratch)
{
    fillDryBulb(s, anomalies(s, hotScaleK, coldScaleK), scratch);
    const auto rank = static_cast<std::size_t>(kDesignShare * kHoursPerYear);
    const double hot = rankFromTop(scratch, rank);
    for (double& v : scratch)
        v = -v;
    const double cold = -rankFromTop(scratch, rank);
    return {hot, cold};
}

/** Bisection of an increasing \a f on [lo, hi] for \a target; the bound when out of reach. */
template <class F> double solveIncreasing(F f, double lo, double hi, double target)
{
    if (f(lo) >= target)
        return lo;
    if (f(hi) <= target)
        return hi;
    for (int i = 0; i < kBisections; ++i) {
        const double mid = 0.5 * (lo + hi);
        if (f(mid) < target)
            lo = mid;
        else
            hi = mid;
    }
    return 0.5 * (lo + hi);
}

void fillSummary(SiteYear& y)
{
    y.humidityRatio =
        humidityRatio(saturationPressureKpa(y.dewPointC.min(y.dryBulbC).eval()), y.pressureKpa);
    y.enthalpyKjPerKg = moistAirEnthalpyKjPerKg(y.dryBulbC, y.humidityRatio);
    y.totalHours = y.hours.sum();
    if (y.dryBulbC.size() == 0)
        return;
    y.dryBulbC.maxCoeff(&y.hottestIndex);
    y.meanDryBulbC = (y.dryBulbC * y.hours).sum() / y.totalHours;
    y.maxWetBulbC = y.wetBulbC.maxCoeff();
    y.design04DryBulbC = weightedPercentile(y.dryBulbC, y.hours, kDesignShare, true);
    y.heating996DryBulbC = weightedPercentile(y.dryBulbC, y.hours, kDesignShare, false);
    const auto hot = (y.dryBulbC >= y.design04DryBulbC).cast<double>() * y.hours;
    y.design04WetBulbC = hot.sum() > 0.0 ? (hot * y.wetBulbC).sum() / hot.sum() : 0.0;
}

} // namespace

double saturationPressureKpa(double tC)
{
    // Alduchov and Eskridge 1996, the Magnus form used by scripts/climate_bins.py too.
    if (tC >= 0.0)
        return 0.61094 * std::exp(17.625 * tC / (tC + 243.04));
    return 0.61121 * std::exp(22.587 * tC / (tC + 273.86));
}

double humidityRatio(double pwKpa, double pKpa)
{
    return 0.621945 * pwKpa / (pKpa - pwKpa);
}

double moistAirEnthalpyKjPerKg(double tC, double w)
{
    return 1.006 * tC + w * (2501.0 + 1.86 * tC);
}

Eigen::ArrayXd saturationPressureKpa(const Eigen::ArrayXd& tC)
{
    // Alduchov and Eskridge 1996, as saturationPressureKpa(double).
    return (tC >= 0.0).select(0.61094 * (17.625 * tC / (tC + 243.04)).exp(),
                              0.61121 * (22.587 * tC / (tC + 273.86)).exp());
}

Eigen::ArrayXd humidityRatio(const Eigen::ArrayXd& pwKpa, double pKpa)
{
    return 0.621945 * pwKpa / (pKpa - pwKpa);
}

Eigen::ArrayXd moistAirEnthalpyKjPerKg(const Eigen::ArrayXd& tC, const Eigen::ArrayXd& w)
{
    return 1.006 * tC + w * (2501.0 + 1.86 * tC);
}

double stationPressureKpa(double elevationM)
{
    return 101.325 * std::pow(1.0 - 2.25577e-5 * elevationM, 5.2559);
}

double wetBulbC(double dryBulbC, double dewPointC, double pressureKpa)
{
    // Psychrometric equation (ASHRAE Fundamentals 2017, ch. 1, eq. 33 above freezing, eq. 35
    // below): the humidity ratio W* that a wet bulb twb implies rises with twb; the wet bulb is
    // the twb whose W* equals the air's W. It lies between the dew point and the dry bulb.
    const double dew = std::min(dewPointC, dryBulbC);
    const double w = humidityRatio(saturationPressureKpa(dew), pressureKpa);
    auto wOf = [&](double twb) {
        const double ws = humidityRatio(saturationPressureKpa(twb), pressureKpa);
        if (twb >= 0.0)
            return ((2501.0 - 2.326 * twb) * ws - 1.006 * (dryBulbC - twb)) /
                   (2501.0 + 1.86 * dryBulbC - 4.186 * twb);
        return ((2830.0 - 0.24 * twb) * ws - 1.006 * (dryBulbC - twb)) /
               (2830.0 + 1.86 * dryBulbC - 2.1 * twb);
    };
    double lo = dew - 1.0;
    double hi = dryBulbC;
    for (int i = 0; i < 32; ++i) {
        const double mid = 0.5 * (lo + hi);
        if (wOf(mid) > w)
            hi = mid;
        else
            lo = mid;
    }
    return 0.5 * (lo + hi);
}

SiteYear synthesizeSiteYear(const model::ClimateNormals& n, double elevationM)
{
    // docs/siteyear.md: daily normals between mid-month points, a seeded AR(1) day-to-day
    // anomaly scaled on its warm and cold sides so that the year reproduces the 0.4 % cooling
    // and 99.6 % heating design dry bulbs, the ASHRAE diurnal profile within each day, and a
    // dew point that follows the anomaly so that the hottest hours carry the design wet bulb.
    Synthesis s;
    s.tmax = dailyFromMonthly(n.tmaxC);
    s.tmin = dailyFromMonthly(n.tminC);
    s.dew = dailyFromMonthly(n.dewPointC);
    for (std::size_t d = 0; d < kDaysPerYear; ++d)
        s.tmin[d] = std::min(s.tmin[d], s.tmax[d]);
    NormalSeries normal(static_cast<std::uint64_t>(n.seed));
    const double innovation = std::sqrt(1.0 - kAnomalyAutocorrelation * kAnomalyAutocorrelation);
    s.z[0] = normal.next();
    for (std::size_t d = 1; d < kDaysPerYear; ++d)
        s.z[d] = kAnomalyAutocorrelation * s.z[d - 1] + innovation * normal.next();

    // Calibration: the hot tail rises with the warm season's spread and the cold tail with the
    // cold season's; the shoulder months couple them weakly, so a few alternating rounds settle
    // both.
    std::vector<double> scratch;
    double hotScale = 0.0;
    double coldScale = 0.0;
    for (int round = 0; round < 4; ++round) {
        hotScale = solveIncreasing([&](double k) { return tails(s, k, coldScale, scratch).first; },
                                   0.0, kMaxScaleK, n.designDryBulbC);
        coldScale =
            solveIncreasing([&](double k) { return -tails(s, hotScale, k, scratch).second; }, 0.0,
                            kMaxScaleK, -n.heatingDryBulbC);
    }
    const auto a = anomalies(s, hotScale, coldScale);
    fillDryBulb(s, a, scratch);

    SiteYear y;
    y.hourly = true;
    y.pressureKpa = stationPressureKpa(elevationM);
    y.hotScaleK = hotScale;
    y.coldScaleK = coldScale;
    y.dryBulbC = Eigen::Map<const Eigen::ArrayXd>(scratch.data(), kHoursPerYear);
    y.hours = Eigen::ArrayXd::Ones(kHoursPerYear);
    y.month.resize(kHoursPerYear);
    y.hourOfDay.resize(kHoursPerYear);
    const Calendar& cal = calendar();
    for (int i = 0; i < kHoursPerYear; ++i) {
        y.month(i) = cal.month[static_cast<std::size_t>(i / kHoursPerDay)];
        y.hourOfDay(i) = i % kHoursPerDay;
    }

    // Dew point: the day's normal plus k times its temperature anomaly, held through the day
    // and capped at the dry bulb. k is set so that the 0.4 % hours average the design
    // coincident wet bulb.
    const double pressure = stationPressureKpa(elevationM);
    const auto rank = static_cast<std::size_t>(kDesignShare * kHoursPerYear);
    std::vector<double> sorted = scratch;
    const double designDry = rankFromTop(sorted, rank);
    std::vector<int> designHours;
    for (int i = 0; i < kHoursPerYear; ++i)
        if (scratch[static_cast<std::size_t>(i)] >= designDry)
            designHours.push_back(i);
    auto dewAt = [&](int i, double k) {
        const auto d = static_cast<std::size_t>(i / kHoursPerDay);
        return std::min(s.dew[d] + k * a[d], scratch[static_cast<std::size_t>(i)]);
    };
    auto designWet = [&](double k) {
        double sum = 0.0;
        for (int i : designHours)
            sum += wetBulbC(scratch[static_cast<std::size_t>(i)], dewAt(i, k), pressure);
        return sum / static_cast<double>(designHours.size());
    };
    y.dewCoupling = solveIncreasing(designWet, -kMaxDewCoupling, kMaxDewCoupling, n.designWetBulbC);
    y.dewPointC.resize(kHoursPerYear);
    y.wetBulbC.resize(kHoursPerYear);
    for (int i = 0; i < kHoursPerYear; ++i) {
        y.dewPointC(i) = dewAt(i, y.dewCoupling);
        y.wetBulbC(i) = wetBulbC(y.dryBulbC(i), y.dewPointC(i), pressure);
    }
    fillSummary(y);
    return y;
}

namespace {

SiteYear yearFromBins(const std::vector<model::ClimateBin>& bins)
{
    SiteYear y;
    const auto n = static_cast<Eigen::Index>(bins.size());
    y.dryBulbC.resize(n);
    y.wetBulbC.resize(n);
    y.hours.resize(n);
    for (Eigen::Index i = 0; i < n; ++i) {
        const auto& b = bins[static_cast<std::size_t>(i)];
        y.dryBulbC(i) = b.dryBulbC;
        y.wetBulbC(i) = b.wetBulbC;
        y.hours(i) = b.hours;
    }
    y.dewPointC = y.wetBulbC;
    y.month = Eigen::ArrayXi::Constant(n, -1);
    y.hourOfDay = Eigen::ArrayXi::Constant(n, -1);
    fillSummary(y);
    return y;
}

/** The bytes of what the synthesis depends on: the cache key. */
std::string normalsKey(const model::ClimateNormals& n, double elevationM)
{
    std::string key;
    auto append = [&](const void* p, std::size_t size) {
        key.append(static_cast<const char*>(p), size);
    };
    append(n.tmaxC.data(), sizeof n.tmaxC);
    append(n.tminC.data(), sizeof n.tminC);
    append(n.dewPointC.data(), sizeof n.dewPointC);
    append(&n.designDryBulbC, sizeof(double));
    append(&n.designWetBulbC, sizeof(double));
    append(&n.heatingDryBulbC, sizeof(double));
    append(&n.seed, sizeof(int));
    append(&elevationM, sizeof(double));
    return key;
}

} // namespace

std::shared_ptr<const SiteYear> siteYear(const model::SiteSpec& site, double placeholderDryBulbC,
                                         double placeholderWetBulbC)
{
    if (site.climateNormals.present) {
        // The synthesis costs milliseconds; an evaluation must cost microseconds, so each
        // distinct set of normals is synthesized once per process and shared.
        static std::mutex mutex;
        static std::map<std::string, std::shared_ptr<const SiteYear>> cache;
        std::string key = normalsKey(site.climateNormals, site.elevationM);
        {
            const std::lock_guard<std::mutex> lock(mutex);
            const auto it = cache.find(key);
            if (it != cache.end())
                return it->second;
        }
        auto year = std::make_shared<const SiteYear>(
            synthesizeSiteYear(site.climateNormals, site.elevationM));
        const std::lock_guard<std::mutex> lock(mutex);
        return cache.emplace(std::move(key), std::move(year)).first->second;
    }
    double binHours = 0.0;
    for (const auto& b : site.climateBins)
        binHours += b.hours;
    if (!site.climateBins.empty() && binHours > 0.0)
        return std::make_shared<const SiteYear>(yearFromBins(site.climateBins));
    return std::make_shared<const SiteYear>(yearFromBins({model::ClimateBin{
        placeholderDryBulbC, placeholderWetBulbC, static_cast<double>(kHoursPerYear)}}));
}

Eigen::ArrayXXd entryMonthHours(const SiteYear& year)
{
    if (year.monthHours.rows() == year.hours.size() && year.monthHours.cols() == 12)
        return year.monthHours;
    const Eigen::Index n = year.hours.size();
    Eigen::ArrayXXd out = Eigen::ArrayXXd::Zero(n, 12);
    for (Eigen::Index i = 0; i < n; ++i) {
        const int m = i < year.month.size() ? year.month(i) : -1;
        if (m >= 0 && m < 12)
            out(i, m) = year.hours(i);
        else
            out.row(i) = year.hours(i) / 12.0;
    }
    return out;
}

bool ClimateKey::operator<(const ClimateKey& o) const
{
    return std::tie(wet, adiabaticEffectiveness, adiabaticThresholdC) <
           std::tie(o.wet, o.adiabaticEffectiveness, o.adiabaticThresholdC);
}

namespace {

SiteYear groupStates(const std::shared_ptr<const SiteYear>& source, const ClimateKey& key,
                     ClimateStateHours& stateHours)
{
    const SiteYear& year = *source;
    const Eigen::Index hoursN = year.hours.size();
    // The temperature the plant sees, hour by hour (dryCoolerAirC() for the pads).
    Eigen::ArrayXd seen = key.wet ? year.wetBulbC : year.dryBulbC;
    if (!key.wet && key.adiabaticEffectiveness > 0.0)
        seen = (year.dryBulbC > key.adiabaticThresholdC)
                   .select(year.dryBulbC -
                               key.adiabaticEffectiveness * (year.dryBulbC - year.wetBulbC),
                           year.dryBulbC);
    // The lattice point of each hour; with pads, the hours they run in apart from the others
    // (their water comes from the pads, the others' not).
    const bool pads = !key.wet && key.adiabaticEffectiveness > 0.0;
    auto lattice = [&](Eigen::Index i) {
        const long long k = std::llround(seen(i) / kClimateStateStepK);
        return pads ? 2 * k + (year.dryBulbC(i) > key.adiabaticThresholdC ? 1 : 0) : k;
    };
    std::map<long long, Eigen::Index> index;
    Eigen::ArrayXi hourEntry(hoursN);
    for (Eigen::Index i = 0; i < hoursN; ++i)
        index.emplace(lattice(i), 0);
    Eigen::Index n = 0;
    for (auto& kv : index)
        kv.second = n++;
    SiteYear out;
    out.hourly = false;
    out.source = source;
    out.hours = Eigen::ArrayXd::Zero(n);
    out.dryBulbC = Eigen::ArrayXd::Zero(n);
    out.wetBulbC = Eigen::ArrayXd::Zero(n);
    out.dewPointC = Eigen::ArrayXd::Zero(n);
    out.humidityRatio = Eigen::ArrayXd::Zero(n);
    out.enthalpyKjPerKg = Eigen::ArrayXd::Zero(n);
    out.outdoorC = Eigen::ArrayXd::Zero(n);
    out.monthHours = Eigen::ArrayXXd::Zero(n, 12);
    out.monthHumidityRatio = Eigen::ArrayXXd::Zero(n, 12);
    out.monthDryBulbC = Eigen::ArrayXXd::Zero(n, 12);
    out.minHumidityRatio = Eigen::ArrayXd::Constant(n, 1e300);
    out.maxDryBulbC = Eigen::ArrayXd::Constant(n, -1e300);
    stateHours.maxEnthalpyKjPerKg = Eigen::ArrayXd::Constant(n, -1e300);
    stateHours.maxDepressionK = Eigen::ArrayXd::Constant(n, -1e300);
    stateHours.begin = Eigen::ArrayXi::Zero(n + 1);
    for (Eigen::Index i = 0; i < hoursN; ++i) {
        const Eigen::Index e = index[lattice(i)];
        hourEntry(i) = static_cast<int>(e);
        const double h = year.hours(i);
        out.hours(e) += h;
        out.dryBulbC(e) += h * year.dryBulbC(i);
        out.wetBulbC(e) += h * year.wetBulbC(i);
        out.dewPointC(e) += h * year.dewPointC(i);
        out.humidityRatio(e) += h * year.humidityRatio(i);
        out.enthalpyKjPerKg(e) += h * year.enthalpyKjPerKg(i);
        out.outdoorC(e) += h * seen(i);
        out.minHumidityRatio(e) = std::min(out.minHumidityRatio(e), year.humidityRatio(i));
        out.maxDryBulbC(e) = std::max(out.maxDryBulbC(e), year.dryBulbC(i));
        // A NaN enthalpy stays (a bound on the hours' tower water must not pass over it).
        double& topEnthalpy = stateHours.maxEnthalpyKjPerKg(e);
        if (!std::isnan(topEnthalpy) && !(year.enthalpyKjPerKg(i) <= topEnthalpy))
            topEnthalpy = year.enthalpyKjPerKg(i);
        stateHours.maxDepressionK(e) =
            std::max(stateHours.maxDepressionK(e), year.dryBulbC(i) - year.wetBulbC(i));
        ++stateHours.begin(e + 1);
        const int m = year.month(i);
        if (m >= 0 && m < 12) {
            out.monthHours(e, m) += h;
            out.monthHumidityRatio(e, m) += h * year.humidityRatio(i);
            out.monthDryBulbC(e, m) += h * year.dryBulbC(i);
        } else {
            out.monthHours.row(e) += h / 12.0;
            out.monthHumidityRatio.row(e) += h * year.humidityRatio(i) / 12.0;
            out.monthDryBulbC.row(e) += h * year.dryBulbC(i) / 12.0;
        }
    }
    // Hours' means: each state's sums (annual, monthly, water) equal the sums over its hours to
    // within the lattice rounding.
    const Eigen::ArrayXd weight = out.hours.max(1e-300).inverse();
    out.dryBulbC *= weight;
    out.wetBulbC *= weight;
    out.dewPointC *= weight;
    out.humidityRatio *= weight;
    out.enthalpyKjPerKg *= weight;
    out.outdoorC *= weight;
    // Each entry's hours, in hour order (a counting sort over the entries).
    for (Eigen::Index e = 0; e < n; ++e)
        stateHours.begin(e + 1) += stateHours.begin(e);
    stateHours.hours = Eigen::ArrayXi(hoursN);
    {
        Eigen::ArrayXi next = stateHours.begin.head(n);
        for (Eigen::Index i = 0; i < hoursN; ++i)
            stateHours.hours(next(hourEntry(i))++) = static_cast<int>(i);
    }
    out.hourEntry = std::move(hourEntry);
    out.month = Eigen::ArrayXi::Constant(n, -1);
    out.hourOfDay = Eigen::ArrayXi::Constant(n, -1);
    out.pressureKpa = year.pressureKpa;
    out.totalHours = year.totalHours;
    out.hottestIndex = out.hourEntry(year.hottestIndex);
    out.design04DryBulbC = year.design04DryBulbC;
    out.design04WetBulbC = year.design04WetBulbC;
    out.heating996DryBulbC = year.heating996DryBulbC;
    out.meanDryBulbC = year.meanDryBulbC;
    out.maxWetBulbC = year.maxWetBulbC;
    out.hotScaleK = year.hotScaleK;
    out.coldScaleK = year.coldScaleK;
    out.dewCoupling = year.dewCoupling;
    return out;
}

} // namespace

namespace {

/** The grouped years' state hours (climateStateHours()), by the grouped year climateStates()
 *  keeps for the process: an address in here is never freed, so never reused. */
struct StateHoursTable
{
    std::mutex mutex;
    std::map<const SiteYear*, std::unique_ptr<const ClimateStateHours>> byYear;
};

StateHoursTable& stateHoursTable()
{
    static StateHoursTable table;
    return table;
}

} // namespace

std::shared_ptr<const SiteYear> climateStates(const std::shared_ptr<const SiteYear>& year,
                                              const ClimateKey& key)
{
    if (!year || !year->hourly)
        return year;
    static std::mutex mutex;
    // Keyed by the cached year, which lives as long as the process (siteYear()'s cache).
    static std::map<std::pair<const SiteYear*, ClimateKey>, std::shared_ptr<const SiteYear>> cache;
    const auto k = std::make_pair(year.get(), key);
    {
        const std::lock_guard<std::mutex> lock(mutex);
        const auto it = cache.find(k);
        if (it != cache.end())
            return it->second;
    }
    auto stateHours = std::make_unique<ClimateStateHours>();
    auto made = std::make_shared<const SiteYear>(groupStates(year, key, *stateHours));
    const std::lock_guard<std::mutex> lock(mutex);
    const auto [it, inserted] = cache.emplace(k, std::move(made));
    if (inserted) {
        StateHoursTable& table = stateHoursTable();
        const std::lock_guard<std::mutex> tableLock(table.mutex);
        table.byYear.emplace(it->second.get(), std::move(stateHours));
    }
    return it->second;
}

const ClimateStateHours* climateStateHours(const SiteYear& grouped)
{
    StateHoursTable& table = stateHoursTable();
    const std::lock_guard<std::mutex> lock(table.mutex);
    const auto it = table.byYear.find(&grouped);
    return it != table.byYear.end() ? it->second.get() : nullptr;
}

Eigen::ArrayXd hourByHour(const SiteYear& entries, const Eigen::ArrayXd& perEntry)
{
    if (!entries.source)
        return perEntry;
    Eigen::ArrayXd out(entries.hourEntry.size());
    for (Eigen::Index i = 0; i < out.size(); ++i)
        out(i) = perEntry(entries.hourEntry(i));
    return out;
}

namespace {

std::atomic<unsigned long long> g_statesPath{0};
std::atomic<unsigned long long> g_hourlyPath{0};
std::atomic<unsigned long long> g_binsPath{0};

} // namespace

SiteYearPathCounts siteYearPathCounts()
{
    return {g_statesPath.load(std::memory_order_relaxed),
            g_hourlyPath.load(std::memory_order_relaxed),
            g_binsPath.load(std::memory_order_relaxed)};
}

void countSiteYearPath(const SiteYear& year)
{
    auto& counter = year.source ? g_statesPath : (year.hourly ? g_hourlyPath : g_binsPath);
    counter.fetch_add(1, std::memory_order_relaxed);
}

std::string siteYearPathText(const SiteYearPathCounts& c)
{
    std::string text;
    auto part = [&](unsigned long long n, const char* what) {
        if (n == 0)
            return;
        text += (text.empty() ? "" : ", ") + std::to_string(n) + " on " + what;
    };
    part(c.climateStates, "grouped climate states of the 8,760-hour year (fast path)");
    part(c.hourByHour, "all 8,760 hours (reference path)");
    part(c.climateBins, "climate bins (site without climate normals)");
    return text.empty() ? std::string("no site year evaluated") : text;
}

} // namespace dct::solvers
