// The dashboard reads the solvers' typed results: the cooling options, the switch ports and the
// breakdowns; and a new evaluation replaces the charts' axes without leaking the old ones.
#include "dct/ui/catalogprovider.h"
#include "dct/ui/dashboard.h"
#include "dct/ui/evaluationoutcome.h"
#include "dct/ui/format.h"
#include "dct/ui/metriccard.h"
#include "dct/ui/siteyearview.h"
#include "uitestsupport.h"

#include <QBarCategoryAxis>
#include <QBarSet>
#include <QCategoryAxis>
#include <QChart>
#include <QChartView>
#include <QFile>
#include <QHorizontalStackedBarSeries>
#include <QPointer>
#include <catch2/catch.hpp>
#include <cstdlib>

using namespace dct;
using test::examplePath;

namespace {

std::shared_ptr<const ui::EvaluationOutcome> evaluateExample(const char* name)
{
    QFile file(examplePath(name));
    REQUIRE(file.open(QIODevice::ReadOnly));
    const auto json = nlohmann::json::parse(file.readAll().toStdString());
    return std::make_shared<const ui::EvaluationOutcome>(
        ui::evaluateScenarioJson(json, ui::CatalogProvider::catalog(), name));
}

} // namespace

TEST_CASE("the dashboard draws the cooling options and ports of the typed results",
          "[ui][dashboard]")
{
    const auto outcome = evaluateExample("seed-h100-dallas-d2c.json");
    REQUIRE(outcome->evaluation);
    const solvers::Evaluation& e = *outcome->evaluation;
    REQUIRE(e.coolingOptions.size() >= 2);
    ui::Dashboard dashboard;
    dashboard.setOutcome(outcome);

    // One bar per cooling option, lowest PUE on top; the scenario's own system named as such.
    QChart* cooling = dashboard.chartViews()[1]->chart();
    const auto vertical = cooling->axes(Qt::Vertical);
    REQUIRE(vertical.size() == 1);
    auto* categories = qobject_cast<QBarCategoryAxis*>(vertical.front());
    REQUIRE(categories);
    REQUIRE(cooling->series().size() == 1);
    auto* series = qobject_cast<QHorizontalStackedBarSeries*>(cooling->series().front());
    REQUIRE(series);
    REQUIRE(series->count() == 3); // lowest, between, highest
    REQUIRE(categories->count() == static_cast<int>(e.coolingOptions.size()));
    int own = 0;
    for (int i = 0; i < categories->count(); ++i)
        own += categories->at(i).contains(QStringLiteral("(this scenario)")) ? 1 : 0;
    CHECK(own == 1);
    CHECK(dashboard.coolingRank() >= 1);

    // The switches card sums the ports of every tier of the fabric.
    long long used = 0;
    long long free = 0;
    for (const auto& tier : e.network.topology.tiersCounts) {
        used += tier.portsUsed;
        free += tier.portsFree;
    }
    REQUIRE(used > 0);
    const QString detail = dashboard.card(QStringLiteral("Switches and ports"))->toolTip();
    CHECK(detail.contains(ui::formatNumber(static_cast<double>(used)) + QStringLiteral(" ports")));
    CHECK(dashboard.headline(QStringLiteral("PUE")) != QStringLiteral("n/a"));
    CHECK(dashboard.headline(QStringLiteral("Racks")) != QStringLiteral("n/a"));
    CHECK(dashboard.headline(QStringLiteral("Facility power")) != QStringLiteral("n/a"));
    CHECK(dashboard.headline(QStringLiteral("TCO")) != QStringLiteral("n/a"));
    CHECK(dashboard.headline(QStringLiteral("Rack power")) != QStringLiteral("n/a"));
    // Every chart has bars or lines.
    for (QChartView* view : dashboard.chartViews())
        CHECK_FALSE(view->chart()->series().isEmpty());
}

TEST_CASE("a new evaluation deletes the chart axes it replaces", "[ui][dashboard]")
{
    const auto outcome = evaluateExample("seed-h100-dallas-d2c.json");
    REQUIRE(outcome->evaluation);
    ui::Dashboard dashboard;
    dashboard.setOutcome(outcome);
    QList<QPointer<QAbstractAxis>> axes;
    for (QChartView* view : dashboard.chartViews())
        for (QAbstractAxis* axis : view->chart()->axes())
            axes << axis;
    REQUIRE(axes.size() == 8); // two per chart
    dashboard.setOutcome(outcome);
    for (const auto& axis : axes)
        CHECK(axis.isNull());
    dashboard.setOutcome(nullptr);
    for (QChartView* view : dashboard.chartViews()) {
        CHECK(view->chart()->axes().isEmpty());
        CHECK(view->chart()->series().isEmpty());
    }
}

TEST_CASE("the dashboard names the verdict and turns the figures of a broken limit red",
          "[ui][dashboard][verdict]")
{
    ui::Dashboard dashboard;
    dashboard.setOutcome(evaluateExample("overpacked-air-h100-dallas.json"));
    CHECK(dashboard.verdictText().startsWith(QStringLiteral("Infeasible")));
    int red = 0;
    for (const char* title : {"PUE", "Rack power", "Racks", "Facility power", "Training time"})
        if (const ui::MetricCard* card = dashboard.card(QString::fromLatin1(title)))
            red += card->hasProblem() ? 1 : 0;
    CHECK(red >= 1);

    // A feasible design clears the red again.
    dashboard.setOutcome(evaluateExample("dgx-superpod-4su.json"));
    CHECK(dashboard.verdictText().startsWith(QStringLiteral("Feasible")));
    for (const char* title : {"PUE", "Rack power", "Racks", "Facility power", "Training time"})
        if (const ui::MetricCard* card = dashboard.card(QString::fromLatin1(title)))
            CHECK_FALSE(card->hasProblem());
}

TEST_CASE("the PUE chart paints the scenario red when its system is the worst option",
          "[ui][dashboard][cooling]")
{
    // CRAC air has the highest PUE of the options in Dallas.
    const auto outcome = evaluateExample("overpacked-air-h100-dallas.json");
    REQUIRE(outcome->evaluation);
    ui::Dashboard dashboard;
    dashboard.setOutcome(outcome);
    const auto& options = outcome->evaluation->coolingOptions;
    CHECK(dashboard.coolingRank() == static_cast<int>(options.size()));
    auto* series =
        qobject_cast<QHorizontalStackedBarSeries*>(dashboard.chartViews()[1]->chart()->series()[0]);
    REQUIRE(series);
    auto* axis =
        qobject_cast<QBarCategoryAxis*>(dashboard.chartViews()[1]->chart()->axes(Qt::Vertical)[0]);
    REQUIRE(axis);
    // The bottom bar (index 0) is the highest PUE: the scenario's, in the red "highest" set.
    CHECK(axis->at(0).contains(QStringLiteral("(this scenario)")));
    CHECK(series->barSets()[2]->at(0) > 1.0);
    CHECK(series->barSets()[2]->color() == QColor(0xcf, 0x22, 0x2e));
    CHECK(series->barSets()[0]->at(0) == 0.0);
}

TEST_CASE("the all-reduce axis is labelled in bytes and money and power never print as 1e+04",
          "[ui][dashboard][format]")
{
    const auto outcome = evaluateExample("multiplane-16k-h100.json");
    REQUIRE(outcome->evaluation);
    ui::Dashboard dashboard;
    dashboard.resize(1200, 800);
    dashboard.setOutcome(outcome);
    auto* bytes = qobject_cast<QCategoryAxis*>(
        dashboard.chartViews()[2]->chart()->axes(Qt::Horizontal).value(0));
    REQUIRE(bytes);
    const QStringList labels = bytes->categoriesLabels();
    CHECK(labels.contains(QStringLiteral("1 KiB")));
    CHECK(labels.contains(QStringLiteral("1 MiB")));
    CHECK(labels.contains(QStringLiteral("1 GiB")));
    // A 16k-GPU cluster: the facility in MW, TCO in M USD, charts scaled the same way.
    CHECK(dashboard.headline(QStringLiteral("Facility power")).endsWith(QStringLiteral(" MW")));
    CHECK(dashboard.headline(QStringLiteral("TCO")).contains(QStringLiteral(" M USD")));
    CHECK(dashboard.chartViews()[0]->chart()->title().contains(QStringLiteral("MW")));
    const auto costAxis = dashboard.chartViews()[3]->chart()->axes(Qt::Horizontal);
    REQUIRE(costAxis.size() == 1);
    CHECK(costAxis[0]->titleText().startsWith(QStringLiteral("M USD")));
    for (QChartView* view : dashboard.chartViews())
        CHECK_FALSE(view->chart()->title().contains(QStringLiteral("e+")));
}

TEST_CASE("a metric card elides a long detail line and keeps it whole in the tooltip",
          "[ui][dashboard][card]")
{
    ui::MetricCard card(QStringLiteral("TCO"));
    const QString detail = QStringLiteral("Cost per GPU-hour: 1.538 USD/GPU-h, capex amortized "
                                          "over four years");
    card.setValue(QStringLiteral("3.45 M USD/year"), detail);
    card.resize(140, 80);
    card.show();
    QCoreApplication::processEvents();
    CHECK(card.detailShown().endsWith(QChar(0x2026)));
    CHECK(card.detailShown().size() < detail.size());
    CHECK(card.toolTip() == detail);
    card.resize(900, 80);
    QCoreApplication::processEvents();
    CHECK(card.detailShown() == detail);
}

TEST_CASE("the training time card shows the time with failures and the failure-free time",
          "[ui][dashboard][card]")
{
    const auto outcome = evaluateExample("multiplane-16k-h100.json");
    REQUIRE(outcome->evaluation);
    const solvers::Metric* effective = outcome->metric({"reliability.effective_training_days"});
    const solvers::Metric* failureFree =
        outcome->metric({"reliability.failure_free_training_days"});
    REQUIRE(effective);
    REQUIRE(failureFree);
    // Failures cost time: the card's figure is the longer one, the detail names the other.
    CHECK(effective->value > failureFree->value);
    ui::Dashboard dashboard;
    dashboard.setOutcome(outcome);
    const ui::MetricCard* card = dashboard.card(QStringLiteral("Training time"));
    REQUIRE(card);
    CHECK(card->value() == ui::formatValue(effective->value, "days"));
    CHECK(card->detail().startsWith(QStringLiteral("Training time, failure-free: ")));
    CHECK(card->detail().endsWith(ui::formatValue(failureFree->value, "days")));
}

TEST_CASE("the dashboard paints the site year: PUE and temperature by day and hour, water and "
          "carbon by month",
          "[ui][dashboard][siteyear]")
{
    const auto outcome = evaluateExample("legacy-air-h100-dallas.json");
    REQUIRE(outcome->evaluation);
    REQUIRE(outcome->hourly);
    ui::Dashboard dashboard;
    dashboard.resize(1200, 1100);
    dashboard.setOutcome(outcome);
    ui::SiteYearView* view = dashboard.siteYearView();
    REQUIRE(view);
    REQUIRE(view->hasYear());
    // One pixel per hour: 365 days across, 24 hours down.
    CHECK(view->pueMap().width() == 365);
    CHECK(view->pueMap().height() == 24);
    // Dallas: the summer afternoons are the hottest hours, so their PUE pixel differs from a
    // January night's (the map is not one colour).
    CHECK(view->pueMap().pixel(200, 15) != view->pueMap().pixel(10, 4));
    dashboard.show();
    const QImage shot = view->grab().toImage();
    CHECK(shot.width() == view->width());
    CHECK(shot.height() >= 180);
    // Painted: more than one colour in the grab.
    CHECK(shot.pixel(shot.width() / 6, shot.height() / 2) != shot.pixel(2, 2));
    if (const char* dir = std::getenv("DCT_SCREENSHOT_DIR"))
        shot.save(QString::fromUtf8(dir) + QStringLiteral("/siteyear.png"));

    // Without an evaluation the pictures clear.
    dashboard.setOutcome(nullptr);
    CHECK_FALSE(view->hasYear());
}

TEST_CASE("the all-reduce chart draws NVLS and the NVLS tree where the NVSwitch reduces",
          "[ui][dashboard]")
{
    // Two or more NVLink domains (the GB200 NVL72 example's sixteen racks): the NVLS tree, what
    // the engine runs at large sizes there, is drawn beside ring, tree and hierarchical.
    const auto outcome = evaluateExample("gb200-nvl72-liquid.json");
    REQUIRE(outcome->evaluation);
    ui::Dashboard dashboard;
    dashboard.setOutcome(outcome);
    QChart* chart = dashboard.chartViews()[2]->chart();
    QStringList names;
    for (QAbstractSeries* series : chart->series())
        names << series->name();
    INFO(names.join(QStringLiteral(", ")).toStdString());
    CHECK(names.contains(QStringLiteral("ring")));
    CHECK(names.contains(QStringLiteral("nvls_tree")));
    // NVLS alone spans one domain only; names are not repeated.
    CHECK_FALSE(names.contains(QStringLiteral("nvls")));
    CHECK(names.removeDuplicates() == 0);
    // Every curve the outcome carries is an available algorithm with points.
    for (const auto& curve : outcome->allReduceCurves)
        CHECK(curve.points.size() > 1);
}
