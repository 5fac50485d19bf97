#include "dct/solvers/collectives.h"
#include "dct/solvers/protocolefficiency.h"

#include <algorithm>
#include <catch2/catch.hpp>

using namespace dct::solvers;

namespace {

CollectiveInputs eightGpus()
{
    CollectiveInputs in;
    in.ranks = 8;
    in.ranksPerNode = 8;
    in.scaleUpGbytePerS = 100.0;
    in.scaleUpAlphaUs = 2.0;
    in.fabricGbytePerS = 50.0;
    in.fabricAlphaUs = 5.0;
    return in;
}

} // namespace

TEST_CASE("Bus bandwidth factors follow nccl-tests PERFORMANCE.md", "[network][collectives]")
{
    CHECK(busBandwidthFactor(CollectiveOp::AllReduce, 8) == Approx(2.0 * 7 / 8).epsilon(1e-12));
    CHECK(busBandwidthFactor(CollectiveOp::ReduceScatter, 8) == Approx(7.0 / 8).epsilon(1e-12));
    CHECK(busBandwidthFactor(CollectiveOp::AllGather, 16) == Approx(15.0 / 16).epsilon(1e-12));
    CHECK(busBandwidthFactor(CollectiveOp::AllToAll, 2) == Approx(0.5).epsilon(1e-12));
    CHECK(busBandwidthFactor(CollectiveOp::SendRecv, 64) == 1.0);
}

// NCCL src/graph/tuning.cc: ring latency = base + steps x step; Simple base 8.4 us, NVLink step
// 3.4 us (scaled by the scale-up alpha over NCCL's 1.9 us LL128 step); bus bandwidth B.
TEST_CASE("Ring all-reduce on one node: NCCL's base and NVLink steps plus 2(n-1)/n S/B",
          "[network][collectives]")
{
    const CollectiveInputs in = eightGpus();
    const double bytes = 1 << 30;
    const CollectiveTiming t =
        collectiveTime(CollectiveOp::AllReduce, CollectiveAlgorithm::Ring, bytes, in);
    REQUIRE(t.available);
    CHECK(t.protocol == CollectiveProtocol::Simple);
    const double latencyUs = 8.4 + 14.0 * 3.4 * 2.0 / 1.9;
    CHECK(t.latency.launchUs == Approx(8.4).epsilon(1e-12));
    CHECK(t.latency.nvlinkUs == Approx(14.0 * 3.4 * 2.0 / 1.9).epsilon(1e-12));
    CHECK(t.latency.nicUs == 0.0);
    CHECK(t.latency.totalUs == Approx(latencyUs).epsilon(1e-12));
    const double expected = latencyUs * 1e-6 + 2.0 * 7 / 8 * bytes / 100e9;
    CHECK(t.seconds == Approx(expected).epsilon(1e-12));
    CHECK(t.algbwGbytePerS == Approx(bytes / expected / 1e9).epsilon(1e-12));
    CHECK(t.busbwGbytePerS == Approx(100.0).epsilon(0.01));
    CHECK_THAT(t.reason, Catch::Contains("Simple"));
}

TEST_CASE("Protocols by size: LL for a few bytes, LL128 in between, Simple for large",
          "[network][collectives][protocol]")
{
    CollectiveInputs in = eightGpus();
    in.scaleUpAlphaUs = 1.9;
    const auto small = collectiveTime(CollectiveOp::AllReduce, CollectiveAlgorithm::Ring, 64.0, in);
    CHECK(small.protocol == CollectiveProtocol::LL);
    // LL: base 6.6 us + 14 steps x 0.6 us; the bus bandwidth halves, and 64 bytes run on one
    // of the 8 channels NCCL's search finds for 100 GB/s of NVLink.
    CHECK(small.latency.totalUs == Approx(6.6 + 14 * 0.6).epsilon(1e-12));
    CHECK(small.channels == 1);
    CHECK(small.bandwidthGbytePerS == Approx(50.0 / (2.0 * 7 / 8) / 8).epsilon(1e-12));
    const auto large = collectiveTime(CollectiveOp::AllReduce, CollectiveAlgorithm::Ring, 1e10, in);
    CHECK(large.protocol == CollectiveProtocol::Simple);
    bool sawLl128 = false;
    for (const auto& t : collectiveCurve(CollectiveOp::AllReduce, CollectiveAlgorithm::Ring, in))
        sawLl128 = sawLl128 || t.protocol == CollectiveProtocol::LL128;
    CHECK(sawLl128);
    // Pinned: LL128 keeps 0.92 of the bus bandwidth (tuning.cc).
    const auto ll128 = collectiveTime(CollectiveOp::AllReduce, CollectiveAlgorithm::Ring,
                                      CollectiveProtocol::LL128, 1e9, in);
    CHECK(ll128.bandwidthGbytePerS == Approx(92.0 / (2.0 * 7 / 8)).epsilon(1e-12));
    CHECK(ll128.latency.totalUs == Approx(14.0 + 14 * 1.9).epsilon(1e-12));
}

TEST_CASE("Reduce-scatter and all-gather take half an all-reduce's bandwidth term",
          "[network][collectives]")
{
    const CollectiveInputs in = eightGpus();
    const double bytes = 1 << 30;
    const auto rs =
        collectiveTime(CollectiveOp::ReduceScatter, CollectiveAlgorithm::Ring, bytes, in);
    const auto ag = collectiveTime(CollectiveOp::AllGather, CollectiveAlgorithm::Ring, bytes, in);
    CHECK(rs.seconds ==
          Approx((8.4 + 7 * 3.4 * 2.0 / 1.9) * 1e-6 + 7.0 / 8 * bytes / 100e9).epsilon(1e-12));
    CHECK(ag.seconds == Approx(rs.seconds).epsilon(1e-12));
    CHECK(rs.busbwGbytePerS == Approx(100.0).epsilon(0.01));
}

TEST_CASE("A ring across nodes runs on every rail at once, not one NIC",
          "[network][collectives][rails]")
{
    CollectiveInputs in;
    in.ranks = 16;
    in.ranksPerNode = 8;
    in.scaleUpGbytePerS = 375.0;
    in.fabricGbytePerS = 50.0; // one 400G NIC per GPU
    const auto t =
        collectiveTime(CollectiveOp::AllReduce, CollectiveAlgorithm::Ring, 17179869184.0, in);
    REQUIRE(t.available);
    // Bus bandwidth: the node's 8 NICs (8 x 50 x NCCL's transport share 47/49.7) against
    // NVLink's g/(g-1) B: min(428.6, 378.3).
    const double nicShare = 47.0 / (50.0 * 4096.0 / 4122.0);
    CHECK(t.bandwidthGbytePerS == Approx(8 * 50.0 * nicShare * 16 / 30.0).epsilon(1e-9));
    CHECK(t.busbwGbytePerS > 7.0 * 50.0);
    // NVLink-bound when the NICs are faster: B g/(g-1).
    in.fabricGbytePerS = 100.0;
    const auto nv = collectiveTime(CollectiveOp::AllReduce, CollectiveAlgorithm::Ring,
                                   CollectiveProtocol::Simple, 1e9, in);
    CHECK(nv.bandwidthGbytePerS == Approx(375.0 * 8 / 7 * 16 / 30.0).epsilon(1e-9));
}

TEST_CASE("No NVLink step is charged with one GPU per node", "[network][collectives][latency]")
{
    CollectiveInputs in = eightGpus();
    in.ranks = 16;
    in.ranksPerNode = 1;
    for (auto a : {CollectiveAlgorithm::Ring, CollectiveAlgorithm::DoubleBinaryTree,
                   CollectiveAlgorithm::Hierarchical}) {
        const auto t = collectiveTime(CollectiveOp::AllReduce, a, 1024.0, in);
        INFO(collectiveAlgorithmName(a));
        REQUIRE(t.available);
        CHECK(t.latency.nvlinkUs == 0.0);
        CHECK(t.latency.nicUs > 0.0);
    }
    in.ranksPerNode = 8;
    CHECK(collectiveTime(CollectiveOp::AllReduce, CollectiveAlgorithm::Ring, 1024.0, in)
              .latency.nvlinkUs > 0.0);
}

TEST_CASE("Latency parts: same leaf, across leaves and across spine blocks differ",
          "[network][collectives][latency]")
{
    CollectiveInputs in;
    in.nicLatencyUs = 0.5;
    in.pcieLatencyUs = 0.1;
    in.switchLatencyUs = 0.13;
    in.cableInRowM = 3.0;
    in.cableAcrossRowsM = 30.0;
    in.fabricTiers = 3;
    const auto same = fabricPathLatency(in, FabricPath::SameLeaf);
    const auto leaf = fabricPathLatency(in, FabricPath::CrossLeaf);
    const auto spine = fabricPathLatency(in, FabricPath::CrossSpine);
    CHECK(same.totalUs == Approx(0.2 + 1.0 + 0.13 + 6 * 0.005).epsilon(1e-12));
    CHECK(leaf.switchUs == Approx(3 * 0.13).epsilon(1e-12));
    CHECK(leaf.cableUs == Approx(66 * 0.005).epsilon(1e-12));
    CHECK(spine.switchUs == Approx(5 * 0.13).epsilon(1e-12));
    CHECK(spine.cableUs == Approx(126 * 0.005).epsilon(1e-12));
    CHECK(same.totalUs < leaf.totalUs);
    CHECK(leaf.totalUs < spine.totalUs);
    // A two-tier fabric has no spine crossing.
    in.fabricTiers = 2;
    CHECK(fabricPathLatency(in, FabricPath::CrossSpine).totalUs ==
          Approx(leaf.totalUs).epsilon(1e-12));

    // The ring's network steps see the mix of edges: all under one leaf, or across leaves.
    CollectiveInputs ring = eightGpus();
    ring.ranks = 64;
    ring.fabricTiers = 3;
    ring.nodesPerLeaf = 8;
    ring.nodesPerPod = 8;
    const auto oneLeaf = collectiveTime(CollectiveOp::AllReduce, CollectiveAlgorithm::Ring,
                                        CollectiveProtocol::LL, 64.0, ring);
    ring.nodesPerLeaf = 2;
    const auto leaves = collectiveTime(CollectiveOp::AllReduce, CollectiveAlgorithm::Ring,
                                       CollectiveProtocol::LL, 64.0, ring);
    ring.nodesPerPod = 4;
    const auto pods = collectiveTime(CollectiveOp::AllReduce, CollectiveAlgorithm::Ring,
                                     CollectiveProtocol::LL, 64.0, ring);
    CHECK(oneLeaf.latency.switchUs == Approx(14 * 0.13).epsilon(1e-12));
    CHECK(leaves.latency.switchUs > oneLeaf.latency.switchUs);
    CHECK(pods.latency.switchUs > leaves.latency.switchUs);
    CHECK(oneLeaf.latency.totalUs < leaves.latency.totalUs);
}

TEST_CASE("Hierarchical phases are pipelined: the slower resource sets the pace",
          "[network][collectives]")
{
    CollectiveInputs in = eightGpus();
    in.ranks = 64;
    const auto t = collectiveTime(CollectiveOp::AllReduce, CollectiveAlgorithm::Hierarchical,
                                  CollectiveProtocol::Simple, 1e9, in);
    REQUIRE(t.available);
    const double nvPerByte = 2.0 * 7 / 8 / 100.0;
    const double netPerByte = 2.0 * 7 / 8 / 8 / (50.0 * 47.0 / (50.0 * 4096.0 / 4122.0));
    CHECK(t.bandwidthGbytePerS == Approx(1.0 / std::max(nvPerByte, netPerByte)).epsilon(1e-9));
    CHECK(1.0 / t.bandwidthGbytePerS < nvPerByte + netPerByte);
}

TEST_CASE("Trees win at small sizes across many nodes, rings at large", "[network][collectives]")
{
    CollectiveInputs in = eightGpus();
    in.ranks = 1024;
    const auto ringSmall =
        collectiveTime(CollectiveOp::AllReduce, CollectiveAlgorithm::Ring, 8.0, in);
    const auto treeSmall =
        collectiveTime(CollectiveOp::AllReduce, CollectiveAlgorithm::DoubleBinaryTree, 8.0, in);
    CHECK(treeSmall.seconds < ringSmall.seconds);
    const auto ringLarge =
        collectiveTime(CollectiveOp::AllReduce, CollectiveAlgorithm::Ring, 1e10, in);
    const auto treeLarge =
        collectiveTime(CollectiveOp::AllReduce, CollectiveAlgorithm::DoubleBinaryTree, 1e10, in);
    CHECK(ringLarge.seconds < treeLarge.seconds);
    CHECK_FALSE(
        collectiveTime(CollectiveOp::AllGather, CollectiveAlgorithm::DoubleBinaryTree, 1e6, in)
            .available);
}

TEST_CASE("The double binary tree's busiest node carries S on two nodes, 1.5 S on three, 2 S "
          "from four",
          "[network][collectives][tree]")
{
    // NCCL's ncclGetDtree (src/graph/trees.cc): on two nodes each tree is a root and one child,
    // on three a chain and its shift; from four some node has two children in one tree. A
    // node network of 8 x 5 GB/s binds (NVLink 100 GB/s a GPU), so the delivered algorithm
    // bandwidth is the node's 40 GB/s over that load, at the tree's 0.92 and the wire's
    // packet efficiency.
    CollectiveInputs in = eightGpus();
    in.fabricGbytePerS = 5.0;
    in.railsPerNode = 8;
    const auto treeOn = [&](int nodes) {
        in.ranks = 8 * nodes;
        return collectiveTime(CollectiveOp::AllReduce, CollectiveAlgorithm::DoubleBinaryTree,
                              CollectiveProtocol::Simple, 16e9, in);
    };
    const double four = treeOn(4).bandwidthGbytePerS;
    CHECK(four < 8 * 5.0 * 0.92 / 2.0);
    CHECK(four > 0.9 * 8 * 5.0 * 0.92 / 2.0);
    CHECK(treeOn(2).bandwidthGbytePerS == Approx(2.0 * four).epsilon(1e-9));
    CHECK(treeOn(3).bandwidthGbytePerS == Approx(4.0 / 3.0 * four).epsilon(1e-9));
    CHECK(treeOn(64).bandwidthGbytePerS == Approx(four).epsilon(1e-9));
    // The chain inside the node still moves 2 S over NVLink: with a fast network NVLink binds
    // at half its rate on two nodes as on one.
    in.fabricGbytePerS = 400.0;
    CHECK(treeOn(2).bandwidthGbytePerS == Approx(100.0 * 0.92 / 2.0).epsilon(1e-9));
    // The NVLS tree's heads run the same double binary tree across nodes on their shards.
    in.fabricGbytePerS = 5.0;
    in.scaleUpGbytePerS = 375.0;
    in.nvls = true;
    in.generation = GpuGeneration::Hopper;
    const auto nvlsTreeOn = [&](int nodes) {
        in.ranks = 8 * nodes;
        return collectiveTime(CollectiveOp::AllReduce, CollectiveAlgorithm::NvlsTree,
                              CollectiveProtocol::Simple, 16e9, in)
            .bandwidthGbytePerS;
    };
    CHECK(nvlsTreeOn(3) == Approx(4.0 / 3.0 * nvlsTreeOn(4)).epsilon(1e-9));
    CHECK(nvlsTreeOn(8) == Approx(nvlsTreeOn(4)).epsilon(1e-9));
}

TEST_CASE("NCCL chooses by the tree's 2 S and the call runs at the load it really has",
          "[network][collectives][tree]")
{
    // Three nodes of 8 on a slow network: the tree delivers 4/3 of what NCCL's tuner rates it
    // (tuning.cc: tree busBw x 0.5 at any node count), so it runs faster than the ring, yet
    // NCCL picks the ring, as on GB200 partitions over three racks (NCCL issue 1801: "ring,
    // default" at 196.7 GB/s busbw where NCCL_ALGO=Tree reached 234.4).
    CollectiveInputs in = eightGpus();
    in.fabricGbytePerS = 5.0;
    in.railsPerNode = 8;
    in.ranks = 24;
    const auto ring = collectiveTime(CollectiveOp::AllReduce, CollectiveAlgorithm::Ring,
                                     CollectiveProtocol::Simple, 16e9, in);
    const auto tree = collectiveTime(CollectiveOp::AllReduce, CollectiveAlgorithm::DoubleBinaryTree,
                                     CollectiveProtocol::Simple, 16e9, in);
    REQUIRE(ring.available);
    REQUIRE(tree.available);
    CHECK(tree.seconds < ring.seconds);
    const auto best = bestCollective(CollectiveOp::AllReduce, 16e9, in);
    CHECK(best.algorithm == CollectiveAlgorithm::Ring);
    CHECK(best.seconds == Approx(ring.seconds).epsilon(1e-12));
    // From four nodes the tuner's count is the load: the ring stays faster.
    in.ranks = 32;
    CHECK(collectiveTime(CollectiveOp::AllReduce, CollectiveAlgorithm::Ring,
                         CollectiveProtocol::Simple, 16e9, in)
              .seconds < collectiveTime(CollectiveOp::AllReduce,
                                        CollectiveAlgorithm::DoubleBinaryTree,
                                        CollectiveProtocol::Simple, 16e9, in)
                             .seconds);
}

TEST_CASE("NVLS runs on one NVSwitch node and beats the ring for all-reduce",
          "[network][collectives][nvls]")
{
    CollectiveInputs in = eightGpus();
    in.scaleUpGbytePerS = 375.0;
    in.scaleUpAlphaUs = 1.9;
    const auto off = collectiveTime(CollectiveOp::AllReduce, CollectiveAlgorithm::Nvls, 1e9, in);
    CHECK_FALSE(off.available);
    CHECK_THAT(off.reason, Catch::Contains("NVLink SHARP"));
    in.nvls = true;
    const auto t = collectiveTime(CollectiveOp::AllReduce, CollectiveAlgorithm::Nvls, 1e9, in);
    REQUIRE(t.available);
    CHECK(t.protocol == CollectiveProtocol::Simple);
    // algbw = B x 0.85 (Hopper NVLS efficiency) x (g-1)/g.
    CHECK(t.bandwidthGbytePerS == Approx(375.0 * 0.85 * 7 / 8).epsilon(1e-12));
    CHECK(t.latency.nvlinkUs == Approx(25.0).epsilon(1e-12));
    const auto ring = collectiveTime(CollectiveOp::AllReduce, CollectiveAlgorithm::Ring, 1e9, in);
    CHECK(t.seconds < ring.seconds);
    // On one node in_network is NVLS; across nodes NVLS needs switches that reduce.
    const auto inNet =
        collectiveTime(CollectiveOp::AllReduce, CollectiveAlgorithm::InNetwork, 1e9, in);
    REQUIRE(inNet.available);
    CHECK(inNet.seconds == Approx(t.seconds).epsilon(1e-12));
    in.ranks = 32;
    CHECK_FALSE(
        collectiveTime(CollectiveOp::AllReduce, CollectiveAlgorithm::Nvls, 1e9, in).available);
    CHECK(
        collectiveTime(CollectiveOp::AllReduce, CollectiveAlgorithm::NvlsTree, 1e9, in).available);
    in.inNetworkReduction = true;
    CHECK(collectiveTime(CollectiveOp::AllReduce, CollectiveAlgorithm::Nvls, 1e9, in).available);
}

TEST_CASE("The NVLS tree crosses nodes on its heads' NICs only: one a GPU, at most 32",
          "[network][collectives][nvls]")
{
    // docs/collectives.md, "The heads' NICs alone": NCCL's NVLS graph has one head a GPU that has
    // a NIC, at most NCCL_MAX_NVLS_ARITY (32), each crossing nodes on its own NIC; from three
    // nodes each head's NIC carries its shard twice each way. A slow fabric, so the network binds.
    CollectiveInputs in = eightGpus();
    in.ranks = 32;
    in.scaleUpGbytePerS = 375.0;
    in.nvls = true;
    in.fabricGbytePerS = 2.0; // a rank's share of its node's NICs
    in.railsPerNode = 8;
    const auto rate = [&] {
        const auto t = collectiveTime(CollectiveOp::AllReduce, CollectiveAlgorithm::NvlsTree,
                                      16.0 * 1073741824.0, in);
        REQUIRE(t.available);
        return t.bandwidthGbytePerS;
    };
    // Eight GPUs, a NIC each: all eight NICs carry the tree (at the wire's payload share).
    const double eight = rate();
    CHECK(eight <= 8 * 2.0 / 2);
    CHECK(eight > 0.9 * 8 * 2.0 / 2);
    // Two NICs a GPU at half the rate each: still eight heads, one NIC each: half the ports.
    in.railsPerNode = 16;
    CHECK(rate() == Approx(eight / 2).epsilon(1e-12));
    // A 72-GPU NVLink domain with a NIC a GPU: 32 heads, 32 of its 72 NICs.
    in.ranks = 4 * 72;
    in.ranksPerNode = 72;
    in.railsPerNode = 72;
    in.generation = GpuGeneration::Blackwell;
    in.scaleUpGbytePerS = 750.0;
    CHECK(rate() == Approx(eight * 32 / 8).epsilon(1e-12));
}

// docs/collectives.md, "NVLS: the switch's adders": g - 1 additions a result element on the
// domain's NVSwitch chips, shared by the groups reducing on them at once.
TEST_CASE("NVLS reductions run at most at the switch's adder rate over the groups' g - 1 additions",
          "[network][collectives][nvls]")
{
    CollectiveInputs in = eightGpus();
    in.scaleUpGbytePerS = 375.0;
    in.scaleUpAlphaUs = 1.9;
    in.nvls = true;
    const double links = 375.0 * 0.85 * 7 / 8;
    const auto bandwidth = [&in](CollectiveOp op) {
        const auto t = collectiveTime(op, CollectiveAlgorithm::Nvls, 1e9, in);
        REQUIRE(t.available);
        return t.bandwidthGbytePerS;
    };
    // Unset: the links alone.
    CHECK(bandwidth(CollectiveOp::AllReduce) == Approx(links).epsilon(1e-12));
    // Adders far above the links change nothing.
    in.nvlsReduceGbytePerS = 100.0 * links * 7.0;
    CHECK(bandwidth(CollectiveOp::AllReduce) == Approx(links).epsilon(1e-12));
    // Adders that bind: R / (g - 1) for all-reduce and reduce-scatter.
    in.nvlsReduceGbytePerS = 1400.0;
    CHECK(bandwidth(CollectiveOp::AllReduce) == Approx(200.0).epsilon(1e-12));
    CHECK(bandwidth(CollectiveOp::ReduceScatter) == Approx(200.0).epsilon(1e-12));
    // The all-gather only multicasts: the links' rate, g/(g-1) of a reduction's share.
    CHECK(bandwidth(CollectiveOp::AllGather) == Approx(375.0 * 0.85 * 8 / 7).epsilon(1e-12));
    // Two groups reducing on the same chips at once share them.
    in.nvlsGroups = 2;
    CHECK(bandwidth(CollectiveOp::AllReduce) == Approx(100.0).epsilon(1e-12));
    // The scale-up calibration scales the adders with the links.
    in.calibration.scaleUpBandwidthFactor = 0.5;
    CHECK(bandwidth(CollectiveOp::AllReduce) == Approx(50.0).epsilon(1e-12));
    // The engine reset with other adders times them (not only the bandwidths are compared).
    CollectiveEngine engine(in);
    CollectiveInputs more = in;
    more.nvlsGroups = 1;
    CHECK(engine.reset(more));
    CHECK(engine.time(CollectiveOp::AllReduce, CollectiveAlgorithm::Nvls, 1e9).bandwidthGbytePerS ==
          Approx(100.0).epsilon(1e-12));
}

// NCCL src/enqueue.cc (calcCollChunking, NVLS_TREE) and src/transport/nvls.cc (ncclNvlsTuning,
// ncclNvlsTreeSm100Tuning), master 5067397: channels x heads operations at once, each in chunks;
// the first chunk's 2 x levels + 1 hops before the pipeline runs at its rate add to the latency.
TEST_CASE(
    "The NVLS tree across nodes fills a chunk pipeline, chunk and channels as NCCL tunes them",
    "[network][collectives][nvls]")
{
    CollectiveInputs in = eightGpus();
    in.ranks = 16;
    in.scaleUpGbytePerS = 375.0;
    in.scaleUpAlphaUs = 1.9;
    in.fabricGbytePerS = 47.0;
    in.railsPerNode = 8;
    in.nvls = true;
    const auto at = [&](double bytes) {
        const auto t =
            collectiveTime(CollectiveOp::AllReduce, CollectiveAlgorithm::NvlsTree, bytes, in);
        REQUIRE(t.available);
        return t;
    };
    // The fill at a size over the fill at 8 KiB (each operation's chunk then its 8 KiB / ops):
    // proportional to the chunk, c x (sum over the stages of 1 / B_s - 1 / B_min).
    const auto fillUs = [&](double bytes) {
        return at(bytes).latency.totalUs - at(8192.0).latency.totalUs;
    };
    // Two nodes of Hopper: 16 channels x 8 heads = 128 operations, chunks of 128 KiB; under
    // 4 x 128 x 128 KiB (64 MiB) 64 KiB, under 128 x 64 KiB (8 MiB) 32 KiB.
    CHECK(at(1073741824.0).channels == 16);
    const double small = 8192.0 / 128.0;
    const double fillAt1GiB = fillUs(1073741824.0);
    CHECK(fillAt1GiB > 50.0);
    CHECK(fillUs(16777216.0) / fillAt1GiB ==
          Approx((65536.0 - small) / (131072.0 - small)).epsilon(1e-9));
    CHECK(fillUs(4194304.0) / fillAt1GiB ==
          Approx((32768.0 - small) / (131072.0 - small)).epsilon(1e-9));
    // The pipeline's bandwidth term is the collective's: the fill adds only to the latency.
    CHECK(at(1073741824.0).bandwidthGbytePerS == Approx(at(16777216.0).bandwidthGbytePerS));

    // Blackwell across nodes: chunk and channels follow the NIC's speed and GPUs per node (the
    // fabric's bandwidth kept, only the speed NCCL reads changed).
    in.generation = GpuGeneration::Blackwell;
    in.scaleUpGbytePerS = 750.0;
    const auto ratio = [&](double chunk, double otherChunk, double ops) {
        return (chunk - 8192.0 / ops) / (otherChunk - 8192.0 / ops);
    };
    in.nicGbytePerS = 50.0; // two nodes, 400G NICs on the GPUs' PCIe switches: 32 x 64 KiB
    CHECK(at(1073741824.0).channels == 32);
    const double fill400 = fillUs(1073741824.0);
    in.nicGbytePerS = 100.0; // 800G: 32 x 128 KiB
    CHECK(at(1073741824.0).channels == 32);
    CHECK(fillUs(1073741824.0) / fill400 == Approx(ratio(131072.0, 65536.0, 256.0)).epsilon(1e-9));
    in.ranks = 32; // four nodes of 800G NICs, eight GPUs each: 24 channels x 256 KiB
    CHECK(at(1073741824.0).channels == 24);
    const double fill800 = fillUs(1073741824.0);
    in.nicGbytePerS = 50.0; // of 400G NICs: 24 x 64 KiB
    CHECK(at(1073741824.0).channels == 24);
    CHECK(fill800 / fillUs(1073741824.0) == Approx(ratio(262144.0, 65536.0, 192.0)).epsilon(1e-9));
    // Hopper from four nodes: 64 KiB chunks (nvlsTreeMaxChunkSize).
    in.generation = GpuGeneration::Hopper;
    in.scaleUpGbytePerS = 375.0;
    CHECK(at(1073741824.0).channels == 16);
    CHECK(fillUs(1073741824.0) / fillUs(33554432.0) == Approx(1.0).epsilon(1e-9));
}

TEST_CASE("In-network reduction needs capable switches and beats the ring",
          "[network][collectives]")
{
    CollectiveInputs in = eightGpus();
    in.ranks = 256;
    const double bytes = 1e9;
    CHECK_FALSE(collectiveTime(CollectiveOp::AllReduce, CollectiveAlgorithm::InNetwork, bytes, in)
                    .available);
    in.inNetworkReduction = true;
    const auto sharp =
        collectiveTime(CollectiveOp::AllReduce, CollectiveAlgorithm::InNetwork, bytes, in);
    const auto hier =
        collectiveTime(CollectiveOp::AllReduce, CollectiveAlgorithm::Hierarchical, bytes, in);
    REQUIRE(sharp.available);
    CHECK(sharp.seconds < hier.seconds);
    const auto best = bestCollective(CollectiveOp::AllReduce, bytes, in);
    CHECK(best.algorithm == CollectiveAlgorithm::InNetwork);
    CHECK_THAT(best.reason, Catch::Contains("switches reduce") && Catch::Contains("next best"));
}

TEST_CASE("All-to-all and send/recv run point to point", "[network][collectives][p2p]")
{
    CollectiveInputs in = eightGpus();
    in.ranks = 32;
    const auto a2a = collectiveTime(CollectiveOp::AllToAll, CollectiveAlgorithm::Ring,
                                    CollectiveProtocol::Simple, 1e9, in);
    REQUIRE(a2a.available);
    // 24/32 of the buffer leaves the node through the rank's NIC share, 7/32 stays on NVLink.
    const double net = 50.0 * 47.0 / (50.0 * 4096.0 / 4122.0);
    CHECK(a2a.bandwidthGbytePerS ==
          Approx(1.0 / std::max(7.0 / 32 / 100.0, 24.0 / 32 / net)).epsilon(1e-9));
    CHECK_FALSE(collectiveTime(CollectiveOp::AllToAll, CollectiveAlgorithm::Hierarchical, 1e9, in)
                    .available);
    in.pxn = true;
    const auto pxn = collectiveTime(CollectiveOp::AllToAll, CollectiveAlgorithm::Ring,
                                    CollectiveProtocol::Simple, 1e9, in);
    CHECK(pxn.latency.nvlinkUs > a2a.latency.nvlinkUs);
    const auto sr = bestCollective(CollectiveOp::SendRecv, 1e9, in);
    REQUIRE(sr.available);
    CHECK(sr.busbwGbytePerS == Approx(sr.algbwGbytePerS).epsilon(1e-12));
    CHECK(sr.bandwidthGbytePerS == Approx(net).epsilon(1e-9));
}

// NCCL src/enqueue.cc, the p2p plan (master 5067397): a point-to-point transfer runs LL up to
// P2P_LL_THRESHOLD (16 KiB a channel), else Simple; never LL128.
TEST_CASE("Point to point runs LL or Simple, never LL128", "[network][collectives][p2p]")
{
    CollectiveInputs in = eightGpus();
    in.ranks = 32;
    for (auto op : {CollectiveOp::AllToAll, CollectiveOp::SendRecv}) {
        INFO(collectiveOpName(op));
        const auto pinned =
            collectiveTime(op, CollectiveAlgorithm::Ring, CollectiveProtocol::LL128, 262144.0, in);
        CHECK_FALSE(pinned.available);
        CHECK_THAT(pinned.reason.text(), Catch::Contains("not LL128"));
        bool sawLl = false;
        bool sawSimple = false;
        for (const auto& t :
             collectiveCurve(op, CollectiveAlgorithm::Ring, in, 8.0, 17179869184.0)) {
            REQUIRE(t.available);
            CHECK(t.protocol != CollectiveProtocol::LL128);
            sawLl = sawLl || t.protocol == CollectiveProtocol::LL;
            sawSimple = sawSimple || t.protocol == CollectiveProtocol::Simple;
        }
        CHECK(sawLl);
        CHECK(sawSimple);
    }
    // All-reduce keeps LL128 where it is the fastest.
    bool allReduceLl128 = false;
    for (const auto& t : collectiveCurve(CollectiveOp::AllReduce, CollectiveAlgorithm::Ring, in,
                                         8.0, 17179869184.0))
        allReduceLl128 = allReduceLl128 || t.protocol == CollectiveProtocol::LL128;
    CHECK(allReduceLl128);
}

TEST_CASE("The curve spans 8 B to 16 GiB by doubling", "[network][collectives]")
{
    const auto curve =
        collectiveCurve(CollectiveOp::AllReduce, CollectiveAlgorithm::Ring, eightGpus());
    REQUIRE(curve.size() == 32);
    CHECK(curve.front().bytes == 8.0);
    CHECK(curve.back().bytes == Approx(17179869184.0).epsilon(1e-15));
    // Where NCCL adds channels in proportion to the size, the time holds while the size doubles
    // (A3 Mega, tests/data/nccl-tests: 159.4 us at 64 KiB, 159.3 us at 128 KiB); it never falls.
    for (std::size_t i = 1; i < curve.size(); ++i) {
        CHECK(curve[i].seconds >= curve[i - 1].seconds);
        CHECK(curve[i].busbwGbytePerS >= curve[i - 1].busbwGbytePerS);
    }
    CHECK(curve.back().seconds > curve.front().seconds);
}

// NCCL src/enqueue.cc topoGetAlgoInfo: a ring or tree call drops channels while the size is
// under channels x threads x threshold (Simple 512 threads x 64 B = 32 KiB a channel; LL 512 x 8 B,
// times the ranks on a ring; LL128 640 x 8 B); each channel carries an equal share of the
// bandwidth (tuning.cc ncclTopoTuneModel: busBw = nChannels x per-channel bandwidth).
TEST_CASE("Channels by size: small calls run on fewer channels, each with its share",
          "[network][collectives][channels]")
{
    const CollectiveInputs in = eightGpus(); // one node of 100 GB/s NVLink: 8 ring channels
    const auto full = collectiveTime(CollectiveOp::AllReduce, CollectiveAlgorithm::Ring,
                                     CollectiveProtocol::Simple, 1 << 30, in);
    CHECK(full.channels == 8);
    for (double kib : {32.0, 64.0, 96.0, 256.0, 512.0}) {
        const auto t = collectiveTime(CollectiveOp::AllReduce, CollectiveAlgorithm::Ring,
                                      CollectiveProtocol::Simple, kib * 1024.0, in);
        const int expected = std::min(8, static_cast<int>(kib / 32.0));
        INFO(kib << " KiB");
        CHECK(t.channels == expected);
        CHECK(t.bandwidthGbytePerS ==
              Approx(full.bandwidthGbytePerS * expected / 8.0).epsilon(1e-12));
        CHECK(t.latency.totalUs == Approx(full.latency.totalUs).epsilon(1e-12));
    }
    // Below one channel's worth, one channel.
    CHECK(collectiveTime(CollectiveOp::AllReduce, CollectiveAlgorithm::Ring,
                         CollectiveProtocol::Simple, 1024.0, in)
              .channels == 1);
    // A ring's LL threshold grows with the ranks: 512 x 8 B x 8 ranks = 32 KiB a channel.
    CHECK(collectiveTime(CollectiveOp::AllReduce, CollectiveAlgorithm::Ring, CollectiveProtocol::LL,
                         128.0 * 1024.0, in)
              .channels == 4);
    // LL128: 640 x 8 B = 5 KiB a channel, whatever the ranks.
    CHECK(collectiveTime(CollectiveOp::AllReduce, CollectiveAlgorithm::Ring,
                         CollectiveProtocol::LL128, 40.0 * 1024.0, in)
              .channels == 8);
    // The tree: no rank factor (LL 512 x 8 B = 4 KiB a channel).
    CHECK(collectiveTime(CollectiveOp::AllReduce, CollectiveAlgorithm::DoubleBinaryTree,
                         CollectiveProtocol::LL, 16.0 * 1024.0, in)
              .channels == 4);
    // The fastest protocol is still the one of least time when LL128 runs on more channels than
    // Simple at the same size.
    for (double bytes = 1024.0; bytes <= 4.0 * 1024 * 1024; bytes *= 2.0) {
        const auto best =
            collectiveTime(CollectiveOp::AllReduce, CollectiveAlgorithm::Ring, bytes, in);
        for (auto p :
             {CollectiveProtocol::LL, CollectiveProtocol::LL128, CollectiveProtocol::Simple})
            CHECK(best.seconds <=
                  collectiveTime(CollectiveOp::AllReduce, CollectiveAlgorithm::Ring, p, bytes, in)
                      .seconds);
    }
}

TEST_CASE("Wire overhead of RoCE v2 and InfiniBand follows the header arithmetic",
          "[network][protocol]")
{
    // RoCE v2: 20 preamble+gap + 14 Ethernet + 20 IPv4 + 8 UDP + 12 BTH + 4 ICRC + 4 FCS = 82.
    const WireOverhead roce = wireOverhead(dct::model::Protocol::RoceV2, 4096);
    CHECK(roce.overheadBytes == 82);
    CHECK(roce.efficiency == Approx(4096.0 / 4178.0).epsilon(1e-12));
    // InfiniBand: 8 LRH + 12 BTH + 4 ICRC + 2 VCRC = 26; with GRH 66.
    const WireOverhead ib = wireOverhead(dct::model::Protocol::Infiniband, 4096);
    CHECK(ib.overheadBytes == 26);
    CHECK(ib.efficiency == Approx(4096.0 / 4122.0).epsilon(1e-12));
    CHECK(wireOverhead(dct::model::Protocol::Infiniband, 2048, false, true).overheadBytes == 66);
    CHECK(wireOverhead(dct::model::Protocol::RoceV2, 1024, true).overheadBytes == 86);
    CHECK(ib.efficiency > roce.efficiency);
    CHECK(wireOverhead(dct::model::Protocol::RoceV2, 1024).efficiency < roce.efficiency);
}

TEST_CASE("The best choice stays among NCCL's algorithms", "[network][collectives]")
{
    // Four NIC-bound nodes: the pinned hierarchical ring-of-rings would move less over the
    // fabric, but NCCL has no such algorithm, so the tuner's choice is a ring.
    CollectiveInputs in = eightGpus();
    in.ranks = 32;
    in.scaleUpGbytePerS = 375.0;
    const auto hier =
        collectiveTime(CollectiveOp::AllReduce, CollectiveAlgorithm::Hierarchical, 1e10, in);
    const auto best = bestCollective(CollectiveOp::AllReduce, 1e10, in);
    REQUIRE(hier.available);
    CHECK(hier.seconds < best.seconds);
    CHECK(best.algorithm == CollectiveAlgorithm::Ring);
    // On one node in_network and nvls are one algorithm: the choice names nvls.
    in.ranks = 8;
    in.nvls = true;
    CHECK(bestCollective(CollectiveOp::AllReduce, 1e10, in).algorithm == CollectiveAlgorithm::Nvls);
}

TEST_CASE("One GPU per node: no operation, algorithm or protocol charges an NVLink step",
          "[network][collectives][latency]")
{
    CollectiveInputs in = eightGpus();
    in.ranks = 16;
    in.ranksPerNode = 1;
    in.nvls = true;
    in.inNetworkReduction = true;
    int timed = 0;
    for (auto op : {CollectiveOp::AllReduce, CollectiveOp::ReduceScatter, CollectiveOp::AllGather,
                    CollectiveOp::AllToAll, CollectiveOp::SendRecv})
        for (auto a : collectiveAlgorithms())
            for (auto p :
                 {CollectiveProtocol::LL, CollectiveProtocol::LL128, CollectiveProtocol::Simple})
                for (double bytes : {64.0, 1048576.0, 1073741824.0}) {
                    const auto t = collectiveTime(op, a, p, bytes, in);
                    if (!t.available)
                        continue;
                    INFO(collectiveOpName(op) << " " << collectiveAlgorithmName(a) << " "
                                              << collectiveProtocolName(p) << " " << bytes);
                    CHECK(t.latency.nvlinkUs == 0.0);
                    CHECK(t.latency.nicUs > 0.0);
                    ++timed;
                }
    CHECK(timed > 30);
    // The tuner's pick too, at every size of the curve.
    const CollectiveEngine engine(in);
    for (auto op : {CollectiveOp::AllReduce, CollectiveOp::AllGather, CollectiveOp::AllToAll})
        for (const auto& t : engine.bestCurve(op)) {
            INFO(collectiveOpName(op) << " " << t.bytes);
            REQUIRE(t.available);
            CHECK(t.latency.nvlinkUs == 0.0);
        }
}

TEST_CASE("The engine's reasons are codes worded on demand, as the strings they replace",
          "[network][collectives]")
{
    CollectiveInputs in = eightGpus();
    in.ranks = 32;
    in.ranksPerNode = 8;
    const CollectiveEngine engine(in);
    const auto best = engine.best(CollectiveOp::AllReduce, 1073741824.0);
    REQUIRE(best.available);
    CHECK(best.reason.kind == CollectiveReason::Kind::Chosen);
    CHECK(best.reason.hasRunnerUp);
    const std::string text = best.reason;
    CHECK(text == best.reason.text());
    CHECK_THAT(text, Catch::Contains("Simple") && Catch::Contains("next best"));
    // The runner-up's time as every face prints a number: thousands separated, no exponent
    // (1 GiB over 32 GPUs takes milliseconds: "4,321 us", not "4.32e+03 us").
    CHECK_THAT(text, Catch::Matches(".* takes [0-9]{1,3}(,[0-9]{3})+ us.*"));
    CHECK_THAT(text, !Catch::Contains("e+"));
    // Pinned, unavailable, and point to point.
    const auto pinned = engine.time(CollectiveOp::AllReduce, CollectiveAlgorithm::Ring,
                                    CollectiveProtocol::LL, 64.0);
    CHECK(pinned.reason.text() == "rings on every rail at once; LL (pinned)");
    // Inside one node there are no rails and no trees across nodes: NCCL's rings run over
    // NVLink and its tree is a chain through the node's GPUs.
    const CollectiveEngine oneNode(eightGpus());
    CHECK(
        oneNode
            .time(CollectiveOp::AllReduce, CollectiveAlgorithm::Ring, CollectiveProtocol::LL, 64.0)
            .reason.text() == "rings over the node's NVLink, a ring a channel; LL (pinned)");
    CHECK(oneNode
              .time(CollectiveOp::AllReduce, CollectiveAlgorithm::DoubleBinaryTree,
                    CollectiveProtocol::LL, 64.0)
              .reason.text() ==
          "a chain through the node's GPUs (NCCL's tree inside one node); LL (pinned)");
    const auto nvls = engine.time(CollectiveOp::AllReduce, CollectiveAlgorithm::Nvls, 1e6);
    CHECK_FALSE(nvls.available);
    CHECK(nvls.reason.unavailable == CollectiveUnavailable::NvlsNeedsNvswitch);
    CHECK(nvls.reason.text() ==
          "NVLS needs NVSwitches with NVLink SHARP (third generation, H100 on)");
    const auto p2p =
        engine.time(CollectiveOp::AllToAll, CollectiveAlgorithm::DoubleBinaryTree, 1e6);
    CHECK(p2p.reason.text() == "all_to_all runs point to point (algorithm ring), not tree");
    // The engine and the free functions agree to the bit.
    for (double bytes : {8.0, 65536.0, 1073741824.0}) {
        const auto a = engine.best(CollectiveOp::AllReduce, bytes);
        const auto b = bestCollective(CollectiveOp::AllReduce, bytes, in);
        CHECK(a.seconds == b.seconds);
        CHECK(a.algorithm == b.algorithm);
        CHECK(a.reason.text() == b.reason.text());
    }
}

TEST_CASE("The scenario's all-reduce choice pins the engine's algorithm (auto pins none: ring)",
          "[network][collectives]")
{
    CHECK(pinnedAlgorithm(dct::model::CollectiveChoice::Auto) == CollectiveAlgorithm::Ring);
    CHECK(pinnedAlgorithm(dct::model::CollectiveChoice::Ring) == CollectiveAlgorithm::Ring);
    CHECK(pinnedAlgorithm(dct::model::CollectiveChoice::Tree) ==
          CollectiveAlgorithm::DoubleBinaryTree);
    CHECK(pinnedAlgorithm(dct::model::CollectiveChoice::Hierarchical) ==
          CollectiveAlgorithm::Hierarchical);
    CHECK(pinnedAlgorithm(dct::model::CollectiveChoice::InNetwork) ==
          CollectiveAlgorithm::InNetwork);
}

// The fastest protocol is found without timing every protocol (a bound prunes LL and LL128 at
// large sizes; NVLS, NVLS tree and CollNet time Simple only; an algorithm whose Simple does not
// apply returns at once): it must still be the protocol of least time, and an algorithm that
// does not apply must say why as its Simple protocol does.
TEST_CASE("The fastest protocol is the one of least time, pruned or not",
          "[network][collectives][protocol]")
{
    for (int nodes : {1, 4}) {
        CollectiveInputs in = eightGpus();
        in.ranks = 8 * nodes;
        in.nvls = true;
        in.inNetworkReduction = true;
        in.railsPerNode = 8;
        for (auto op : {CollectiveOp::AllReduce, CollectiveOp::ReduceScatter,
                        CollectiveOp::AllGather, CollectiveOp::AllToAll, CollectiveOp::SendRecv})
            for (auto a : collectiveAlgorithms())
                for (double bytes = 8.0; bytes <= 17179869184.0; bytes *= 8.0) {
                    INFO(nodes << " nodes, " << collectiveOpName(op) << ", "
                               << collectiveAlgorithmName(a) << ", " << bytes << " B");
                    const CollectiveTiming best = collectiveTime(op, a, bytes, in);
                    const CollectiveTiming simple =
                        collectiveTime(op, a, CollectiveProtocol::Simple, bytes, in);
                    CHECK(best.available == simple.available);
                    if (!best.available) {
                        CHECK(best.reason.text() == simple.reason.text());
                        continue;
                    }
                    for (auto p : {CollectiveProtocol::LL, CollectiveProtocol::LL128,
                                   CollectiveProtocol::Simple}) {
                        const CollectiveTiming pinned = collectiveTime(op, a, p, bytes, in);
                        if (pinned.available)
                            CHECK(best.seconds <= pinned.seconds);
                        if (pinned.available && p == best.protocol)
                            CHECK(best.seconds == pinned.seconds);
                    }
                }
    }
}

// LL and LL128 between nodes need a transport that lands flagged stores whole and in order
// (NVIDIA/nccl issue 786; AWS: "EFA doesn't support LL and LL128 variants", aws-ofi-nccl issue
// 76). Catalog `ll_across_nodes` / `ll128_across_nodes` of the NIC carry it.
TEST_CASE("A transport without LL128 (or LL) between nodes runs them on NVLink only",
          "[network][collectives][protocol]")
{
    CollectiveInputs in = eightGpus();
    in.ranks = 16;
    in.railsPerNode = 8;
    // The verbs default: LL128 wins some middle size of a two-node ring.
    double mid = 0.0;
    CollectiveTiming verbs;
    for (double bytes = 65536.0; bytes <= 1e9 && mid == 0.0; bytes *= 2.0) {
        verbs = collectiveTime(CollectiveOp::AllReduce, CollectiveAlgorithm::Ring, bytes, in);
        if (verbs.protocol == CollectiveProtocol::LL128)
            mid = bytes;
    }
    REQUIRE(mid > 0.0);

    in.ll128AcrossNodes = false;
    const CollectiveTiming noLl128 =
        collectiveTime(CollectiveOp::AllReduce, CollectiveAlgorithm::Ring, mid, in);
    REQUIRE(noLl128.available);
    CHECK(noLl128.protocol != CollectiveProtocol::LL128);
    CHECK(noLl128.seconds > verbs.seconds);
    const CollectiveTiming pinned = collectiveTime(
        CollectiveOp::AllReduce, CollectiveAlgorithm::Ring, CollectiveProtocol::LL128, mid, in);
    CHECK_FALSE(pinned.available);
    CHECK(pinned.reason.unavailable == CollectiveUnavailable::ProtocolOffTransport);
    CHECK_THAT(pinned.reason.text(), Catch::Contains("transport does not carry"));

    in.llAcrossNodes = false;
    for (double bytes = 8.0; bytes <= 17179869184.0; bytes *= 4.0) {
        const CollectiveTiming best = bestCollective(CollectiveOp::AllReduce, bytes, in);
        INFO(bytes << " B: " << collectiveAlgorithmName(best.algorithm) << "/"
                   << collectiveProtocolName(best.protocol));
        REQUIRE(best.available);
        CHECK(best.protocol == CollectiveProtocol::Simple);
        for (auto op : {CollectiveOp::AllGather, CollectiveOp::AllToAll, CollectiveOp::SendRecv})
            CHECK(bestCollective(op, bytes, in).protocol == CollectiveProtocol::Simple);
    }

    // On one node no store crosses the transport: LL still times the smallest sizes.
    in.ranks = 8;
    CHECK(bestCollective(CollectiveOp::AllReduce, 64.0, in).protocol == CollectiveProtocol::LL);
}

TEST_CASE("An engine reset to new bandwidths times every collective as a fresh engine does",
          "[network][collectives][memo]")
{
    // A 3-tier fabric of 64 nodes over several leaves and pods: every path class in play.
    CollectiveInputs in = eightGpus();
    in.ranks = 512;
    in.ranksPerNode = 8;
    in.fabricTiers = 3;
    in.nodesPerLeaf = 8;
    in.nodesPerPod = 32;
    in.inNetworkReduction = true;
    in.nvls = true;
    CollectiveEngine kept(in);
    const auto same = [](const CollectiveEngine& a, const CollectiveEngine& b) {
        for (auto op : {CollectiveOp::AllReduce, CollectiveOp::ReduceScatter,
                        CollectiveOp::AllGather, CollectiveOp::AllToAll, CollectiveOp::SendRecv})
            for (double bytes : {8.0, 65536.0, 16777216.0, 35e9}) {
                INFO(collectiveOpName(op) << " " << bytes);
                const CollectiveTiming x = a.best(op, bytes);
                const CollectiveTiming y = b.best(op, bytes);
                CHECK(x.seconds == y.seconds);
                CHECK(x.algorithm == y.algorithm);
                CHECK(x.protocol == y.protocol);
                CHECK(x.latency.totalUs == y.latency.totalUs);
                CHECK(x.reason.text() == y.reason.text());
                for (auto alg : {CollectiveAlgorithm::Ring, CollectiveAlgorithm::DoubleBinaryTree,
                                 CollectiveAlgorithm::InNetwork}) {
                    CHECK(a.time(op, alg, bytes).seconds == b.time(op, alg, bytes).seconds);
                }
            }
    };
    // The same inputs: nothing worked out again.
    CHECK_FALSE(kept.reset(in));
    // Only the bandwidths (a routing or oversubscription change): the paths kept.
    CollectiveInputs slower = in;
    slower.fabricGbytePerS = 31.5;
    slower.scaleUpGbytePerS = 80.0;
    CHECK(kept.reset(slower));
    CHECK(kept.inputs() == slower);
    same(kept, CollectiveEngine(slower));
    // Anything else (the latency of a switch, the ranks): all of it again.
    CollectiveInputs other = slower;
    other.switchLatencyUs = 0.6;
    other.ranks = 128;
    CHECK(kept.reset(other));
    same(kept, CollectiveEngine(other));
    // And back, bandwidths and latency together.
    CHECK(kept.reset(in));
    same(kept, CollectiveEngine(in));
}

// NCCL's ring graph search inside one NVLink domain (src/graph/search.cc, ncclTopoCompute and
// ncclTopoDupChannels; src/graph/connect.cc, ncclTopoPostset) gives the "coll channels" NCCL
// reports: HGX A100 24 (nccl-tests issue 100: "Channel 23/24"), 8 H100 on a p5.48xlarge 24
// ("24 coll channels, 24 collnet channels, 16 nvls channels"), 8 H800 16 (NVIDIA/nccl issue
// 892: "16 coll channels"); 8 B200 32.
TEST_CASE("Ring channels on one NVLink domain follow NCCL's graph search",
          "[network][collectives][channels]")
{
    const double efficiency = nvlinkEfficiency().efficiency;
    const auto channels = [&](GpuGeneration gen, double rawGbytePerS) {
        CollectiveInputs in = eightGpus();
        in.generation = gen;
        in.scaleUpGbytePerS = rawGbytePerS * efficiency;
        const auto t = collectiveTime(CollectiveOp::AllReduce, CollectiveAlgorithm::Ring,
                                      CollectiveProtocol::Simple, 1 << 30, in);
        REQUIRE(t.available);
        return t.channels;
    };
    CHECK(channels(GpuGeneration::Ampere, 300.0) == 24);    // A100: 12 NVLink 3
    CHECK(channels(GpuGeneration::Hopper, 450.0) == 24);    // H100: 18 NVLink 4
    CHECK(channels(GpuGeneration::Hopper, 200.0) == 16);    // H800: 8 NVLink 4
    CHECK(channels(GpuGeneration::Blackwell, 900.0) == 32); // B200: 18 NVLink 5
    // Fewer links, fewer channels: 4 NVLink 4 (82.4 GB/s as NCCL counts them) find two channels
    // at 40 GB/s, doubled twice: 8.
    CHECK(channels(GpuGeneration::Hopper, 100.0) == 8);
    // Across nodes the rings follow the NICs: two channels a rail.
    CollectiveInputs two = eightGpus();
    two.ranks = 16;
    two.railsPerNode = 8;
    CHECK(collectiveTime(CollectiveOp::AllReduce, CollectiveAlgorithm::Ring,
                         CollectiveProtocol::Simple, 1 << 30, two)
              .channels == 16);
}
