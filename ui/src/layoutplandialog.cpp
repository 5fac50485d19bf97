#include "dct/ui/layoutplandialog.h"

#include "dct/solvers/documentevaluation.h"
#include "dct/solvers/stepbreakdown.h"
#include "dct/ui/catalogprovider.h"
#include "dct/ui/format.h"
#include "dct/ui/scenariodocument.h"

#include <QDialogButtonBox>
#include <QHeaderView>
#include <QLabel>
#include <QPointer>
#include <QProgressBar>
#include <QPushButton>
#include <QTableWidget>
#include <QUndoStack>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

namespace dct::ui {

namespace {

/** The step's parts the table shows, by stepBreakdown() key, after the layout columns. */
struct PartColumn
{
    const char* key;
    const char* title;
};
constexpr PartColumn kParts[] = {
    {"compute", "Math s"},        {"memory_bound", "Elem. s"}, {"tensor_parallel", "TP s"},
    {"context_parallel", "CP s"}, {"expert_parallel", "EP s"}, {"pipeline_sendrecv", "PP s"},
    {"data_parallel", "DP s"},    {"bubble", "Bubble s"},      {"optimizer", "Optim. s"},
    {"stragglers", "Strag. s"},
};
/** The columns before the step's parts: rank, the layout (TP ... recompute), step, MFU,
 *  memory and the change against the scenario's own layout. */
constexpr int kLayoutColumns = 15;
/** The recompute column, the one layout column of words (left-aligned). */
constexpr int kRecomputeColumn = 10;

QString seconds(double s)
{
    return QString::number(s, 'g', 3);
}

} // namespace

LayoutPlanDialog::LayoutPlanDialog(ScenarioDocument* document, QWidget* parent)
    : QDialog(parent), m_document(document), m_stop(std::make_shared<std::atomic<bool>>(false))
{
    setWindowTitle(tr("Find best layout"));
    auto* layout = new QVBoxLayout(this);
    m_summary = new QLabel(this);
    m_summary->setWordWrap(true);
    m_summary->setTextFormat(Qt::PlainText);
    layout->addWidget(m_summary);
    m_progress = new QProgressBar(this);
    m_progress->setRange(0, 1000);
    m_progress->setValue(0);
    layout->addWidget(m_progress);
    QStringList headers = {tr("#"),         tr("TP"),     tr("PP"),  tr("DP"),        tr("CP"),
                           tr("EP"),        tr("ETP"),    tr("mbs"), tr("v"),         tr("ZeRO"),
                           tr("Recompute"), tr("Step s"), tr("MFU"), tr("Memory GB"), tr("vs now")};
    for (const auto& part : kParts)
        headers << tr(part.title);
    m_table = new QTableWidget(0, static_cast<int>(headers.size()), this);
    m_table->setHorizontalHeaderLabels(headers);
    const QStringList tips = {tr("Rank, fastest first; \"now\" is the scenario's own layout"),
                              tr("Tensor parallel (within a node's scale-up domain)"),
                              tr("Pipeline parallel stages"),
                              tr("Data parallel (the rest of the GPUs)"),
                              tr("Context parallel"),
                              tr("Expert parallel; \"ovl\": the expert all-to-all overlapped "
                                 "with the other micro-batch's computation (moe_a2a_overlap)"),
                              tr("Experts' tensor parallel (a mixture of experts)"),
                              tr("Micro-batch size (sequences)"),
                              tr("Virtual pipeline stages (interleaved schedule when more than 1)"),
                              tr("ZeRO stage"),
                              tr("Activation recomputation"),
                              tr("Step time with stragglers, as eval's compute.step_seconds"),
                              tr("Predicted model FLOP utilization"),
                              tr("Memory per GPU (first pipeline stage)"),
                              tr("Step time against the scenario's own layout")};
    for (int c = 0; c < tips.size(); ++c)
        m_table->horizontalHeaderItem(c)->setToolTip(tips[c]);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->verticalHeader()->setVisible(false);
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    layout->addWidget(m_table, 1);
    auto* buttons = new QDialogButtonBox(this);
    m_apply = buttons->addButton(tr("Apply to scenario"), QDialogButtonBox::AcceptRole);
    m_cancel = buttons->addButton(tr("Cancel search"), QDialogButtonBox::ActionRole);
    auto* close = buttons->addButton(QDialogButtonBox::Close);
    m_apply->setEnabled(false);
    m_cancel->setEnabled(false);
    layout->addWidget(buttons);
    connect(m_cancel, &QPushButton::clicked, this, &LayoutPlanDialog::cancel);
    connect(close, &QPushButton::clicked, this, &QDialog::reject);
    connect(m_apply, &QPushButton::clicked, this, [this] {
        const auto rows = m_table->selectionModel()->selectedRows();
        if (!rows.isEmpty() && applyRow(rows.front().row()))
            accept();
    });
    connect(m_table, &QTableWidget::itemSelectionChanged, this, [this] {
        const auto rows = m_table->selectionModel()->selectedRows();
        m_apply->setEnabled(!isRunning() && !rows.isEmpty() &&
                            rows.front().row() < static_cast<int>(m_plan.best.size()));
    });
    m_watcher = new QFutureWatcher<study::LayoutPlan>(this);
    connect(m_watcher, &QFutureWatcher<study::LayoutPlan>::finished, this,
            &LayoutPlanDialog::landed);
    resize(1280, 480);
}

LayoutPlanDialog::~LayoutPlanDialog()
{
    // The worker reads its own copies; it is stopped and waited for so nothing outlives it.
    m_stop->store(true);
    m_watcher->waitForFinished();
}

bool LayoutPlanDialog::isRunning() const
{
    return m_watcher->isRunning();
}

void LayoutPlanDialog::start(const study::LayoutPlanOptions& given)
{
    if (isRunning())
        return;
    m_stop->store(false);
    m_plan = {};
    m_workload.reset();
    m_table->setRowCount(0);
    m_apply->setEnabled(false);
    m_cancel->setEnabled(true);
    m_progress->setValue(0);
    m_summary->setText(tr("Searching the layouts of %1...").arg(m_document->title()));
    const nlohmann::json json = m_document->json();
    const std::string origin = m_document->title().toStdString();
    auto stop = m_stop;
    QPointer<LayoutPlanDialog> self(this);
    study::LayoutPlanOptions options = given;
    // A caller's own stop is asked first (tests hold the search there until they cancelled).
    options.stop = [stop, asked = given.stop] { return (asked && asked()) || stop->load(); };
    options.progress = [self](std::uint64_t done, std::uint64_t total) {
        QMetaObject::invokeMethod(
            self.data(),
            [self, done, total] {
                if (self)
                    self->progressed(done, total);
            },
            Qt::QueuedConnection);
    };
    m_watcher->setFuture(QtConcurrent::run([json, origin, options]() -> study::LayoutPlan {
        study::LayoutPlan plan;
        const auto catalog = CatalogProvider::catalog();
        if (!catalog) {
            plan.diagnostics.error("", "the catalog could not be read: " +
                                           CatalogProvider::loadError());
            return plan;
        }
        try {
            const solvers::DocumentEvaluation document =
                solvers::evaluateDocument(json, *catalog, origin);
            if (!document.resolved) {
                plan.diagnostics = document.diagnostics;
                return plan;
            }
            plan = study::planLayouts(*document.resolved, options);
            plan.diagnostics.setFile(origin);
        } catch (const std::exception& e) {
            plan.diagnostics.error("", std::string("the search failed: ") + e.what());
        }
        return plan;
    }));
    // The workload as searched: applyRow() writes only what differs from it.
    if (const auto& scenario = m_document->outcome()->scenario)
        m_workload = scenario->workload;
}

void LayoutPlanDialog::cancel()
{
    m_stop->store(true);
    m_cancel->setEnabled(false);
}

void LayoutPlanDialog::progressed(qulonglong done, qulonglong total)
{
    if (total > 0)
        m_progress->setValue(
            static_cast<int>(1000.0 * static_cast<double>(done) / static_cast<double>(total)));
}

void LayoutPlanDialog::landed()
{
    m_plan = m_watcher->result();
    m_cancel->setEnabled(false);
    if (!m_plan.stopped)
        m_progress->setValue(m_progress->maximum());
    showPlan();
    emit finished();
}

void LayoutPlanDialog::showPlan()
{
    QString text;
    if (m_plan.best.empty()) {
        text = m_plan.stopped ? tr("Search cancelled before a layout that fits was found.")
                              : tr("No layout found.");
        for (const auto& d : m_plan.diagnostics)
            if (d.severity == Severity::Error)
                text += QStringLiteral("\n") + QString::fromStdString(d.toString());
        m_summary->setText(text);
        return;
    }
    text = tr("%1 layouts in %2 s: %3 skipped by the memory bound, %4 dominated, %5 over "
              "memory, %6 timed%7. Step time with stragglers; parts in seconds per step.")
               .arg(m_plan.candidates)
               .arg(m_plan.seconds, 0, 'f', 2)
               .arg(m_plan.prunedByMemoryBound)
               .arg(m_plan.prunedAsDominated)
               .arg(m_plan.overflowing)
               .arg(m_plan.evaluated)
               .arg(m_plan.stopped ? tr(" (cancelled: the best so far)") : QString());
    m_summary->setText(text);
    const bool withCurrent = m_plan.hasCurrent;
    const double reference =
        m_plan.hasCurrent && m_plan.currentFits ? m_plan.current.stepSeconds() : 0.0;
    m_table->setRowCount(static_cast<int>(m_plan.best.size()) + (withCurrent ? 1 : 0));
    auto fill = [&](int row, const QString& rank, const study::LayoutOutcome& o) {
        const auto& l = o.layout;
        const QStringList cells = {
            rank,
            QString::number(l.tensorParallel),
            QString::number(l.pipelineParallel),
            QString::number(l.dataParallel),
            QString::number(l.contextParallel),
            QString::fromStdString(l.expertLabel()),
            m_plan.mixtureOfExperts ? QString::number(l.effectiveExpertTensorParallel())
                                    : QStringLiteral("-"),
            QString::number(l.microBatchSize),
            QString::fromStdString(l.scheduleLabel()),
            QString::number(l.zeroStage),
            QString::fromStdString(l.recomputeLabel()),
            seconds(o.compute.stepSeconds),
            QString::number(o.compute.step.mfu * 100.0, 'f', 1) + QStringLiteral(" %"),
            QString::number(o.compute.step.memory.totalGb, 'f', 1),
            reference > 0.0 && rank != tr("now")
                ? QString::asprintf("%+.1f %%", (o.compute.stepSeconds / reference - 1.0) * 100)
                : QString()};
        for (int c = 0; c < cells.size(); ++c) {
            auto* item = new QTableWidgetItem(cells[c]);
            if (c > 0 && c != kRecomputeColumn)
                item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
            m_table->setItem(row, c, item);
        }
        const auto parts = solvers::stepBreakdown(o.compute);
        int c = kLayoutColumns;
        for (const auto& column : kParts) {
            double value = 0.0;
            for (const auto& p : parts)
                if (p.key == column.key)
                    value = p.seconds;
            auto* item = new QTableWidgetItem(seconds(value));
            item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
            m_table->setItem(row, c++, item);
        }
    };
    for (std::size_t i = 0; i < m_plan.best.size(); ++i)
        fill(static_cast<int>(i), QString::number(i + 1), m_plan.best[i]);
    if (withCurrent) {
        const int row = static_cast<int>(m_plan.best.size());
        fill(row, tr("now"), m_plan.current);
        for (int c = 0; c < m_table->columnCount(); ++c)
            if (auto* item = m_table->item(row, c)) {
                item->setForeground(QColor(0x6e, 0x77, 0x81));
                if (c == 0)
                    item->setToolTip(m_plan.currentFits
                                         ? tr("The scenario's own layout")
                                         : tr("The scenario's own layout: it does not fit"));
            }
    }
    m_table->selectRow(0);
}

bool LayoutPlanDialog::applyRow(int row)
{
    if (row < 0 || row >= static_cast<int>(m_plan.best.size()))
        return false;
    const study::LayoutChoice& layout = m_plan.best[static_cast<std::size_t>(row)].layout;
    const model::WorkloadSection workload = m_workload.value_or(model::WorkloadSection{});
    QUndoStack* stack = m_document->undoStack();
    stack->beginMacro(tr("Apply layout %1").arg(QString::fromStdString(layout.toString())));
    for (const auto& [pointer, value] : study::layoutFields(workload, layout)) {
        const nlohmann::json v = nlohmann::json::parse(value);
        if (m_document->value(pointer) != v)
            m_document->edit(pointer, v);
    }
    stack->endMacro();
    return true;
}

} // namespace dct::ui
