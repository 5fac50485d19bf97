#include "dct/solvers/collectivecalibration.h"

#include "dct/solvers/collectivenames.h"
#include "dct/solvers/nccltuner.h"

#include <Eigen/Dense>
#include <algorithm>
#include <cmath>
#include <limits>

// Calibration of the collectives engine from nccl-tests runs (docs/collectives.md,
// "Calibration"). The engine's time is t = launch + NVLink steps + network steps + S / B, with
// B set by the NVLink or network bandwidth that binds. Each named part gets a factor k_j; the
// fit minimises sum_i (ln(t_model,i / t_measured,i))^2 over the sizes i: the log ratio weighs a
// 10 us latency-bound size and a 50 ms bandwidth-bound one alike (sizes span nine decades) and
// is the busbw residual to first order. The factors are fitted as theta_j = ln k_j, so they
// stay positive. The model is piecewise smooth (NCCL's algorithm and protocol change with the
// size), hence Levenberg-Marquardt (Marquardt 1963) with a forward-difference Jacobian rather
// than a closed-form linear solve. A weak prior (weight 0.01 per parameter on theta_j) keeps
// factors that the sizes cannot tell apart (two latency parts in fixed proportion) at the
// published engine's value instead of letting them drift along the valley; the proxy's serial
// posts, which the published engine does not have, it pulls towards off (the smallest value).

namespace dct::solvers {

namespace {

using Vector = Eigen::VectorXd;
using Matrix = Eigen::MatrixXd;
constexpr std::size_t parameterCount = model::CollectiveCalibration::count;
constexpr double priorWeight = 0.01;
/** A parameter is determined when a 10% change moves some size by at least 2% of its time. */
constexpr double sensitivityStep = 0.1;
constexpr double sensitivityThreshold = 0.02;
constexpr double thetaLimit = 4.6; ///< Factors between 0.01 and 100.
/** Two parameters whose changes move the sizes this alike (cosine) are one to the sizes. */
constexpr double maxColumnCosine = 0.9999;
/** The largest standard error of ln k a fitted factor may keep (about a factor 1.65). */
constexpr double maxStandardError = 0.5;
/** A parameter is held only where the fit without it costs at most this much more than the
 *  fit without the parameter it can best do without: its large standard error may come from
 *  the valley it shares with another, whose holding costs the fit little. */
constexpr double holdCostTolerance = 0.1;

/** ln of parameter \a j's held value: 0 for the factors held at 1, -infinity for the proxy's
 *  serial posts held at 0 (exp gives the value back). */
double heldTheta(std::size_t j)
{
    const double v = model::CollectiveCalibration::heldValue(j);
    return v > 0.0 ? std::log(v) : -std::numeric_limits<double>::infinity();
}

/** The uncertainty of a size's time that no run repeats better than, in ln t: 3%. */
constexpr double timeFloor = 0.03;

/**
 * Returns the weight of \a m in the fit: timeFloor / sqrt(timeFloor^2 + ln(1 + spread)^2),
 * spread the run's own disagreement between its in-place and out-of-place times of the size
 * (measurementSpread()). Weighted least squares by each measurement's uncertainty: a size the
 * run repeats within 1% counts about fully, one it repeats within 10% a third, one 35% apart a
 * tenth. Sizes without an in-place time count fully.
 */
double measurementWeight(const MeasuredCollective& m)
{
    const double spread = std::log1p(measurementSpread(m));
    return timeFloor / std::sqrt(timeFloor * timeFloor + spread * spread);
}

struct Problem
{
    const std::vector<MeasuredCollective>& measured;
    CollectiveInputs inputs;
    const CollectiveTimer& timer;
    /** ln of every parameter that is not active: heldTheta(), or a value being scanned. */
    Vector held;
    /** Each size's weight in the fit: its time's uncertainty against the cleanest's
     *  (measurementWeight()). */
    Vector weight;

    Problem(const std::vector<MeasuredCollective>& m, const CollectiveInputs& in,
            const CollectiveTimer& t)
        : measured(m), inputs(in), timer(t), held(static_cast<Eigen::Index>(parameterCount)),
          weight(static_cast<Eigen::Index>(m.size()))
    {
        inputs.calibration = model::CollectiveCalibration{};
        for (std::size_t j = 0; j < parameterCount; ++j)
            held(static_cast<Eigen::Index>(j)) = heldTheta(j);
        for (std::size_t i = 0; i < m.size(); ++i)
            weight(static_cast<Eigen::Index>(i)) = measurementWeight(m[i]);
    }

    /** The full parameter vector from the active ones; the others as held. */
    Vector expand(const Vector& active, const std::vector<std::size_t>& index) const
    {
        Vector theta = held;
        for (std::size_t a = 0; a < index.size(); ++a)
            theta(static_cast<Eigen::Index>(index[a])) = active(static_cast<Eigen::Index>(a));
        return theta;
    }

    /** Times every measured size with the factors exp(theta). */
    std::vector<CollectiveTiming> timings(const Vector& theta) const
    {
        CollectiveInputs in = inputs;
        for (std::size_t j = 0; j < parameterCount; ++j)
            in.calibration.at(j) = std::exp(theta(static_cast<Eigen::Index>(j)));
        std::vector<CollectiveTiming> out;
        out.reserve(measured.size());
        for (const auto& m : measured)
            out.push_back(timer(m.op, m.bytes, in));
        return out;
    }

    /** ln(model / measured) at every size. */
    Vector logRatios(const Vector& theta) const
    {
        const auto t = timings(theta);
        Vector r(static_cast<Eigen::Index>(measured.size()));
        for (std::size_t i = 0; i < measured.size(); ++i) {
            const double modelUs = std::max(1e-9, t[i].seconds * 1e6);
            r(static_cast<Eigen::Index>(i)) = std::log(modelUs / measured[i].timeUs);
        }
        return r;
    }

    /** The residuals the fit minimises: the log ratios, each by its size's weight. */
    Vector residuals(const Vector& theta) const { return logRatios(theta).cwiseProduct(weight); }
};

/** Where the weak prior pulls each active parameter: ln 1 for the factors, the smallest value
 *  (off, in effect) for the proxy's serial posts, which NCCL's tuner does not have. */
Vector priorCentre(const std::vector<std::size_t>& index)
{
    Vector c(static_cast<Eigen::Index>(index.size()));
    for (std::size_t a = 0; a < index.size(); ++a)
        c(static_cast<Eigen::Index>(a)) =
            model::CollectiveCalibration::heldValue(index[a]) == 0.0 ? -thetaLimit : 0.0;
    return c;
}

double cost(const Vector& r, const Vector& active, const Vector& centre)
{
    return r.squaredNorm() + priorWeight * priorWeight * (active - centre).squaredNorm();
}

Matrix jacobian(const Problem& p, const Vector& active, const std::vector<std::size_t>& index,
                const Vector& r0, double step)
{
    Matrix J(r0.size(), active.size());
    for (Eigen::Index a = 0; a < active.size(); ++a) {
        Vector moved = active;
        moved(a) += step;
        J.col(a) = (p.residuals(p.expand(moved, index)) - r0) / step;
    }
    return J;
}

/** Levenberg-Marquardt from \a start; returns the best active vector and the steps taken. */
Vector levenbergMarquardt(const Problem& p, Vector active, const std::vector<std::size_t>& index,
                          int& iterations)
{
    const Vector centre = priorCentre(index);
    Vector r = p.residuals(p.expand(active, index));
    double c = cost(r, active, centre);
    double mu = 1e-2;
    const auto n = active.size();
    for (int it = 0; it < 100; ++it) {
        ++iterations;
        const Matrix J = jacobian(p, active, index, r, 1e-4);
        Matrix A = J.transpose() * J;
        A.diagonal().array() += priorWeight * priorWeight;
        const Vector g = J.transpose() * r + priorWeight * priorWeight * (active - centre);
        bool improved = false;
        for (int tries = 0; tries < 12 && !improved; ++tries) {
            Matrix damped = A;
            damped.diagonal() += mu * A.diagonal();
            Vector next = active - damped.ldlt().solve(g);
            for (Eigen::Index a = 0; a < n; ++a)
                next(a) = std::clamp(next(a), -thetaLimit, thetaLimit);
            const Vector rn = p.residuals(p.expand(next, index));
            const double cn = cost(rn, next, centre);
            if (cn < c) {
                const double gain = c - cn;
                active = next;
                r = rn;
                improved = true;
                mu = std::max(1e-9, mu / 3.0);
                if (gain < 1e-12 * std::max(1.0, c))
                    return active;
                c = cn;
            } else {
                mu *= 4.0;
            }
        }
        if (!improved)
            break;
    }
    return active;
}

/**
 * Fits the active parameters \a index from twelve starts (the tiers' latencies at 1, 2, 1/2 and
 * 8 times the published engine's, each with the protocols' latencies at 1, 4 and 1/4 times,
 * against the local minima of a model whose protocol and algorithm change with size: a fit
 * that makes the tiers slow and the protocols fast lies in another valley than the reverse),
 * the proxy's serial posts from \a proxyStart where active, and from \a warm
 * when it has one entry per active parameter (the fit before one was held); returns the best and
 * its cost in \a leastCost.
 */
Vector bestOfStarts(const Problem& p, const std::vector<std::size_t>& index, double proxyStart,
                    const Vector& warm, int& iterations, double& leastCost)
{
    const auto n = static_cast<Eigen::Index>(index.size());
    std::vector<Vector> starts;
    for (double latencyStart : {0.0, std::log(2.0), std::log(0.5), std::log(8.0)})
        for (double protocolStart : {0.0, std::log(4.0), std::log(0.25)}) {
            Vector start = Vector::Zero(n);
            for (std::size_t a = 0; a < index.size(); ++a) {
                const std::size_t j = index[a];
                start(static_cast<Eigen::Index>(a)) =
                    j < 3                                               ? latencyStart
                    : j == model::CollectiveCalibration::proxyPostIndex ? proxyStart
                    : (j >= 5 && j <= 7)                                ? protocolStart
                                                                        : 0.0;
            }
            starts.push_back(std::move(start));
        }
    if (warm.size() == n)
        starts.push_back(warm);
    Vector best = Vector::Zero(n);
    leastCost = std::numeric_limits<double>::infinity();
    for (const Vector& start : starts) {
        const Vector found = levenbergMarquardt(p, start, index, iterations);
        const double c = cost(p.residuals(p.expand(found, index)), found, priorCentre(index));
        if (c < leastCost) {
            leastCost = c;
            best = found;
        }
    }
    return best;
}

double rmsPercent(const std::vector<model::CalibrationPoint>& points)
{
    if (points.empty())
        return 0.0;
    double sum = 0.0;
    for (const auto& pt : points)
        sum += pt.residualPercent() * pt.residualPercent();
    return std::sqrt(sum / static_cast<double>(points.size()));
}

std::vector<model::CalibrationPoint> pointsOf(const std::vector<MeasuredCollective>& measured,
                                              const std::vector<CollectiveTiming>& timings,
                                              int ranks)
{
    std::vector<model::CalibrationPoint> points;
    points.reserve(measured.size());
    for (std::size_t i = 0; i < measured.size(); ++i) {
        const MeasuredCollective& m = measured[i];
        const CollectiveTiming& t = timings[i];
        const double factor = busBandwidthFactor(m.op, ranks);
        model::CalibrationPoint pt;
        pt.test = m.test;
        pt.file = m.file;
        pt.line = m.line;
        pt.bytes = m.bytes;
        pt.measuredUs = m.timeUs;
        pt.measuredBusbwGbytePerS = m.bytes / (m.timeUs * 1e3) * factor;
        pt.modelUs = t.seconds * 1e6;
        pt.modelBusbwGbytePerS = t.seconds > 0.0 ? m.bytes / (t.seconds * 1e9) * factor : 0.0;
        pt.algorithm = std::string(collectiveRouteName(t.op, t.algorithm)) + "/" +
                       collectiveProtocolName(t.protocol);
        points.push_back(std::move(pt));
    }
    return points;
}

} // namespace

CollectiveOp collectiveOpOf(model::NcclTest test)
{
    switch (test) {
    case model::NcclTest::AllReduce:
        return CollectiveOp::AllReduce;
    case model::NcclTest::AllGather:
        return CollectiveOp::AllGather;
    case model::NcclTest::ReduceScatter:
        return CollectiveOp::ReduceScatter;
    case model::NcclTest::AllToAll:
        return CollectiveOp::AllToAll;
    case model::NcclTest::SendRecv:
        return CollectiveOp::SendRecv;
    }
    return CollectiveOp::AllReduce;
}

double measurementSpread(const MeasuredCollective& m)
{
    const double outOfPlace = m.outOfPlaceUs > 0.0 ? m.outOfPlaceUs : m.timeUs;
    if (m.inPlaceUs <= 0.0 || outOfPlace <= 0.0)
        return 0.0;
    return std::fabs(m.inPlaceUs - outOfPlace) / outOfPlace;
}

std::vector<MeasuredCollective> measuredCollectives(const model::NcclTestsLog& log)
{
    std::vector<MeasuredCollective> out;
    for (const auto& row : log.rows) {
        if (row.bytes <= 0.0 || row.outOfPlaceUs <= 0.0)
            continue; // zero-size calls time the launch alone: no collective moves
        MeasuredCollective m;
        m.op = collectiveOpOf(log.test);
        m.bytes = row.bytes;
        m.outOfPlaceUs = row.outOfPlaceUs;
        m.inPlaceUs = row.inPlaceUs;
        m.timeUs =
            row.inPlaceUs > 0.0 ? std::min(row.outOfPlaceUs, row.inPlaceUs) : row.outOfPlaceUs;
        m.test = model::ncclTestProgram(log.test);
        m.file = log.file;
        m.line = row.line;
        out.push_back(std::move(m));
    }
    return out;
}

CollectiveTimer scenarioCollectiveTimer(model::CollectiveChoice allReduce)
{
    return [allReduce](CollectiveOp op, double bytes, const CollectiveInputs& in) {
        if (op != CollectiveOp::AllReduce || allReduce == model::CollectiveChoice::Auto)
            return bestCollective(op, bytes, in);
        const CollectiveAlgorithm pinned = pinnedAlgorithm(allReduce);
        return collectiveTime(op, pinned, bytes, in);
    };
}

CollectiveTimer ncclReleaseCollectiveTimer(const model::NcclVersion& version,
                                           model::CollectiveChoice allReduce)
{
    CollectiveTimer fallback = scenarioCollectiveTimer(allReduce);
    if (!hasNcclTuner(version) || allReduce != model::CollectiveChoice::Auto)
        return fallback;
    // The engine's best() times the release's pick (CollectiveInputs::ncclReleaseChoice), as
    // eval does with a profile fitted this way.
    return [version](CollectiveOp op, double bytes, const CollectiveInputs& in) {
        CollectiveInputs ran = in;
        ran.ncclMinor = version.minor;
        ran.ncclReleaseChoice = true;
        return bestCollective(op, bytes, ran);
    };
}

Result<CollectiveFit> fitCollectiveCalibration(const std::vector<MeasuredCollective>& measured,
                                               const CollectiveInputs& inputs,
                                               const CollectiveTimer& timer)
{
    if (measured.empty())
        return makeError("", "", "no measured sizes above 0 bytes to fit",
                         "nccl-tests logs with at least one size row");
    Problem p(measured, inputs, timer);
    const Vector held = p.held;
    const auto uncalibrated = p.timings(held);
    for (std::size_t i = 0; i < measured.size(); ++i)
        if (!uncalibrated[i].available || !(uncalibrated[i].seconds > 0.0))
            return makeError(measured[i].file, "",
                             "line " + std::to_string(measured[i].line) +
                                 ": the engine cannot "
                                 "time " +
                                 measured[i].test + " on this scenario's fabric (" +
                                 uncalibrated[i].reason.text() + ")",
                             "logs of collectives the scenario's fabric runs");

    CollectiveFit fit;
    const int ranks = std::max(1, inputs.ranks);
    fit.uncalibratedRmsResidualPercent = rmsPercent(pointsOf(measured, uncalibrated, ranks));

    // Which parameters the sizes determine: a 10% change (up, else down) must move some size by
    // 2%. LL128's bandwidth, relative to Simple's, must besides move the sizes otherwise than the
    // tiers' bandwidth factors do: where only LL128's sizes load the network the two move the same
    // sizes in the same proportion, the sizes fix their product, and the tier's factor takes it
    // (LL128's is held at 1). The latency factors keep the weak prior and the standard-error
    // rule below, as fitted before LL128's bandwidth was a parameter.
    // The proxy's serial posts, held at 0, are switched on at NCCL's post overhead instead
    // (theta 0): they are determined when that moves some size by 2% of its time.
    // (On the log ratios unweighted: a size the run repeats badly still shows what moves it.)
    const Vector r0 = p.logRatios(held);
    std::vector<std::size_t> index;
    std::vector<Vector> columns;
    for (std::size_t j = 0; j < parameterCount; ++j) {
        const bool fromZero = model::CollectiveCalibration::heldValue(j) == 0.0;
        Vector moved = held;
        moved(static_cast<Eigen::Index>(j)) = fromZero ? 0.0 : sensitivityStep;
        Vector column = p.logRatios(moved) - r0;
        const double threshold = sensitivityThreshold * (fromZero ? 1.0 : sensitivityStep);
        if (!fromZero && column.cwiseAbs().maxCoeff() < threshold) {
            // A bound that binds by a hair moves the sizes one way only (a faster link leaves
            // the other bound in place; a slower one binds): the step down as well.
            moved(static_cast<Eigen::Index>(j)) = -sensitivityStep;
            column = r0 - p.logRatios(moved);
        }
        if (column.cwiseAbs().maxCoeff() < threshold)
            continue;
        fit.sensitive[j] = true;
        bool same = false;
        if (j == model::CollectiveCalibration::ll128BandwidthIndex)
            for (const Vector& taken : columns)
                same = same || std::fabs(column.dot(taken)) >=
                                   maxColumnCosine * column.norm() * taken.norm();
        if (same)
            continue;
        index.push_back(j);
        columns.push_back(column);
        fit.fitted[j] = true;
    }

    // The proxy's serial posts move the time piecewise (NCCL's algorithm and protocol change
    // where they add up), so Levenberg-Marquardt alone stops at the nearest kink: their cost is
    // scanned first, off and from 1/16 to 16 posts' overhead by half octaves, the others fitted
    // at each; the least cost starts the fit below, or holds them off.
    constexpr std::size_t proxy = model::CollectiveCalibration::proxyPostIndex;
    double proxyStart = 0.0;
    if (const auto at = std::find(index.begin(), index.end(), proxy); at != index.end()) {
        std::vector<std::size_t> others = index;
        others.erase(others.begin() + (at - index.begin()));
        Problem scan = p;
        double leastCost = std::numeric_limits<double>::infinity();
        double leastTheta = heldTheta(proxy);
        std::vector<double> thetas = {heldTheta(proxy)}; // off
        for (int k = -8; k <= 8; ++k)
            thetas.push_back(0.5 * k * std::log(2.0)); // 1/16 to 16, half octaves
        for (const double theta : thetas) {
            scan.held(static_cast<Eigen::Index>(proxy)) = theta;
            double c = 0.0;
            bestOfStarts(scan, others, 0.0, Vector(), fit.iterations, c);
            if (c < leastCost) {
                leastCost = c;
                leastTheta = theta;
            }
        }
        if (std::isfinite(leastTheta)) {
            proxyStart = leastTheta;
        } else {
            fit.fitted[proxy] = false;
            index = others;
        }
    }

    // Fit; then, while some parameter's standard error exceeds 0.5 in ln k (the sizes cannot
    // tell it from another, e.g. the launch from the NVLink steps when both scale with one
    // count), one of them is held (at 1, the proxy's posts at 0) and the rest fitted again: the
    // least determined of those the fit does nearly as well without.
    double bestCost = 0.0;
    Vector best = bestOfStarts(p, index, proxyStart, Vector(), fit.iterations, bestCost);
    while (!index.empty()) {
        // Standard errors from the Gauss-Newton covariance s^2 (J'J + prior)^-1.
        const Vector r = p.residuals(p.expand(best, index));
        const Matrix J = jacobian(p, best, index, r, 1e-4);
        Matrix A = J.transpose() * J;
        A.diagonal().array() += priorWeight * priorWeight;
        const double dof = std::max(1.0, static_cast<double>(measured.size() - index.size()));
        const Matrix covariance = A.inverse() * (r.squaredNorm() / dof);
        std::vector<std::size_t> undetermined;
        for (std::size_t a = 0; a < index.size(); ++a) {
            const auto at = static_cast<Eigen::Index>(a);
            fit.relativeError[index[a]] = std::sqrt(std::max(0.0, covariance(at, at)));
            if (!(fit.relativeError[index[a]] <= maxStandardError))
                undetermined.push_back(a);
        }
        if (undetermined.empty())
            break;
        // Each refitted without it, from the fit so far less it: of those whose holding costs
        // the fit at most 10% more than the cheapest's, the least determined is held.
        std::vector<double> costs;
        std::vector<Vector> fits;
        for (std::size_t drop : undetermined) {
            std::vector<std::size_t> rest = index;
            rest.erase(rest.begin() + static_cast<std::ptrdiff_t>(drop));
            Vector warm(best.size() - 1);
            for (Eigen::Index a = 0, w = 0; a < best.size(); ++a)
                if (a != static_cast<Eigen::Index>(drop))
                    warm(w++) = best(a);
            double c = 0.0;
            fits.push_back(bestOfStarts(p, rest, proxyStart, warm, fit.iterations, c));
            costs.push_back(c);
        }
        const double cheapest = *std::min_element(costs.begin(), costs.end());
        std::size_t pick = 0;
        double pickError = -1.0;
        for (std::size_t u = 0; u < undetermined.size(); ++u) {
            const double error = fit.relativeError[index[undetermined[u]]];
            if (costs[u] <= cheapest * (1.0 + holdCostTolerance) && error > pickError) {
                pick = u;
                pickError = error;
            }
        }
        // A parameter the sizes need is not held, whatever its standard error says: where
        // holding the cheapest to hold costs the fit more than the tolerance, the covariance
        // (linear) misreads a cost that the algorithm and protocol changes make piecewise.
        if (costs[pick] > bestCost * (1.0 + holdCostTolerance))
            break;
        const std::size_t dropped = undetermined[pick];
        fit.fitted[index[dropped]] = false;
        fit.relativeError[index[dropped]] = 0.0;
        index.erase(index.begin() + static_cast<std::ptrdiff_t>(dropped));
        best = std::move(fits[pick]);
        bestCost = costs[pick];
    }
    const Vector theta = p.expand(best, index);
    for (std::size_t j = 0; j < parameterCount; ++j)
        fit.factors.at(j) = std::exp(theta(static_cast<Eigen::Index>(j)));
    fit.points = pointsOf(measured, p.timings(theta), ranks);
    fit.rmsResidualPercent = rmsPercent(fit.points);
    return fit;
}

} // namespace dct::solvers
