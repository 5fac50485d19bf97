#include "dct/solvers/gridsolver.h"

#include <algorithm>
#include <map>
#include <memory>
#include <mutex>
#include <tuple>
#include <vector>

namespace dct::solvers {

namespace {

/** Returns the factor of \a index in \a factors, or 1 when the profile is flat or unknown. */
double factor(const std::vector<double>& factors, int index)
{
    if (index < 0 || factors.empty())
        return 1.0;
    return factors[static_cast<std::size_t>(index) % factors.size()];
}

/** The hours of each entry of a year by month, weighted by the carbon shape and at the peak
 *  price: the grid's annual and monthly sums are these times the entries' power. */
struct GridWeights
{
    Eigen::ArrayXXd monthHours;  ///< Hours of each entry in each month (entries x 12).
    Eigen::ArrayXXd carbonHours; ///< The same, each hour weighted by its carbon shape.
    Eigen::ArrayXXd peakHours;   ///< Of them, the hours at the tariff's peak price.
    // Their sums over the months, as solveGrid() takes them (the same expressions, once).
    Eigen::ArrayXd carbonEntryHours;  ///< carbonHours.rowwise().sum().
    double carbonYearHours = 0.0;     ///< carbonHours.sum().
    Eigen::ArrayXd peakEntryHours;    ///< peakHours.rowwise().sum().
    Eigen::ArrayXd offPeakEntryHours; ///< (monthHours - peakHours).rowwise().sum().
};

GridWeights gridWeights(const SiteYear& year, const model::SiteSpec& site)
{
    const model::Tariff& t = site.tariff;
    // A climate bin has no hour of day: it pays the time-weighted mean price.
    const double peakShare = (t.peakEndHour - t.peakStartHour) / 24.0;
    const Eigen::Index n = year.hours.size();
    GridWeights w;
    w.monthHours = entryMonthHours(year);
    w.carbonHours = Eigen::ArrayXXd::Zero(n, 12);
    w.peakHours = Eigen::ArrayXXd::Zero(n, 12);
    // A grouped year's entries gather the hours of its source year; other years are their own.
    const SiteYear& hourly = year.source ? *year.source : year;
    for (Eigen::Index i = 0; i < hourly.hours.size(); ++i) {
        const Eigen::Index e = year.source ? year.hourEntry(i) : i;
        const int m = hourly.month(i);
        const int h = hourly.hourOfDay(i);
        const double hours = hourly.hours(i);
        const double shape =
            factor(site.carbonMonthFactors, m) * factor(site.carbonHourFactors, h) * hours;
        const double peak =
            h < 0 ? peakShare * hours : (h >= t.peakStartHour && h < t.peakEndHour ? hours : 0.0);
        if (m >= 0 && m < 12) {
            w.carbonHours(e, m) += shape;
            w.peakHours(e, m) += peak;
        } else {
            // Bins have no month: their energy and carbon spread evenly over the months.
            w.carbonHours.row(e) += shape / 12.0;
            w.peakHours.row(e) += peak / 12.0;
        }
    }
    w.carbonEntryHours = w.carbonHours.rowwise().sum();
    w.carbonYearHours = w.carbonHours.sum();
    w.peakEntryHours = w.peakHours.rowwise().sum();
    w.offPeakEntryHours = (w.monthHours - w.peakHours).rowwise().sum();
    return w;
}

/** gridWeights() of a shared (cached) year, built once per year and site profile. */
std::shared_ptr<const GridWeights> sharedGridWeights(const std::shared_ptr<const SiteYear>& year,
                                                     const model::SiteSpec& site)
{
    if (!year->source && !year->hourly)
        return std::make_shared<const GridWeights>(gridWeights(*year, site));
    const model::Tariff& t = site.tariff;
    using Key = std::tuple<const SiteYear*, std::vector<double>, std::vector<double>, int, int>;
    Key key{year.get(), site.carbonMonthFactors, site.carbonHourFactors, t.peakStartHour,
            t.peakEndHour};
    static std::mutex mutex;
    // The value keeps its year alive, so that no other year takes the address of the key.
    static std::map<Key,
                    std::pair<std::shared_ptr<const SiteYear>, std::shared_ptr<const GridWeights>>>
        cache;
    {
        const std::lock_guard<std::mutex> lock(mutex);
        const auto it = cache.find(key);
        if (it != cache.end())
            return it->second.second;
    }
    auto made = std::make_shared<const GridWeights>(gridWeights(*year, site));
    const std::lock_guard<std::mutex> lock(mutex);
    return cache.emplace(std::move(key), std::make_pair(year, std::move(made)))
        .first->second.second;
}

} // namespace

GridResult solveGrid(const model::ResolvedScenario& r, const PowerResult& power,
                     const CoolingResult& cooling)
{
    GridResult out;
    if (!cooling.year || power.hourlyFacilityKw.size() != cooling.year->hours.size())
        return out;
    const SiteYear& year = *cooling.year;
    const model::SiteSpec& site = r.site;
    const auto weights = sharedGridWeights(cooling.year, site);
    const GridWeights& w = *weights;
    const Eigen::ArrayXd& kw = power.hourlyFacilityKw;
    const Eigen::ArrayXd& hours = year.hours;
    const double facilityKwh = (kw * hours).sum();
    const double itKwh = power.itPowerKw * year.totalHours;

    // Carbon: the cited annual mean shaped by the month and the hour of day, the shape scaled so
    // that its time-average over the year is the annual mean again (a flat load pays the mean).
    const double shapeMean = w.carbonYearHours / year.totalHours;
    const double scale = site.carbonKgPerKwh / (shapeMean > 0.0 ? shapeMean : 1.0);
    out.hourlyCarbonKgPerKwh = scale * w.carbonEntryHours / hours;
    double carbonKg = 0.0;
    for (Eigen::Index m = 0; m < 12; ++m) {
        const double kg = scale * (w.carbonHours.col(m) * kw).sum();
        out.monthlyCarbonTonnes[static_cast<std::size_t>(m)] = kg / 1000.0;
        carbonKg += kg;
    }
    out.carbonTonnesPerYear = carbonKg / 1000.0;
    out.averageCarbonKgPerKwh = facilityKwh > 0.0 ? carbonKg / facilityKwh : 0.0;
    // CUE = total CO2e of the facility's energy over IT energy (The Green Grid, White Paper #32,
    // "Carbon Usage Effectiveness (CUE): a green grid data center sustainability metric", 2010).
    out.cueKgPerKwh = itKwh > 0.0 ? carbonKg / itKwh : 0.0;

    // Tariff: the hour's energy price, and each month's highest hourly demand at the demand
    // rate. Without one, the flat average price and no demand charge.
    const model::Tariff& t = site.tariff;
    out.hasTariff = t.present;
    const double peakPrice = t.present ? t.peakUsdPerKwh : site.electricityPriceUsdPerKwh;
    const double offPeakPrice = t.present ? t.offPeakUsdPerKwh : site.electricityPriceUsdPerKwh;
    out.hourlyPriceUsdPerKwh =
        (peakPrice * w.peakEntryHours + offPeakPrice * w.offPeakEntryHours) / hours;
    for (Eigen::Index m = 0; m < 12; ++m) {
        const auto k = static_cast<std::size_t>(m);
        const double peakKwh = (w.peakHours.col(m) * kw).sum();
        const double allKwh = (w.monthHours.col(m) * kw).sum();
        out.monthlyElectricityUsd[k] = peakPrice * peakKwh + offPeakPrice * (allKwh - peakKwh);
        out.energyUsdPerYear += out.monthlyElectricityUsd[k];
        out.monthlyPeakKw[k] = (w.monthHours.col(m) > 0.0).select(kw, 0.0).maxCoeff();
    }
    out.peakDemandKw = kw.maxCoeff();
    out.contractDemandKw = power.designFacilityKw;
    if (t.present)
        for (std::size_t k = 0; k < 12; ++k) {
            const double demandUsd = t.demandUsdPerKwMonth * out.monthlyPeakKw[k];
            out.demandUsdPerYear += demandUsd;
            out.monthlyElectricityUsd[k] += demandUsd;
        }
    out.electricityUsdPerYear = out.energyUsdPerYear + out.demandUsdPerYear;
    out.averagePriceUsdPerKwh = facilityKwh > 0.0 ? out.electricityUsdPerYear / facilityKwh : 0.0;
    return out;
}

} // namespace dct::solvers
