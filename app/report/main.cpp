// dctwin-report: renders a scenario report (one file) or a comparison (several) as PDF and/or
// self-contained HTML, headless. Kept apart from dctwin-cli so that the batch program needs no Qt;
// the HTML and the PDF body come from report/ (dct_report), the PDF is printed by ui/ (dct_pdf),
// both shared with the desktop's "Export report".
#include "dct/model/catalog.h"
#include "dct/report/reportrenderer.h"
#include "dct/store/calibrationlookup.h"
#include "dct/store/scenariostore.h"
#include "dct/ui/pdfreport.h"

#include <CLI/CLI.hpp>
#include <QGuiApplication>
#include <cstdlib>
#include <iostream>
#include <string>

int main(int argc, char** argv)
{
    CLI::App app{"Render a DC Twin report (one scenario) or comparison (several) as PDF/HTML."};
    app.name("dctwin-report");
    app.set_version_flag("--version", std::string("dctwin-report ") + DCT_VERSION);
    std::vector<std::string> files;
    std::string pdf, html, catalogDir;
    app.add_option("files", files, "Scenario JSON files")->required();
    app.add_option("--pdf", pdf, "Write the PDF report here");
    app.add_option("--html", html, "Write the self-contained HTML report here");
    app.add_option("--catalog", catalogDir, "Catalog folder (default: the bundled data)");
    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
        return app.exit(e) == 0 ? 0 : 2;
    }
    if (pdf.empty() && html.empty()) {
        std::cerr << "dctwin-report: error: nothing to write (accepted: --pdf FILE and/or "
                     "--html FILE)\n";
        return 2;
    }
    // Headless: render without a display unless the user chose a platform.
    if (!std::getenv("QT_QPA_PLATFORM"))
        ::setenv("QT_QPA_PLATFORM", "offscreen", 1);
    QGuiApplication qt(argc, argv);

    auto catalog =
        dct::model::Catalog::load(catalogDir.empty() ? dct::model::Catalog::defaultDirectory()
                                                     : std::filesystem::path(catalogDir));
    if (!catalog) {
        std::cerr << "dctwin-report: error: " << catalog.error().toString() << "\n";
        return 2;
    }
    int code = 0;
    std::vector<dct::report::ReportScenario> scenarios;
    // Calibration profiles the scenarios name come from the default library (DCT_STORE).
    dct::solvers::EvaluateOptions options;
    options.calibrationProfile =
        dct::store::calibrationLookup(dct::store::ScenarioStore::defaultPath());
    for (const auto& file : files) {
        auto item = dct::report::ReportScenario::fromFile(file, *catalog, options);
        if (!item.usable()) {
            for (const auto& d : item.diagnostics)
                std::cerr << d.toString() << "\n";
            return 2;
        }
        if (!item.evaluation.ok())
            code = 1;
        scenarios.push_back(std::move(item));
    }
    const dct::report::ReportRenderer renderer(std::move(scenarios));
    if (!html.empty())
        if (auto problem = renderer.writeHtml(html); !problem.empty()) {
            std::cerr << "dctwin-report: error: " << problem << "\n";
            return 2;
        }
    if (!pdf.empty())
        if (auto problem = dct::ui::writeReportPdf(renderer, pdf); !problem.empty()) {
            std::cerr << "dctwin-report: error: " << problem << "\n";
            return 2;
        }
    return code;
}
