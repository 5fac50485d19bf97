#include "dct/ui/mainwindow.h"

#include "dct/ui/catalogprovider.h"
#include "dct/ui/compareview.h"
#include "dct/ui/dashboard.h"
#include "dct/ui/diagnosticsmodel.h"
#include "dct/ui/documentmanager.h"
#include "dct/ui/fabricpicture.h"
#include "dct/ui/fieldgroup.h"
#include "dct/ui/fieldinfo.h"
#include "dct/ui/floorplanview.h"
#include "dct/ui/format.h"
#include "dct/ui/layoutplandialog.h"
#include "dct/ui/librarycontroller.h"
#include "dct/ui/metricsmodel.h"
#include "dct/ui/reportexport.h"
#include "dct/ui/scenariodocument.h"
#include "dct/ui/scenarioform.h"
#include "dct/ui/scenariolibrarymodel.h"
#include "dct/ui/startpage.h"
#include "dct/ui/storescenariosource.h"
#include "dct/ui/topologyview.h"

#include <QAction>
#include <QApplication>
#include <QCloseEvent>
#include <QDockWidget>
#include <QFileDialog>
#include <QFileInfo>
#include <QHeaderView>
#include <QInputDialog>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QRegularExpression>
#include <QScrollArea>
#include <QSettings>
#include <QStackedWidget>
#include <QStatusBar>
#include <QTabWidget>
#include <QTableView>
#include <QTimer>
#include <QToolBar>
#include <QTreeView>
#include <QUndoGroup>

namespace dct::ui {

namespace {

/** Returns "what-if: Node count 64, NIC cx7-400g" for the fields \a copy changed from \a base. */
QString whatIfChanges(const nlohmann::json& base, const nlohmann::json& copy)
{
    QStringList changes;
    for (const auto& op : nlohmann::json::diff(base, copy)) {
        const std::string path = op.value("path", std::string());
        if (path == "/name")
            continue;
        const FieldInfo* field = findFieldInfo(path);
        QString what = field ? qstr(field->label) : qstr(path);
        if (op.contains("value")) {
            const nlohmann::json& v = op["value"];
            what += QStringLiteral(" ") + (v.is_string()   ? qstr(v.get<std::string>())
                                           : v.is_number() ? formatNumber(v.get<double>())
                                                           : qstr(v.dump()));
        } else {
            what += QObject::tr(" default");
        }
        if (!changes.contains(what))
            changes << what;
    }
    if (changes.isEmpty())
        return QObject::tr("what-if");
    if (changes.size() > 2)
        return QObject::tr("what-if: %1, %2 and %n more", nullptr,
                           static_cast<int>(changes.size() - 2))
            .arg(changes[0], changes[1]);
    return QObject::tr("what-if: %1").arg(changes.join(QStringLiteral(", ")));
}

} // namespace

MainWindow::MainWindow(QWidget* parent)
    : QMainWindow(parent), m_documents(new DocumentManager(this)),
      m_library(new LibraryController(m_documents, this))
{
    setObjectName(QStringLiteral("mainWindow"));
    m_tabs = new QTabWidget(this);
    // The dashboard scrolls: its charts keep the height their labels need on any screen.
    auto* dashboardScroll = new QScrollArea(m_tabs);
    dashboardScroll->setWidgetResizable(true);
    dashboardScroll->setFrameShape(QFrame::NoFrame);
    m_dashboard = new Dashboard(dashboardScroll);
    dashboardScroll->setWidget(m_dashboard);
    m_topology = new TopologyView(m_tabs);
    m_floorPlan = new FloorPlanView(m_tabs);
    m_compare = new CompareView(m_tabs);
    m_figuresTable = new QTableView(m_tabs);
    m_metricsModel = new MetricsModel(this);
    m_figuresTable->setModel(m_metricsModel);
    m_figuresTable->setAlternatingRowColors(true);
    m_figuresTable->verticalHeader()->setVisible(false);
    m_figuresTable->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_figuresTable->horizontalHeader()->setStretchLastSection(true);
    m_figuresTable->verticalHeader()->setDefaultSectionSize(fontMetrics().height() + 6);
    m_tabs->addTab(dashboardScroll, tr("Dashboard"));
    m_tabs->addTab(m_topology, tr("Topology"));
    m_tabs->addTab(m_floorPlan, tr("Floor plan"));
    m_tabs->addTab(m_compare, tr("Compare"));
    m_tabs->addTab(m_figuresTable, tr("All figures"));
    // While no scenario is open, the start page stands in place of the views: the examples,
    // a file, a new scenario; not ten "n/a" cards.
    m_start = new StartPage(this);
    m_central = new QStackedWidget(this);
    m_central->addWidget(m_start);
    m_central->addWidget(m_tabs);
    setCentralWidget(m_central);
    connect(m_start, &StartPage::exampleChosen, this,
            [this](const QString& path) { openFile(path); });
    connect(m_start, &StartPage::openRequested, this, [this] { openDialog(); });
    connect(m_start, &StartPage::newRequested, this, [this] { m_documents->newDocument(); });

    m_status = new QLabel(this);
    statusBar()->addWidget(m_status, 1);

    createDocks();
    createActions();

    // Both report errors and notes to the window; the views follow the current document.
    connect(m_documents, &DocumentManager::errorOccurred, this, &MainWindow::reportError);
    // Edits made on the floor plan go onto the current document's undo stack.
    connect(m_floorPlan, &FloorPlanView::editRequested, this,
            [this](const std::string& pointer, const nlohmann::json& value) {
                if (ScenarioDocument* document = m_documents->current())
                    document->edit(pointer, value);
            });
    connect(m_library, &LibraryController::errorOccurred, this, &MainWindow::reportError);
    connect(m_documents, &DocumentManager::statusMessage, m_status, &QLabel::setText);
    connect(m_library, &LibraryController::statusMessage, m_status, &QLabel::setText);
    connect(m_documents, &DocumentManager::currentChanged, this, &MainWindow::showCurrent);
    connect(m_documents, &DocumentManager::documentEvaluated, this,
            [this](ScenarioDocument* document) {
                if (document == m_documents->current())
                    refreshViews();
            });
    connect(m_documents, &DocumentManager::documentTitleChanged, this, &MainWindow::updateTitle);
    connect(m_documents, &DocumentManager::documentsChanged, this,
            [this] { m_compare->setDocuments(m_documents->documents()); });
    connect(m_documents, &DocumentManager::recentFilesChanged, this,
            &MainWindow::rebuildRecentMenu);
    connect(m_library, &LibraryController::libraryChanged, m_libraryView, &QTreeView::expandAll);
    connect(m_library, &LibraryController::storeChanged, this, [this](bool available) {
        for (QAction* a : std::as_const(m_storeActions))
            a->setEnabled(available);
        // A damaged store is only read: its history opens, saving to it is off.
        if (m_saveToLibraryAction)
            m_saveToLibraryAction->setEnabled(available && !m_library->storeReadOnly());
    });

    openStore();

    const QSettings settings;
    resize(1480, 940);
    restoreGeometry(settings.value(QStringLiteral("window/geometry")).toByteArray());
    restoreState(settings.value(QStringLiteral("window/state")).toByteArray());
    m_tabs->setCurrentIndex(settings.value(QStringLiteral("window/tab"), 0).toInt());
    rebuildRecentMenu();
    if (!CatalogProvider::loadError().empty())
        m_status->setText(tr("Catalog not loaded: %1").arg(qstr(CatalogProvider::loadError())));
    updateTitle();
    m_constructing = false;
}

MainWindow::~MainWindow() = default;

ScenarioDocument* MainWindow::currentDocument() const
{
    return m_documents->current();
}

const QList<ScenarioDocument*>& MainWindow::documents() const
{
    return m_documents->documents();
}

StoreScenarioSource* MainWindow::store() const
{
    return m_library->store();
}

ScenarioLibraryModel* MainWindow::libraryModel() const
{
    return m_library->model();
}

QUndoGroup* MainWindow::undoGroup() const
{
    return m_documents->undoGroup();
}

void MainWindow::createDocks()
{
    m_libraryView = new QTreeView(this);
    m_libraryView->setModel(m_library->model());
    m_libraryView->setHeaderHidden(true);
    m_libraryView->setRootIsDecorated(true);
    connect(m_libraryView, &QTreeView::activated, this, &MainWindow::activateLibraryItem);
    connect(m_libraryView, &QTreeView::clicked, this, [this](const QModelIndex& index) {
        // One click switches between open scenarios; opening from a source takes a double one.
        if (index.data(ScenarioLibraryModel::DocumentRole).value<QObject*>())
            activateLibraryItem(index);
    });
    auto* libraryDock = new QDockWidget(tr("Scenario library"), this);
    libraryDock->setObjectName(QStringLiteral("libraryDock"));
    libraryDock->setWidget(m_libraryView);
    addDockWidget(Qt::LeftDockWidgetArea, libraryDock);

    m_form = new ScenarioForm(this);
    auto* formDock = new QDockWidget(tr("Scenario editor"), this);
    formDock->setObjectName(QStringLiteral("editorDock"));
    formDock->setWidget(m_form);
    addDockWidget(Qt::LeftDockWidgetArea, formDock);
    splitDockWidget(libraryDock, formDock, Qt::Vertical);
    // The library is tall enough for the open scenarios and the bundled examples together.
    resizeDocks({libraryDock, formDock}, {250, 620}, Qt::Vertical);
    resizeDocks({libraryDock}, {430}, Qt::Horizontal);

    m_diagnosticsModel = new DiagnosticsModel(this);
    m_diagnosticsTable = new QTableView(this);
    m_diagnosticsTable->setModel(m_diagnosticsModel);
    m_diagnosticsTable->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_diagnosticsTable->setSelectionMode(QAbstractItemView::SingleSelection);
    m_diagnosticsTable->verticalHeader()->setVisible(false);
    // Every message whole: the message and the hint share the width and wrap, each row as tall
    // as its text.
    QHeaderView* columns = m_diagnosticsTable->horizontalHeader();
    columns->setSectionResizeMode(QHeaderView::ResizeToContents);
    columns->setSectionResizeMode(DiagnosticsModel::MessageColumn, QHeaderView::Stretch);
    columns->setSectionResizeMode(DiagnosticsModel::HintColumn, QHeaderView::Stretch);
    m_diagnosticsTable->setWordWrap(true);
    m_diagnosticsTable->setTextElideMode(Qt::ElideNone);
    m_diagnosticsTable->verticalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_diagnosticsTable->setMinimumHeight(5 * (fontMetrics().height() + 6));
    const auto focusDiagnostic = [this](const QModelIndex& index) {
        const QString path = index.data(DiagnosticsModel::PathRole).toString();
        if (!m_form->focusField(path))
            m_status->setText(tr("%1 is not a field of the form").arg(path));
    };
    connect(m_diagnosticsTable, &QTableView::activated, this, focusDiagnostic);
    connect(m_diagnosticsTable, &QTableView::clicked, this, focusDiagnostic);
    auto* diagnosticsDock = new QDockWidget(tr("Diagnostics"), this);
    diagnosticsDock->setObjectName(QStringLiteral("diagnosticsDock"));
    diagnosticsDock->setWidget(m_diagnosticsTable);
    addDockWidget(Qt::BottomDockWidgetArea, diagnosticsDock);
    resizeDocks({diagnosticsDock}, {210}, Qt::Vertical);
}

void MainWindow::createActions()
{
    QMenu* file = menuBar()->addMenu(tr("&File"));
    QToolBar* tools = addToolBar(tr("Main"));
    tools->setObjectName(QStringLiteral("mainToolBar"));
    tools->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);

    auto add = [this](QMenu* menu, const QString& text, QKeySequence key, auto slot,
                      QStyle::StandardPixmap icon = QStyle::SP_CustomBase) {
        QAction* a = menu->addAction(text);
        a->setShortcut(key);
        if (icon != QStyle::SP_CustomBase)
            a->setIcon(style()->standardIcon(icon));
        connect(a, &QAction::triggered, this, slot);
        return a;
    };
    QAction* newAction = add(
        file, tr("&New"), QKeySequence::New, [this] { m_documents->newDocument(); },
        QStyle::SP_FileIcon);
    QAction* openAction = add(
        file, tr("&Open..."), QKeySequence::Open, [this] { openDialog(); },
        QStyle::SP_DialogOpenButton);
    m_recentMenu = file->addMenu(tr("Open &recent"));
    QAction* saveAction = add(
        file, tr("&Save"), QKeySequence::Save, [this] { saveCurrent(); },
        QStyle::SP_DialogSaveButton);
    // Ctrl+Shift+S (the platform's Save As on Linux) saves to the library, as planners save there
    // most; Save As moves to Ctrl+Alt+S so that no shortcut is ambiguous.
    add(file, tr("Save &as..."), QKeySequence(tr("Ctrl+Alt+S")), [this] { saveCurrentAs(); });
    QAction* saveToLibraryAction = add(
        file, tr("Save to &library"), QKeySequence(tr("Ctrl+Shift+S")),
        [this] { saveToLibraryDialog(); }, QStyle::SP_DriveHDIcon);
    saveToLibraryAction->setToolTip(
        tr("Save the scenario as a new version in the scenario library (Ctrl+Shift+S)"));
    QAction* historyAction = add(file, tr("Scenario &history..."), QKeySequence(tr("Ctrl+H")),
                                 [this] { showHistory(); });
    historyAction->setToolTip(tr("List the saved versions of the selected library scenario"));
    m_storeActions = {saveToLibraryAction, historyAction};
    m_saveToLibraryAction = saveToLibraryAction;
    for (QAction* a : std::as_const(m_storeActions))
        a->setEnabled(m_library->store() != nullptr);
    saveToLibraryAction->setEnabled(m_library->store() != nullptr && !m_library->storeReadOnly());
    file->addSeparator();
    QAction* exportAction = add(
        file, tr("&Export report..."), QKeySequence(tr("Ctrl+E")), [this] { exportReportDialog(); },
        QStyle::SP_FileDialogDetailedView);
    exportAction->setToolTip(tr("Export a PDF or HTML report of the scenario, or of the compared "
                                "scenarios when the Compare tab is open (Ctrl+E)"));
    file->addSeparator();
    QAction* whatIf = add(
        file, tr("&Duplicate as what-if"), QKeySequence(tr("Ctrl+D")),
        [this] { duplicateAsWhatIf(); }, QStyle::SP_FileDialogNewFolder);
    add(file, tr("&Close scenario"), QKeySequence::Close,
        [this] { closeDocument(m_documents->current()); });
    file->addSeparator();
    add(file, tr("&Quit"), QKeySequence::Quit, [this] { close(); });

    QMenu* edit = menuBar()->addMenu(tr("&Edit"));
    QAction* undo = m_documents->undoGroup()->createUndoAction(this, tr("&Undo"));
    undo->setShortcut(QKeySequence::Undo);
    undo->setIcon(style()->standardIcon(QStyle::SP_ArrowBack));
    QAction* redo = m_documents->undoGroup()->createRedoAction(this, tr("&Redo"));
    // The toolbar shows a fixed "Undo" and "Redo" (what they undo is in the menu and the
    // tooltip), so that an edit never resizes the toolbar.
    undo->setIconText(tr("Undo"));
    redo->setIconText(tr("Redo"));
    redo->setShortcut(QKeySequence::Redo);
    redo->setIcon(style()->standardIcon(QStyle::SP_ArrowForward));
    edit->addAction(undo);
    edit->addAction(redo);
    edit->addSeparator();
    QAction* plan = add(edit, tr("Find best &layout..."), QKeySequence(tr("Ctrl+L")),
                        [this] { findBestLayout(); });
    plan->setToolTip(tr("Search the parallel layouts of the training job for the fastest that "
                        "fits in GPU memory, and apply one (undoable)"));

    QMenu* view = menuBar()->addMenu(tr("&View"));
    const QStringList names = {tr("&Dashboard"), tr("&Topology"), tr("Floor &plan"), tr("&Compare"),
                               tr("All &figures")};
    for (int i = 0; i < names.size(); ++i)
        add(view, names[i], QKeySequence(QStringLiteral("Ctrl+%1").arg(i + 1)),
            [this, i] { m_tabs->setCurrentIndex(i); });
    view->addSeparator();
    for (QDockWidget* dock : findChildren<QDockWidget*>())
        view->addAction(dock->toggleViewAction());

    QMenu* help = menuBar()->addMenu(tr("&Help"));
    add(help, tr("&About DC Twin"), QKeySequence(), [this] {
        QMessageBox::about(this, tr("About DC Twin"),
                           tr("DC Twin: a digital twin and capacity planner for AI data "
                              "centers. Edit a scenario on the left; every figure updates."));
    });

    tools->addAction(newAction);
    tools->addAction(openAction);
    tools->addAction(saveAction);
    tools->addAction(saveToLibraryAction);
    tools->addAction(exportAction);
    tools->addSeparator();
    tools->addAction(undo);
    tools->addAction(redo);
    tools->addSeparator();
    tools->addAction(whatIf);

    // The library's own menu: open the selected scenario or list its versions.
    auto* openSelected = new QAction(tr("Open"), m_libraryView);
    connect(openSelected, &QAction::triggered, this,
            [this] { activateLibraryItem(m_libraryView->currentIndex()); });
    m_libraryView->addAction(openSelected);
    m_libraryView->addAction(historyAction);
    m_libraryView->setContextMenuPolicy(Qt::ActionsContextMenu);
}

ScenarioDocument* MainWindow::openJson(const nlohmann::json& json, const QString& filePath)
{
    return m_documents->openJson(json, filePath);
}

ScenarioDocument* MainWindow::openFile(const QString& path)
{
    return m_documents->openFile(path);
}

bool MainWindow::saveTo(const QString& path)
{
    return m_documents->save(m_documents->current(), path);
}

ScenarioDocument* MainWindow::duplicateAsWhatIf()
{
    ScenarioDocument* base = m_documents->current();
    if (!base)
        return nullptr;
    nlohmann::json json = base->json();
    const QString baseTitle = base->title();
    json["name"] = (baseTitle + tr(" (what-if)")).toStdString();
    ScenarioDocument* copy = m_documents->openJson(json);
    // The copy is named by what changed ("... (what-if: Node count 64)"), so that the compare
    // columns and the library tell the copies apart; a name the planner types stays.
    const nlohmann::json original = base->json();
    connect(copy, &ScenarioDocument::valueChanged, this,
            [copy, original, baseTitle,
             named = copy->json().value("name", std::string())](const QString& pointer) mutable {
                if (pointer == QStringLiteral("/name") ||
                    copy->json().value("name", std::string()) != named)
                    return;
                named = (baseTitle + QStringLiteral(" (") + whatIfChanges(original, copy->json()) +
                         QStringLiteral(")"))
                            .toStdString();
                copy->applyValue("/name", nlohmann::json(named));
            });
    m_compare->compare({base, copy});
    return copy;
}

bool MainWindow::closeDocument(ScenarioDocument* document)
{
    if (!document || !maybeSave(document))
        return false;
    return m_documents->close(document);
}

void MainWindow::setCurrentDocument(ScenarioDocument* document)
{
    m_documents->setCurrent(document);
}

void MainWindow::showCurrent()
{
    m_central->setCurrentWidget(m_documents->current() ? static_cast<QWidget*>(m_tabs) : m_start);
    m_form->setDocument(m_documents->current());
    refreshViews();
    updateTitle();
}

bool MainWindow::focusFirstDiagnostic()
{
    for (int row = 0; row < m_diagnosticsModel->rowCount(); ++row) {
        const QModelIndex index = m_diagnosticsModel->index(row, 0);
        if (m_form->focusField(index.data(DiagnosticsModel::PathRole).toString())) {
            m_diagnosticsTable->selectRow(row);
            return true;
        }
    }
    return false;
}

void MainWindow::showView(View view)
{
    m_tabs->setCurrentIndex(static_cast<int>(view));
}

bool MainWindow::startPageShown() const
{
    return m_central->currentWidget() == m_start;
}

void MainWindow::refreshViews()
{
    ScenarioDocument* current = m_documents->current();
    const auto outcome = current ? current->outcome() : std::make_shared<const EvaluationOutcome>();
    m_dashboard->setOutcome(outcome);
    m_metricsModel->setMetrics(outcome->metrics());
    m_diagnosticsModel->setDiagnostics(outcome->diagnostics);
    m_form->setOutcome(*outcome);
    m_topology->setPicture(outcome->evaluation ? FabricPicture::fromEvaluation(*outcome->evaluation)
                                               : FabricPicture{});
    if (outcome->evaluation && current) {
        // The document's own layout fields (absent or odd values show as "auto").
        auto integer = [current](const char* pointer) {
            const nlohmann::json v = current->value(pointer);
            return v.is_number_integer() ? v.get<int>() : 0;
        };
        const nlohmann::json placement = current->value("/hall/network_placement");
        m_floorPlan->setHall(outcome->evaluation->network.hall, integer("/hall/rows"),
                             integer("/hall/racks_per_row"),
                             placement.is_string()
                                 ? QString::fromStdString(placement.get<std::string>())
                                 : QStringLiteral("end_of_row"));
    } else
        m_floorPlan->setHall(solvers::HallResult{});
    const auto& d = outcome->diagnostics;
    if (current)
        m_status->setText(tr("%1: %2 figures, %3 errors, %4 warnings")
                              .arg(current->title())
                              .arg(outcome->metrics().size())
                              .arg(d.count(Severity::Error))
                              .arg(d.count(Severity::Warning)));
}

void MainWindow::updateTitle()
{
    const ScenarioDocument* current = m_documents->current();
    if (!current) {
        setWindowTitle(tr("DC Twin"));
        return;
    }
    setWindowTitle(
        tr("%1%2 - DC Twin")
            .arg(current->title(), current->isModified() ? QStringLiteral(" *") : QString()));
}

void MainWindow::rebuildRecentMenu()
{
    m_recentMenu->clear();
    const QStringList recent = m_documents->recentFiles();
    for (int i = 0; i < recent.size(); ++i) {
        QAction* a = m_recentMenu->addAction(
            QStringLiteral("&%1 %2").arg(i + 1).arg(QFileInfo(recent[i]).fileName()));
        a->setToolTip(recent[i]);
        const QString path = recent[i];
        connect(a, &QAction::triggered, this, [this, path] { m_documents->openFile(path); });
    }
    m_recentMenu->setEnabled(!recent.isEmpty());
}

void MainWindow::reportError(const QString& title, const QString& text, const QString& details)
{
    m_lastError = text;
    m_status->setText(title);
    if (m_quiet)
        return;
    const auto show = [this, title, text, details] {
        if (m_quiet)
            return;
        QMessageBox box(QMessageBox::Critical, title, text, QMessageBox::Ok, this);
        if (!details.isEmpty())
            box.setDetailedText(details);
        box.exec();
    };
    // While the window is being made the dialog waits for the event loop: the window is then
    // on screen behind it, and a test (or the screenshot tool) has had the chance to go quiet.
    if (m_constructing)
        QTimer::singleShot(0, this, show);
    else
        show();
}

bool MainWindow::maybeSave(ScenarioDocument* document)
{
    if (!document->isModified() || m_quiet)
        return true;
    setCurrentDocument(document);
    const auto answer = QMessageBox::warning(
        this, tr("Unsaved changes"),
        tr("The scenario \"%1\" has changes that are not saved.").arg(document->title()),
        QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel, QMessageBox::Save);
    if (answer == QMessageBox::Cancel)
        return false;
    if (answer == QMessageBox::Save)
        return saveCurrent();
    return true;
}

void MainWindow::openDialog()
{
    const QSettings settings;
    const QString dir = settings.value(QStringLiteral("lastDirectory")).toString();
    const QStringList paths = QFileDialog::getOpenFileNames(
        this, tr("Open scenario"), dir, tr("Scenario JSON (*.json);;All files (*)"));
    for (const QString& path : paths) {
        QSettings().setValue(QStringLiteral("lastDirectory"), QFileInfo(path).absolutePath());
        openFile(path);
    }
}

bool MainWindow::saveCurrent()
{
    ScenarioDocument* current = m_documents->current();
    if (!current)
        return false;
    // A scenario that came from the library and was never saved to a file goes back there.
    if (current->filePath().isEmpty() && !current->storeName().isEmpty() && m_library->store())
        return m_library->saveToLibrary(current) > 0;
    if (current->filePath().isEmpty())
        return saveCurrentAs();
    return m_documents->save(current, current->filePath());
}

bool MainWindow::saveCurrentAs()
{
    ScenarioDocument* current = m_documents->current();
    if (!current)
        return false;
    QString path = QFileDialog::getSaveFileName(
        this, tr("Save scenario"),
        current->filePath().isEmpty() ? current->title() + ".json" : current->filePath(),
        tr("Scenario JSON (*.json)"));
    if (path.isEmpty())
        return false;
    if (!path.endsWith(QLatin1String(".json")))
        path += QLatin1String(".json");
    return m_documents->save(current, path);
}

void MainWindow::activateLibraryItem(const QModelIndex& index)
{
    m_library->activate(index);
}

bool MainWindow::openStore(const QString& path)
{
    return m_library->openStore(path);
}

ScenarioDocument* MainWindow::openStored(const QString& name, int version)
{
    return m_library->openStored(name, version);
}

int MainWindow::saveToLibrary(const QString& name)
{
    return m_library->saveToLibrary(m_documents->current(), name);
}

QList<ScenarioDocument*> MainWindow::reportDocuments() const
{
    if (m_tabs->currentIndex() == CompareTab) {
        const auto compared = m_compare->comparedDocuments();
        if (!compared.isEmpty())
            return compared;
    }
    if (ScenarioDocument* current = m_documents->current())
        return {current};
    return {};
}

bool MainWindow::exportReport(const QString& path)
{
    const auto documents = reportDocuments();
    const QString problem = ui::exportReport(documents, path);
    if (!problem.isEmpty()) {
        reportError(tr("Cannot export report"), tr("The report could not be written to %1.\n\n%2")
                                                    .arg(QDir::toNativeSeparators(path), problem));
        return false;
    }
    m_status->setText(documents.size() > 1
                          ? tr("Comparison report of %1 scenarios written to %2")
                                .arg(documents.size())
                                .arg(QDir::toNativeSeparators(path))
                          : tr("Report written to %1").arg(QDir::toNativeSeparators(path)));
    return true;
}

void MainWindow::exportReportDialog()
{
    const auto documents = reportDocuments();
    if (documents.isEmpty()) {
        reportError(tr("Cannot export report"),
                    tr("There is no scenario to report: open or create one first."));
        return;
    }
    const QString pdfFilter = tr("PDF report (*.pdf)");
    const QString htmlFilter = tr("HTML report (*.html *.htm)");
    QString base = documents.size() > 1 ? tr("comparison") : documents.front()->title();
    base.replace(QRegularExpression(QStringLiteral("[^A-Za-z0-9._-]+")), QStringLiteral("-"));
    const QString dir = QSettings().value(QStringLiteral("lastReportDirectory")).toString();
    QString filter = pdfFilter;
    QString path = QFileDialog::getSaveFileName(
        this, documents.size() > 1 ? tr("Export comparison report") : tr("Export report"),
        QDir(dir).filePath(base + QStringLiteral(".pdf")),
        pdfFilter + QStringLiteral(";;") + htmlFilter, &filter);
    if (path.isEmpty())
        return;
    // The extension chooses the format; without one, the chosen filter does.
    const QString suffix = QFileInfo(path).suffix().toLower();
    if (suffix != QLatin1String("pdf") && suffix != QLatin1String("html") &&
        suffix != QLatin1String("htm"))
        path += filter == htmlFilter ? QStringLiteral(".html") : QStringLiteral(".pdf");
    QSettings().setValue(QStringLiteral("lastReportDirectory"), QFileInfo(path).absolutePath());
    exportReport(path);
}

void MainWindow::saveToLibraryDialog()
{
    ScenarioDocument* current = m_documents->current();
    if (!current || !m_library->store())
        return;
    QString name = current->storeName();
    if (name.isEmpty() && !m_quiet) {
        bool ok = false;
        name = QInputDialog::getText(this, tr("Save to library"),
                                     tr("Name in the library (an existing name gets a new "
                                        "version):"),
                                     QLineEdit::Normal, current->title(), &ok)
                   .trimmed();
        if (!ok || name.isEmpty())
            return;
    }
    m_library->saveToLibrary(current, name);
}

QString MainWindow::selectedStoredName() const
{
    const QString selected = m_library->storedName(m_libraryView->currentIndex());
    if (!selected.isEmpty())
        return selected;
    const ScenarioDocument* current = m_documents->current();
    return current ? current->storeName() : QString();
}

void MainWindow::showHistory()
{
    if (m_library->store())
        m_library->showHistory(selectedStoredName(), this);
}

void MainWindow::closeEvent(QCloseEvent* event)
{
    const QList<ScenarioDocument*> documents = m_documents->documents();
    for (ScenarioDocument* d : documents)
        if (!maybeSave(d)) {
            event->ignore();
            return;
        }
    QSettings settings;
    settings.setValue(QStringLiteral("window/geometry"), saveGeometry());
    settings.setValue(QStringLiteral("window/state"), saveState());
    settings.setValue(QStringLiteral("window/tab"), m_tabs->currentIndex());
    event->accept();
}

} // namespace dct::ui

namespace dct::ui {

LayoutPlanDialog* MainWindow::findBestLayout()
{
    ScenarioDocument* document = m_documents->current();
    if (!document)
        return nullptr;
    // Window-modal: the document it edits stays open while it runs.
    auto* dialog = new LayoutPlanDialog(document, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->open();
    dialog->start();
    return dialog;
}

} // namespace dct::ui
