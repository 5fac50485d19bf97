#pragma once

#include "dct/model/enums.h"

namespace dct::solvers {

/** What the fabric builder needs: the shape, the endpoints and the switch radix. */
struct FabricSpec
{
    model::TopologyKind kind = model::TopologyKind::FatTree;
    int nodes = 1;        ///< Compute nodes.
    int railsPerNode = 8; ///< Scale-out NICs per node.
    int planes = 1;       ///< Independent planes (multi-plane); rail-only uses one per rail.
    int tiers = 0;        ///< 1, 2 or 3; 0 picks the fewest that hold the endpoints.
    int switchPorts = 64; ///< Radix k of every switch: its logical ports, after breakout.
    int breakout = 1;     ///< Logical ports per physical switch port (1: no breakout).
    double oversubscription = 1.0;  ///< Leaf downlink to uplink port ratio.
    int scalableUnitNodes = 32;     ///< Node slots per unit (rail-optimized); 0: sized to a leaf.
    int reservedSlotsPerUnit = 0;   ///< Node slots of every unit left for the fabric manager.
    int reservedSlotsPerFabric = 0; ///< Node slots of the whole fabric left for the manager.
    int fabricManagerPorts = 4;     ///< Fabric ports of a manager appliance (UFM: 4, RA-11333-001).
    double endpointRateGbps = 400.0;   ///< Rate of a node-to-leaf link.
    double switchLinkRateGbps = 400.0; ///< Rate of a switch-to-switch link.

    bool operator==(const FabricSpec&) const = default;
};

} // namespace dct::solvers
