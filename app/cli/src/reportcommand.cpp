#include "dct/cli/reportcommand.h"

#include "dct/cli/cli.h"
#include "dct/cli/scenariofile.h"
#include "dct/model/textformat.h"
#include "dct/report/reportrenderer.h"
#include "dct/store/calibrationlookup.h"
#include "dct/store/scenariostore.h"

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
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

/** The most of dctwin-report's messages passed on: the end of a long log says what went wrong. */
constexpr off_t messagesTailBytes = 64 * 1024;

/** Returns the last messagesTailBytes of the file open as \a fd, ending in a line feed. */
std::string tailOf(int fd)
{
    const off_t size = ::lseek(fd, 0, SEEK_END);
    if (size <= 0)
        return {};
    const off_t start = std::max<off_t>(0, size - messagesTailBytes);
    std::string text(static_cast<std::size_t>(size - start), '\0');
    const ssize_t n = ::pread(fd, text.data(), text.size(), start);
    text.resize(n > 0 ? static_cast<std::size_t>(n) : 0);
    if (!text.empty() && text.back() != '\n')
        text += '\n';
    return (start > 0 ? "[... the first " + std::to_string(start) + " bytes left out]\n" : "") +
           text;
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
        // Calibration profiles the scenarios name come from the default library (DCT_STORE).
        solvers::EvaluateOptions options;
        options.calibrationProfile = store::calibrationLookup(store::ScenarioStore::defaultPath());
        for (const auto& file : m_files) {
            auto item = report::ReportScenario::fromFile(file, *catalog, options);
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
    // dctwin-report's messages go to a temporary file, then to \a err after it ends: whatever
    // happens to it (an error, a crash), the user reads it here.
    std::string messagesPath =
        (std::filesystem::temp_directory_path() / "dctwin-report-XXXXXX").string();
    const int messages = ::mkstemp(messagesPath.data());
    posix_spawn_file_actions_t actions;
    ::posix_spawn_file_actions_init(&actions);
    if (messages >= 0)
        ::posix_spawn_file_actions_adddup2(&actions, messages, STDERR_FILENO);
    pid_t pid = 0;
    const int spawned = found.empty()
                            ? ::posix_spawnp(&pid, argv[0], &actions, nullptr, argv.data(), environ)
                            : ::posix_spawn(&pid, argv[0], &actions, nullptr, argv.data(), environ);
    ::posix_spawn_file_actions_destroy(&actions);
    int status = 0;
    pid_t waited = -1;
    if (spawned == 0)
        do
            waited = ::waitpid(pid, &status, 0);
        while (waited < 0 && errno == EINTR);
    if (messages >= 0) {
        err << printableText(tailOf(messages), LineBreaks::Keep);
        ::close(messages);
        ::unlink(messagesPath.c_str());
    }
    if (spawned != 0) {
        err << "dctwin-cli: error: report: cannot run " << args[0] << " for the PDF ("
            << std::strerror(spawned)
            << "; accepted: dctwin-report installed beside dctwin-cli or on PATH; --html needs no "
               "Qt)\n";
        return ExitUsage;
    }
    if (waited < 0) {
        err << "dctwin-cli: error: report: lost track of dctwin-report while it wrote " << m_pdf
            << " (" << std::strerror(errno) << ")\n";
        return ExitUsage;
    }
    if (WIFSIGNALED(status)) {
        const int signalNumber = WTERMSIG(status);
        err << "dctwin-cli: error: report: dctwin-report was killed by signal " << signalNumber
            << " (" << ::strsignal(signalNumber) << ") while writing " << m_pdf
            << "; the PDF is missing or incomplete (its messages, if any, are above)\n";
        return ExitUsage;
    }
    const int exitCode = WIFEXITED(status) ? WEXITSTATUS(status) : ExitUsage;
    if (exitCode == ExitOk || exitCode == ExitEvaluation)
        return std::max(code, exitCode);
    err << "dctwin-cli: error: report: dctwin-report failed with exit code " << exitCode
        << " while writing " << m_pdf << " (its messages, if any, are above)\n";
    return ExitUsage;
}

} // namespace dct::cli
