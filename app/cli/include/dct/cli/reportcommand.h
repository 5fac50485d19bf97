#pragma once

#include <iosfwd>
#include <string>
#include <vector>

namespace CLI {
class App;
}

namespace dct::cli {

/**
 * The `report` subcommand: hands the files to dctwin-report (the Qt-linked renderer, found
 * beside dctwin-cli, in the build tree or on PATH), so that dctwin-cli itself needs no Qt.
 */
class ReportCommand
{
public:
    /** Registers `report` on \a app. */
    explicit ReportCommand(CLI::App& app);

    /** Returns true when the command line chose `report`. */
    bool parsed() const;
    /** Runs dctwin-report and returns its exit code. */
    int run(const std::string& catalogDir, std::ostream& out, std::ostream& err);

private:
    CLI::App* m_report = nullptr;
    std::vector<std::string> m_files;
    std::string m_pdf;
    std::string m_html;
};

} // namespace dct::cli
