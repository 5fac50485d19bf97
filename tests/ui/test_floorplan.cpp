// The floor plan: racks of the hall drawn with their contents, edits that recompute, frame
// times of a hall of several hundred racks.
#include "dct/ui/floorplanview.h"
#include "dct/ui/mainwindow.h"
#include "uitestsupport.h"

#include <QElapsedTimer>
#include <QGraphicsView>
#include <QScrollBar>
#include <QUndoStack>
#include <catch2/catch.hpp>
#include <cstdio>

using namespace dct;
using test::examplePath;
using test::waitForEvaluation;

TEST_CASE("the floor plan draws every rack with its contents and edits recompute it",
          "[ui][floorplan]")
{
    ui::MainWindow window;
    window.setQuiet(true);
    ui::ScenarioDocument* document = window.openFile(examplePath("dgx-superpod-4su.json"));
    REQUIRE(document);
    REQUIRE(waitForEvaluation(*document));
    ui::FloorPlanView* plan = window.floorPlanView();
    REQUIRE(plan->hall().valid);
    CHECK(plan->rackItemCount() == static_cast<int>(plan->hall().racks.size()));
    CHECK(plan->rackToolTip(QStringLiteral("R01-01")).contains(QStringLiteral("4 nodes")));
    const int rows = plan->hall().computeRows;

    // An edit from the plan goes through the undo stack and lays the hall out again.
    emit plan->editRequested("/hall/racks_per_row", 4);
    REQUIRE(waitForEvaluation(*document));
    CHECK(plan->hall().computeRows > rows);
    document->undoStack()->undo();
    REQUIRE(waitForEvaluation(*document));
    CHECK(plan->hall().computeRows == rows);
}

TEST_CASE("the floor plan of 400+ racks pans and zooms in a few milliseconds a frame",
          "[ui][floorplan][speed]")
{
    ui::MainWindow window;
    window.setQuiet(true);
    ui::ScenarioDocument* document = window.openFile(examplePath("multiplane-16k-h100.json"));
    REQUIRE(document);
    REQUIRE(waitForEvaluation(*document));
    ui::FloorPlanView* plan = window.floorPlanView();
    window.resize(1400, 900);
    window.showView(ui::MainWindow::FloorPlanTab);
    window.show();
    QCoreApplication::processEvents();
    REQUIRE(plan->rackItemCount() >= 400);
    QGraphicsView* view = plan->view();
    view->fitInView(view->sceneRect(), Qt::KeepAspectRatio);
    constexpr int frames = 40;
    QElapsedTimer timer;
    timer.start();
    for (int i = 0; i < frames; ++i) {
        if (i % 2 == 0)
            view->scale(1.1, 1.1);
        view->horizontalScrollBar()->setValue(view->horizontalScrollBar()->value() + 15);
        view->viewport()->repaint();
    }
    const double msPerFrame = static_cast<double>(timer.elapsed()) / frames;
    std::printf("floor plan: %d racks, %.2f ms a frame (zoom and pan, offscreen)\n",
                plan->rackItemCount(), msPerFrame);
    // A loose bound: smooth is under 16 ms; this machine's load varies.
    CHECK(msPerFrame < 100.0);
}
