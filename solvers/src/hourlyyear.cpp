#include "dct/solvers/hourlyyear.h"

#include <algorithm>
#include <cstdio>

namespace dct::solvers {

namespace {

double factorOf(const std::vector<double>& factors, int index)
{
    if (index < 0 || factors.empty())
        return 1.0;
    return factors[static_cast<std::size_t>(index) % factors.size()];
}

} // namespace

HourlyYear expandHourly(const model::ResolvedScenario& r, const Evaluation& e)
{
    HourlyYear out;
    const auto& entries = e.cooling.year;
    if (!entries || e.power.hourlyFacilityKw.size() != entries->hours.size())
        return out;
    // The hours: a grouped year's source, or an hourly year solved hour by hour.
    const SiteYear* hourly =
        entries->source ? entries->source.get() : (entries->hourly ? entries.get() : nullptr);
    if (!hourly)
        return out;
    const Eigen::Index n = hourly->hours.size();
    out.hourly = true;
    // Each hour takes its state's figures; the state's water (a sum over its hours) is shared
    // evenly by its hours, so that every sum over the hours is the state's sum.
    auto entryOf = [&](Eigen::Index i) {
        return entries->source ? static_cast<Eigen::Index>(entries->hourEntry(i)) : i;
    };
    out.month.resize(n);
    out.day.resize(n);
    out.dayOfYear.resize(n);
    out.hour.resize(n);
    out.dryBulbC = hourly->dryBulbC;
    out.wetBulbC = hourly->wetBulbC;
    out.itKw = Eigen::ArrayXd::Constant(n, e.power.itPowerKw);
    out.facilityKw.resize(n);
    out.coolingKw.resize(n);
    out.economizerShare.resize(n);
    out.condenserWaterC.resize(n);
    out.waterL.resize(n);
    out.carbonKg.resize(n);
    out.energyUsd.resize(n);
    const bool hasWater = e.cooling.hourlyWaterL.size() == entries->hours.size();
    const double airShare =
        e.cooling.airHeatKw + e.cooling.liquidHeatKw > 0.0
            ? e.cooling.airHeatKw / (e.cooling.airHeatKw + e.cooling.liquidHeatKw)
            : 1.0;
    // Carbon and price as the grid solver weighs them (gridsolver.cpp): the shape of month and
    // hour scaled to the annual mean, the tariff's peak hours at the peak price.
    const model::SiteSpec& site = r.site;
    Eigen::ArrayXd shape(n);
    for (Eigen::Index i = 0; i < n; ++i)
        shape(i) = factorOf(site.carbonMonthFactors, hourly->month(i)) *
                   factorOf(site.carbonHourFactors, hourly->hourOfDay(i)) * hourly->hours(i);
    const double shapeMean = shape.sum() / hourly->totalHours;
    const double scale = site.carbonKgPerKwh / (shapeMean > 0.0 ? shapeMean : 1.0);
    const model::Tariff& t = site.tariff;
    const double peakPrice = t.present ? t.peakUsdPerKwh : site.electricityPriceUsdPerKwh;
    const double offPeakPrice = t.present ? t.offPeakUsdPerKwh : site.electricityPriceUsdPerKwh;
    int dayOfMonth = 1;
    int lastDay = -1;
    for (Eigen::Index i = 0; i < n; ++i) {
        const Eigen::Index s = entryOf(i);
        const int m = hourly->month(i);
        const int h = hourly->hourOfDay(i);
        const int d = static_cast<int>(i / 24);
        if (d != lastDay) {
            dayOfMonth =
                (lastDay >= 0 && hourly->month(i) == hourly->month(i - 1)) ? dayOfMonth + 1 : 1;
            lastDay = d;
        }
        out.month(i) = m + 1;
        out.day(i) = dayOfMonth;
        out.dayOfYear(i) = d;
        out.hour(i) = h;
        const double kw = e.power.hourlyFacilityKw(s);
        out.facilityKw(i) = kw;
        out.coolingKw(i) = e.cooling.hourlyCoolingKw(s);
        out.economizerShare(i) =
            airShare * e.cooling.hourlyEconomizerShareAir(s) +
            (1.0 - airShare) * (e.cooling.hourlyEconomizerShareLiquid.size() > s
                                    ? e.cooling.hourlyEconomizerShareLiquid(s)
                                    : 0.0);
        out.condenserWaterC(i) =
            e.cooling.hourlyCondenserWaterC.size() > s ? e.cooling.hourlyCondenserWaterC(s) : 0.0;
        out.waterL(i) = hasWater ? e.cooling.hourlyWaterL(s) * hourly->hours(i) /
                                       std::max(1e-300, entries->hours(s))
                                 : 0.0;
        out.carbonKg(i) = scale * shape(i) * kw;
        const bool peak = h >= t.peakStartHour && h < t.peakEndHour;
        out.energyUsd(i) = (peak ? peakPrice : offPeakPrice) * kw * hourly->hours(i);
    }
    out.pue = e.power.itPowerKw > 0.0 ? (out.facilityKw / e.power.itPowerKw).eval()
                                      : Eigen::ArrayXd::Zero(n).eval();
    // The plant holds its supply setpoints every hour (its chillers are sized on the peak hour),
    // so the temperatures at the servers and the clock are those of the thermal loop (the clock
    // no higher than the GPUs' power limit allows).
    out.inletC = Eigen::ArrayXd::Constant(n, e.cooling.inletTempC);
    out.coolantC = Eigen::ArrayXd::Constant(n, e.cooling.coolantTempC);
    out.gpuTempC = Eigen::ArrayXd::Constant(n, e.cooling.gpuTempC);
    out.clockFactor = Eigen::ArrayXd::Constant(
        n, std::min(e.cooling.throttle.clockFactor, e.power.powerLimitClockFactor));
    return out;
}

void writeHourlyCsv(std::ostream& out, const HourlyYear& y)
{
    // New columns go last: scripts read the older ones by position.
    out << "hour_index,month,day,hour,dry_bulb_c,wet_bulb_c,it_kw,facility_kw,pue,cooling_kw,"
           "economizer_share,water_l,carbon_kg,energy_usd,inlet_c,coolant_c,gpu_temp_c,"
           "clock_factor,throttled,condenser_water_c\n";
    char line[512];
    for (Eigen::Index i = 0; i < y.month.size(); ++i) {
        std::snprintf(line, sizeof line,
                      "%ld,%d,%d,%d,%.2f,%.2f,%.3f,%.3f,%.5f,%.3f,%.4f,%.3f,%.3f,%.4f,%.2f,%.2f,"
                      "%.2f,%.5f,%d,%.2f\n",
                      static_cast<long>(i), y.month(i), y.day(i), y.hour(i), y.dryBulbC(i),
                      y.wetBulbC(i), y.itKw(i), y.facilityKw(i), y.pue(i), y.coolingKw(i),
                      y.economizerShare(i), y.waterL(i), y.carbonKg(i), y.energyUsd(i), y.inletC(i),
                      y.coolantC(i), y.gpuTempC(i), y.clockFactor(i),
                      y.clockFactor(i) < 1.0 ? 1 : 0, y.condenserWaterC(i));
        out << line;
    }
}

} // namespace dct::solvers
