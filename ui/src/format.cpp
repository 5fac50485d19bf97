#include "dct/ui/format.h"

#include "dct/model/textformat.h"

namespace dct::ui {

// The desktop prints every figure by the one rule of the CLI and the reports (model/textformat).
QString formatNumber(double value)
{
    return QString::fromStdString(dct::formatNumber(value));
}

QString formatValue(double value, const std::string& unit)
{
    return QString::fromStdString(dct::formatQuantity(value, unit));
}

QString formatValueNumber(double value, const std::string& unit)
{
    return QString::fromStdString(dct::formatQuantityParts(value, unit).number);
}

QString formatValueUnit(double value, const std::string& unit)
{
    return QString::fromStdString(dct::formatQuantityParts(value, unit).unit);
}

} // namespace dct::ui
