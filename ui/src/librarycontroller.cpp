#include "dct/ui/librarycontroller.h"

#include "dct/model/catalog.h"
#include "dct/store/scenariostore.h"
#include "dct/ui/documentmanager.h"
#include "dct/ui/folderscenariosource.h"
#include "dct/ui/format.h"
#include "dct/ui/historydialog.h"
#include "dct/ui/scenariodocument.h"
#include "dct/ui/scenariolibrarymodel.h"

#include <QDir>
#include <QFileInfo>

namespace dct::ui {

LibraryController::LibraryController(DocumentManager* documents, QObject* parent)
    : QObject(parent), m_documents(documents), m_model(new ScenarioLibraryModel(this))
{
    connect(m_documents, &DocumentManager::documentsChanged, this,
            &LibraryController::syncOpenDocuments);
    syncOpenDocuments();
}

LibraryController::~LibraryController() = default;

void LibraryController::syncOpenDocuments()
{
    m_model->setOpenDocuments(m_documents->documents());
    emit libraryChanged();
}

bool LibraryController::openStore(const QString& path)
{
    m_model->clearSources();
    m_store.reset();
    m_storeSourceIndex = -1;
    const auto examples = model::Catalog::dataDirectory() / "examples";
    std::filesystem::path file;
    QString problem;
    QString damage;
    QString checkNote;
    try {
        file = path.isEmpty() ? store::ScenarioStore::defaultPath()
                              : std::filesystem::path(path.toStdString());
        store::StoreOpenOptions options;
        options.seedDirectory = examples;
        auto opened = store::ScenarioStore::open(file, options);
        if (opened)
            checkNote = qstr(opened->checkNote());
        if (opened && opened->readOnly()) {
            // Damaged: what is readable is listed, nothing is written.
            damage = qstr(opened->damage());
            m_store = std::make_shared<StoreScenarioSource>(tr("Library (damaged, read-only)"),
                                                            std::move(*opened));
        } else if (opened) {
            m_store = std::make_shared<StoreScenarioSource>(tr("Library"), std::move(*opened));
        } else {
            problem = qstr(opened.error().toString());
        }
    } catch (const std::exception& e) {
        problem = QStringLiteral("%1: %2").arg(qstr(file.string()), QString::fromUtf8(e.what()));
    }
    if (m_store) {
        m_storeSourceIndex = 0;
        m_model->addSource(m_store);
    } else {
        m_model->addSource(
            std::make_shared<FolderScenarioSource>(tr("Examples"), qstr(examples.string())));
    }
    emit storeChanged(m_store != nullptr);
    emit libraryChanged();
    if (!m_store) {
        reportError(tr("Scenario library not available"),
                    tr("The scenario library %1 cannot be used, so the library shows the "
                       "bundled examples and saving to the library is off. The file was left "
                       "untouched.\n\n%2\n\nSet DCT_STORE to another file to use a library "
                       "there.")
                        .arg(QDir::toNativeSeparators(qstr(file.string())), problem));
        return false;
    }
    if (!checkNote.isEmpty())
        emit statusMessage(tr("Scenario library: %1").arg(checkNote));
    if (!damage.isEmpty()) {
        const QString native = QDir::toNativeSeparators(qstr(file.string()));
        reportError(tr("Scenario library damaged"),
                    tr("The scenario library %1 is damaged, so it is open read-only: the library "
                       "lists what can be read and saving to the library is off. Nothing was "
                       "written to the file.\n\nTo keep every readable scenario, run\n"
                       "    dctwin-cli store recover %1 NEW.sqlite\n"
                       "then set DCT_STORE to the new file.")
                        .arg(native),
                    tr("Integrity check: %1").arg(damage));
    }
    return true;
}

ScenarioDocument* LibraryController::activate(const QModelIndex& index)
{
    if (auto* object = index.data(ScenarioLibraryModel::DocumentRole).value<QObject*>()) {
        auto* document = qobject_cast<ScenarioDocument*>(object);
        if (document)
            m_documents->setCurrent(document);
        return document;
    }
    const int sourceIndex = index.data(ScenarioLibraryModel::SourceRole).toInt();
    const auto source = m_model->source(sourceIndex);
    if (!source)
        return nullptr;
    const QString id = index.data(ScenarioLibraryModel::EntryIdRole).toString();
    if (m_store && sourceIndex == m_storeSourceIndex)
        return openStored(id);
    const QString path = source->filePath(id);
    if (!path.isEmpty())
        return m_documents->openFile(path);
    nlohmann::json json;
    const QString problem = source->load(id, json);
    if (!problem.isEmpty()) {
        reportError(tr("Cannot open scenario"), problem);
        return nullptr;
    }
    return m_documents->openJson(json);
}

QString LibraryController::storedName(const QModelIndex& index) const
{
    if (index.isValid() && m_store &&
        index.data(ScenarioLibraryModel::SourceRole).toInt() == m_storeSourceIndex &&
        index.parent().isValid())
        return index.data(ScenarioLibraryModel::EntryIdRole).toString();
    return {};
}

ScenarioDocument* LibraryController::openStored(const QString& name, int version)
{
    if (!m_store)
        return nullptr;
    if (version == 0)
        for (ScenarioDocument* d : m_documents->documents())
            if (d->storeName() == name && d->filePath().isEmpty()) {
                m_documents->setCurrent(d);
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
    ScenarioDocument* document = m_documents->openJson(json);
    document->setStoreName(name);
    document->markSaved();
    if (version > 0)
        emit statusMessage(
            tr("Opened version %1 of %2; saving to the library makes it the latest version")
                .arg(version)
                .arg(name));
    return document;
}

ScenarioDocument* LibraryController::openVersion(const QString& name, int version)
{
    if (!m_store)
        return nullptr;
    QString problem;
    const auto versions = m_store->history(name, &problem);
    const bool latest = !versions.isEmpty() && version == versions.back().version;
    return openStored(name, latest ? 0 : version);
}

int LibraryController::saveToLibrary(ScenarioDocument* document, const QString& name)
{
    if (!document || !m_store)
        return 0;
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
    m_model->refresh();
    emit libraryChanged();
    emit statusMessage(tr("Saved version %1 of %2 to the library").arg(version).arg(storeName));
    return version;
}

QList<StoreScenarioSource::Version> LibraryController::history(const QString& name, bool* ok)
{
    if (ok)
        *ok = false;
    if (!m_store)
        return {};
    QString problem;
    auto versions = m_store->history(name, &problem);
    if (!problem.isEmpty()) {
        reportError(tr("Cannot read the history"), problem);
        return {};
    }
    if (ok)
        *ok = true;
    return versions;
}

ScenarioDocument* LibraryController::showHistory(const QString& name, QWidget* parent)
{
    if (!m_store)
        return nullptr;
    if (name.isEmpty()) {
        reportError(tr("No library scenario selected"),
                    tr("Select a scenario of the library (or open one from it) to see its "
                       "history."));
        return nullptr;
    }
    bool ok = false;
    const auto versions = history(name, &ok);
    if (!ok)
        return nullptr;
    HistoryDialog dialog(name, versions, parent);
    if (dialog.exec() != QDialog::Accepted || dialog.selectedVersion() <= 0)
        return nullptr;
    const int version = dialog.selectedVersion();
    const bool latest = !versions.isEmpty() && version == versions.back().version;
    return openStored(name, latest ? 0 : version);
}

void LibraryController::reportError(const QString& title, const QString& text,
                                    const QString& details)
{
    m_lastError = text;
    emit errorOccurred(title, text, details);
}

} // namespace dct::ui
