#pragma once

#include "dct/store/scenariostore.h"
#include "dct/ui/scenariolibrarysource.h"

#include <QDateTime>
#include <memory>

namespace dct::ui {

/**
 * The scenarios of the SQLite scenario store (store::ScenarioStore), each by its store name with
 * its tags; loading one gives its latest version. Also saves new versions and reads history.
 * Errors of the store come back as messages naming the store file; nothing here throws.
 */
class StoreScenarioSource : public ScenarioLibrarySource
{
public:
    /** One saved version of a stored scenario, as the history lists it. */
    struct Version
    {
        int version = 0;
        QString savedAt; ///< UTC, ISO 8601.
        QString comment;
    };

    /** Shows the scenarios of \a store under the group title \a name. */
    StoreScenarioSource(QString name, store::ScenarioStore store);
    ~StoreScenarioSource() override;

    QString name() const override { return m_name; }
    QList<Entry> entries() const override;
    QString load(const QString& id, nlohmann::json& json) const override;

    /** Loads version \a version of \a id (0: the latest) into \a json; returns "" or why not. */
    QString loadVersion(const QString& id, int version, nlohmann::json& json) const;
    /** Saves \a json as the next version of \a id; returns its number, or 0 and sets \a error. */
    int save(const QString& id, const nlohmann::json& json, const QString& comment, QString* error);
    /** Returns every version of \a id, oldest first; sets \a error on failure. */
    QList<Version> history(const QString& id, QString* error) const;
    /** Returns the store's file. */
    QString path() const;
    /** Returns true when the store was found damaged: saves are refused. */
    bool readOnly() const { return m_store->readOnly(); }

private:
    QString m_name;
    std::unique_ptr<store::ScenarioStore> m_store;
};

} // namespace dct::ui
