#include "dct/ui/documentmanager.h"

#include "dct/model/catalog.h"
#include "dct/model/jsonread.h"
#include "dct/model/scenarioio.h"
#include "dct/ui/format.h"
#include "dct/ui/scenariodocument.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QSettings>
#include <QUndoGroup>
#include <QUndoStack>

namespace dct::ui {

namespace {

const char* const kRecentKey = "recentFiles";

} // namespace

DocumentManager::DocumentManager(QObject* parent)
    : QObject(parent), m_undoGroup(new QUndoGroup(this))
{}

DocumentManager::~DocumentManager() = default;

ScenarioDocument* DocumentManager::current() const
{
    return m_current;
}

ScenarioDocument* DocumentManager::openJson(const nlohmann::json& json, const QString& filePath)
{
    auto* document = new ScenarioDocument(json, filePath, this);
    m_documents << document;
    m_undoGroup->addStack(document->undoStack());
    connect(document, &ScenarioDocument::evaluated, this,
            [this, document] { emit documentEvaluated(document); });
    connect(document, &ScenarioDocument::titleChanged, this,
            [this, document] { emit documentTitleChanged(document); });
    emit documentsChanged();
    setCurrent(document);
    document->evaluate();
    return document;
}

ScenarioDocument* DocumentManager::openFile(const QString& path)
{
    for (ScenarioDocument* d : std::as_const(m_documents))
        if (!d->filePath().isEmpty() && QFileInfo(d->filePath()) == QFileInfo(path)) {
            setCurrent(d);
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
        auto parsed = model::parseJson(
            std::string_view(bytes.constData(), static_cast<std::size_t>(bytes.size())),
            path.toStdString(), "a JSON object (a scenario)");
        if (parsed)
            json = std::move(*parsed);
    }
    // A migrated file is edited in the current schema; saving writes that version.
    if (json.is_discarded() || !json.is_object())
        json = model::writeScenario(*read.scenario);
    ScenarioDocument* document = openJson(json, read.migratedFrom == 0 ? path : QString());
    addRecent(path);
    return document;
}

ScenarioDocument* DocumentManager::newDocument()
{
    // A new scenario starts from the seed example, so that it evaluates at once.
    const auto seed = model::Catalog::dataDirectory() / "examples" / "seed-h100-dallas-d2c.json";
    model::ScenarioReadResult read;
    try {
        read = model::readScenarioFile(seed);
    } catch (const std::exception&) {
        // No seed: the new scenario starts empty and its diagnostics say what is missing.
    }
    nlohmann::json json = read.scenario ? model::writeScenario(*read.scenario)
                                        : nlohmann::json{{"schema_version", 2}};
    json["name"] = tr("New scenario").toStdString();
    return openJson(json);
}

bool DocumentManager::save(ScenarioDocument* document, const QString& path)
{
    if (!document)
        return false;
    const QString problem = document->saveAs(path);
    if (!problem.isEmpty()) {
        reportError(tr("Cannot save scenario"), tr("The scenario could not be saved to %1.\n\n%2")
                                                    .arg(QDir::toNativeSeparators(path), problem));
        return false;
    }
    addRecent(path);
    emit statusMessage(tr("Saved %1").arg(QDir::toNativeSeparators(path)));
    return true;
}

bool DocumentManager::close(ScenarioDocument* document)
{
    if (!document || !m_documents.contains(document))
        return false;
    m_documents.removeAll(document);
    m_undoGroup->removeStack(document->undoStack());
    if (m_current == document)
        setCurrent(m_documents.isEmpty() ? nullptr : m_documents.last());
    emit documentsChanged();
    document->deleteLater();
    return true;
}

void DocumentManager::setCurrent(ScenarioDocument* document)
{
    if (document && !m_documents.contains(document))
        return;
    m_current = document;
    m_undoGroup->setActiveStack(document ? document->undoStack() : nullptr);
    emit currentChanged(document);
}

QStringList DocumentManager::recentFiles() const
{
    return QSettings().value(QLatin1String(kRecentKey)).toStringList();
}

void DocumentManager::addRecent(const QString& path)
{
    QSettings settings;
    QStringList recent = settings.value(QLatin1String(kRecentKey)).toStringList();
    const QString absolute = QFileInfo(path).absoluteFilePath();
    recent.removeAll(absolute);
    recent.prepend(absolute);
    while (recent.size() > kMaxRecent)
        recent.removeLast();
    settings.setValue(QLatin1String(kRecentKey), recent);
    emit recentFilesChanged();
}

void DocumentManager::reportError(const QString& title, const QString& text, const QString& details)
{
    m_lastError = text;
    emit errorOccurred(title, text, details);
}

} // namespace dct::ui
