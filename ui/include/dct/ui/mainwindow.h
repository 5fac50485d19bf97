#pragma once

#include <QList>
#include <QMainWindow>
#include <nlohmann/json.hpp>

class QLabel;
class QMenu;
class QStackedWidget;
class QTabWidget;
class QTableView;
class QTreeView;
class QUndoGroup;

namespace dct::ui {

class CompareView;
class Dashboard;
class DiagnosticsModel;
class StartPage;
class DocumentManager;
class LibraryController;
class MetricsModel;
class ScenarioDocument;
class LayoutPlanDialog;
class ScenarioForm;
class ScenarioLibraryModel;
class StoreScenarioSource;
class TopologyView;
class FloorPlanView;

/**
 * The desktop program's window: the scenario library and the form editor on the left, the
 * dashboard, topology, compare and all-figures views in the middle, the diagnostics below. The
 * library shows the scenario store at ScenarioStore::defaultPath() ($DCT_STORE overrides it), or
 * the bundled examples when the store cannot be used.
 *
 * The open documents live in a DocumentManager and the library in a LibraryController; the
 * window holds the widgets, menus and actions, asks the questions (unsaved changes, file names)
 * and shows the errors both report.
 */
class MainWindow : public QMainWindow
{
    Q_OBJECT

public:
    /** The central views, in tab order. */
    enum View
    {
        DashboardView,
        TopologyTab,
        FloorPlanTab,
        CompareTab,
        FiguresTab
    };

    explicit MainWindow(QWidget* parent = nullptr);
    ~MainWindow() override;

    /** Opens the scenario file \a path; on failure shows (or, quiet, records) the error. */
    ScenarioDocument* openFile(const QString& path);
    /** Opens a new document holding \a json (not saved yet). */
    ScenarioDocument* openJson(const nlohmann::json& json, const QString& filePath = {});
    /** Saves the current document to \a path; returns false (and reports) on failure. */
    bool saveTo(const QString& path);
    /**
     * Uses the scenario store at \a path (empty: ScenarioStore::defaultPath()) as the library,
     * creating it with the bundled examples when it does not exist. A store that cannot be used
     * (corrupt, foreign, unreadable) is left untouched: the error is reported and the library
     * shows the examples folder. Returns true when the store is in use.
     */
    bool openStore(const QString& path = {});
    /** Returns the store shown in the library, or nullptr when the store could not be used. */
    StoreScenarioSource* store() const;
    /** Opens version \a version (0: the latest) of stored scenario \a name. */
    ScenarioDocument* openStored(const QString& name, int version = 0);
    /**
     * Saves the current document as a new version in the store under \a name (empty: the
     * document's store name, else its title); returns the version number, or 0 on failure.
     */
    int saveToLibrary(const QString& name = {});
    /**
     * Writes the report of the scenarios on show to \a path (PDF for .pdf, HTML for .html/.htm):
     * with the Compare tab active, a comparison of the compared scenarios, else the current one.
     * Returns false (and reports) on failure.
     */
    bool exportReport(const QString& path);
    /** Returns the scenarios exportReport() would report, the baseline first. */
    QList<ScenarioDocument*> reportDocuments() const;
    /** Opens a copy of the current document named "... (what-if)" and compares the two. */
    ScenarioDocument* duplicateAsWhatIf();
    /** Opens "Find best layout" on the current document and starts its search (nullptr when
     *  no document is open). */
    LayoutPlanDialog* findBestLayout();
    /** Closes \a document, asking about unsaved changes; returns false when cancelled. */
    bool closeDocument(ScenarioDocument* document);

    /** Makes \a document the one edited and shown. */
    void setCurrentDocument(ScenarioDocument* document);
    ScenarioDocument* currentDocument() const;
    const QList<ScenarioDocument*>& documents() const;
    /** Selects the first diagnostic that names a field and focuses that field's editor. */
    bool focusFirstDiagnostic();
    /** Shows central view \a view. */
    void showView(View view);

    /** In quiet mode no dialog opens: errors are kept in lastError(), changes are discarded. */
    void setQuiet(bool quiet) { m_quiet = quiet; }
    /** Returns the last error reported, e.g. of a bad file. */
    QString lastError() const { return m_lastError; }

    Dashboard* dashboard() const { return m_dashboard; }
    ScenarioForm* form() const { return m_form; }
    TopologyView* topologyView() const { return m_topology; }
    FloorPlanView* floorPlanView() const { return m_floorPlan; }
    CompareView* compareView() const { return m_compare; }
    /** Returns the page shown while no scenario is open (the examples, open, new). */
    StartPage* startPage() const { return m_start; }
    /** Returns true while the start page stands in place of the views (no scenario open). */
    bool startPageShown() const;
    DiagnosticsModel* diagnosticsModel() const { return m_diagnosticsModel; }
    MetricsModel* metricsModel() const { return m_metricsModel; }
    ScenarioLibraryModel* libraryModel() const;
    QTreeView* libraryView() const { return m_libraryView; }
    QTableView* diagnosticsTable() const { return m_diagnosticsTable; }
    QUndoGroup* undoGroup() const;
    /** Returns the open documents, the current one and their undo stacks. */
    DocumentManager* documentManager() const { return m_documents; }
    /** Returns the scenario library: its model, the store, opening and saving stored ones. */
    LibraryController* libraryController() const { return m_library; }

protected:
    void closeEvent(QCloseEvent* event) override;

private:
    void createActions();
    void createDocks();
    void showCurrent();
    void refreshViews();
    void updateTitle();
    void rebuildRecentMenu();
    void reportError(const QString& title, const QString& text, const QString& details = {});
    bool maybeSave(ScenarioDocument* document);
    void openDialog();
    bool saveCurrent();
    bool saveCurrentAs();
    void activateLibraryItem(const QModelIndex& index);
    void exportReportDialog();
    void saveToLibraryDialog();
    void showHistory();
    QString selectedStoredName() const;

    DocumentManager* m_documents;
    LibraryController* m_library;
    QTabWidget* m_tabs = nullptr;
    QStackedWidget* m_central = nullptr;
    StartPage* m_start = nullptr;
    Dashboard* m_dashboard = nullptr;
    TopologyView* m_topology = nullptr;
    FloorPlanView* m_floorPlan = nullptr;
    CompareView* m_compare = nullptr;
    ScenarioForm* m_form = nullptr;
    QTreeView* m_libraryView = nullptr;
    QTableView* m_figuresTable = nullptr;
    QTableView* m_diagnosticsTable = nullptr;
    MetricsModel* m_metricsModel = nullptr;
    DiagnosticsModel* m_diagnosticsModel = nullptr;
    QList<QAction*> m_storeActions;
    QAction* m_saveToLibraryAction = nullptr;
    QMenu* m_recentMenu = nullptr;
    QLabel* m_status = nullptr;
    bool m_quiet = false;
    bool m_constructing = true; ///< Errors found while constructing are shown once it is done.
    QString m_lastError;
};

} // namespace dct::ui
