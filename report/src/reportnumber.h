#pragma once

#include "dct/model/textformat.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <string>
#include <string_view>

namespace dct::report {

/**
 * Returns \a number (as formatNumber() writes it) without a mantissa-exponent form: a planner
 * reads a busbw of 0.00001234 GB/s, not "1.234e-05". The same (up to four) significant digits
 * in fixed notation, thousands grouped for the very large ("2,500,000,000,000,000"); below a
 * trillionth the figure reads "< 0.000000000001". Any other text ("12.3", "yes", "n/a") is
 * returned unchanged.
 */
inline std::string withoutExponent(const std::string& number)
{
    // A mantissa-exponent form: "1.234e-05", "-2e+20"; not a word that holds an 'e' ("yes").
    const auto e = number.find('e');
    if (e == std::string::npos || e == 0 || e + 1 == number.size() ||
        !std::isdigit(static_cast<unsigned char>(number[e - 1])))
        return number;
    // The digits formatNumber() kept, moved by the exponent: no digit is made up.
    const bool negative = number[0] == '-';
    std::string digits;
    int fractionDigits = 0;
    bool fraction = false;
    for (std::size_t i = negative ? 1 : 0; i < e; ++i) {
        if (number[i] == '.') {
            fraction = true;
        } else {
            digits += number[i];
            fractionDigits += fraction ? 1 : 0;
        }
    }
    const int exponent = std::atoi(number.c_str() + e + 1);
    const std::string sign = negative ? "-" : "";
    if (exponent >= 0) {
        // 2.5e+15: "2500000000000000" grouped by thousands.
        const std::string whole =
            digits +
            std::string(static_cast<std::size_t>(std::max(0, exponent - fractionDigits)), '0');
        std::string grouped;
        for (std::size_t i = 0; i < whole.size(); ++i) {
            grouped += whole[i];
            if ((whole.size() - i - 1) % 3 == 0 && i + 1 != whole.size())
                grouped += ',';
        }
        return sign + grouped;
    }
    // Below a trillionth, a figure is rounding noise of a difference, not a measurement.
    constexpr int smallestExponent = -12;
    if (exponent < smallestExponent)
        return negative ? "> -0.000000000001" : "< 0.000000000001";
    // 1.234e-05: "0.00001234".
    while (digits.size() > 1 && digits.back() == '0')
        digits.pop_back();
    return sign + "0." + std::string(static_cast<std::size_t>(-exponent - 1), '0') + digits;
}

/** Returns formatNumber(\a value) in fixed notation (withoutExponent()). */
inline std::string reportNumber(double value)
{
    return withoutExponent(formatNumber(value));
}

/** Returns formatQuantity(\a value, \a unit) with its number in fixed notation. */
inline std::string reportQuantity(double value, std::string_view unit)
{
    const QuantityText text = formatQuantityParts(value, unit);
    const std::string number = withoutExponent(text.number);
    return text.unit.empty() ? number : number + " " + text.unit;
}

} // namespace dct::report
