#pragma once

// NCCL's tuning constants, restated. Unless a line says otherwise the source is NCCL
// src/graph/tuning.cc (github.com/NVIDIA/nccl, commit 5067397c, June 2026): the defaults of its
// tuner constants (base and hardware latencies, LL and per-channel bandwidth caps, NVLS
// efficiency) and the refinements of ncclTopoTuneModel. Protocol order: LL, LL128, Simple.
// docs/collectives.md explains how the engine uses each.

#include "dct/solvers/collectives.h"

#include <algorithm>
#include <array>

namespace dct::solvers::nccl {

using PerProtocol = std::array<double, 3>;

/** Per-call base latency in us (kernel launch and setup), ring and tree. */
inline constexpr PerProtocol baseLatencyRingUs = {6.6, 14.0, 8.4};
inline constexpr PerProtocol baseLatencyTreeUs = {6.8, 14.0, 8.4};

/** One NVLink step in us, ring and tree; NVLS (Simple only) and CollNet Direct. */
inline constexpr PerProtocol nvlinkStepRingUs = {0.6, 1.9, 3.4};
inline constexpr PerProtocol nvlinkStepTreeUs = {0.6, 1.25, 4.0};
inline constexpr double nvlinkStepNvlsUs = 25.0;
inline constexpr double nvlinkStepCollNetUs = 3.7;
/** NCCL's NVLink ring LL128 step, the reference the scale-up alpha input scales from. */
inline constexpr double nvlinkReferenceStepUs = 1.9;

/** One network step in us as NCCL's tuner charges it (software and hardware together). */
inline constexpr PerProtocol netStepRingUs = {2.7, 4.0, 14.0};
inline constexpr PerProtocol netStepTreeUs = {5.0, 8.5, 14.0};
inline constexpr double netStepCollNetUs = 31.0;
inline constexpr double netStepNvlsUs = 18.0;
inline constexpr double netStepNvlsTreeUs = 20.9;
/** Network post overhead per step on Intel hosts, us (tripled for Simple): getNetOverhead. */
inline constexpr double netPostOverheadUs = 1.0;
/** CollNet Direct: arity serialization per local rank, us. */
inline constexpr double collNetArityUs = 0.4;

/**
 * The hardware path NCCL's network step constants are taken to include (assumption: a
 * same-leaf InfiniBand step with this engine's defaults: 2 x 0.1 us PCIe, 2 x 0.5 us NIC, one
 * 0.13 us switch and 2 x 3 m of cable at 5 ns/m = 1.36 us). The software part of a step is the
 * NCCL constant minus this; the hardware part is rebuilt from the fabric's own parts.
 */
inline constexpr double referencePathUs = 2 * 0.1 + 2 * 0.5 + 0.13 + 2 * 3.0 * 0.005;

/** Ring with LL128 keeps 120 of 128 bytes (NCCL writes 0.92); LL keeps half. */
inline constexpr double ringLl128Efficiency = 0.92;
inline constexpr double ringLlEfficiency = 0.5;
/** Tree all-reduce: 0.92 of the link; LL a further 1/3.8; LL128 7/9 on one node, 120/128 across. */
inline constexpr double treeEfficiency = 0.92;
inline constexpr double treeLlFactor = 1.0 / 3.8;
inline constexpr double treeLl128SingleNode = 7.0 / 9.0;
inline constexpr double treeLl128MultiNode = 120.0 / 128.0;

/** Index of a generation in the per-architecture tables (Ampere, Hopper, Blackwell). */
inline int generationIndex(GpuGeneration g)
{
    return g == GpuGeneration::Ampere ? 0 : g == GpuGeneration::Hopper ? 1 : 2;
}
/** Index by node count: one node, two nodes, more. */
inline int nodeIndex(int nodes)
{
    return nodes <= 1 ? 0 : nodes == 2 ? 1 : 2;
}

/** LL bandwidth cap in GB/s: one node by GPU generation; across nodes by node count (Intel). */
inline constexpr std::array<double, 3> llMaxSingleNode = {87.7, 141.0, 282.0};
inline constexpr std::array<double, 3> llMaxMultiNodeIntel = {39.0, 39.0, 20.4};
/** Per-channel caps in GB/s [generation][node index]. */
inline constexpr std::array<std::array<double, 3>, 3> perChannelRingLl128 = {
    {{20.0, 20.0, 20.0}, {36.7, 36.7, 36.7}, {40.0, 40.0, 40.0}}};
inline constexpr std::array<std::array<double, 3>, 3> perChannelTree = {
    {{24.0, 23.6, 17.8}, {38.7, 41.4, 36.0}, {70.0, 42.8, 24.0}}};
inline constexpr std::array<std::array<double, 3>, 3> perChannelTreeLl128 = {
    {{20.0, 20.0, 20.0}, {36.7, 36.7, 29.0}, {55.6, 31.67, 20.0}}};
inline constexpr std::array<std::array<double, 3>, 3> perChannelNvlsTree = {
    {{24.0, 23.6, 17.8}, {0.0, 57.7, 45.5}, {0.0, 96.0, 80.0}}};
/** NVLS efficiency by generation (0: no NVLink SHARP before Hopper). */
inline constexpr std::array<double, 3> nvlsEfficiency = {0.0, 0.85, 0.74};
/** CollNet Direct on Hopper and later keeps 0.85. */
inline constexpr double collNetHopperEfficiency = 0.85;
/** Ring Simple across nodes: latency x1.4 once each rank's share passes 64 B (plateau). */
inline constexpr double ringPlateauLatencyFactor = 1.4;

/**
 * Tree all-reduce bandwidth correction by size: index log2(bytes / 64), 64 B to 256 MiB
 * (ncclTopoGetAlgoTime's treeCorrectionFactor), rows LL, LL128, Simple.
 */
inline constexpr std::array<std::array<double, 24>, 3> treeCorrection = {
    {{1.0, 1.0, 1.0, 1.0, .9, .8, .7, .7,  .7,  .7,  .6,  .5,
      .4,  .4,  .5,  .6,  .7, .8, .9, 1.0, 1.0, 1.0, 1.0, 1.0},
     {1.0, 1.0, 1.0, 1.0, 1.0, .9, .8, .8, .8, .7,  .6,  .6,
      .6,  .6,  .6,  .6,  .8,  .9, .9, .9, .9, 1.0, 1.0, 1.0},
     {.9, .9, .9, .9, .9, .9, .9, .8, .7, .6, .6, .5,
      .5, .5, .5, .6, .7, .8, .7, .7, .8, .9, .9, .9}}};

/**
 * NVLS channels (src/transport/nvls.cc, NCCL master 5067397): NVLS_NCHANNELS_SM90 16 on Hopper;
 * on Blackwell NVLS_NCHANNELS_SM100_NVL 24 inside one node and NVLS_NCHANNELS_SM100 32 across
 * nodes, before nvlsTreeTuning()'s adjustment.
 */
inline constexpr int nvlsChannelsHopper = 16;
inline constexpr int nvlsChannelsBlackwell = 24;
inline constexpr int nvlsChannelsBlackwellMultiNode = 32;

/**
 * The ring graph search inside one NVLink domain (src/graph/search.cc, ncclTopoCompute, commit
 * 5067397c): the per-channel speeds it tries, by compute capability (speedArrayIntra below 9.0,
 * sm90SpeedArrayIntra, sm100SpeedArrayIntra), GB/s.
 */
inline constexpr std::array<double, 13> ringSearchSpeedsAmpere = {
    40.0, 30.0, 20.0, 18.0, 15.0, 12.0, 10.0, 9.0, 7.0, 6.0, 5.0, 4.0, 3.0};
inline constexpr std::array<double, 11> ringSearchSpeedsHopper = {
    60.0, 50.0, 40.0, 30.0, 24.0, 20.0, 15.0, 12.0, 11.0, 6.0, 3.0};
inline constexpr std::array<double, 12> ringSearchSpeedsBlackwell = {
    90.0, 80.0, 70.0, 60.0, 50.0, 45.0, 40.0, 30.0, 24.0, 20.0, 19.0, 18.0};
/** The bandwidth NCCL counts per NVLink (src/graph/topo.h: SM80_NVLINK_BW 20.0, SM90 20.6,
 * SM100 40.1), against the link's 25 GB/s (NVLink 3 and 4) or 50 GB/s (NVLink 5) a direction. */
inline constexpr std::array<double, 3> nvlinkLinkGbytePerS = {20.0, 20.6, 40.1};
inline constexpr std::array<double, 3> nvlinkLinkRawGbytePerS = {25.0, 25.0, 50.0};
/** The ring search's channel limit (src/init.cc: ringGraph->maxChannels = MAXCHANNELS / 2) and
 * MAXCHANNELS (src/include/device.h: 64). */
inline constexpr int ringSearchMaxChannels = 32;
inline constexpr int maxChannels = 64;

/** NCCL_MAX_NVLS_ARITY (src/include/device.h): the NVLS graph's heads at most, one a GPU that
 *  has a NIC (src/graph/search.cc: maxChannels = min(NCCL_MAX_NVLS_ARITY, GPUs), one head a
 *  GPU however many NICs it has). */
inline constexpr int maxNvlsArity = 32;

/** NCCL_NVLS_CHUNKSIZE's default, bytes (src/transport/nvls.cc). */
inline constexpr double nvlsChunkBytes = 131072.0;

/** The NVLS tree's channels and largest chunk across nodes (nvlsTreeTuning()). */
struct NvlsTreeTuning
{
    int channels = nvlsChannelsHopper;
    double maxChunkBytes = nvlsChunkBytes;
};

/**
 * The NVLS tree's channels and largest chunk across \a nodes nodes of \a ranksPerNode GPUs
 * whose NICs run at \a nicGbytePerS (NCCL's minNetBw, GB/s): src/transport/nvls.cc,
 * ncclNvlsTuning and ncclNvlsTreeSm100Tuning (NCCL master 5067397). The chunk is 128 KiB,
 * 64 KiB from four nodes; on Blackwell, two nodes with NICs of 48 GB/s (400G) or more run 32
 * channels with 128 KiB chunks (256 KiB at four GPUs a node or fewer; 64 KiB at 16 or more, or
 * with 400G NICs on the GPU's PCIe switch); more nodes run 24 channels, with 256 KiB chunks over
 * 800G NICs (96 GB/s) at up to eight GPUs a node, else 64 KiB over 400G NICs on the GPU's PCIe
 * switch. The GPU's NIC is taken to sit on its PCIe switch (PATH_PXB), as on HGX and DGX boards.
 */
inline NvlsTreeTuning nvlsTreeTuning(bool blackwell, int nodes, int ranksPerNode,
                                     double nicGbytePerS)
{
    NvlsTreeTuning t;
    double chunk = nvlsChunkBytes;
    double treeMax = 0.0;
    if (blackwell) {
        t.channels = nvlsChannelsBlackwellMultiNode;
        if (nodes == 2 && nicGbytePerS >= 48.0) {
            t.channels = 32;
            treeMax = 131072.0;
            if (ranksPerNode <= 4)
                chunk = treeMax = 262144.0;
            else if (ranksPerNode >= 16 || (ranksPerNode <= 8 && nicGbytePerS < 96.0))
                treeMax = 65536.0;
        } else if (nicGbytePerS >= 96.0) {
            if (ranksPerNode <= 8) {
                t.channels = 24;
                chunk = treeMax = 262144.0;
            } else {
                t.channels = 32;
                treeMax = ranksPerNode < 32 ? 131072.0 : 65536.0;
            }
        } else if (nicGbytePerS >= 48.0) {
            t.channels = 24;
            treeMax = 65536.0;
        }
    }
    if (treeMax <= 0.0)
        treeMax = nodes >= 4 ? 65536.0 : chunk;
    t.maxChunkBytes = std::min(chunk, treeMax);
    return t;
}

/**
 * The NVLS tree's chunk at \a bytes (src/enqueue.cc, calcCollChunking, NVLS_TREE): the
 * largest chunk, cut to 256 KiB under 32, 128 KiB under 16, 64 KiB under 4 and 32 KiB under 1 x
 * the \a concurrentOps operations' chunk (channels x NVLS heads).
 */
inline double nvlsTreeChunkBytes(double bytes, double concurrentOps, double maxChunkBytes)
{
    double chunk = maxChunkBytes;
    const auto cut = [&](double times, double to) {
        if (bytes < times * concurrentOps * chunk && chunk > to)
            chunk = to;
    };
    cut(32.0, 262144.0);
    cut(16.0, 131072.0);
    cut(4.0, 65536.0);
    cut(1.0, 32768.0);
    return chunk;
}

/**
 * NCCL's achievable bandwidth over one NDR 400G NIC: "For NDR @ 400Gbps you should see
 * 46-48GB/s per NIC" (NVIDIA maintainer, nccl-tests issue 290, 2025-03-03). 47 GB/s over the
 * 49.7 GB/s InfiniBand payload rate at a 4096-byte MTU is 0.946: the share NCCL's network
 * transport (proxy, GPUDirect RDMA) keeps of the fabric's effective bandwidth.
 */
inline constexpr double netTransportEfficiency = 47.0 / (400.0 / 8.0 * 4096.0 / 4122.0);

/**
 * Channel tuning by size (NCCL src/enqueue.cc, topoGetAlgoInfo, "Ring/Tree channel tuning"): a
 * ring or tree call starts from the communicator's channels and drops one while the size is
 * below channels x threads x threshold. Threads per channel (maxThreads, set in tuning.cc
 * ncclTopoTuneModel through getNthreads): NCCL_LL_MAX_NTHREADS 512, NCCL_LL128_MAX_NTHREADS 640,
 * NCCL_SIMPLE_MAX_NTHREADS 512 (src/include/device.h). Bytes per thread (threadThresholds, set in
 * ncclTopoTuneModel): NCCL_LL_THREAD_THRESHOLD 8, NCCL_LL128_THREAD_THRESHOLD 8,
 * NCCL_SIMPLE_THREAD_THRESHOLD 64 (src/include/comm.h); a ring's LL threshold is multiplied by
 * the rank count.
 */
inline constexpr PerProtocol maxThreadsPerChannel = {512.0, 640.0, 512.0};
inline constexpr PerProtocol threadThresholdBytes = {8.0, 8.0, 64.0};

/**
 * The chunk pipeline of a tree (docs/collectives.md, "Chunk pipeline"). Each channel's share of
 * the buffer moves up and down the tree in chunks of one FIFO step: NCCL_STEPS 8 slots of a 4 MiB
 * Simple buffer (DEFAULT_BUFFSIZE, src/init.cc at v2.9.9-1; NCCL_STEPS, src/include/devcomm.h
 * at v2.9.9-1, collectives.h later), one step per chunk for trees (chunkSteps 1 outside ring
 * Simple, src/enqueue.cc). The LL128 buffer (DEFAULT_LL128_BUFFSIZE) is
 * NCCL_LL128_ELEMS_PER_THREAD 120 x NCCL_LL128_MAX_NTHREADS 640 x NCCL_STEPS 8 x 8 bytes, of
 * which 15 elements in 16 are data (NCCL_LL128_DATAELEMS of NCCL_LL128_LINEELEMS).
 */
inline constexpr double simpleStepBytes = 4194304.0 / 8.0;
inline constexpr double ll128StepBytes = 120.0 * 640.0 * 8.0;
/**
 * NCCL releases up to 2.19 shrink a Simple tree's chunk by size (src/enqueue.cc at v2.9.9-1,
 * computeColl, "Optimize chunkSize / nSteps"; removed in v2.20.3-1's calcCollChunking): halve
 * it while the buffer holds fewer than depth x 8 chunks per channel and it is above 128 KiB,
 * then below depth x 4 above 64 KiB, then below depth above 32 KiB.
 */
inline constexpr int lastReleaseWithSimpleTreeChunkBySize = 19;

/** Signal propagation in fiber and twinax: about 5 ns per metre (light at ~2/3 c). */
inline constexpr double cableUsPerM = 0.005;

} // namespace dct::solvers::nccl
