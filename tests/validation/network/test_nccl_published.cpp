// The collectives engine against published nccl-tests measurements (docs/collectives.md,
// "Validation"). Every constant comes from NCCL's tuner (solvers/src/nccltuning.h), the catalog or
// a hardware document; none was fitted to the cases below. The one measured constant, NCCL's
// 47 GB/s per NDR 400G NIC (nccl-tests issue 290), is not what any case here checks.

#include "dct/model/catalog.h"
#include "dct/solvers/collectives.h"
#include "dct/solvers/documentevaluation.h"
#include "dct/solvers/protocolefficiency.h"

#include <catch2/catch.hpp>
#include <string>

using namespace dct;
using namespace dct::solvers;

namespace {

/** \a nodes NVSwitch nodes of \a gpus GPUs of catalog entry \a gpuId, one \a nicGbps NIC each. */
CollectiveInputs dgx(const std::string& gpuId, int nodes, int gpus, double nicGbps)
{
    auto catalog = model::Catalog::load(std::string(DCT_TEST_DATA_DIR) + "/catalog");
    REQUIRE(catalog);
    const model::GpuSpec& gpu = catalog->gpus().entries.at(gpuId);
    CollectiveInputs in;
    in.ranks = nodes * gpus;
    in.ranksPerNode = gpus;
    // NVLink per direction at NCCL's effective share (packets and LL128 lines, as the network
    // solver computes it).
    in.scaleUpGbytePerS = gpu.scaleUpGbytePerS * nvlinkEfficiency().efficiency;
    in.scaleUpAlphaUs = 1.9;
    // One NIC per GPU at InfiniBand's payload share at a 4096-byte MTU.
    in.fabricGbytePerS = nicGbps / 8.0 * wireOverhead(model::Protocol::Infiniband, 4096).efficiency;
    in.railsPerNode = 8;
    in.nvls = gpu.scaleUpGbytePerS >= 450.0;
    in.generation = gpu.scaleUpGbytePerS >= 450.0 ? GpuGeneration::Hopper : GpuGeneration::Ampere;
    in.nicLatencyUs = 0.5;     // catalog connectx-7-400g
    in.switchLatencyUs = 0.13; // catalog qm9700
    return in;
}

constexpr double GiB = 1073741824.0;
constexpr double MiB = 1048576.0;

} // namespace

TEST_CASE("NCCL issue 1455: H100 ring all-reduce busbw 365-370 GB/s from 2 to 8 GPUs",
          "[validation][network][collectives][nccl]")
{
    // github.com/NVIDIA/nccl/issues/1455: NCCL_ALGO=RING, -b 2G -e 4G, 8 x H100 SXM: "busbw is
    // about 365-370 GBps when gpus from 2 to 8". nccl-tests issue 212 (NVIDIA): "an effective
    // NVLink bandwidth of 370GB/s ... with NCCL_ALGO=RING". Tolerance 5%.
    for (int g = 2; g <= 8; ++g) {
        const CollectiveInputs in = dgx("h100-sxm5", 1, g, 400.0);
        const auto t =
            collectiveTime(CollectiveOp::AllReduce, CollectiveAlgorithm::Ring, 4 * GiB, in);
        INFO(g << " GPUs: " << t.busbwGbytePerS << " GB/s");
        REQUIRE(t.available);
        CHECK(t.busbwGbytePerS == Approx(367.5).epsilon(0.05));
    }
}

TEST_CASE("nccl-tests issue 212: H100 NVLS all-reduce busbw ~480 GB/s, algbw ~275 GB/s",
          "[validation][network][collectives][nccl][nvls]")
{
    // github.com/NVIDIA/nccl-tests/issues/212 (NVIDIA, 2024-05-06): "On 8 GPUs, you should reach a
    // peak busBw of ~480GB/s (algbw ~275GB/s)"; nccl-tests issue 290 (NVIDIA): "476GB/s looks to
    // be in the expected range for H100". The tuner's pick at 16 GiB must be NVLS. Tolerance 10%.
    const CollectiveInputs in = dgx("h100-sxm5", 1, 8, 400.0);
    const auto t = bestCollective(CollectiveOp::AllReduce, 16 * GiB, in);
    REQUIRE(t.available);
    CHECK(t.algorithm == CollectiveAlgorithm::Nvls);
    CHECK(t.protocol == CollectiveProtocol::Simple);
    CHECK(t.busbwGbytePerS == Approx(480.0).epsilon(0.10));
    CHECK(t.algbwGbytePerS == Approx(275.0).epsilon(0.10));
    CHECK_THAT(t.reason, Catch::Contains("NVSwitch"));
}

TEST_CASE("NCCL issue 1455: NVLS busbw 420, 440, 460, 480 GB/s on 5 to 8 H100s, ring below 5",
          "[validation][network][collectives][nccl][nvls]")
{
    // github.com/NVIDIA/nccl/issues/1455, NCCL_ALGO=NVLS at 2-4 GiB: busbw "increase from 370 to
    // 420, 440, 460, and 480 GBps when gpus increase from 4 to 5, 6, 7, and 8"; algbw "from 258
    // to about 265, 270, and 273". Tolerance 10% on busbw, 5% on algbw.
    const double busbw[] = {420.0, 440.0, 460.0, 480.0};
    const double algbw[] = {258.0, 265.0, 270.0, 273.0};
    for (int g = 5; g <= 8; ++g) {
        const CollectiveInputs in = dgx("h100-sxm5", 1, g, 400.0);
        const auto t =
            collectiveTime(CollectiveOp::AllReduce, CollectiveAlgorithm::Nvls, 4 * GiB, in);
        INFO(g << " GPUs: busbw " << t.busbwGbytePerS << ", algbw " << t.algbwGbytePerS);
        REQUIRE(t.available);
        const auto i = static_cast<std::size_t>(g - 5);
        CHECK(t.busbwGbytePerS == Approx(busbw[i]).epsilon(0.10));
        CHECK(t.algbwGbytePerS == Approx(algbw[i]).epsilon(0.05));
    }
    // "Busbw remains about 365-370 GBps when gpus from 2 to 4": NVLS does not pay there, the
    // ring's 370 stays the best.
    for (int g = 2; g <= 4; ++g) {
        const auto t =
            bestCollective(CollectiveOp::AllReduce, 4 * GiB, dgx("h100-sxm5", 1, g, 400.0));
        INFO(g << " GPUs: " << collectiveAlgorithmName(t.algorithm) << " " << t.busbwGbytePerS);
        CHECK(t.algorithm == CollectiveAlgorithm::Ring);
        CHECK(t.busbwGbytePerS == Approx(367.5).epsilon(0.05));
    }
}

TEST_CASE("NCCL issue 812: DGX A100 with 8 x 200G InfiniBand, ring all-reduce busbw 192 GB/s",
          "[validation][network][collectives][nccl][multinode]")
{
    // github.com/NVIDIA/nccl/issues/812 (NVIDIA, 2023-03-31): "On an Nvidia DGX-A100 system we
    // have 8x200Gbit/s IB cards and we measure 192GB/s AllReduce BusBW" (ring, beyond two nodes).
    // Four nodes; the rings cross all eight rails at once. Tolerance 10%.
    const CollectiveInputs in = dgx("a100-sxm4-80gb", 4, 8, 200.0);
    const auto t = collectiveTime(CollectiveOp::AllReduce, CollectiveAlgorithm::Ring, 8 * GiB, in);
    REQUIRE(t.available);
    CHECK(t.busbwGbytePerS == Approx(192.0).epsilon(0.10));
    // One NIC's worth would be eight times lower: the old flat-ring figure.
    CHECK(t.busbwGbytePerS > 6.0 * in.fabricGbytePerS);
}

TEST_CASE("nccl-tests issue 309: 4 nodes of 8 H100, 8 x 400G InfiniBand, all-reduce busbw 366 GB/s",
          "[validation][network][collectives][nccl][multinode]")
{
    // github.com/NVIDIA/nccl-tests/issues/309 (2025-06): 4 HGX H100 nodes, 32 GPU-NIC pairs of
    // ConnectX-7 400G InfiniBand: all_reduce_perf -b 8 -e 16g "max busbw can get 365.84 GB/s";
    // NVIDIA (kiskra-nvidia, 2025-06-18): "That's a good number. Multi-node, your IB network
    // will be the limiting factor. With 8 400 Gbps NICs your peak would be at 400 GB/s."
    // Tolerance 10%.
    const CollectiveInputs in = dgx("h100-sxm5", 4, 8, 400.0);
    const auto t = bestCollective(CollectiveOp::AllReduce, 8 * GiB, in);
    REQUIRE(t.available);
    INFO(collectiveAlgorithmName(t.algorithm) << " busbw " << t.busbwGbytePerS);
    CHECK(t.busbwGbytePerS == Approx(365.84).epsilon(0.10));
    // Below the 400 GB/s of eight NICs at line rate.
    CHECK(t.busbwGbytePerS < 400.0);
}

TEST_CASE("nccl-tests issue 309 as a planner describes it: 4 DGX H100 on QM9700, NCCL's defaults",
          "[validation][network][collectives][nccl][multinode][scenario]")
{
    // The same 4-node run as above, through a scenario as a planner writes one: DGX H100 nodes
    // on QM9700 NDR switches, which can reduce in the network (SHARP). NCCL leaves that off
    // unless told (NCCL_COLLNET_ENABLE defaults to 0, src/init.cc), and the run above did not
    // use it: 365.84 GB/s is below eight NICs' line rate, which reduction in the switches would
    // pass (as NVLS does across nodes). The scenario's default matches; turned on
    // (network.in_network_reduction), the switches reduce and the all-reduce is faster.
    // Tolerance 10%.
    auto catalog = model::Catalog::load(std::string(DCT_TEST_DATA_DIR) + "/catalog");
    REQUIRE(catalog);
    nlohmann::json scenario = {{"schema_version", 2},
                               {"name", "nccl-tests issue 309"},
                               {"site", "dallas"},
                               {"compute", {{"node", "dgx-h100"}, {"node_count", 4}}},
                               {"network",
                                {{"protocol", "infiniband"},
                                 {"topology", "rail_optimized"},
                                 {"switch", "qm9700"},
                                 {"nic", "connectx-7-400g"}}},
                               {"cooling", {{"system", "d2c-rdhx"}}},
                               {"workload", {{"model", "llama3-8b"}, {"tokens_billion", 100}}}};
    const DocumentEvaluation d = evaluateDocument(scenario, *catalog, "issue309.json");
    REQUIRE(d.evaluation);
    const CollectiveInputs& in = d.evaluation->network.worldInputs;
    REQUIRE(in.ranks == 32);
    CHECK_FALSE(in.inNetworkReduction);
    const auto t = bestCollective(CollectiveOp::AllReduce, 8 * GiB, in);
    REQUIRE(t.available);
    INFO(collectiveAlgorithmName(t.algorithm) << " busbw " << t.busbwGbytePerS);
    CHECK(t.busbwGbytePerS == Approx(365.84).epsilon(0.10));
    CHECK(t.algorithm != CollectiveAlgorithm::InNetwork);
    CHECK(t.algorithm != CollectiveAlgorithm::Nvls);

    scenario["network"]["in_network_reduction"] = true;
    const DocumentEvaluation sharp = evaluateDocument(scenario, *catalog, "issue309.json");
    REQUIRE(sharp.evaluation);
    const auto s =
        bestCollective(CollectiveOp::AllReduce, 8 * GiB, sharp.evaluation->network.worldInputs);
    INFO("with SHARP: " << collectiveAlgorithmName(s.algorithm) << " busbw " << s.busbwGbytePerS);
    CHECK(s.busbwGbytePerS > 400.0);
}

TEST_CASE("nccl-tests issue 309: 2 nodes of 8 H100 reach 470 GB/s, past the NICs, by NVLS tree",
          "[validation][network][collectives][nccl][multinode][nvls]")
{
    // The same issue: "each 2 nodes with 16 pairs can still get 470 GB/s"; NVIDIA: "The results
    // from 2 nodes tend to be an aberration (it's an ideal case for the TREE protocol)". On two
    // nodes NCCL runs NVLS tree (nccl-tests issue 196, sjeaugey: "On H100 we have NVLink SHARP so
    // we can use the NVLSTree algorithm between 2 nodes which will give you higher BW"): each
    // node's shards cross the network once, so busbw exceeds the eight NICs' 376 GB/s.
    // Tolerance 10%.
    const CollectiveInputs in = dgx("h100-sxm5", 2, 8, 400.0);
    const auto t = bestCollective(CollectiveOp::AllReduce, 8 * GiB, in);
    REQUIRE(t.available);
    CHECK(t.algorithm == CollectiveAlgorithm::NvlsTree);
    CHECK(t.busbwGbytePerS == Approx(470.0).epsilon(0.10));
    const auto ring =
        collectiveTime(CollectiveOp::AllReduce, CollectiveAlgorithm::Ring, 8 * GiB, in);
    CHECK(ring.busbwGbytePerS < 8 * 48.0);
}

TEST_CASE("Nebius 2 x 8 H100 over 400G InfiniBand: the NVLS tree runs 217 us + S / 250 GB/s",
          "[validation][network][collectives][nccl][multinode][nvls]")
{
    // tests/data/nccl-tests/nebius-2x8-h100-ib-all_reduce_perf.log (dstackai/dstack,
    // examples/clusters/nebius/README.md): from 64 MiB the run is a line, 472 us at 64 MiB,
    // 4,512 us at 1 GiB, 34,381 us at 8 GiB: 217 us + S / 250 GB/s. NCCL's tuner puts 2 x 20.9
    // us of latency on it; the rest is the fill of the NVLS tree's chunk pipeline (src/enqueue.cc
    // calcCollChunking, NVLS_TREE: 16 channels x 8 heads, 128 KiB chunks through the NVSwitch
    // reduction, the network each way and the multicast; docs/collectives.md, "NVLS tree across
    // nodes"). Tolerance 15% on the intercept, 5% on the slope.
    const CollectiveInputs in = dgx("h100-sxm5", 2, 8, 400.0);
    const auto time = [&](double bytes) {
        const auto t =
            collectiveTime(CollectiveOp::AllReduce, CollectiveAlgorithm::NvlsTree, bytes, in);
        REQUIRE(t.available);
        return t.seconds * 1e6;
    };
    const double slope = (time(8 * GiB) - time(GiB)) / (7 * GiB);
    const double interceptUs = time(GiB) - GiB * slope;
    INFO("t = " << interceptUs << " us + S / " << 1e-3 / slope << " GB/s");
    CHECK(1e-3 / slope == Approx(250.0).epsilon(0.05));
    CHECK(interceptUs == Approx(217.0).epsilon(0.15));
    // Below 4 x 128 operations x 128 KiB (64 MiB) the chunk halves, and with it the fill.
    const double interceptAt16MiB = time(16.0 * 1048576.0) - 16.0 * 1048576.0 * slope;
    CHECK(interceptAt16MiB < 0.8 * interceptUs);
}

TEST_CASE("NCCL GTC 2024 talk (NCCL issue 1649): multi-node ring all-reduce busbw about 380 GB/s",
          "[validation][network][collectives][nccl][multinode]")
{
    // github.com/NVIDIA/nccl/issues/1649 quotes the GTC 2024 NCCL talk's DGX H100 figures:
    // "the multi-node Allreduce busBW is approximately 380GB/s even without using SHARP". The
    // ring's bandwidth term (its busbw once latency no longer counts) at any node count.
    // Tolerance 10%.
    for (int nodes : {3, 4, 16, 64}) {
        const CollectiveInputs in = dgx("h100-sxm5", nodes, 8, 400.0);
        const auto t =
            collectiveTime(CollectiveOp::AllReduce, CollectiveAlgorithm::Ring, 16 * GiB, in);
        REQUIRE(t.available);
        const double plateau =
            t.bandwidthGbytePerS * busBandwidthFactor(CollectiveOp::AllReduce, in.ranks);
        INFO(nodes << " nodes: " << plateau << " GB/s");
        CHECK(plateau == Approx(380.0).epsilon(0.10));
    }
}

TEST_CASE("NCCL GTC 2024 talk (NCCL issue 1649): the NVLS tree across nodes about 370-380 GB/s",
          "[validation][network][collectives][nccl][multinode][nvls]")
{
    // The same issue quotes the talk's other figure: "the Allreduce busBW for NVLS + Tree is
    // approximately 370GB/s~380GB/s" on DGX H100 nodes with eight 400G NICs, past the
    // double binary tree's 0.92 of the NICs' rate (361 GB/s): NCCL charges that 0.92 to the
    // tree's own kernel only (src/graph/tuning.cc), never to the NVLS tree. nccl-tests' busbw at
    // 16 GiB on 4, 16 and 64 nodes. Tolerance 10%.
    for (int nodes : {4, 16, 64}) {
        const CollectiveInputs in = dgx("h100-sxm5", nodes, 8, 400.0);
        const auto t =
            collectiveTime(CollectiveOp::AllReduce, CollectiveAlgorithm::NvlsTree, 16 * GiB, in);
        REQUIRE(t.available);
        INFO(nodes << " nodes: " << t.busbwGbytePerS << " GB/s");
        CHECK(t.busbwGbytePerS == Approx(375.0).epsilon(0.10));
    }
}

TEST_CASE("Voltage Park H100 cluster runs 10-15% below the engine and the other H100 clusters",
          "[validation][network][collectives][nccl][multinode]")
{
    // Voltage Park / Georgia Tech benchmark suite (github.com/aigatech/vpbenchmarking,
    // NCCL 2.24.3): 4 nodes of 8 x H100 SXM5, 3.2 Tbps InfiniBand per node: AllReduce bus bandwidth
    // 330.93 GB/s, AllGather 323.53 GB/s. The same shape (4 nodes, 8 x 400G) measured 365.84 GB/s
    // in nccl-tests issue 309, which NVIDIA called good, and NVIDIA expects 46-48 GB/s per NDR NIC
    // (nccl-tests issue 290), 368-384 GB/s a node. This cluster is low in both operations by the
    // same share, a per-NIC shortfall of the cluster (its all-gather has no algorithm choice to
    // get wrong), not an algorithm the engine misses: it is checked as an outlier, 15%.
    const CollectiveInputs in = dgx("h100-sxm5", 4, 8, 400.0);
    const auto ar = bestCollective(CollectiveOp::AllReduce, 8 * GiB, in);
    REQUIRE(ar.available);
    CHECK(ar.busbwGbytePerS == Approx(330.93).epsilon(0.15));
    const auto ag = bestCollective(CollectiveOp::AllGather, 1 * GiB, in);
    REQUIRE(ag.available);
    CHECK(ag.busbwGbytePerS == Approx(323.53).epsilon(0.15));
    // Both measured figures fall short of the engine's by about the same share (within 5%).
    CHECK(330.93 / ar.busbwGbytePerS == Approx(323.53 / ag.busbwGbytePerS).epsilon(0.05));
}

TEST_CASE("DeepEP issue 303: 8 NVSwitch GPUs, 64-byte all-reduce in about 14.5 us",
          "[validation][network][collectives][nccl][latency]")
{
    // github.com/deepseek-ai/DeepEP/issues/303: nccl-tests all_reduce_perf on one 8 x H20 node
    // (NVLink 4 through NVSwitch, as H100): 64 B in 14.50 us out of place, 14.39 us in place. The
    // engine: NCCL's LL ring base latency and 14 NVLink steps. Tolerance 15%.
    const CollectiveInputs in = dgx("h100-sxm5", 1, 8, 400.0);
    const auto t = bestCollective(CollectiveOp::AllReduce, 64.0, in);
    REQUIRE(t.available);
    CHECK(t.protocol == CollectiveProtocol::LL);
    CHECK(t.seconds * 1e6 == Approx(14.5).epsilon(0.15));
    CHECK(t.latency.nicUs == 0.0);
}

// The other nccl-tests benchmarks (all_gather_perf, reduce_scatter_perf, alltoall_perf,
// sendrecv_perf): their busbw at the largest sizes, from logs committed to public repositories
// with NCCL's defaults (docs/references.md, "Other collectives").

namespace {

/** busbw of the engine's fastest \a op of \a bytes on \a in. */
double busbw(CollectiveOp op, double bytes, const CollectiveInputs& in)
{
    const auto t = bestCollective(op, bytes, in);
    REQUIRE(t.available);
    return t.busbwGbytePerS;
}

} // namespace

TEST_CASE("nccl-tests on 8 H100: all-gather 359, reduce-scatter 361, all-to-all 346, "
          "send/recv 367 GB/s",
          "[validation][network][collectives][nccl][p2p]")
{
    // github.com/xxrjun/nccl-tests-cluster at 455de4f,
    // benchmarks/example-cluster01/.../single-node/runs/20260128-145017/without-debug/logs/
    // nccl_N1_G8_cnode3-002.log: nccl-tests 2.17.8, NCCL 2.29.2, 8 x H100 80GB HBM3 on NVSwitch,
    // one rank a GPU, no NCCL variables set; busbw at 8 GiB (three other nodes agree within
    // 0.5%). NVIDIA: "NCCL can get an effective NVLink bandwidth of 370GB/s, which you can
    // observe as "BusBw" when running non-allreduce operations" (nccl-tests issue 212,
    // 2024-05-06). Tolerance 10%.
    const CollectiveInputs in = dgx("h100-sxm5", 1, 8, 400.0);
    CHECK(busbw(CollectiveOp::AllGather, 8 * GiB, in) == Approx(359.14).epsilon(0.10));
    CHECK(busbw(CollectiveOp::ReduceScatter, 8 * GiB, in) == Approx(361.36).epsilon(0.10));
    CHECK(busbw(CollectiveOp::AllToAll, 8 * GiB, in) == Approx(346.23).epsilon(0.10));
    CHECK(busbw(CollectiveOp::SendRecv, 8 * GiB, in) == Approx(367.04).epsilon(0.10));
    // Together AI's 8 x H100 (togethercomputer/together-nccl-tests at 6698e53, NCCL 2.26.2):
    // all-gather 359.02 and reduce-scatter 362.16 GB/s at 8 GiB by ring, the same with NVLS on.
    CHECK(busbw(CollectiveOp::AllGather, 8 * GiB, in) == Approx(359.02).epsilon(0.10));
    CHECK(busbw(CollectiveOp::ReduceScatter, 8 * GiB, in) == Approx(362.16).epsilon(0.10));
}

TEST_CASE("nccl-tests across H100 nodes over 8 x 400G: all-to-all at twice a GPU's NIC on two "
          "nodes, one NIC's on ten, send/recv one NIC's",
          "[validation][network][collectives][nccl][multinode][p2p]")
{
    // The same repository (xxrjun/nccl-tests-cluster at 455de4f), one 400G-class NIC a GPU
    // (one GPU a node reaches 48.7 GB/s all-gather): two nodes of 8 (pairwise/.../
    // nccl_N2_G8_cnode3-002_cnode3-003.log; 45 node pairs: all-to-all 91.5-92.1, send/recv
    // 41.8-46.3 GB/s) and ten (multi-node/.../nccl_N10_G8.log: all-to-all 50.54 GB/s at 8 GiB).
    // NVIDIA: all-to-all "BusBW = 2x network bandwidth per GPU" on two nodes, "N/(N-1)x the
    // bandwidth per GPU, N being the number of nodes" (nccl-tests issue 130, 2023-02-03).
    // Tolerance 10%.
    const CollectiveInputs two = dgx("h100-sxm5", 2, 8, 400.0);
    CHECK(busbw(CollectiveOp::AllToAll, 8 * GiB, two) == Approx(91.89).epsilon(0.10));
    CHECK(busbw(CollectiveOp::SendRecv, 8 * GiB, two) == Approx(45.87).epsilon(0.10));
    const CollectiveInputs ten = dgx("h100-sxm5", 10, 8, 400.0);
    CHECK(busbw(CollectiveOp::AllToAll, 8 * GiB, ten) == Approx(50.54).epsilon(0.10));
    // Its all-gather and reduce-scatter across the ten nodes (317.41 and 315.75 GB/s at 8 GiB,
    // all-reduce 320.54 at 16 GiB: the three alike, as the rings share the NICs alike) run 14%
    // below the NICs' 8 x 47 GB/s, as the Voltage Park cluster above runs 10-15% below: the
    // engine, at the rings' NIC bound, is 17% above them (an outlier of the cluster, checked as
    // the error it is).
    const double ag = busbw(CollectiveOp::AllGather, 8 * GiB, ten);
    CHECK(ag / 317.41 - 1.0 == Approx(0.17).margin(0.03));
    CHECK(busbw(CollectiveOp::ReduceScatter, 8 * GiB, ten) / 315.75 - 1.0 ==
          Approx(0.17).margin(0.03));
}

TEST_CASE("nccl-tests on Azure NDm A100 v4: all-gather and all-to-all on one and two nodes",
          "[validation][network][collectives][nccl][multinode][p2p]")
{
    // github.com/microsoft/mscclpp, docs/performance-ndmv4.md at 7f3f366: 8 x A100 80GB on
    // second-generation NVSwitch, 8 x 200G HDR InfiniBand a node, NCCL 2.17.1, in-place times
    // with CUDA graphs. One node at 1 GiB: all-gather 253.59, all-to-all 254.69 GB/s (NVIDIA:
    // "240GB/s on A100, but some other bottlenecks on the GPUs limits it to ~230GB/s", nccl-tests
    // issue 149). Two nodes: all-gather 186.01 GB/s at 4 GiB. Tolerance 10%.
    const CollectiveInputs one = dgx("a100-sxm4-80gb", 1, 8, 200.0);
    CHECK(busbw(CollectiveOp::AllGather, GiB, one) == Approx(253.59).epsilon(0.10));
    CHECK(busbw(CollectiveOp::AllToAll, GiB, one) == Approx(254.69).epsilon(0.10));
    const CollectiveInputs two = dgx("a100-sxm4-80gb", 2, 8, 200.0);
    CHECK(busbw(CollectiveOp::AllGather, 4 * GiB, two) == Approx(186.01).epsilon(0.10));
    // Its all-to-all across the two nodes, 37.81 GB/s at 4 GiB, is 20% below NVIDIA's two
    // GPUs' worth of NIC (2 x 23.5 GB/s) that the engine gives (44.0): not reached here.
    CHECK(busbw(CollectiveOp::AllToAll, 4 * GiB, two) / 37.81 - 1.0 == Approx(0.165).margin(0.03));
}

TEST_CASE("nccl-tests on two B200 nodes over 8 x 400G InfiniBand: send/recv 43 GB/s",
          "[validation][network][collectives][nccl][multinode][p2p]")
{
    // togethercomputer/together-nccl-tests at 280e4df,
    // benchmarks/B200/sendrecv-p2p-scaling/run3/nccl-sendrecv-2node-79939.out: NCCL 2.29.7,
    // eight ConnectX-7 NDR a node, NVLS and SHARP off: 43.14 GB/s at 256 MiB. Tolerance 10%.
    CollectiveInputs in = dgx("b200", 2, 8, 400.0);
    in.generation = GpuGeneration::Blackwell;
    CHECK(busbw(CollectiveOp::SendRecv, 256.0 * 1048576.0, in) == Approx(43.14).epsilon(0.10));
}

namespace {

/** The collective inputs over every GPU of \a scenario, as the network solver builds them. */
CollectiveInputs worldInputs(const nlohmann::json& scenario)
{
    auto catalog = model::Catalog::load(std::string(DCT_TEST_DATA_DIR) + "/catalog");
    REQUIRE(catalog);
    const DocumentEvaluation d = evaluateDocument(scenario, *catalog, "nccl-published.json");
    REQUIRE(d.evaluation);
    return d.evaluation->network.worldInputs;
}

/** \a nodes nodes of catalog entry \a node on \a nic NICs and \a switchId switches. */
nlohmann::json nodesScenario(const char* node, int nodes, const char* nic, const char* switchId)
{
    return {{"schema_version", 2},
            {"name", "nccl-tests"},
            {"site", "dallas"},
            {"compute", {{"node", node}, {"node_count", nodes}}},
            {"network",
             {{"protocol", "infiniband"},
              {"topology", "fat_tree"},
              {"switch", switchId},
              {"nic", nic},
              {"routing", "adaptive"}}},
            {"cooling", {{"system", "d2c-high-density"}}},
            {"facility", {{"rack_power_limit_kw", 140}}},
            {"workload", {{"model", "llama3-8b"}, {"tokens_billion", 100}}}};
}

} // namespace

TEST_CASE("NCCL issue 2140: 8 B300 all-reduce busbw 695 GB/s by ring and 845 by NVLS, held out",
          "[validation][network][collectives][nccl][nvls][blackwell]")
{
    // github.com/NVIDIA/nccl/issues/2140 (NCCL 2.30.4, 2026-04): one node of 8 B300 (fifth-
    // generation NVLink), NVLS off then on: busbw 695 -> 845 GB/s, algbw 397 -> 483 (8 H100 in
    // the same report: 370 -> 480, the cases above). The NVLS links' rate is held out: the
    // engine's Blackwell constants are NCCL's tuner's (nvlsEfficiency 0.74, nccltuning.h), not
    // fitted to a Blackwell measurement. The NVLS algbw is also what the NVLink 5 switch chip's
    // adders were fitted on (catalog nvls_reduce_gbyte_per_s: 483 x 7 / 2 a chip), which bind
    // the GB200 NVL72 rack below. The ring is held out (the NVLink packet share,
    // protocolefficiency.h). A DGX B300 as a planner describes it, through the network solver.
    // Tolerance 10%.
    CollectiveInputs in = worldInputs(nodesScenario("dgx-b300", 1, "connectx-8-800g", "q3400-ra"));
    REQUIRE(in.nvlsReduceGbytePerS == Approx(2.0 * 483.0 * 7.0 / 2.0));
    const auto best = bestCollective(CollectiveOp::AllReduce, 8 * GiB, in);
    REQUIRE(best.available);
    INFO(collectiveAlgorithmName(best.algorithm) << " busbw " << best.busbwGbytePerS);
    CHECK(best.algorithm == CollectiveAlgorithm::Nvls);
    CHECK(best.busbwGbytePerS == Approx(845.0).epsilon(0.10));
    CHECK(best.algbwGbytePerS == Approx(483.0).epsilon(0.10));
    {
        // The links alone, the adders left out: the held-out rate.
        CollectiveInputs links = in;
        links.nvlsReduceGbytePerS = 0.0;
        const auto nvls = bestCollective(CollectiveOp::AllReduce, 8 * GiB, links);
        INFO("links alone: algbw " << nvls.algbwGbytePerS);
        CHECK(nvls.algbwGbytePerS == Approx(483.0).epsilon(0.10));
        CHECK(nvls.algbwGbytePerS >= best.algbwGbytePerS);
    }
    const auto ring =
        collectiveTime(CollectiveOp::AllReduce, CollectiveAlgorithm::Ring, 8 * GiB, in);
    REQUIRE(ring.available);
    INFO("ring busbw " << ring.busbwGbytePerS);
    // The ring 7.6% above the run: NVLink 5 carries NCCL's ring at 0.77 of its rate, where the
    // packet-and-LL128 share the engine takes for every NVLink generation (0.833) holds on
    // NVLink 4 (370 of 450 on H100).
    CHECK(ring.busbwGbytePerS / 695.0 - 1.0 == Approx(0.076).margin(0.02));
}

TEST_CASE("CoreWeave's GB200 NVL72 all-reduce on 1 and 2 racks within 5%, 20 racks a known gap, "
          "held out",
          "[validation][network][collectives][nccl][nvls][mnnvl]")
{
    // coreweave/nccl-tests, README.md "Expected Performance", GB200 (NCCL 2.26.2, MNNVL and
    // IMEX on: slurm/nccl-test-distributed-gb200-nvl72-enroot.slurm; Quantum-X800 InfiniBand):
    // all_reduce_perf busbw, out-of-place, at the largest size each run has:
    //   1 rack (72 GPUs), 8 GiB: 834.57 GB/s (algbw 423.16)
    //   2 racks (144), 16 GiB: 810.41 (408.40)
    //   20 racks (1,440), 16 GiB: 405.74 (203.01), still rising with the size.
    // Held out: the NVLink 5 switch chip's adders (catalog nvls_reduce_gbyte_per_s) were fitted
    // on 8 B300 of one HGX board (the NCCL issue 2140 case above), two chips adding 7 operands a
    // result element; the rack's 18 chips adding 71 give its 72-GPU NVLS (docs/collectives.md,
    // "NVLS: the switch's adders"), and across two racks the NVLS tree's reduction inside each
    // rack binds the same way. Before the adders were modelled the engine took the links alone,
    // 546 GB/s algbw on one rack (+29.1%, +32.3% on two). Tolerance 5%.
    //
    // 20 racks stay a known gap: the runs' algbw halves from 2 racks to 20 as a tree's does over
    // about 430 GB/s of network a domain (about 9 NICs' worth, not 72), where the engine's NVLS
    // tree reaches the rack's adder bound at every size; what limits it is not found (NCCL's
    // NVLS graph takes up to 32 heads, src/graph/search.cc). The 20-rack run is a ring: it
    // follows t = a + S / B with a = 5.4 ms (B = 217 GB/s algbw from 8 to 16 GiB), the latency
    // of a ring of 1,440 ranks (the engine's ring: 5.58 ms, and 7,115 us at 512 MiB against the
    // run's 7,108), far above any tree's (the engine's NVLS tree: 0.74 ms). So NCCL chose the
    // ring there (its tuner rates the NVLS tree at bwInter / 2 from three nodes on) where the
    // engine, choosing by its own times, takes the NVLS tree; and the ring's bandwidth, 217 GB/s
    // algbw, is 0.62 of the engine's ring (350). Recorded as it stands:
    struct Case
    {
        int racks;
        double bytes, busbw, modelError, margin;
    };
    const Case cases[] = {{1, 8 * GiB, 834.57, 0.0, 0.05},
                          {2, 16 * GiB, 810.41, 0.0, 0.05},
                          {20, 16 * GiB, 405.74, 1.073, 0.03}};
    for (const Case& c : cases) {
        const auto t = bestCollective(CollectiveOp::AllReduce, c.bytes,
                                      worldInputs(nodesScenario("gb200-nvl72-tray", 18 * c.racks,
                                                                "connectx-7-400g", "q3400-ra")));
        REQUIRE(t.available);
        const double error = t.busbwGbytePerS / c.busbw - 1.0;
        INFO(c.racks << " racks: " << collectiveAlgorithmName(t.algorithm) << " busbw "
                     << t.busbwGbytePerS << ", error " << error * 100.0 << "%");
        CHECK(error == Approx(c.modelError).margin(c.margin));
    }
}

TEST_CASE("NVLS on 8 GB200 of two NVL72 trays: the links bind, not the rack's adders, held out",
          "[validation][network][collectives][nccl][nvls][mnnvl]")
{
    // lixueduan.com, "GB200 MNNVL" (posts/ai/13-gb200-mnnvl-nccl-test): all_reduce_perf over two
    // compute trays of one GB200 NVL72 (4 GPUs each, MNNVL on), 811 GB/s busbw at the largest
    // sizes (the post's headline figure; its NCCL release is not given). Eight GPUs load the
    // rack's 18 switch chips with 7 operands a result element: far from their bound, so the
    // NVLink links' NVLS rate applies, as on one HGX board. Tolerance 10%.
    const CollectiveInputs in =
        worldInputs(nodesScenario("gb200-nvl72-tray", 2, "connectx-7-400g", "q3400-ra"));
    const auto t = bestCollective(CollectiveOp::AllReduce, 8 * GiB, in);
    REQUIRE(t.available);
    INFO(collectiveAlgorithmName(t.algorithm) << " busbw " << t.busbwGbytePerS);
    CHECK(t.algorithm == CollectiveAlgorithm::Nvls);
    CHECK(t.busbwGbytePerS == Approx(811.0).epsilon(0.10));
    // The adders alone would allow more than twice the links' rate here.
    CHECK(in.nvlsReduceGbytePerS / 7.0 > 2.0 * t.algbwGbytePerS);
}

TEST_CASE("rccl-tests on 8 MI300X: all-reduce busbw from 274 GB/s at 64 MiB to 319 at 16 GiB, "
          "held out",
          "[validation][network][collectives][rccl][amd]")
{
    // AMD ROCm blog, "Understanding RCCL Bandwidth and xGMI Performance on AMD Instinct MI300X"
    // (Kolla, Alizadeh and Lee, 2 March 2025; ROCm/rocm-blogs,
    // blogs/software-tools-optimization/mi300x-rccl-xgmi/README.md): all_reduce_perf on one
    // 8 x MI300X platform (RCCL 2.22.3, ROCm 6.3.0, one process a GPU), out-of-place busbw.
    // The engine's only AMD-specific input is the link's realized share (catalog
    // scale_up_link_efficiency, 45 of xGMI's 64 GB/s, the blog's per-link measurement), not
    // fitted to these runs. Tolerance 5%.
    const CollectiveInputs in =
        worldInputs(nodesScenario("mi300x-platform", 1, "connectx-7-400g", "q3400-ra"));
    struct Row
    {
        double bytes, busbw;
    };
    const Row blog[] = {{64 * MiB, 273.66},  {128 * MiB, 294.55}, {256 * MiB, 305.62},
                        {512 * MiB, 310.46}, {GiB, 314.72},       {2 * GiB, 316.04},
                        {4 * GiB, 317.40},   {8 * GiB, 317.96},   {16 * GiB, 318.98}};
    for (const Row& row : blog) {
        const auto t = bestCollective(CollectiveOp::AllReduce, row.bytes, in);
        REQUIRE(t.available);
        INFO(row.bytes / MiB << " MiB: " << collectiveAlgorithmName(t.algorithm) << " busbw "
                             << t.busbwGbytePerS);
        CHECK(t.busbwGbytePerS == Approx(row.busbw).epsilon(0.05));
    }
    // Two more single-platform runs at 8 GiB: AMD's system acceptance guide
    // (ROCm/system-acceptance-docs, docs/performance-bench/mi300x.rst at 058057f, one process
    // driving 8 GPUs) 316.55, its pass mark 304 in place; and a third party's cluster
    // (hisohara/ai-scripts, training/01_rccl-smoketest/README.md at 0780bb3) 315.69.
    const double at8 = bestCollective(CollectiveOp::AllReduce, 8 * GiB, in).busbwGbytePerS;
    CHECK(at8 == Approx(316.55).epsilon(0.05));
    CHECK(at8 == Approx(315.69).epsilon(0.05));
    CHECK(at8 >= 304.0);
}

TEST_CASE("rccl-tests on 2 x 8 MI300X over 8 x 400G RoCE: all-reduce busbw 357 GB/s at 16 GiB, "
          "held out",
          "[validation][network][collectives][rccl][amd][multinode]")
{
    // hisohara/ai-scripts, training/01_rccl-smoketest/README.md at 0780bb3 ("AAC10 MI300X
    // Slurm"): all_reduce_perf over two 8 x MI300X nodes (RCCL 2.22.3, ROCm 6.4.2), eight mlx5
    // NICs a node with NCCL_IB_GID_INDEX=3 (RoCE v2). Their rate is not printed; the busbw
    // says at least 400G: eight 200G ports (about 188 GB/s after the transport) could not carry
    // a two-node ring's 357. Out-of-place busbw; tolerance 5% from 512 MiB, 10% at 256 MiB
    // (where the run still climbs steeply: 293.75, the engine's ring 317.7).
    nlohmann::json scenario = nodesScenario("mi300x-platform", 2, "connectx-7-400g", "sn5600");
    scenario["network"]["protocol"] = "roce_v2";
    const CollectiveInputs in = worldInputs(scenario);
    struct Row
    {
        double bytes, busbw, tolerance;
    };
    const Row rows[] = {{256 * MiB, 293.75, 0.10}, {512 * MiB, 325.10, 0.05},
                        {GiB, 340.75, 0.05},       {2 * GiB, 347.90, 0.05},
                        {4 * GiB, 353.40, 0.05},   {8 * GiB, 356.14, 0.05},
                        {16 * GiB, 357.46, 0.05}};
    for (const Row& row : rows) {
        const auto t = bestCollective(CollectiveOp::AllReduce, row.bytes, in);
        REQUIRE(t.available);
        INFO(row.bytes / MiB << " MiB: " << collectiveAlgorithmName(t.algorithm) << " busbw "
                             << t.busbwGbytePerS);
        CHECK(t.busbwGbytePerS == Approx(row.busbw).epsilon(row.tolerance));
    }
    // AMD's two-node acceptance mark for MI300X (ROCm/system-acceptance-docs,
    // docs/network/validation.md): all-reduce at 304 GB/s or more.
    CHECK(bestCollective(CollectiveOp::AllReduce, 8 * GiB, in).busbwGbytePerS >= 304.0);
}

TEST_CASE("NCCL issue 1801: GB200 NVLink partitions of 4 and 8 across three racks, ring within 5%, "
          "the tree within 10%, NCCL's default the ring, held out",
          "[validation][network][collectives][nccl][multinode][blackwell]")
{
    // github.com/NVIDIA/nccl/issues/1801 (NCCL 2.27.3, GB200 NVL72, NCCL_NVLS_ENABLE=0): three
    // NVLink partitions on three racks, so only InfiniBand joins them (four ConnectX-7 400G a
    // compute tray); all_reduce_perf busbw at 16 GiB by algorithm:
    //   NVL4 x 3 (12 GPUs): ring 196.72, tree 234.43
    //   NVL8 x 3 (24 GPUs): ring 393.66, tree 485.68
    // Held out. The ring is within 5%. On three nodes the double binary tree's busiest node
    // carries 1.5 S (the middle of one chain, an end of the other), not the 2 S of four nodes
    // and more that NCCL's tuner counts at any node count: the tree runs 4/3 faster than the
    // tuner rates it, -9.9% and -9.1% here (-32% when the engine charged 2 S). NCCL's default,
    // choosing by its count, is the ring (the "ring, default"), and so is the engine's.
    struct Case
    {
        int domainGpus, trays;
        double ring, tree;
    };
    const Case cases[] = {{4, 3, 196.72, 234.43}, {8, 6, 393.66, 485.68}};
    for (const Case& c : cases) {
        nlohmann::json scenario =
            nodesScenario("gb200-nvl72-tray", c.trays, "connectx-7-400g", "q3400-ra");
        scenario["compute"]["node"] = {{"id", "gb200-nvl72-tray"},
                                       {"scale_up_domain_gpus", c.domainGpus}};
        scenario["workload"]["tensor_parallel"] = 4;
        const CollectiveInputs in = worldInputs(scenario);
        REQUIRE(in.ranks == 3 * c.domainGpus);
        REQUIRE(in.ranksPerNode == c.domainGpus);
        const auto ring =
            collectiveTime(CollectiveOp::AllReduce, CollectiveAlgorithm::Ring, 16 * GiB, in);
        const auto tree = collectiveTime(CollectiveOp::AllReduce,
                                         CollectiveAlgorithm::DoubleBinaryTree, 16 * GiB, in);
        REQUIRE(ring.available);
        REQUIRE(tree.available);
        INFO("NVL" << c.domainGpus << ": ring " << ring.busbwGbytePerS << ", tree "
                   << tree.busbwGbytePerS);
        CHECK(ring.busbwGbytePerS == Approx(c.ring).epsilon(0.05));
        CHECK(tree.busbwGbytePerS == Approx(c.tree).epsilon(0.10));
        CHECK(tree.busbwGbytePerS > 1.1 * ring.busbwGbytePerS);
        const auto chosen = bestCollective(CollectiveOp::AllReduce, 16 * GiB, in);
        CHECK(chosen.algorithm == CollectiveAlgorithm::Ring);
    }
}

TEST_CASE("NCCL issue 330: the maintainers' peak of the two-node tree, 16 GPUs on one 6.25 GB/s "
          "interface a node",
          "[validation][network][collectives][nccl][multinode]")
{
    // github.com/NVIDIA/nccl/issues/330 (NVIDIA, 2020-05-04): "the interface should actually be
    // able to deliver 6.25 GB/s, which for the tree on two nodes, 16 GPUs means a peak of
    // 10.9 GB/s" busbw: on two nodes the tree puts S through each node's network (NCCL issue
    // 946: "2x less traffic on the network than on the intra-node connections"), so busbw runs
    // to 2 (n - 1) / n of the interface, at the tree's efficiency. The run's measured best was
    // 9 GB/s (tree) against 5.6 (ring): the tree passes the network's rate, the ring does not.
    // The engine: 10.2 (-6.4%), the estimate leaving out the wire's packet headers.
    CollectiveInputs in;
    in.ranks = 16;
    in.ranksPerNode = 8;
    in.railsPerNode = 1;
    in.scaleUpGbytePerS = 130.0; // NVLink 2 (V100): not what binds
    in.fabricGbytePerS = 6.25 / 8;
    in.generation = GpuGeneration::Ampere;
    const auto tree = collectiveTime(CollectiveOp::AllReduce, CollectiveAlgorithm::DoubleBinaryTree,
                                     CollectiveProtocol::Simple, 4 * GiB, in);
    const auto ring = collectiveTime(CollectiveOp::AllReduce, CollectiveAlgorithm::Ring,
                                     CollectiveProtocol::Simple, 4 * GiB, in);
    REQUIRE(tree.available);
    INFO("tree busbw " << tree.busbwGbytePerS << ", ring " << ring.busbwGbytePerS);
    CHECK(tree.busbwGbytePerS == Approx(10.9).epsilon(0.10));
    CHECK(ring.busbwGbytePerS < 6.25);
    CHECK(tree.busbwGbytePerS > 1.5 * ring.busbwGbytePerS);
}

TEST_CASE("NCCL issue 2035: 2 to 16 nodes of 8 B300 over 800G Ethernet, ring busbw 760 GB/s and "
          "NVLS tree 800 on two nodes, held out",
          "[validation][network][collectives][nccl][multinode][blackwell]")
{
    // github.com/NVIDIA/nccl/issues/2035 (2026-03-05, NCCL 2.29.7): 16 nodes of 8 B300 with
    // eight ConnectX-8 a node on Ethernet (each split into 2 x 400G, 800G a GPU): "Ring:
    // 2/4/8/16 ==> 760GBps +", "NVLSTree: 2 Nodes ==> 800GBps +". Its NVLS tree from four nodes
    // (200 GB/s) was a bug NCCL fixed in 2.30.3 (the maintainers: "a known issue"); not checked.
    // Held out, nothing fitted; described as a planner would, 800G a GPU on 800G switches.
    // Tolerance 10%.
    for (int nodes : {2, 4, 8, 16}) {
        nlohmann::json s = nodesScenario("dgx-b300", nodes, "connectx-8-800g", "tomahawk5-64x800g");
        s["network"]["protocol"] = "roce_v2";
        s["network"]["topology"] = "rail_optimized";
        const CollectiveInputs in = worldInputs(s);
        REQUIRE(in.ranks == 8 * nodes);
        const auto ring =
            collectiveTime(CollectiveOp::AllReduce, CollectiveAlgorithm::Ring, 8 * GiB, in);
        REQUIRE(ring.available);
        INFO(nodes << " nodes: ring busbw " << ring.busbwGbytePerS);
        CHECK(ring.busbwGbytePerS == Approx(760.0).epsilon(0.10));
        if (nodes == 2) {
            const auto best = bestCollective(CollectiveOp::AllReduce, 8 * GiB, in);
            INFO("best " << collectiveAlgorithmName(best.algorithm) << " busbw "
                         << best.busbwGbytePerS);
            CHECK(best.algorithm == CollectiveAlgorithm::NvlsTree);
            CHECK(best.busbwGbytePerS == Approx(800.0).epsilon(0.10));
        }
    }
}

TEST_CASE("nccl-tests issue 283: 248 nodes of 8 H200, all-reduce at 512 MiB typically 350 GB/s, "
          "held out",
          "[validation][network][collectives][nccl][multinode][scale]")
{
    // github.com/NVIDIA/nccl-tests/issues/283 (2025-01-18): 248 servers of 8 H200, eight
    // InfiniBand HCAs each, all_reduce_perf at 512 MiB with NCCL's default algorithm: "typically
    // measuring around 350G, but occasionally dropping below 300G". Held out. The engine runs the
    // double binary tree there (303 GB/s, -13%); NCCL on H200 nodes picks the NVLS tree from
    // 32 MiB (NCCL issue 1752, 64 such nodes), which the engine times slower at this size: its
    // NCCL latency (14 tree hops of about 20 us) and its chunk pipeline's fill (14 hops of 16
    // channels' 64 KiB chunks through a head's NIC) add about 660 us. Eight 400G NICs carry at
    // most 194 GB/s of a tree's algbw, so 350 GB/s of busbw at 512 MiB leaves at most about 300
    // us for both: the engine's NVLS tree across many nodes is slow at mid sizes, a gap recorded
    // here (docs/collectives.md). Tolerance 15% (the run's own spread is wider).
    const CollectiveInputs in =
        worldInputs(nodesScenario("hgx-h200", 248, "connectx-7-400g", "qm9700"));
    REQUIRE(in.ranks == 1984);
    const auto t = bestCollective(CollectiveOp::AllReduce, 512.0 * MiB, in);
    REQUIRE(t.available);
    INFO(collectiveAlgorithmName(t.algorithm) << " busbw " << t.busbwGbytePerS);
    CHECK(t.busbwGbytePerS == Approx(350.0).epsilon(0.15));
}

TEST_CASE("NCCL issue 1752: 64 nodes of 8 H200 over Ethernet, NCCL's choice at 16 MiB, held out",
          "[validation][network][collectives][nccl][multinode][scale]")
{
    // github.com/NVIDIA/nccl/issues/1752 (2025-06-25): all_reduce_perf on 64 hosts of 8 H200 over
    // an Ethernet network, NCCL's INFO log: "AllReduce: 16777216 Bytes -> Algo TREE proto LL128",
    // "33554432 Bytes -> Algo NVLS_TREE proto SIMPLE". Held out. The engine's choice at 16 MiB is
    // NCCL's; at 32 MiB it keeps the tree with LL128 (and to 8 GiB), timing the NVLS tree's
    // intercept across 64 nodes at about 570 us (the gap of the issue 283 case above), where
    // NCCL's tuner counts its own latency alone (docs/collectives.md, "NVLS tree across nodes").
    nlohmann::json s = nodesScenario("hgx-h200", 64, "connectx-7-400g", "sn5600");
    s["network"]["protocol"] = "roce_v2";
    s["network"]["topology"] = "rail_optimized";
    const CollectiveInputs in = worldInputs(s);
    REQUIRE(in.ranks == 512);
    const auto at16 = bestCollective(CollectiveOp::AllReduce, 16.0 * MiB, in);
    REQUIRE(at16.available);
    INFO("16 MiB: " << collectiveAlgorithmName(at16.algorithm) << "/"
                    << collectiveProtocolName(at16.protocol));
    CHECK(at16.algorithm == CollectiveAlgorithm::DoubleBinaryTree);
    CHECK(at16.protocol == CollectiveProtocol::LL128);
    const auto at32 = bestCollective(CollectiveOp::AllReduce, 32.0 * MiB, in);
    INFO("32 MiB: " << collectiveAlgorithmName(at32.algorithm) << "/"
                    << collectiveProtocolName(at32.protocol) << " (NCCL: nvls_tree/Simple)");
    CHECK(at32.algorithm != CollectiveAlgorithm::Ring);
}

TEST_CASE("NCCL issue 1221: 2 nodes of 8 H100 over 8 x 400G RoCE, all-reduce busbw 430 GB/s with "
          "NVLS and 330 without, held out",
          "[validation][network][collectives][nccl][multinode][nvls]")
{
    // github.com/NVIDIA/nccl/issues/1221 (2024-03-13, NCCL 2.19.3, all_reduce_perf -b 4G -e 8G):
    // "if I run all_reduce on single nodes or 2 nodes ... NCCL_NVLS_ENABLE=0 / 1 the bus BW will
    // upgraded from 330GB to 430GB"; on more than two nodes "same busbw 320GB" either way, the
    // ring. Held out. With NVLS the two nodes run the NVLS tree (engine 459, +6.7%). This
    // cluster's ring runs 11-13% below the engine on two and four nodes alike (330 and 320
    // against 369 and 368), where the other H100 clusters run 366 to 380 (nccl-tests issue 309,
    // NCCL's GTC 2024 talk), as Voltage Park's does (above): the ring checked at +16%, the NVLS
    // tree at 10%.
    nlohmann::json s = nodesScenario("hgx-h100", 2, "connectx-7-400g", "sn5600");
    s["network"]["protocol"] = "roce_v2";
    s["network"]["topology"] = "rail_optimized";
    CollectiveInputs in = worldInputs(s);
    const auto on = bestCollective(CollectiveOp::AllReduce, 8 * GiB, in);
    REQUIRE(on.available);
    INFO("NVLS on: " << collectiveAlgorithmName(on.algorithm) << " busbw " << on.busbwGbytePerS);
    CHECK(on.algorithm == CollectiveAlgorithm::NvlsTree);
    CHECK(on.busbwGbytePerS == Approx(430.0).epsilon(0.10));
    in.nvls = false;
    const auto off = bestCollective(CollectiveOp::AllReduce, 8 * GiB, in);
    REQUIRE(off.available);
    INFO("NVLS off: " << collectiveAlgorithmName(off.algorithm) << " busbw " << off.busbwGbytePerS);
    CHECK(off.algorithm == CollectiveAlgorithm::Ring);
    CHECK(off.busbwGbytePerS == Approx(330.0).epsilon(0.16));

    s["compute"]["node_count"] = 4;
    const auto four = bestCollective(CollectiveOp::AllReduce, 8 * GiB, worldInputs(s));
    REQUIRE(four.available);
    INFO("4 nodes: " << collectiveAlgorithmName(four.algorithm) << " busbw "
                     << four.busbwGbytePerS);
    CHECK(four.algorithm == CollectiveAlgorithm::Ring);
    CHECK(four.busbwGbytePerS == Approx(320.0).epsilon(0.16));
}
