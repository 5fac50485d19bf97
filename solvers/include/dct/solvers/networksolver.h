#pragma once

#include "dct/model/cablespec.h"
#include "dct/model/diagnostics.h"
#include "dct/model/resolvedscenario.h"
#include "dct/solvers/networkresult.h"

#include <string>
#include <vector>

namespace dct::solvers {

/** Returns the fabric builder's input for the network section of \a scenario. */
FabricSpec fabricSpec(const model::ResolvedScenario& scenario);

/**
 * Returns the cheapest catalog cable of \a cables (a transceiver counted twice, one per end) at
 * \a rateGbps whose reach covers \a lengthM, or nullptr when none does.
 */
const model::CableSpec* chooseCable(const std::vector<model::CableSpec>& cables, double rateGbps,
                                    double lengthM);

/** Fills in the cables, power and cost of \a topology from the catalog entries of \a scenario. */
void priceTopology(TopologyResult& topology, const model::ResolvedScenario& scenario,
                   Diagnostics& diagnostics);

/** Returns the alpha-beta inputs of a collective of \a ranks ranks, \a ranksPerNode per node. */
CollectiveInputs collectiveInputs(const model::ResolvedScenario& scenario,
                                  const NetworkResult& network, int ranks, int ranksPerNode);

/**
 * Solves the fabric of \a scenario by closed forms (no graph): topology, cables, power, cost,
 * protocol efficiency, oversubscription and routing shares, collectives and the gradient
 * all-reduce of one training step of \a gradientBytes. Risks go to \a diagnostics.
 */
/** Returns the bytes all-reduced per data-parallel group in one step: bf16/fp16 gradients (2 bytes)
 *  of the P / (TP x PP) parameters each replica holds. */
double gradientAllReduceBytes(const model::ResolvedScenario& scenario);

NetworkResult solveNetwork(const model::ResolvedScenario& scenario, double gradientBytes,
                           Diagnostics& diagnostics);

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
