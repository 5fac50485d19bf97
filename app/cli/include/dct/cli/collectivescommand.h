#pragma once

#include <iosfwd>
#include <string>

namespace CLI {
class App;
}

namespace dct::cli {

/**
 * The `collectives` subcommand: the time, algorithm bandwidth and bus bandwidth of one
 * collective over every GPU of a scenario, from 8 B to 16 GiB in powers of two, as nccl-tests
 * prints them, from the network solver's alpha-beta model.
 */
class CollectivesCommand
{
public:
    /** Registers `collectives` on \a app. */
    explicit CollectivesCommand(CLI::App& app);

    /** Returns true when the command line chose `collectives`. */
    bool parsed() const;
    /** Runs it; \a catalogDir is the --catalog option (may be empty). Returns the exit code. */
    int run(const std::string& catalogDir, std::ostream& out, std::ostream& err);

private:
    CLI::App* m_command = nullptr;
    std::string m_file;
    std::string m_op = "all_reduce";
    std::string m_algorithm = "best";
    std::string m_format = "table";
};

} // namespace dct::cli
