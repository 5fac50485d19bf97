#pragma once

#include "dct/model/diagnostics.h"

#include <string>
#include <string_view>
#include <vector>

namespace dct::solvers {

/** Whether a design can be built and run as described. */
enum class Feasibility
{
    Feasible,             ///< No error, no broken constraint, no warning.
    FeasibleWithWarnings, ///< Works, with risks or losses the warnings name.
    Infeasible            ///< An error, or a hard limit broken (heat, inlet air, ports).
};

/** Returns "feasible", "feasible_with_warnings" or "infeasible" (JSON, CSV, sweep filters). */
const char* feasibilityKey(Feasibility feasibility);
/** Returns "Feasible", "Feasible with warnings" or "Infeasible". */
const char* feasibilityLabel(Feasibility feasibility);

/** The verdict on a design and why: the diagnostics that decided it, in their order. */
struct Verdict
{
    Feasibility feasibility = Feasibility::Feasible;
    std::vector<Diagnostic> reasons; ///< Errors and broken constraints; else the warnings.

    /** Returns the verdict and its first reason in one line ("infeasible: /path: message"). */
    std::string summary() const;
};

/**
 * Returns true when \a diagnostic breaks a hard constraint: every error, and the warnings whose
 * code names a limit the design cannot run beyond: a node whose heat its rack's cooling cannot
 * remove, inlet air above the node's operating range, an egress port too small for the traffic.
 * Evaluation goes on past these, so their figures stay visible.
 */
bool breaksConstraint(const Diagnostic& diagnostic);

/** Returns the feasibility \a diagnostics come to, without collecting the reasons (sweeps). */
Feasibility feasibilityOf(const Diagnostics& diagnostics);

/** Returns true when \a key is one of the keys feasibilityKey() returns. */
bool isFeasibilityKey(std::string_view key);

/** Returns the verdict that \a diagnostics (of reading, resolving and evaluating) come to. */
Verdict assessVerdict(const Diagnostics& diagnostics);

} // namespace dct::solvers
