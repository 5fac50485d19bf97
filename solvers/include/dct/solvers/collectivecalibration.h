#pragma once

#include "dct/model/calibrationprofile.h"
#include "dct/model/enums.h"
#include "dct/model/error.h"
#include "dct/model/nccltestslog.h"
#include "dct/solvers/collectives.h"

#include <array>
#include <functional>
#include <string>
#include <vector>

namespace dct::solvers {

/** Returns the engine's operation that \a test measures. */
CollectiveOp collectiveOpOf(model::NcclTest test);

/** One measured size: what nccl-tests timed. */
struct MeasuredCollective
{
    CollectiveOp op = CollectiveOp::AllReduce;
    double bytes = 0.0; ///< The nccl-tests size S.
    /** The time fitted: the faster of the out-of-place and in-place times. nccl-tests times
     *  the same collective twice, and what else runs on the hosts and the fabric only ever
     *  adds time, so the faster is the nearer to the collective's own. */
    double timeUs = 0.0;
    double outOfPlaceUs = 0.0; ///< The out-of-place time (0: as timeUs).
    /** The in-place time of the same size (0: not printed): the run's own repeatability. */
    double inPlaceUs = 0.0;
    std::string test; ///< "all_reduce_perf", ...
    std::string file; ///< The log.
    int line = 0;     ///< Its row in the log.
};

/**
 * Returns how far the in-place time of \a m is from its out-of-place one, relative to the
 * out-of-place (0 when no in-place time): the same call timed twice in one run, so a residual
 * smaller than this cannot be told from the run's noise.
 */
double measurementSpread(const MeasuredCollective& m);

/** Returns the sizes above 0 bytes of \a log as measurements (MeasuredCollective::timeUs). */
std::vector<MeasuredCollective> measuredCollectives(const model::NcclTestsLog& log);

/** How the engine times \a op on \a bytes for the fit: as the scenario's evaluation would. */
using CollectiveTimer =
    std::function<CollectiveTiming(CollectiveOp op, double bytes, const CollectiveInputs&)>;

/**
 * Returns the timer of a scenario whose gradient all-reduce is \a allReduce: the pinned
 * algorithm for all-reduce when it pins one, else the fastest algorithm and protocol (as NCCL's
 * tuner and solvers::gradientAllReduce choose).
 */
CollectiveTimer scenarioCollectiveTimer(model::CollectiveChoice allReduce);

/**
 * Returns the timer of a run of NCCL \a version on a scenario whose gradient all-reduce is
 * \a allReduce: where that release's tuner is restated (nccltuner.h) and the scenario pins no
 * algorithm, the engine times the algorithm and protocol the release picks (its own tables
 * choose; the engine's mechanisms and the fitted factors time the pick); elsewhere as
 * scenarioCollectiveTimer(). A protocol the release ran is timed even where the NIC catalog
 * says today's NCCL keeps it off the transport.
 */
CollectiveTimer ncclReleaseCollectiveTimer(const model::NcclVersion& version,
                                           model::CollectiveChoice allReduce);

/** The fitted parameters and what they give at every measured size. */
struct CollectiveFit
{
    model::CollectiveCalibration factors;
    /** Per parameter: fitted, or held at 1 because no measured size depends on it. */
    std::array<bool, model::CollectiveCalibration::count> fitted = {};
    /** Per parameter: some measured size depends on it (held at 1 only when the sizes cannot
     *  tell it from another parameter). */
    std::array<bool, model::CollectiveCalibration::count> sensitive = {};
    /** Per parameter: standard error of the factor, relative. */
    std::array<double, model::CollectiveCalibration::count> relativeError = {};
    std::vector<model::CalibrationPoint> points; ///< Measured and calibrated, in input order.
    double rmsResidualPercent = 0.0;             ///< Of the busbw residuals.
    double uncalibratedRmsResidualPercent = 0.0; ///< The same with every factor 1.
    int iterations = 0;                          ///< Levenberg-Marquardt steps taken.
};

/**
 * Fits the engine's free parameters (model::CollectiveCalibration) to \a measured by
 * Levenberg-Marquardt least squares on the log of the time ratio, model over measured, at every
 * size (docs/collectives.md, "Calibration"). \a inputs describe the measured system (its
 * calibration is ignored); \a timer times a collective as the scenario would. A parameter that
 * moves no measured size by 2% of its time for a 10% change is held at 1, and so is one whose
 * standard error exceeds 0.5 in ln k (the sizes cannot tell it from another). Fails when the engine
 * cannot time one of the measured collectives on this system.
 */
Result<CollectiveFit> fitCollectiveCalibration(const std::vector<MeasuredCollective>& measured,
                                               const CollectiveInputs& inputs,
                                               const CollectiveTimer& timer);

} // namespace dct::solvers
