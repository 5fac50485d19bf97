#pragma once

#include <QList>
#include <QString>
#include <QStringList>
#include <nlohmann/json.hpp>

namespace dct::ui {

/**
 * A place scenarios can be listed and loaded from: the bundled examples folder or the SQLite
 * scenario store. The library panel shows one group per source.
 */
class ScenarioLibrarySource
{
public:
    /** One scenario a source offers. */
    struct Entry
    {
        QString id;       ///< Stable within the source (a file path, a store key).
        QString title;    ///< Shown in the library.
        QString detail;   ///< Tooltip: description, file, modification time.
        QStringList tags; ///< Labels of the entry (store tags), shown beside its title.
    };

    virtual ~ScenarioLibrarySource();

    /** Returns the group title shown in the library ("Examples", "Library"). */
    virtual QString name() const = 0;
    /** Returns the scenarios the source holds now. */
    virtual QList<Entry> entries() const = 0;
    /** Loads entry \a id into \a json; returns "" or a message naming what went wrong. */
    virtual QString load(const QString& id, nlohmann::json& json) const = 0;
    /** Returns the file entry \a id opens as, or "" when it is not a file (a new document). */
    virtual QString filePath(const QString& id) const;
};

} // namespace dct::ui
