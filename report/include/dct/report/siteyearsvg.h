#pragma once

#include <Eigen/Core>
#include <array>
#include <string>

namespace dct::report {

/** Returns the colour of \a t in [0, 1] on the heat maps' scale (blue - green - yellow - red),
 *  as red, green and blue 0..255. */
std::array<int, 3> heatColor(double t);

/**
 * Returns a year heat map as standalone SVG: one column per day of the year (January left), one
 * row per hour of the day (midnight at the top), each cell coloured by \a values (8,760 hours,
 * hour of the year = day x 24 + hour) between their minimum and maximum, with month ticks and a
 * colour scale labelled in \a unit. A year whose values are all equal says so in its title.
 */
std::string yearHeatMapSvg(const std::string& title, const Eigen::ArrayXd& values,
                           const std::string& unit, int widthPx = 640);

/** Returns the water (m³) and carbon (t CO2e) of each month as two bar panels, standalone SVG. */
std::string monthlyWaterCarbonSvg(const std::array<double, 12>& waterM3,
                                  const std::array<double, 12>& carbonTonnes, int widthPx = 640);

} // namespace dct::report
