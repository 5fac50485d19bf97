#include "dct/cli/reportcommand.h"

#include "dct/cli/cli.h"
#include "dct/cli/scenariofile.h"
#include "dct/report/reportrenderer.h"

#include <CLI/CLI.hpp>
#include <algorithm>
#include <filesystem>
#include <ostream>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

extern char** environ;

namespace dct::cli {

namespace {

/** Returns dctwin-report beside this program, in the build tree's app/report, or "" for PATH. */
std::string rendererPath()
{
    std::error_code ec;
    const auto self = std::filesystem::read_symlink("/proc/self/exe", ec);
    if (!ec) {
        for (const auto& candidate :
             {self.parent_path() / "dctwin-report",
              self.parent_path().parent_path() / "report" / "dctwin-report"})
            if (std::filesystem::exists(candidate, ec))
                return candidate.string();
    }
    return {};
}

} // namespace

ReportCommand::ReportCommand(CLI::App& app)
{
    m_report =
        app.add_subcommand("report", "Render a PDF and/or HTML report of one scenario, or "
                                     "a comparison of several (the PDF through dctwin-report)");
    m_report->add_option("files", m_files, "Scenario JSON files")->required();
    m_report->add_option("--pdf", m_pdf, "Write the PDF report here");
    m_report->add_option("--html", m_html, "Write the self-contained HTML report here");
}

CLI::App* ReportCommand::subcommand() const
{
    return m_report;
}

int ReportCommand::run(const CommandContext& context, std::ostream& out, std::ostream& err)
{
    if (m_pdf.empty() && m_html.empty()) {
        err << "dctwin-cli: error: report: nothing to write (accepted: --pdf FILE and/or "
               "--html FILE)\n";
        return ExitUsage;
    }
    int code = ExitOk;
    if (!m_html.empty()) {
        // HTML is rendered here, in process: the report layer needs no Qt.
        auto catalog = loadCatalog(context.catalogDirectory, err);
        if (!catalog)
            return ExitUsage;
        std::vector<report::ReportScenario> scenarios;
        for (const auto& file : m_files) {
            auto item = report::ReportScenario::fromFile(file, *catalog);
            if (!item.usable()) {
                for (const auto& d : item.diagnostics)
                    err << d.toString() << "\n";
                return ExitUsage;
            }
            if (!item.evaluation.ok())
                code = ExitEvaluation;
            scenarios.push_back(std::move(item));
        }
        const report::ReportRenderer renderer(std::move(scenarios));
        if (auto problem = renderer.writeHtml(m_html); !problem.empty()) {
            err << "dctwin-cli: error: report: " << problem << "\n";
            return ExitUsage;
        }
    }
    if (m_pdf.empty())
        return code;
    // The PDF is printed by Qt (QTextDocument on QPdfWriter): dctwin-report does it, so that
    // this program stays Qt-free.
    const std::string found = rendererPath();
    std::vector<std::string> args = {found.empty() ? "dctwin-report" : found};
    args.insert(args.end(), m_files.begin(), m_files.end());
    for (const auto& [flag, value] : {std::pair<const char*, const std::string&>{"--pdf", m_pdf},
                                      {"--catalog", context.catalogDirectory}})
        if (!value.empty()) {
            args.push_back(flag);
            args.push_back(value);
        }
    std::vector<char*> argv;
    for (auto& a : args)
        argv.push_back(a.data());
    argv.push_back(nullptr);
    out.flush();
    pid_t pid = 0;
    const int spawned = found.empty()
                            ? ::posix_spawnp(&pid, argv[0], nullptr, nullptr, argv.data(), environ)
                            : ::posix_spawn(&pid, argv[0], nullptr, nullptr, argv.data(), environ);
    if (spawned != 0) {
        err << "dctwin-cli: error: report: cannot run dctwin-report for the PDF (accepted: "
               "dctwin-report installed beside dctwin-cli or on PATH; --html needs no Qt)\n";
        return ExitUsage;
    }
    int status = 0;
    if (::waitpid(pid, &status, 0) < 0 || !WIFEXITED(status)) {
        err << "dctwin-cli: error: report: dctwin-report stopped abnormally while writing " << m_pdf
            << "\n";
        return ExitUsage;
    }
    return std::max(code, WEXITSTATUS(status));
}

} // namespace dct::cli
