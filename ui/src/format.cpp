#include "dct/ui/format.h"

#include <QLocale>
#include <cmath>

namespace dct::ui {

QString formatNumber(double value)
{
    if (!std::isfinite(value))
        return QStringLiteral("n/a");
    const double magnitude = std::fabs(value);
    const QLocale locale(QLocale::English);
    if (magnitude >= 1e15 || (magnitude > 0 && magnitude < 1e-3))
        return locale.toString(value, 'g', 3);
    if (magnitude >= 100 || value == std::floor(value))
        return locale.toString(value, 'f', 0);
    if (magnitude >= 10)
        return locale.toString(value, 'f', 1);
    if (magnitude >= 1)
        return locale.toString(value, 'f', 2);
    return locale.toString(value, 'f', 3);
}

QString formatValue(double value, const std::string& unit)
{
    QString u = QString::fromStdString(unit);
    if (u == QLatin1String("USD") || u == QLatin1String("USD/month") ||
        u == QLatin1String("USD/year")) {
        const double magnitude = std::fabs(value);
        const QString rest = u.mid(3);
        if (magnitude >= 1e9)
            return formatNumber(value / 1e9) + QStringLiteral(" B USD") + rest;
        if (magnitude >= 1e6)
            return formatNumber(value / 1e6) + QStringLiteral(" M USD") + rest;
        if (magnitude >= 1e4)
            return formatNumber(value / 1e3) + QStringLiteral(" k USD") + rest;
    }
    if (u == QLatin1String("FLOP") && std::fabs(value) >= 1e18)
        return QLocale(QLocale::English).toString(value, 'g', 3) + QStringLiteral(" FLOP");
    return u.isEmpty() ? formatNumber(value) : formatNumber(value) + QLatin1Char(' ') + u;
}

} // namespace dct::ui
