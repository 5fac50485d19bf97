#include "dct/ui/mainwindow.h"

#include "dct/model/catalog.h"
#include "dct/model/scenarioio.h"
#include "dct/store/scenariostore.h"
#include "dct/ui/catalogprovider.h"
#include "dct/ui/compareview.h"
#include "dct/ui/dashboard.h"
#include "dct/ui/diagnosticsmodel.h"
#include "dct/ui/fabricpicture.h"
#include "dct/ui/folderscenariosource.h"
#include "dct/ui/format.h"
#include "dct/ui/metricsmodel.h"
#include "dct/ui/reportexport.h"
#include "dct/ui/scenariodocument.h"
#include "dct/ui/scenarioform.h"
#include "dct/ui/scenariolibrarymodel.h"
#include "dct/ui/storescenariosource.h"
#include "dct/ui/topologyview.h"

#include <QAction>
#include <QApplication>
#include <QCloseEvent>
#include <QDialog>
#include <QDialogButtonBox>
#include <QDockWidget>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QHeaderView>
#include <QInputDialog>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QPushButton>
#include <QRegularExpression>
#include <QSettings>
#include <QStatusBar>
#include <QTabWidget>
#include <QTableView>
#include <QTableWidget>
#include <QTimer>
#include <QToolBar>
#include <QTreeView>
#include <QUndoGroup>
#include <QUndoStack>
#include <QVBoxLayout>

namespace dct::ui {

namespace {

constexpr int kMaxRecent = 8;
const char* const kRecentKey = "recentFiles";

} // namespace

MainWindow::MainWindow(QWidget* parent) : QMainWindow(parent), m_undoGroup(new QUndoGroup(this))
{
    setObjectName(QStringLiteral("mainWindow"));
    m_tabs = new QTabWidget(this);
    m_dashboard = new Dashboard(m_tabs);
    m_topology = new TopologyView(m_tabs);
    m_compare = new CompareView(m_tabs);
    m_figuresTable = new QTableView(m_tabs);
    m_metricsModel = new MetricsModel(this);
    m_figuresTable->setModel(m_metricsModel);
    m_figuresTable->setAlternatingRowColors(true);
    m_figuresTable->verticalHeader()->setVisible(false);
    m_figuresTable->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_figuresTable->horizontalHeader()->setStretchLastSection(true);
    m_figuresTable->verticalHeader()->setDefaultSectionSize(fontMetrics().height() + 6);
    m_tabs->addTab(m_dashboard, tr("Dashboard"));
    m_tabs->addTab(m_topology, tr("Topology"));
    m_tabs->addTab(m_compare, tr("Compare"));
    m_tabs->addTab(m_figuresTable, tr("All figures"));
    setCentralWidget(m_tabs);

    m_status = new QLabel(this);
    statusBar()->addWidget(m_status, 1);

    createDocks();
    createActions();

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
    return m_current;
}

void MainWindow::createDocks()
{
    m_libraryModel = new ScenarioLibraryModel(this);
    m_library = new QTreeView(this);
    m_library->setModel(m_libraryModel);
    m_library->setHeaderHidden(true);
    m_library->setRootIsDecorated(true);
    connect(m_library, &QTreeView::activated, this, &MainWindow::activateLibraryItem);
    connect(m_library, &QTreeView::clicked, this, [this](const QModelIndex& index) {
        // One click switches between open scenarios; opening from a source takes a double one.
        if (index.data(ScenarioLibraryModel::DocumentRole).value<QObject*>())
            activateLibraryItem(index);
    });
    auto* libraryDock = new QDockWidget(tr("Scenario library"), this);
    libraryDock->setObjectName(QStringLiteral("libraryDock"));
    libraryDock->setWidget(m_library);
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
    m_diagnosticsTable->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_diagnosticsTable->horizontalHeader()->setStretchLastSection(true);
    m_diagnosticsTable->setWordWrap(false);
    m_diagnosticsTable->verticalHeader()->setDefaultSectionSize(fontMetrics().height() + 6);
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
    resizeDocks({diagnosticsDock}, {170}, Qt::Vertical);
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
        file, tr("&New"), QKeySequence::New, [this] { newDocument(); }, QStyle::SP_FileIcon);
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
    for (QAction* a : std::as_const(m_storeActions))
        a->setEnabled(m_store != nullptr);
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
    add(file, tr("&Close scenario"), QKeySequence::Close, [this] { closeDocument(m_current); });
    file->addSeparator();
    add(file, tr("&Quit"), QKeySequence::Quit, [this] { close(); });

    QMenu* edit = menuBar()->addMenu(tr("&Edit"));
    QAction* undo = m_undoGroup->createUndoAction(this, tr("&Undo"));
    undo->setShortcut(QKeySequence::Undo);
    undo->setIcon(style()->standardIcon(QStyle::SP_ArrowBack));
    QAction* redo = m_undoGroup->createRedoAction(this, tr("&Redo"));
    redo->setShortcut(QKeySequence::Redo);
    redo->setIcon(style()->standardIcon(QStyle::SP_ArrowForward));
    edit->addAction(undo);
    edit->addAction(redo);

    QMenu* view = menuBar()->addMenu(tr("&View"));
    const QStringList names = {tr("&Dashboard"), tr("&Topology"), tr("&Compare"),
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
    auto* openSelected = new QAction(tr("Open"), m_library);
    connect(openSelected, &QAction::triggered, this,
            [this] { activateLibraryItem(m_library->currentIndex()); });
    m_library->addAction(openSelected);
    m_library->addAction(historyAction);
    m_library->setContextMenuPolicy(Qt::ActionsContextMenu);
}

ScenarioDocument* MainWindow::openJson(const nlohmann::json& json, const QString& filePath)
{
    auto* document = new ScenarioDocument(json, filePath, this);
    m_documents << document;
    m_undoGroup->addStack(document->undoStack());
    connect(document, &ScenarioDocument::evaluated, this, [this, document] {
        if (document == m_current)
            refreshViews();
    });
    connect(document, &ScenarioDocument::titleChanged, this, [this] { updateTitle(); });
    refreshLibrary();
    m_compare->setDocuments(m_documents);
    setCurrentDocument(document);
    document->evaluate();
    return document;
}

ScenarioDocument* MainWindow::openFile(const QString& path)
{
    for (ScenarioDocument* d : std::as_const(m_documents))
        if (!d->filePath().isEmpty() && QFileInfo(d->filePath()) == QFileInfo(path)) {
            setCurrentDocument(d);
            return d;
        }
    model::ScenarioReadResult read;
    try {
        read = model::readScenarioFile(path.toStdString());
    } catch (const std::exception& e) {
        read.diagnostics.error("", e.what(), {}, "io");
    }
    if (!read.scenario || read.diagnostics.hasErrors()) {
        QStringList lines;
        for (const auto& d : read.diagnostics) {
            if (d.severity != Severity::Error)
                continue;
            QString line = QStringLiteral("%1: %2").arg(
                d.path.empty() ? tr("(document)") : qstr(d.path), qstr(d.message));
            if (!d.hint.empty())
                line += tr("\n    accepted: %1").arg(qstr(d.hint));
            lines << line;
        }
        reportError(tr("Cannot open scenario"),
                    tr("The file %1 is not a scenario DC Twin can read:\n\n%2")
                        .arg(QDir::toNativeSeparators(path), lines.join(QStringLiteral("\n"))),
                    qstr(read.diagnostics.empty() ? std::string()
                                                  : read.diagnostics.items().front().toString()));
        return nullptr;
    }
    nlohmann::json json;
    QFile file(path);
    if (read.migratedFrom == 0 && file.open(QIODevice::ReadOnly)) {
        const QByteArray bytes = file.readAll();
        json = nlohmann::json::parse(bytes.constBegin(), bytes.constEnd(), nullptr, false);
    }
    // A migrated file is edited in the current schema; saving writes that version.
    if (json.is_discarded() || !json.is_object())
        json = model::writeScenario(*read.scenario);
    ScenarioDocument* document = openJson(json, read.migratedFrom == 0 ? path : QString());
    addRecent(path);
    return document;
}

bool MainWindow::saveTo(const QString& path)
{
    if (!m_current)
        return false;
    const QString problem = m_current->saveAs(path);
    if (!problem.isEmpty()) {
        reportError(tr("Cannot save scenario"), tr("The scenario could not be saved to %1.\n\n%2")
                                                    .arg(QDir::toNativeSeparators(path), problem));
        return false;
    }
    addRecent(path);
    m_status->setText(tr("Saved %1").arg(QDir::toNativeSeparators(path)));
    refreshLibrary();
    return true;
}

ScenarioDocument* MainWindow::duplicateAsWhatIf()
{
    if (!m_current)
        return nullptr;
    ScenarioDocument* base = m_current;
    nlohmann::json json = base->json();
    json["name"] = (base->title() + tr(" (what-if)")).toStdString();
    ScenarioDocument* copy = openJson(json);
    m_compare->setDocuments(m_documents);
    m_compare->compare({base, copy});
    return copy;
}

bool MainWindow::closeDocument(ScenarioDocument* document)
{
    if (!document || !maybeSave(document))
        return false;
    m_documents.removeAll(document);
    m_undoGroup->removeStack(document->undoStack());
    if (m_current == document)
        setCurrentDocument(m_documents.isEmpty() ? nullptr : m_documents.last());
    m_compare->setDocuments(m_documents);
    refreshLibrary();
    document->deleteLater();
    return true;
}

void MainWindow::setCurrentDocument(ScenarioDocument* document)
{
    m_current = document;
    m_undoGroup->setActiveStack(document ? document->undoStack() : nullptr);
    m_form->setDocument(document);
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

void MainWindow::refreshViews()
{
    const auto outcome =
        m_current ? m_current->outcome() : std::make_shared<const EvaluationOutcome>();
    m_dashboard->setOutcome(outcome);
    m_metricsModel->setMetrics(outcome->metrics());
    m_diagnosticsModel->setDiagnostics(outcome->diagnostics);
    m_form->setDiagnostics(outcome->diagnostics);
    m_topology->setPicture(outcome->evaluation ? FabricPicture::fromEvaluation(*outcome->evaluation)
                                               : FabricPicture{});
    if (m_current && m_current->json().contains("network") &&
        m_current->json()["network"].contains("topology")) {
        FabricPicture picture = m_topology->picture();
        if (picture.available && picture.topology.isEmpty()) {
            picture.topology = qstr(m_current->value("/network/topology").dump());
            picture.topology.remove(QLatin1Char('"'));
            picture.topology.replace(QLatin1Char('_'), QLatin1Char('-'));
            m_topology->setPicture(picture);
        }
    }
    const auto& d = outcome->diagnostics;
    if (m_current)
        m_status->setText(tr("%1: %2 figures, %3 errors, %4 warnings")
                              .arg(m_current->title())
                              .arg(outcome->metrics().size())
                              .arg(d.count(Severity::Error))
                              .arg(d.count(Severity::Warning)));
}

void MainWindow::refreshLibrary()
{
    m_libraryModel->setOpenDocuments(m_documents);
    m_library->expandAll();
}

void MainWindow::updateTitle()
{
    if (!m_current) {
        setWindowTitle(tr("DC Twin"));
        return;
    }
    setWindowTitle(
        tr("%1%2 - DC Twin")
            .arg(m_current->title(), m_current->isModified() ? QStringLiteral(" *") : QString()));
    refreshLibrary();
}

void MainWindow::addRecent(const QString& path)
{
    QSettings settings;
    QStringList recent = settings.value(QLatin1String(kRecentKey)).toStringList();
    const QString absolute = QFileInfo(path).absoluteFilePath();
    recent.removeAll(absolute);
    recent.prepend(absolute);
    while (recent.size() > kMaxRecent)
        recent.removeLast();
    settings.setValue(QLatin1String(kRecentKey), recent);
    rebuildRecentMenu();
}

void MainWindow::rebuildRecentMenu()
{
    m_recentMenu->clear();
    const QStringList recent = QSettings().value(QLatin1String(kRecentKey)).toStringList();
    for (int i = 0; i < recent.size(); ++i) {
        QAction* a = m_recentMenu->addAction(
            QStringLiteral("&%1 %2").arg(i + 1).arg(QFileInfo(recent[i]).fileName()));
        a->setToolTip(recent[i]);
        const QString path = recent[i];
        connect(a, &QAction::triggered, this, [this, path] { openFile(path); });
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
    if (!m_current)
        return false;
    // A scenario that came from the library and was never saved to a file goes back there.
    if (m_current->filePath().isEmpty() && !m_current->storeName().isEmpty() && m_store)
        return saveToLibrary() > 0;
    if (m_current->filePath().isEmpty())
        return saveCurrentAs();
    return saveTo(m_current->filePath());
}

bool MainWindow::saveCurrentAs()
{
    if (!m_current)
        return false;
    QString path = QFileDialog::getSaveFileName(
        this, tr("Save scenario"),
        m_current->filePath().isEmpty() ? m_current->title() + ".json" : m_current->filePath(),
        tr("Scenario JSON (*.json)"));
    if (path.isEmpty())
        return false;
    if (!path.endsWith(QLatin1String(".json")))
        path += QLatin1String(".json");
    return saveTo(path);
}

void MainWindow::newDocument()
{
    // A new scenario starts from the seed example, so that it evaluates at once.
    const auto examples =
        model::Catalog::dataDirectory() / "examples" / "seed-h100-dallas-d2c.json";
    auto read = model::readScenarioFile(examples);
    nlohmann::json json = read.scenario ? model::writeScenario(*read.scenario)
                                        : nlohmann::json{{"schema_version", 2}};
    json["name"] = tr("New scenario").toStdString();
    openJson(json);
}

void MainWindow::activateLibraryItem(const QModelIndex& index)
{
    if (auto* object = index.data(ScenarioLibraryModel::DocumentRole).value<QObject*>()) {
        if (auto* document = qobject_cast<ScenarioDocument*>(object))
            setCurrentDocument(document);
        return;
    }
    const int sourceIndex = index.data(ScenarioLibraryModel::SourceRole).toInt();
    const auto source = m_libraryModel->source(sourceIndex);
    if (!source)
        return;
    const QString id = index.data(ScenarioLibraryModel::EntryIdRole).toString();
    if (m_store && sourceIndex == m_storeSourceIndex) {
        openStored(id);
        return;
    }
    const QString path = source->filePath(id);
    if (!path.isEmpty()) {
        openFile(path);
        return;
    }
    nlohmann::json json;
    const QString problem = source->load(id, json);
    if (!problem.isEmpty())
        reportError(tr("Cannot open scenario"), problem);
    else
        openJson(json);
}

bool MainWindow::openStore(const QString& path)
{
    m_libraryModel->clearSources();
    m_store.reset();
    m_storeSourceIndex = -1;
    const auto examples = model::Catalog::dataDirectory() / "examples";
    std::filesystem::path file;
    QString problem;
    try {
        file = path.isEmpty() ? store::ScenarioStore::defaultPath()
                              : std::filesystem::path(path.toStdString());
        store::StoreOpenOptions options;
        options.seedDirectory = examples;
        auto opened = store::ScenarioStore::open(file, options);
        if (opened)
            m_store = std::make_shared<StoreScenarioSource>(tr("Library"), std::move(*opened));
        else
            problem = qstr(opened.error().toString());
    } catch (const std::exception& e) {
        problem = QStringLiteral("%1: %2").arg(qstr(file.string()), QString::fromUtf8(e.what()));
    }
    if (m_store) {
        m_storeSourceIndex = 0;
        m_libraryModel->addSource(m_store);
    } else {
        m_libraryModel->addSource(
            std::make_shared<FolderScenarioSource>(tr("Examples"), qstr(examples.string())));
    }
    for (QAction* a : std::as_const(m_storeActions))
        a->setEnabled(m_store != nullptr);
    m_library->expandAll();
    if (!m_store) {
        reportError(tr("Scenario library not available"),
                    tr("The scenario library %1 cannot be used, so the library shows the "
                       "bundled examples and saving to the library is off. The file was left "
                       "untouched.\n\n%2\n\nSet DCT_STORE to another file to use a library "
                       "there.")
                        .arg(QDir::toNativeSeparators(qstr(file.string())), problem));
        return false;
    }
    return true;
}

ScenarioDocument* MainWindow::openStored(const QString& name, int version)
{
    if (!m_store)
        return nullptr;
    if (version == 0)
        for (ScenarioDocument* d : std::as_const(m_documents))
            if (d->storeName() == name && d->filePath().isEmpty()) {
                setCurrentDocument(d);
                return d;
            }
    nlohmann::json json;
    const QString problem = m_store->loadVersion(name, version, json);
    if (!problem.isEmpty()) {
        reportError(
            tr("Cannot open scenario"),
            tr("The scenario \"%1\" could not be read from the library.\n\n%2").arg(name, problem));
        return nullptr;
    }
    ScenarioDocument* document = openJson(json);
    document->setStoreName(name);
    document->markSaved();
    if (version > 0)
        m_status->setText(
            tr("Opened version %1 of %2; saving to the library makes it the latest version")
                .arg(version)
                .arg(name));
    return document;
}

int MainWindow::saveToLibrary(const QString& name)
{
    if (!m_current || !m_store)
        return 0;
    ScenarioDocument* document = m_current;
    QString storeName = name;
    if (storeName.isEmpty())
        storeName = document->storeName().isEmpty() ? document->title() : document->storeName();
    const QString comment =
        document->filePath().isEmpty()
            ? tr("saved from the desktop")
            : tr("saved from %1").arg(QFileInfo(document->filePath()).fileName());
    QString problem;
    const int version = m_store->save(storeName, document->json(), comment, &problem);
    if (version <= 0) {
        reportError(tr("Cannot save to the library"),
                    tr("The scenario could not be saved to the library %1.\n\n%2")
                        .arg(QDir::toNativeSeparators(m_store->path()), problem));
        return 0;
    }
    document->setStoreName(storeName);
    // A scenario kept only in the library is saved now; one with a file still owes the file.
    if (document->filePath().isEmpty())
        document->markSaved();
    m_libraryModel->refresh();
    m_library->expandAll();
    m_status->setText(tr("Saved version %1 of %2 to the library").arg(version).arg(storeName));
    return version;
}

QList<ScenarioDocument*> MainWindow::reportDocuments() const
{
    if (m_tabs->currentIndex() == CompareTab) {
        const auto compared = m_compare->comparedDocuments();
        if (!compared.isEmpty())
            return compared;
    }
    if (m_current)
        return {m_current.data()};
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
    if (!m_current || !m_store)
        return;
    QString name = m_current->storeName();
    if (name.isEmpty() && !m_quiet) {
        bool ok = false;
        name = QInputDialog::getText(this, tr("Save to library"),
                                     tr("Name in the library (an existing name gets a new "
                                        "version):"),
                                     QLineEdit::Normal, m_current->title(), &ok)
                   .trimmed();
        if (!ok || name.isEmpty())
            return;
    }
    saveToLibrary(name);
}

QString MainWindow::selectedStoredName() const
{
    const QModelIndex index = m_library->currentIndex();
    if (index.isValid() && m_store &&
        index.data(ScenarioLibraryModel::SourceRole).toInt() == m_storeSourceIndex &&
        index.parent().isValid())
        return index.data(ScenarioLibraryModel::EntryIdRole).toString();
    return m_current ? m_current->storeName() : QString();
}

void MainWindow::showHistory()
{
    if (!m_store)
        return;
    const QString name = selectedStoredName();
    if (name.isEmpty()) {
        reportError(tr("No library scenario selected"),
                    tr("Select a scenario of the library (or open one from it) to see its "
                       "history."));
        return;
    }
    QString problem;
    const auto versions = m_store->history(name, &problem);
    if (!problem.isEmpty()) {
        reportError(tr("Cannot read the history"), problem);
        return;
    }
    QDialog dialog(this);
    dialog.setWindowTitle(tr("History of %1").arg(name));
    auto* layout = new QVBoxLayout(&dialog);
    auto* table = new QTableWidget(static_cast<int>(versions.size()), 3, &dialog);
    table->setHorizontalHeaderLabels({tr("Version"), tr("Saved (UTC)"), tr("Comment")});
    table->verticalHeader()->setVisible(false);
    table->setSelectionBehavior(QAbstractItemView::SelectRows);
    table->setSelectionMode(QAbstractItemView::SingleSelection);
    table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table->horizontalHeader()->setStretchLastSection(true);
    // Newest first: the version a planner usually wants to go back to is near the top.
    for (int row = 0; row < versions.size(); ++row) {
        const auto& v = versions[versions.size() - 1 - row];
        auto* number = new QTableWidgetItem(QString::number(v.version));
        number->setData(Qt::UserRole, v.version);
        table->setItem(row, 0, number);
        table->setItem(row, 1, new QTableWidgetItem(v.savedAt));
        table->setItem(row, 2, new QTableWidgetItem(v.comment));
    }
    table->resizeColumnsToContents();
    table->selectRow(0);
    layout->addWidget(table);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Open | QDialogButtonBox::Close, &dialog);
    buttons->button(QDialogButtonBox::Open)->setText(tr("Open version"));
    layout->addWidget(buttons);
    connect(buttons, &QDialogButtonBox::accepted, &dialog, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, &dialog, &QDialog::reject);
    connect(table, &QTableWidget::cellDoubleClicked, &dialog, &QDialog::accept);
    dialog.resize(620, 360);
    if (dialog.exec() != QDialog::Accepted || table->currentRow() < 0)
        return;
    const int version = table->item(table->currentRow(), 0)->data(Qt::UserRole).toInt();
    const bool latest = !versions.isEmpty() && version == versions.back().version;
    openStored(name, latest ? 0 : version);
}

void MainWindow::closeEvent(QCloseEvent* event)
{
    for (ScenarioDocument* d : std::as_const(m_documents))
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
