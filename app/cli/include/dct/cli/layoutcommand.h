#pragma once

#include "dct/cli/command.h"

#include <iosfwd>
#include <string>

namespace dct::cli {

/**
 * The `layout` subcommand: the hall of a scenario (rows, racks, network and MDA racks, the row
 * limits) and its cable bill (every link's medium, counts, lengths, power and cost), optionally
 * its floor plan as SVG.
 */
class LayoutCommand : public Command
{
public:
    /** Registers `layout` on \a app. */
    explicit LayoutCommand(CLI::App& app);

    /** Returns the `layout` subcommand. */
    CLI::App* subcommand() const override;
    /** Runs it and returns the exit code. */
    int run(const CommandContext& context, std::ostream& out, std::ostream& err) override;

private:
    CLI::App* m_command = nullptr;
    std::string m_file;
    std::string m_svgPath;
    std::string m_format = "text";
    std::string m_color = "kw";
};

} // namespace dct::cli
