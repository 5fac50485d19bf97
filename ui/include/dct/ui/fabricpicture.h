#pragma once

#include "dct/solvers/evaluation.h"

#include <QString>
#include <vector>

namespace dct::ui {

/** What the topology view draws: the fabric's planes, tiers and links, as counts. */
struct FabricPicture
{
    /** One switch tier of one plane. */
    struct Tier
    {
        QString name;            ///< "leaf", "spine" or "core".
        long long switches = 0;  ///< Per plane.
        long long portsUsed = 0; ///< Per plane.
        long long portsFree = 0; ///< Per plane.
        long long linksDown = 0; ///< Per plane, toward the tier below (NICs for the leaves).
    };

    bool available = false; ///< False until the network solver reports a topology.
    QString topology;       ///< "fat_tree", "rail_optimized", ...
    int planes = 1;
    long long nodes = 0;
    long long nics = 0;
    int switchPorts = 0;
    int scalableUnits = 0;
    std::vector<Tier> tiers; ///< From the leaves up.

    /** Returns the picture of the network result of \a evaluation (unavailable without one). */
    static FabricPicture fromEvaluation(const solvers::Evaluation& evaluation);
};

} // namespace dct::ui
