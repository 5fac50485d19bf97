// "Find best layout": the search runs off the UI thread with progress, can be cancelled, lists
// the fastest layouts, and applies the chosen one as one undoable edit. The dashboard's step
// breakdown chart shows where a step's time goes.
#include "dct/solvers/stepbreakdown.h"
#include "dct/ui/catalogprovider.h"
#include "dct/ui/dashboard.h"
#include "dct/ui/layoutplandialog.h"
#include "dct/ui/scenariodocument.h"
#include "dct/ui/stepbreakdownchart.h"
#include "uitestsupport.h"

#include <QChart>
#include <QElapsedTimer>
#include <QFile>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QSignalSpy>
#include <QTableWidget>
#include <QTimer>
#include <QUndoStack>
#include <catch2/catch.hpp>
#include <future>

using namespace dct;
using test::examplePath;

namespace {

nlohmann::json exampleJson(const char* name)
{
    QFile file(examplePath(name));
    REQUIRE(file.open(QIODevice::ReadOnly));
    return nlohmann::json::parse(file.readAll().toStdString());
}

/** Runs the event loop until \a finished (the dialog's finished() signal, spied on before the
    search started) was emitted: the future ends before its watcher's queued signal lands, so
    isRunning() alone is not enough. False after \a ms. */
bool waitForSearch(QSignalSpy& finished, int ms = 60000)
{
    return finished.count() > 0 || finished.wait(ms);
}

} // namespace

TEST_CASE("Find best layout lists the fastest layouts and applies one, undoably", "[ui][plan]")
{
    ui::ScenarioDocument document(exampleJson("multiplane-16k-h100.json"),
                                  examplePath("multiplane-16k-h100.json"));
    document.evaluateNow();
    const nlohmann::json before = document.json();
    ui::LayoutPlanDialog dialog(&document);
    study::LayoutPlanOptions options;
    options.top = 6;
    dialog.show();
    QSignalSpy finished(&dialog, &ui::LayoutPlanDialog::finished);
    dialog.start(options);
    CHECK(dialog.isRunning());
    CHECK(dialog.cancelButton()->isEnabled());
    REQUIRE(waitForSearch(finished));
    CHECK_FALSE(dialog.isRunning());
    const study::LayoutPlan& plan = dialog.plan();
    REQUIRE(plan.best.size() == 6);
    CHECK_FALSE(plan.stopped);
    CHECK(dialog.progressBar()->value() == dialog.progressBar()->maximum());
    CHECK_FALSE(dialog.cancelButton()->isEnabled());
    // Six layouts and the scenario's own.
    REQUIRE(dialog.table()->rowCount() == 7);
    CHECK(dialog.table()->item(6, 0)->text() == QStringLiteral("now"));
    CHECK(dialog.table()->item(0, 1)->text().toInt() == plan.best[0].layout.tensorParallel);
    CHECK(dialog.applyButton()->isEnabled());
    CHECK(dialog.summaryLabel()->text().contains(QStringLiteral("timed")));

    // The screenshot of the dialog as a planner sees it.
    QTimer::singleShot(300, [] {});
    QCoreApplication::processEvents(QEventLoop::AllEvents, 300);
    dialog.grab().save(QStringLiteral(DCT_TEST_BINARY_DIR "/layoutplandialog.png"));

    // Apply a layout that differs from the scenario's: one undo step sets every field.
    int row = 0;
    while (row < static_cast<int>(plan.best.size()) &&
           plan.best[static_cast<std::size_t>(row)].layout == plan.current.layout)
        ++row;
    REQUIRE(row < static_cast<int>(plan.best.size()));
    const study::LayoutChoice chosen = plan.best[static_cast<std::size_t>(row)].layout;
    const int steps = document.undoStack()->count();
    REQUIRE(dialog.applyRow(row));
    CHECK(document.undoStack()->count() == steps + 1);
    CHECK(document.value("/workload/tensor_parallel") == chosen.tensorParallel);
    CHECK(document.value("/workload/pipeline_parallel") == chosen.pipelineParallel);
    CHECK(document.value("/workload/micro_batch_size") == chosen.microBatchSize);
    CHECK(document.value("/workload/recompute") ==
          (chosen.recompute == model::Recompute::Full        ? "full"
           : chosen.recompute == model::Recompute::Selective ? "selective"
                                                             : "none"));
    // Evaluated as a whole, the applied scenario steps as the search said.
    document.evaluateNow();
    const solvers::Metric* step = document.outcome()->metric({"compute.step_seconds"});
    REQUIRE(step);
    CHECK(step->value ==
          Approx(plan.best[static_cast<std::size_t>(row)].stepSeconds()).epsilon(1e-9));
    document.undoStack()->undo();
    CHECK(document.json() == before);
    CHECK_FALSE(dialog.applyRow(99));
}

TEST_CASE("Find best layout shows the expert all-to-all overlap and applies it on or off",
          "[ui][plan][moe]")
{
    // The bundled Qwen3-30B-A3B example with moe_a2a_overlap on: the fastest layouts hold it
    // (EP "8 ovl"); a layout of two stages without virtual stages cannot (Megatron-Core refuses
    // it there), and applying one sets moe_a2a_overlap false in the same undo step, so the
    // scenario stays valid.
    nlohmann::json scenario = exampleJson("moe-qwen3-h100.json");
    scenario["workload"]["moe_a2a_overlap"] = true;
    ui::ScenarioDocument document(scenario);
    document.evaluateNow();
    ui::LayoutPlanDialog dialog(&document);
    study::LayoutPlanOptions options;
    options.top = 5;
    QSignalSpy finished(&dialog, &ui::LayoutPlanDialog::finished);
    dialog.start(options);
    REQUIRE(waitForSearch(finished));
    REQUIRE_FALSE(dialog.plan().best.empty());
    constexpr int expertColumn = 5;
    CHECK(dialog.table()->horizontalHeaderItem(expertColumn)->text() == QStringLiteral("EP"));
    CHECK(dialog.table()->horizontalHeaderItem(expertColumn)->toolTip().contains("ovl"));
    CHECK(dialog.table()->horizontalHeaderItem(expertColumn + 1)->toolTip().contains("Experts'"));
    CHECK(dialog.table()->horizontalHeaderItem(expertColumn + 2)->toolTip().contains("Micro"));
    bool shown = false;
    for (int row = 0; row < static_cast<int>(dialog.plan().best.size()); ++row) {
        const auto& layout = dialog.plan().best[static_cast<std::size_t>(row)].layout;
        const QString cell = dialog.table()->item(row, expertColumn)->text();
        CHECK(cell.endsWith(QStringLiteral(" ovl")) == layout.a2aOverlap);
        shown = shown || layout.a2aOverlap;
    }
    CHECK(shown);

    ui::LayoutPlanDialog pipelined(&document);
    options.space.pipelineParallel = {2};
    options.space.virtualStages = {1};
    QSignalSpy done(&pipelined, &ui::LayoutPlanDialog::finished);
    pipelined.start(options);
    REQUIRE(waitForSearch(done));
    REQUIRE_FALSE(pipelined.plan().best.empty());
    CHECK_FALSE(pipelined.plan().best.front().layout.a2aOverlap);
    const int steps = document.undoStack()->count();
    REQUIRE(pipelined.applyRow(0));
    CHECK(document.undoStack()->count() == steps + 1);
    CHECK(document.value("/workload/pipeline_parallel") == 2);
    CHECK(document.value("/workload/moe_a2a_overlap") == false);
    document.evaluateNow();
    const solvers::Metric* step = document.outcome()->metric({"compute.step_seconds"});
    REQUIRE(step);
    CHECK(step->value == Approx(pipelined.plan().best.front().stepSeconds()).epsilon(1e-9));
    document.undoStack()->undo();
    CHECK(document.value("/workload/moe_a2a_overlap") == true);
}

TEST_CASE("Find best layout can be cancelled", "[ui][plan]")
{
    ui::ScenarioDocument document(exampleJson("multiplane-16k-h100.json"));
    document.evaluateNow();
    ui::LayoutPlanDialog dialog(&document);
    QSignalSpy finished(&dialog, &ui::LayoutPlanDialog::finished);
    // The search is held at its first stop check until Cancel was pressed: without that a
    // loaded machine can run the worker through layouts before cancel() is reached, and a
    // search cancelled with layouts found rightly offers to apply the best so far.
    std::promise<void> pressed;
    std::shared_future<void> cancelled = pressed.get_future().share();
    study::LayoutPlanOptions options;
    options.stop = [cancelled] {
        cancelled.wait();
        return false;
    };
    dialog.start(options);
    REQUIRE(dialog.isRunning());
    dialog.cancel();
    CHECK_FALSE(dialog.cancelButton()->isEnabled());
    pressed.set_value();
    REQUIRE(waitForSearch(finished));
    CHECK_FALSE(dialog.isRunning());
    CHECK(dialog.plan().best.empty());
    CHECK(dialog.plan().stopped);
    CHECK_FALSE(dialog.applyButton()->isEnabled());
    CHECK(dialog.summaryLabel()->text().contains(QStringLiteral("cancelled")));
}

TEST_CASE("the dashboard shows where a training step's time goes", "[ui][dashboard][step]")
{
    const auto outcome = std::make_shared<const ui::EvaluationOutcome>(ui::evaluateScenarioJson(
        exampleJson("multiplane-16k-h100.json"), ui::CatalogProvider::catalog(), "16k"));
    REQUIRE(outcome->evaluation);
    ui::Dashboard dashboard;
    dashboard.resize(1400, 1300);
    dashboard.setOutcome(outcome);
    const auto& parts = dashboard.stepChart()->parts();
    REQUIRE(parts.size() >= 12);
    std::map<QString, double> byKey(parts.begin(), parts.end());
    const solvers::ComputeResult& c = outcome->evaluation->compute;
    CHECK(byKey[QStringLiteral("bubble")] == Approx(c.step.bubbleSeconds));
    CHECK(byKey[QStringLiteral("tensor_parallel")] == Approx(c.step.tensorParallelSeconds));
    CHECK(byKey[QStringLiteral("stragglers")] == Approx(c.stragglerSecondsPerStep));
    CHECK(byKey[QStringLiteral("failures")] > 0.0);
    CHECK(byKey[QStringLiteral("checkpoints")] > 0.0);
    // The layout's parts and the stragglers add up to the step eval prints.
    double step = 0.0;
    for (const auto& [key, seconds] : parts)
        if (key != QStringLiteral("checkpoints") && key != QStringLiteral("failures"))
            step += seconds;
    CHECK(step == Approx(c.stepSeconds).epsilon(1e-9));
    CHECK(dashboard.stepChart()->chart()->series().size() == 1);
    dashboard.show();
    QCoreApplication::processEvents(QEventLoop::AllEvents, 300);
    dashboard.grab().save(QStringLiteral(DCT_TEST_BINARY_DIR "/dashboard-step.png"));

    // No evaluation: an empty chart that says why.
    dashboard.setOutcome(nullptr);
    CHECK(dashboard.stepChart()->parts().empty());
    CHECK(dashboard.stepChart()->chart()->title().contains(QStringLiteral("n/a")));
}
