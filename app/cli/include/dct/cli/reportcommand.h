#pragma once

#include "dct/cli/command.h"

#include <iosfwd>
#include <string>
#include <vector>

namespace dct::cli {

/**
 * The `report` subcommand: hands the files to dctwin-report (the Qt-linked renderer, found
 * beside dctwin-cli, in the build tree or on PATH), so that dctwin-cli itself needs no Qt.
 */
class ReportCommand : public Command
{
public:
    /** Registers `report` on \a app. */
    explicit ReportCommand(CLI::App& app);

    /** Returns the `report` subcommand. */
    CLI::App* subcommand() const override;
    /** Writes the HTML in process and the PDF through dctwin-report; returns the exit code. */
    int run(const CommandContext& context, std::ostream& out, std::ostream& err) override;

private:
    CLI::App* m_report = nullptr;
    std::vector<std::string> m_files;
    std::string m_pdf;
    std::string m_html;
};

} // namespace dct::cli
