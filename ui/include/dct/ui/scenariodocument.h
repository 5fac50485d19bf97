#pragma once

#include "dct/ui/evaluationoutcome.h"

#include <QObject>
#include <QString>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

class QUndoStack;

namespace dct::ui {

/**
 * One open scenario: its JSON document, the file it came from, its undo stack and its latest
 * evaluation. Edits arrive as commands on the undo stack; every edit starts an evaluation on a
 * worker thread, and an answer to an older edit than the latest is dropped.
 */
class ScenarioDocument : public QObject
{
    Q_OBJECT

public:
    /** Makes a document of \a json; \a filePath is empty for an unsaved one. */
    explicit ScenarioDocument(nlohmann::json json, QString filePath = {},
                              QObject* parent = nullptr);
    ~ScenarioDocument() override;

    /** Returns the document as JSON, as the file holds it (absent keys take defaults). */
    const nlohmann::json& json() const { return m_json; }
    /** Returns the value at \a pointer: the document's, else the default, else null. */
    nlohmann::json value(const std::string& pointer) const;
    /** Returns the document's own value at \a pointer, or nullopt when the key is absent. */
    std::optional<nlohmann::json> ownValue(const std::string& pointer) const;

    /** Pushes a command that sets \a pointer to \a value (null removes it); no-op if equal. */
    void edit(const std::string& pointer, const nlohmann::json& value);
    /** Sets or (for nullopt) removes the key at \a pointer. For undo commands only. */
    void applyValue(const std::string& pointer, const std::optional<nlohmann::json>& value);

    QUndoStack* undoStack() const { return m_undoStack; }
    QString filePath() const { return m_filePath; }
    /** Returns the name the document has in the scenario store, "" when it is not from there. */
    QString storeName() const { return m_storeName; }
    /** Ties the document to scenario \a name of the store (saving to the library adds versions). */
    void setStoreName(const QString& name);
    /** Marks the current state as saved (to the store); the document is unmodified after. */
    void markSaved();
    /** Returns the scenario's name, else the file's name, else "Untitled". */
    QString title() const;
    /** Returns true when there are edits since the last save (to a file or the store). */
    bool isModified() const;

    /** Saves to \a path atomically; returns "" on success, else a message naming the file. */
    QString saveAs(const QString& path);

    /** Returns the latest evaluation (never null; empty before the first one lands). */
    std::shared_ptr<const EvaluationOutcome> outcome() const { return m_outcome; }
    /** Returns true while an evaluation runs on a worker thread. */
    bool isEvaluating() const { return m_running > 0; }
    /** Starts an evaluation of the current document on a worker thread. */
    void evaluate();
    /** Evaluates on the calling thread, for tests and the screenshot tool. */
    void evaluateNow();

signals:
    /** The value at \a pointer changed (by an edit, undo or redo). */
    void valueChanged(const QString& pointer);
    /** A new evaluation landed. */
    void evaluated();
    /** The title or the modified state changed. */
    void titleChanged();

private:
    void land(std::shared_ptr<const EvaluationOutcome> outcome);

    nlohmann::json m_json;
    QString m_filePath;
    QString m_storeName;
    QUndoStack* m_undoStack = nullptr;
    std::shared_ptr<const EvaluationOutcome> m_outcome;
    unsigned long long m_generation = 0;
    int m_running = 0;
};

} // namespace dct::ui
