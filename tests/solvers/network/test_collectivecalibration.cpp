// The fit of the collectives engine's free parameters to nccl-tests logs (docs/collectives.md,
// "Calibration"): logs written from known parameters give them back; a published log's sizes
// left out of the fit come out as close as the engine's mechanisms allow (2.9% rms on A3 Mega,
// 12.2% on p4d, 3.6% on OCI, 4.5% on Nebius's InfiniBand; by size band in the warnings and
// docs/collectives.md, "Accuracy"); a named NCCL release's tree is timed chunk by chunk
// (docs/collectives.md, "Chunk pipeline").
#include "dct/model/nccltestslog.h"
#include "dct/model/scenarioio.h"
#include "dct/solvers/collectivecalibration.h"
#include "dct/solvers/collectives.h"
#include "dct/solvers/documentevaluation.h"
#include "dct/solvers/nccltuner.h"
#include "testsupport.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdio>
#include <filesystem>

using namespace dct;
using namespace dct::solvers;

namespace {

/** The published nccl-tests logs and the scenarios of their systems (tests/data/nccl-tests). */
std::filesystem::path ncclTestsData()
{
    return std::filesystem::path(DCT_TEST_SOURCE_DIR) / "tests" / "data" / "nccl-tests";
}

/** Two DGX H100-class nodes: 8 GPUs on NVSwitch, eight 400G rails on one leaf. */
CollectiveInputs twoH100Nodes()
{
    CollectiveInputs in;
    in.ranks = 16;
    in.ranksPerNode = 8;
    in.scaleUpGbytePerS = 375.0;
    in.fabricGbytePerS = 48.5;
    in.railsPerNode = 8;
    in.fabricTiers = 2;
    in.nvls = true;
    in.generation = GpuGeneration::Hopper;
    return in;
}

/**
 * Writes the all_reduce_perf log the engine gives with \a factors on \a in, 8 B to 8 GiB, in
 * the nccl-tests layout (times rounded as nccl-tests prints them: four significant digits).
 */
std::string syntheticLog(const CollectiveInputs& in, const model::CollectiveCalibration& factors,
                         const char* host = "node")
{
    CollectiveInputs calibrated = in;
    calibrated.calibration = factors;
    std::string text = "# nThread 1 nGpus 1 minBytes 8 maxBytes 8589934592 step: 2(factor) "
                       "warmup iters: 5 iters: 20 agg iters: 1 validation: 1 graph: 0\n#\n"
                       "# Using devices\n";
    char line[256];
    for (int r = 0; r < in.ranks; ++r) {
        std::snprintf(line, sizeof line,
                      "#  Rank %2d Group  0 Pid %6d on %s%d device %2d [0x%02x] NVIDIA H100 80GB "
                      "HBM3\n",
                      r, 1000 + r, host, r / in.ranksPerNode, r % in.ranksPerNode, 16 + r);
        text += line;
    }
    text += "#       size         count      type   redop    root     time   algbw   busbw #wrong "
            "    time   algbw   busbw #wrong\n";
    const double factor = busBandwidthFactor(CollectiveOp::AllReduce, in.ranks);
    for (double bytes = 8.0; bytes <= 8589934592.0; bytes *= 2.0) {
        const double us = bestCollective(CollectiveOp::AllReduce, bytes, calibrated).seconds * 1e6;
        const double algbw = bytes / us / 1e3;
        std::snprintf(line, sizeof line,
                      "%12.0f  %12.0f     float     sum      -1  %7.4g  %6.2f  %6.2f      0  "
                      "%7.4g  %6.2f  %6.2f      0\n",
                      bytes, bytes / 4.0, us, algbw, algbw * factor, us, algbw, algbw * factor);
        text += line;
    }
    return text;
}

CollectiveFit fitLog(const std::string& text, const CollectiveInputs& in)
{
    auto log = model::parseNcclTestsLog(text, "synthetic-all_reduce_perf.log");
    if (!log)
        FAIL(log.error().toString());
    auto fit = fitCollectiveCalibration(measuredCollectives(*log), in,
                                        scenarioCollectiveTimer(model::CollectiveChoice::Auto));
    if (!fit)
        FAIL(fit.error().toString());
    return *fit;
}

} // namespace

TEST_CASE("A log written from known parameters gives them back", "[calibration]")
{
    const CollectiveInputs in = twoH100Nodes();
    model::CollectiveCalibration truth;
    truth.launchLatencyFactor = 1.3;
    truth.fabricLatencyFactor = 1.8;
    truth.fabricBandwidthFactor = 0.85;
    const CollectiveFit fit = fitLog(syntheticLog(in, truth), in);
    INFO("uncalibrated rms " << fit.uncalibratedRmsResidualPercent << "%, calibrated "
                             << fit.rmsResidualPercent << "%");
    CHECK(fit.uncalibratedRmsResidualPercent > 10.0);
    CHECK(fit.fitted[4]); // network bandwidth
    // On two nodes the tree's LL128 sizes are NVLink-bound (the chain inside the node moves
    // 2 S, the network S): they fix NVLink's bandwidth under LL128, the product of those two
    // factors. The network binds no size at its full rate (the NVLS tree is NVLink-bound too);
    // the sizes where it shares the time still put it within 5%.
    CHECK(fit.sensitive[model::CollectiveCalibration::ll128BandwidthIndex]);
    CHECK(fit.factors.scaleUpBandwidthFactor * fit.factors.ll128BandwidthFactor ==
          Approx(truth.scaleUpBandwidthFactor * truth.ll128BandwidthFactor).epsilon(0.02));
    CHECK(fit.factors.fabricBandwidthFactor == Approx(truth.fabricBandwidthFactor).epsilon(0.05));
    // The latency factors overlap (a protocol's factor multiplies the tiers' parts of its
    // calls), so one system's log fixes the latency of what runs at each size, not how the
    // factors split it: at every size the fitted engine runs what the true one runs, as fast.
    CollectiveInputs truthIn = in;
    truthIn.calibration = truth;
    CollectiveInputs fitIn = in;
    fitIn.calibration = fit.factors;
    for (double bytes = 8.0; bytes <= 8589934592.0; bytes *= 2.0) {
        const CollectiveTiming want = bestCollective(CollectiveOp::AllReduce, bytes, truthIn);
        const CollectiveTiming got = bestCollective(CollectiveOp::AllReduce, bytes, fitIn);
        INFO(bytes << " B: " << collectiveAlgorithmName(want.algorithm) << "/"
                   << collectiveProtocolName(want.protocol));
        CHECK(got.algorithm == want.algorithm);
        CHECK(got.protocol == want.protocol);
        CHECK(got.seconds == Approx(want.seconds).epsilon(0.01));
    }
    CHECK(fit.rmsResidualPercent < 0.5);
    REQUIRE(fit.points.size() == 31);
    CHECK(std::fabs(fit.points.back().residualPercent()) < 0.5);
}

TEST_CASE("A size the run repeats badly counts for less in the fit", "[calibration]")
{
    // Weighted least squares by each size's uncertainty (docs/collectives.md, "Calibration"):
    // the run's in-place and out-of-place times of a size disagree by its own noise. Two sizes
    // of a log written from known parameters are made 40% slower, their in-place time 30% slower
    // still (a run disturbed there); the fit keeps the other sizes' times, and the two come out
    // near +40% in busbw (the model faster than the disturbed run), not shared out over the
    // others.
    const CollectiveInputs in = twoH100Nodes();
    model::CollectiveCalibration truth;
    truth.fabricLatencyFactor = 1.5;
    auto log = model::parseNcclTestsLog(syntheticLog(in, truth), "run-all_reduce_perf.log");
    REQUIRE(log);
    std::vector<MeasuredCollective> measured = measuredCollectives(*log);
    REQUIRE(measured.size() == 31);
    const std::size_t disturbed[] = {17, 23}; // 1 MiB and 64 MiB
    for (std::size_t i : disturbed) {
        MeasuredCollective& m = measured[i];
        m.outOfPlaceUs = m.timeUs * 1.4;
        m.inPlaceUs = m.outOfPlaceUs * 1.3;
        m.timeUs = m.outOfPlaceUs;
        CHECK(measurementSpread(m) == Approx(0.3));
    }
    auto fit = fitCollectiveCalibration(measured, in,
                                        scenarioCollectiveTimer(model::CollectiveChoice::Auto));
    REQUIRE(fit);
    REQUIRE(fit->points.size() == 31);
    double cleanWorst = 0.0;
    for (std::size_t i = 0; i < fit->points.size(); ++i) {
        const double residual = fit->points[i].residualPercent();
        if (i == disturbed[0] || i == disturbed[1]) {
            INFO(measured[i].bytes << " B (disturbed): " << residual << "%");
            CHECK(residual > 30.0);
        } else {
            cleanWorst = std::max(cleanWorst, std::fabs(residual));
        }
    }
    INFO("the clean sizes' largest residual " << cleanWorst << "%");
    CHECK(cleanWorst < 2.0);
}

// LL128 and Simple fitted apart (ll128_bandwidth_factor): a log whose middle sizes run LL128
// across nodes and whose large ones run Simple fixes both bandwidths; a log in which no size
// runs LL128 (its transport does not carry it between nodes) holds the factor at 1.
TEST_CASE("On one node the network's parameters are held at 1, not fitted", "[calibration]")
{
    CollectiveInputs in = twoH100Nodes();
    in.ranks = 8;
    model::CollectiveCalibration truth;
    truth.launchLatencyFactor = 0.8;
    truth.scaleUpLatencyFactor = 1.5;
    truth.scaleUpBandwidthFactor = 0.93;
    const CollectiveFit fit = fitLog(syntheticLog(in, truth), in);
    CHECK_FALSE(fit.fitted[2]);
    CHECK_FALSE(fit.fitted[4]);
    CHECK(fit.factors.fabricLatencyFactor == 1.0);
    CHECK(fit.factors.fabricBandwidthFactor == 1.0);
    CHECK(fit.fitted[3]);
    CHECK(fit.factors.scaleUpBandwidthFactor == Approx(0.93).epsilon(0.02));
    CHECK(fit.rmsResidualPercent < 1.0);
    // No network step: the proxy posts nothing, and its serial posts stay off.
    CHECK_FALSE(fit.sensitive[model::CollectiveCalibration::proxyPostIndex]);
    CHECK_FALSE(fit.fitted[model::CollectiveCalibration::proxyPostIndex]);
    CHECK(fit.factors.proxyPostFactor == 0.0);
}

// The proxy thread posts each channel's network send in turn (src/transport/net.cc,
// sendProxyProgress): where a transport's post is slow, the time of a call rises while NCCL
// adds channels with its size (4 KiB a channel under a tree's LL) at a constant share each, as
// the A3 Mega log does between 4 KiB and 64 KiB. A log written with such posts gives their cost
// back; NCCL's tuner has no such term, so the engine holds it at 0 until a log shows it.
TEST_CASE("A log written with the proxy's posts one channel after another gives their cost back",
          "[calibration]")
{
    const CollectiveInputs in = twoH100Nodes();
    CHECK(in.calibration.proxyPostFactor == 0.0);
    CHECK(in.calibration.identity());
    model::CollectiveCalibration truth;
    truth.fabricBandwidthFactor = 0.85;
    truth.proxyPostFactor = 2.5; // 2.5 us a post: a TCP-offload transport, not InfiniBand
    CHECK_FALSE(truth.identity());

    // The posts add (channels - 1) x 2.5 us on each of the tree's two network passes.
    CollectiveInputs with = in;
    with.calibration = truth;
    CollectiveInputs without = with;
    without.calibration.proxyPostFactor = 0.0;
    const auto tree = [](const CollectiveInputs& i, double bytes) {
        return collectiveTime(CollectiveOp::AllReduce, CollectiveAlgorithm::DoubleBinaryTree,
                              CollectiveProtocol::LL, bytes, i);
    };
    const CollectiveTiming t64k = tree(with, 65536.0);
    REQUIRE(t64k.channels == 16);
    CHECK((t64k.seconds - tree(without, 65536.0).seconds) * 1e6 ==
          Approx(15 * 2 * 2.5).epsilon(1e-9));
    CHECK(tree(with, 4096.0).seconds == tree(without, 4096.0).seconds); // one channel

    const CollectiveFit fit = fitLog(syntheticLog(in, truth), in);
    REQUIRE(fit.fitted[model::CollectiveCalibration::proxyPostIndex]);
    CHECK(fit.factors.proxyPostFactor == Approx(2.5).epsilon(0.05));
    CHECK(fit.rmsResidualPercent < 0.5);
    // Every size as the true engine times it (the sizes do not fix the network's bandwidth here:
    // with the posts, the fit's and the truth's time every size within 1%).
    CollectiveInputs fitIn = in;
    fitIn.calibration = fit.factors;
    for (double bytes = 8.0; bytes <= 8589934592.0; bytes *= 2.0) {
        INFO(bytes << " B");
        CHECK(bestCollective(CollectiveOp::AllReduce, bytes, fitIn).seconds ==
              Approx(bestCollective(CollectiveOp::AllReduce, bytes, with).seconds).epsilon(0.01));
    }
}

TEST_CASE("A log the engine cannot time on the scenario's fabric is refused", "[calibration]")
{
    CollectiveInputs in = twoH100Nodes();
    in.fabricGbytePerS = 0.0; // no network between the nodes
    auto log = model::parseNcclTestsLog(syntheticLog(twoH100Nodes(), {}), "run.log");
    REQUIRE(log);
    auto fit = fitCollectiveCalibration(measuredCollectives(*log), in,
                                        scenarioCollectiveTimer(model::CollectiveChoice::Ring));
    REQUIRE_FALSE(fit);
    CHECK_THAT(fit.error().toString(),
               Catch::Contains("run.log: line 21: the engine cannot time all_reduce_perf"));
}

namespace {

/** Residuals (measured over model, minus 1) of the sizes a fit left out. */
struct HeldOut
{
    std::vector<double> calibrated;
    std::vector<double> uncalibrated;
    std::vector<double> bytes;

    /** The calibrated residuals of the sizes in [\a from, \a to] bytes. */
    std::vector<double> band(double from, double to) const
    {
        std::vector<double> r;
        for (std::size_t i = 0; i < bytes.size(); ++i)
            if (bytes[i] >= from && bytes[i] <= to)
                r.push_back(calibrated[i]);
        return r;
    }

    static double maxAbs(const std::vector<double>& r)
    {
        double m = 0.0;
        for (double x : r)
            m = std::max(m, std::fabs(x));
        return m;
    }

    static double rms(const std::vector<double>& r)
    {
        double sum = 0.0;
        for (double x : r)
            sum += x * x;
        return r.empty() ? 0.0 : std::sqrt(sum / static_cast<double>(r.size()));
    }
};

/**
 * Fits \a logName on every other size with \a scenarioName's system; with \a byRelease the
 * engine times what the log's NCCL release picks (where its tuner is restated), as calibrate does.
 */
HeldOut heldOutResiduals(const char* logName, const char* scenarioName, bool byRelease = false,
                         bool releasePipeline = false)
{
    const std::filesystem::path data = ncclTestsData();
    const auto document = evaluateDocumentFile(data / scenarioName, dct::test::catalog());
    std::string diagnostics;
    for (const auto& d : document.diagnostics)
        diagnostics += d.toString() + "\n";
    INFO(diagnostics);
    REQUIRE(document.evaluated());
    auto log = model::readNcclTestsLog(data / logName);
    REQUIRE(log);
    const auto all = measuredCollectives(*log);
    std::vector<MeasuredCollective> fitted;
    std::vector<MeasuredCollective> held;
    for (std::size_t i = 0; i < all.size(); ++i)
        (i % 2 == 0 ? fitted : held).push_back(all[i]);
    CollectiveInputs in = document.evaluation->network.worldInputs;
    if (releasePipeline && log->ncclVersion && log->ncclVersion->major == 2)
        in.ncclMinor = log->ncclVersion->minor;
    const CollectiveTimer timer =
        byRelease && log->ncclVersion
            ? ncclReleaseCollectiveTimer(*log->ncclVersion, model::CollectiveChoice::Auto)
            : scenarioCollectiveTimer(model::CollectiveChoice::Auto);
    auto fit = fitCollectiveCalibration(fitted, in, timer);
    REQUIRE(fit);
    CollectiveInputs calibrated = in;
    calibrated.calibration = fit->factors;
    for (std::size_t j = 0; j < model::CollectiveCalibration::count; ++j)
        WARN(logName << ": " << model::CollectiveCalibration::key(j) << " = " << fit->factors.at(j)
                     << (fit->fitted[j] ? " fitted, +/- " : " held")
                     << (fit->fitted[j] ? std::to_string(fit->relativeError[j]) : std::string()));
    WARN(logName << ": rms on the fitted sizes " << fit->rmsResidualPercent << "%, uncalibrated "
                 << fit->uncalibratedRmsResidualPercent << "%");
    HeldOut residuals;
    for (const auto& m : held) {
        const CollectiveTiming t = timer(m.op, m.bytes, calibrated);
        const double residual = m.timeUs / (t.seconds * 1e6) - 1.0;
        residuals.uncalibrated.push_back(m.timeUs / (timer(m.op, m.bytes, in).seconds * 1e6) - 1.0);
        WARN(logName << ": " << m.bytes << " B: measured " << m.timeUs << " us, model "
                     << t.seconds * 1e6 << " us (" << collectiveAlgorithmName(t.algorithm) << "/"
                     << collectiveProtocolName(t.protocol) << "), " << residual * 100.0 << "%");
        residuals.calibrated.push_back(residual);
        residuals.bytes.push_back(m.bytes);
    }
    // Size bands: latency-bound (to 64 KiB), the middle, bandwidth-bound (from 32 MiB).
    WARN(logName << ": rms by band: up to 64 KiB "
                 << HeldOut::rms(residuals.band(0.0, 65536.0)) * 100.0 << "%, 128 KiB-16 MiB "
                 << HeldOut::rms(residuals.band(131072.0, 16777216.0)) * 100.0 << "%, from 32 MiB "
                 << HeldOut::rms(residuals.band(33554432.0, 1e15)) * 100.0 << "%");
    WARN(logName << ": left-out sizes' rms residual " << HeldOut::rms(residuals.calibrated) * 100.0
                 << "% calibrated, " << HeldOut::rms(residuals.uncalibrated) * 100.0
                 << "% uncalibrated; largest " << HeldOut::maxAbs(residuals.calibrated) * 100.0
                 << "%");
    return residuals;
}

} // namespace

// Published logs of cloud fabrics, fitted on every other size (the sizes left out are the
// check). Each runs as two nearly affine regimes: LL at its multi-node cap up to 16-64 MiB, then a
// large-message algorithm with several times LL's latency. The adapters' transports carry LL but
// not LL128 between nodes (catalog `ll128_across_nodes`: AWS EFA, aws-ofi-nccl issue 76; Google's
// TCPXO plugin), and the protocols' latencies are fitted apart (`ll_latency_factor`,
// `simple_latency_factor`), as NCCL's tuner tabulates them apart; the proxy's posts, channel
// after channel (`proxy_post_factor`), follow the time that rises with the channels. The
// calibrated engine reaches 5% at most sizes, not all (see the warnings the test prints;
// docs/collectives.md, "Accuracy"): held-out rms 12.2% (p4d) and 2.9% (A3 Mega), against 300-500%
// uncalibrated. p4d's large sizes run at the ring's rate although on two nodes the tree, which
// NCCL 2.9.9's tuner picks there, carries half the ring's bytes through the network (8.6% when
// the engine charged the tree 2 S on two nodes; docs/collectives.md, "Two and three nodes").
TEST_CASE("p4d 2 x 8 A100 (EFA), every other size fitted: the others' rms within 13%",
          "[calibration][published]")
{
    const HeldOut r = heldOutResiduals("p4d-2x8-a100-efa-all_reduce_perf.log", "p4d-2x8-a100.json");
    REQUIRE(r.calibrated.size() == 15);
    CHECK(HeldOut::rms(r.uncalibrated) > 1.0);
    CHECK(HeldOut::rms(r.calibrated) < 0.13);
}

// The same log timed as NCCL 2.9.9 (its banner, line 25) picked: its tuner's tables (NCCL
// tuning.cc at v2.9.9-1) rate the two-node tree at the intra-node speed, twice the ring's, and
// pick trees at every size (LL to 64 KiB, LL128 to 64 MiB, Simple above); the engine times the
// picks, the LL128 and Simple trees chunk by chunk as 2.9.9 pipelines them (its size rules for
// the chunk; docs/collectives.md, "Chunk pipeline"), and the fit fixes one network bandwidth
// and the per-chunk step cost. The sizes left out: 10.9% rms with the proxy's posts fitted
// (14.3% without; 18.7% with the tuner's size correction instead of the pipeline), against 8.6%
// with the engine's fastest; the pipeline follows the large sizes (6.1% from 32 MiB, LL128's
// bandwidth fitted apart from Simple's).
TEST_CASE("p4d, timed as NCCL 2.9.9's tuner picks and pipelines: the left-out sizes' rms "
          "within 15%",
          "[calibration][published]")
{
    const HeldOut r =
        heldOutResiduals("p4d-2x8-a100-efa-all_reduce_perf.log", "p4d-2x8-a100.json", true);
    REQUIRE(r.calibrated.size() == 15);
    WARN("NCCL 2.9.9's picks: left-out rms " << HeldOut::rms(r.calibrated) * 100.0 << "%, largest "
                                             << HeldOut::maxAbs(r.calibrated) * 100.0 << "%");
    CHECK(HeldOut::rms(r.calibrated) < 0.115);
    CHECK(HeldOut::rms(r.calibrated) > 0.05); // the 5% target is not met this way
    // LL128 (to 64 MiB) and Simple (from 128 MiB) fitted apart: 8.7% -> 6.1% from 32 MiB.
    CHECK(HeldOut::rms(r.band(33554432.0, 1e15)) < 0.065);
}

namespace {

/** The p4d of the published log: 2 x 8 A100, four 100G NICs, eight channels. */
CollectiveInputs p4dInputs(int ncclMinor)
{
    CollectiveInputs in;
    in.ranks = 16;
    in.ranksPerNode = 8;
    in.railsPerNode = 4;
    in.fabricGbytePerS = 12.2 * 4 / 8;
    in.scaleUpGbytePerS = 235.0;
    in.generation = GpuGeneration::Ampere;
    in.ncclMinor = ncclMinor;
    return in;
}

} // namespace

TEST_CASE("LL128's bandwidth is fitted apart from Simple's where a log runs both", "[calibration]")
{
    // Two nodes of 8 A100 on four 100G NICs, as the p4d of the published log but with a
    // transport that carries LL128: ring and tree LL128 in the middle, Simple at large sizes.
    const CollectiveInputs in = p4dInputs(0);
    model::CollectiveCalibration truth;
    truth.fabricLatencyFactor = 1.5;
    truth.fabricBandwidthFactor = 0.9;
    truth.ll128BandwidthFactor = 0.75;
    const CollectiveFit fit = fitLog(syntheticLog(in, truth), in);
    int ll128Sizes = 0;
    for (const auto& pt : fit.points)
        ll128Sizes += pt.algorithm.find("LL128") != std::string::npos ? 1 : 0;
    INFO("sizes run with LL128: " << ll128Sizes);
    REQUIRE(ll128Sizes >= 3);
    CHECK(fit.fitted[model::CollectiveCalibration::ll128BandwidthIndex]);
    CHECK(fit.factors.ll128BandwidthFactor == Approx(truth.ll128BandwidthFactor).epsilon(0.03));
    CHECK(fit.factors.fabricBandwidthFactor == Approx(truth.fabricBandwidthFactor).epsilon(0.03));
    CHECK(fit.rmsResidualPercent < 0.5);

    CollectiveInputs noLl128 = in;
    noLl128.ll128AcrossNodes = false;
    model::CollectiveCalibration plain;
    plain.fabricBandwidthFactor = 0.9;
    const CollectiveFit held = fitLog(syntheticLog(noLl128, plain), noLl128);
    CHECK_FALSE(held.fitted[model::CollectiveCalibration::ll128BandwidthIndex]);
    CHECK_FALSE(held.sensitive[model::CollectiveCalibration::ll128BandwidthIndex]);
    CHECK(held.factors.ll128BandwidthFactor == 1.0);
    CHECK(held.factors.fabricBandwidthFactor == Approx(0.9).epsilon(0.02));
}

// NCCL 2.9.9 (src/enqueue.cc at v2.9.9-1, "Optimize chunkSize / nSteps") halves a Simple tree's
// 512 KiB chunk while a channel holds fewer than depth x 8 of them: on 2 x 8 GPUs (depth 7 + 1
// = 8) and eight channels the chunk is 512 KiB from 8 x 512 KiB x 64 = 256 MiB, 256 KiB at
// 128 MiB, 128 KiB at 32-64 MiB. The pipeline costs (N + 2 depth - 1)(c + chunk / B_ch) with c
// the tree's network step less its hardware path (14 - 1.36 us) and B_ch a channel's share.
TEST_CASE("A named release's Simple tree is timed chunk by chunk", "[calibration][pipeline]")
{
    const CollectiveInputs tuner = p4dInputs(0);
    const CollectiveInputs release = p4dInputs(9);
    const double c = 14.0 - (2 * 0.1 + 2 * 0.5 + 0.13 + 2 * 3.0 * 0.005);
    for (double bytes : {33554432.0, 134217728.0, 268435456.0, 4294967296.0}) {
        INFO(bytes << " B");
        const auto t0 =
            collectiveTime(CollectiveOp::AllReduce, CollectiveAlgorithm::DoubleBinaryTree,
                           CollectiveProtocol::Simple, bytes, tuner);
        const auto t9 =
            collectiveTime(CollectiveOp::AllReduce, CollectiveAlgorithm::DoubleBinaryTree,
                           CollectiveProtocol::Simple, bytes, release);
        REQUIRE(t9.channels == 8);
        const double chunk = bytes >= 268435456.0   ? 524288.0
                             : bytes >= 134217728.0 ? 262144.0
                                                    : 131072.0;
        const double perChannel = bytes / 8.0;
        const double chunkUs = chunk / (t9.bandwidthGbytePerS / 8.0 * 1e9) * 1e6;
        const double pipeline = 15.0 * (c + chunkUs) + perChannel / chunk * c;
        // The pipeline adds to the latency; the tuner's size correction no longer scales B.
        CHECK(t9.latency.totalUs - t0.latency.totalUs == Approx(pipeline).epsilon(1e-9));
        CHECK(t9.bandwidthGbytePerS >= t0.bandwidthGbytePerS);
    }
    // From 2.20 the chunk stays one 512 KiB step: more fill, fewer chunks.
    const auto t20 = collectiveTime(CollectiveOp::AllReduce, CollectiveAlgorithm::DoubleBinaryTree,
                                    CollectiveProtocol::Simple, 33554432.0, p4dInputs(20));
    const auto t9 = collectiveTime(CollectiveOp::AllReduce, CollectiveAlgorithm::DoubleBinaryTree,
                                   CollectiveProtocol::Simple, 33554432.0, release);
    CHECK(t20.seconds > t9.seconds);
    // The per-chunk step cost scales with its factor; with the tuner's correction it has none.
    CollectiveInputs slower = release;
    slower.calibration.chunkStepFactor = 2.0;
    const auto ts = collectiveTime(CollectiveOp::AllReduce, CollectiveAlgorithm::DoubleBinaryTree,
                                   CollectiveProtocol::Simple, 268435456.0, slower);
    const auto tr = collectiveTime(CollectiveOp::AllReduce, CollectiveAlgorithm::DoubleBinaryTree,
                                   CollectiveProtocol::Simple, 268435456.0, release);
    CHECK((ts.seconds - tr.seconds) * 1e6 == Approx((15.0 + 64.0) * c).epsilon(1e-9));
    CollectiveInputs tunerSlower = tuner;
    tunerSlower.calibration.chunkStepFactor = 2.0;
    CHECK(collectiveTime(CollectiveOp::AllReduce, CollectiveAlgorithm::DoubleBinaryTree,
                         CollectiveProtocol::Simple, 268435456.0, tunerSlower)
              .seconds == collectiveTime(CollectiveOp::AllReduce,
                                         CollectiveAlgorithm::DoubleBinaryTree,
                                         CollectiveProtocol::Simple, 268435456.0, tuner)
                              .seconds);
}

// The pipeline is what makes the busbw of a Simple tree rise smoothly up to the size where the
// chunk reaches its 512 KiB step (256 MiB here) and then flatten: the fill and per-chunk steps
// weigh less with every doubling.
TEST_CASE("A pipelined tree's busbw rises with size and flattens at large sizes",
          "[calibration][pipeline]")
{
    const CollectiveInputs release = p4dInputs(9);
    double previous = 0.0;
    for (double bytes = 1048576.0; bytes <= 4294967296.0; bytes *= 2.0) {
        INFO(bytes << " B");
        const double busbw =
            collectiveTime(CollectiveOp::AllReduce, CollectiveAlgorithm::DoubleBinaryTree,
                           CollectiveProtocol::Simple, bytes, release)
                .busbwGbytePerS;
        CHECK(busbw > previous);
        previous = busbw;
    }
    const auto at = [&](double bytes) {
        return collectiveTime(CollectiveOp::AllReduce, CollectiveAlgorithm::DoubleBinaryTree,
                              CollectiveProtocol::Simple, bytes, release)
            .busbwGbytePerS;
    };
    CHECK(at(4294967296.0) / at(2147483648.0) < 1.02);
    CHECK(at(268435456.0) / at(33554432.0) > 1.3);
}

TEST_CASE("A bound that binds by a hair is fitted: OCI's two-node tree, NVLink-bound by 250 "
          "against the network's 252 GB/s",
          "[calibration][published]")
{
    // On two nodes the tree puts S through the network and 2 S through NVLink: OCI's sixteen
    // 100G ports (15.8 GB/s a GPU after RoCE's headers) would carry 252 GB/s of the chain's
    // 250. A faster NVLink leaves the network's bound in place (the sizes move under 1%); a
    // slower one binds at once. The sensitivity rule tries the step down too, so the NVLink
    // bandwidth is fitted, not held as one no size depends on.
    const std::filesystem::path data = ncclTestsData();
    const auto document = evaluateDocumentFile(data / "oci-2x8-a100.json", dct::test::catalog());
    REQUIRE(document.evaluated());
    auto log = model::readNcclTestsLog(data / "oci-2x8-a100-roce-all_reduce_perf.log");
    REQUIRE(log);
    const CollectiveInputs in = document.evaluation->network.worldInputs;
    const CollectiveTiming large = bestCollective(CollectiveOp::AllReduce, 8 * 1073741824.0, in);
    CHECK(large.algorithm == CollectiveAlgorithm::DoubleBinaryTree);
    CollectiveInputs faster = in;
    faster.calibration.scaleUpBandwidthFactor = 1.1;
    CollectiveInputs slower = in;
    slower.calibration.scaleUpBandwidthFactor = 1.0 / 1.1;
    const double up = bestCollective(CollectiveOp::AllReduce, 8 * 1073741824.0, faster).seconds;
    const double down = bestCollective(CollectiveOp::AllReduce, 8 * 1073741824.0, slower).seconds;
    CHECK(std::fabs(up / large.seconds - 1.0) < 0.02);
    CHECK(down / large.seconds - 1.0 > 0.05);
    auto fit = fitCollectiveCalibration(measuredCollectives(*log), in,
                                        scenarioCollectiveTimer(model::CollectiveChoice::Auto));
    REQUIRE(fit);
    constexpr std::size_t scaleUpBandwidth = 3; // model::CollectiveCalibration's order
    CHECK(fit->sensitive[scaleUpBandwidth]);
    CHECK(fit->rmsResidualPercent < 5.0);
}

TEST_CASE("OCI 2 x 8 A100 (RoCE), every other size fitted: the others' rms within 5%",
          "[calibration][published]")
{
    // tests/data/nccl-tests/oci-2x8-a100-roce-all_reduce_perf.log (docs/references.md):
    // all_reduce_perf from 8 B to 8 GiB on two OCI BM.GPU4.8 nodes, sixteen 100G RoCE ports
    // each; held out like the two logs above (no release banner: the engine's fastest).
    const HeldOut r =
        heldOutResiduals("oci-2x8-a100-roce-all_reduce_perf.log", "oci-2x8-a100.json");
    REQUIRE(r.calibrated.size() == 15);
    CHECK(HeldOut::rms(r.calibrated) < HeldOut::rms(r.uncalibrated));
    // 6.8% while LL128 and Simple shared one bandwidth; 4.3% fitted apart (LL128 at about 0.7 of
    // Simple's), NCCL's switch from tree/LL128 to tree/Simple at 1 GiB left as the largest.
    CHECK(HeldOut::rms(r.calibrated) < 0.05);
}

TEST_CASE("A3 Mega 2 x 8 H100, every other size fitted: the others' rms within 5%",
          "[calibration][published]")
{
    // tests/data/nccl-tests/a3mega-2x8-h100-all_reduce_perf.log (docs/references.md):
    // all_reduce_perf from 8 B to 8 GiB on two Google Cloud A3 Mega nodes; the scenario
    // a3mega-2x8-h100.json beside it describes the system (eight 200G NICs per node).
    const HeldOut r =
        heldOutResiduals("a3mega-2x8-h100-all_reduce_perf.log", "a3mega-2x8-h100.json");
    REQUIRE(r.calibrated.size() == 15);
    CHECK(HeldOut::rms(r.uncalibrated) > 1.0);
    CHECK(HeldOut::rms(r.calibrated) < 0.05);
}

TEST_CASE("Nebius 2 x 8 H100 (InfiniBand), every other size fitted: the others' rms within 5%",
          "[calibration][published]")
{
    // tests/data/nccl-tests/nebius-2x8-h100-ib-all_reduce_perf.log (docs/references.md):
    // all_reduce_perf from 8 B to 8 GiB on two Nebius H100 nodes with eight 400G InfiniBand
    // NICs each, the one full-range InfiniBand log found published; held out like the logs
    // above (no release banner: the engine's fastest).
    const HeldOut r =
        heldOutResiduals("nebius-2x8-h100-ib-all_reduce_perf.log", "nebius-2x8-h100.json");
    REQUIRE(r.calibrated.size() == 15);
    CHECK(HeldOut::rms(r.calibrated) < HeldOut::rms(r.uncalibrated));
    // The run repeats no better than 5% at 9 of its 31 sizes (in place against out of place up
    // to 35% apart), and its 512 KiB (83.9 us at best) is slower than its 1 MiB (77.8 us), which
    // no time that grows with the size can follow: weighted by that spread (the sizes it repeats
    // badly count for less), 4.5% (5.1% unweighted).
    CHECK(HeldOut::rms(r.calibrated) < 0.05);
    // Uncalibrated, the largest sizes (NVLS tree with its pipeline's fill, from 128 MiB) within
    // 3% of the measured busbw (before the fill, 256 MiB came out 12.6% fast).
    for (std::size_t i = 0; i < r.bytes.size(); ++i)
        if (r.bytes[i] >= 134217728.0) {
            INFO(r.bytes[i] << " B: uncalibrated residual " << r.uncalibrated[i] * 100.0 << "%");
            CHECK(std::fabs(r.uncalibrated[i]) < 0.03);
        }
}

// NCCL 2.9.9's tuner (solvers/src/nccltuner.cpp, tuning.cc at v2.9.9-1) on the p4d of the
// published log: four 100G EFA NICs (12.5 GB/s, search speed 12: four channels, which NCCL
// doubles to the log's "8 coll channels"), the tree's intra-node speed raised to 24 on two
// nodes. Its estimates, by hand from the tables: tree LL 4.4 + 2 (7 x 0.52 x 1.8 + 5.0) =
// 27.5 us at 8 B; tree LL128 bus min(96 x 0.92 x 0.915, 16.9 x 4) = 67.6 GB/s, algbw 33.8;
// ring Simple 48 x 16/30 = 25.6 GB/s algbw behind (8.4 + 28 x 3.4 + 2 x 9.6) x 1.9 = 233 us.
TEST_CASE("NCCL 2.9.9's tuner on 2 x 8 A100 with four 100G NICs picks trees throughout",
          "[calibration][nccltuner]")
{
    CollectiveInputs in;
    in.ranks = 16;
    in.ranksPerNode = 8;
    in.railsPerNode = 4;
    in.fabricGbytePerS = 12.2 * 4 / 8; // a node's four NICs over its eight ranks
    in.scaleUpGbytePerS = 235.0;
    in.generation = GpuGeneration::Ampere;
    const model::NcclVersion v299{2, 9, 9, 0};
    const auto at = [&](double bytes) {
        const auto c = ncclTunerChoice(v299, CollectiveOp::AllReduce, bytes, in);
        REQUIRE(c);
        return *c;
    };
    const NcclTunerChoice small = at(8.0);
    CHECK(small.ringGraphGbytePerS == 48.0);
    CHECK(small.treeGraphGbytePerS == 96.0);
    CHECK(small.ll128Enabled);
    CHECK(small.algorithm == CollectiveAlgorithm::DoubleBinaryTree);
    CHECK(small.protocol == CollectiveProtocol::LL);
    CHECK(small.predictedUs == Approx(27.504).epsilon(1e-3));
    for (double bytes : {65536.0}) {
        CHECK(at(bytes).algorithm == CollectiveAlgorithm::DoubleBinaryTree);
        CHECK(at(bytes).protocol == CollectiveProtocol::LL);
    }
    for (double bytes : {131072.0, 1048576.0, 67108864.0}) {
        INFO(bytes << " B");
        CHECK(at(bytes).algorithm == CollectiveAlgorithm::DoubleBinaryTree);
        CHECK(at(bytes).protocol == CollectiveProtocol::LL128);
    }
    // 64 MiB: 38.9 us + 2^26 B / (33.8 GB/s x 0.9 correction) = 2245 us.
    CHECK(at(67108864.0).predictedUs == Approx(38.9 + 67108864.0 / (1000.0 * 33.8 * 0.9)));
    for (double bytes : {134217728.0, 4294967296.0}) {
        INFO(bytes << " B");
        CHECK(at(bytes).algorithm == CollectiveAlgorithm::DoubleBinaryTree);
        CHECK(at(bytes).protocol == CollectiveProtocol::Simple);
    }
    // Hopper is unknown to 2.9: LL128 off, and ring Simple wins the middle sizes.
    CollectiveInputs hopper = in;
    hopper.generation = GpuGeneration::Hopper;
    const auto h = ncclTunerChoice(v299, CollectiveOp::AllReduce, 4194304.0, hopper);
    REQUIRE(h);
    CHECK_FALSE(h->ll128Enabled);
    CHECK(h->algorithm == CollectiveAlgorithm::Ring);
    CHECK(h->protocol == CollectiveProtocol::Simple);
    // Reduce-scatter and all-gather run rings only.
    const auto rs = ncclTunerChoice(v299, CollectiveOp::ReduceScatter, 4194304.0, in);
    REQUIRE(rs);
    CHECK(rs->algorithm == CollectiveAlgorithm::Ring);
    // No restated tuner: other releases, one node, point to point.
    CHECK_FALSE(ncclTunerChoice({2, 18, 3, 0}, CollectiveOp::AllReduce, 8.0, in));
    CHECK_FALSE(ncclTunerChoice(v299, CollectiveOp::AllToAll, 8.0, in));
    CollectiveInputs oneNode = in;
    oneNode.ranks = 8;
    CHECK_FALSE(ncclTunerChoice(v299, CollectiveOp::AllReduce, 8.0, oneNode));
}

// A profile records how its fit timed the sizes, and eval times them the same way (issue 11):
// a profile fitted on what NCCL 2.9.9's tuner picks, its trees pipelined chunk by chunk, stores
// a chunk_step_factor the engine's fastest choice never reads. Applied to the scenario it was
// fitted on, the evaluated fabric gives every size the time the fit gave it.
TEST_CASE("A profile fitted on a release's picks is evaluated on them", "[calibration][profile]")
{
    const std::filesystem::path data = ncclTestsData();
    const auto plain = evaluateDocumentFile(data / "p4d-2x8-a100.json", dct::test::catalog());
    REQUIRE(plain.ok());
    auto log = model::readNcclTestsLog(data / "p4d-2x8-a100-efa-all_reduce_perf.log");
    REQUIRE(log);
    REQUIRE(log->ncclVersion);
    const auto measured = measuredCollectives(*log);
    auto fit = fitCollectiveCalibration(
        measured, plain.evaluation->network.worldInputs,
        ncclReleaseCollectiveTimer(*log->ncclVersion, model::CollectiveChoice::Auto));
    REQUIRE(fit);
    REQUIRE(fit->fitted[model::CollectiveCalibration::chunkStepIndex]);

    model::CalibrationProfile profile;
    profile.name = "p4d-release";
    profile.system = model::CalibrationSystem::of(*plain.resolved);
    profile.factors = fit->factors;
    profile.fitted = fit->fitted;
    profile.points = fit->points;
    profile.timing = {model::CalibrationTiming::Choice::NcclRelease, 2, 9, 9};
    // Stored and read back, as the scenario library keeps it.
    auto stored =
        model::readCalibrationProfile(model::calibrationProfileJson(profile).dump(), "library");
    REQUIRE(stored);
    CHECK(stored->timing == profile.timing);

    auto scenario = model::readScenarioFile(data / "p4d-2x8-a100.json");
    REQUIRE(scenario.scenario);
    scenario.scenario->network.calibrationProfile = profile.name;
    EvaluateOptions options;
    options.calibrationProfile = [&](const std::string&) -> Result<model::CalibrationProfile> {
        return *stored;
    };
    const auto document =
        evaluateScenario(*scenario.scenario, dct::test::catalog(), "p4d.json", options);
    REQUIRE(document.ok());
    const CollectiveInputs& world = document.evaluation->network.worldInputs;
    CHECK(world.ncclReleaseChoice);
    CHECK(world.ncclMinor == 9);
    const auto& provenance = document.resolved->provenance.at("/network/calibration_profile");
    CHECK_THAT(provenance.source,
               Catch::Contains("timed with the algorithm and protocol NCCL 2.9.9's tuner picks"));
    int differs = 0;
    for (const auto& pt : fit->points) {
        INFO(pt.bytes << " B, fitted as " << pt.algorithm);
        const CollectiveTiming t = bestCollective(CollectiveOp::AllReduce, pt.bytes, world);
        CHECK(t.seconds * 1e6 == Approx(pt.modelUs).epsilon(1e-9));
        CHECK(collectiveAlgorithmName(t.algorithm) + std::string("/") +
                  collectiveProtocolName(t.protocol) ==
              pt.algorithm);
        CHECK_THAT(t.reason.text(), Catch::Contains("as NCCL 2.9's own tuner picks"));
        // What eval did before the profile recorded its timing: the engine's fastest.
        CollectiveInputs fastest = world;
        fastest.ncclReleaseChoice = false;
        fastest.ncclMinor = 0;
        if (std::fabs(bestCollective(CollectiveOp::AllReduce, pt.bytes, fastest).seconds * 1e6 /
                          pt.modelUs -
                      1.0) > 0.05)
            ++differs;
    }
    CHECK(differs > 5);

    // A profile of the old form that fitted the chunk step cannot be timed as it was fitted.
    nlohmann::json old = model::calibrationProfileJson(profile);
    old.erase("timing");
    auto refused = model::readCalibrationProfile(old.dump(), "library");
    REQUIRE_FALSE(refused);
    CHECK_THAT(refused.error().toString(), Catch::Contains("/timing"));
    CHECK_THAT(refused.error().toString(), Catch::Contains("fit the logs again"));
}
