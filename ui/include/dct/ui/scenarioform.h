#pragma once

#include "dct/model/diagnostics.h"

#include <QPointer>
#include <QWidget>
#include <map>
#include <nlohmann/json.hpp>
#include <string>

class QComboBox;
class QLabel;
class QScrollArea;
class QToolBox;

namespace dct::ui {

class ScenarioDocument;
struct EvaluationOutcome;
struct FieldInfo;

/**
 * The form editor: one page per domain (site, compute, network, facility and cooling, workload,
 * economics), one editor per field, all generated from the scenario's field tables with their
 * units, ranges, choices and catalog ids. Edits go to the document as undoable commands;
 * diagnostics mark the fields they point at.
 */
class ScenarioForm : public QWidget
{
    Q_OBJECT

public:
    explicit ScenarioForm(QWidget* parent = nullptr);

    /** Shows and edits \a document (nullptr shows nothing). */
    void setDocument(ScenarioDocument* document);
    ScenarioDocument* document() const { return m_document; }

    /** Marks the fields the diagnostics of \a outcome point at and shows what a field left
     *  "automatic" (0) came to: "automatic (8)". */
    void setOutcome(const EvaluationOutcome& outcome);
    /** Marks the fields that \a diagnostics point at; clears earlier marks. */
    void setDiagnostics(const Diagnostics& diagnostics);
    /** Shows the page of the field at \a pointer (or its nearest field) and focuses its editor. */
    bool focusField(const QString& pointer);
    /** Returns the editor of the field at \a pointer, or nullptr. */
    QWidget* editor(const QString& pointer) const;

private:
    QWidget* makeEditor(const FieldInfo& field);
    /** Lists the catalog entries of \a field by name in \a combo; a switch only of the fabric
     *  \a protocol ("roce_v2", "infiniband"; "" for every one). */
    void fillCatalogCombo(QComboBox* combo, const FieldInfo& field, const std::string& protocol);
    void refresh(const std::string& pointer);
    void refreshAll();
    void commit(const std::string& pointer, const nlohmann::json& value);

    struct Slot
    {
        QWidget* editor = nullptr;
        QLabel* label = nullptr;
        QString toolTip;
        int page = 0;
        QScrollArea* scroll = nullptr;
    };
    QToolBox* m_pages = nullptr;
    QLabel* m_empty = nullptr; ///< Shown instead of the pages while no scenario is open.
    std::map<std::string, Slot> m_slots;
    QPointer<ScenarioDocument> m_document;
};

} // namespace dct::ui
