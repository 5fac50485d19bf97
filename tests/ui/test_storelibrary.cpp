// The scenario library backed by the SQLite store, as a planner uses it: the seeded examples are
// listed with their tags, opening one loads its latest version, saving adds a version, history
// opens an old one, a store that is not ours is reported and left byte for byte as it was, and a
// damaged one is shown read-only and never written.
#include "dct/store/scenariostore.h"
#include "dct/ui/mainwindow.h"
#include "dct/ui/scenariodocument.h"
#include "dct/ui/scenariolibrarymodel.h"
#include "dct/ui/storescenariosource.h"
#include "storedamage.h"
#include "uitestsupport.h"

#include <QAbstractItemModelTester>
#include <QAction>
#include <QDir>
#include <QFile>
#include <QTreeView>
#include <catch2/catch.hpp>
#include <sqlite3.h>

using namespace dct;
using test::examplePath;
using test::ScopedStore;
using test::waitForEvaluation;

namespace {

/** Returns the row of library entry \a id in the group of source 0, or -1. */
int entryRow(const ui::ScenarioLibraryModel& model, const QString& id)
{
    const QModelIndex group = model.sourceGroup(0);
    for (int row = 0; row < model.rowCount(group); ++row)
        if (model.index(row, 0, group).data(ui::ScenarioLibraryModel::EntryIdRole).toString() == id)
            return row;
    return -1;
}

QByteArray readAll(const QString& path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

int exampleCount()
{
    return static_cast<int>(QDir(QStringLiteral(DCT_TEST_DATA_DIR "/examples"))
                                .entryList({QStringLiteral("*.json")}, QDir::Files)
                                .size());
}

} // namespace

TEST_CASE("the library lists the examples seeded into the store, with their tags",
          "[ui][library][store]")
{
    ScopedStore store;
    ui::MainWindow window;
    window.setQuiet(true);
    REQUIRE(window.store());
    CHECK(window.lastError().isEmpty());
    CHECK(QFile::exists(store.path()));
    ui::ScenarioLibraryModel& model = *window.libraryModel();
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);

    const QModelIndex group = model.sourceGroup(0);
    CHECK(group.data().toString() == QStringLiteral("Library"));
    CHECK(model.rowCount(group) == exampleCount());
    const int row = entryRow(model, QStringLiteral("seed-h100-dallas-d2c"));
    REQUIRE(row >= 0);
    const QModelIndex seed = model.index(row, 0, group);
    CHECK(seed.data(ui::ScenarioLibraryModel::TagsRole).toStringList() ==
          QStringList{QStringLiteral("example")});
    CHECK(seed.data().toString() == QStringLiteral("seed-h100-dallas-d2c  [example]"));
    CHECK(seed.data(Qt::ToolTipRole).toString().contains(QStringLiteral("Seed case")));

    // Opening it from the library (a double click) loads its latest version.
    emit window.libraryView()->activated(seed);
    ui::ScenarioDocument* document = window.currentDocument();
    REQUIRE(document);
    CHECK(document->storeName() == QStringLiteral("seed-h100-dallas-d2c"));
    CHECK(document->filePath().isEmpty());
    CHECK_FALSE(document->isModified());
    REQUIRE(waitForEvaluation(*document));
    const auto* gpus = document->outcome()->metric({"compute.gpus"});
    REQUIRE(gpus);
    CHECK(gpus->value == Approx(256.0).epsilon(1e-9));
    // Opening it again switches to the open document instead of a second copy.
    emit window.libraryView()->activated(seed);
    CHECK(window.documents().size() == 1);
}

TEST_CASE("save to library adds a version and history opens an old one", "[ui][library][store]")
{
    ScopedStore store;
    ui::MainWindow window;
    window.setQuiet(true);
    REQUIRE(window.store());
    ui::ScenarioDocument* document = window.openStored(QStringLiteral("seed-h100-dallas-d2c"));
    REQUIRE(document);
    REQUIRE(waitForEvaluation(*document));

    document->edit("/compute/node_count", 64);
    CHECK(document->isModified());
    CHECK(window.saveToLibrary() == 2);
    CHECK_FALSE(document->isModified());
    QString error;
    const auto versions = window.store()->history(QStringLiteral("seed-h100-dallas-d2c"), &error);
    INFO(error.toStdString());
    REQUIRE(versions.size() == 2);
    CHECK(versions[1].comment == QStringLiteral("saved from the desktop"));

    // Another program opening the same file sees the new version.
    {
        auto other = store::ScenarioStore::open(store.path().toStdString());
        REQUIRE(other);
        const auto latest = other->load("seed-h100-dallas-d2c");
        REQUIRE(latest);
        CHECK(latest->version == 2);
        CHECK(nlohmann::json::parse(latest->json)["compute"]["node_count"] == 64);
    }

    ui::ScenarioDocument* old = window.openStored(QStringLiteral("seed-h100-dallas-d2c"), 1);
    REQUIRE(old);
    CHECK(old != document);
    CHECK(old->value("/compute/node_count") == 32);
    CHECK(old->storeName() == QStringLiteral("seed-h100-dallas-d2c"));

    // A scenario from a file goes in under its title as a new library scenario; the file still
    // owes its own save, so it stays modified only if it was.
    ui::ScenarioDocument* legacy = window.openFile(examplePath("legacy-air-h100-dallas.json"));
    REQUIRE(legacy);
    const int before = window.libraryModel()->rowCount(window.libraryModel()->sourceGroup(0));
    CHECK(window.saveToLibrary(QStringLiteral("my legacy hall")) == 1);
    CHECK(window.libraryModel()->rowCount(window.libraryModel()->sourceGroup(0)) == before + 1);
    CHECK(entryRow(*window.libraryModel(), QStringLiteral("my legacy hall")) >= 0);
    CHECK(legacy->storeName() == QStringLiteral("my legacy hall"));
    CHECK(window.store()->history(QStringLiteral("my legacy hall"), &error).front().comment ==
          QStringLiteral("saved from legacy-air-h100-dallas.json"));
}

TEST_CASE("a corrupt or foreign store is reported and left byte-identical", "[ui][library][store]")
{
    ScopedStore store;
    QByteArray bytes;
    SECTION("not SQLite at all")
    {
        bytes = QByteArray("this is not a database\n").repeated(200);
        QFile file(store.path());
        REQUIRE(file.open(QIODevice::WriteOnly));
        file.write(bytes);
    }
    SECTION("an SQLite header with garbage after it")
    {
        bytes = QByteArray("SQLite format 3", 16) + QByteArray(8192, '\x5a');
        QFile file(store.path());
        REQUIRE(file.open(QIODevice::WriteOnly));
        file.write(bytes);
    }
    SECTION("the SQLite database of another program")
    {
        sqlite3* db = nullptr;
        REQUIRE(sqlite3_open(store.path().toLocal8Bit().constData(), &db) == SQLITE_OK);
        REQUIRE(sqlite3_exec(db,
                             "CREATE TABLE scenarios (name TEXT); INSERT INTO scenarios "
                             "VALUES ('theirs');",
                             nullptr, nullptr, nullptr) == SQLITE_OK);
        sqlite3_close(db);
        bytes = readAll(store.path());
    }
    REQUIRE_FALSE(bytes.isEmpty());

    ui::MainWindow window;
    window.setQuiet(true);
    QCoreApplication::processEvents(); // the deferred error dialog stays shut in quiet mode
    CHECK_FALSE(window.store());
    CHECK(window.lastError().contains(QStringLiteral("cannot be used")));
    CHECK(window.lastError().contains(QDir::toNativeSeparators(store.path())));
    INFO(window.lastError().toStdString());
    // The window keeps working with the bundled examples.
    const QModelIndex group = window.libraryModel()->sourceGroup(0);
    CHECK(group.data().toString() == QStringLiteral("Examples"));
    CHECK(window.libraryModel()->rowCount(group) == exampleCount());
    ui::ScenarioDocument* document = window.openFile(examplePath("seed-h100-dallas-d2c.json"));
    REQUIRE(document);
    CHECK(window.saveToLibrary() == 0);
    CHECK(readAll(store.path()) == bytes);
    CHECK_FALSE(QFile::exists(store.path() + QStringLiteral("-wal")));
}

TEST_CASE("a damaged store is shown read-only, with a message, and never written",
          "[ui][library][store][corrupt]")
{
    ScopedStore store;
    const std::filesystem::path path = store.path().toStdString();
    {
        ui::MainWindow seeding; // creates the store with the examples
        seeding.setQuiet(true);
        REQUIRE(seeding.store());
    }
    // The third scenario's name changed in its table row but not in the name index.
    const std::string third = test::sqlText(path, "SELECT name FROM scenarios WHERE id = 3");
    REQUIRE(third.size() > 2);
    test::rewriteInTable(path, "scenarios", third, third.substr(0, third.size() - 1) + "#");
    REQUIRE(test::integrityReport(path).find("row 3 missing from index") != std::string::npos);
    const QByteArray bytes = readAll(store.path());

    ui::MainWindow window;
    window.setQuiet(true);
    QCoreApplication::processEvents();
    REQUIRE(window.store());
    CHECK(window.store()->readOnly());
    INFO(window.lastError().toStdString());
    CHECK(window.lastError().contains(QStringLiteral("damaged")));
    CHECK(window.lastError().contains(QStringLiteral("read-only")));
    CHECK(window.lastError().contains(QStringLiteral("dctwin-cli store recover ") +
                                      QDir::toNativeSeparators(store.path())));
    const QModelIndex group = window.libraryModel()->sourceGroup(0);
    CHECK(group.data().toString() == QStringLiteral("Library (damaged, read-only)"));
    CHECK(window.libraryModel()->rowCount(group) == exampleCount());
    // Reading works: a stored scenario opens.
    REQUIRE(window.openStored(QStringLiteral("seed-h100-dallas-d2c")));
    // Saving is off, and refused when asked for anyway.
    for (QAction* action : window.findChildren<QAction*>())
        if (action->text() == QStringLiteral("Save to &library"))
            CHECK_FALSE(action->isEnabled());
    CHECK(window.saveToLibrary(QStringLiteral("new name")) == 0);
    CHECK(window.lastError().contains(QStringLiteral("nothing was written")));
    CHECK(readAll(store.path()) == bytes);
}
