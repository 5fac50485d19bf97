#include "dct/solvers/computesolver.h"

#include "dct/solvers/networksolver.h"
#include "dct/solvers/stepmodel.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <numbers>

namespace dct::solvers {

namespace {

/** Inverse of the standard normal CDF (Acklam's rational approximation, |error| < 1.2e-9). */
double inverseNormalCdf(double p)
{
    static const double a[] = {-3.969683028665376e+01, 2.209460984245205e+02,
                               -2.759285104469687e+02, 1.383577518672690e+02,
                               -3.066479806614716e+01, 2.506628277459239e+00};
    static const double b[] = {-5.447609879822406e+01, 1.615858368580409e+02,
                               -1.556989798598866e+02, 6.680131188771972e+01,
                               -1.328068155288572e+01};
    static const double c[] = {-7.784894002430293e-03, -3.223964580411365e-01,
                               -2.400758277161838e+00, -2.549732539343734e+00,
                               4.374664141464968e+00,  2.938163982698783e+00};
    static const double d[] = {7.784695709041462e-03, 3.224671290700398e-01, 2.445134137142996e+00,
                               3.754408661907416e+00};
    const double low = 0.02425;
    if (p <= 0.0)
        return -INFINITY;
    if (p >= 1.0)
        return INFINITY;
    if (p < low) {
        const double q = std::sqrt(-2 * std::log(p));
        return (((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5]) /
               ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1);
    }
    if (p > 1 - low) {
        const double q = std::sqrt(-2 * std::log(1 - p));
        return -(((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5]) /
               ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1);
    }
    const double q = p - 0.5;
    const double r = q * q;
    return (((((a[0] * r + a[1]) * r + a[2]) * r + a[3]) * r + a[4]) * r + a[5]) * q /
           (((((b[0] * r + b[1]) * r + b[2]) * r + b[3]) * r + b[4]) * r + 1);
}

/** E[max] of \a n standard normals by Simpson's rule (see expectedMaxOfNormals()). */
double expectedMaxOfNormalsIntegral(double n)
{
    // Exact: E[max] = integral of x n phi(x) Phi(x)^(n-1) dx, by Simpson's rule on [-8, 8].
    const int steps = 800;
    const double a = -8.0, b = 8.0, h = (b - a) / steps;
    double sum = 0.0;
    for (int i = 0; i <= steps; ++i) {
        const double x = a + i * h;
        const double pdf = std::exp(-0.5 * x * x) / std::sqrt(2.0 * std::numbers::pi);
        const double cdf = 0.5 * std::erfc(-x / std::sqrt(2.0));
        const double f = x * n * pdf * std::pow(cdf, n - 1.0);
        sum += f * (i == 0 || i == steps ? 1.0 : (i % 2 ? 4.0 : 2.0));
    }
    return sum * h / 3.0;
}

} // namespace

double expectedMaxOfNormals(double n)
{
    if (n <= 1.0)
        return 0.0;
    if (n < 100.0) {
        // The integral takes 801 exp/erfc/pow evaluations; a cluster has a whole number of
        // GPUs, so each thread keeps the values it has computed (sweeps repeat them).
        constexpr int kCached = 100;
        thread_local std::array<double, kCached> cache{};
        thread_local std::array<bool, kCached> cached{};
        const int i = static_cast<int>(n);
        if (i != n)
            return expectedMaxOfNormalsIntegral(n);
        if (!cached[static_cast<std::size_t>(i)]) {
            cache[static_cast<std::size_t>(i)] = expectedMaxOfNormalsIntegral(n);
            cached[static_cast<std::size_t>(i)] = true;
        }
        return cache[static_cast<std::size_t>(i)];
    }
    // Blom's approximation of the expected largest of n standard normal order statistics:
    // E[X_(n:n)] ~ Phi^-1((n - 0.375) / (n + 0.25)) (Blom 1958); within 0.5% of Harter's (1961)
    // tables for n >= 100, and it costs nothing for the 16k-rank clusters sweeps evaluate.
    return inverseNormalCdf((n - 0.375) / (n + 0.25));
}

ComputeResult solveCompute(const model::ResolvedScenario& r, const ComputeInputs& in,
                           Diagnostics& diagnostics)
{
    ComputeResult out;
    const auto& w = r.scenario.workload;
    const double tokens = w.tokensBillion * 1e9;
    out.gpuCount = r.gpuCount();
    out.clockFactor = std::clamp(in.clockFactor, 0.0, 1.0);
    out.peakTflopsPerGpu = r.gpu.peakTflops(w.precision);
    out.clusterPeakPflops = out.peakTflopsPerGpu * out.gpuCount / 1000.0;
    const double clusterPeak = out.gpuCount * out.peakTflopsPerGpu * 1e12;
    if (clusterPeak <= 0.0) {
        diagnostics.error("/workload/precision", "the cluster has no peak at this precision",
                          "a precision the GPU supports", "precision");
        return out;
    }
    out.tokensPerStep = static_cast<double>(r.sequenceLength) * w.globalBatchSequences;
    out.steps = tokens / out.tokensPerStep;

    if (in.network)
        out.step = solveStep(r, *in.network, out.clockFactor, diagnostics);
    // Model FLOPs of the run from the architecture (forward and backward, attention included);
    // without a step, 6 per active parameter per token (Kaplan et al. 2020, section 2.1).
    const double flopsPerToken = out.step.valid ? out.step.modelFlopsPerStep / out.tokensPerStep
                                                : 6.0 * r.model.activeParameters();
    out.trainingFlops = flopsPerToken * tokens;

    out.mfuOverride = w.mfu > 0.0;
    // The gradient all-reduce the network solver times, reported as before.
    out.gradientBytes = gradientAllReduceBytes(r);
    out.allReduceSecondsPerStep = r.dataParallel > 1 ? in.allReduceSecondsPerStep : 0.0;
    if (out.mfuOverride || !out.step.valid) {
        // An explicit MFU: the step is the model FLOPs at that share of the peak, plus the
        // exposed share of the gradient all-reduce.
        out.mfu = w.mfu > 0.0 ? w.mfu : 0.4;
        const double compute = out.trainingFlops / out.steps /
                               std::max(clusterPeak * out.mfu * out.clockFactor, 1e-30);
        const double hidden = std::min(w.overlapFraction * out.allReduceSecondsPerStep, compute);
        out.exposedCommSecondsPerStep = out.allReduceSecondsPerStep - hidden;
        out.computeSecondsPerStep = compute;
        if (out.mfuOverride)
            diagnostics.note("/workload/mfu",
                             "MFU set explicitly to " + std::to_string(w.mfu).substr(0, 4) +
                                 ": the step time follows from it; the step model predicts " +
                                 std::to_string(out.step.mfu).substr(0, 5),
                             "remove /workload/mfu to use the predicted step", "mfu-override");
    } else {
        out.mfu = out.step.mfu;
        out.exposedCommSecondsPerStep =
            out.step.tensorParallelSeconds + out.step.contextParallelSeconds +
            out.step.expertParallelSeconds + out.step.pipelineSendRecvSeconds +
            out.step.dataParallelSeconds;
        // Everything else on the critical path: matrix math, element-wise work, the bubble, the
        // optimizer update and the activation offloading's copies to and from host memory.
        out.computeSecondsPerStep = out.step.stepSeconds - out.exposedCommSecondsPerStep;
        // Where the host's launches set the pace of some layers (the step model's host wait),
        // the planner is told how much and what shortens it.
        if (out.step.hostWaitSeconds > 0.0 && out.step.stepSeconds > 0.0) {
            const double share = out.step.hostWaitSeconds / out.step.stepSeconds;
            diagnostics.note(
                "/workload/micro_batch_size",
                "the GPUs wait for the host to launch kernels " +
                    std::to_string(std::lround(share * 100.0)) +
                    "% of the step (step.host_wait_seconds): the layers' kernels are shorter "
                    "than the host's time to issue them",
                "larger micro-batches, fewer local experts a GPU, CUDA graphs "
                "(cuda_graph_scope), moe_router_fusion, moe_permute_fusion or the flex "
                "dispatcher shorten it",
                "host-bound");
        }
    }
    out.idealTrainingDays = out.trainingFlops / (clusterPeak * out.mfu) / 86400.0;

    // Stragglers: every step waits for the slowest of N ranks whose compute time varies with
    // coefficient of variation cv; the expected loss is cv x E[max of N standard normals].
    double cv = w.jitterCv;
    if (w.virtualized)
        cv = std::sqrt(cv * cv + w.virtualizationJitterCv * w.virtualizationJitterCv);
    out.stragglerSecondsPerStep =
        cv * out.computeSecondsPerStep * expectedMaxOfNormals(out.gpuCount);

    const double stepWithoutData =
        out.computeSecondsPerStep + out.exposedCommSecondsPerStep + out.stragglerSecondsPerStep;

    // The data loader must read each step's tokens; storage bandwidth or IOPS can bound the step.
    const auto& st = r.scenario.storage;
    const double stepBytes = out.tokensPerStep * w.sampleBytesPerToken;
    const double readSeconds = stepBytes / (st.readGbytePerS * 1e9);
    const double iopsSeconds = stepBytes / (w.readSizeKb * 1024.0) / st.readIops;
    out.dataLoaderSecondsPerStep = std::max(readSeconds, iopsSeconds);
    out.stepSeconds = std::max(stepWithoutData, out.dataLoaderSecondsPerStep);
    if (out.dataLoaderSecondsPerStep > stepWithoutData)
        diagnostics.warning(readSeconds >= iopsSeconds ? "/storage/read_gbyte_per_s"
                                                       : "/storage/read_iops",
                            "storage cannot feed the GPUs: the data loader sets the step time",
                            "faster storage, larger reads or a local cache", "dataloader-bound");
    out.dataLoaderGbytePerS = stepBytes / out.stepSeconds / 1e9;
    out.dataLoaderIops = stepBytes / (w.readSizeKb * 1024.0) / out.stepSeconds;

    // Checkpoints: the whole training state written at each interval, blocking the job.
    out.checkpointGb = r.model.parameters() * w.checkpointBytesPerParameter / 1e9;
    out.checkpointWriteSeconds = out.checkpointGb / st.writeGbytePerS;
    const double runSeconds = out.steps * out.stepSeconds;
    out.checkpoints = std::floor(runSeconds / (w.checkpointIntervalHours * 3600.0));
    const double totalSeconds = runSeconds + out.checkpoints * out.checkpointWriteSeconds;

    out.trainingDays = totalSeconds / 86400.0;
    out.gpuHours = totalSeconds / 3600.0 * out.gpuCount;
    out.tokensPerSecond = tokens / totalSeconds;
    out.effectiveMfu = out.trainingFlops / totalSeconds / clusterPeak;
    return out;
}

} // namespace dct::solvers
