#include "dct/ui/reportexport.h"

#include "dct/report/reportrenderer.h"
#include "dct/store/calibrationlookup.h"
#include "dct/store/scenariostore.h"
#include "dct/ui/catalogprovider.h"
#include "dct/ui/format.h"
#include "dct/ui/pdfreport.h"
#include "dct/ui/scenariodocument.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>

namespace dct::ui {

namespace {

QString tr(const char* text)
{
    return QCoreApplication::translate("dct::ui::ReportExport", text);
}

/** Returns the first error of \a diagnostics as "path: message", or "". */
QString firstError(const Diagnostics& diagnostics)
{
    for (const auto& d : diagnostics)
        if (d.severity == Severity::Error)
            return d.path.empty() ? qstr(d.message)
                                  : QStringLiteral("%1: %2").arg(qstr(d.path), qstr(d.message));
    return {};
}

} // namespace

QString exportReport(const QList<ScenarioDocument*>& documents, const QString& path)
{
    const QString shown = QDir::toNativeSeparators(path);
    const QString suffix = QFileInfo(path).suffix().toLower();
    const bool pdf = suffix == QLatin1String("pdf");
    if (!pdf && suffix != QLatin1String("html") && suffix != QLatin1String("htm"))
        return tr("%1: unknown report format (accepted: a file ending in .pdf, .html or .htm)")
            .arg(shown);
    if (documents.isEmpty())
        return tr("There is no scenario to report: open or create one first.");
    const auto catalog = CatalogProvider::catalog();
    if (!catalog)
        return tr("The catalog could not be read, so no scenario can be evaluated: %1")
            .arg(qstr(CatalogProvider::loadError()));
    try {
        std::vector<report::ReportScenario> scenarios;
        // Calibration profiles the scenarios name come from the library (DCT_STORE).
        solvers::EvaluateOptions options;
        options.calibrationProfile = store::calibrationLookup(store::ScenarioStore::defaultPath());
        for (ScenarioDocument* document : documents) {
            // The report names where the scenario came from: its file, else its title.
            const QString origin =
                document->filePath().isEmpty() ? document->title() : document->filePath();
            auto item = report::ReportScenario::fromJson(document->json(), *catalog,
                                                         origin.toStdString(), options);
            if (!item.usable())
                return tr("The scenario \"%1\" cannot be reported because it does not evaluate:"
                          "\n\n%2\n\nFix the fields the diagnostics name, then export again.")
                    .arg(document->title(), firstError(item.diagnostics));
            scenarios.push_back(std::move(item));
        }
        const report::ReportRenderer renderer(std::move(scenarios));
        const std::string problem = pdf ? writeReportPdf(renderer, path.toStdString())
                                        : renderer.writeHtml(path.toStdString());
        return qstr(problem);
    } catch (const std::exception& e) {
        return tr("%1: the report could not be written: %2")
            .arg(shown, QString::fromUtf8(e.what()));
    }
}

} // namespace dct::ui
