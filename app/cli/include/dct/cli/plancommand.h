#pragma once

#include "dct/cli/command.h"

#include <iosfwd>
#include <string>
#include <vector>

namespace dct::cli {

/**
 * The `plan` subcommand: searches the parallel layouts of a scenario's training job (tensor,
 * pipeline, data, context and expert parallel, micro-batch, virtual stages, ZeRO stage,
 * recomputation) for the fastest that fit in GPU memory, and prints the best with their step
 * time, MFU, memory and where the step's time goes.
 */
class PlanCommand : public Command
{
public:
    /** Registers `plan` and its options on \a app. */
    explicit PlanCommand(CLI::App& app);

    /** Returns the `plan` subcommand. */
    CLI::App* subcommand() const override;
    /** Runs it and returns the exit code. */
    int run(const CommandContext& context, std::ostream& out, std::ostream& err) override;

private:
    CLI::App* m_command = nullptr;
    std::string m_file;
    std::string m_store;
    int m_top = 10;
    bool m_json = false;
    bool m_csv = false;
    bool m_quiet = false;
    bool m_progress = false;
    std::vector<int> m_tensorParallel;
    std::vector<int> m_pipelineParallel;
    std::vector<int> m_contextParallel;
    std::vector<int> m_expertParallel;
    std::vector<int> m_expertTensorParallel;
    std::vector<int> m_microBatchSize;
    std::vector<int> m_virtualStages;
    std::vector<int> m_zeroStage;
    std::vector<std::string> m_recompute;
    std::vector<std::string> m_a2aOverlap;
    int m_maxTensorParallel = 0;
    int m_maxContextParallel = 32;
    int m_maxMicroBatchSize = 8;
    double m_headroomGb = 0.0;
};

} // namespace dct::cli
