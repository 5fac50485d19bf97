// The dashboard reads the solvers' typed results: the cooling options, the switch ports and the
// breakdowns; and a new evaluation replaces the charts' axes without leaking the old ones.
#include "dct/ui/catalogprovider.h"
#include "dct/ui/dashboard.h"
#include "dct/ui/evaluationoutcome.h"
#include "dct/ui/format.h"
#include "dct/ui/metriccard.h"
#include "uitestsupport.h"

#include <QBarCategoryAxis>
#include <QBarSet>
#include <QChart>
#include <QChartView>
#include <QFile>
#include <QPointer>
#include <QStackedBarSeries>
#include <catch2/catch.hpp>

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

    // One bar per cooling option, the scenario's own system in the "this scenario" set.
    QChart* cooling = dashboard.chartViews()[1]->chart();
    const auto horizontal = cooling->axes(Qt::Horizontal);
    REQUIRE(horizontal.size() == 1);
    auto* categories = qobject_cast<QBarCategoryAxis*>(horizontal.front());
    REQUIRE(categories);
    REQUIRE(cooling->series().size() == 1);
    auto* series = qobject_cast<QStackedBarSeries*>(cooling->series().front());
    REQUIRE(series);
    REQUIRE(series->count() == 2);
    REQUIRE(categories->count() == static_cast<int>(e.coolingOptions.size()));
    int own = 0;
    for (int i = 0; i < categories->count(); ++i) {
        const auto& option = e.coolingOptions[static_cast<std::size_t>(i)];
        CHECK(categories->at(i) == ui::qstr(option.systemId));
        const bool selected = option.systemId == e.cooling.systemId;
        own += selected ? 1 : 0;
        CHECK(series->barSets()[0]->at(i) == Approx(selected ? option.pue : 0.0));
        CHECK(series->barSets()[1]->at(i) == Approx(selected ? 0.0 : option.pue));
    }
    CHECK(own == 1);

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
