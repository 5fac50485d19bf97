#pragma once

#include <QList>
#include <QString>
#include <nlohmann/json.hpp>

namespace dct::ui {

/**
 * A place scenarios can be listed and loaded from: the bundled examples folder today, the
 * SQLite scenario store later. The library panel shows one group per source.
 */
class ScenarioLibrarySource
{
public:
    /** One scenario a source offers. */
    struct Entry
    {
        QString id;     ///< Stable within the source (a file path, a store key).
        QString title;  ///< Shown in the library.
        QString detail; ///< Tooltip: description, file, modification time.
    };

    virtual ~ScenarioLibrarySource();

    /** Returns the group title shown in the library ("Examples", "Store"). */
    virtual QString name() const = 0;
    /** Returns the scenarios the source holds now. */
    virtual QList<Entry> entries() const = 0;
    /** Loads entry \a id into \a json; returns "" or a message naming what went wrong. */
    virtual QString load(const QString& id, nlohmann::json& json) const = 0;
    /** Returns the file entry \a id opens as, or "" when it is not a file (a new document). */
    virtual QString filePath(const QString& id) const;
};

} // namespace dct::ui
