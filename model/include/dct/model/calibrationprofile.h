#pragma once

#include "dct/model/error.h"

#include <array>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace dct::model {

struct ResolvedScenario;

/**
 * The collectives engine's free parameters for one fabric (docs/collectives.md,
 * "Calibration"). Each multiplies the named part of the engine it calibrates; heldValue() (1,
 * and 0 for the proxy's serial posts) leaves the engine as NCCL's tuner and the catalog describe
 * it.
 */
struct CollectiveCalibration
{
    double launchLatencyFactor = 1.0;  ///< NCCL's per-call base latency (launch, setup).
    double scaleUpLatencyFactor = 1.0; ///< Every NVLink step.
    double fabricLatencyFactor = 1.0;  ///< Every network step: software, PCIe, NIC, switch, cable.
    double scaleUpBandwidthFactor = 1.0; ///< B_nv, the NVLink bandwidth NCCL reaches.
    double fabricBandwidthFactor = 1.0;  ///< B_r, the bandwidth of NCCL's network transport.
    /** The whole latency of a collective run with LL, LL128 or Simple: NCCL's per-protocol
     *  base and step latencies (tuning.cc) differ by transport as the tiers' do. Profiles
     *  stored before these existed load with 1 (docs/collectives.md, "Calibration"). */
    double llLatencyFactor = 1.0;
    double ll128LatencyFactor = 1.0;
    double simpleLatencyFactor = 1.0;
    /** The per-chunk step cost of a tree pipelined chunk by chunk (Simple, LL128), timed only
     *  where the run's NCCL release is known (docs/collectives.md, "Chunk pipeline"). Profiles
     *  stored before it existed load with 1. */
    double chunkStepFactor = 1.0;
    /** The bandwidth of a call run with LL128 against Simple's (both scale with the tiers'
     *  bandwidth factors): fitted where a log's sizes run both; profiles stored before it
     *  existed load with 1 (docs/collectives.md, "Calibration"). */
    double ll128BandwidthFactor = 1.0;
    /** The network posts of a call's channels, one after the other on NCCL's proxy thread, in
     *  units of NCCL's network post overhead (1 us on Intel hosts, tuning.cc getNetOverhead):
     *  each channel past the first delays every network step by this much. NCCL's tuner has no
     *  such term, so it is 0 (off) unless a log's sizes fit it; profiles stored before it
     *  existed load with 0 (docs/collectives.md, "Calibration"). */
    double proxyPostFactor = 0.0;

    /** The number of parameters. */
    static constexpr std::size_t count = 11;
    /** The index of chunkStepFactor, which only a release's timing reads. */
    static constexpr std::size_t chunkStepIndex = 8;
    /** The index of ll128BandwidthFactor. */
    static constexpr std::size_t ll128BandwidthIndex = 9;
    /** The index of proxyPostFactor, the one parameter held at 0. */
    static constexpr std::size_t proxyPostIndex = 10;
    /** Parameters from here on may be absent from a stored profile (read as heldValue()). */
    static constexpr std::size_t firstOptional = 5;
    /** Returns the value parameter \a i has when not fitted: 1, or 0 for proxyPostFactor. */
    static constexpr double heldValue(std::size_t i) { return i == proxyPostIndex ? 0.0 : 1.0; }
    /** Returns parameter \a i (in the order above). */
    double& at(std::size_t i);
    double at(std::size_t i) const;
    /** Returns the JSON key of parameter \a i ("launch_latency_factor", ...). */
    static const char* key(std::size_t i);
    /** Returns what parameter \a i calibrates, for tables. */
    static const char* label(std::size_t i);
    /** Returns true when every parameter has its held value. */
    bool identity() const;

    bool operator==(const CollectiveCalibration&) const = default;
};

/**
 * How the engine timed each measured size when a profile was fitted (docs/collectives.md,
 * "NCCL's choice by release"). The fitted factors hold only for the same timing: a profile
 * fitted on what an NCCL release's tuner picks, its tree pipelined chunk by chunk as that
 * release does, stores a chunk_step_factor the engine's fastest choice never reads. Eval times
 * the collectives of a scenario that names the profile the way the fit did.
 */
struct CalibrationTiming
{
    enum class Choice
    {
        Engine,     ///< The engine's fastest algorithm and protocol at each size.
        NcclRelease ///< What the logs' NCCL release's tuner picks, pipelined as it does.
    };
    Choice choice = Choice::Engine;
    /** The NCCL release the logs ran (0.0.0 when they do not name it). */
    int ncclMajor = 0;
    int ncclMinor = 0;
    int ncclPatch = 0;

    /** Returns true when the logs named their NCCL release. */
    bool hasNcclVersion() const { return ncclMajor > 0; }
    /** Returns "2.9.9", or "" when no release is named. */
    std::string ncclVersionText() const;
    /** Returns "engine" or "nccl_release", as the profile's JSON spells it. */
    const char* choiceKey() const;
    /** Returns how the sizes are timed, in words ("the algorithm and protocol NCCL 2.9.9's
     *  tuner picks"). */
    std::string text() const;

    bool operator==(const CalibrationTiming&) const = default;
};

/** The system a profile was measured on: a profile applies only to the same one. */
struct CalibrationSystem
{
    int gpus = 0;
    int gpusPerNode = 0;
    std::string gpu;          ///< Catalog id of the GPU.
    std::string nic;          ///< Catalog id of the NIC.
    std::string fabricSwitch; ///< Catalog id of the fabric switch.
    int rails = 0;            ///< Scale-out NICs per node.
    std::string protocol;     ///< "infiniband" or "roce_v2".
    std::string topology;     ///< "fat_tree", "rail_optimized", ...

    /** Returns the system of \a scenario. */
    static CalibrationSystem of(const ResolvedScenario& scenario);
};

/** One measured size and what the calibrated engine gives for it. */
struct CalibrationPoint
{
    std::string test; ///< nccl-tests program ("all_reduce_perf", ...).
    std::string file; ///< The log it came from.
    int line = 0;     ///< Its row in the log.
    double bytes = 0.0;
    double measuredUs = 0.0;
    double measuredBusbwGbytePerS = 0.0;
    double modelUs = 0.0;
    double modelBusbwGbytePerS = 0.0;
    std::string algorithm; ///< What the engine chose ("ring/LL128").

    /** Returns (model busbw - measured busbw) / measured busbw in percent. */
    double residualPercent() const;
};

/** A calibration of the collectives engine fitted to nccl-tests logs of one system. */
struct CalibrationProfile
{
    std::string name;
    std::string createdAt;         ///< UTC, ISO 8601.
    std::vector<std::string> logs; ///< The log files fitted.
    CalibrationSystem system;
    CollectiveCalibration factors;
    /** How the fit timed the sizes; eval times the same way. Profiles stored before it was
     *  recorded read as the engine's fastest, unless they fitted the chunk step (only a
     *  release's timing reads it): those are refused, to be fitted again. */
    CalibrationTiming timing;
    /** Per parameter: fitted (true) or held (CollectiveCalibration::heldValue()) because the
     *  logs do not determine it. */
    std::array<bool, CollectiveCalibration::count> fitted = {};
    /** Per parameter: standard error of the factor, relative (0.02 = 2%). */
    std::array<double, CollectiveCalibration::count> relativeError = {};
    double rmsResidualPercent = 0.0;
    std::string modelVersion; ///< Of the engine that was fitted.
    std::vector<CalibrationPoint> points;
};

/** Returns \a profile as JSON (the form stored in the scenario library). */
nlohmann::json calibrationProfileJson(const CalibrationProfile& profile);

/** Reads a profile from its JSON text; errors name \a origin and the JSON pointer. */
Result<CalibrationProfile> readCalibrationProfile(const std::string& text,
                                                  const std::string& origin);

/**
 * Returns "" when a profile measured on \a measured applies to \a scenario, else what differs
 * ("8 GPUs per node, the scenario has 4; NIC 'cx7-400g', the scenario has 'cx6-200g'").
 */
std::string calibrationMismatch(const CalibrationSystem& measured,
                                const CalibrationSystem& scenario);

} // namespace dct::model
