#pragma once

#include <string>
#include <vector>

namespace dct::solvers {

/** Switch tiers of a fabric, from the endpoints up. */
enum class FabricTier
{
    Leaf,  ///< Top-of-rack / leaf switches the NICs attach to.
    Spine, ///< Second tier (aggregation in a 3-tier fat tree).
    Core   ///< Third tier.
};

/** Returns "leaf", "spine" or "core". */
const char* fabricTierName(FabricTier tier);

/** Counts of one switch tier, summed over every plane. */
struct TierCounts
{
    FabricTier tier = FabricTier::Leaf;
    long long switches = 0;
    long long portsUsed = 0;
    long long portsFree = 0;
    long long linksDown = 0; ///< Links from this tier to the one below (NICs for the leaves).
};

/** One class of links (NIC-leaf, leaf-spine, spine-core) with the cable chosen for it. */
struct CableLine
{
    std::string linkClass; ///< "node-leaf", "leaf-spine" or "spine-core".
    long long links = 0;
    double rateGbps = 0.0;
    double lengthM = 0.0;
    std::string cableId;        ///< Catalog cable chosen; empty when none fits.
    std::string cableKind;      ///< "dac", "aec", "aoc" or "transceiver".
    long long cables = 0;       ///< Cables (or fibers) laid.
    long long transceivers = 0; ///< Pluggable optics, two per optical link.
    double powerW = 0.0;
    double costUsd = 0.0;
};

/** The closed-form shape of a fabric: what to buy and how it is wired. */
struct TopologyResult
{
    int planes = 1;
    int tiers = 2;
    int switchPorts = 64; ///< Logical ports per switch (after breakout).
    int breakout = 1;     ///< Logical ports per physical switch port.
    long long nodes = 0;
    long long endpoints = 0; ///< Switch ports facing NICs or the fabric manager.
    long long nics = 0;
    int scalableUnits = 0;               ///< Rail-optimized only.
    int scalableUnitNodes = 0;           ///< Node slots per unit (rail-optimized only).
    long long reservedSlots = 0;         ///< Node slots left to the fabric manager.
    long long leafDownPorts = 0;         ///< Ports per leaf provisioned for endpoints.
    long long leafUpPorts = 0;           ///< Ports per leaf toward the spines.
    long long pods = 0;                  ///< 3-tier only, per plane.
    std::vector<TierCounts> tiersCounts; ///< One entry per switch tier in use.
    long long switches = 0;
    long long switchLinks = 0;   ///< Switch-to-switch links (as DeepSeek-V3 Table 3 counts).
    long long endpointLinks = 0; ///< NIC-to-leaf links.
    std::vector<CableLine> cables;
    double switchPowerW = 0.0;
    double nicPowerW = 0.0;
    double cablePowerW = 0.0;
    double switchCostUsd = 0.0;
    double nicCostUsd = 0.0;
    double cableCostUsd = 0.0;
    double powerW = 0.0;
    double costUsd = 0.0;
    double fullBisectionGbps = 0.0; ///< Closed form: half the endpoints at line rate / oversub.

    /** Returns the counts of \a tier (all zero when the tier is absent). */
    TierCounts tier(FabricTier tier) const;
};

} // namespace dct::solvers
