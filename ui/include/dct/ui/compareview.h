#pragma once

#include <QList>
#include <QPointer>
#include <QWidget>

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

    /** Offers \a documents for comparison; the first \a checkedCount are compared at once. */
    void setDocuments(const QList<ScenarioDocument*>& documents, int checkedCount = 2);
    /** Compares exactly \a documents (checks them, unchecks the others). */
    void compare(const QList<ScenarioDocument*>& documents);
    /** Returns the documents compared now (checked), the baseline first. */
    QList<ScenarioDocument*> comparedDocuments() const;
    CompareModel* model() const { return m_model; }
    QTableView* table() const { return m_table; }

private:
    void update();

    QListWidget* m_list;
    QTableView* m_table;
    CompareModel* m_model;
    QList<QPointer<ScenarioDocument>> m_documents;
};

} // namespace dct::ui
