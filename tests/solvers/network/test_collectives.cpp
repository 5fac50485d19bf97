#include "dct/solvers/collectives.h"
#include "dct/solvers/protocolefficiency.h"

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
}

TEST_CASE("Ring all-reduce time is 2(n-1) alpha + 2(n-1)/n S/B", "[network][collectives]")
{
    const CollectiveInputs in = eightGpus();
    const double bytes = 1 << 30;
    const CollectiveTiming t =
        collectiveTime(CollectiveOp::AllReduce, CollectiveAlgorithm::Ring, bytes, in);
    const double expected = 2.0 * 7 * 2.0e-6 + 2.0 * 7 / 8 * bytes / 100e9;
    CHECK(t.seconds == Approx(expected).epsilon(1e-12));
    CHECK(t.algbwGbytePerS == Approx(bytes / expected / 1e9).epsilon(1e-12));
    // At large sizes busbw tends to the link bandwidth B.
    CHECK(t.busbwGbytePerS == Approx(100.0).epsilon(0.01));
}

TEST_CASE("Reduce-scatter and all-gather take half an all-reduce's bandwidth term",
          "[network][collectives]")
{
    const CollectiveInputs in = eightGpus();
    const double bytes = 1 << 30;
    const auto rs =
        collectiveTime(CollectiveOp::ReduceScatter, CollectiveAlgorithm::Ring, bytes, in);
    const auto ag = collectiveTime(CollectiveOp::AllGather, CollectiveAlgorithm::Ring, bytes, in);
    CHECK(rs.seconds == Approx(7 * 2.0e-6 + 7.0 / 8 * bytes / 100e9).epsilon(1e-12));
    CHECK(ag.seconds == Approx(rs.seconds).epsilon(1e-12));
    CHECK(rs.busbwGbytePerS == Approx(100.0).epsilon(0.01));
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
    const auto hierLarge =
        collectiveTime(CollectiveOp::AllReduce, CollectiveAlgorithm::Hierarchical, 1e10, in);
    const auto treeLarge =
        collectiveTime(CollectiveOp::AllReduce, CollectiveAlgorithm::DoubleBinaryTree, 1e10, in);
    CHECK(hierLarge.seconds < treeLarge.seconds);
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
    CHECK(bestCollective(CollectiveOp::AllReduce, bytes, in).algorithm ==
          CollectiveAlgorithm::InNetwork);
}

TEST_CASE("The curve spans 8 B to 16 GiB by doubling", "[network][collectives]")
{
    const auto curve =
        collectiveCurve(CollectiveOp::AllReduce, CollectiveAlgorithm::Ring, eightGpus());
    REQUIRE(curve.size() == 32);
    CHECK(curve.front().bytes == 8.0);
    CHECK(curve.back().bytes == Approx(17179869184.0).epsilon(1e-15));
    for (std::size_t i = 1; i < curve.size(); ++i) {
        CHECK(curve[i].seconds > curve[i - 1].seconds);
        CHECK(curve[i].busbwGbytePerS >= curve[i - 1].busbwGbytePerS);
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
