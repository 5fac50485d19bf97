#pragma once

#include "dct/ui/scenariolibrarysource.h"

namespace dct::ui {

/** The scenario JSON files of one folder, e.g. the bundled data/examples. */
class FolderScenarioSource : public ScenarioLibrarySource
{
public:
    /** Lists the *.json files of \a folder under the group title \a name. */
    FolderScenarioSource(QString name, QString folder);

    QString name() const override { return m_name; }
    QList<Entry> entries() const override;
    QString load(const QString& id, nlohmann::json& json) const override;
    QString filePath(const QString& id) const override { return id; }

private:
    QString m_name;
    QString m_folder;
};

} // namespace dct::ui
