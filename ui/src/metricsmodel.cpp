#include "dct/ui/metricsmodel.h"

#include "dct/ui/format.h"

namespace dct::ui {

MetricsModel::MetricsModel(QObject* parent) : QAbstractTableModel(parent) {}

void MetricsModel::setMetrics(std::vector<solvers::Metric> metrics)
{
    beginResetModel();
    m_metrics = std::move(metrics);
    endResetModel();
}

int MetricsModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_metrics.size());
}

int MetricsModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant MetricsModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const auto& m = m_metrics[static_cast<std::size_t>(index.row())];
    if (role == ValueRole)
        return m.value;
    if (role == Qt::TextAlignmentRole && index.column() == ValueColumn)
        return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
    if (role == Qt::ToolTipRole) {
        QString inputs;
        for (const auto& i : m.inputs)
            inputs += (inputs.isEmpty() ? QString() : QStringLiteral(", ")) + qstr(i);
        return inputs.isEmpty() ? qstr(m.key) : tr("%1 (from %2)").arg(qstr(m.key), inputs);
    }
    if (role != Qt::DisplayRole)
        return {};
    switch (index.column()) {
    case LabelColumn:
        return qstr(m.label);
    case ValueColumn:
        return formatValueNumber(m.value, m.unit);
    case UnitColumn:
        return formatValueUnit(m.value, m.unit);
    case KeyColumn:
        return qstr(m.key);
    default:
        return {};
    }
}

QVariant MetricsModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (section) {
    case LabelColumn:
        return tr("Figure");
    case ValueColumn:
        return tr("Value");
    case UnitColumn:
        return tr("Unit");
    case KeyColumn:
        return tr("Key");
    default:
        return {};
    }
}

} // namespace dct::ui
