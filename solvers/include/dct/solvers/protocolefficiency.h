#pragma once

#include "dct/model/enums.h"

namespace dct::solvers {

/** Bytes on the wire per RDMA packet and the payload share of the link rate. */
struct WireOverhead
{
    int payloadBytes = 4096; ///< RDMA path MTU.
    int overheadBytes = 0;   ///< Headers, trailers, preamble and gap per packet.
    double efficiency = 1.0; ///< payload / (payload + overhead).
};

/**
 * Returns the per-packet overhead of \a protocol at an RDMA MTU of \a mtuBytes:
 * RoCE v2 = preamble+IFG + Ethernet + IPv4 + UDP + BTH + payload + ICRC + FCS;
 * InfiniBand = LRH + BTH + payload + ICRC + VCRC (GRH only across subnets, \a globalRoute).
 */
WireOverhead wireOverhead(model::Protocol protocol, int mtuBytes, bool vlanTagged = false,
                          bool globalRoute = false);

/** NVLink data efficiency of NCCL traffic: payload share of the packets on the wire. */
struct NvlinkEfficiency
{
    double packetEfficiency = 1.0;   ///< Data flits over data plus header flits.
    double protocolEfficiency = 1.0; ///< NCCL protocol payload share (LL128: 120 of 128 bytes).
    double efficiency = 1.0;         ///< Product of the two.
};

/**
 * Returns the NVLink efficiency of NCCL ring traffic: a 16-byte header flit per 128-byte write
 * (NVLink packets of 16-byte flits, Foley and Danskin, IEEE Micro 37(2), 2017) times NCCL's
 * LL128 protocol carrying 120 data bytes per 128-byte line (NCCL src/include/device.h,
 * NCCL_LL128_DATAELEMS 15 of NCCL_LL128_LINEELEMS 16 eight-byte words).
 */
NvlinkEfficiency nvlinkEfficiency(int writeBytes = 128, int headerBytes = 16,
                                  double ncclProtocolEfficiency = 120.0 / 128.0);

} // namespace dct::solvers
