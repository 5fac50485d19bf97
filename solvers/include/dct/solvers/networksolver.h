#pragma once

#include "dct/model/cablespec.h"
#include "dct/model/diagnostics.h"
#include "dct/model/resolvedscenario.h"
#include "dct/solvers/fabricbuilder.h"
#include "dct/solvers/networkresult.h"

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace dct::solvers {

/** Returns the fabric builder's input for the network section of \a scenario. */
FabricSpec fabricSpec(const model::ResolvedScenario& scenario);

/** What a link's ends plug into. */
struct LinkSockets
{
    double linkRateGbps = 400.0; ///< The link's rate.
    bool nicEnd = false;         ///< One end is a NIC's single-port cage; else both are switches.
    int switchPortsPerCage = 1;  ///< Logical switch ports sharing one cage (twin-port OSFP: 2).
    model::Protocol protocol = model::Protocol::Infiniband;
    double switchPortRateGbps = 0.0; ///< A logical switch port's rate; 0: the link's.
    /// The cage is a twin-port OSFP (two ports by design): only plugs of its rate fit. A
    /// single-port cage broken out takes breakout cables, priced here leg by leg.
    bool twinPortCage = false;

    bool operator==(const LinkSockets&) const = default;
};

/** The medium of a link: a cable, or a transceiver at each end and the fiber between. */
struct MediumChoice
{
    /** The cable, or the module at the NIC end (at both ends when cages hold one port). */
    const model::CableSpec* cable = nullptr;
    /** Transceivers into shared cages: the switch-end module serving a cage's ports. */
    const model::CableSpec* shared = nullptr;
    double costPerLinkUsd = 0.0; ///< Its price spread over the links it carries, fiber included.
};

/**
 * Returns the cheapest medium in \a cables for a link of \a lengthM between \a sockets, or no
 * cable when nothing reaches. Only what plugs in counts: a switch cage of several ports takes a
 * plug of their summed rate (a twin-port 800G module, a twin-port cable to another such cage, or
 * a splitter whose legs go to NICs), never single-port plugs; a part sold for the other protocol
 * is left out; the two modules of a fiber carry the same optics.
 */
MediumChoice chooseMedium(const std::vector<model::CableSpec>& cables, const LinkSockets& sockets,
                          double lengthM);

/**
 * The media that plug into \a sockets, worked out once for every length: each with the reach it
 * needs and its price as a fixed part plus fiber per metre. choose(lengthM) is chooseMedium for
 * that length (chooseMedium is built on it), for a hall that prices thousands of runs.
 */
class MediumMenu
{
public:
    MediumMenu(const std::vector<model::CableSpec>& cables, const LinkSockets& sockets);

    /** Returns the cheapest medium that reaches \a lengthM, or no cable when none does. */
    MediumChoice choose(double lengthM) const;

private:
    struct Offer
    {
        const model::CableSpec* cable = nullptr;
        const model::CableSpec* shared = nullptr;
        double fixedUsd = 0.0;
        double fiberUsdPerM = 0.0;
        double powerW = 0.0;
        double reachM = 0.0;   ///< The shortest reach of its parts.
        bool fallback = false; ///< A faster part run at the link's rate (when nothing else fits).
    };
    std::vector<Offer> m_offers;
};

/** The cables and modules a medium needs for \a links links of \a fiberM metres in all. */
struct MediumBill
{
    long long cables = 0;       ///< Cables, or fibers between two transceivers.
    long long transceivers = 0; ///< Modules, every end (one per shared cage).
    double powerW = 0.0;
    double costUsd = 0.0;
};

/** Returns what \a choice needs for \a links links between \a sockets, \a fiberM in all. */
MediumBill billMedium(const MediumChoice& choice, const LinkSockets& sockets, long long links,
                      double fiberM);

/** Fills in the cables, power and cost of \a topology from the catalog entries of \a scenario. */
void priceTopology(TopologyResult& topology, const model::ResolvedScenario& scenario,
                   Diagnostics& diagnostics);

/** Returns the alpha-beta inputs of a collective of \a ranks ranks, \a ranksPerNode per node. */
CollectiveInputs collectiveInputs(const model::ResolvedScenario& scenario,
                                  const NetworkResult& network, int ranks, int ranksPerNode);

/** Returns the bytes all-reduced per data-parallel group in one step: bf16/fp16 gradients (2 bytes)
 *  of the P / (TP x PP) parameters each replica holds. */
double gradientAllReduceBytes(const model::ResolvedScenario& scenario);

/**
 * Solves the fabric of \a scenario by closed forms (no graph): topology, cables, power, cost,
 * protocol efficiency, oversubscription and routing shares, collectives and the gradient
 * all-reduce of one training step of \a gradientBytes. Risks go to \a diagnostics.
 */
NetworkResult solveNetwork(const model::ResolvedScenario& scenario, double gradientBytes,
                           Diagnostics& diagnostics);

/**
 * The inputs the fabric part of solveNetwork() and the hall's layout (layoutHall) both read: the
 * hall and facility sections, the switch, the cooling system, the catalog's cables and the port
 * breakout. A FabricMemo holds them once for both stages and compares them once a solve.
 * Compared field by field, never by name.
 */
struct SharedFabricInputs
{
    model::HallSection hall;
    model::FacilitySection facility;
    model::SwitchSpec fabricSwitch;
    model::CoolingSystemSpec coolingSystem;
    std::vector<model::CableSpec> cables;
    int portBreakout = 0;

    /** Returns whether \a scenario has exactly these inputs. */
    bool sameAs(const model::ResolvedScenario& scenario) const;
    /** Takes the inputs of \a scenario. */
    void assign(const model::ResolvedScenario& scenario);
};

/**
 * The inputs the fabric part of solveNetwork() reads (all but the gradient all-reduce) besides
 * the shared ones (SharedFabricInputs): the scenario's compute, network, storage and cooling
 * sections, the catalog entries they resolve to and the derived counts. The hall reads the
 * node's power (solvePower), hence the compute, storage, facility and cooling inputs. The
 * sections' catalog references are compared as they are: the entries they resolve to are
 * compared too. Compared field by field, never by name.
 */
struct FabricInputs
{
    model::ComputeSection compute;
    model::NetworkSection network;
    model::StorageSection storage;
    model::CoolingSection cooling;
    model::GpuSpec gpu;
    model::NodeSpec node;
    model::NicSpec nic;
    int gpusPerNode = 0;
    int rails = 0;
    model::CollectiveCalibration calibration;
    model::CalibrationTiming calibrationTiming;

    /** Returns whether \a scenario has exactly these inputs. */
    bool sameAs(const model::ResolvedScenario& scenario) const;
    /**
     * Returns whether \a scenario has these inputs but for the ones only the fabric's rates
     * read (sameRatesAs()): the fabric's plan, counts, prices, hall and diagnostics follow from
     * these alone.
     */
    bool sameShapeAs(const model::ResolvedScenario& scenario) const;
    /** Returns whether \a scenario has the inputs only the rates read: the routing and the MTU
     *  (shares and wire overhead) and the calibration profile, by name and by its factors (the
     *  collectives engine). */
    bool sameRatesAs(const model::ResolvedScenario& scenario) const;
    /** Takes the inputs of \a scenario. */
    void assign(const model::ResolvedScenario& scenario);
    /** Takes the inputs of \a scenario only the rates read (sameRatesAs()). */
    void assignRates(const model::ResolvedScenario& scenario);
};

/** What a FabricMemo gives back of the last solve (FabricMemo::replay()). */
enum class FabricReplay
{
    None,  ///< Nothing: the fabric is solved again.
    Shape, ///< The plan, counts, prices, hall and diagnostics: only the rates are solved again.
    All    ///< The whole fabric part: only the gradient all-reduce is timed again.
};

/**
 * The inputs the hall's layout (layoutHall) reads besides the shared ones (SharedFabricInputs):
 * the fabric's shape (its plan follows from it), the nodes a compute rack holds (solvePower's
 * rack layout), the IT design heat, the CDUs' redundancy and the protocol. Compared field by
 * field, never by name.
 */
struct HallInputs
{
    FabricSpec spec;
    int nodesPerRack = 0;
    /** The IT design heat (kW) the hall's cooling units are counted for (designCduCount). */
    double itDesignPowerKw = 0.0;
    /** The spares installed beside the CDUs that carry the liquid loop (installedUnits). */
    model::Redundancy cduRedundancy = model::Redundancy::NPlus1;
    model::Protocol protocol = model::Protocol::Infiniband;

    /** Returns whether \a scenario, whose fabric is \a spec, whose compute racks hold
     *  \a nodesPerRack nodes and whose IT design heat is \a itDesignPowerKw, has exactly these
     *  inputs. */
    bool sameAs(const model::ResolvedScenario& scenario, const FabricSpec& spec, int nodesPerRack,
                double itDesignPowerKw) const;
    /** Takes the inputs of \a scenario. */
    void assign(const model::ResolvedScenario& scenario, const FabricSpec& spec, int nodesPerRack,
                double itDesignPowerKw);
};

/**
 * The fabric part of the last network solve into one NetworkResult, kept while its inputs
 * (FabricInputs and SharedFabricInputs) stay the same: a sweep over the workload plans the
 * fabric once. Within it the hall is a stage of its own, kept while HallInputs and the shared
 * inputs stay the same (a change of the routing, the NIC or a price of the fabric solves the
 * fabric again around the same hall), and so are the reported collectives (kept while the
 * world's collective inputs stay the same). The shared inputs are held once and compared once a
 * solve. While they stay the same it also keeps the media of the typical-length cable runs
 * (priceTopology) and the ECMP shares of the last leaf shapes. What it keeps is the
 * NetworkResult it last solved into, so it is used with that one NetworkResult only (an
 * Evaluation holds both).
 */
class FabricMemo
{
public:
    /** Returns how much of the fabric of \a scenario the NetworkResult last solved with this
     *  memo holds (FabricReplay); unless nothing, appends the diagnostics its fabric part gave
     *  then (the rates give none). Starts a solve: the shared inputs are compared at most once
     *  from here on. */
    FabricReplay replay(const model::ResolvedScenario& scenario, Diagnostics& diagnostics);
    /** Records that the fabric of \a scenario was solved on \a plan and gave
     *  diagnostics[from, end). */
    void keep(const model::ResolvedScenario& scenario, const FabricPlan& plan,
              const Diagnostics& diagnostics, std::size_t from);
    /** Records that the rates of \a scenario were solved on the fabric kept. */
    void keepRates(const model::ResolvedScenario& scenario) { m_inputs.assignRates(scenario); }
    /** The plan of the fabric kept (valid() only). */
    const FabricPlan& plan() const { return m_plan; }
    /** Returns how many times the fabric was planned with this memo (replay() gave None). */
    long long fabricPlans() const { return m_fabricPlans; }
    /** Forgets what was kept (the fabric, the hall, the media and the reported collectives). */
    void clear()
    {
        m_valid = false;
        m_hallValid = false;
        m_collectivesValid = false;
        m_sharedValid = false;
        m_sharedState = SharedState::Unchecked;
        m_mediaCount = 0;
        m_gradientEngine.reset();
    }
    /** Returns whether something is kept. */
    bool valid() const { return m_valid; }
    /** Returns whether the last solve kept the hall's layout. */
    bool hallKept() const { return m_hallKept; }
    /** Returns how many times the hall was laid out with this memo (a layout's identity). */
    long long hallLayouts() const { return m_hallLayouts; }
    /** Returns whether the last solveReportedCollectives() kept the collectives. */
    bool collectivesKept() const { return m_collectivesKept; }

    /** Returns whether the shared inputs (SharedFabricInputs) kept are those of \a scenario;
     *  compared once a solve (replay() starts one), the answer remembered until it ends. */
    bool sharedSame(const model::ResolvedScenario& scenario);

    /** The hall stage (solveNetwork): returns whether the hall last laid out holds the layout
     *  of \a scenario; appends the diagnostics its layout gave then. */
    bool replayHall(const model::ResolvedScenario& scenario, const FabricSpec& spec,
                    int nodesPerRack, double itDesignPowerKw, Diagnostics& diagnostics);
    /** Records that the hall of \a scenario was laid out and gave diagnostics[from, end). */
    void keepHall(const model::ResolvedScenario& scenario, const FabricSpec& spec, int nodesPerRack,
                  double itDesignPowerKw, const Diagnostics& diagnostics, std::size_t from);
    /** Records that no hall was laid out (the NetworkResult holds none). */
    void dropHall()
    {
        m_hallValid = false;
        m_hallKept = false;
    }
    /** The reported collectives' stage: returns whether they were timed on \a inputs. */
    bool collectivesTimedOn(const CollectiveInputs& inputs);
    /** Records that the reported collectives were timed on \a inputs. */
    void keepCollectives(const CollectiveInputs& inputs);

    /** The typical-length runs (priceTopology): returns the medium chooseMedium() gives for a
     *  run of \a lengthM between \a sockets in the cables of \a scenario, chosen once while
     *  the shared inputs stay the same. */
    MediumChoice medium(const model::ResolvedScenario& scenario, const LinkSockets& sockets,
                        double lengthM);
    /** Returns ecmpThroughputShare(uplinks, flows, rails), kept for the last two shapes. */
    double ecmpShare(int uplinks, int flows, int rails);
    /** The gradient all-reduce's engine: CollectiveEngine(inputs), the last one kept and
     *  reset() to \a inputs (its paths kept when only the bandwidths changed). */
    const CollectiveEngine& gradientEngine(const CollectiveInputs& inputs);

private:
    enum class SharedState
    {
        Unchecked, ///< Not compared in this solve yet.
        Same,      ///< The shared inputs kept are the scenario's.
        Differs    ///< They are not (until the hall or the fabric keeps the scenario's).
    };
    /** Takes the shared inputs of \a scenario unless they are known to be the same. */
    void keepShared(const model::ResolvedScenario& scenario);

    bool m_valid = false;
    FabricInputs m_inputs;
    FabricPlan m_plan;
    long long m_fabricPlans = 0;
    std::vector<Diagnostic> m_diagnostics;
    // The inputs the fabric and the hall share.
    bool m_sharedValid = false;
    SharedState m_sharedState = SharedState::Unchecked;
    SharedFabricInputs m_shared;
    // The hall stage.
    bool m_hallValid = false;
    bool m_hallKept = false;
    long long m_hallLayouts = 0;
    HallInputs m_hallInputs;
    std::vector<Diagnostic> m_hallDiagnostics;
    // The reported collectives.
    bool m_collectivesValid = false;
    bool m_collectivesKept = false;
    CollectiveInputs m_collectiveInputs;
    // The media of the typical-length runs, valid with the shared inputs (cables by index).
    struct KeptMedium
    {
        LinkSockets sockets;
        double lengthM = 0.0;
        std::ptrdiff_t cable = -1;
        std::ptrdiff_t shared = -1;
        double costPerLinkUsd = 0.0;
    };
    static constexpr std::size_t kKeptMedia = 4;
    KeptMedium m_media[kKeptMedia];
    std::size_t m_mediaCount = 0;
    std::size_t m_nextMedium = 0;
    // The ECMP shares of the last two leaf shapes (a pure function of three counts).
    struct KeptShare
    {
        int uplinks = -1;
        int flows = -1;
        int rails = -1;
        double share = 0.0;
    };
    KeptShare m_shares[2];
    std::size_t m_nextShare = 0;
    // The gradient all-reduce's engine of the last solve.
    std::optional<CollectiveEngine> m_gradientEngine;
};

/**
 * Solves the network of \a scenario into \a net as solveNetwork() does, the same figures and
 * diagnostics in the same order, keeping the fabric part \a net already holds when \a memo says
 * its inputs did not change (only the gradient all-reduce is timed again), its plan, counts,
 * prices and hall when only the inputs of its rates changed (FabricInputs::sameRatesAs(): the
 * shares, the latency and the collectives' inputs are solved again), and the hall's layout
 * when its inputs (HallInputs) did not change. The reported collectives (net.collectives) are
 * not timed here: a view that shows them asks solveReportedCollectives(). \a net must be the
 * NetworkResult the last call with \a memo solved into. Returns whether the fabric was kept.
 */
bool solveNetwork(const model::ResolvedScenario& scenario, double gradientBytes,
                  Diagnostics& diagnostics, NetworkResult& net, FabricMemo& memo);

/**
 * Times the collectives \a net reports (reportedCollectives() on net.worldInputs) into
 * net.collectives, unless \a memo says they were timed on the same inputs already. \a net is the
 * NetworkResult solveNetwork() solved into with \a memo.
 */
void solveReportedCollectives(NetworkResult& net, FabricMemo& memo);

/**
 * Returns the collectives the network result reports (NetworkResult::collectives): all-reduce,
 * reduce-scatter, all-gather and all-to-all, each by ring, tree, hierarchical and in-network, at
 * 1 GiB on \a world (the whole cluster's inputs).
 */
std::vector<CollectiveTiming> reportedCollectives(const CollectiveInputs& world);

/**
 * Returns the data-parallel gradient all-reduce of \a bytes on the solved fabric: by the
 * algorithm the scenario pins (/network/allreduce_algorithm), or the fastest that applies (as
 * NCCL's tuner picks). A pinned algorithm that does not apply is an error in \a diagnostics.
 */
CollectiveTiming gradientAllReduce(const model::ResolvedScenario& scenario,
                                   const NetworkResult& network, double bytes,
                                   Diagnostics* diagnostics);

/** Returns the seconds of the data-parallel all-reduce of \a bytes on the solved fabric. */
double gradientAllReduceSeconds(const model::ResolvedScenario& scenario,
                                const NetworkResult& network, double bytes);

/** Adds warnings for risky fabric settings (PFC, ECN, flat layer 2, exposure, management). */
void networkRiskDiagnostics(const model::ResolvedScenario& scenario, Diagnostics& diagnostics);

/** Returns NCCL environment settings for the configured rails, one "NAME=value" a line. */
std::string ncclEnvironment(const model::ResolvedScenario& scenario, const NetworkResult& network);

} // namespace dct::solvers
