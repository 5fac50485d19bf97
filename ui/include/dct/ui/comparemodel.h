#pragma once

#include "dct/solvers/metric.h"
#include "dct/ui/evaluationoutcome.h"

#include <QAbstractTableModel>
#include <QStringList>
#include <memory>
#include <string>
#include <vector>

namespace dct::ui {

/**
 * Two or more scenarios side by side: one row per figure, one column per scenario, and for every
 * scenario after the first its change against the first. The better value of a row is marked.
 */
class CompareModel : public QAbstractTableModel
{
    Q_OBJECT

public:
    /** Role of a cell's raw number (double), invalid for text cells and missing figures. */
    static constexpr int ValueRole = Qt::UserRole + 1;
    /** Role that is true for the cell holding the best value of its row. */
    static constexpr int BestRole = Qt::UserRole + 2;

    explicit CompareModel(QObject* parent = nullptr);

    /** Compares the evaluations \a outcomes, titled \a titles (the first is the baseline). */
    void setScenarios(const QStringList& titles,
                      const std::vector<std::shared_ptr<const EvaluationOutcome>>& outcomes);

    /** Shows only the figures whose value differs between the scenarios when \a on. */
    void setDifferencesOnly(bool on);

    /** Returns whether only the figures that differ are shown. */
    bool differencesOnly() const { return m_differencesOnly; }

    /** Returns -1 when a lower value is better, +1 when higher, 0 when neither (\a better is
     *  what the metric declares). */
    static int direction(solvers::Better better);

    /** Returns the column of scenario \a index's value. */
    static int valueColumn(int index);
    /** Returns the column of scenario \a index's change against the first (index >= 1). */
    static int deltaColumn(int index);
    /** Returns the letter naming scenario \a index in headers ("A" for the baseline). */
    static QString letterOf(int index);
    /** Returns the row of the figure \a key, or -1. */
    int rowOf(const std::string& key) const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

private:
    struct Row
    {
        std::string key;
        std::string label;
        std::string unit;
        std::vector<std::optional<double>> values; // One per scenario.
        int best = -1;                             // Scenario holding the better value.
        int direction = 0;                         // -1 lower is better, +1 higher, 0 neither.
    };
    std::optional<double> deltaOf(const Row& row, int scenario) const;
    /** Returns whether \a row's values are not all the same. */
    static bool differs(const Row& row);
    /** Fills m_rows from m_allRows under the differences-only filter. */
    void filterRows();

    QStringList m_titles;
    std::vector<solvers::Verdict> m_verdicts; ///< One per scenario column.
    std::vector<Row> m_allRows;               ///< Every figure of the compared scenarios.
    std::vector<Row> m_rows;                  ///< The rows shown.
    bool m_differencesOnly = false;
};

} // namespace dct::ui
