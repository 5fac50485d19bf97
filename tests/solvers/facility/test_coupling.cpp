#include "dct/solvers/evaluator.h"
#include "dct/solvers/hourlyyear.h"
#include "facilitysupport.h"

using namespace dct;
using namespace dct::solvers;

namespace {

/** The seed cluster in dense air-cooled racks (5 nodes, about 38 kW against 15 kW), supplied
 *  with warm air at the top of the ASHRAE recommended envelope: under-cooled. */
model::ResolvedScenario underCooled()
{
    return test::resolvedExample("seed-h100-dallas-d2c", [](model::Scenario& s) {
        s.cooling.system.id = "crac-air";
        s.cooling.system.overrides = {{"supply_air_temp_c", 27.0}};
        s.facility.rackPowerLimitKw = 50.0;
        s.facility.rackLayout = model::RackLayout::Dense;
    });
}

} // namespace

TEST_CASE("Under-cooled racks throttle the GPUs, the loop converges and training slows",
          "[coupling][cooling]")
{
    const Evaluation cool = evaluate(test::resolvedExample("seed-h100-dallas-d2c"));
    const Evaluation hot = evaluate(underCooled());
    REQUIRE(hot.ok());
    CHECK(cool.compute.clockFactor == 1.0);
    CHECK(hot.coupling.converged);
    CHECK(hot.coupling.iterations >= 2);
    CHECK(hot.coupling.residual <= hot.coupling.tolerance);
    CHECK(hot.compute.clockFactor < 1.0);
    CHECK(hot.compute.clockFactor == Approx(hot.cooling.throttle.clockFactor).epsilon(1e-5));
    CHECK(hot.compute.clockFactor == Approx(hot.power.clockFactor).epsilon(1e-12));
    CHECK(hot.cooling.inletTempC > 27.0);
    CHECK(hot.diagnostics.hasCode("rack-over-capacity"));
    CHECK(hot.diagnostics.hasCode("gpu-throttle"));
    // At the fixed point the GPU sits at its max operating temperature (SW thermal slowdown) or
    // below the slowdown temperature at the base clock.
    if (hot.cooling.throttle.state == ThrottleState::SwThermal)
        CHECK(hot.cooling.gpuTempC == Approx(hot.power.clockFactor > 0 ? 87.0 : 0.0).margin(0.05));
    CHECK(hot.compute.trainingDays > cool.compute.trainingDays);
    // Throttled GPUs draw less power than at full clocks.
    CHECK(hot.power.gpuPowerW < cool.power.gpuPowerW);
}

TEST_CASE("A loop cut short is flagged as not converged", "[coupling]")
{
    EvaluateOptions options;
    options.maxIterations = 1;
    const Evaluation e = evaluate(underCooled(), options);
    CHECK_FALSE(e.coupling.converged);
    CHECK(e.coupling.iterations == 1);
    CHECK(e.diagnostics.hasCode("coupling-not-converged"));
    CHECK(e.value("coupling.converged", -1.0) == 0.0);
}

TEST_CASE("A well-cooled cluster settles at once at full clocks", "[coupling]")
{
    const Evaluation e = evaluate(test::resolvedExample("seed-h100-dallas-d2c"));
    CHECK(e.coupling.converged);
    CHECK(e.coupling.iterations == 1);
    CHECK(e.cooling.throttle.state == ThrottleState::None);
    CHECK_FALSE(e.diagnostics.hasCode("coupling-not-converged"));
}

TEST_CASE("A GPU power limit caps the clock the thermal loop settles at, and training slows",
          "[coupling][power-limit]")
{
    const Evaluation cool = evaluate(test::resolvedExample("seed-h100-dallas-d2c"));
    const Evaluation capped = evaluate(test::resolvedExample(
        "seed-h100-dallas-d2c", [](model::Scenario& s) { s.compute.gpuPowerLimitW = 500.0; }));
    REQUIRE(capped.ok());
    CHECK(capped.coupling.converged);
    const double limitClock = capped.power.powerLimitClockFactor;
    CHECK(limitClock < 1.0);
    CHECK(capped.compute.clockFactor == Approx(limitClock).epsilon(1e-9));
    CHECK(capped.compute.trainingDays > cool.compute.trainingDays);
    CHECK(capped.power.itPowerKw < cool.power.itPowerKw);
    REQUIRE(capped.metric("power.gpu_power_limit_clock_factor") != nullptr);
    CHECK(capped.metric("power.gpu_power_limit_clock_factor")->value == Approx(limitClock));
    CHECK(capped.diagnostics.hasCode("gpu-power-limited"));
    // The site year's hours run at that clock (the hourly CSV's clock_factor).
    const HourlyYear year = expandHourly(
        test::resolvedExample("seed-h100-dallas-d2c",
                              [](model::Scenario& s) { s.compute.gpuPowerLimitW = 500.0; }),
        capped);
    REQUIRE(year.clockFactor.size() > 0);
    CHECK(year.clockFactor.maxCoeff() == Approx(limitClock).epsilon(1e-12));

    // Under-cooled and limited: the lower of the two clocks holds, and a limit below the
    // thermal clock leaves the GPUs cooler than the thermal slowdown would.
    auto underCooledAt = [](double cap) {
        model::ResolvedScenario r = underCooled();
        r.scenario.compute.gpuPowerLimitW = cap;
        return evaluate(r);
    };
    const Evaluation thermal = underCooledAt(0.0);
    REQUIRE(thermal.compute.clockFactor < 1.0);
    const Evaluation both = underCooledAt(250.0);
    CHECK(both.compute.clockFactor <= thermal.compute.clockFactor);
    CHECK(both.compute.clockFactor == Approx(both.power.powerLimitClockFactor).epsilon(1e-6));
    CHECK(both.cooling.gpuTempC < thermal.cooling.gpuTempC);
}

// The limit and the thermal throttle lower the SM clock; the HBM keeps its own clock (Ma et al.,
// arXiv 2605.11999, 2026: HBM-bound work barely slows with the SM clock locked low). So the
// matrix math slows as the clock, the element-wise passes and the optimizer (HBM-bound) keep
// their time, and the step slows by less than the clock falls.
TEST_CASE("Under a power limit the matrix math slows with the clock and the HBM-bound passes do "
          "not",
          "[coupling][power-limit]")
{
    const Evaluation cool = evaluate(test::resolvedExample("seed-h100-dallas-d2c"));
    const Evaluation capped = evaluate(test::resolvedExample(
        "seed-h100-dallas-d2c", [](model::Scenario& s) { s.compute.gpuPowerLimitW = 400.0; }));
    REQUIRE(capped.ok());
    const double clock = capped.compute.clockFactor;
    REQUIRE(clock < 0.9);
    const StepResult& a = cool.compute.step;
    const StepResult& b = capped.compute.step;
    REQUIRE(a.valid);
    REQUIRE(b.valid);
    REQUIRE(a.memoryBoundSeconds > 0.0);
    REQUIRE(a.optimizerSeconds > 0.0);
    CHECK(b.memoryBoundSeconds == Approx(a.memoryBoundSeconds).epsilon(1e-9));
    CHECK(b.optimizerSeconds == Approx(a.optimizerSeconds).epsilon(1e-9));
    // A GEMM whose tiles bind slows as the clock; one bound by the HBM roofline does not: the
    // whole lies between, close to the clock's (these layers' GEMMs are compute-bound).
    CHECK(b.computeSeconds <= a.computeSeconds / clock * (1.0 + 1e-9));
    CHECK(b.computeSeconds >= a.computeSeconds / clock * 0.97);
    CHECK(b.stepSeconds > a.stepSeconds);
    CHECK(b.stepSeconds < a.stepSeconds / clock);
}
