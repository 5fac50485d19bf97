#include "dct/solvers/verdict.h"

#include <algorithm>
#include <array>
#include <string_view>

namespace dct::solvers {

namespace {

/**
 * Warnings that are limits, not risks: a design past one of them cannot run as described.
 * The evaluation keeps going past them (so a planner sees by how much), the verdict does not.
 */
constexpr std::array<std::string_view, 9> kConstraintCodes = {
    // One node alone gives off more heat than its rack's cooling removes (powersolver.cpp).
    // A dense rack over its cooling is a warning: its heat recirculates, and what that does to
    // the inlet air is judged by the next code.
    "node-over-cooling-capacity",
    // Inlet air above the node's specified operating range (coolingsolver.cpp).
    "inlet-over-allowable",
    // A multi-node NVLink domain spread over more racks than its copper spans (powersolver.cpp).
    "scale-up-domain-beyond-racks",
    // An egress port slower than the average traffic it must carry (egresssolver.cpp).
    "port-too-small",
    // The hall (hallayout.cpp): a link no catalog cable reaches, a rack drawing more than its
    // feeds, a row over its busway or its cooling, a hall larger than its floor.
    "hall-link-beyond-reach",
    "hall-rack-over-power",
    "hall-row-over-busway",
    "hall-row-over-cooling",
    "hall-over-floor-area",
};

} // namespace

const char* feasibilityKey(Feasibility feasibility)
{
    switch (feasibility) {
    case Feasibility::Feasible:
        return "feasible";
    case Feasibility::FeasibleWithWarnings:
        return "feasible_with_warnings";
    case Feasibility::Infeasible:
        return "infeasible";
    }
    return "infeasible";
}

const char* feasibilityLabel(Feasibility feasibility)
{
    switch (feasibility) {
    case Feasibility::Feasible:
        return "Feasible";
    case Feasibility::FeasibleWithWarnings:
        return "Feasible with warnings";
    case Feasibility::Infeasible:
        return "Infeasible";
    }
    return "Infeasible";
}

std::string Verdict::summary() const
{
    std::string text = feasibilityKey(feasibility);
    if (!reasons.empty()) {
        const Diagnostic& first = reasons.front();
        text += ": ";
        if (!first.path.empty())
            text += first.path + ": ";
        text += first.message;
        if (reasons.size() > 1)
            text += " (and " + std::to_string(reasons.size() - 1) + " more)";
    }
    return text;
}

bool breaksConstraint(const Diagnostic& diagnostic)
{
    if (diagnostic.severity == Severity::Error)
        return true;
    if (diagnostic.severity != Severity::Warning)
        return false;
    return std::find(kConstraintCodes.begin(), kConstraintCodes.end(), diagnostic.code) !=
           kConstraintCodes.end();
}

Feasibility feasibilityOf(const Diagnostics& diagnostics)
{
    bool warned = false;
    for (const auto& d : diagnostics) {
        if (breaksConstraint(d))
            return Feasibility::Infeasible;
        warned |= d.severity == Severity::Warning;
    }
    return warned ? Feasibility::FeasibleWithWarnings : Feasibility::Feasible;
}

bool isFeasibilityKey(std::string_view key)
{
    for (const auto f :
         {Feasibility::Feasible, Feasibility::FeasibleWithWarnings, Feasibility::Infeasible})
        if (key == feasibilityKey(f))
            return true;
    return false;
}

Verdict assessVerdict(const Diagnostics& diagnostics)
{
    Verdict verdict;
    for (const auto& d : diagnostics)
        if (breaksConstraint(d))
            verdict.reasons.push_back(d);
    if (!verdict.reasons.empty()) {
        verdict.feasibility = Feasibility::Infeasible;
        return verdict;
    }
    for (const auto& d : diagnostics)
        if (d.severity == Severity::Warning)
            verdict.reasons.push_back(d);
    verdict.feasibility =
        verdict.reasons.empty() ? Feasibility::Feasible : Feasibility::FeasibleWithWarnings;
    return verdict;
}

} // namespace dct::solvers
