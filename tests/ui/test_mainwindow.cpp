// The main window as a planner uses it: open, edit, watch the dashboard, undo, compare, save.
#include "dct/ui/comparemodel.h"
#include "dct/ui/compareview.h"
#include "dct/ui/dashboard.h"
#include "dct/ui/diagnosticsmodel.h"
#include "dct/ui/mainwindow.h"
#include "dct/ui/metricsmodel.h"
#include "dct/ui/scenarioform.h"
#include "dct/ui/scenariolibrarymodel.h"
#include "dct/ui/screenshotwriter.h"
#include "dct/ui/startpage.h"
#include "dct/ui/topologyview.h"
#include "uitestsupport.h"

#include <QCheckBox>
#include <QCommandLinkButton>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QSettings>
#include <QTableView>
#include <QTemporaryDir>
#include <QToolBar>
#include <QUndoGroup>
#include <QUndoStack>
#include <catch2/catch.hpp>

using namespace dct;
using test::examplePath;
using test::waitForEvaluation;

TEST_CASE("editing a field updates the dashboard and undo restores it", "[ui][window]")
{
    ui::MainWindow window;
    window.setQuiet(true);
    ui::ScenarioDocument* document = window.openFile(examplePath("seed-h100-dallas-d2c.json"));
    REQUIRE(document);
    REQUIRE(waitForEvaluation(*document));
    INFO(window.lastError().toStdString());
    CHECK(window.dashboard()->headline("GPUs") == "256");
    CHECK(window.metricsModel()->rowCount() > 5);

    document->edit("/compute/node_count", 64);
    REQUIRE(waitForEvaluation(*document));
    CHECK(window.dashboard()->headline("GPUs") == "512");
    CHECK(document->isModified());

    window.undoGroup()->undo();
    REQUIRE(waitForEvaluation(*document));
    CHECK(window.dashboard()->headline("GPUs") == "256");
    CHECK_FALSE(document->isModified());
    window.undoGroup()->redo();
    REQUIRE(waitForEvaluation(*document));
    CHECK(window.dashboard()->headline("GPUs") == "512");
}

TEST_CASE("a stale evaluation is discarded when a newer edit follows", "[ui][window]")
{
    QFile file(examplePath("seed-h100-dallas-d2c.json"));
    REQUIRE(file.open(QIODevice::ReadOnly));
    ui::ScenarioDocument seed(nlohmann::json::parse(file.readAll().toStdString()));
    int landed = 0;
    QObject::connect(&seed, &ui::ScenarioDocument::evaluated, [&landed] { ++landed; });
    for (int nodes : {40, 48, 56, 64})
        seed.edit("/compute/node_count", nodes);
    REQUIRE(waitForEvaluation(seed));
    // Four evaluations ran; only the answer to the last edit may land (older ones are stale).
    CHECK(landed >= 1);
    const auto* gpus = seed.outcome()->metric({"compute.gpus"});
    REQUIRE(gpus);
    CHECK(gpus->value == Approx(512.0));
}

TEST_CASE("a bad file gives an error naming the file and the JSON path", "[ui][window]")
{
    QTemporaryDir dir;
    REQUIRE(dir.isValid());
    const QString path = dir.filePath("bad.json");
    QFile file(path);
    REQUIRE(file.open(QIODevice::WriteOnly));
    file.write(R"({"schema_version": 2, "name": "bad", "site": "dallas",
                  "compute": {"node": "hgx-h100", "node_count": -3},
                  "network": {"switch": "sn2700"}, "cooling": {"system": "d2c-rdhx"}})");
    file.close();

    ui::MainWindow window;
    window.setQuiet(true);
    CHECK(window.openFile(path) == nullptr);
    const QString error = window.lastError();
    CHECK(error.contains("bad.json"));
    CHECK(error.contains("/compute/node_count"));
    CHECK(error.contains("accepted"));
    CHECK(window.documents().isEmpty());

    const QString notJson = dir.filePath("notjson.json");
    QFile broken(notJson);
    REQUIRE(broken.open(QIODevice::WriteOnly));
    broken.write("{ not json");
    broken.close();
    CHECK(window.openFile(notJson) == nullptr);
    CHECK(window.lastError().contains("notjson.json"));
}

TEST_CASE("duplicate as what-if compares two scenarios with deltas", "[ui][window][compare]")
{
    ui::MainWindow window;
    window.setQuiet(true);
    ui::ScenarioDocument* base = window.openFile(examplePath("seed-h100-dallas-d2c.json"));
    REQUIRE(base);
    ui::ScenarioDocument* whatIf = window.duplicateAsWhatIf();
    REQUIRE(whatIf);
    CHECK(whatIf->title().endsWith("(what-if)"));
    CHECK(window.documents().size() == 2);
    whatIf->edit("/compute/node_count", 64);
    REQUIRE(waitForEvaluation(*base));
    REQUIRE(waitForEvaluation(*whatIf));

    ui::CompareModel* model = window.compareView()->model();
    REQUIRE(model->columnCount() == 5);
    const int gpus = model->rowOf("compute.gpus");
    REQUIRE(gpus >= 0);
    CHECK(model->index(gpus, ui::CompareModel::valueColumn(0)).data().toString() == "256");
    CHECK(model->index(gpus, ui::CompareModel::valueColumn(1)).data().toString() == "512");
    CHECK(model->index(gpus, ui::CompareModel::deltaColumn(1))
              .data(ui::CompareModel::ValueRole)
              .toDouble() == Approx(256.0));
    // Twice the GPUs train in less time: the what-if's training time is marked better.
    const int days = model->rowOf("compute.training_days");
    REQUIRE(days >= 0);
    CHECK(model->index(days, ui::CompareModel::valueColumn(1))
              .data(ui::CompareModel::BestRole)
              .toBool());
    // Each document has its own undo stack.
    CHECK(whatIf->undoStack()->count() == 1);
    CHECK(base->undoStack()->count() == 0);
}

TEST_CASE("a what-if copy is named by what changed and compare filters to the differences",
          "[ui][window][compare]")
{
    ui::MainWindow window;
    window.setQuiet(true);
    ui::ScenarioDocument* base = window.openFile(examplePath("seed-h100-dallas-d2c.json"));
    REQUIRE(base);
    ui::ScenarioDocument* whatIf = window.duplicateAsWhatIf();
    REQUIRE(whatIf);
    whatIf->edit("/compute/node_count", 64);
    CHECK(whatIf->title() == base->title() + " (what-if: Node count 64)");
    whatIf->undoStack()->undo();
    CHECK(whatIf->title() == base->title() + " (what-if)");
    whatIf->undoStack()->redo();
    REQUIRE(waitForEvaluation(*base));
    REQUIRE(waitForEvaluation(*whatIf));

    ui::CompareModel* model = window.compareView()->model();
    const int all = model->rowCount();
    REQUIRE(model->rowOf("compute.peak_tflops_per_gpu") >= 0);
    window.compareView()->differencesOnlyBox()->setChecked(true);
    CHECK(model->rowCount() < all);
    CHECK(model->rowOf("compute.peak_tflops_per_gpu") == -1); // the same GPU in both
    CHECK(model->rowOf("compute.gpus") >= 0);
    // Money by the one rule: the baseline's capex in M USD; an effective MFU in percent.
    const int capex = model->rowOf("cost.capex_usd");
    REQUIRE(capex >= 0);
    CHECK(model->index(capex, ui::CompareModel::valueColumn(0)).data().toString().endsWith(" M"));
    CHECK(model->index(capex, 1).data().toString() == "USD");
    const int mfu = model->rowOf("compute.effective_mfu");
    REQUIRE(mfu >= 0);
    CHECK(model->index(mfu, 1).data().toString() == "%");
    CHECK(model->index(mfu, ui::CompareModel::deltaColumn(1)).data().toString().endsWith(" pp"));
    window.compareView()->differencesOnlyBox()->setChecked(false);
    CHECK(model->rowCount() == all);

    // A scenario opened afterwards is ticked for comparison at once.
    ui::ScenarioDocument* third = window.openFile(examplePath("dgx-superpod-4su.json"));
    REQUIRE(third);
    CHECK(window.compareView()->comparedDocuments().size() == 3);
    CHECK(window.compareView()->comparedDocuments().contains(third));
}

TEST_CASE("an edit does not resize the toolbar: Undo keeps its width", "[ui][window][undo]")
{
    ui::MainWindow window;
    window.setQuiet(true);
    window.show();
    ui::ScenarioDocument* document = window.openFile(examplePath("seed-h100-dallas-d2c.json"));
    REQUIRE(document);
    QToolBar* tools = window.findChild<QToolBar*>();
    REQUIRE(tools);
    QCoreApplication::processEvents();
    const int before = tools->sizeHint().width();
    document->edit("/compute/node_count", 64);
    QCoreApplication::processEvents();
    CHECK(tools->sizeHint().width() == before);
    // What Undo undoes stays in its tooltip.
    QAction* undo = nullptr;
    for (QAction* a : tools->actions())
        if (a->iconText() == QStringLiteral("Undo"))
            undo = a;
    REQUIRE(undo);
    CHECK(undo->toolTip().contains(QStringLiteral("Node count")));
}

TEST_CASE("with no scenario open the window offers the examples, not n/a cards",
          "[ui][window][start]")
{
    ui::MainWindow window;
    window.setQuiet(true);
    window.show();
    CHECK(window.startPageShown());
    ui::StartPage* start = window.startPage();
    REQUIRE(start);
    REQUIRE(start->examples().size() >= 5);
    auto* seed =
        start->findChild<QCommandLinkButton*>(QStringLiteral("example_seed-h100-dallas-d2c.json"));
    REQUIRE(seed);
    CHECK(seed->text().startsWith(QStringLiteral("Seed case")));
    seed->click();
    REQUIRE(window.currentDocument());
    CHECK_FALSE(window.startPageShown());
    CHECK(window.closeDocument(window.currentDocument()));
    CHECK(window.startPageShown());
}

TEST_CASE("save writes the scenario atomically and reopens it", "[ui][window]")
{
    QTemporaryDir dir;
    REQUIRE(dir.isValid());
    ui::MainWindow window;
    window.setQuiet(true);
    ui::ScenarioDocument* document = window.openFile(examplePath("seed-h100-dallas-d2c.json"));
    REQUIRE(document);
    document->edit("/compute/node_count", 40);
    const QString path = dir.filePath("saved.json");
    REQUIRE(window.saveTo(path));
    CHECK_FALSE(document->isModified());
    CHECK(document->filePath() == path);
    CHECK(QDir(dir.path()).entryList(QDir::Files) == QStringList{"saved.json"});

    ui::MainWindow second;
    second.setQuiet(true);
    ui::ScenarioDocument* reopened = second.openFile(path);
    REQUIRE(reopened);
    CHECK(reopened->value("/compute/node_count") == 40);
    REQUIRE(waitForEvaluation(*document));
}

TEST_CASE("a diagnostics entry focuses the field it concerns", "[ui][window]")
{
    ui::MainWindow window;
    window.setQuiet(true);
    window.show();
    ui::ScenarioDocument* document = window.openFile(examplePath("seed-h100-dallas-d2c.json"));
    REQUIRE(document);
    // 256 GPUs cannot be split by a tensor-parallel size of 7.
    document->edit("/workload/tensor_parallel", 7);
    REQUIRE(waitForEvaluation(*document));
    ui::DiagnosticsModel* model = window.diagnosticsModel();
    int row = -1;
    for (int r = 0; r < model->rowCount(); ++r)
        if (model->index(r, 0)
                .data(ui::DiagnosticsModel::PathRole)
                .toString()
                .startsWith("/workload/"))
            row = r;
    REQUIRE(row >= 0);
    const QString path = model->index(row, 0).data(ui::DiagnosticsModel::PathRole).toString();
    QWidget* editor = window.form()->editor(path);
    REQUIRE(editor);
    CHECK(editor->property("dctSeverity").isValid());
    emit window.diagnosticsTable()->clicked(model->index(row, ui::DiagnosticsModel::MessageColumn));
    CHECK(editor->isVisible());
}

TEST_CASE("the diagnostics panel shows every message whole, wrapped over as many lines as it "
          "needs",
          "[ui][window][diagnostics]")
{
    ui::MainWindow window;
    window.setQuiet(true);
    window.resize(1600, 1000);
    window.show();
    ui::ScenarioDocument* document =
        window.openFile(examplePath("overpacked-air-h100-dallas.json"));
    REQUIRE(document);
    REQUIRE(waitForEvaluation(*document));
    QCoreApplication::processEvents();
    QTableView* table = window.diagnosticsTable();
    ui::DiagnosticsModel* model = window.diagnosticsModel();
    REQUIRE(model->rowCount() >= 3);
    CHECK(table->wordWrap());
    // At least four rows fit, and the longest message is not cut: its row is as tall as the
    // text wrapped to the column's width.
    CHECK(table->viewport()->height() >= 4 * (table->fontMetrics().height() + 4));
    for (int row = 0; row < model->rowCount(); ++row) {
        const QString message =
            model->index(row, ui::DiagnosticsModel::MessageColumn).data().toString();
        const int width = table->columnWidth(ui::DiagnosticsModel::MessageColumn) - 8;
        const QRect needed =
            table->fontMetrics().boundingRect(QRect(0, 0, width, 10000), Qt::TextWordWrap, message);
        INFO(message.toStdString());
        CHECK(table->rowHeight(row) >= needed.height());
    }
}

TEST_CASE("the topology of a 16k-GPU fabric is drawn in groups", "[ui][topology]")
{
    ui::FabricPicture picture;
    picture.available = true;
    picture.planes = 8;
    picture.nodes = 2048;
    picture.nics = 16384;
    picture.switchPorts = 64;
    picture.tiers = {{solvers::FabricTier::Leaf, 64, 4096, 0, 2048},
                     {solvers::FabricTier::Spine, 32, 2048, 0, 2048}};
    ui::TopologyView view;
    view.setPicture(picture);
    // A handful of boxes, links and labels per tier, not one item per switch or link.
    CHECK(view.itemCount() > 10);
    CHECK(view.itemCount() < 250);

    // A fat tree draws every leaf to every spine, and every node group to every leaf.
    CHECK(view.linkCount() == 8 * 8 + 8 * 8);

    ui::TopologyView empty;
    empty.setPicture({});
    CHECK(empty.itemCount() == 1);
}

TEST_CASE("the rail-optimized drawing wires each scalable unit to its own leaves only",
          "[ui][topology]")
{
    // DGX SuperPOD of 4 units: 32 leaves (8 rails x 4 units), 16 spines. Drawn: 8 leaf boxes
    // (leaves 1-7 and 32) and 8 spine boxes; units 1-4 at the bottom.
    ui::FabricPicture picture;
    picture.available = true;
    picture.planes = 1;
    picture.nodes = 127;
    picture.nics = 1016;
    picture.switchPorts = 64;
    picture.scalableUnits = 4;
    picture.tiers = {{solvers::FabricTier::Leaf, 32, 2048, 0, 1020},
                     {solvers::FabricTier::Spine, 16, 1024, 0, 1024}};
    ui::TopologyView view;
    view.setPicture(picture);
    // Each drawn leaf belongs to exactly one unit (leaves 1-6 to unit 1, leaf 32 to unit 4) and
    // the "..." box, leaves 7-31, to every unit (units 2 and 3 are not left unwired): 6 + 4 + 1
    // node links, not 4 x 8; the leaf-spine stage stays complete (8 x 8).
    CHECK(view.linkCount() == 6 + 4 + 1 + 8 * 8);
}

TEST_CASE("an opened file is listed as open and remembered as recent", "[ui][window]")
{
    ui::MainWindow window;
    window.setQuiet(true);
    ui::ScenarioLibraryModel* library = window.libraryModel();
    // The library's scenarios come from the store (a temporary one in the tests).
    REQUIRE(library->rowCount(library->sourceGroup(0)) >= 4);
    const QString path = examplePath("dgx-superpod-4su.json");
    ui::ScenarioDocument* document = window.openFile(path);
    REQUIRE(document);
    CHECK(library->rowCount(library->index(0, 0)) == 1);
    CHECK(QSettings().value("recentFiles").toStringList().value(0) ==
          QFileInfo(path).absoluteFilePath());
    // Opening the same file again shows the open document instead of a second copy.
    CHECK(window.openFile(path) == document);
    CHECK(window.documents().size() == 1);
    REQUIRE(waitForEvaluation(*document));
}

TEST_CASE("the tests' settings land in a temporary folder, not the user's home", "[ui][settings]")
{
    const QString home = test::isolatedHome();
    REQUIRE_FALSE(home.isEmpty());
    CHECK(QDir(home).exists());
    const QString key =
        QStringLiteral("settingsIsolationProbe%1").arg(QCoreApplication::applicationPid());
    {
        QSettings settings;
        settings.setValue(key, true);
        settings.sync();
        CHECK(settings.status() == QSettings::NoError);
        // Where the window's recent files and last folders go.
        const QString file = QFileInfo(settings.fileName()).absoluteFilePath();
        CHECK(file.startsWith(QDir(home).absolutePath() + QLatin1Char('/')));
        CHECK_FALSE(file.startsWith(QDir::homePath() + QLatin1Char('/')));
        CHECK(QFileInfo::exists(file));
    }
    // The user's own settings file of this organisation and application never gets the key.
    const QSettings user(QDir::homePath() + QStringLiteral("/.config/") +
                             QCoreApplication::organizationName() + QLatin1Char('/') +
                             QCoreApplication::applicationName() + QStringLiteral(".conf"),
                         QSettings::IniFormat);
    CHECK_FALSE(user.contains(key));
    QSettings().remove(key);
}

TEST_CASE("the 16k-GPU example draws its fabric from the network result", "[ui][topology]")
{
    ui::MainWindow window;
    window.setQuiet(true);
    ui::ScenarioDocument* document = window.openFile(examplePath("multiplane-16k-h100.json"));
    REQUIRE(document);
    REQUIRE(waitForEvaluation(*document));
    const ui::FabricPicture& picture = window.topologyView()->picture();
    REQUIRE(picture.available);
    CHECK(picture.planes == 8);
    CHECK(picture.nics == 16384);
    REQUIRE_FALSE(picture.tiers.empty());
    CHECK(window.topologyView()->itemCount() < 250);
    CHECK(window.dashboard()->headline("Switches and ports") != "n/a");
    CHECK(window.dashboard()->headline("PUE") != "n/a");
    CHECK(window.dashboard()->headline("TCO") != "n/a");
}

TEST_CASE(
    "the screenshot writer shoots every view of the issue: start, each example's dashboard, "
    "each fabric kind's topology, the floor plan, compare, diagnostics and the workload editor",
    "[ui][window][screenshots]")
{
    QTemporaryDir dir;
    REQUIRE(dir.isValid());
    ui::MainWindow window;
    QString error;
    const QStringList written = ui::ScreenshotWriter::write(window, dir.path(), &error);
    INFO(error.toStdString());
    QStringList names;
    for (const QString& path : written) {
        CHECK(QFileInfo(path).size() > 10000);
        names << QFileInfo(path).fileName();
    }
    INFO(names.join(QStringLiteral(", ")).toStdString());
    QStringList expected = {QStringLiteral("start.png"),
                            QStringLiteral("topology-fat-tree.png"),
                            QStringLiteral("topology-rail-optimized.png"),
                            QStringLiteral("topology-rail-only.png"),
                            QStringLiteral("topology-multi-plane.png"),
                            QStringLiteral("floorplan-16k.png"),
                            QStringLiteral("compare.png"),
                            QStringLiteral("find-best-layout.png"),
                            QStringLiteral("diagnostics.png"),
                            QStringLiteral("form-workload.png"),
                            QStringLiteral("form-hall.png"),
                            QStringLiteral("form-network.png")};
    for (const QString& example : QFileInfo(test::examplePath("seed-h100-dallas-d2c.json"))
                                      .dir()
                                      .entryList({QStringLiteral("*.json")}, QDir::Files))
        expected << QStringLiteral("dashboard-%1.png").arg(QFileInfo(example).completeBaseName());
    CHECK(expected.size() >= 14);
    for (const QString& name : expected) {
        INFO(name.toStdString());
        CHECK(names.contains(name));
    }
}
