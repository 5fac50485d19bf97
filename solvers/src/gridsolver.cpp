#include "dct/solvers/gridsolver.h"

#include <algorithm>

namespace dct::solvers {

namespace {

/** Returns the factor of \a index in \a factors, or 1 when the profile is flat or unknown. */
double factor(const std::vector<double>& factors, int index)
{
    if (index < 0 || factors.empty())
        return 1.0;
    return factors[static_cast<std::size_t>(index) % factors.size()];
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
    const Eigen::Index n = year.hours.size();
    const Eigen::ArrayXd kwh = power.hourlyFacilityKw * year.hours;
    const double facilityKwh = kwh.sum();
    const double itKwh = power.itPowerKw * year.totalHours;

    // Carbon: the cited annual mean shaped by the month and the hour of day, the shape scaled so
    // that its time-average over the year is the annual mean again (a flat load pays the mean).
    Eigen::ArrayXd shape(n);
    for (Eigen::Index i = 0; i < n; ++i)
        shape(i) = factor(site.carbonMonthFactors, year.month(i)) *
                   factor(site.carbonHourFactors, year.hourOfDay(i));
    const double shapeMean = (shape * year.hours).sum() / year.totalHours;
    out.hourlyCarbonKgPerKwh = site.carbonKgPerKwh * shape / (shapeMean > 0.0 ? shapeMean : 1.0);
    const Eigen::ArrayXd carbonKg = out.hourlyCarbonKgPerKwh * kwh;
    out.carbonTonnesPerYear = carbonKg.sum() / 1000.0;
    out.averageCarbonKgPerKwh = facilityKwh > 0.0 ? carbonKg.sum() / facilityKwh : 0.0;
    // CUE = total CO2e of the facility's energy over IT energy (The Green Grid, White Paper #32,
    // "Carbon Usage Effectiveness (CUE): a green grid data center sustainability metric", 2010).
    out.cueKgPerKwh = itKwh > 0.0 ? carbonKg.sum() / itKwh : 0.0;

    // Tariff: the hour's energy price, and each month's highest hourly demand at the demand
    // rate. Without one, the flat average price and no demand charge.
    const model::Tariff& t = site.tariff;
    out.hasTariff = t.present;
    if (t.present) {
        out.hourlyPriceUsdPerKwh.resize(n);
        for (Eigen::Index i = 0; i < n; ++i) {
            const int h = year.hourOfDay(i);
            const bool peak = h >= t.peakStartHour && h < t.peakEndHour;
            // A climate bin has no hour of day: it pays the time-weighted mean price.
            const double peakShare = (t.peakEndHour - t.peakStartHour) / 24.0;
            out.hourlyPriceUsdPerKwh(i) =
                h < 0 ? peakShare * t.peakUsdPerKwh + (1.0 - peakShare) * t.offPeakUsdPerKwh
                      : (peak ? t.peakUsdPerKwh : t.offPeakUsdPerKwh);
        }
    } else {
        out.hourlyPriceUsdPerKwh = Eigen::ArrayXd::Constant(n, site.electricityPriceUsdPerKwh);
    }
    const Eigen::ArrayXd costUsd = out.hourlyPriceUsdPerKwh * kwh;
    out.energyUsdPerYear = costUsd.sum();
    out.peakDemandKw = power.hourlyFacilityKw.maxCoeff();
    out.contractDemandKw = power.designFacilityKw;
    auto addToMonth = [&](std::size_t k, Eigen::Index i, double share) {
        out.monthlyCarbonTonnes[k] += share * carbonKg(i) / 1000.0;
        out.monthlyElectricityUsd[k] += share * costUsd(i);
        out.monthlyPeakKw[k] = std::max(out.monthlyPeakKw[k], power.hourlyFacilityKw(i));
    };
    for (Eigen::Index i = 0; i < n; ++i) {
        // Bins have no month: their energy and carbon spread evenly, their peak every month.
        const int m = year.month(i);
        if (m >= 0)
            addToMonth(static_cast<std::size_t>(m), i, 1.0);
        else
            for (std::size_t k = 0; k < 12; ++k)
                addToMonth(k, i, 1.0 / 12.0);
    }
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
