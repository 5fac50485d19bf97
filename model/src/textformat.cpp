#include "dct/model/textformat.h"

#include <cmath>
#include <cstdio>

namespace dct {

namespace {

std::string groupThousands(const std::string& digits)
{
    std::string out;
    const std::size_t n = digits.size();
    for (std::size_t i = 0; i < n; ++i) {
        out += digits[i];
        if ((n - i - 1) % 3 == 0 && i + 1 != n)
            out += ',';
    }
    return out;
}

std::string printf(const char* format, int precision, double value)
{
    char buffer[64];
    std::snprintf(buffer, sizeof buffer, format, precision, value);
    return buffer;
}

} // namespace

std::string formatNumber(double value)
{
    if (!std::isfinite(value))
        return std::isnan(value) ? "n/a" : (value > 0 ? "inf" : "-inf");
    const double a = std::fabs(value);
    if (a != 0.0 && (a >= 1e15 || a < 1e-4))
        return printf("%.*g", 4, value);
    if (a >= 1000.0) {
        const auto rounded = static_cast<long long>(std::llround(a));
        return (value < 0 ? "-" : "") + groupThousands(std::to_string(rounded));
    }
    const int decimals = a >= 100 ? 1 : a >= 10 ? 2 : a >= 1 ? 3 : 4;
    std::string text = printf("%.*f", decimals, value);
    if (text.find('.') != std::string::npos) {
        while (text.back() == '0')
            text.pop_back();
        if (text.back() == '.')
            text.pop_back();
    }
    return text == "-0" ? "0" : text;
}

std::string formatQuantity(double value, std::string_view unit)
{
    if (unit.substr(0, 3) == "USD" && std::isfinite(value)) {
        const double a = std::fabs(value);
        const std::string rest(unit.substr(3));
        if (a >= 1e9)
            return formatNumber(value / 1e9) + " B USD" + rest;
        if (a >= 1e6)
            return formatNumber(value / 1e6) + " M USD" + rest;
        if (a >= 1e4)
            return formatNumber(value / 1e3) + " k USD" + rest;
    }
    return unit.empty() ? formatNumber(value) : formatNumber(value) + " " + std::string(unit);
}

std::string formatExact(double value)
{
    if (std::isnan(value))
        return "nan";
    if (std::isinf(value))
        return value > 0 ? "inf" : "-inf";
    return printf("%.*g", 10, value);
}

std::string csvField(std::string_view text)
{
    if (text.find_first_of(",\"\n\r") == std::string_view::npos)
        return std::string(text);
    std::string quoted = "\"";
    for (char c : text) {
        if (c == '"')
            quoted += '"';
        quoted += c;
    }
    return quoted + "\"";
}

std::vector<std::string> csvFields(std::string_view line)
{
    std::vector<std::string> fields(1);
    bool quoted = false;
    for (std::size_t i = 0; i < line.size(); ++i) {
        const char c = line[i];
        if (quoted) {
            if (c == '"' && i + 1 < line.size() && line[i + 1] == '"') {
                fields.back() += '"';
                ++i;
            } else if (c == '"') {
                quoted = false;
            } else {
                fields.back() += c;
            }
        } else if (c == '"') {
            quoted = true;
        } else if (c == ',') {
            fields.emplace_back();
        } else if (c != '\n' && c != '\r') {
            fields.back() += c;
        }
    }
    return fields;
}

} // namespace dct
