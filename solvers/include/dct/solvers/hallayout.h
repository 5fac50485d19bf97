#pragma once

#include "dct/model/diagnostics.h"
#include "dct/model/resolvedscenario.h"
#include "dct/solvers/collectives.h"
#include "dct/solvers/fabricbuilder.h"
#include "dct/solvers/hallresult.h"
#include "dct/solvers/powerresult.h"
#include "dct/solvers/topologyresult.h"

namespace dct::solvers {

/** Returns "dac", "aec", "aoc" or "transceiver", as the catalog's cable `kind` spells it. */
const char* cableKindName(model::CableKind kind);

/** How layoutHall runs the fabric's cables. */
enum class HallCabling
{
    /** The links of one class between two racks share their length, medium and price: they are
     *  counted in closed form from the fabric's wiring, a run per rack pair (the default). */
    ByRackPair,
    /** Every link run one by one, as buildFabricGraph wires it (the reference the tests hold
     *  the closed form to). */
    PerLink
};

/**
 * Lays out the hall of \a scenario (the /hall section, its zeros derived) and runs a cable for
 * every link of \a plan: compute racks filled node by node, row by row; leaf and pod switches
 * in network racks at the end or middle of the row holding their nodes (or centrally); spines,
 * cores and the fabric manager in the main distribution area. Each link's length comes from its
 * two racks' positions through overhead trays; its medium is the cheapest catalog entry of its
 * rate that reaches. The cooling units stand on the floor as the cooling plant counts them, for
 * the IT power at full clocks with \a networkPowerKw of switches and optics (the evaluator's
 * figure). Problems (racks that do not fit the rows, links no entry reaches) go to
 * \a diagnostics.
 */
HallResult layoutHall(const model::ResolvedScenario& scenario, const FabricPlan& plan,
                      Diagnostics& diagnostics, HallCabling cabling = HallCabling::ByRackPair,
                      double networkPowerKw = 0.0);

/**
 * Replaces the cable lines, power and cost of \a topology by the cable bill of \a hall, and
 * marks \a hall as pricing the fabric (the collectives then take its runs, applyHallLatency).
 */
void applyHallCables(TopologyResult& topology, HallResult& hall);

/**
 * The hook of the collectives' latency: sets the cable lengths of \a inputs (node to leaf, and
 * between switch tiers) to the hall's mean runs, each lengthened by the metres of propagation
 * that its medium's electronics (retimers, DSPs) cost. Leaves \a inputs alone without a layout.
 */
void applyHallLatency(CollectiveInputs& inputs, const HallResult& hall);

/**
 * Fills in the power and heat of every rack and row of \a hall from \a power, and checks them:
 * a rack over its feeds or its cooling, a row over its busway or its cooling, the hall over its
 * floor area. Each finding names the rack, row or field.
 */
void checkHall(HallResult& hall, const model::ResolvedScenario& scenario, const PowerResult& power,
               Diagnostics& diagnostics);

} // namespace dct::solvers
