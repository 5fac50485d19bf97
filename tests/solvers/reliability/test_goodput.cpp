#include "../facility/facilitysupport.h"
#include "dct/solvers/evaluator.h"
#include "dct/solvers/goodputsolver.h"

#include <cmath>

using namespace dct;
using namespace dct::solvers;

namespace {

/** Returns the interval minimizing Daly's complete wall-time model (golden-section search). */
double numericOptimalInterval(double work, double delta, double restart, double mtbf)
{
    double a = 1e-3 * std::sqrt(2.0 * delta * mtbf), b = 10.0 * mtbf;
    const double phi = (std::sqrt(5.0) - 1.0) / 2.0;
    for (int i = 0; i < 300; ++i) {
        const double c = b - phi * (b - a), d = a + phi * (b - a);
        if (dalyWallTime(work, c, delta, restart, mtbf) <
            dalyWallTime(work, d, delta, restart, mtbf))
            b = d;
        else
            a = c;
    }
    return (a + b) / 2.0;
}

} // namespace

TEST_CASE("Young and Daly checkpoint intervals: the formulas' values and limits",
          "[reliability][daly]")
{
    // Young 1974: sqrt(2 delta M). delta = 300 s, M = 24 h: sqrt(2 x 300 x 86400) = 7200 s.
    CHECK(youngCheckpointInterval(300.0, 86400.0) == Approx(7200.0).epsilon(1e-12));
    // Daly 2006's higher-order optimum by hand for the same: x = delta / 2M = 1/576, sqrt(x) =
    // 1/24; 7200 (1 + 1/72 + 1/5184) - 300 = 7200 + 100 + 1.3889 - 300 = 7001.3889 s.
    CHECK(dalyCheckpointInterval(300.0, 86400.0) == Approx(7001.388889).epsilon(1e-9));
    // delta >= 2M: the optimum is M (Daly 2006, the formula's second branch).
    CHECK(dalyCheckpointInterval(7200.0, 3600.0) == Approx(3600.0).epsilon(1e-12));
    CHECK(dalyCheckpointInterval(7200.0, 3500.0) == Approx(3500.0).epsilon(1e-12));
    // For delta << M both tend to sqrt(2 delta M).
    CHECK(dalyCheckpointInterval(1.0, 1e9) / youngCheckpointInterval(1.0, 1e9) ==
          Approx(1.0).epsilon(1e-4));
}

TEST_CASE("Daly's estimate sits at the minimum of his wall-time model, Young's below it",
          "[reliability][daly]")
{
    const double work = 1e7, restart = 600.0, mtbf = 3.0 * 3600.0;
    for (double delta : {10.0, 60.0, 300.0, 1200.0, 3600.0}) {
        INFO("delta " << delta);
        const double best = numericOptimalInterval(work, delta, restart, mtbf);
        const double daly = dalyCheckpointInterval(delta, mtbf);
        const double young = youngCheckpointInterval(delta, mtbf);
        const double atBest = dalyWallTime(work, best, delta, restart, mtbf);
        // Daly 2006: the higher-order estimate loses a negligible share of wall time.
        CHECK(dalyWallTime(work, daly, delta, restart, mtbf) / atBest == Approx(1.0).epsilon(2e-3));
        CHECK(dalyWallTime(work, daly, delta, restart, mtbf) <=
              dalyWallTime(work, young, delta, restart, mtbf) * (1.0 + 1e-12));
    }
}

TEST_CASE("Daly's wall time: no failures leaves work plus checkpoints, rare ones add tau/2 + R",
          "[reliability][daly]")
{
    const double work = 1e6, tau = 3600.0, delta = 60.0, restart = 300.0;
    CHECK(dalyWallTime(work, tau, delta, restart, INFINITY) ==
          Approx(work * (1.0 + delta / tau)).epsilon(1e-12));
    // First order in 1/M: each failure costs about half a segment plus the restart.
    const double mtbf = 1e9;
    const double firstOrder = work * (1.0 + delta / tau) +
                              work / mtbf * ((tau + delta) / 2.0 + restart) * (1.0 + delta / tau);
    CHECK(dalyWallTime(work, tau, delta, restart, mtbf) == Approx(firstOrder).epsilon(1e-6));
}

TEST_CASE("The job's interruption rate grows with its size", "[reliability][scaling]")
{
    const auto half = test::resolvedExample("multiplane-16k-h100",
                                            [](model::Scenario& s) { s.compute.nodeCount = 1024; });
    const auto full = test::resolvedExample("multiplane-16k-h100");
    const Evaluation a = evaluate(half);
    const Evaluation b = evaluate(full);
    REQUIRE(a.goodput.valid);
    REQUIRE(b.goodput.valid);
    // GPU and node failures are per unit: twice the nodes, twice the rate.
    CHECK(b.goodput.gpus.perHour == Approx(2.0 * a.goodput.gpus.perHour).epsilon(1e-12));
    CHECK(b.goodput.nodes.perHour == Approx(2.0 * a.goodput.nodes.perHour).epsilon(1e-12));
    // The fabric's links are the ones the network solver built.
    CHECK(b.goodput.links.units ==
          static_cast<double>(b.network.topology.endpointLinks + b.network.topology.switchLinks));
    CHECK(b.goodput.interruptionsPerHour > 1.9 * a.goodput.interruptionsPerHour);
    CHECK(b.goodput.jobMtbfHours < a.goodput.jobMtbfHours);
    CHECK(b.goodput.goodput < a.goodput.goodput);
    // A small cluster is interrupted rarely.
    const Evaluation small = evaluate(test::resolvedExample("seed-h100-dallas-d2c"));
    CHECK(small.goodput.jobMtbfHours > 10.0 * b.goodput.jobMtbfHours);
    CHECK(small.goodput.goodput > 0.95);
}

TEST_CASE("Time lost adds up, goodput and the run's cost follow the effective days",
          "[reliability][goodput]")
{
    const auto r = test::resolvedExample("multiplane-16k-h100");
    const Evaluation e = evaluate(r);
    REQUIRE(e.ok());
    const GoodputResult& g = e.goodput;
    REQUIRE(g.valid);
    const double work = e.compute.trainingDays * 24.0 -
                        e.compute.checkpoints * e.compute.checkpointWriteSeconds / 3600.0;
    CHECK(g.workHours == Approx(work).epsilon(1e-12));
    CHECK(g.failureFreeDays == Approx(e.compute.trainingDays).epsilon(1e-12));
    CHECK(g.checkpointHours + g.lostWorkHours + g.restartHours ==
          Approx(g.lostHours).epsilon(1e-9));
    CHECK(g.effectiveHours == Approx(g.workHours + g.lostHours).epsilon(1e-12));
    CHECK(g.goodput == Approx(g.workHours / g.effectiveHours).epsilon(1e-12));
    CHECK(g.effectiveDays > g.failureFreeDays);
    CHECK(g.interruptions == Approx(g.effectiveHours / g.jobMtbfHours).epsilon(1e-12));
    // The file leaves the interval unset: the job checkpoints at Daly's optimum.
    CHECK_FALSE(g.userInterval);
    CHECK(g.intervalHours == Approx(g.optimalIntervalHours).epsilon(1e-12));
    CHECK(g.intervalExcessHours == Approx(0.0).margin(1e-9));
    // Restart: re-launch, the checkpoint read back from storage, the wait for a repair.
    CHECK(g.checkpointLoadSeconds ==
          Approx(e.compute.checkpointGb / r.scenario.storage.readGbytePerS).epsilon(1e-12));
    CHECK(g.restartSeconds >= r.scenario.workload.restartMinutes * 60.0 + g.checkpointLoadSeconds);
    // The run's cost takes the effective time; the failures' cost is the lost hours' share.
    CHECK(e.cost.trainingRunUsd ==
          Approx(e.cost.usdPerGpuHour * e.compute.gpuCount * g.effectiveHours).epsilon(1e-12));
    CHECK(e.cost.trainingRunEnergyMwh ==
          Approx(e.power.facilityPowerKw * g.effectiveHours / 1000.0).epsilon(1e-12));
    CHECK(g.spareUsdPerHour == Approx(r.scenario.workload.hotSpareNodes * r.node.priceUsd /
                                      (r.scenario.economics.amortizationYears * 8760.0))
                                   .epsilon(1e-12));
    CHECK(g.failureCostUsd == Approx(e.cost.usdPerGpuHour * e.compute.gpuCount * g.lostHours +
                                     g.spareUsdPerHour * g.effectiveHours)
                                  .epsilon(1e-12));
    CHECK(e.value("reliability.goodput") == Approx(g.goodput).epsilon(1e-12));
    CHECK(e.value("reliability.effective_training_days") == Approx(g.effectiveDays));
    CHECK(e.value("cost.training_run_usd") == Approx(e.cost.trainingRunUsd));
}

TEST_CASE("A set checkpoint interval is kept and its distance from the optimum shown",
          "[reliability][interval]")
{
    const auto r = test::resolvedExample("multiplane-16k-h100", [](model::Scenario& s) {
        s.workload.checkpointIntervalHours = 6.0;
        s.present.insert("/workload/checkpoint_interval_hours");
    });
    const Evaluation e = evaluate(r);
    const GoodputResult& g = e.goodput;
    REQUIRE(g.userInterval);
    CHECK(g.intervalHours == Approx(6.0).epsilon(1e-12));
    CHECK(g.intervalOverOptimal == Approx(6.0 / g.optimalIntervalHours).epsilon(1e-12));
    CHECK(g.intervalExcessHours > 0.0);
    const Evaluation optimal = evaluate(test::resolvedExample("multiplane-16k-h100"));
    CHECK(g.effectiveHours ==
          Approx(optimal.goodput.effectiveHours + g.intervalExcessHours).epsilon(1e-9));
    CHECK(std::any_of(e.diagnostics.begin(), e.diagnostics.end(), [](const Diagnostic& d) {
        return d.code == "checkpoint-interval-off-optimum" &&
               d.path == "/workload/checkpoint_interval_hours";
    }));
}

TEST_CASE("Hot spares shorten recovery from node failures", "[reliability][spares]")
{
    auto withSpares = [](int spares) {
        return evaluate(test::resolvedExample("multiplane-16k-h100", [spares](model::Scenario& s) {
            s.workload.hotSpareNodes = spares;
        }));
    };
    const Evaluation none = withSpares(0);
    const Evaluation few = withSpares(2);
    const Evaluation many = withSpares(32);
    CHECK(none.goodput.spareWaitProbability == Approx(1.0));
    CHECK(few.goodput.spareWaitProbability < none.goodput.spareWaitProbability);
    CHECK(many.goodput.spareWaitProbability < 1e-6);
    CHECK(many.goodput.restartSeconds < few.goodput.restartSeconds);
    CHECK(few.goodput.restartSeconds < none.goodput.restartSeconds);
    CHECK(many.goodput.goodput > none.goodput.goodput);
    // Nodes out for repair are Poisson (M/G/infinity): with a mean of a, P(N >= 1) = 1 - e^-a.
    const double repairHours = model::WorkloadSection{}.nodeRepairHours;
    const double a =
        none.goodput.nodeReplacingShare * none.goodput.interruptionsPerHour * repairHours;
    const Evaluation one = withSpares(1);
    CHECK(one.goodput.spareWaitProbability == Approx(1.0 - std::exp(-a)).epsilon(1e-9));
    CHECK(std::any_of(none.diagnostics.begin(), none.diagnostics.end(),
                      [](const Diagnostic& d) { return d.code == "no-hot-spares"; }));
    // The spares' price counts in the cost of failures.
    CHECK(many.goodput.spareUsdPerHour > 0.0);
}

TEST_CASE("Without failure rates nothing is lost but the checkpoints", "[reliability][goodput]")
{
    auto r = test::resolvedExample("seed-h100-dallas-d2c");
    r.failureRates.clear();
    const Evaluation e = evaluate(r);
    REQUIRE(e.goodput.valid);
    CHECK(e.goodput.interruptionsPerHour == 0.0);
    CHECK(e.goodput.interruptions == 0.0);
    CHECK(e.goodput.lostWorkHours == Approx(0.0).margin(1e-9));
    CHECK(e.goodput.restartHours == 0.0);
}
