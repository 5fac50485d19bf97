#pragma once

#include "dct/cli/command.h"

#include <string>
#include <vector>

namespace dct::cli {

/**
 * The `calibrate nccl-tests` subcommand: reads nccl-tests logs of the system a scenario
 * describes, fits the collectives engine's free parameters to them, prints the factors and the
 * residual of every size, and stores the fit as a calibration profile in the scenario library.
 * Exit code 2 when a log or the scenario cannot be read or does not match, 0 otherwise.
 */
class CalibrateCommand : public Command
{
public:
    /** Registers `calibrate` and its `nccl-tests` subcommand on \a app. */
    explicit CalibrateCommand(CLI::App& app);

    /** Returns the `calibrate` subcommand. */
    CLI::App* subcommand() const override;
    /** Runs it and returns the exit code. */
    int run(const CommandContext& context, std::ostream& out, std::ostream& err) override;

private:
    CLI::App* m_subcommand = nullptr;
    CLI::App* m_ncclTests = nullptr;
    std::vector<std::string> m_logs;
    std::string m_scenario;
    std::string m_name;
    std::string m_store;
    std::string m_format = "text";
    std::string m_ncclChoice = "engine";
};

} // namespace dct::cli
