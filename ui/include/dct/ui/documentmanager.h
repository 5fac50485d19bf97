#pragma once

#include <QList>
#include <QObject>
#include <QPointer>
#include <QString>
#include <QStringList>
#include <nlohmann/json.hpp>

class QUndoGroup;

// The signals carry ScenarioDocument*: moc sees the whole class, so that the pointer is a known
// meta type (QSignalSpy, queued connections) without every includer paying for the header.
Q_MOC_INCLUDE("dct/ui/scenariodocument.h")

namespace dct::ui {

class ScenarioDocument;

/**
 * The open scenario documents: opening (files, JSON, a new scenario), saving, closing, the
 * current document, the undo group that holds each document's undo stack, and the recent files.
 * Shows no dialog: errors are signalled (and kept in lastError()), asking about unsaved changes
 * is the window's business.
 */
class DocumentManager : public QObject
{
    Q_OBJECT

public:
    /** The most recent files remembered. */
    static constexpr int kMaxRecent = 8;

    explicit DocumentManager(QObject* parent = nullptr);
    ~DocumentManager() override;

    /**
     * Opens the scenario file \a path (an open one is made current instead of opened twice) and
     * remembers it as recent. On failure signals errorOccurred() and returns nullptr.
     */
    ScenarioDocument* openFile(const QString& path);
    /** Opens a new document holding \a json (not saved yet), makes it current, evaluates it. */
    ScenarioDocument* openJson(const nlohmann::json& json, const QString& filePath = {});
    /** Opens a new scenario made from the seed example, named "New scenario". */
    ScenarioDocument* newDocument();
    /**
     * Saves \a document to \a path atomically and remembers it as recent; returns false (and
     * signals errorOccurred()) on failure.
     */
    bool save(ScenarioDocument* document, const QString& path);
    /** Closes \a document without asking; the current one moves to the last still open. */
    bool close(ScenarioDocument* document);

    /** Makes \a document (one of documents(), or nullptr) the one edited and shown. */
    void setCurrent(ScenarioDocument* document);
    /** Returns the document edited and shown, or nullptr. */
    ScenarioDocument* current() const;
    /** Returns the open documents, in the order they were opened. */
    const QList<ScenarioDocument*>& documents() const { return m_documents; }
    /** Returns the undo group: one stack per open document, the current one's active. */
    QUndoGroup* undoGroup() const { return m_undoGroup; }

    /** Returns the recent files, the newest first (absolute paths). */
    QStringList recentFiles() const;
    /** Puts \a path first among the recent files. */
    void addRecent(const QString& path);

    /** Returns the text of the last error signalled. */
    QString lastError() const { return m_lastError; }

signals:
    /** A document was opened or closed. */
    void documentsChanged();
    /** The current document changed (also when set again), nullptr when none is open. */
    void currentChanged(ScenarioDocument* document);
    /** A new evaluation of \a document landed. */
    void documentEvaluated(ScenarioDocument* document);
    /** The title or the modified state of \a document changed. */
    void documentTitleChanged(ScenarioDocument* document);
    /** The recent files changed. */
    void recentFilesChanged();
    /** Something failed: a \a title, the \a text for the user and technical \a details. */
    void errorOccurred(const QString& title, const QString& text, const QString& details);
    /** A short note for the status bar, e.g. after a save. */
    void statusMessage(const QString& text);

private:
    void reportError(const QString& title, const QString& text, const QString& details = {});

    QList<ScenarioDocument*> m_documents;
    QPointer<ScenarioDocument> m_current;
    QUndoGroup* m_undoGroup;
    QString m_lastError;
};

} // namespace dct::ui
