// The floor plan: racks of the hall drawn with their contents, edits that recompute, frame
// times of a hall of several hundred racks.
#include "dct/ui/floorplanview.h"
#include "dct/ui/mainwindow.h"
#include "uitestsupport.h"

#include <QCheckBox>
#include <QElapsedTimer>
#include <QGraphicsView>
#include <QScrollBar>
#include <QUndoStack>
#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdio>
#include <vector>

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

TEST_CASE("the floor plan's rows and placement edits lay the hall out again", "[ui][floorplan]")
{
    ui::MainWindow window;
    window.setQuiet(true);
    ui::ScenarioDocument* document = window.openFile(examplePath("dgx-superpod-4su.json"));
    REQUIRE(document);
    REQUIRE(waitForEvaluation(*document));
    ui::FloorPlanView* plan = window.floorPlanView();
    REQUIRE(plan->hall().valid);
    const int rows = plan->hall().computeRows;
    const int perRow = plan->hall().racksPerRow;

    // Twice the rows: the racks spread over them, fewer a row.
    emit plan->editRequested("/hall/rows", rows * 2);
    REQUIRE(waitForEvaluation(*document));
    CHECK(plan->hall().computeRows == rows * 2);
    CHECK(plan->hall().racksPerRow == perRow);
    document->undoStack()->undo();
    REQUIRE(waitForEvaluation(*document));
    CHECK(plan->hall().computeRows == rows);

    // Network racks in the middle of the rows: a compute rack stands past them.
    auto networkPositions = [&] {
        std::vector<int> positions;
        for (const auto& r : plan->hall().racks)
            if (r.kind == solvers::HallRackKind::Network)
                positions.push_back(r.position);
        return positions;
    };
    const auto endOfRow = networkPositions();
    REQUIRE_FALSE(endOfRow.empty());
    emit plan->editRequested("/hall/network_placement", "middle_of_row");
    REQUIRE(waitForEvaluation(*document));
    const auto middle = networkPositions();
    REQUIRE_FALSE(middle.empty());
    CHECK(*std::min_element(middle.begin(), middle.end()) <
          *std::min_element(endOfRow.begin(), endOfRow.end()));
    int pastNetwork = 0;
    for (const auto& r : plan->hall().racks)
        if (r.kind == solvers::HallRackKind::Compute && r.position > middle.front())
            ++pastNetwork;
    CHECK(pastNetwork > 0);
}

TEST_CASE("the floor plan's legend has a kW scale to the cooling limit and the runs per tier",
          "[ui][floorplan]")
{
    ui::MainWindow window;
    window.setQuiet(true);
    ui::ScenarioDocument* document = window.openFile(examplePath("multiplane-16k-h100.json"));
    REQUIRE(document);
    REQUIRE(waitForEvaluation(*document));
    ui::FloorPlanView* plan = window.floorPlanView();
    REQUIRE(plan->hall().valid);
    double coolingKw = 0.0;
    for (const auto& r : plan->hall().racks)
        if (r.kind == solvers::HallRackKind::Compute)
            coolingKw = std::max(coolingKw, r.coolingLimitKw);
    REQUIRE(coolingKw > 0.0);
    const QString legend = plan->legendText();
    // The scale ends at the racks' cooling limit: a compute rack under it is not the darkest.
    CHECK(legend.contains(QStringLiteral("%1 kW").arg(coolingKw, 0, 'f', 0)));
    CHECK(legend.contains(QStringLiteral("0 kW")));
    CHECK(legend.contains(QStringLiteral("network rack")));
    // A 2-tier fabric: no spine-core toggle; leaf-spine drawn, node-leaf not until asked.
    using solvers::HallLinkClass;
    CHECK(plan->runToggle(HallLinkClass::SpineCore)->isHidden());
    CHECK_FALSE(plan->runToggle(HallLinkClass::LeafSpine)->isHidden());
    CHECK(plan->runsDrawn(HallLinkClass::LeafSpine));
    CHECK_FALSE(plan->runsDrawn(HallLinkClass::NodeLeaf));
    CHECK(legend.contains(QStringLiteral("leaf-spine runs")));
    CHECK_FALSE(legend.contains(QStringLiteral("node-leaf runs")));
    CHECK_FALSE(legend.contains(QStringLiteral("spine-core runs")));
    plan->runToggle(HallLinkClass::NodeLeaf)->setChecked(true);
    plan->runToggle(HallLinkClass::LeafSpine)->setChecked(false);
    CHECK(plan->runsDrawn(HallLinkClass::NodeLeaf));
    CHECK_FALSE(plan->runsDrawn(HallLinkClass::LeafSpine));
    CHECK(plan->legendText().contains(QStringLiteral("node-leaf runs")));
    CHECK_FALSE(plan->legendText().contains(QStringLiteral("leaf-spine runs")));
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

TEST_CASE("the floor plan shows the cooling units and the MDA room with their hover text",
          "[ui][floorplan]")
{
    ui::MainWindow window;
    window.setQuiet(true);
    ui::ScenarioDocument* document = window.openFile(examplePath("multiplane-16k-h100.json"));
    REQUIRE(document);
    REQUIRE(waitForEvaluation(*document));
    ui::FloorPlanView* plan = window.floorPlanView();
    REQUIRE(plan->hall().valid);
    REQUIRE(plan->hall().cdus > 0);
    const QString tip = plan->rackToolTip(QStringLiteral("CDU01"));
    CHECK(tip.contains(QStringLiteral("coolant distribution unit (CDU)")));
    CHECK(tip.contains(QStringLiteral("1350 kW")));
    CHECK(tip.contains(QStringLiteral("serves rows R01-")));
    CHECK(tip.contains(QStringLiteral("carries")));
    CHECK(plan->rackToolTip(QStringLiteral("MDA room"))
              .contains(QStringLiteral("MDA room (center)")));
    const QString legend = plan->legendText();
    CHECK(legend.contains(QStringLiteral("CDU (1350 kW)")));
    CHECK(legend.contains(QStringLiteral("rear door (RDHx)")));
    CHECK(legend.contains(QStringLiteral("MDA room")));
    CHECK(legend.contains(QStringLiteral("cold aisle")));
    CHECK(legend.contains(QStringLiteral("hot aisle")));
    CHECK_FALSE(legend.contains(QStringLiteral("CRAH/CRAC")));

    // The MDA room's position is an edit of the scenario: the room moves to the front wall.
    const double depth = plan->hall().depthM;
    emit plan->editRequested("/hall/mda_position", std::string("front"));
    REQUIRE(waitForEvaluation(*document));
    CHECK(plan->hall().mdaRoom.position == "front");
    CHECK(plan->hall().mdaRoom.yM == 0.0);
    CHECK(plan->hall().depthM != Approx(depth)); // the middle block no longer holds it
    for (const auto& row : plan->hall().rows)
        if (!row.mda)
            CHECK(row.yM > plan->hall().mdaRoom.depthM);
    document->undoStack()->undo();
    REQUIRE(waitForEvaluation(*document));
    CHECK(plan->hall().mdaRoom.position == "center");

    // An air hall: room air units along the walls, in the legend and with their hover text.
    ui::ScenarioDocument* air = window.openFile(examplePath("legacy-air-h100-dallas.json"));
    REQUIRE(air);
    REQUIRE(waitForEvaluation(*air));
    REQUIRE(plan->hall().crahs > 0);
    CHECK(plan->rackToolTip(QStringLiteral("CRAH01"))
              .contains(QStringLiteral("room air unit (CRAH/CRAC), 29 kW")));
    CHECK(plan->legendText().contains(QStringLiteral("CRAH/CRAC (29 kW)")));
    CHECK(plan->summaryText().contains(QStringLiteral(" CRAH/CRAC unit")));

    // The seed's hall draws the CDU that carries its loop and the spare of N+1; without the
    // spare, one unit is counted in the singular.
    ui::ScenarioDocument* seed = window.openFile(examplePath("seed-h100-dallas-d2c.json"));
    REQUIRE(seed);
    REQUIRE(waitForEvaluation(*seed));
    REQUIRE(plan->hall().cdus == 2);
    CHECK(plan->summaryText().endsWith(QStringLiteral("; 2 CDUs")));
    seed->applyValue("/cooling/cdu_redundancy", nlohmann::json("N"));
    REQUIRE(waitForEvaluation(*seed));
    REQUIRE(plan->hall().cdus == 1);
    CHECK(plan->summaryText().endsWith(QStringLiteral("; 1 CDU")));
    // A row's name stands clear of the CDU at its end.
    for (const auto& unit : plan->hall().units) {
        if (unit.row < 0)
            continue;
        const QString row =
            QString::fromStdString(plan->hall().rows[static_cast<std::size_t>(unit.row)].name);
        const QRectF label = plan->itemSceneRect(QStringLiteral("label:") + row);
        const QRectF cdu = plan->itemSceneRect(QString::fromStdString(unit.name));
        REQUIRE_FALSE(label.isEmpty());
        REQUIRE_FALSE(cdu.isEmpty());
        CHECK_FALSE(label.intersects(cdu));
    }
}
