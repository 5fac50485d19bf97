#include "dct/ui/folderscenariosource.h"

#include "dct/model/jsonread.h"

#include <QDir>
#include <QFile>

namespace dct::ui {

FolderScenarioSource::FolderScenarioSource(QString name, QString folder)
    : m_name(std::move(name)), m_folder(std::move(folder))
{}

QList<ScenarioLibrarySource::Entry> FolderScenarioSource::entries() const
{
    QList<Entry> list;
    const QDir dir(m_folder);
    for (const QFileInfo& info :
         dir.entryInfoList({QStringLiteral("*.json")}, QDir::Files, QDir::Name)) {
        Entry entry;
        entry.id = info.absoluteFilePath();
        entry.title = info.completeBaseName();
        entry.detail = info.absoluteFilePath();
        nlohmann::json json;
        if (load(entry.id, json).isEmpty() && json.is_object()) {
            if (json.contains("name") && json["name"].is_string())
                entry.title = QString::fromStdString(json["name"].get<std::string>());
            if (json.contains("description") && json["description"].is_string())
                entry.detail = QString::fromStdString(json["description"].get<std::string>()) +
                               QStringLiteral("\n") + info.absoluteFilePath();
        }
        list.push_back(entry);
    }
    return list;
}

QString FolderScenarioSource::load(const QString& id, nlohmann::json& json) const
{
    QFile file(id);
    if (!file.open(QIODevice::ReadOnly))
        return QObject::tr("%1: cannot be read (%2)").arg(id, file.errorString());
    const QByteArray bytes = file.readAll();
    auto parsed = model::parseJson(
        std::string_view(bytes.constData(), static_cast<std::size_t>(bytes.size())),
        id.toStdString(), "a JSON object (a scenario)");
    if (!parsed)
        return QString::fromStdString(parsed.error().error.toString());
    json = std::move(*parsed);
    return {};
}

} // namespace dct::ui
