#include "dct/ui/screenshotwriter.h"

#include "dct/model/catalog.h"
#include "dct/ui/compareview.h"
#include "dct/ui/layoutplandialog.h"
#include "dct/ui/mainwindow.h"
#include "dct/ui/scenariodocument.h"
#include "dct/ui/scenarioform.h"

#include <QDir>
#include <QEventLoop>
#include <QTimer>
#include <algorithm>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

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
    // Tall enough for the whole dashboard (it scrolls in a smaller window).
    window.resize(1600, 1480);
    window.show();
    // The start page first, while no scenario is open.
    if (window.documents().isEmpty()) {
        settle();
        const QString path = QDir(directory).filePath(QStringLiteral("start.png"));
        if (window.grab().save(path))
            written << path;
    }
    const auto examples = model::Catalog::dataDirectory() / "examples";
    const auto open = [&](const std::string& name) {
        return window.openFile(QString::fromStdString((examples / name).string()));
    };
    const auto shoot = [&](MainWindow::View view, const QString& file) {
        window.showView(view);
        settle();
        const QString path = QDir(directory).filePath(file);
        if (window.grab().save(path))
            written << path;
        else if (error)
            *error = QObject::tr("cannot write %1").arg(path);
    };
    // A dashboard of every bundled example, in the order of their file names.
    std::vector<std::string> names;
    std::error_code ec;
    for (const auto& entry : std::filesystem::directory_iterator(examples, ec))
        if (entry.is_regular_file() && entry.path().extension() == ".json")
            names.push_back(entry.path().filename().string());
    std::sort(names.begin(), names.end());
    std::map<std::string, ScenarioDocument*> opened;
    for (const auto& name : names) {
        ScenarioDocument* d = open(name);
        if (!d) {
            if (error)
                *error = window.lastError();
            return written;
        }
        d->evaluateNow();
        opened[name] = d;
        window.setCurrentDocument(d);
        const QString stem = QString::fromStdString(std::filesystem::path(name).stem().string());
        shoot(MainWindow::DashboardView, QStringLiteral("dashboard-%1.png").arg(stem));
    }
    ScenarioDocument* seed = opened["seed-h100-dallas-d2c.json"];
    ScenarioDocument* large = opened["multiplane-16k-h100.json"];
    ScenarioDocument* superpod = opened["dgx-superpod-4su.json"];
    if (!seed || !large || !superpod) {
        if (error)
            *error = QObject::tr("the bundled examples are missing from %1")
                         .arg(QString::fromStdString(examples.string()));
        return written;
    }

    // The topology of every fabric kind: the examples hold fat tree, rail-optimized and
    // multi-plane; a what-if of the SuperPOD shows rail-only.
    window.setCurrentDocument(seed);
    shoot(MainWindow::TopologyTab, QStringLiteral("topology-fat-tree.png"));
    window.setCurrentDocument(superpod);
    shoot(MainWindow::TopologyTab, QStringLiteral("topology-rail-optimized.png"));
    window.setCurrentDocument(large);
    shoot(MainWindow::TopologyTab, QStringLiteral("topology-multi-plane.png"));
    window.setCurrentDocument(superpod);
    if (ScenarioDocument* railOnly = window.duplicateAsWhatIf()) {
        railOnly->edit("/network/topology", "rail_only");
        railOnly->evaluateNow();
        shoot(MainWindow::TopologyTab, QStringLiteral("topology-rail-only.png"));
        window.closeDocument(railOnly);
    }

    // The floor plan of the 16k-GPU hall and of the SuperPOD's.
    window.setCurrentDocument(large);
    shoot(MainWindow::FloorPlanTab, QStringLiteral("floorplan-16k.png"));
    window.setCurrentDocument(superpod);
    shoot(MainWindow::FloorPlanTab, QStringLiteral("floorplan-superpod.png"));

    // Compare: the seed, a what-if doubling it (as a planner would try first) and the 16k.
    window.setCurrentDocument(seed);
    ScenarioDocument* whatIf = window.duplicateAsWhatIf();
    whatIf->edit("/compute/node_count", seed->value("/compute/node_count").get<int>() * 2);
    whatIf->evaluateNow();
    seed->evaluateNow();
    window.setCurrentDocument(whatIf);
    window.compareView()->compare({seed, whatIf, large});
    shoot(MainWindow::CompareTab, QStringLiteral("compare.png"));

    // Find best layout on the 16k-GPU job: the dialog once its search has landed.
    window.setCurrentDocument(large);
    large->evaluateNow();
    if (LayoutPlanDialog* plan = window.findBestLayout()) {
        QEventLoop loop;
        QObject::connect(plan, &LayoutPlanDialog::finished, &loop, &QEventLoop::quit);
        QTimer::singleShot(120000, &loop, &QEventLoop::quit);
        loop.exec(); // findBestLayout() started it; finished() lands through this loop

        settle();
        const QString path = QDir(directory).filePath(QStringLiteral("find-best-layout.png"));
        if (!plan->isRunning() && plan->grab().save(path))
            written << path;
        else if (error)
            *error = QObject::tr("cannot write %1").arg(path);
        plan->close();
    }

    // Inline validation: a scenario whose racks are too dense for its air cooling.
    if (ScenarioDocument* hot = opened["overpacked-air-h100-dallas.json"]) {
        window.setCurrentDocument(hot);
        window.focusFirstDiagnostic();
        shoot(MainWindow::DashboardView, QStringLiteral("diagnostics.png"));
    }
    // The workload editor of the seed: the layout and, below it, what the training stack keeps
    // in memory (gradient precision, dropout, the fused loss).
    window.setCurrentDocument(seed);
    window.form()->focusField(QStringLiteral("/workload/gradient_precision"));
    shoot(MainWindow::DashboardView, QStringLiteral("form-workload.png"));
    // The hall page of the 16k-GPU example: the floor's dimensions, limits and cable lengths.
    window.setCurrentDocument(large);
    window.form()->focusField(QStringLiteral("/hall/floor_area_m2"));
    shoot(MainWindow::DashboardView, QStringLiteral("form-hall.png"));
    // The network page of the SuperPOD: its QM9700 switches can reduce in the network, which
    // NCCL leaves off unless asked (in_network_reduction).
    window.setCurrentDocument(superpod);
    window.form()->focusField(QStringLiteral("/network/in_network_reduction"));
    shoot(MainWindow::DashboardView, QStringLiteral("form-network.png"));
    return written;
}

} // namespace dct::ui
