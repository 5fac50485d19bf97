#include "dct/ui/mainwindow.h"

#include "dct/model/catalog.h"
#include "dct/model/scenarioio.h"
#include "dct/ui/catalogprovider.h"
#include "dct/ui/compareview.h"
#include "dct/ui/dashboard.h"
#include "dct/ui/diagnosticsmodel.h"
#include "dct/ui/fabricpicture.h"
#include "dct/ui/folderscenariosource.h"
#include "dct/ui/format.h"
#include "dct/ui/metricsmodel.h"
#include "dct/ui/scenariodocument.h"
#include "dct/ui/scenarioform.h"
#include "dct/ui/scenariolibrarymodel.h"
#include "dct/ui/topologyview.h"

#include <QAction>
#include <QApplication>
#include <QCloseEvent>
#include <QDockWidget>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QHeaderView>
#include <QLabel>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QSettings>
#include <QStatusBar>
#include <QTabWidget>
#include <QTableView>
#include <QToolBar>
#include <QTreeView>
#include <QUndoGroup>
#include <QUndoStack>

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

    const QString examples =
        QString::fromStdString((model::Catalog::dataDirectory() / "examples").string());
    m_libraryModel->addSource(std::make_shared<FolderScenarioSource>(tr("Examples"), examples));
    m_library->expandAll();

    const QSettings settings;
    resize(1480, 940);
    restoreGeometry(settings.value(QStringLiteral("window/geometry")).toByteArray());
    restoreState(settings.value(QStringLiteral("window/state")).toByteArray());
    m_tabs->setCurrentIndex(settings.value(QStringLiteral("window/tab"), 0).toInt());
    rebuildRecentMenu();
    if (!CatalogProvider::loadError().empty())
        m_status->setText(tr("Catalog not loaded: %1").arg(qstr(CatalogProvider::loadError())));
    updateTitle();
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
    resizeDocks({libraryDock, formDock}, {170, 700}, Qt::Vertical);
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
    add(file, tr("Save &as..."), QKeySequence::SaveAs, [this] { saveCurrentAs(); });
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
    tools->addSeparator();
    tools->addAction(undo);
    tools->addAction(redo);
    tools->addSeparator();
    tools->addAction(whatIf);
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
    QMessageBox box(QMessageBox::Critical, title, text, QMessageBox::Ok, this);
    if (!details.isEmpty())
        box.setDetailedText(details);
    box.exec();
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
