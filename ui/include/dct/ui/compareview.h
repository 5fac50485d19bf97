#pragma once

#include <QList>
#include <QPointer>
#include <QWidget>
#include <functional>

class QCheckBox;
class QListWidget;
class QTableView;

namespace dct::ui {

class CompareModel;
class ScenarioDocument;

/** Two or more open scenarios side by side, with their changes against the first. */
class CompareView : public QWidget
{
    Q_OBJECT

public:
    explicit CompareView(QWidget* parent = nullptr);

    /**
     * Offers \a documents for comparison: those compared before stay as they were and a document
     * offered for the first time is compared (a newly opened scenario is ticked); when none was
     * offered before, the first \a checkedCount are compared.
     */
    void setDocuments(const QList<ScenarioDocument*>& documents, int checkedCount = 2);
    /** Compares exactly \a documents (checks them, unchecks the others). */
    void compare(const QList<ScenarioDocument*>& documents);
    /** Returns the documents compared now (checked), the baseline first. */
    QList<ScenarioDocument*> comparedDocuments() const;
    CompareModel* model() const { return m_model; }
    /** Returns the "differences only" switch above the table. */
    QCheckBox* differencesOnlyBox() const { return m_differencesOnly; }
    QTableView* table() const { return m_table; }

private:
    void update();
    /** Lists \a documents, compared when \a isChecked says so. */
    void fill(const QList<ScenarioDocument*>& documents,
              const std::function<bool(int, ScenarioDocument*)>& isChecked);

    QListWidget* m_list;
    QTableView* m_table;
    CompareModel* m_model;
    QCheckBox* m_differencesOnly;
    QList<QPointer<ScenarioDocument>> m_documents;
};

} // namespace dct::ui
