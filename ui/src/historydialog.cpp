#include "dct/ui/historydialog.h"

#include <QDialogButtonBox>
#include <QHeaderView>
#include <QPushButton>
#include <QTableWidget>
#include <QVBoxLayout>

namespace dct::ui {

HistoryDialog::HistoryDialog(const QString& name,
                             const QList<StoreScenarioSource::Version>& versions, QWidget* parent)
    : QDialog(parent), m_table(new QTableWidget(static_cast<int>(versions.size()), 3, this))
{
    setWindowTitle(tr("History of %1").arg(name));
    auto* layout = new QVBoxLayout(this);
    m_table->setHorizontalHeaderLabels({tr("Version"), tr("Saved (UTC)"), tr("Comment")});
    m_table->verticalHeader()->setVisible(false);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->horizontalHeader()->setStretchLastSection(true);
    // Newest first: the version a planner usually wants to go back to is near the top.
    for (int row = 0; row < versions.size(); ++row) {
        const auto& v = versions[versions.size() - 1 - row];
        auto* number = new QTableWidgetItem(QString::number(v.version));
        number->setData(Qt::UserRole, v.version);
        m_table->setItem(row, 0, number);
        m_table->setItem(row, 1, new QTableWidgetItem(v.savedAt));
        m_table->setItem(row, 2, new QTableWidgetItem(v.comment));
    }
    m_table->resizeColumnsToContents();
    m_table->selectRow(0);
    layout->addWidget(m_table);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Open | QDialogButtonBox::Close, this);
    buttons->button(QDialogButtonBox::Open)->setText(tr("Open version"));
    layout->addWidget(buttons);
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(m_table, &QTableWidget::cellDoubleClicked, this, &QDialog::accept);
    resize(620, 360);
}

HistoryDialog::~HistoryDialog() = default;

int HistoryDialog::selectedVersion() const
{
    const int row = m_table->currentRow();
    if (row < 0 || !m_table->item(row, 0))
        return 0;
    return m_table->item(row, 0)->data(Qt::UserRole).toInt();
}

bool HistoryDialog::selectVersion(int version)
{
    for (int row = 0; row < m_table->rowCount(); ++row)
        if (m_table->item(row, 0)->data(Qt::UserRole).toInt() == version) {
            m_table->selectRow(row);
            return true;
        }
    return false;
}

} // namespace dct::ui
