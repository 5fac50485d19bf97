#pragma once

#include <Eigen/Core>
#include <array>

namespace dct::solvers {

/** The facility's grid supply over the year: carbon by the hour, tariff, demand. */
struct GridResult
{
    double carbonTonnesPerYear = 0.0;   ///< Facility energy times the hour's carbon intensity.
    double averageCarbonKgPerKwh = 0.0; ///< Energy-weighted over the year.
    double cueKgPerKwh = 0.0;           ///< Carbon usage effectiveness: CO2e over IT energy.
    bool hasTariff = false;             ///< Time-of-use and demand charges (else a flat price).
    double energyUsdPerYear = 0.0;      ///< Energy charges, hour by hour.
    double demandUsdPerYear = 0.0;      ///< Each month's peak hourly demand at the demand rate.
    double electricityUsdPerYear = 0.0; ///< Energy + demand charges.
    double averagePriceUsdPerKwh = 0.0; ///< Electricity cost over facility energy.
    double peakDemandKw = 0.0;          ///< Highest hourly facility demand at the operating point.
    double contractDemandKw = 0.0;      ///< Nameplate IT in the peak hour: the utility contract.
    std::array<double, 12> monthlyCarbonTonnes{};
    std::array<double, 12> monthlyElectricityUsd{};
    std::array<double, 12> monthlyPeakKw{};
    Eigen::ArrayXd hourlyCarbonKgPerKwh; ///< Entry by entry of the site's year.
    Eigen::ArrayXd hourlyPriceUsdPerKwh; ///< Energy price entry by entry of the site's year.
};

} // namespace dct::solvers
