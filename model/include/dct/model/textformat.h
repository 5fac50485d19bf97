#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace dct {

/**
 * Returns \a value as people read it, the one rule of every face (CLI tables, the desktop,
 * reports): thousands separators from 1,000 up, about four significant digits below, a
 * mantissa-exponent form only for the very large and very small, "n/a" for a figure that is
 * not a number and "inf" for an infinite one.
 */
std::string formatNumber(double value);

/**
 * Returns \a value with \a unit ("41.2 kW"); money of 10,000 and more in k, M or B ("12.3 M USD",
 * "1.54 k USD/month"). The unit as a metric declares it, so CLI, desktop and reports agree.
 */
std::string formatQuantity(double value, std::string_view unit);

/** Returns \a value with full precision for machine reading (CSV, JSON lines): "%.10g". */
std::string formatExact(double value);

/** Returns \a text as one CSV field (RFC 4180: quoted when it holds a comma, quote or newline). */
std::string csvField(std::string_view text);

/** Splits one CSV line into its fields (RFC 4180 quotes; a trailing CR or LF is dropped). */
std::vector<std::string> csvFields(std::string_view line);

} // namespace dct
