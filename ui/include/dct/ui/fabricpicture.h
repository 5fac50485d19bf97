#pragma once

#include "dct/model/enums.h"
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
        solvers::FabricTier tier = solvers::FabricTier::Leaf;
        long long switches = 0;  ///< Per plane.
        long long portsUsed = 0; ///< Per plane.
        long long portsFree = 0; ///< Per plane.
        long long linksDown = 0; ///< Per plane, toward the tier below (NICs for the leaves).

        /** Returns the tier's name: "leaf", "spine" or "core". */
        QString name() const;
    };

    bool available = false; ///< False until the network solver reports a topology.
    QString topology;       ///< Shown in the title: "fat-tree", "rail-optimized", ...
    int planes = 1;
    long long nodes = 0;
    long long nics = 0;
    int switchPorts = 0;
    int scalableUnits = 0;
    std::vector<Tier> tiers; ///< From the leaves up.

    /** Returns the picture of the network result of \a evaluation (unavailable without one). */
    static FabricPicture fromEvaluation(const solvers::Evaluation& evaluation);
    /** Returns the name of fabric shape \a kind as the topology view shows it ("fat-tree"). */
    static QString topologyName(model::TopologyKind kind);
};

} // namespace dct::ui
