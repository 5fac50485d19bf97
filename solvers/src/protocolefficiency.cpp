#include "dct/solvers/protocolefficiency.h"

namespace dct::solvers {

// Header and trailer sizes in bytes, each beside its source.
namespace {
constexpr int ethernetHeaderBytes = 14; // IB_ETH_BYTES, Linux include/rdma/ib_pack.h
constexpr int vlanTagBytes = 4;         // IB_VLAN_BYTES, Linux include/rdma/ib_pack.h
constexpr int ipv4HeaderBytes = 20;     // IB_IP4_BYTES, Linux include/rdma/ib_pack.h
constexpr int udpHeaderBytes = 8;       // IB_UDP_BYTES, Linux include/rdma/ib_pack.h
constexpr int bthBytes = 12;            // IB_BTH_BYTES, Linux include/rdma/ib_pack.h
constexpr int icrcBytes = 4;            // IB_ICRC_BYTES, Linux include/rdma/ib_pack.h
constexpr int lrhBytes = 8;             // IB_LRH_BYTES, Linux include/rdma/ib_pack.h
constexpr int grhBytes = 40;            // IB_GRH_BYTES, Linux include/rdma/ib_pack.h
// Not in ib_pack.h: the variant CRC closes every InfiniBand packet (IBTA InfiniBand
// Architecture Specification Vol. 1, 7.8: VCRC, 2 bytes).
constexpr int vcrcBytes = 2;
// Not in ib_pack.h: Ethernet frame check sequence (IEEE 802.3 clause 3.2.9, 4 bytes), and the
// preamble + start delimiter (8 bytes) plus minimum inter-frame gap (12 bytes) every frame costs
// on the wire (IEEE 802.3 clause 4.4.2).
constexpr int fcsBytes = 4;
constexpr int preambleAndGapBytes = 20;
} // namespace

WireOverhead wireOverhead(model::Protocol protocol, int mtuBytes, bool vlanTagged, bool globalRoute)
{
    WireOverhead w;
    w.payloadBytes = mtuBytes;
    if (protocol == model::Protocol::RoceV2) {
        // RoCE v2 = Ethernet + IPv4 + UDP + BTH + payload + ICRC + FCS, plus preamble and gap.
        w.overheadBytes = preambleAndGapBytes + ethernetHeaderBytes +
                          (vlanTagged ? vlanTagBytes : 0) + ipv4HeaderBytes + udpHeaderBytes +
                          bthBytes + icrcBytes + fcsBytes;
    } else {
        // InfiniBand = LRH + (GRH across subnets) + BTH + payload + ICRC + VCRC.
        w.overheadBytes =
            lrhBytes + (globalRoute ? grhBytes : 0) + bthBytes + icrcBytes + vcrcBytes;
    }
    w.efficiency =
        mtuBytes > 0 ? static_cast<double>(mtuBytes) / (mtuBytes + w.overheadBytes) : 0.0;
    return w;
}

NvlinkEfficiency nvlinkEfficiency(int writeBytes, int headerBytes, double ncclProtocolEfficiency)
{
    NvlinkEfficiency n;
    n.packetEfficiency =
        writeBytes > 0 ? static_cast<double>(writeBytes) / (writeBytes + headerBytes) : 0.0;
    n.protocolEfficiency = ncclProtocolEfficiency;
    n.efficiency = n.packetEfficiency * n.protocolEfficiency;
    return n;
}

} // namespace dct::solvers
