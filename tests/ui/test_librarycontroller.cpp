// The scenario library without a window: opening stored scenarios and examples, saving versions
// and going back through the history.
#include "dct/ui/documentmanager.h"
#include "dct/ui/historydialog.h"
#include "dct/ui/librarycontroller.h"
#include "dct/ui/scenariodocument.h"
#include "dct/ui/scenariolibrarymodel.h"
#include "dct/ui/storescenariosource.h"
#include "uitestsupport.h"

#include <QFile>
#include <QSignalSpy>
#include <QTableWidget>
#include <catch2/catch.hpp>

using namespace dct;
using test::examplePath;
using test::ScopedStore;
using test::waitForEvaluation;

namespace {

/** Returns the index of library entry \a id in the group of source 0 (invalid when absent). */
QModelIndex entry(const ui::ScenarioLibraryModel& model, const QString& id)
{
    const QModelIndex group = model.sourceGroup(0);
    for (int row = 0; row < model.rowCount(group); ++row) {
        const QModelIndex index = model.index(row, 0, group);
        if (index.data(ui::ScenarioLibraryModel::EntryIdRole).toString() == id)
            return index;
    }
    return {};
}

} // namespace

TEST_CASE("the library controller opens a stored scenario and lists it as open",
          "[ui][library][store]")
{
    ScopedStore store;
    ui::DocumentManager documents;
    ui::LibraryController library(&documents);
    QSignalSpy storeChanged(&library, &ui::LibraryController::storeChanged);
    REQUIRE(library.openStore());
    REQUIRE(library.store());
    CHECK(library.lastError().isEmpty());
    REQUIRE(storeChanged.count() == 1);
    CHECK(storeChanged.first().at(0).toBool());

    const QString name = QStringLiteral("seed-h100-dallas-d2c");
    const QModelIndex seed = entry(*library.model(), name);
    REQUIRE(seed.isValid());
    CHECK(library.storedName(seed) == name);
    CHECK(library.storedName(library.model()->sourceGroup(0)).isEmpty());

    ui::ScenarioDocument* document = library.activate(seed);
    REQUIRE(document);
    CHECK(documents.current() == document);
    CHECK(document->storeName() == name);
    CHECK(document->filePath().isEmpty());
    CHECK_FALSE(document->isModified());
    REQUIRE(waitForEvaluation(*document));
    // The open documents are listed first, and activating one makes it current.
    const QModelIndex open = library.model()->index(0, 0, library.model()->index(0, 0));
    REQUIRE(open.isValid());
    CHECK(open.data(ui::ScenarioLibraryModel::DocumentRole).value<QObject*>() == document);
    CHECK(library.storedName(open).isEmpty());
    ui::ScenarioDocument* other = documents.openFile(examplePath("dgx-superpod-4su.json"));
    REQUIRE(other);
    CHECK(library.model()->rowCount(library.model()->index(0, 0)) == 2);
    CHECK(library.activate(open) == document);
    CHECK(documents.current() == document);
    // A stored scenario already open is switched to, not opened twice.
    CHECK(library.activate(entry(*library.model(), name)) == document);
    CHECK(library.openStored(name) == document);
    CHECK(documents.documents().size() == 2);
    CHECK(library.openStored(QStringLiteral("no such scenario")) == nullptr);
    CHECK(library.lastError().contains(QStringLiteral("no such scenario")));
    REQUIRE(waitForEvaluation(*other));
}

TEST_CASE("the library controller saves versions and opens them from the history",
          "[ui][library][store]")
{
    ScopedStore store;
    ui::DocumentManager documents;
    ui::LibraryController library(&documents);
    REQUIRE(library.openStore());
    const QString name = QStringLiteral("seed-h100-dallas-d2c");
    ui::ScenarioDocument* document = library.openStored(name);
    REQUIRE(document);
    document->edit("/compute/node_count", 64);
    CHECK(document->isModified());
    QSignalSpy status(&library, &ui::LibraryController::statusMessage);
    CHECK(library.saveToLibrary(document) == 2);
    CHECK_FALSE(document->isModified());
    REQUIRE(status.count() == 1);
    CHECK(status.first().at(0).toString().contains(QStringLiteral("version 2")));

    bool ok = false;
    const auto versions = library.history(name, &ok);
    REQUIRE(ok);
    REQUIRE(versions.size() == 2);
    CHECK(versions[0].version == 1);
    CHECK(versions[1].comment == QStringLiteral("saved from the desktop"));

    // The history dialog lists the newest first and starts on it.
    ui::HistoryDialog dialog(name, versions);
    CHECK(dialog.windowTitle().contains(name));
    REQUIRE(dialog.table()->rowCount() == 2);
    CHECK(dialog.table()->item(0, 0)->text() == QStringLiteral("2"));
    CHECK(dialog.selectedVersion() == 2);
    REQUIRE(dialog.selectVersion(1));
    CHECK(dialog.selectedVersion() == 1);
    CHECK_FALSE(dialog.selectVersion(7));

    // The latest version is the open document; an older one opens beside it.
    CHECK(library.openVersion(name, 2) == document);
    ui::ScenarioDocument* old = library.openVersion(name, 1);
    REQUIRE(old);
    CHECK(old != document);
    CHECK(old->value("/compute/node_count") == 32);
    CHECK(old->storeName() == name);
    CHECK_FALSE(old->isModified());
    CHECK(status.last().at(0).toString().contains(QStringLiteral("version 1")));
    CHECK(documents.documents().size() == 2);

    // A history of nothing is an error, reported.
    QSignalSpy errors(&library, &ui::LibraryController::errorOccurred);
    CHECK(library.showHistory(QString(), nullptr) == nullptr);
    CHECK(errors.count() == 1);
    CHECK(library.saveToLibrary(nullptr) == 0);
    REQUIRE(waitForEvaluation(*document));
    REQUIRE(waitForEvaluation(*old));
}

TEST_CASE("without a usable store the library controller offers the examples folder",
          "[ui][library][store]")
{
    ScopedStore store;
    {
        QFile file(store.path());
        REQUIRE(file.open(QIODevice::WriteOnly));
        file.write(QByteArray("this is not a database\n").repeated(200));
    }
    ui::DocumentManager documents;
    ui::LibraryController library(&documents);
    QSignalSpy storeChanged(&library, &ui::LibraryController::storeChanged);
    QSignalSpy errors(&library, &ui::LibraryController::errorOccurred);
    CHECK_FALSE(library.openStore());
    CHECK_FALSE(library.store());
    REQUIRE(storeChanged.count() == 1);
    CHECK_FALSE(storeChanged.first().at(0).toBool());
    REQUIRE(errors.count() == 1);
    CHECK(library.lastError().contains(QStringLiteral("cannot be used")));
    CHECK(library.model()->sourceGroup(0).data().toString() == QStringLiteral("Examples"));

    // An example opens as its file; nothing can be saved to a library.
    const QString path = examplePath("seed-h100-dallas-d2c.json");
    const QModelIndex example = entry(*library.model(), path);
    REQUIRE(example.isValid());
    CHECK(library.storedName(example).isEmpty());
    ui::ScenarioDocument* document = library.activate(example);
    REQUIRE(document);
    CHECK(document->filePath() == path);
    CHECK(library.saveToLibrary(document) == 0);
    CHECK(library.openStored(QStringLiteral("seed-h100-dallas-d2c")) == nullptr);
    REQUIRE(waitForEvaluation(*document));
}
