// The open documents without a window: opening two, editing and undoing each on its own stack,
// saving atomically, remembering recent files and closing.
#include "dct/ui/documentmanager.h"
#include "dct/ui/scenariodocument.h"
#include "uitestsupport.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QPointer>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QUndoGroup>
#include <QUndoStack>
#include <catch2/catch.hpp>

using namespace dct;
using test::examplePath;
using test::waitForEvaluation;

TEST_CASE("the document manager opens two documents with an undo stack each", "[ui][documents]")
{
    ui::DocumentManager manager;
    QSignalSpy opened(&manager, &ui::DocumentManager::documentsChanged);
    QSignalSpy current(&manager, &ui::DocumentManager::currentChanged);
    ui::ScenarioDocument* seed = manager.openFile(examplePath("seed-h100-dallas-d2c.json"));
    ui::ScenarioDocument* pod = manager.openFile(examplePath("dgx-superpod-4su.json"));
    REQUIRE(seed);
    REQUIRE(pod);
    CHECK(manager.documents() == QList<ui::ScenarioDocument*>{seed, pod});
    CHECK(opened.count() == 2);
    CHECK(current.count() == 2);
    CHECK(manager.current() == pod);
    CHECK(manager.undoGroup()->stacks().size() == 2);
    CHECK(manager.undoGroup()->activeStack() == pod->undoStack());
    // Opening an open file again makes it current instead of opening a copy.
    CHECK(manager.openFile(examplePath("seed-h100-dallas-d2c.json")) == seed);
    CHECK(manager.documents().size() == 2);
    CHECK(manager.current() == seed);
    CHECK(manager.undoGroup()->activeStack() == seed->undoStack());

    // An evaluation of each lands, and the manager says whose.
    REQUIRE(waitForEvaluation(*seed));
    REQUIRE(waitForEvaluation(*pod));
    QSignalSpy evaluated(&manager, &ui::DocumentManager::documentEvaluated);
    QSignalSpy titles(&manager, &ui::DocumentManager::documentTitleChanged);
    seed->edit("/compute/node_count", 64);
    REQUIRE(waitForEvaluation(*seed));
    REQUIRE(evaluated.count() >= 1);
    CHECK(evaluated.last().at(0).value<ui::ScenarioDocument*>() == seed);
    CHECK(titles.count() >= 1); // now modified
    CHECK(seed->isModified());
    CHECK_FALSE(pod->isModified());
    REQUIRE(seed->outcome()->metric({"compute.gpus"}));
    CHECK(seed->outcome()->metric({"compute.gpus"})->value == Approx(512.0));

    // Undo works on the current document's stack only.
    manager.setCurrent(pod);
    CHECK_FALSE(manager.undoGroup()->canUndo());
    manager.setCurrent(seed);
    REQUIRE(manager.undoGroup()->canUndo());
    manager.undoGroup()->undo();
    REQUIRE(waitForEvaluation(*seed));
    CHECK(seed->value("/compute/node_count") == 32);
    CHECK_FALSE(seed->isModified());
    CHECK(seed->outcome()->metric({"compute.gpus"})->value == Approx(256.0));
    CHECK(pod->undoStack()->count() == 0);
}

TEST_CASE("the document manager saves atomically and remembers the file", "[ui][documents]")
{
    QTemporaryDir dir;
    REQUIRE(dir.isValid());
    ui::DocumentManager manager;
    ui::ScenarioDocument* document = manager.openFile(examplePath("seed-h100-dallas-d2c.json"));
    REQUIRE(document);
    document->edit("/compute/node_count", 40);
    const QString path = dir.filePath(QStringLiteral("saved.json"));
    {
        QFile old(path);
        REQUIRE(old.open(QIODevice::WriteOnly));
        old.write("an older file, replaced as a whole");
    }
    QSignalSpy recent(&manager, &ui::DocumentManager::recentFilesChanged);
    QSignalSpy status(&manager, &ui::DocumentManager::statusMessage);
    REQUIRE(manager.save(document, path));
    CHECK_FALSE(document->isModified());
    CHECK(document->filePath() == path);
    // Written through a temporary file renamed over the old one: nothing else is left behind.
    CHECK(QDir(dir.path()).entryList(QDir::Files | QDir::Hidden) == QStringList{"saved.json"});
    QFile saved(path);
    REQUIRE(saved.open(QIODevice::ReadOnly));
    const auto json = nlohmann::json::parse(saved.readAll().toStdString());
    CHECK(json["compute"]["node_count"] == 40);
    CHECK(recent.count() == 1);
    CHECK(manager.recentFiles().value(0) == QFileInfo(path).absoluteFilePath());
    REQUIRE(status.count() == 1);
    CHECK(status.first().at(0).toString().contains(QStringLiteral("saved.json")));

    // A save that cannot be made is reported, leaves the document modified and writes nothing.
    document->edit("/compute/node_count", 48);
    QSignalSpy errors(&manager, &ui::DocumentManager::errorOccurred);
    const QString nowhere = dir.filePath(QStringLiteral("missing/folder/x.json"));
    CHECK_FALSE(manager.save(document, nowhere));
    REQUIRE(errors.count() == 1);
    CHECK(manager.lastError().contains(QStringLiteral("x.json")));
    CHECK(document->isModified());
    CHECK(document->filePath() == path);
    CHECK_FALSE(manager.save(nullptr, path));
    REQUIRE(waitForEvaluation(*document));
}

TEST_CASE("the document manager closes documents and moves the current one", "[ui][documents]")
{
    ui::DocumentManager manager;
    ui::ScenarioDocument* first = manager.openFile(examplePath("seed-h100-dallas-d2c.json"));
    ui::ScenarioDocument* second = manager.newDocument();
    ui::ScenarioDocument* third = manager.openFile(examplePath("dgx-superpod-4su.json"));
    REQUIRE(first);
    REQUIRE(second);
    REQUIRE(third);
    CHECK(second->title() == QStringLiteral("New scenario"));
    CHECK(second->isModified()); // never saved anywhere
    CHECK(second->filePath().isEmpty());
    for (auto* d : manager.documents())
        REQUIRE(waitForEvaluation(*d));

    QSignalSpy changed(&manager, &ui::DocumentManager::documentsChanged);
    QSignalSpy current(&manager, &ui::DocumentManager::currentChanged);
    QPointer<ui::ScenarioDocument> closed = third;
    REQUIRE(manager.close(third));
    CHECK(changed.count() == 1);
    REQUIRE(current.count() == 1);
    CHECK(current.first().at(0).value<ui::ScenarioDocument*>() == second);
    CHECK(manager.current() == second);
    CHECK(manager.documents() == QList<ui::ScenarioDocument*>{first, second});
    CHECK(manager.undoGroup()->stacks().size() == 2);
    CHECK(manager.undoGroup()->activeStack() == second->undoStack());
    QCoreApplication::sendPostedEvents(nullptr, QEvent::DeferredDelete);
    CHECK(closed.isNull());
    CHECK_FALSE(manager.close(nullptr));

    // Closing one that is not current keeps the current one.
    manager.setCurrent(first);
    REQUIRE(manager.close(second));
    CHECK(manager.current() == first);
    REQUIRE(manager.close(first));
    CHECK(manager.current() == nullptr);
    CHECK(manager.documents().isEmpty());
    CHECK(manager.undoGroup()->activeStack() == nullptr);
}

TEST_CASE("the document manager reports a file it cannot read", "[ui][documents]")
{
    QTemporaryDir dir;
    REQUIRE(dir.isValid());
    const QString path = dir.filePath(QStringLiteral("notjson.json"));
    QFile file(path);
    REQUIRE(file.open(QIODevice::WriteOnly));
    file.write("{ not json");
    file.close();
    ui::DocumentManager manager;
    QSignalSpy errors(&manager, &ui::DocumentManager::errorOccurred);
    CHECK(manager.openFile(path) == nullptr);
    REQUIRE(errors.count() == 1);
    CHECK(errors.first().at(0).toString() == QStringLiteral("Cannot open scenario"));
    CHECK(errors.first().at(1).toString().contains(QStringLiteral("notjson.json")));
    CHECK(manager.lastError() == errors.first().at(1).toString());
    CHECK(manager.documents().isEmpty());
    CHECK(manager.current() == nullptr);
}

TEST_CASE("a GPU power limit edited in a document slows it and lowers its power, undoably",
          "[ui][documents][power-limit]")
{
    ui::DocumentManager manager;
    ui::ScenarioDocument* seed = manager.openFile(examplePath("seed-h100-dallas-d2c.json"));
    REQUIRE(seed);
    REQUIRE(waitForEvaluation(*seed));
    const double days = seed->outcome()->metric({"compute.training_days"})->value;
    const double itKw = seed->outcome()->metric({"power.it_kw"})->value;
    seed->edit("/compute/gpu_power_limit_w", 500);
    REQUIRE(waitForEvaluation(*seed));
    REQUIRE(seed->outcome()->metric({"power.gpu_power_limit_clock_factor"}));
    CHECK(seed->outcome()->metric({"power.gpu_power_limit_clock_factor"})->value < 0.9);
    CHECK(seed->outcome()->metric({"compute.training_days"})->value > days);
    CHECK(seed->outcome()->metric({"power.it_kw"})->value < itKw);
    // A limit above the H100's 700 W is refused with its path.
    seed->edit("/compute/gpu_power_limit_w", 900);
    REQUIRE(waitForEvaluation(*seed));
    CHECK(seed->outcome()->diagnostics.hasCode("gpu-power-limit"));
    manager.undoGroup()->undo();
    manager.undoGroup()->undo();
    REQUIRE(waitForEvaluation(*seed));
    CHECK(seed->value("/compute/gpu_power_limit_w") == 0);
    CHECK(seed->outcome()->metric({"compute.training_days"})->value == Approx(days));
}
