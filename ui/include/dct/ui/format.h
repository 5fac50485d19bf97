#pragma once

#include <QString>
#include <string>

namespace dct::ui {

/** Returns \a value with three significant digits and thousands separators ("12,345", "0.123"). */
QString formatNumber(double value);

/** Returns \a value with its unit, e.g. "41.2 kW"; large USD values as "12.3 M USD". */
QString formatValue(double value, const std::string& unit);

/** Returns \a text as a QString (UTF-8). */
inline QString qstr(const std::string& text)
{
    return QString::fromStdString(text);
}

} // namespace dct::ui
