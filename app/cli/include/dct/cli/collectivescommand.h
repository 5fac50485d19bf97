#pragma once

#include "dct/cli/command.h"

#include <iosfwd>
#include <string>

namespace dct::cli {

/**
 * The `collectives` subcommand: the time, algorithm bandwidth and bus bandwidth of one
 * collective over every GPU of a scenario, from 8 B to 16 GiB in powers of two, as nccl-tests
 * prints them, from the network solver's alpha-beta model.
 */
class CollectivesCommand : public Command
{
public:
    /** Registers `collectives` on \a app. */
    explicit CollectivesCommand(CLI::App& app);

    /** Returns the `collectives` subcommand. */
    CLI::App* subcommand() const override;
    /** Runs it and returns the exit code. */
    int run(const CommandContext& context, std::ostream& out, std::ostream& err) override;

private:
    CLI::App* m_command = nullptr;
    std::string m_file;
    std::string m_op = "all_reduce";
    std::string m_algorithm = "best";
    std::string m_format = "table";
};

} // namespace dct::cli
