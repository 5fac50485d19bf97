#pragma once

#include <QString>
#include <string>

namespace dct::ui {

/** Returns \a value as dct::formatNumber() prints it, the rule of every face. */
QString formatNumber(double value);

/** Returns \a value with its unit as dct::formatQuantity() prints it ("41.2 kW", "12.3 M USD"). */
QString formatValue(double value, const std::string& unit);

/** Returns the number part of formatValue() ("11.36" of "11.36 M USD", "35.81" of "35.81 %"). */
QString formatValueNumber(double value, const std::string& unit);

/** Returns the unit part of formatValue() ("M USD", "%", "" for a yes/no). */
QString formatValueUnit(double value, const std::string& unit);

/** Returns \a text as a QString (UTF-8). */
inline QString qstr(const std::string& text)
{
    return QString::fromStdString(text);
}

} // namespace dct::ui
