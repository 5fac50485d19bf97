#include "dct/ui/screenshotwriter.h"

#include "dct/model/catalog.h"
#include "dct/ui/compareview.h"
#include "dct/ui/mainwindow.h"
#include "dct/ui/scenariodocument.h"

#include <QDir>
#include <QEventLoop>
#include <QTimer>

namespace dct::ui {

void ScreenshotWriter::settle(int milliseconds)
{
    QEventLoop loop;
    QTimer::singleShot(milliseconds, &loop, &QEventLoop::quit);
    loop.exec();
}

QStringList ScreenshotWriter::write(MainWindow& window, const QString& directory, QString* error)
{
    QStringList written;
    if (!QDir().mkpath(directory)) {
        if (error)
            *error = QObject::tr("cannot create %1").arg(directory);
        return written;
    }
    window.setQuiet(true);
    window.resize(1600, 1000);
    window.show();
    // The start page first, while no scenario is open.
    if (window.documents().isEmpty()) {
        settle();
        const QString path = QDir(directory).filePath(QStringLiteral("start.png"));
        if (window.grab().save(path))
            written << path;
    }
    const auto examples = model::Catalog::dataDirectory() / "examples";
    const auto open = [&](const char* name) {
        return window.openFile(QString::fromStdString((examples / name).string()));
    };
    ScenarioDocument* large = open("multiplane-16k-h100.json");
    ScenarioDocument* seed = open("seed-h100-dallas-d2c.json");
    if (!seed || !large) {
        if (error)
            *error = window.lastError();
        return written;
    }
    for (ScenarioDocument* d : window.documents())
        d->evaluateNow();
    ScenarioDocument* whatIf = window.duplicateAsWhatIf();
    // The what-if doubles the seed cluster, as a planner would try first.
    whatIf->edit("/compute/node_count", seed->value("/compute/node_count").get<int>() * 2);
    whatIf->evaluateNow();
    seed->evaluateNow();

    const auto shoot = [&](MainWindow::View view, const QString& file) {
        window.showView(view);
        settle();
        const QString path = QDir(directory).filePath(file);
        if (window.grab().save(path))
            written << path;
        else if (error)
            *error = QObject::tr("cannot write %1").arg(path);
    };
    window.setCurrentDocument(seed);
    shoot(MainWindow::DashboardView, QStringLiteral("dashboard.png"));
    window.setCurrentDocument(large);
    shoot(MainWindow::DashboardView, QStringLiteral("dashboard-16k.png"));
    shoot(MainWindow::TopologyTab, QStringLiteral("topology.png"));
    // A rail-optimized fabric: each scalable unit wired to its own leaves.
    if (ScenarioDocument* superpod = open("dgx-superpod-4su.json")) {
        superpod->evaluateNow();
        window.setCurrentDocument(superpod);
        shoot(MainWindow::TopologyTab, QStringLiteral("topology-rail-optimized.png"));
    }
    window.setCurrentDocument(whatIf);
    window.compareView()->compare({seed, whatIf, large});
    shoot(MainWindow::CompareTab, QStringLiteral("compare.png"));

    // Inline validation: a scenario whose racks are too dense for its air cooling.
    if (ScenarioDocument* hot = open("overpacked-air-h100-dallas.json")) {
        hot->evaluateNow();
        window.setCurrentDocument(hot);
        window.focusFirstDiagnostic();
        shoot(MainWindow::DashboardView, QStringLiteral("diagnostics.png"));
    }
    return written;
}

} // namespace dct::ui
