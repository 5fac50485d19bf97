#pragma once

#include "dct/model/calibrationprofile.h"
#include "dct/model/catalog.h"
#include "dct/model/provenance.h"
#include "dct/model/scenario.h"

#include <algorithm>
#include <map>
#include <string>
#include <vector>

namespace dct::model {

/**
 * A scenario with every catalog reference replaced by the entry it names (overrides applied) and
 * every number explicit, each tagged with where it came from.
 */
struct ResolvedScenario
{
    Scenario scenario;
    SiteSpec site;
    GpuSpec gpu;
    NodeSpec node;
    NicSpec nic;
    SwitchSpec fabricSwitch;
    CoolingSystemSpec cooling;
    bool hasEgressPricing = false;
    EgressPricing egressPricing;
    bool hasUnmeteredPort = false;
    PortOffer unmeteredPort;
    std::vector<CableSpec> cables;                 ///< Every cable and optic of the catalog.
    std::vector<CoolingSystemSpec> coolingOptions; ///< Every cooling system, for comparisons.
    std::vector<PortOffer> portOffers;             ///< Every unmetered port offer.
    /// The workload's architecture: the catalog model named by /workload/model (overrides
    /// applied), or a dense model synthesized from /workload/parameters_billion.
    ModelSpec model;
    bool modelSynthesized = true;              ///< True when no catalog model is named.
    int sequenceLength = 4096;                 ///< Effective: the workload's, else the model's.
    std::vector<FailureRateSpec> failureRates; ///< Every component failure rate.
    std::vector<PlantUnitSpec> plantUnits;     ///< Every facility plant unit (redundancy).

    int gpusPerNode = 8;  ///< Effective: scenario value or the node's.
    int rails = 8;        ///< Effective scale-out NICs per node.
    int dataParallel = 1; ///< Effective data-parallel size (GPUs / (TP x PP x CP) unless set).
    /** Logical ports each switch port is split into (1: none); see applyDerivedRules(). */
    int portBreakout = 1;
    /** Returns the switch radix after breakout: the logical ports of one switch. */
    int fabricPorts() const { return fabricSwitch.ports * portBreakout; }
    /** Returns the rate of one logical switch port after breakout, in Gb/s. */
    double fabricPortRateGbps() const { return fabricSwitch.portRateGbps / portBreakout; }
    /**
     * Returns one node's nameplate in kW: the node type's maximum, less what each GPU may no
     * longer draw above its enforced power limit (/compute/gpu_power_limit_w), as feeds
     * provisioned to the limit are.
     */
    double nodeNameplateKw() const
    {
        const double cap = scenario.compute.gpuPowerLimitW;
        const double heldBackW = cap > 0.0 && cap < gpu.tdpW ? gpu.tdpW - cap : 0.0;
        return std::max(node.maxPowerKw - gpusPerNode * heldBackW / 1000.0, 0.0);
    }

    /**
     * The collectives engine's calibration: the factors of the profile named by
     * /network/calibration_profile once the caller found it in the scenario library (see
     * solvers::EvaluateOptions::calibrationProfile), else all 1.
     */
    CollectiveCalibration collectiveCalibration;
    /** How that profile's fit timed the collectives; the engine times them the same way. */
    CalibrationTiming collectiveTiming;
    /** The name of the profile applied to collectiveCalibration; empty when none is. */
    std::string appliedCalibrationProfile;

    /** Where each input came from, keyed by JSON pointer ("/compute/gpu/tdp_w"). */
    std::map<std::string, Provenance> provenance;

    /** The most GPUs a cluster may have (validateScenario() refuses more). */
    static constexpr long long kMaxGpus = 10'000'000;
    /** Returns the number of GPUs of the cluster, computed in 64 bits and held at kMaxGpus + 1
     *  at most (a larger product is refused by validation, never wrapped around). */
    int gpuCount() const
    {
        const long long gpus = static_cast<long long>(scenario.compute.nodeCount) * gpusPerNode;
        return static_cast<int>(std::min(gpus, kMaxGpus + 1));
    }
};

} // namespace dct::model
