#pragma once

#include "dct/model/diagnostics.h"

#include <QAbstractTableModel>

namespace dct::ui {

/** The diagnostics of a scenario: severity, field (JSON pointer), message and hint. */
class DiagnosticsModel : public QAbstractTableModel
{
    Q_OBJECT

public:
    enum Column
    {
        SeverityColumn,
        PathColumn,
        MessageColumn,
        HintColumn,
        ColumnCount
    };
    /** Role of the JSON pointer of the field a diagnostic concerns (QString). */
    static constexpr int PathRole = Qt::UserRole + 1;
    /** Role of the severity (int of dct::Severity). */
    static constexpr int SeverityRole = Qt::UserRole + 2;

    explicit DiagnosticsModel(QObject* parent = nullptr);

    /** Replaces the diagnostics shown, errors first. */
    void setDiagnostics(const Diagnostics& diagnostics);
    const std::vector<Diagnostic>& diagnostics() const { return m_items; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

private:
    std::vector<Diagnostic> m_items;
};

} // namespace dct::ui
