// "Export report..." without its dialog: the current scenario, or the compared ones when the
// Compare tab is open, written as PDF or HTML by the renderer dctwin-report uses.
#include "dct/model/textformat.h"
#include "dct/report/svgchart.h"
#include "dct/ui/compareview.h"
#include "dct/ui/mainwindow.h"
#include "dct/ui/reportexport.h"
#include "dct/ui/scenariodocument.h"
#include "uitestsupport.h"

#include <QFile>
#include <QTemporaryDir>
#include <catch2/catch.hpp>

using namespace dct;
using test::examplePath;
using test::waitForEvaluation;

namespace {

QByteArray readAll(const QString& path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

/** Returns the value of metric \a key of \a document as the report prints it. */
QString figure(const ui::ScenarioDocument& document, const char* key)
{
    const auto* m = document.outcome()->metric({key});
    return m ? QString::fromStdString(dct::formatQuantity(m->value, m->unit))
             : QStringLiteral("missing");
}

} // namespace

TEST_CASE("the current scenario is exported as PDF and as HTML", "[ui][report]")
{
    QTemporaryDir dir;
    REQUIRE(dir.isValid());
    ui::MainWindow window;
    window.setQuiet(true);
    ui::ScenarioDocument* seed = window.openFile(examplePath("seed-h100-dallas-d2c.json"));
    REQUIRE(seed);
    REQUIRE(waitForEvaluation(*seed));
    window.showView(ui::MainWindow::DashboardView);
    REQUIRE(window.reportDocuments() == QList<ui::ScenarioDocument*>{seed});

    const QString pdf = dir.filePath(QStringLiteral("seed.pdf"));
    REQUIRE(window.exportReport(pdf));
    const QByteArray pdfBytes = readAll(pdf);
    CHECK(pdfBytes.startsWith("%PDF"));
    CHECK(pdfBytes.size() > 20000);

    const QString html = dir.filePath(QStringLiteral("seed.html"));
    REQUIRE(window.exportReport(html));
    const QString text = QString::fromUtf8(readAll(html));
    CHECK(text.startsWith(QStringLiteral("<!DOCTYPE html>")));
    CHECK(text.contains(QStringLiteral("Seed case: 32 x H100 in Dallas, 100G RoCE v2, D2C+RDHx")));
    CHECK(text.contains(QStringLiteral("Headline figures")));
    // The headline figures are the evaluation's own numbers.
    for (const char* key : {"compute.gpus", "power.facility_kw", "cost.capex_usd"}) {
        INFO(key);
        const QString value = figure(*seed, key);
        CHECK(value != QStringLiteral("missing"));
        CHECK(text.contains(QStringLiteral("<b>") + value));
    }
    CHECK(text.contains(QStringLiteral("<b>256</b>")));
    // Only the two reports are left in the folder: no temporary files of the atomic write.
    CHECK(QDir(dir.path()).entryList(QDir::Files | QDir::Hidden).size() == 2);
}

TEST_CASE("with the Compare tab active the compared scenarios are exported together",
          "[ui][report]")
{
    QTemporaryDir dir;
    ui::MainWindow window;
    window.setQuiet(true);
    ui::ScenarioDocument* seed = window.openFile(examplePath("seed-h100-dallas-d2c.json"));
    REQUIRE(seed);
    ui::ScenarioDocument* whatIf = window.duplicateAsWhatIf();
    REQUIRE(whatIf);
    whatIf->edit("/compute/node_count", 64);
    REQUIRE(waitForEvaluation(*seed));
    REQUIRE(waitForEvaluation(*whatIf));
    window.showView(ui::MainWindow::CompareTab);
    REQUIRE(window.reportDocuments() == (QList<ui::ScenarioDocument*>{seed, whatIf}));

    const QString html = dir.filePath(QStringLiteral("compare.html"));
    REQUIRE(window.exportReport(html));
    const QString text = QString::fromUtf8(readAll(html));
    CHECK(text.contains(QStringLiteral("comparison report")));
    CHECK(text.contains(QStringLiteral("Executive summary")));
    CHECK(text.contains(seed->title().toHtmlEscaped()));
    CHECK(text.contains(whatIf->title().toHtmlEscaped()));
    // Side by side: the what-if's GPUs with their change against the seed.
    CHECK(text.contains(QStringLiteral("<td class=\"num\">512<br><span class=\"change\">+256, "
                                       "+100.0%</span>")));

    REQUIRE(window.exportReport(dir.filePath(QStringLiteral("compare.pdf"))));
    CHECK(readAll(dir.filePath(QStringLiteral("compare.pdf"))).startsWith("%PDF"));
}

TEST_CASE("a failed export reports why and leaves an existing report intact", "[ui][report]")
{
    QTemporaryDir dir;
    ui::MainWindow window;
    window.setQuiet(true);
    CHECK_FALSE(window.exportReport(dir.filePath(QStringLiteral("none.pdf"))));
    CHECK(window.lastError().contains(QStringLiteral("no scenario")));

    ui::ScenarioDocument* seed = window.openFile(examplePath("seed-h100-dallas-d2c.json"));
    REQUIRE(seed);
    CHECK_FALSE(window.exportReport(QStringLiteral("/nonexistent-dir/report.pdf")));
    CHECK(window.lastError().contains(QStringLiteral("/nonexistent-dir/report.pdf")));
    CHECK_FALSE(window.exportReport(dir.filePath(QStringLiteral("report.txt"))));
    CHECK(window.lastError().contains(QStringLiteral(".pdf, .html or .htm")));

    // A scenario that does not evaluate is refused before anything is written.
    const QString existing = dir.filePath(QStringLiteral("report.html"));
    {
        QFile file(existing);
        REQUIRE(file.open(QIODevice::WriteOnly));
        file.write("the report of yesterday");
    }
    seed->edit("/compute/node_count", -3);
    REQUIRE(waitForEvaluation(*seed));
    CHECK_FALSE(window.exportReport(existing));
    CHECK(window.lastError().contains(QStringLiteral("does not evaluate")));
    CHECK(window.lastError().contains(QStringLiteral("/compute/node_count")));
    CHECK(readAll(existing) == QByteArray("the report of yesterday"));
}
