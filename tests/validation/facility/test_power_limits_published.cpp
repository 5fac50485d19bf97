// Published training runs under GPU power limits (docs/references.md, "Power and cooling"): the
// clock the model gives a GPU at a limit (powerLimitClockFactor(), powersolver.cpp: dynamic power
// C V^2 f with the voltage tracking the clock down to a floor) against measured slowdowns. None
// of these runs was used to set the law; the ones the model misses are recorded as known gaps.
#include "../../solvers/facility/facilitysupport.h"
#include "dct/solvers/powersolver.h"

#include <array>
#include <cmath>
#include <vector>

using namespace dct;
using namespace dct::solvers;

namespace {

/** One workload's time per epoch at each power limit, the highest limit first. */
struct LimitRun
{
    const char* workload;
    std::vector<std::pair<double, double>> limitAndSeconds;
};

/**
 * A GPU of \a tdpW whose idle draw is the catalog A100's share of its TDP (55 of 400 W,
 * data/catalog/gpus.json): the traces do not give the boards' idle draw.
 */
model::GpuSpec boardOf(double tdpW)
{
    model::GpuSpec gpu;
    gpu.tdpW = tdpW;
    gpu.idleW = tdpW * 55.0 / 400.0;
    return gpu;
}

/** The model's slowdown at \a limitW: compute-bound training runs as the clock. */
double modelSlowdown(const model::GpuSpec& gpu, double limitW)
{
    return 1.0 / clockFactorForGpuPowerW(gpu, 1.0, limitW);
}

/** Each limit's below the highest: (limit / TDP, model / measured slowdown - 1). */
std::vector<std::pair<double, double>> errors(const model::GpuSpec& gpu, const LimitRun& run)
{
    std::vector<std::pair<double, double>> out;
    const double fullSeconds = run.limitAndSeconds.front().second;
    for (std::size_t i = 1; i < run.limitAndSeconds.size(); ++i) {
        const auto& [limitW, seconds] = run.limitAndSeconds[i];
        const double measured = seconds / fullSeconds;
        const double error = modelSlowdown(gpu, limitW) / measured - 1.0;
        WARN(run.workload << " at " << limitW << " W: measured x" << measured << ", model x"
                          << modelSlowdown(gpu, limitW) << " (" << error * 100.0 << "%)");
        out.emplace_back(limitW / gpu.tdpW, error);
    }
    return out;
}

} // namespace

// Zeus (You, Chung and Chowdhury, "Zeus: Understanding and Optimizing GPU Energy Consumption of
// DNN Training", NSDI'23), its power trace ml-energy/zeus
// examples/research_reproducibility/zeus_nsdi23/trace/summary_power_v100.csv: the time of one
// epoch at each power limit from 250 W (the V100's TDP) down to 100 W. Rows: BERT-base on
// SQuAD (batch 32) and Sentiment140 (batch 64), ResNet-50 on ImageNet (batch 256). At 60% of
// the TDP and above every row is within 6% (the square law the model had before: up to 16%);
// at 40% the model is 2-21% slow.
TEST_CASE("Zeus power trace, V100 at 100-250 W: the slowdown at a limit of 60% of the TDP and "
          "more within 6%",
          "[validation][power][power-limit]")
{
    const model::GpuSpec v100 = boardOf(250.0);
    const std::vector<LimitRun> runs{
        {"BERT-base SQuAD",
         {{250, 1733.29},
          {225, 1776.25},
          {200, 1843.12},
          {175, 1939.22},
          {150, 2221.15},
          {125, 2734.55},
          {100, 3583.43}}},
        {"BERT-base Sentiment140",
         {{250, 4027.77},
          {225, 4122.28},
          {200, 4281.81},
          {175, 4461.90},
          {150, 4863.27},
          {125, 5726.13},
          {100, 7029.14}}},
        {"ResNet-50 ImageNet",
         {{250, 3514.99},
          {225, 3584.30},
          {200, 3700.97},
          {175, 3852.18},
          {150, 4148.66},
          {125, 5064.97},
          {100, 6781.17}}},
    };
    double sumSquares = 0.0;
    int count = 0;
    for (const LimitRun& run : runs)
        for (const auto& [share, error] : errors(v100, run)) {
            if (share >= 0.6) {
                CHECK(std::abs(error) < 0.06);
                sumSquares += error * error;
                ++count;
            } else {
                // 40-50% of the TDP: the model is as slow as measured or slower.
                CHECK(error > -0.04);
                CHECK(error < 0.22);
            }
        }
    REQUIRE(count == 12);
    WARN("V100 rms from 60% of the TDP: " << std::sqrt(sumSquares / count) * 100.0 << "%");
    CHECK(std::sqrt(sumSquares / count) < 0.045);
}

// The same V100 runs' energy (the trace's average power times the epoch's time): the limit that
// spends the least energy an epoch is 150 W for BERT on SQuAD and ResNet-50 and 125 W for BERT
// on Sentiment140, 18-24% less than at 250 W. The model's energy an epoch (a fully loaded GPU
// at the limit, over its clock) is least at 150 W, 26% below the TDP's: above the voltage
// floor the work's energy falls with the voltage, below it only the time grows. (The square law
// the model had before put the least energy at the lowest limit, 100 W.)
TEST_CASE("Zeus power trace, V100: the energy-optimal power limit within one step of the "
          "measured one",
          "[validation][power][power-limit]")
{
    const model::GpuSpec v100 = boardOf(250.0);
    // Limit, then each run's (average W, s an epoch): SQuAD, Sentiment140, ResNet-50.
    struct Row
    {
        double limitW;
        std::array<std::pair<double, double>, 3> runs;
    };
    const std::vector<Row> rows{
        {250, {{{228.2, 1733.29}, {220.5, 4027.77}, {220.3, 3514.99}}}},
        {225, {{{212.6, 1776.25}, {205.2, 4122.28}, {205.4, 3584.30}}}},
        {200, {{{191.2, 1843.12}, {184.0, 4281.81}, {184.9, 3700.97}}}},
        {175, {{{170.6, 1939.22}, {162.9, 4461.90}, {166.4, 3852.18}}}},
        {150, {{{146.4, 2221.15}, {146.6, 4863.27}, {144.6, 4148.66}}}},
        {125, {{{121.8, 2734.55}, {119.0, 5726.13}, {122.0, 5064.97}}}},
        {100, {{{99.5, 3583.43}, {100.5, 7029.14}, {98.4, 6781.17}}}},
    };
    auto modelJoulesPerWork = [&](double limitW) {
        const double clock = clockFactorForGpuPowerW(v100, 1.0, limitW);
        return gpuPowerW(v100, 1.0, clock) / clock;
    };
    double modelBest = rows.front().limitW;
    for (const Row& row : rows)
        if (modelJoulesPerWork(row.limitW) < modelJoulesPerWork(modelBest))
            modelBest = row.limitW;
    const double modelSaving = 1.0 - modelJoulesPerWork(modelBest) / modelJoulesPerWork(250.0);
    WARN("model: least energy at " << modelBest << " W, " << modelSaving * 100.0
                                   << "% below 250 W");
    CHECK(modelBest == 150.0);
    for (std::size_t run = 0; run < 3; ++run) {
        auto joules = [&](const Row& row) { return row.runs[run].first * row.runs[run].second; };
        const Row* best = &rows.front();
        for (const Row& row : rows)
            if (joules(row) < joules(*best))
                best = &row;
        const double saving = 1.0 - joules(*best) / joules(rows.front());
        WARN("run " << run << ": least energy at " << best->limitW << " W, " << saving * 100.0
                    << "% below 250 W");
        CHECK(std::abs(best->limitW - modelBest) <= 25.0);
        CHECK(modelSaving == Approx(saving).margin(0.09));
    }
}

// The same trace on the A40 (summary_power_a40.csv; TDP 300 W). From 58% of the TDP the rows are
// within 11%: ResNet-50 draws 235 W of the 300 at full clocks, so a limit of 200-250 W costs it
// less than a GPU drawing its TDP (the model's limiter acts on the full-load draw, the TDP, as an
// LLM's GEMMs reach it). Deep limits, a known gap: at 33-50% of the TDP BERT runs up to 4.1
// times slower, where the model says 2.8 (the A40's GDDR6 and the rest of the board keep their
// power as the core's clock falls).
TEST_CASE("Zeus power trace, A40 at 100-300 W: within 11% from 58% of the TDP, deep limits "
          "slower than the model (a known gap)",
          "[validation][power][power-limit]")
{
    const model::GpuSpec a40 = boardOf(300.0);
    const std::vector<LimitRun> runs{
        {"BERT-base SQuAD",
         {{300, 909.47},
          {275, 913.33},
          {250, 934.88},
          {225, 967.36},
          {200, 1028.09},
          {175, 1156.77},
          {150, 1586.22},
          {125, 2381.73},
          {100, 3699.82}}},
        {"ResNet-50 ImageNet",
         {{300, 3847.48},
          {275, 3857.81},
          {250, 3864.98},
          {225, 3909.47},
          {200, 4123.52},
          {175, 4705.61},
          {150, 6326.84},
          {125, 9639.82},
          {100, 10606.19}}},
    };
    const auto bert = errors(a40, runs[0]);
    const auto resnet = errors(a40, runs[1]);
    for (const auto* rows : {&bert, &resnet})
        for (const auto& [share, error] : *rows)
            if (share >= 0.58)
                CHECK(std::abs(error) < 0.11);
    // BERT at 100 and 125 W (33% and 42%): the model is 25-31% too fast.
    CHECK(bert.back().second < -0.25);
    CHECK(bert[bert.size() - 2].second < -0.2);
}

TEST_CASE("cuBLAS on a GB300 limited to 500 W: a limit that deep runs slower than the model "
          "says, a known gap",
          "[validation][power][power-limit]")
{
    // facebookexperimental/triton pull request #2023 (July 2026): a GB300 whose benchmark script
    // limited it to 500 W of its 1,400 W ran cuBLAS GEMMs at about 617 TFLOP/s against about
    // 1,600-2,174 at 1,400 W: 0.28-0.39 of the rate. The model's clock there is 0.41 (0.51
    // under the square law it had before): at 36% of the TDP the voltage sits at its floor and
    // the dynamic power falls only as the clock, which the model follows; the measured rate
    // falls further still. Recorded; limits of 60% of the TDP and more are the model's range.
    const auto r = test::resolvedExample("gb200-nvl72-liquid", [](model::Scenario& s) {
        s.compute.gpu.id = "gb300";
        s.compute.gpuPowerLimitW = 500.0;
    });
    REQUIRE(r.gpu.tdpW == 1400.0);
    const double clock = powerLimitClockFactor(r);
    INFO("model's clock at 500 W: " << clock);
    CHECK(clock == Approx(0.406).margin(0.01));
    CHECK(clock > 617.0 / 1600.0); // the measured ratio's upper end
}
