#include "dct/cli/plancommand.h"

#include "dct/cli/cli.h"
#include "dct/cli/scenariofile.h"
#include "dct/model/jsonread.h"
#include "dct/model/textformat.h"
#include "dct/solvers/documentevaluation.h"
#include "dct/solvers/stepbreakdown.h"
#include "dct/store/calibrationlookup.h"
#include "dct/store/scenariostore.h"
#include "dct/study/layoutplanner.h"

#include <CLI/CLI.hpp>
#include <algorithm>
#include <chrono>
#include <cmath>
#include <fmt/format.h>
#include <nlohmann/json.hpp>
#include <ostream>
#include <unistd.h>

namespace dct::cli {

using nlohmann::json;

namespace {

/** Seconds with three significant digits, as the table shows them. */
std::string seconds(double s)
{
    if (s == 0.0)
        return "0";
    if (std::fabs(s) >= 100.0)
        return fmt::format("{:.0f}", s);
    if (std::fabs(s) >= 10.0)
        return fmt::format("{:.1f}", s);
    if (std::fabs(s) >= 1.0)
        return fmt::format("{:.2f}", s);
    return fmt::format("{:.3f}", s);
}

/** The experts' tensor size of \a l as the outputs print it: for a mixture of experts the size
 *  in effect, else \a none (a dense model has no experts to split). */
std::string expertTensorText(const study::LayoutChoice& l, bool moe, const char* none)
{
    return moe ? std::to_string(l.effectiveExpertTensorParallel()) : std::string(none);
}

json layoutJson(const study::LayoutChoice& l, bool moe)
{
    json j = {
        {"tensor_parallel", l.tensorParallel}, {"pipeline_parallel", l.pipelineParallel},
        {"data_parallel", l.dataParallel},     {"context_parallel", l.contextParallel},
        {"expert_parallel", l.expertParallel}, {"micro_batch_size", l.microBatchSize},
        {"virtual_stages", l.virtualStages},   {"pipeline_schedule", l.scheduleName()},
        {"zero_stage", l.zeroStage},           {"recompute", study::recomputeName(l.recompute)}};
    if (l.recompute == model::Recompute::Selective)
        j["recompute_modules"] = study::recomputeModuleList(l.recomputeModules);
    if (l.recompute == model::Recompute::Full)
        j["recompute_num_layers"] = l.recomputeNumLayers;
    if (l.activationOffloadLayers > 0)
        j["activation_offload_layers"] = l.activationOffloadLayers;
    if (moe) {
        j["expert_tensor_parallel"] = l.effectiveExpertTensorParallel();
        j["moe_a2a_overlap"] = l.a2aOverlap;
    }
    return j;
}

json outcomeJson(const study::LayoutOutcome& o, bool moe)
{
    json breakdown = json::object();
    for (const auto& part : solvers::stepBreakdown(o.compute))
        breakdown[part.key] = part.seconds;
    const auto& mem = o.compute.step.memory;
    return {{"layout", layoutJson(o.layout, moe)},
            {"step_seconds", o.compute.stepSeconds},
            {"layout_step_seconds", o.compute.step.stepSeconds},
            {"mfu", o.compute.step.mfu},
            {"training_days", o.compute.trainingDays},
            {"memory_gb", mem.totalGb},
            {"memory_capacity_gb", mem.capacityGb},
            {"memory",
             {{"weights_gb", mem.weightsGb},
              {"gradients_gb", mem.gradientsGb},
              {"optimizer_gb", mem.optimizerGb},
              {"activations_gb", mem.activationsGb},
              {"buffers_gb", mem.buffersGb},
              {"offloaded_gb", mem.offloadedGb}}},
            {"breakdown_seconds", breakdown}};
}

/** The table's columns of the breakdown, by stepBreakdown() key. */
struct Column
{
    const char* key;
    const char* head;
};
constexpr Column kColumns[] = {
    {"compute", "math"},        {"memory_bound", "elem"},  {"tensor_parallel", "TP"},
    {"context_parallel", "CP"}, {"expert_parallel", "EP"}, {"pipeline_sendrecv", "PP"},
    {"data_parallel", "DP"},    {"bubble", "bubble"},      {"optimizer", "optim"},
    {"stragglers", "strag"},
};

double partSeconds(const std::vector<solvers::StepPart>& parts, const char* key)
{
    for (const auto& p : parts)
        if (p.key == key)
            return p.seconds;
    return 0.0;
}

/** The EP column's width: a mixture of experts' holds "16 ovl" (the all-to-all overlapped). */
int expertWidth(bool moe)
{
    return moe ? 6 : 3;
}

std::string row(const std::string& rank, const study::LayoutOutcome& o, double reference, bool moe)
{
    const auto& l = o.layout;
    std::string s =
        fmt::format("{:>3} {:>3} {:>4} {:>5} {:>3} {:>{}} {:>3} {:>4} {:>4} {:>5}  {:<14}", rank,
                    l.tensorParallel, l.pipelineParallel, l.dataParallel, l.contextParallel,
                    l.expertLabel(), expertWidth(moe), expertTensorText(l, moe, "-"),
                    l.microBatchSize, l.scheduleLabel(), l.zeroStage, l.recomputeLabel());
    const double mfu = o.compute.step.mfu * 100.0;
    s += fmt::format("{:>8} {:>6} {:>7}", seconds(o.compute.stepSeconds),
                     fmt::format("{:.1f}%", mfu),
                     fmt::format("{:.1f}", o.compute.step.memory.totalGb));
    s += reference > 0.0
             ? fmt::format(" {:>7}",
                           fmt::format("{:+.1f}%", (o.compute.stepSeconds / reference - 1) * 100))
             : fmt::format(" {:>7}", "");
    const auto parts = solvers::stepBreakdown(o.compute);
    for (const auto& c : kColumns)
        s += fmt::format(" {:>6}", seconds(partSeconds(parts, c.key)));
    return s + "\n";
}

std::string header(bool moe)
{
    std::string s = fmt::format(
        "{:>3} {:>3} {:>4} {:>5} {:>3} {:>{}} {:>3} {:>4} {:>4} {:>5}  {:<14}", "#", "TP", "PP",
        "DP", "CP", "EP", expertWidth(moe), "ETP", "mbs", "v", "ZeRO", "recompute");
    s += fmt::format("{:>8} {:>6} {:>7} {:>7}", "step s", "MFU", "mem GB", "vs now");
    for (const auto& c : kColumns)
        s += fmt::format(" {:>6}", c.head);
    return s + "\n";
}

std::string csvHeader()
{
    std::string s =
        "rank,tensor_parallel,pipeline_parallel,data_parallel,context_parallel,"
        "expert_parallel,expert_tensor_parallel,micro_batch_size,virtual_stages,pipeline_schedule,"
        "zero_stage,recompute,recompute_modules,recompute_num_layers,activation_offload_layers,"
        "moe_a2a_overlap,step_seconds,mfu,memory_gb,offloaded_gb";
    for (const auto& c : kColumns)
        s += std::string(",") + c.key + "_seconds";
    return s + ",offload_seconds,overlap_contention_seconds,host_wait_seconds\n";
}

std::string csvRow(const std::string& rank, const study::LayoutOutcome& o, bool moe)
{
    const auto& l = o.layout;
    // The modules joined by '+' (a CSV field holds no comma unquoted); empty unless selective.
    std::string modules;
    if (l.recompute == model::Recompute::Selective)
        for (const auto& name : study::recomputeModuleList(l.recomputeModules))
            modules += (modules.empty() ? "" : "+") + name;
    std::string s = fmt::format(
        "{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{}", rank, l.tensorParallel,
        l.pipelineParallel, l.dataParallel, l.contextParallel, l.expertParallel,
        expertTensorText(l, moe, ""), l.microBatchSize, l.virtualStages, l.scheduleName(),
        l.zeroStage, study::recomputeName(l.recompute), modules,
        l.recompute == model::Recompute::Full ? std::to_string(l.recomputeNumLayers)
                                              : std::string(),
        l.activationOffloadLayers, moe ? (l.a2aOverlap ? "true" : "false") : "",
        formatExact(o.compute.stepSeconds), formatExact(o.compute.step.mfu),
        formatExact(o.compute.step.memory.totalGb), formatExact(o.compute.step.memory.offloadedGb));
    const auto parts = solvers::stepBreakdown(o.compute);
    for (const auto& c : kColumns)
        s += "," + formatExact(partSeconds(parts, c.key));
    return s + "," + formatExact(partSeconds(parts, "offload")) + "," +
           formatExact(partSeconds(parts, "overlap_contention")) + "," +
           formatExact(partSeconds(parts, "host_wait")) + "\n";
}

} // namespace

PlanCommand::PlanCommand(CLI::App& app)
{
    m_command = app.add_subcommand(
        "plan", "Search the parallel layouts of a scenario's training job for the fastest that "
                "fit in GPU memory");
    m_command->add_option("file", m_file, "Scenario JSON file")->required();
    m_command->add_option("-n,--top", m_top, "Layouts to print, fastest first (default 10)")
        ->check(CLI::Range(1, 1000));
    auto* jsonFlag = m_command->add_flag("--json", m_json, "Print JSON");
    m_command->add_flag("--csv", m_csv, "Print CSV, one row per layout")->excludes(jsonFlag);
    m_command->add_flag("-q,--quiet", m_quiet, "No progress bar and no summary");
    m_command->add_flag("--progress", m_progress,
                        "Show the progress bar even when stderr is not a terminal");
    m_command->add_option("--store", m_store,
                          "Scenario library of the calibration profile the scenario names");
    const auto positive = CLI::PositiveNumber;
    m_command
        ->add_option("--tp,--tensor-parallel", m_tensorParallel,
                     "Tensor-parallel sizes to try (default: divisors of the heads within "
                     "the scale-up domain)")
        ->check(positive)
        ->delimiter(',');
    m_command
        ->add_option("--pp,--pipeline-parallel", m_pipelineParallel,
                     "Pipeline-parallel sizes to try (default: divisors of the layers)")
        ->check(positive)
        ->delimiter(',');
    m_command
        ->add_option("--cp,--context-parallel", m_contextParallel,
                     "Context-parallel sizes to try (default: 1, 2, 4 ... --max-cp)")
        ->check(positive)
        ->delimiter(',');
    m_command
        ->add_option("--ep,--expert-parallel", m_expertParallel,
                     "Expert-parallel sizes to try (default: divisors of the experts)")
        ->check(positive)
        ->delimiter(',');
    m_command
        ->add_option("--etp,--expert-tensor-parallel", m_expertTensorParallel,
                     "Experts' tensor-parallel sizes to try (default: the scenario's, else the "
                     "tensor size and 1 for a mixture of experts)")
        ->check(positive)
        ->delimiter(',');
    m_command
        ->add_option("--mbs,--micro-batch-size", m_microBatchSize,
                     "Micro-batch sizes to try (default: 1, 2, 4 ... --max-mbs)")
        ->check(positive)
        ->delimiter(',');
    m_command
        ->add_option("--vp,--virtual-stages", m_virtualStages,
                     "Virtual pipeline stages to try (default: every divisor of the layers "
                     "per stage)")
        ->check(positive)
        ->delimiter(',');
    m_command->add_option("--zero,--zero-stage", m_zeroStage, "ZeRO stages to try (default 0-3)")
        ->check(CLI::Range(0, 3))
        ->delimiter(',');
    m_command
        ->add_option("--recompute", m_recompute,
                     "Recomputation to try: none (and, with one stage, activation offloading "
                     "to host memory), selective (the light modules, and the attention where it "
                     "is not fused), full (over part of each chunk's layers and all of them) "
                     "(default: all)")
        ->check(CLI::IsMember({"none", "selective", "full"}))
        ->delimiter(',');
    m_command
        ->add_option("--a2a-overlap", m_a2aOverlap,
                     "The expert all-to-all overlap (moe_a2a_overlap) to try for a mixture of "
                     "experts: off, on (where the layout allows it: expert parallelism, virtual "
                     "stages when pipelined, no full or moe recomputation) (default: both)")
        ->check(CLI::IsMember({"off", "on"}))
        ->delimiter(',');
    m_command
        ->add_option(
            "--max-tp", m_maxTensorParallel,
            "Largest tensor-parallel size (default: the GPUs of an NVLink domain: a node, or the "
            "domain where NVLink spans nodes)")
        ->check(positive);
    m_command
        ->add_option("--max-cp", m_maxContextParallel, "Largest context-parallel size (default 32)")
        ->check(positive);
    m_command->add_option("--max-mbs", m_maxMicroBatchSize, "Largest micro-batch (default 8)")
        ->check(positive);
    m_command
        ->add_option("--headroom-gb", m_headroomGb,
                     "GB of GPU memory every layout must leave free (default 0)")
        ->check(CLI::NonNegativeNumber);
}

CLI::App* PlanCommand::subcommand() const
{
    return m_command;
}

int PlanCommand::run(const CommandContext& context, std::ostream& out, std::ostream& err)
{
    auto catalog = loadCatalog(context.catalogDirectory, err);
    if (!catalog)
        return ExitUsage;
    solvers::EvaluateOptions evaluateOptions;
    evaluateOptions.calibrationProfile = store::calibrationLookup(
        m_store.empty() ? store::ScenarioStore::defaultPath() : std::filesystem::path(m_store));
    const solvers::DocumentEvaluation document =
        solvers::evaluateDocumentFile(m_file, *catalog, evaluateOptions);
    if (!document.resolved) {
        for (const auto& d : document.diagnostics)
            err << d.toString() << "\n";
        return ExitUsage;
    }

    study::LayoutPlanOptions options;
    options.top = m_top;
    options.memoryHeadroomGb = m_headroomGb;
    auto& space = options.space;
    space.tensorParallel = m_tensorParallel;
    space.pipelineParallel = m_pipelineParallel;
    space.contextParallel = m_contextParallel;
    space.expertParallel = m_expertParallel;
    space.expertTensorParallel = m_expertTensorParallel;
    space.microBatchSize = m_microBatchSize;
    space.virtualStages = m_virtualStages;
    space.zeroStage = m_zeroStage;
    for (const auto& r : m_recompute)
        space.recompute.push_back(r == "none"   ? model::Recompute::None
                                  : r == "full" ? model::Recompute::Full
                                                : model::Recompute::Selective);
    for (const auto& o : m_a2aOverlap)
        space.moeA2aOverlap.push_back(o == "on");
    space.maxTensorParallel = m_maxTensorParallel;
    space.maxContextParallel = m_maxContextParallel;
    space.maxMicroBatchSize = m_maxMicroBatchSize;

    const bool bar = !m_quiet && (m_progress || ::isatty(STDERR_FILENO));
    if (bar)
        options.progress = [&](std::uint64_t done, std::uint64_t total) {
            const double share =
                total ? static_cast<double>(done) / static_cast<double>(total) : 1.0;
            constexpr int width = 30;
            const int filled = static_cast<int>(share * width);
            err << "\r[" << std::string(static_cast<std::size_t>(filled), '#')
                << std::string(static_cast<std::size_t>(width - filled), '.') << "] "
                << fmt::format("{:5.1f}%  {}/{} layouts   ", share * 100.0, done, total)
                << std::flush;
        };
    study::LayoutPlan plan = study::planLayouts(*document.resolved, options);
    if (bar)
        err << "\n";
    plan.diagnostics.setFile(m_file);
    for (const auto& d : plan.diagnostics)
        err << d.toString() << "\n";
    if (plan.best.empty())
        return ExitEvaluation;

    const auto& r = *document.resolved;
    const double reference = plan.hasCurrent && plan.currentFits ? plan.current.stepSeconds() : 0.0;
    if (!m_quiet)
        err << fmt::format("plan: {} layouts in {:.2f} s: {} skipped by the memory bound, {} "
                           "dominated, {} over memory, {} timed\n",
                           plan.candidates, plan.seconds, plan.prunedByMemoryBound,
                           plan.prunedAsDominated, plan.overflowing, plan.evaluated);
    const bool moe = plan.mixtureOfExperts;
    if (m_json) {
        json layouts = json::array();
        for (std::size_t i = 0; i < plan.best.size(); ++i) {
            json entry = outcomeJson(plan.best[i], moe);
            entry["rank"] = i + 1;
            json fields = json::object();
            for (const auto& [pointer, value] :
                 study::layoutFields(r.scenario.workload, plan.best[i].layout))
                fields[pointer] = json::parse(value);
            entry["fields"] = fields;
            layouts.push_back(entry);
        }
        json doc = {{"file", m_file},
                    {"scenario", r.scenario.name},
                    {"gpus", r.gpuCount()},
                    {"model", r.model.id},
                    {"search",
                     {{"layouts", plan.candidates},
                      {"skipped_by_memory_bound", plan.prunedByMemoryBound},
                      {"dominated", plan.prunedAsDominated},
                      {"over_memory", plan.overflowing},
                      {"timed", plan.evaluated},
                      {"seconds", plan.seconds}}},
                    {"layouts", layouts}};
        if (plan.hasCurrent) {
            doc["current"] = outcomeJson(plan.current, moe);
            doc["current"]["fits"] = plan.currentFits;
        }
        out << model::jsonText(doc) << "\n";
        return ExitOk;
    }
    if (m_csv) {
        out << csvHeader();
        if (plan.hasCurrent)
            out << csvRow("current", plan.current, moe);
        for (std::size_t i = 0; i < plan.best.size(); ++i)
            out << csvRow(std::to_string(i + 1), plan.best[i], moe);
        return ExitOk;
    }
    out << fmt::format("{}\n", printableText(r.scenario.name));
    out << fmt::format("{} on {} x {} ({} a node), global batch {} x {} tokens\n",
                       r.model.id.empty() ? "synthesized model" : r.model.id, r.gpuCount(),
                       r.gpu.id, r.gpusPerNode, r.scenario.workload.globalBatchSequences,
                       r.sequenceLength);
    out << "Fastest layouts that fit (step time with stragglers; parts in seconds per step)\n\n";
    out << header(moe);
    if (plan.hasCurrent)
        out << row("now", plan.current, 0.0, moe).substr(0, std::string::npos)
            << (plan.currentFits ? "" : "    (the current layout does not fit in memory)\n");
    for (std::size_t i = 0; i < plan.best.size(); ++i)
        out << row(std::to_string(i + 1), plan.best[i], reference, moe);
    const auto overlapped = [](const study::LayoutOutcome& o) { return o.layout.a2aOverlap; };
    if (std::any_of(plan.best.begin(), plan.best.end(), overlapped) ||
        (plan.hasCurrent && overlapped(plan.current)))
        out << "\nEP \"ovl\": the expert all-to-all overlapped with the other micro-batch's "
               "computation (moe_a2a_overlap).\n";
    // The fields to set for the best, as the scenario file spells them, wrapped at 100 columns.
    out << "\nTo apply #1, set in \"workload\":\n";
    std::string line = " ";
    for (const auto& [pointer, value] :
         study::layoutFields(r.scenario.workload, plan.best.front().layout)) {
        const std::string item = " \"" + pointer.substr(pointer.rfind('/') + 1) + "\": " + value;
        if (line.size() + item.size() + 1 > 100) {
            out << line << "\n";
            line = " ";
        }
        line += item + ",";
    }
    line.pop_back();
    out << line << "\n";
    return ExitOk;
}

} // namespace dct::cli
