// The item models of the desktop program, each checked by QAbstractItemModelTester.
#include "dct/ui/comparemodel.h"
#include "dct/ui/diagnosticsmodel.h"
#include "dct/ui/folderscenariosource.h"
#include "dct/ui/metricsmodel.h"
#include "dct/ui/scenariolibrarymodel.h"
#include "uitestsupport.h"

#include <QAbstractItemModelTester>
#include <catch2/catch.hpp>

using namespace dct;
using dct::ui::CompareModel;

namespace {

std::shared_ptr<const ui::EvaluationOutcome> outcomeOf(std::vector<solvers::Metric> metrics)
{
    auto outcome = std::make_shared<ui::EvaluationOutcome>();
    outcome->evaluation.emplace();
    outcome->evaluation->metrics = std::move(metrics);
    return outcome;
}

} // namespace

TEST_CASE("metrics model lists every figure with its unit", "[ui][models]")
{
    ui::MetricsModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
    model.setMetrics({{"compute.gpus", "GPUs", 256, "", {}, {}},
                      {"compute.training_days", "Training time", 12.5, "days", {}, {}}});
    REQUIRE(model.rowCount() == 2);
    CHECK(model.index(1, ui::MetricsModel::UnitColumn).data().toString() == "days");
    CHECK(model.index(0, ui::MetricsModel::ValueColumn).data().toString() == "256");
    CHECK(model.index(1, 0).data(ui::MetricsModel::ValueRole).toDouble() == Approx(12.5));
    model.setMetrics({});
    CHECK(model.rowCount() == 0);
}

TEST_CASE("diagnostics model puts errors first and keeps the JSON pointer", "[ui][models]")
{
    ui::DiagnosticsModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
    Diagnostics d;
    d.warning("/facility/rack_power_limit_kw", "racks are over the cooling capacity");
    d.error("/compute/node_count", "invalid value 0", "an integer >= 1");
    model.setDiagnostics(d);
    REQUIRE(model.rowCount() == 2);
    CHECK(model.index(0, 0).data().toString() == "error");
    CHECK(model.index(0, 0).data(ui::DiagnosticsModel::PathRole).toString() ==
          "/compute/node_count");
    CHECK(model.index(0, ui::DiagnosticsModel::HintColumn).data().toString() == "an integer >= 1");
}

TEST_CASE("scenario library lists open scenarios and the examples folder", "[ui][models]")
{
    ui::ScenarioLibraryModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
    model.addSource(std::make_shared<ui::FolderScenarioSource>(
        "Examples", QStringLiteral(DCT_TEST_DATA_DIR "/examples")));
    ui::ScenarioDocument document(nlohmann::json{{"schema_version", 2}, {"name", "Mine"}});
    model.setOpenDocuments({&document});
    REQUIRE(model.rowCount() == 2);
    const QModelIndex open = model.index(0, 0);
    const QModelIndex examples = model.index(1, 0);
    CHECK(examples.data().toString() == "Examples");
    REQUIRE(model.rowCount(open) == 1);
    CHECK(model.index(0, 0, open).data().toString().startsWith("Mine"));
    CHECK(model.rowCount(examples) >= 4);
    const QModelIndex first = model.index(0, 0, examples);
    CHECK(model.parent(first) == examples);
    CHECK(first.data(ui::ScenarioLibraryModel::EntryIdRole).toString().endsWith(".json"));
    model.setOpenDocuments({});
    CHECK(model.rowCount(model.index(0, 0)) == 0);
}

TEST_CASE("compare model shows deltas and marks the better value", "[ui][models][compare]")
{
    CompareModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
    const auto a = outcomeOf({{"cost.tco_usd", "TCO", 100e6, "USD", {}, {solvers::Better::Lower}},
                              {"compute.gpus", "GPUs", 256, "", {}, {}},
                              {"compute.tokens_per_second",
                               "Throughput",
                               1e6,
                               "tokens/s",
                               {},
                               {solvers::Better::Higher}}});
    const auto b = outcomeOf({{"cost.tco_usd", "TCO", 80e6, "USD", {}, {solvers::Better::Lower}},
                              {"compute.gpus", "GPUs", 512, "", {}, {}},
                              {"compute.tokens_per_second",
                               "Throughput",
                               2e6,
                               "tokens/s",
                               {},
                               {solvers::Better::Higher}}});
    model.setScenarios({"A", "B"}, {a, b});
    REQUIRE(model.rowCount() == 3);
    REQUIRE(model.columnCount() == 5);
    const int tco = model.rowOf("cost.tco_usd");
    const int throughput = model.rowOf("compute.tokens_per_second");
    const int gpus = model.rowOf("compute.gpus");
    // Lower cost is better: B wins; higher throughput is better: B wins; GPUs: no direction.
    CHECK(model.index(tco, CompareModel::valueColumn(1)).data(CompareModel::BestRole).toBool());
    CHECK_FALSE(
        model.index(tco, CompareModel::valueColumn(0)).data(CompareModel::BestRole).toBool());
    CHECK(model.index(throughput, CompareModel::valueColumn(1))
              .data(CompareModel::BestRole)
              .toBool());
    CHECK_FALSE(
        model.index(gpus, CompareModel::valueColumn(1)).data(CompareModel::BestRole).toBool());
    CHECK(model.index(tco, CompareModel::deltaColumn(1)).data(CompareModel::ValueRole).toDouble() ==
          Approx(-20e6));
    CHECK(model.index(tco, CompareModel::deltaColumn(1)).data().toString().contains("-20"));
    // The header names the scenario and its verdict.
    CHECK(model.headerData(CompareModel::valueColumn(1), Qt::Horizontal)
              .toString()
              .startsWith("B: B\n"));
    CHECK(model.headerData(CompareModel::deltaColumn(1), Qt::Horizontal).toString() ==
          QStringLiteral("\u0394 B vs A"));

    // A figure only one scenario has is "n/a" in the other.
    const auto c = outcomeOf({{"power.pue", "PUE", 1.2, "", {}, {solvers::Better::Lower}}});
    model.setScenarios({"A", "B", "C"}, {a, b, c});
    CHECK(model.columnCount() == 7);
    const int pue = model.rowOf("power.pue");
    REQUIRE(pue >= 0);
    CHECK(model.index(pue, CompareModel::valueColumn(0)).data().toString() == "n/a");
}

TEST_CASE("compare ignores differences below the display precision", "[ui][models][compare]")
{
    CompareModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
    const auto a = outcomeOf(
        {{"compute.training_days", "Training time", 45.12, "days", {}, {solvers::Better::Lower}},
         {"cost.capex_usd", "Capex", 12.3e6, "USD", {}, {solvers::Better::Lower}}});
    const auto b =
        outcomeOf({{"compute.training_days",
                    "Training time",
                    45.12 + 3.882e-06,
                    "days",
                    {},
                    {solvers::Better::Lower}},
                   {"cost.capex_usd", "Capex", 12.9e6, "USD", {}, {solvers::Better::Lower}}});
    model.setScenarios({"A", "B"}, {a, b});
    const int days = model.rowOf("compute.training_days");
    REQUIRE(days >= 0);
    // "=", no colour, and no winner marked: the two read 45.12 days.
    const QModelIndex delta = model.index(days, CompareModel::deltaColumn(1));
    CHECK(delta.data().toString() == QStringLiteral("="));
    CHECK_FALSE(delta.data(Qt::ForegroundRole).isValid());
    CHECK_FALSE(
        model.index(days, CompareModel::valueColumn(0)).data(CompareModel::BestRole).toBool());
    CHECK(model.index(model.rowOf("cost.capex_usd"), CompareModel::deltaColumn(1))
              .data(Qt::ForegroundRole)
              .isValid());
    // The differences-only filter keeps capex alone.
    model.setDifferencesOnly(true);
    CHECK(model.rowCount() == 1);
    CHECK(model.rowOf("compute.training_days") < 0);
    CHECK(model.rowOf("cost.capex_usd") == 0);
}

TEST_CASE("compare directions come from each metric's declared traits", "[ui][compare]")
{
    CHECK(CompareModel::direction(solvers::Better::Lower) < 0);
    CHECK(CompareModel::direction(solvers::Better::Higher) > 0);
    CHECK(CompareModel::direction(solvers::Better::Neither) == 0);

    // A metric named like a power figure but declared neither (nodes per rack) marks no winner:
    // a smaller cluster is not a better one.
    CompareModel model;
    const auto a = outcomeOf({{"power.nodes_per_rack", "Nodes per rack", 4, "", {}, {}}});
    const auto b = outcomeOf({{"power.nodes_per_rack", "Nodes per rack", 2, "", {}, {}}});
    model.setScenarios({"A", "B"}, {a, b});
    const int row = model.rowOf("power.nodes_per_rack");
    REQUIRE(row >= 0);
    CHECK_FALSE(
        model.index(row, CompareModel::valueColumn(0)).data(CompareModel::BestRole).toBool());
    CHECK_FALSE(
        model.index(row, CompareModel::valueColumn(1)).data(CompareModel::BestRole).toBool());
}
