#pragma once

#include "dct/ui/evaluationoutcome.h"

#include <QWidget>
#include <memory>
#include <vector>

class QChart;
class QChartView;
class QLabel;

namespace dct::ui {

class MetricCard;
class StepBreakdownChart;
class SiteYearView;

/**
 * The headline figures of one evaluation (GPUs, switches and ports, all-reduce time, rack kW,
 * racks, PUE, facility MW, egress a month, training days, TCO) and its charts: power breakdown,
 * PUE of the cooling options, all-reduce time against message size, cost breakdown. A figure
 * whose solver has not run shows "n/a".
 */
class Dashboard : public QWidget
{
    Q_OBJECT

public:
    explicit Dashboard(QWidget* parent = nullptr);

    /** Shows \a outcome (nullptr clears the dashboard). */
    void setOutcome(std::shared_ptr<const EvaluationOutcome> outcome);
    /** Returns the headline card titled \a title, or nullptr. */
    MetricCard* card(const QString& title) const;
    /** Returns the value shown on the card titled \a title ("" when there is none). */
    QString headline(const QString& title) const;
    /** Returns the verdict line shown above the figures ("Infeasible: ..."). */
    QString verdictText() const;
    /** Returns the chart views, in reading order. */
    const std::vector<QChartView*>& chartViews() const { return m_views; }
    /** Returns the place of the scenario's cooling system among the options by PUE (1 = the
     *  lowest), or 0 when the chart is empty. */
    int coolingRank() const { return m_coolingRank; }
    /** Returns the chart of where a training step's time goes. */
    StepBreakdownChart* stepChart() const { return m_stepChart; }
    /** Returns the pictures of the site year (heat maps, water and carbon by month). */
    SiteYearView* siteYearView() const { return m_siteYear; }

private:
    void showVerdict(const EvaluationOutcome& outcome);
    void showHeadlines(const EvaluationOutcome& outcome);
    void showPower(const EvaluationOutcome& outcome);
    void showCooling(const EvaluationOutcome& outcome);
    void showAllReduce(const EvaluationOutcome& outcome);
    void showCost(const EvaluationOutcome& outcome);
    void showSiteYear(const EvaluationOutcome& outcome);
    QChart* resetChart(int index, const QString& title);
    void showEmpty(QChart* chart, const QString& why);

    QLabel* m_verdict = nullptr;
    std::vector<std::pair<QString, MetricCard*>> m_cards;
    std::vector<QChartView*> m_views;
    int m_coolingRank = 0;
    StepBreakdownChart* m_stepChart = nullptr;
    SiteYearView* m_siteYear = nullptr;
};

} // namespace dct::ui
