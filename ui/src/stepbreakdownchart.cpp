#include "dct/ui/stepbreakdownchart.h"

#include "dct/solvers/stepbreakdown.h"

#include <QBarCategoryAxis>
#include <QBarSet>
#include <QChart>
#include <QHorizontalStackedBarSeries>
#include <QValueAxis>
#include <algorithm>

namespace dct::ui {

StepBreakdownChart::StepBreakdownChart(QWidget* parent) : QChartView(new QChart, parent)
{
    chart()->setAnimationOptions(QChart::NoAnimation);
    chart()->legend()->setVisible(false);
    chart()->setMargins(QMargins(4, 4, 4, 4));
    setRenderHint(QPainter::Antialiasing);
    setMinimumSize(300, 380);
}

void StepBreakdownChart::setOutcome(const EvaluationOutcome& outcome)
{
    QChart* c = chart();
    c->removeAllSeries();
    for (QAbstractAxis* axis : c->axes()) {
        c->removeAxis(axis);
        delete axis;
    }
    m_parts.clear();
    c->setTitle(tr("Training step breakdown"));
    const bool stepped = outcome.evaluation && outcome.evaluation->compute.stepSeconds > 0.0 &&
                         outcome.metric({"compute.step_seconds"});
    if (!stepped) {
        c->setTitle(tr("Training step breakdown") +
                    QStringLiteral("<br><span style='color:#6e7781;font-weight:normal'>n/a: "
                                   "%1</span>")
                        .arg(tr("the workload was not evaluated (see diagnostics)")));
        return;
    }
    const solvers::Evaluation& e = *outcome.evaluation;
    const auto parts = solvers::stepBreakdown(e.compute, &e.goodput);
    double total = 0.0;
    double top = 0.0;
    for (const auto& p : parts) {
        total += p.seconds;
        top = std::max(top, p.seconds);
    }
    // Communication in the fabric's orange, compute in blue, losses (bubble, stragglers,
    // checkpoints, failures) in grey-red; the largest part on top.
    auto* compute = new QBarSet(tr("compute"));
    auto* communication = new QBarSet(tr("exposed communication"));
    auto* losses = new QBarSet(tr("waiting and losses"));
    compute->setColor(QColor(0x2f, 0x6f, 0xb0));
    communication->setColor(QColor(0xe0, 0x8a, 0x2c));
    losses->setColor(QColor(0xb5, 0x44, 0x3b));
    QStringList categories;
    for (auto it = parts.rbegin(); it != parts.rend(); ++it) {
        const bool isCompute =
            it->key == "compute" || it->key == "memory_bound" || it->key == "optimizer";
        const double share = total > 0.0 ? 100.0 * it->seconds / total : 0.0;
        categories << QStringLiteral("%1: %2 s (%3 %)")
                          .arg(tr(it->label.c_str()))
                          .arg(it->seconds, 0, 'g', 3)
                          .arg(share, 0, 'f', share > 0.0 && share < 10.0 ? 1 : 0);
        *compute << (isCompute ? it->seconds : 0.0);
        *communication << (it->communication ? it->seconds : 0.0);
        *losses << (!isCompute && !it->communication ? it->seconds : 0.0);
        m_parts.emplace_back(QString::fromStdString(it->key), it->seconds);
    }
    std::reverse(m_parts.begin(), m_parts.end());
    auto* series = new QHorizontalStackedBarSeries;
    series->append(compute);
    series->append(communication);
    series->append(losses);
    c->addSeries(series);
    // A band of a label's height for every part: in a thinner one Qt elides the names to "...".
    setMinimumHeight(std::max(380, 150 + 24 * static_cast<int>(parts.size())));
    auto* axisY = new QBarCategoryAxis;
    axisY->append(categories);
    // Twelve parts or more: a smaller font keeps every name whole (Qt elides what does not fit).
    QFont font = axisY->labelsFont();
    font.setPointSizeF(std::max(6.5, font.pointSizeF() - 1.5));
    axisY->setLabelsFont(font);
    c->addAxis(axisY, Qt::AlignLeft);
    series->attachAxis(axisY);
    auto* axisX = new QValueAxis;
    axisX->setRange(0.0, std::max(top * 1.1, 1e-6));
    axisX->applyNiceNumbers();
    axisX->setTitleText(tr("seconds per step"));
    c->addAxis(axisX, Qt::AlignBottom);
    series->attachAxis(axisX);
    c->legend()->setVisible(true);
    c->legend()->setAlignment(Qt::AlignBottom);
    c->setTitle(tr("Training step breakdown: %1 s, checkpoints and failures included")
                    .arg(total, 0, 'g', 4));
}

} // namespace dct::ui
