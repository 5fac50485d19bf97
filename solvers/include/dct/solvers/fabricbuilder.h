#pragma once

#include "dct/model/diagnostics.h"
#include "dct/solvers/fabricspec.h"
#include "dct/solvers/topologyresult.h"

namespace dct::solvers {

/**
 * The closed-form plan of a fabric: how many leaves, spines and cores one plane needs and how
 * their ports split. Every plane of a multi-plane or rail-only fabric is identical.
 */
struct FabricPlan
{
    FabricSpec spec;
    int planes = 1;
    int tiers = 2;
    int switchPorts = 64;
    long long nodes = 0;
    long long endpointsPerPlane = 0; ///< NIC (and fabric-manager) ports of one plane.
    long long managerPortsPerPlane = 0;
    long long leavesPerPlane = 0;
    int leafDownPorts = 0;        ///< d: leaf ports provisioned for endpoints.
    int leafUpPorts = 0;          ///< u: leaf ports toward the tier above.
    long long spinesPerPlane = 0; ///< 2-tier spines, or 3-tier aggregation switches.
    int leavesPerPod = 0;         ///< 3-tier only.
    long long podsPerPlane = 0;   ///< 3-tier only.
    long long coresPerPlane = 0;  ///< 3-tier: the aggregation uplinks over k ports per core.
    int scalableUnits = 0;        ///< Rail-optimized only.
    int leavesPerRailPerUnit = 1; ///< Rail-optimized only.
    long long reservedSlots = 0;  ///< Node slots given to the fabric manager.
    bool valid = false;           ///< False when the endpoints do not fit (see diagnostics).
};

/** Returns the smallest divisor of \a n that is at least \a atLeast, or 0 when none is. */
long long smallestDivisorAtLeast(long long n, long long atLeast);

/**
 * A leaf's ports for endpoints when \a ports are split by the oversubscription \a ratio (down /
 * up; 1: half and half), at least 1 and at most ports - 1.
 */
int leafDownPortsOf(int ports, double ratio);

/**
 * Plans the fabric of \a spec by closed forms: leaf ports split by the oversubscription, leaves
 * from the endpoints, spines so that each leaf's uplinks spread evenly over them (the smallest
 * divisor of the uplink count whose ports hold every uplink, as NVIDIA DGX SuperPOD
 * RA-11333-001 provisions its spines), and for three tiers Al-Fares pods under the cores their
 * aggregation uplinks need.
 * Problems go to \a diagnostics under /network.
 */
FabricPlan planFabric(const FabricSpec& spec, Diagnostics& diagnostics);

/** Returns the closed-form counts (switches, ports, links per tier) of \a plan. */
TopologyResult topologyCounts(const FabricPlan& plan);

} // namespace dct::solvers
