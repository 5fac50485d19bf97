#include "dct/ui/storescenariosource.h"

#include "dct/model/jsonread.h"
#include "dct/ui/format.h"

#include <QObject>

namespace dct::ui {

StoreScenarioSource::StoreScenarioSource(QString name, store::ScenarioStore store)
    : m_name(std::move(name)), m_store(std::make_unique<store::ScenarioStore>(std::move(store)))
{}

StoreScenarioSource::~StoreScenarioSource() = default;

QList<ScenarioLibrarySource::Entry> StoreScenarioSource::entries() const
{
    QList<Entry> list;
    const auto stored = m_store->list();
    if (!stored)
        return list;
    for (const auto& s : *stored) {
        Entry entry;
        entry.id = qstr(s.name);
        entry.title = entry.id;
        for (const auto& tag : s.tags)
            entry.tags << qstr(tag);
        // The tooltip tells what the scenario is: its own name and description from the latest
        // version, then how many versions the store keeps and when the last was saved.
        QStringList lines;
        if (const auto latest = m_store->load(s.name)) {
            const auto parsed = model::parseJson(latest->json, path().toStdString(), {});
            const nlohmann::json json = parsed ? *parsed : nlohmann::json();
            if (json.is_object() && json.contains("name") && json["name"].is_string())
                lines << qstr(json["name"].get<std::string>());
            if (json.is_object() && json.contains("description") && json["description"].is_string())
                lines << qstr(json["description"].get<std::string>());
        }
        lines << QObject::tr("Version %1 of %2, saved %3")
                     .arg(s.latestVersion)
                     .arg(s.versionCount)
                     .arg(qstr(s.updatedAt));
        if (!s.tags.empty())
            lines << QObject::tr("Tags: %1").arg(entry.tags.join(QStringLiteral(", ")));
        if (!s.notes.empty())
            lines << QObject::tr("Notes: %1").arg(qstr(s.notes));
        entry.detail = lines.join(QLatin1Char('\n'));
        list.push_back(entry);
    }
    return list;
}

QString StoreScenarioSource::load(const QString& id, nlohmann::json& json) const
{
    return loadVersion(id, 0, json);
}

QString StoreScenarioSource::loadVersion(const QString& id, int version, nlohmann::json& json) const
{
    const auto loaded = m_store->load(id.toStdString(), version);
    if (!loaded)
        return qstr(loaded.error().toString());
    auto parsed = model::parseJson(loaded->json, path().toStdString(), "a JSON object");
    if (!parsed)
        return qstr(parsed.error().error.toString());
    json = std::move(*parsed);
    if (!json.is_object())
        return QObject::tr("%1: version %2 of \"%3\" is not a JSON object")
            .arg(path())
            .arg(loaded->version)
            .arg(id);
    return {};
}

int StoreScenarioSource::save(const QString& id, const nlohmann::json& json, const QString& comment,
                              QString* error)
{
    std::string text;
    try {
        text = json.dump(2);
    } catch (const std::exception& e) {
        if (error)
            *error = QObject::tr("%1: the scenario cannot be written as JSON: %2")
                         .arg(id, QString::fromUtf8(e.what()));
        return 0;
    }
    const auto saved = m_store->save(id.toStdString(), text, comment.toStdString());
    if (!saved) {
        if (error)
            *error = qstr(saved.error().toString());
        return 0;
    }
    return *saved;
}

QList<StoreScenarioSource::Version> StoreScenarioSource::history(const QString& id,
                                                                 QString* error) const
{
    QList<Version> versions;
    const auto found = m_store->history(id.toStdString());
    if (!found) {
        if (error)
            *error = qstr(found.error().toString());
        return versions;
    }
    for (const auto& v : *found)
        versions.push_back({v.version, qstr(v.savedAt), qstr(v.comment)});
    return versions;
}

QString StoreScenarioSource::path() const
{
    return QString::fromStdString(m_store->path().string());
}

} // namespace dct::ui
