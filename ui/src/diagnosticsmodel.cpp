#include "dct/ui/diagnosticsmodel.h"

#include "dct/ui/format.h"

#include <QApplication>
#include <QBrush>
#include <QColor>
#include <QStyle>
#include <algorithm>

namespace dct::ui {

DiagnosticsModel::DiagnosticsModel(QObject* parent) : QAbstractTableModel(parent) {}

void DiagnosticsModel::setDiagnostics(const Diagnostics& diagnostics)
{
    beginResetModel();
    m_items = diagnostics.items();
    std::stable_sort(m_items.begin(), m_items.end(), [](const auto& a, const auto& b) {
        return static_cast<int>(a.severity) > static_cast<int>(b.severity);
    });
    endResetModel();
}

int DiagnosticsModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_items.size());
}

int DiagnosticsModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant DiagnosticsModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const auto& d = m_items[static_cast<std::size_t>(index.row())];
    switch (role) {
    case PathRole:
        return qstr(d.path);
    case SeverityRole:
        return static_cast<int>(d.severity);
    case Qt::ToolTipRole:
        return qstr(d.toString());
    case Qt::DecorationRole:
        if (index.column() != SeverityColumn || !qApp)
            return {};
        return qApp->style()->standardIcon(
            d.severity == Severity::Error     ? QStyle::SP_MessageBoxCritical
            : d.severity == Severity::Warning ? QStyle::SP_MessageBoxWarning
                                              : QStyle::SP_MessageBoxInformation);
    case Qt::ForegroundRole:
        if (index.column() == SeverityColumn && d.severity == Severity::Error)
            return QBrush(QColor(0xb7, 0x1c, 0x1c));
        return {};
    case Qt::DisplayRole:
        switch (index.column()) {
        case SeverityColumn:
            return QString::fromLatin1(severityName(d.severity));
        case PathColumn:
            return d.path.empty() ? tr("(scenario)") : qstr(d.path);
        case MessageColumn:
            return qstr(d.message);
        case HintColumn:
            return qstr(d.hint);
        default:
            return {};
        }
    default:
        return {};
    }
}

QVariant DiagnosticsModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (section) {
    case SeverityColumn:
        return tr("Severity");
    case PathColumn:
        return tr("Field");
    case MessageColumn:
        return tr("Message");
    case HintColumn:
        return tr("Accepted / hint");
    default:
        return {};
    }
}

} // namespace dct::ui
