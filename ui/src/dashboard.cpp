#include "dct/ui/dashboard.h"

#include "dct/model/textformat.h"
#include "dct/ui/format.h"
#include "dct/ui/metriccard.h"
#include "dct/ui/siteyearview.h"
#include "dct/ui/stepbreakdownchart.h"

#include <QBarCategoryAxis>
#include <QBarSet>
#include <QCategoryAxis>
#include <QChart>
#include <QChartView>
#include <QGridLayout>
#include <QHorizontalBarSeries>
#include <QHorizontalStackedBarSeries>
#include <QLabel>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QScatterSeries>
#include <QStackedBarSeries>
#include <QValueAxis>
#include <algorithm>
#include <cmath>
#include <iterator>

namespace dct::ui {

namespace {

/** A headline: its title and the metric keys that may hold it, in order of preference. */
struct Headline
{
    const char* title;
    std::vector<std::string> keys;
    std::vector<std::string> detailKeys; ///< A second figure for the detail line.
    const char* solver;                  ///< Named when no key is there.
};

/** The index of the switches card, whose detail line sums the ports of every tier. */
constexpr std::size_t kSwitchesCard = 1;

// Every key here is one a solver emits (tests/golden holds them all for every example).
const std::vector<Headline>& headlines()
{
    static const std::vector<Headline> list = {
        {"GPUs", {"compute.gpus"}, {"compute.cluster_peak_pflops"}, "compute"},
        {"Switches and ports", {"network.switches"}, {}, "network"},
        {"All-reduce time",
         {"collectives.gradient_allreduce_seconds", "compute.allreduce_seconds_per_step"},
         {"collectives.gradient_allreduce_busbw_gbyte_per_s"},
         "collectives"},
        {"Rack power",
         {"power.rack_kw"},
         {"power.rack_nameplate_kw", "power.nodes_per_rack"},
         "power"},
        {"Racks", {"power.racks"}, {"power.rows", "power.floor_m2"}, "power"},
        {"PUE", {"cooling.pue"}, {"cooling.cooling_kw", "power.cooling_kw"}, "cooling"},
        {"Facility power", {"power.facility_kw"}, {"power.it_kw"}, "power"},
        {"Egress a month",
         {"egress.usd_per_month", "egress.metered_usd_per_month"},
         {"egress.metered_usd_per_month"},
         "egress"},
        // With failures when the reliability solver ran, the failure-free time beside it.
        {"Training time",
         {"reliability.effective_training_days", "compute.training_days"},
         {"reliability.failure_free_training_days", "compute.gpu_hours"},
         "compute"},
        {"TCO", {"cost.tco_usd_per_year"}, {"cost.usd_per_gpu_hour"}, "cost"},
    };
    return list;
}

/** Returns \a m as "value unit", kW above 1000 shown as MW. */
QString formatMetric(const solvers::Metric& m)
{
    if (m.unit == "kW" && std::fabs(m.value) >= 1000.0)
        return formatValue(m.value / 1000.0, "MW");
    if (m.unit == "s" && std::fabs(m.value) < 1.0 && m.value != 0.0)
        return formatValue(m.value * 1000.0, "ms");
    return formatValue(m.value, m.unit);
}

using Slices = std::vector<std::pair<QString, double>>;

/** Returns the parts of the facility power of \a p, in kW. */
Slices powerSlices(const solvers::PowerResult& p)
{
    return {{QObject::tr("GPU nodes"), p.nodesPowerKw}, {QObject::tr("Network"), p.networkPowerKw},
            {QObject::tr("Storage"), p.storagePowerKw}, {QObject::tr("Cooling"), p.coolingPowerKw},
            {QObject::tr("Power losses"), p.lossesKw},  {QObject::tr("Lighting"), p.lightingKw}};
}

/** Returns the parts of the yearly cost of \a c, in USD a year. */
Slices costSlices(const solvers::CostResult& c)
{
    // Capex spread over the amortization period, so that it adds up with the yearly opex.
    const double perYear = c.capexUsd > 0.0 ? c.amortizedCapexUsdPerYear / c.capexUsd : 0.0;
    return {{QObject::tr("Nodes"), c.capexNodesUsd * perYear},
            {QObject::tr("Network"), c.capexNetworkUsd * perYear},
            {QObject::tr("Storage"), c.capexStorageUsd * perYear},
            {QObject::tr("Racks"), c.capexRacksUsd * perYear},
            {QObject::tr("Cooling plant"), c.capexCoolingUsd * perYear},
            {QObject::tr("Power plant"), c.capexPowerUsd * perYear},
            {QObject::tr("Spare units"), c.capexRedundancyUsd * perYear},
            {QObject::tr("Energy"), c.energyUsdPerYear},
            {QObject::tr("Egress"), c.egressUsdPerYear},
            {QObject::tr("Maintenance"), c.maintenanceUsdPerYear}};
}

/** Adds \a bars to \a chart as labelled horizontal bars (first bar at the bottom) on a value axis
 *  from 0 to \a axisMax titled \a axisTitle. */
void addHorizontalBars(QChart* chart, const Slices& bars, const QColor& color, int labelPrecision,
                       double axisMax, const QString& axisTitle)
{
    auto* set = new QBarSet(axisTitle);
    QStringList categories;
    for (const auto& bar : bars) {
        *set << bar.second;
        categories << bar.first;
    }
    set->setColor(color);
    set->setLabelColor(Qt::black);
    auto* series = new QHorizontalBarSeries;
    series->append(set);
    series->setLabelsVisible(true);
    series->setLabelsPosition(QAbstractBarSeries::LabelsOutsideEnd);
    series->setLabelsFormat(QStringLiteral("@value"));
    series->setLabelsPrecision(labelPrecision);
    chart->addSeries(series);
    auto* axisY = new QBarCategoryAxis;
    axisY->append(categories);
    chart->addAxis(axisY, Qt::AlignLeft);
    series->attachAxis(axisY);
    auto* axisX = new QValueAxis;
    axisX->setRange(0.0, axisMax);
    axisX->applyNiceNumbers();
    axisX->setLabelFormat(QStringLiteral("%.0f"));
    axisX->setTitleText(axisTitle);
    chart->addAxis(axisX, Qt::AlignBottom);
    series->attachAxis(axisX);
}

} // namespace

Dashboard::Dashboard(QWidget* parent) : QWidget(parent)
{
    auto* layout = new QGridLayout(this);
    layout->setContentsMargins(6, 6, 6, 6);
    layout->setSpacing(6);
    m_verdict = new QLabel(this);
    m_verdict->setObjectName(QStringLiteral("verdictBanner"));
    m_verdict->setWordWrap(true);
    m_verdict->setTextFormat(Qt::PlainText);
    layout->addWidget(m_verdict, 0, 0, 1, 5);
    const auto& list = headlines();
    for (std::size_t i = 0; i < list.size(); ++i) {
        auto* card = new MetricCard(tr(list[i].title), this);
        m_cards.push_back({QString::fromLatin1(list[i].title), card});
        layout->addWidget(card, 1 + static_cast<int>(i / 5), static_cast<int>(i % 5));
    }
    for (int i = 0; i < 4; ++i) {
        auto* chart = new QChart;
        chart->setAnimationOptions(QChart::NoAnimation);
        auto* view = new QChartView(chart, this);
        view->setRenderHint(QPainter::Antialiasing);
        view->setMinimumSize(300, 330);
        m_views.push_back(view);
    }
    layout->addWidget(m_views[0], 3, 0, 1, 3);
    layout->addWidget(m_views[1], 3, 3, 1, 2);
    layout->addWidget(m_views[2], 4, 0, 1, 3);
    layout->addWidget(m_views[3], 4, 3, 1, 2);
    layout->setRowStretch(3, 1);
    layout->setRowStretch(4, 1);
    // Every chart keeps the height its category labels need (the cost chart's nine, the step
    // breakdown's twelve); the main window scrolls the dashboard.
    m_stepChart = new StepBreakdownChart(this);
    layout->addWidget(m_stepChart, 5, 0, 1, 5);
    layout->setRowStretch(5, 0);
    m_siteYear = new SiteYearView(this);
    layout->addWidget(m_siteYear, 6, 0, 1, 5);
    setOutcome(nullptr);
}

MetricCard* Dashboard::card(const QString& title) const
{
    for (const auto& [name, card] : m_cards)
        if (name == title)
            return card;
    return nullptr;
}

QString Dashboard::headline(const QString& title) const
{
    const MetricCard* c = card(title);
    return c ? c->value() : QString();
}

void Dashboard::setOutcome(std::shared_ptr<const EvaluationOutcome> outcome)
{
    const EvaluationOutcome empty;
    const EvaluationOutcome& o = outcome ? *outcome : empty;
    showHeadlines(o);
    showVerdict(o);
    showPower(o);
    showCooling(o);
    showAllReduce(o);
    showCost(o);
    m_stepChart->setOutcome(o);
    showSiteYear(o);
}

void Dashboard::showSiteYear(const EvaluationOutcome& outcome)
{
    if (!outcome.evaluation || !outcome.hourly) {
        m_siteYear->setYear(nullptr, {}, {}, false);
        return;
    }
    const solvers::Evaluation& e = *outcome.evaluation;
    m_siteYear->setYear(outcome.hourly, e.cooling.monthlyWaterM3, e.grid.monthlyCarbonTonnes,
                        e.cooling.coolantTempC > 0.0);
}

QString Dashboard::verdictText() const
{
    return m_verdict->text();
}

void Dashboard::showVerdict(const EvaluationOutcome& outcome)
{
    if (!outcome.evaluation && outcome.diagnostics.empty()) {
        m_verdict->clear();
        m_verdict->setStyleSheet({});
        return;
    }
    const solvers::Verdict verdict = solvers::assessVerdict(outcome.diagnostics);
    QString text = tr(solvers::feasibilityLabel(verdict.feasibility));
    if (!verdict.reasons.empty()) {
        const Diagnostic& first = verdict.reasons.front();
        text += QStringLiteral(": ") + qstr(first.message);
        if (!first.path.empty())
            text += QStringLiteral(" (") + qstr(first.path) + QStringLiteral(")");
        if (verdict.reasons.size() > 1)
            text += tr(" and %n more in the diagnostics", nullptr,
                       static_cast<int>(verdict.reasons.size() - 1));
    }
    m_verdict->setText(text);
    const char* style = "background: #dafbe1; color: #116329; border: 1px solid #4ac26b;";
    if (verdict.feasibility == solvers::Feasibility::FeasibleWithWarnings)
        style = "background: #fff8c5; color: #7d4e00; border: 1px solid #d4a72c;";
    else if (verdict.feasibility == solvers::Feasibility::Infeasible)
        style = "background: #ffebe9; color: #a40e26; border: 1px solid #cf222e;";
    m_verdict->setStyleSheet(QStringLiteral("QLabel#verdictBanner { %1 border-radius: 6px; "
                                            "padding: 4px 8px; font-weight: 600; }")
                                 .arg(QLatin1String(style)));
    if (verdict.feasibility != solvers::Feasibility::Infeasible)
        return;
    // A headline whose inputs include the field a broken limit names turns red.
    const auto& list = headlines();
    for (std::size_t i = 0; i < list.size(); ++i) {
        const solvers::Metric* m = outcome.metric(list[i].keys);
        if (!m)
            continue;
        for (const Diagnostic& reason : verdict.reasons) {
            if (reason.path.empty())
                continue;
            const bool concerned =
                std::any_of(m->inputs.begin(), m->inputs.end(), [&](const std::string& in) {
                    return in.rfind(reason.path, 0) == 0 || reason.path.rfind(in, 0) == 0;
                });
            if (concerned) {
                m_cards[i].second->setProblem(qstr(reason.message));
                break;
            }
        }
    }
}

void Dashboard::showHeadlines(const EvaluationOutcome& outcome)
{
    const auto& list = headlines();
    for (std::size_t i = 0; i < list.size(); ++i) {
        MetricCard* c = m_cards[i].second;
        const solvers::Metric* m = outcome.metric(list[i].keys);
        if (!m) {
            c->setUnavailable(!outcome.evaluation ? tr("no evaluation (see diagnostics)")
                                                  : tr("the %1 solver reports no such figure")
                                                        .arg(QString::fromLatin1(list[i].solver)));
            continue;
        }
        QString detail = qstr(m->label);
        if (const solvers::Metric* d = outcome.metric(list[i].detailKeys))
            detail = qstr(d->label) + QStringLiteral(": ") + formatMetric(*d);
        if (i == kSwitchesCard && outcome.evaluation) {
            // Ports are counted per tier; the card sums them.
            long long used = 0;
            long long free = 0;
            for (const auto& tier : outcome.evaluation->network.topology.tiersCounts) {
                used += tier.portsUsed;
                free += tier.portsFree;
            }
            if (used > 0)
                detail = tr("%1 ports used, %2 free")
                             .arg(formatNumber(static_cast<double>(used)),
                                  formatNumber(static_cast<double>(free)));
        }
        c->setValue(formatMetric(*m), detail);
    }
}

QChart* Dashboard::resetChart(int index, const QString& title)
{
    QChart* chart = m_views[static_cast<std::size_t>(index)]->chart();
    chart->removeAllSeries();
    // removeAxis() gives the axis back to the caller: delete it, or every evaluation leaks one.
    for (QAbstractAxis* axis : chart->axes()) {
        chart->removeAxis(axis);
        delete axis;
    }
    chart->setTitle(title);
    chart->legend()->setVisible(false);
    chart->setMargins(QMargins(4, 4, 4, 4));
    return chart;
}

void Dashboard::showEmpty(QChart* chart, const QString& why)
{
    chart->setTitle(chart->title() + QStringLiteral("<br><span style='color:#6e7781;"
                                                    "font-weight:normal'>n/a: %1</span>")
                                         .arg(why.toHtmlEscaped()));
}

void Dashboard::showPower(const EvaluationOutcome& outcome)
{
    QChart* chart = resetChart(0, tr("Power breakdown"));
    Slices slices;
    if (outcome.evaluation)
        slices = powerSlices(outcome.evaluation->power);
    slices.erase(std::remove_if(slices.begin(), slices.end(),
                                [](const auto& s) { return !(s.second > 0.0); }),
                 slices.end());
    if (slices.empty()) {
        showEmpty(chart, tr("the power solver has not reported a breakdown"));
        return;
    }
    double top = 0.0;
    for (const auto& s : slices)
        top = std::max(top, s.second);
    // Bars in kW, or in MW from 10,000 kW, so that a bar's label has a few digits, not 16174.
    const bool megawatts = top >= 1e4;
    Slices bars;
    for (auto it = slices.rbegin(); it != slices.rend(); ++it) // the largest on top
        bars.emplace_back(it->first, megawatts ? it->second / 1e3 : it->second);
    chart->setTitle(tr("Power breakdown (%1)").arg(megawatts ? tr("MW") : tr("kW")));
    addHorizontalBars(chart, bars, QColor(0x42, 0x85, 0xf4), 4, (megawatts ? top / 1e3 : top) * 1.2,
                      megawatts ? tr("MW") : tr("kW"));
}

void Dashboard::showCooling(const EvaluationOutcome& outcome)
{
    QChart* chart = resetChart(1, tr("PUE of the cooling options"));
    m_coolingRank = 0;
    if (!outcome.evaluation || outcome.evaluation->coolingOptions.empty()) {
        showEmpty(chart, tr("the cooling solver has not reported a PUE"));
        return;
    }
    const solvers::Evaluation& evaluation = *outcome.evaluation;
    // Bars coloured by rank, lowest PUE first: the best green, the worst red, the others grey;
    // the scenario's own system is named as such, so that it is never green when it is the worst.
    auto options = evaluation.coolingOptions;
    std::stable_sort(options.begin(), options.end(),
                     [](const auto& a, const auto& b) { return a.pue < b.pue; });
    auto* best = new QBarSet(tr("lowest PUE"));
    auto* middle = new QBarSet(tr("between"));
    auto* worst = new QBarSet(tr("highest PUE"));
    best->setColor(QColor(0x2d, 0xa4, 0x4e));
    middle->setColor(QColor(0xb0, 0xbe, 0xc5));
    worst->setColor(QColor(0xcf, 0x22, 0x2e));
    QStringList categories;
    double top = 1.0;
    int ownRank = 0;
    const double lowest = options.front().pue;
    const double highest = options.back().pue;
    for (std::size_t i = options.size(); i-- > 0;) { // the lowest PUE on top
        const auto& option = options[i];
        const bool own = option.systemId == evaluation.cooling.systemId;
        if (own)
            ownRank = static_cast<int>(i) + 1;
        const bool isBest = option.pue == lowest && highest > lowest;
        const bool isWorst = option.pue == highest && highest > lowest;
        categories << (own ? QStringLiteral("\u25b6 %1 (this scenario)").arg(qstr(option.systemId))
                           : qstr(option.systemId));
        *best << (isBest ? option.pue : 0.0);
        *worst << (isWorst ? option.pue : 0.0);
        *middle << (!isBest && !isWorst ? option.pue : 0.0);
        top = std::max(top, option.pue);
    }
    m_coolingRank = ownRank;
    if (ownRank > 0)
        chart->setTitle(tr("PUE of the cooling options (this scenario: #%1 of %2)")
                            .arg(ownRank)
                            .arg(options.size()));
    auto* series = new QHorizontalStackedBarSeries;
    series->append(best);
    series->append(middle);
    series->append(worst);
    series->setLabelsVisible(true);
    series->setLabelsFormat(QStringLiteral("@value"));
    // Four digits: options a thousandth apart (1.098 and 1.100) read apart.
    series->setLabelsPrecision(4);
    series->setLabelsPosition(QAbstractBarSeries::LabelsInsideEnd);
    for (QBarSet* set : series->barSets())
        set->setLabelColor(Qt::white);
    chart->addSeries(series);
    auto* axisY = new QBarCategoryAxis;
    axisY->append(categories);
    chart->addAxis(axisY, Qt::AlignLeft);
    series->attachAxis(axisY);
    auto* axisX = new QValueAxis;
    axisX->setRange(0.0, top * 1.1);
    axisX->applyNiceNumbers();
    axisX->setLabelFormat(QStringLiteral("%.1f"));
    axisX->setTitleText(tr("PUE"));
    chart->addAxis(axisX, Qt::AlignBottom);
    series->attachAxis(axisX);
    chart->legend()->setVisible(true);
    chart->legend()->setAlignment(Qt::AlignBottom);
}

void Dashboard::showAllReduce(const EvaluationOutcome& outcome)
{
    QChart* chart = resetChart(2, tr("All-reduce time against message size"));
    const auto& curves = outcome.allReduceCurves;
    if (curves.empty()) {
        showEmpty(chart, tr("the collectives solver has not reported a curve"));
        return;
    }
    // The message size on a log2 scale, labelled in bytes at every power of 32: 32 B, 1 KiB,
    // 32 KiB, 1 MiB, ... (a log axis of Qt Charts prints 1e+03..1e+09).
    // The sizes measured by all_reduce_perf when a calibration profile applies (overlaid below).
    std::vector<const model::CalibrationPoint*> measured;
    if (outcome.calibration)
        for (const auto& point : outcome.calibration->points)
            if (point.test == "all_reduce_perf" && point.bytes > 0.0 && point.measuredUs > 0.0)
                measured.push_back(&point);
    double lowBytes = 0.0;
    double highBytes = 0.0;
    for (const auto& curve : curves)
        for (const auto& point : curve.points)
            if (point.first > 0.0) {
                lowBytes = lowBytes == 0.0 ? point.first : std::min(lowBytes, point.first);
                highBytes = std::max(highBytes, point.first);
            }
    for (const auto* point : measured) {
        lowBytes = lowBytes == 0.0 ? point->bytes : std::min(lowBytes, point->bytes);
        highBytes = std::max(highBytes, point->bytes);
    }
    auto* axisX = new QCategoryAxis;
    axisX->setTitleText(tr("message size over all GPUs (bytes)"));
    axisX->setLabelsPosition(QCategoryAxis::AxisLabelsPositionOnValue);
    const double lowLog = std::log2(std::max(lowBytes, 1.0));
    const double highLog = std::log2(std::max(highBytes, 2.0));
    axisX->setRange(lowLog, highLog);
    for (int power = 0; power <= 60; power += 5)
        if (power >= std::floor(lowLog) && power <= std::ceil(highLog))
            axisX->append(qstr(formatBytes(std::ldexp(1.0, power))), power);
    auto* axisY = new QLogValueAxis;
    axisY->setBase(10.0);
    axisY->setTitleText(tr("time (ms)"));
    axisY->setLabelFormat(QStringLiteral("%g"));
    chart->addAxis(axisX, Qt::AlignBottom);
    chart->addAxis(axisY, Qt::AlignLeft);
    static const QColor colors[] = {QColor(0x42, 0x85, 0xf4), QColor(0xdb, 0x44, 0x37),
                                    QColor(0x0f, 0x9d, 0x58), QColor(0xf4, 0xb4, 0x00),
                                    QColor(0x8e, 0x44, 0xad), QColor(0x00, 0x96, 0x88)};
    constexpr std::size_t colorCount = std::size(colors);
    double low = 0.0;
    double high = 0.0;
    for (const auto& curve : curves)
        for (const auto& point : curve.points)
            if (point.second > 0.0) {
                const double ms = point.second * 1e3;
                low = low == 0.0 ? ms : std::min(low, ms);
                high = std::max(high, ms);
            }
    for (const auto* point : measured) {
        const double ms = point->measuredUs * 1e-3;
        low = low == 0.0 ? ms : std::min(low, ms);
        high = std::max(high, ms);
    }
    if (high > 0.0)
        axisY->setRange(std::pow(10.0, std::floor(std::log10(low))),
                        std::pow(10.0, std::ceil(std::log10(high))));
    std::size_t index = 0;
    for (const auto& curve : curves) {
        auto* line = new QLineSeries;
        line->setName(qstr(curve.algorithm));
        QPen pen(colors[index++ % colorCount]);
        pen.setWidthF(2.0);
        line->setPen(pen);
        for (const auto& [bytes, seconds] : curve.points)
            if (bytes > 0.0 && seconds > 0.0)
                line->append(std::log2(bytes), seconds * 1e3);
        chart->addSeries(line);
        line->attachAxis(axisX);
        line->attachAxis(axisY);
    }
    if (!measured.empty()) {
        // Measured points of the calibration, with the largest residual of the calibrated model.
        double worst = 0.0;
        for (const auto* point : measured)
            if (std::fabs(point->residualPercent()) > std::fabs(worst))
                worst = point->residualPercent();
        auto* dots = new QScatterSeries;
        dots->setName(tr("measured (%1): rms residual %2%, worst %3%")
                          .arg(qstr(outcome.calibration->name))
                          .arg(outcome.calibration->rmsResidualPercent, 0, 'f', 1)
                          .arg(worst, 0, 'f', 1));
        dots->setMarkerSize(7.0);
        dots->setColor(QColor(0x20, 0x20, 0x20));
        for (const auto* point : measured)
            dots->append(std::log2(point->bytes), point->measuredUs * 1e-3);
        chart->addSeries(dots);
        dots->attachAxis(axisX);
        dots->attachAxis(axisY);
    }
    chart->legend()->setVisible(true);
    chart->legend()->setAlignment(Qt::AlignRight);
}

void Dashboard::showCost(const EvaluationOutcome& outcome)
{
    QChart* chart = resetChart(3, tr("Cost breakdown (k USD a year)"));
    Slices slices;
    if (outcome.evaluation)
        slices = costSlices(outcome.evaluation->cost);
    slices.erase(std::remove_if(slices.begin(), slices.end(),
                                [](const auto& s) { return !(s.second > 0.0); }),
                 slices.end());
    if (slices.empty()) {
        showEmpty(chart, tr("the cost solver has not reported a breakdown"));
        return;
    }
    std::sort(slices.begin(), slices.end(),
              [](const auto& a, const auto& b) { return a.second < b.second; });
    double total = 0.0;
    double top = 0.0;
    for (const auto& s : slices) {
        total += s.second;
        top = std::max(top, s.second);
    }
    chart->setTitle(tr("Cost breakdown: %1 a year").arg(formatValue(total, "USD")));
    // k USD below 10 M USD, M USD from there: a label has a few digits, never "143360 k USD".
    const bool millions = top >= 1e7;
    const double scale = millions ? 1e6 : 1e3;
    Slices bars;
    for (const auto& s : slices)
        bars.emplace_back(s.first, millions ? std::round(s.second / 1e5) / 10.0
                                            : std::round(s.second / 1e3));
    addHorizontalBars(chart, bars, QColor(0x8e, 0x24, 0xaa), 6, top / scale * 1.3,
                      millions ? tr("M USD a year (capex amortized)")
                               : tr("k USD a year (capex amortized)"));
}

} // namespace dct::ui
