#include "dct/solvers/evaluator.h"

#include "dct/model/validator.h"
#include "dct/solvers/computesolver.h"
#include "dct/solvers/coolingsolver.h"
#include "dct/solvers/costsolver.h"
#include "dct/solvers/egresssolver.h"
#include "dct/solvers/facilitymetrics.h"
#include "dct/solvers/goodputmetrics.h"
#include "dct/solvers/goodputsolver.h"
#include "dct/solvers/gridsolver.h"
#include "dct/solvers/hallayout.h"
#include "dct/solvers/hallmetrics.h"
#include "dct/solvers/memokey.h"
#include "dct/solvers/networkmetrics.h"
#include "dct/solvers/networksolver.h"
#include "dct/solvers/powersolver.h"
#include "dct/solvers/redundancymetrics.h"
#include "dct/solvers/stepmetrics.h"

#include <algorithm>
#include <cmath>
#include <string>

namespace dct::solvers {

/**
 * Returns whether \a a and \a b have the same site but for what only the grid's prices and
 * carbon read (electricity price, tariff, carbon intensity and its monthly and hourly shape): the
 * same location, elevation and climate give the same cooling year.
 */
bool sameClimate(const model::SiteSpec& a, const model::SiteSpec& b)
{
    if (a == b)
        return true;
    model::SiteSpec priced = b;
    priced.electricityPriceUsdPerKwh = a.electricityPriceUsdPerKwh;
    priced.carbonKgPerKwh = a.carbonKgPerKwh;
    priced.carbonMonthFactors = a.carbonMonthFactors;
    priced.carbonHourFactors = a.carbonHourFactors;
    priced.tariff = a.tariff;
    return a == priced;
}

/**
 * Every input the site-year part of an evaluation reads: the thermal loop, the power chain, the
 * cooling plant over the site's year, the hall's racks against their feeds, the redundancy of the
 * plant and the PUE of every cooling option. Its IT load is the cluster's (compute, storage,
 * facility and cooling sections, GPU, node and cooling system) plus the fabric's power; its
 * climate is the site's but for the prices (sameClimate); the hall it checks is the one laid out
 * last (its layout count). None reads the workload or the prices.
 */
struct SiteYearInputs
{
    model::ComputeSection compute;
    model::StorageSection storage;
    model::FacilitySection facility;
    model::CoolingSection cooling;
    model::HallSection hall;
    model::GpuSpec gpu;
    model::NodeSpec node;
    model::SwitchSpec fabricSwitch;
    model::CoolingSystemSpec coolingSystem;
    int gpusPerNode = 0;
    double networkPowerKw = 0.0;
    long long hallLayouts = -1;
    bool hallValid = false;
    model::SiteSpec site;
    std::vector<model::CoolingSystemSpec> coolingOptions;
    std::vector<model::PlantUnitSpec> plantUnits;
    int maxIterations = 0;
    double tolerance = 0.0;

    bool sameAs(const model::ResolvedScenario& r, const EvaluateOptions& o,
                const PowerInputs& power, const NetworkResult& net, long long layouts) const
    {
        const model::Scenario& s = r.scenario;
        return maxIterations == o.maxIterations && tolerance == o.tolerance &&
               networkPowerKw == power.networkPowerKw && hallLayouts == layouts &&
               hallValid == net.hall.valid && gpusPerNode == r.gpusPerNode &&
               compute == s.compute && storage == s.storage && facility == s.facility &&
               cooling == s.cooling && hall == s.hall && gpu == r.gpu && node == r.node &&
               fabricSwitch == r.fabricSwitch && coolingSystem == r.cooling &&
               sameClimate(site, r.site) && plantUnits == r.plantUnits &&
               coolingOptions == r.coolingOptions;
    }
    void assign(const model::ResolvedScenario& r, const EvaluateOptions& o,
                const PowerInputs& power, const NetworkResult& net, long long layouts)
    {
        const model::Scenario& s = r.scenario;
        assignKey(compute, s.compute);
        assignKey(storage, s.storage);
        assignKey(facility, s.facility);
        assignKey(cooling, s.cooling);
        assignKey(hall, s.hall);
        assignKey(gpu, r.gpu);
        assignKey(node, r.node);
        assignKey(fabricSwitch, r.fabricSwitch);
        assignKey(coolingSystem, r.cooling);
        gpusPerNode = r.gpusPerNode;
        networkPowerKw = power.networkPowerKw;
        hallLayouts = layouts;
        hallValid = net.hall.valid;
        assignKey(site, r.site);
        assignKey(coolingOptions, r.coolingOptions);
        assignKey(plantUnits, r.plantUnits);
        maxIterations = o.maxIterations;
        tolerance = o.tolerance;
    }
};

/** What evaluate() keeps in a reused Evaluation (EvaluationMemoSlot). */
struct EvaluationMemo
{
    /** The fabric part of Evaluation::network (plan, topology, the hall as a stage of its own,
     *  the reported collectives). */
    FabricMemo fabric;
    /** The site-year part (coupling, power, cooling over the year, the hall's checks,
     *  redundancy, cooling options), keyed on its own inputs. */
    bool facilityValid = false;
    SiteYearInputs facility;
    std::vector<Diagnostic> facilityDiagnostics;
    double clock = 1.0;
    CouplingInfo coupling;
    /** The grid (tariff, carbon) over the kept year: valid with the site it was solved for. */
    bool gridValid = false;
    model::SiteSpec gridSite;
    bool fabricKept = false;   ///< By the last evaluation.
    bool facilityKept = false; ///< By the last evaluation.
    bool gridKept = false;     ///< By the last evaluation.
};

EvaluationMemoSlot::EvaluationMemoSlot() noexcept = default;
EvaluationMemoSlot::~EvaluationMemoSlot() = default;
EvaluationMemoSlot::EvaluationMemoSlot(const EvaluationMemoSlot&) noexcept {}
EvaluationMemoSlot& EvaluationMemoSlot::operator=(const EvaluationMemoSlot&) noexcept
{
    // The figures copied in are not the ones this memo describes.
    clear();
    return *this;
}
EvaluationMemoSlot::EvaluationMemoSlot(EvaluationMemoSlot&&) noexcept = default;
EvaluationMemoSlot& EvaluationMemoSlot::operator=(EvaluationMemoSlot&&) noexcept = default;

EvaluationMemo& EvaluationMemoSlot::get()
{
    if (!m_memo)
        m_memo = std::make_unique<EvaluationMemo>();
    return *m_memo;
}

void EvaluationMemoSlot::clear() noexcept
{
    if (m_memo) {
        m_memo->fabric.clear();
        m_memo->facilityValid = false;
        m_memo->gridValid = false;
        m_memo->fabricKept = false;
        m_memo->facilityKept = false;
        m_memo->gridKept = false;
    }
}

bool EvaluationMemoSlot::fabricKept() const noexcept
{
    return m_memo && m_memo->fabricKept;
}

bool EvaluationMemoSlot::facilityKept() const noexcept
{
    return m_memo && m_memo->facilityKept;
}

bool EvaluationMemoSlot::hallKept() const noexcept
{
    return m_memo && m_memo->fabric.hallKept();
}

bool EvaluationMemoSlot::gridKept() const noexcept
{
    return m_memo && m_memo->gridKept;
}

bool EvaluationMemoSlot::collectivesKept() const noexcept
{
    return m_memo && m_memo->fabric.collectivesKept();
}

long long EvaluationMemoSlot::hallLayouts() const noexcept
{
    return m_memo ? m_memo->fabric.hallLayouts() : 0;
}

namespace {

/** About as many metrics as an evaluation has (308 for the 16k-GPU example), reserved once: a
 *  fresh evaluation then grows its list without moving it. */
constexpr std::size_t kTypicalMetricCount = 336;

void addComputeMetrics(Evaluation& e)
{
    const ComputeResult& c = e.compute;
    const MetricInputs work =
        metricInputs<"/workload/model", "/workload/parameters_billion", "/workload/tokens_billion",
                     "/workload/mfu", "/workload/tensor_parallel", "/workload/pipeline_parallel",
                     "/compute/gpu/peak_tflops_bf16", "/compute/gpu/matmul_efficiency",
                     "/compute/gpu/matmul_efficiency_fp8", "/compute/node_count", "/network">();
    e.add("compute.gpus", "GPUs", c.gpuCount, "", MetricTraits{Better::Neither, 1},
          metricInputs<"/compute/node_count", "/compute/node">());
    e.add("compute.peak_tflops_per_gpu", "Peak per GPU", c.peakTflopsPerGpu, "TFLOP/s",
          Better::Higher, metricInputs<"/compute/gpu", "/workload/precision">());
    e.add("compute.cluster_peak_pflops", "Cluster peak", c.clusterPeakPflops, "PFLOP/s",
          Better::Higher,
          metricInputs<"/compute/gpu", "/compute/node_count", "/workload/precision">());
    e.add("compute.training_flops", "Training compute (model FLOPs)", c.trainingFlops, "FLOP",
          Better::Neither,
          metricInputs<"/workload/model", "/workload/parameters_billion",
                       "/workload/tokens_billion", "/workload/sequence_length">());
    e.add("compute.tokens_per_step", "Tokens per step", c.tokensPerStep, "", Better::Neither,
          metricInputs<"/workload/sequence_length", "/workload/global_batch_sequences">());
    e.add("compute.steps", "Optimizer steps", c.steps, "", Better::Neither,
          metricInputs<"/workload/tokens_billion">());
    e.add("compute.compute_seconds_per_step",
          "Compute per step (math, element-wise, bubble, optimizer)", c.computeSecondsPerStep, "s",
          Better::Lower, work);
    e.add("compute.allreduce_seconds_per_step", "Gradient all-reduce per step",
          c.allReduceSecondsPerStep, "s", Better::Lower,
          metricInputs<"/network", "/workload/tensor_parallel">());
    e.add("compute.exposed_comm_seconds_per_step", "Exposed communication per step",
          c.exposedCommSecondsPerStep, "s", Better::Lower,
          metricInputs<"/workload/overlap_fraction">());
    e.add("compute.straggler_seconds_per_step", "Straggler loss per step",
          c.stragglerSecondsPerStep, "s", Better::Lower,
          metricInputs<"/workload/jitter_cv", "/workload/virtualized">());
    e.add("compute.step_seconds", "Step time (the layout's step + stragglers)", c.stepSeconds, "s",
          Better::Lower, work);
    e.add("compute.clock_factor", "GPU clock factor (temperature and power limit)", c.clockFactor,
          "", Better::Higher, metricInputs<"/cooling", "/compute/gpu_power_limit_w">());
    e.add("compute.mfu", c.mfuOverride ? "MFU (set by /workload/mfu)" : "MFU (predicted)", c.mfu,
          "share", Better::Higher, work);
    e.add("compute.ideal_training_days", "Training time at MFU (FLOPs / GPUs x peak x MFU)",
          c.idealTrainingDays, "days", Better::Lower, work);
    e.add("compute.training_days", "Training time", c.trainingDays, "days",
          MetricTraits{Better::Lower, 2}, work);
    e.add("compute.gpu_hours", "GPU-hours", c.gpuHours, "h", Better::Lower, work);
    e.add("compute.effective_mfu", "Effective MFU", c.effectiveMfu, "share", Better::Higher, work);
    e.add("compute.tokens_per_second", "Throughput", c.tokensPerSecond, "tokens/s", Better::Higher,
          work);
    e.add("compute.checkpoint_gb", "Checkpoint size", c.checkpointGb, "GB", Better::Neither,
          metricInputs<"/workload/model", "/workload/parameters_billion",
                       "/workload/checkpoint_bytes_per_parameter">());
    e.add("compute.checkpoint_write_seconds", "Checkpoint write time", c.checkpointWriteSeconds,
          "s", Better::Lower, metricInputs<"/storage/write_gbyte_per_s">());
    e.add("compute.dataloader_gbyte_per_s", "Data loader read bandwidth", c.dataLoaderGbytePerS,
          "GB/s", Better::Neither, metricInputs<"/workload/sample_bytes_per_token">());
    e.add("compute.dataloader_iops", "Data loader read IOPS", c.dataLoaderIops, "IOPS",
          Better::Neither, metricInputs<"/workload/read_size_kb", "/storage/read_iops">());
}

/**
 * Solves the site-year part of an evaluation into \a e: the thermal loop, then power, cooling over
 * the site's year, the hall's racks against their feeds, redundancy and every cooling option
 * (the grid is solved on them after: solveGrid). Reads the fabric in e.network; returns the
 * clock factor the loop settled at.
 */
double solveFacility(const model::ResolvedScenario& r, Evaluation& e, PowerInputs powerInputs,
                     const EvaluateOptions& options)
{
    // The thermal loop: GPU clock -> power drawn -> heat -> rack and coolant temperatures -> the
    // clock those temperatures allow. Fixed-point iteration on the clock factor; the relaxation
    // is halved whenever the update changes sign, so that an overshooting loop settles. The
    // residual is the undamped change, so damping alone never passes for convergence.
    e.coupling.tolerance = options.tolerance;
    e.coupling.converged = false;
    // The GPUs' power limit caps the clock before any temperature does.
    const double limitClock = powerLimitClockFactor(r);
    double clock = limitClock;
    double relaxation = 1.0;
    double lastStep = 0.0;
    const int maxIterations = std::max(1, options.maxIterations);
    for (int i = 1; i <= maxIterations; ++i) {
        // Diagnostics come from the final pass only, and the clock needs only the rack
        // temperatures, not the plant over the year.
        powerInputs.clockFactor = clock;
        const PowerResult p = solvePower(r, powerInputs);
        const double step =
            std::min(coolingThrottle(r, r.cooling, p).clockFactor, limitClock) - clock;
        e.coupling.iterations = i;
        e.coupling.residual = std::fabs(step);
        if (std::fabs(step) <= options.tolerance) {
            e.coupling.converged = true;
            break;
        }
        if (lastStep * step < 0.0)
            relaxation *= 0.5;
        lastStep = step;
        clock = std::clamp(clock + relaxation * step, 0.0, 1.0);
    }
    if (!e.coupling.converged)
        e.diagnostics.warning("/cooling/system",
                              "the thermal loop (clock -> power -> temperature -> clock) did not "
                              "settle in " +
                                  std::to_string(maxIterations) +
                                  " iterations; last clock change " +
                                  std::to_string(e.coupling.residual),
                              "GPUs likely cycle in and out of thermal slowdown: cool the racks "
                              "better, or raise EvaluateOptions::maxIterations",
                              "coupling-not-converged");
    powerInputs.clockFactor = clock;
    e.power = solvePower(r, powerInputs, e.diagnostics);
    e.cooling = solveCooling(r, r.cooling, e.power, e.diagnostics);
    e.power = completeFacilityPower(r, e.power, e.cooling);
    checkHall(e.network.hall, r, e.power, e.diagnostics);
    e.cooling.pue = e.power.pue;
    e.redundancy = solveRedundancy(r, e.power, e.cooling);
    {
        // Every cooling option for the same cluster at full clocks (those its GPUs' power limit
        // allows), for side-by-side charts.
        PowerInputs design = powerInputs;
        design.clockFactor = limitClock;
        e.coolingOptions = coolingOptionPues(r, solvePower(r, design));
    }
    return clock;
}

} // namespace

namespace {

/** Evaluates \a r into \a e; with \a memo, keeps the parts whose inputs did not change. */
void evaluateInto(const model::ResolvedScenario& r, Evaluation& e, const EvaluateOptions& options,
                  EvaluationMemo* memo)
{
    e.scenarioName = r.scenario.name;
    e.restartMetrics();
    e.coupling = CouplingInfo{};
    e.diagnostics = model::validateScenario(r);
    // A scenario naming a calibration profile is evaluated with it or not at all: callers that
    // resolve scenarios themselves (sweeps) have not looked it up (documentevaluation.cpp does).
    if (!r.scenario.network.calibrationProfile.empty() &&
        r.appliedCalibrationProfile != r.scenario.network.calibrationProfile)
        e.diagnostics.error("/network/calibration_profile",
                            "names the calibration profile '" +
                                r.scenario.network.calibrationProfile +
                                "', but this evaluation did not look it up in a scenario library",
                            "evaluate it with eval, store eval, compare or report, or leave "
                            "calibration_profile empty",
                            "calibration-profile-missing");
    // An error in the workload alone leaves the cluster, the facility and its cost well defined:
    // they are evaluated, the figures that depend on the workload are not (and a note says so).
    const bool workloadOnly =
        std::all_of(e.diagnostics.begin(), e.diagnostics.end(), [](const Diagnostic& d) {
            return d.severity != Severity::Error || d.path.rfind("/workload", 0) == 0;
        });
    const bool workloadValid = !e.diagnostics.hasErrors();
    if (e.diagnostics.hasErrors() && !workloadOnly) {
        // As a fresh Evaluation would be: nothing solved.
        e.memo.clear();
        e.compute = {};
        e.power = {};
        e.cooling = {};
        e.grid = {};
        e.redundancy = {};
        e.coolingOptions.clear();
        e.egress = {};
        e.cost = {};
        e.network = {};
        e.goodput = {};
        e.finishMetrics();
        return;
    }

    ComputeInputs computeInputs;
    const double gradientBytes = gradientAllReduceBytes(r);
    // The network solver plans the fabric and times the gradient all-reduce on it; the fabric
    // part is kept from the last evaluation into this Evaluation when its inputs are the same.
    if (memo) {
        memo->fabricKept = solveNetwork(r, gradientBytes, e.diagnostics, e.network, memo->fabric);
        memo->facilityKept = false;
        memo->gridKept = false;
        // The evaluation's figures show the reported collectives: timed unless kept.
        solveReportedCollectives(e.network, memo->fabric);
    } else {
        e.network = solveNetwork(r, gradientBytes, e.diagnostics);
    }
    computeInputs.allReduceSecondsPerStep = e.network.gradientAllReduce.seconds;

    // Inputs from the network solver: its switches, NICs and optics draw power and cost money.
    PowerInputs powerInputs;
    CostInputs costInputs;
    // The node's base power and price already hold its NICs (NodeSpec), so only switches,
    // cables and optics are added here.
    powerInputs.networkPowerKw =
        (e.network.topology.powerW - e.network.topology.nicPowerW) / 1000.0;
    costInputs.networkCapexUsd = e.network.topology.costUsd - e.network.topology.nicCostUsd;

    double clock = 1.0;
    const long long hallLayouts = memo ? memo->fabric.hallLayouts() : 0;
    if (memo && memo->facilityValid &&
        memo->facility.sameAs(r, options, powerInputs, e.network, hallLayouts)) {
        // The same IT load, hall, climate, plant and options: the site year's figures in the
        // Evaluation are those it would solve again, and so are its diagnostics.
        clock = memo->clock;
        e.coupling = memo->coupling;
        memo->facilityKept = true;
        for (const Diagnostic& d : memo->facilityDiagnostics)
            e.diagnostics.add(d);
    } else if (memo) {
        memo->facilityValid = false;
        memo->gridValid = false;
        const std::size_t from = e.diagnostics.size();
        clock = solveFacility(r, e, powerInputs, options);
        memo->facility.assign(r, options, powerInputs, e.network, hallLayouts);
        memo->facilityDiagnostics.assign(e.diagnostics.begin() + static_cast<std::ptrdiff_t>(from),
                                         e.diagnostics.end());
        memo->clock = clock;
        memo->coupling = e.coupling;
        memo->facilityValid = true;
    } else {
        clock = solveFacility(r, e, powerInputs, options);
    }
    // The grid prices and weighs the year's energy: a change of the prices or the carbon
    // intensity solves it alone over the kept year.
    if (memo && memo->facilityKept && memo->gridValid && memo->gridSite == r.site) {
        memo->gridKept = true;
    } else {
        e.grid = solveGrid(r, e.power, e.cooling);
        if (memo) {
            assignKey(memo->gridSite, r.site);
            memo->gridValid = true;
        }
    }
    powerInputs.clockFactor = clock;
    costInputs.redundancyCapexUsd = e.redundancy.redundancyCapexUsd;
    costInputs.hasGrid = true;
    costInputs.electricityUsdPerYear = e.grid.electricityUsdPerYear;
    costInputs.averagePriceUsdPerKwh = e.grid.averagePriceUsdPerKwh;
    costInputs.carbonTonnesPerYear = e.grid.carbonTonnesPerYear;

    computeInputs.clockFactor = clock;
    // With workload errors the step is not solved: its layout is one the validator refused
    // (sizes that do not multiply to the cluster, a sequence that does not split), and every
    // figure it would give is dropped below. The compute solver's findings would only repeat the
    // errors.
    computeInputs.network = workloadValid ? &e.network : nullptr;
    Diagnostics ignored;
    e.compute = solveCompute(r, computeInputs, workloadValid ? e.diagnostics : ignored);
    e.egress = solveEgress(r, e.diagnostics);
    e.cost = solveCost(r, e.power, e.egress, e.compute, costInputs, e.diagnostics);
    // Failures stretch the failure-free training time of compute; the run's cost follows.
    e.goodput =
        solveGoodput(r, e.compute, e.network, e.cost, workloadValid ? e.diagnostics : ignored);
    applyGoodputToCost(r, e.goodput, e.compute, e.power.facilityPowerKw, e.cost);
    addComputeMetrics(e);
    addStepMetrics(e);
    addReliabilityMetrics(e);
    addFacilityMetrics(e);
    addRedundancyMetrics(e);
    addNetworkMetrics(e);
    addHallMetrics(e);
    e.add("coupling.iterations", "Coupling iterations", e.coupling.iterations, "", Better::Neither);
    e.add("coupling.converged", "Coupling converged", e.coupling.converged ? 1 : 0, "yes/no",
          Better::Higher);
    e.add("coupling.residual", "Coupling residual (clock factor)", e.coupling.residual, "",
          Better::Lower);
    e.finishMetrics();
    if (!workloadValid) {
        // Every figure whose inputs reach into the workload is dropped, not shown as zero.
        std::erase_if(e.metrics, [](const Metric& m) {
            return std::any_of(m.inputs.begin(), m.inputs.end(),
                               [](std::string_view in) { return in.rfind("/workload", 0) == 0; });
        });
        e.diagnostics.note("/workload",
                           "training time, step time, the gradient all-reduce and the training "
                           "run's cost are not evaluated: they depend on the workload, whose "
                           "errors are listed above; the cluster, facility and cost figures are",
                           "fix the workload errors to see them", "workload-not-evaluated");
    }
}

} // namespace

Evaluation evaluate(const model::ResolvedScenario& r, const EvaluateOptions& options)
{
    // A fresh Evaluation has nothing to keep: its memo stays empty (the inputs are not copied).
    Evaluation e;
    e.metrics.reserve(kTypicalMetricCount);
    evaluateInto(r, e, options, nullptr);
    return e;
}

void evaluate(const model::ResolvedScenario& r, Evaluation& e, const EvaluateOptions& options)
{
    evaluateInto(r, e, options, &e.memo.get());
}

} // namespace dct::solvers
