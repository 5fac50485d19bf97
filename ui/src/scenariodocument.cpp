#include "dct/ui/scenariodocument.h"

#include "dct/model/atomicfile.h"
#include "dct/model/scenarioio.h"
#include "dct/ui/catalogprovider.h"
#include "dct/ui/setfieldcommand.h"

#include <QFileInfo>
#include <QFutureWatcher>
#include <QUndoStack>
#include <QtConcurrent/QtConcurrentRun>

namespace dct::ui {

namespace {

/** Returns a scenario with every default written out, to show what an absent key means. */
const nlohmann::json& defaults()
{
    static const nlohmann::json json = model::writeScenario(model::Scenario{});
    return json;
}

std::optional<nlohmann::json> lookup(const nlohmann::json& json, const std::string& pointer)
{
    try {
        const nlohmann::json::json_pointer p(pointer);
        if (json.contains(p))
            return json.at(p);
    } catch (const std::exception&) {
        // A malformed pointer or a non-object on the way: the key is not there.
    }
    return std::nullopt;
}

} // namespace

ScenarioDocument::ScenarioDocument(nlohmann::json json, QString filePath, QObject* parent)
    : QObject(parent), m_json(std::move(json)), m_filePath(std::move(filePath)),
      m_undoStack(new QUndoStack(this)), m_outcome(std::make_shared<EvaluationOutcome>())
{
    connect(m_undoStack, &QUndoStack::cleanChanged, this, &ScenarioDocument::titleChanged);
}

ScenarioDocument::~ScenarioDocument() = default;

nlohmann::json ScenarioDocument::value(const std::string& pointer) const
{
    if (auto own = lookup(m_json, pointer))
        return *own;
    if (auto fallback = lookup(defaults(), pointer))
        return *fallback;
    return nullptr;
}

std::optional<nlohmann::json> ScenarioDocument::ownValue(const std::string& pointer) const
{
    return lookup(m_json, pointer);
}

void ScenarioDocument::edit(const std::string& pointer, const nlohmann::json& value)
{
    const auto before = ownValue(pointer);
    const std::optional<nlohmann::json> after =
        value.is_null() ? std::nullopt : std::optional<nlohmann::json>(value);
    if (before == after)
        return;
    m_undoStack->push(new SetFieldCommand(this, pointer, before, after));
}

void ScenarioDocument::applyValue(const std::string& pointer,
                                  const std::optional<nlohmann::json>& value)
{
    try {
        const nlohmann::json::json_pointer p(pointer);
        if (value) {
            if (!m_json.is_object())
                m_json = nlohmann::json::object();
            m_json[p] = *value;
        } else if (m_json.contains(p)) {
            m_json[p.parent_pointer()].erase(p.back());
        }
    } catch (const std::exception&) {
        return; // A pointer through a non-object: nothing to set; the evaluation reports it.
    }
    emit valueChanged(QString::fromStdString(pointer));
    if (pointer == "/name")
        emit titleChanged();
    evaluate();
}

QString ScenarioDocument::title() const
{
    if (m_json.is_object() && m_json.contains("name") && m_json["name"].is_string() &&
        !m_json["name"].get<std::string>().empty())
        return QString::fromStdString(m_json["name"].get<std::string>());
    if (!m_filePath.isEmpty())
        return QFileInfo(m_filePath).completeBaseName();
    return tr("Untitled");
}

bool ScenarioDocument::isModified() const
{
    return !m_undoStack->isClean() || (m_filePath.isEmpty() && m_storeName.isEmpty());
}

void ScenarioDocument::setStoreName(const QString& name)
{
    m_storeName = name;
    emit titleChanged();
}

void ScenarioDocument::markSaved()
{
    m_undoStack->setClean();
    emit titleChanged();
}

QString ScenarioDocument::saveAs(const QString& path)
{
    const std::filesystem::path target = path.toStdString();
    Result<void> written;
    try {
        // Save through the model when the document reads cleanly: the file then holds the
        // current schema version. A document that does not read is written as it is, so that
        // nothing is lost.
        const auto read = model::readScenario(m_json, path.toStdString());
        if (read.scenario && !read.diagnostics.hasErrors())
            written = model::saveScenarioFile(*read.scenario, target);
        else
            written = writeFileAtomically(target, m_json.dump(2) + "\n");
    } catch (const std::exception& e) {
        return tr("%1: %2").arg(path, QString::fromUtf8(e.what()));
    }
    if (!written)
        return QString::fromStdString(written.error().toString());
    m_filePath = path;
    m_undoStack->setClean();
    emit titleChanged();
    return {};
}

void ScenarioDocument::evaluate()
{
    const auto generation = ++m_generation;
    auto* watcher = new QFutureWatcher<std::shared_ptr<const EvaluationOutcome>>(this);
    connect(watcher, &QFutureWatcherBase::finished, this, [this, watcher] {
        --m_running;
        land(watcher->result());
        watcher->deleteLater();
    });
    ++m_running;
    watcher->setFuture(QtConcurrent::run(
        [json = m_json, file = m_filePath.toStdString(), generation,
         catalog = CatalogProvider::catalog()]() -> std::shared_ptr<const EvaluationOutcome> {
            auto outcome =
                std::make_shared<EvaluationOutcome>(evaluateScenarioJson(json, catalog, file));
            outcome->generation = generation;
            return outcome;
        }));
}

void ScenarioDocument::evaluateNow()
{
    auto outcome = std::make_shared<EvaluationOutcome>(
        evaluateScenarioJson(m_json, CatalogProvider::catalog(), m_filePath.toStdString()));
    outcome->generation = ++m_generation;
    land(outcome);
}

void ScenarioDocument::land(std::shared_ptr<const EvaluationOutcome> outcome)
{
    // An answer to an older edit than the latest is stale: a newer one is on its way.
    if (!outcome || outcome->generation != m_generation)
        return;
    m_outcome = std::move(outcome);
    emit evaluated();
}

} // namespace dct::ui
