#pragma once

#include "dct/ui/storescenariosource.h"

#include <QList>
#include <QModelIndex>
#include <QObject>
#include <QString>
#include <memory>

class QWidget;

namespace dct::ui {

class DocumentManager;
class ScenarioDocument;
class ScenarioLibraryModel;

/**
 * The scenario library: its model (the open documents, then the scenario store or, when the
 * store cannot be used, the bundled examples folder), opening a library entry or a stored
 * version, saving a document to the store and the history of a stored scenario. Documents are
 * opened through the DocumentManager. Shows no dialog except the history one: errors are
 * signalled (and kept in lastError()).
 */
class LibraryController : public QObject
{
    Q_OBJECT

public:
    /** Lists the documents of \a documents as the open scenarios; no source until openStore(). */
    explicit LibraryController(DocumentManager* documents, QObject* parent = nullptr);
    ~LibraryController() override;

    /**
     * Uses the scenario store at \a path (empty: ScenarioStore::defaultPath()) as the library,
     * creating it with the bundled examples when it does not exist. A store that cannot be used
     * (corrupt, foreign, unreadable) is left untouched: the error is signalled and the library
     * shows the examples folder. A damaged store is shown read-only (storeReadOnly()) with the
     * error signalled. Returns true when the store is in use.
     */
    bool openStore(const QString& path = {});
    /** Returns the store shown in the library, or nullptr when the store could not be used. */
    StoreScenarioSource* store() const { return m_store.get(); }
    /** Returns true when the store is shown but damaged: it is only read, never written. */
    bool storeReadOnly() const { return m_store && m_store->readOnly(); }
    /** Returns the library as a tree model. */
    ScenarioLibraryModel* model() const { return m_model; }

    /**
     * Opens the library item \a index: an open document becomes current, a stored scenario
     * opens its latest version, an example opens its file. Returns the document, or nullptr.
     */
    ScenarioDocument* activate(const QModelIndex& index);
    /** Returns the store name of the library item \a index, "" when it is not a stored one. */
    QString storedName(const QModelIndex& index) const;

    /** Opens version \a version (0: the latest, or the open copy of it) of stored \a name. */
    ScenarioDocument* openStored(const QString& name, int version = 0);
    /**
     * Opens version \a version of stored \a name as the history does: the latest version is
     * opened like openStored(name), an older one as a new document.
     */
    ScenarioDocument* openVersion(const QString& name, int version);
    /**
     * Saves \a document as a new version in the store under \a name (empty: the document's
     * store name, else its title); returns the version number, or 0 on failure.
     */
    int saveToLibrary(ScenarioDocument* document, const QString& name = {});
    /**
     * Returns every version of stored \a name, oldest first. On failure signals the error and
     * sets \a ok (when given) to false.
     */
    QList<StoreScenarioSource::Version> history(const QString& name, bool* ok = nullptr);
    /**
     * Shows the history of stored \a name in a dialog over \a parent and opens the version
     * chosen. Returns the document opened, or nullptr (cancelled, or an error signalled).
     */
    ScenarioDocument* showHistory(const QString& name, QWidget* parent);

    /** Returns the text of the last error signalled. */
    QString lastError() const { return m_lastError; }

signals:
    /** The store was opened (\a available) or could not be used. */
    void storeChanged(bool available);
    /** The library's model was filled anew (views may expand it again). */
    void libraryChanged();
    /** Something failed: a \a title, the \a text for the user and technical \a details. */
    void errorOccurred(const QString& title, const QString& text, const QString& details);
    /** A short note for the status bar, e.g. after saving to the library. */
    void statusMessage(const QString& text);

private:
    void reportError(const QString& title, const QString& text, const QString& details = {});
    void syncOpenDocuments();

    DocumentManager* m_documents;
    ScenarioLibraryModel* m_model;
    std::shared_ptr<StoreScenarioSource> m_store;
    int m_storeSourceIndex = -1;
    QString m_lastError;
};

} // namespace dct::ui
