#pragma once

#include "dct/study/layoutplanner.h"

#include <QDialog>
#include <QFutureWatcher>
#include <atomic>
#include <memory>
#include <optional>

class QLabel;
class QProgressBar;
class QPushButton;
class QTableWidget;

namespace dct::ui {

class ScenarioDocument;

/**
 * "Find best layout": searches the parallel layouts of the document's training job on a worker
 * thread (study::planLayouts) with a progress bar and a Cancel button, lists the fastest that
 * fit with their step time, MFU, memory and the parts of the step, and applies the chosen one
 * to the document as one undoable edit.
 */
class LayoutPlanDialog : public QDialog
{
    Q_OBJECT

public:
    /** Makes the dialog for \a document (not owned); call start() to search. */
    explicit LayoutPlanDialog(ScenarioDocument* document, QWidget* parent = nullptr);
    ~LayoutPlanDialog() override;

    /** Starts the search of the document as it is now (with \a options' space and top); \a
        options' own stop, if any, is asked before the Cancel button's. */
    void start(const study::LayoutPlanOptions& options = {});
    /** Asks a running search to stop; its results so far are listed. */
    void cancel();
    /** Returns true while the search runs. */
    bool isRunning() const;
    /** Returns the last search's plan (empty before one finished). */
    const study::LayoutPlan& plan() const { return m_plan; }
    /** Applies the layout of row \a row of the results to the document; false when none. */
    bool applyRow(int row);

    QTableWidget* table() const { return m_table; }
    QProgressBar* progressBar() const { return m_progress; }
    QPushButton* applyButton() const { return m_apply; }
    QPushButton* cancelButton() const { return m_cancel; }
    QLabel* summaryLabel() const { return m_summary; }

signals:
    /** The search ended (finished, cancelled or failed); plan() holds its result. */
    void finished();

private:
    void progressed(qulonglong done, qulonglong total);
    void landed();
    void showPlan();

    ScenarioDocument* m_document;
    QLabel* m_summary = nullptr;
    QProgressBar* m_progress = nullptr;
    QTableWidget* m_table = nullptr;
    QPushButton* m_apply = nullptr;
    QPushButton* m_cancel = nullptr;
    QFutureWatcher<study::LayoutPlan>* m_watcher = nullptr;
    std::shared_ptr<std::atomic<bool>> m_stop;
    study::LayoutPlan m_plan;
    std::optional<model::WorkloadSection> m_workload; ///< As searched, for applyRow().
};

} // namespace dct::ui
