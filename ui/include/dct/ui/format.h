#pragma once

#include <QString>
#include <string>

namespace dct::ui {

/** Returns \a value as dct::formatNumber() prints it, the rule of every face. */
QString formatNumber(double value);

/** Returns \a value with its unit as dct::formatQuantity() prints it ("41.2 kW", "12.3 M USD"). */
QString formatValue(double value, const std::string& unit);

/** Returns \a text as a QString (UTF-8). */
inline QString qstr(const std::string& text)
{
    return QString::fromStdString(text);
}

} // namespace dct::ui
