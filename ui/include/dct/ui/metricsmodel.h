#pragma once

#include "dct/solvers/metric.h"

#include <QAbstractTableModel>
#include <vector>

namespace dct::ui {

/** Every figure of one evaluation as a table: label, value, unit and key. */
class MetricsModel : public QAbstractTableModel
{
    Q_OBJECT

public:
    enum Column
    {
        LabelColumn,
        ValueColumn,
        UnitColumn,
        KeyColumn,
        ColumnCount
    };
    /** Role of the metric's raw value (double) in every column. */
    static constexpr int ValueRole = Qt::UserRole + 1;

    explicit MetricsModel(QObject* parent = nullptr);

    /** Replaces the metrics shown. */
    void setMetrics(std::vector<solvers::Metric> metrics);
    const std::vector<solvers::Metric>& metrics() const { return m_metrics; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

private:
    std::vector<solvers::Metric> m_metrics;
};

} // namespace dct::ui
