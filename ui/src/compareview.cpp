#include "dct/ui/compareview.h"

#include "dct/ui/comparemodel.h"
#include "dct/ui/scenariodocument.h"

#include <QCheckBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QListWidget>
#include <QTableView>
#include <QVBoxLayout>

namespace dct::ui {

CompareView::CompareView(QWidget* parent)
    : QWidget(parent), m_list(new QListWidget(this)), m_table(new QTableView(this)),
      m_model(new CompareModel(this)),
      m_differencesOnly(new QCheckBox(tr("Show differences only"), this))
{
    // The scenarios to compare sit in a short list above the table, so that the table has the
    // full width for its value and change columns.
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(6, 6, 6, 6);
    auto* top = new QHBoxLayout;
    auto* hint = new QLabel(tr("Compared (A is the baseline):"), this);
    hint->setAlignment(Qt::AlignTop | Qt::AlignLeft);
    top->addWidget(hint);
    m_list->setMaximumHeight(4 * fontMetrics().height() + 12);
    top->addWidget(m_list, 2);
    auto* legend = new QLabel(tr("\u2714 green: the better value of a row, by the direction each "
                                 "figure declares (lower cost, time, power and PUE; higher "
                                 "throughput and bandwidth; sizes such as GPUs are neither).\n"
                                 "\u0394: change against A, green when better, red when worse."),
                              this);
    legend->setWordWrap(true);
    legend->setAlignment(Qt::AlignTop | Qt::AlignLeft);
    top->addWidget(legend, 1);
    layout->addLayout(top);
    m_differencesOnly->setToolTip(tr("Hide the figures that are the same in every scenario"));
    layout->addWidget(m_differencesOnly);
    layout->addWidget(m_table, 1);
    connect(m_differencesOnly, &QCheckBox::toggled, m_model, &CompareModel::setDifferencesOnly);

    m_table->setModel(m_model);
    m_table->setAlternatingRowColors(true);
    m_table->verticalHeader()->setVisible(false);
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_table->horizontalHeader()->setMaximumSectionSize(280);
    m_table->horizontalHeader()->setTextElideMode(Qt::ElideMiddle);
    m_table->verticalHeader()->setDefaultSectionSize(fontMetrics().height() + 6);
    m_table->setWordWrap(false);
    connect(m_list, &QListWidget::itemChanged, this, &CompareView::update);
}

void CompareView::setDocuments(const QList<ScenarioDocument*>& documents, int checkedCount)
{
    QList<ScenarioDocument*> checked;
    QList<ScenarioDocument*> known;
    for (int i = 0; i < m_list->count() && i < m_documents.size(); ++i) {
        if (!m_documents[i])
            continue;
        known << m_documents[i].data();
        if (m_list->item(i)->checkState() == Qt::Checked)
            checked << m_documents[i].data();
    }
    fill(documents, [&](int i, ScenarioDocument* d) {
        return known.isEmpty() ? i < checkedCount : checked.contains(d) || !known.contains(d);
    });
}

void CompareView::fill(const QList<ScenarioDocument*>& documents,
                       const std::function<bool(int, ScenarioDocument*)>& isChecked)
{
    for (const auto& d : std::as_const(m_documents))
        if (d)
            disconnect(d, nullptr, this, nullptr);
    m_documents.clear();
    const QSignalBlocker blocker(m_list);
    m_list->clear();
    for (int i = 0; i < documents.size(); ++i) {
        ScenarioDocument* d = documents[i];
        m_documents << d;
        auto* item = new QListWidgetItem(d->title(), m_list);
        item->setToolTip(d->title());
        item->setFlags(item->flags() | Qt::ItemIsUserCheckable);
        item->setCheckState(isChecked(i, d) ? Qt::Checked : Qt::Unchecked);
        connect(d, &ScenarioDocument::evaluated, this, &CompareView::update);
        connect(d, &ScenarioDocument::titleChanged, this, &CompareView::update);
    }
    update();
}

void CompareView::compare(const QList<ScenarioDocument*>& documents)
{
    // The documents compared come first, in the order given: the first is the baseline.
    QList<ScenarioDocument*> ordered = documents;
    for (const auto& d : std::as_const(m_documents))
        if (d && !ordered.contains(d.data()))
            ordered << d.data();
    const auto count = documents.size();
    fill(ordered, [count](int i, ScenarioDocument*) { return i < count; });
}

QList<ScenarioDocument*> CompareView::comparedDocuments() const
{
    QList<ScenarioDocument*> compared;
    for (int i = 0; i < m_list->count() && i < m_documents.size(); ++i)
        if (m_documents[i] && m_list->item(i)->checkState() == Qt::Checked)
            compared << m_documents[i].data();
    return compared;
}

void CompareView::update()
{
    QStringList titles;
    std::vector<std::shared_ptr<const EvaluationOutcome>> outcomes;
    const QSignalBlocker blocker(m_list);
    for (int i = 0; i < m_list->count() && i < m_documents.size(); ++i) {
        if (!m_documents[i])
            continue;
        const bool on = m_list->item(i)->checkState() == Qt::Checked;
        m_list->item(i)->setText(on ? QStringLiteral("%1: %2").arg(
                                          CompareModel::letterOf(static_cast<int>(titles.size())),
                                          m_documents[i]->title())
                                    : m_documents[i]->title());
        if (!on)
            continue;
        titles << m_documents[i]->title();
        outcomes.push_back(m_documents[i]->outcome());
    }
    m_model->setScenarios(titles, outcomes);
}

} // namespace dct::ui
