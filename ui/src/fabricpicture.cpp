#include "dct/ui/fabricpicture.h"

#include <algorithm>

namespace dct::ui {

namespace {

// The network solver lands in parallel with this view. These templates read its result when the
// evaluation has one (by the member names of solvers::TopologyResult) and compile to nothing
// before, so the view works on either side of that change.

template <class T> void fillFromTopology(const T& t, FabricPicture& picture)
{
    if constexpr (requires {
                      t.tiersCounts;
                      t.planes;
                      t.nodes;
                  }) {
        picture.available = !t.tiersCounts.empty();
        picture.planes = std::max(1, static_cast<int>(t.planes));
        picture.nodes = static_cast<long long>(t.nodes);
        if constexpr (requires { t.nics; })
            picture.nics = static_cast<long long>(t.nics);
        if constexpr (requires { t.switchPorts; })
            picture.switchPorts = static_cast<int>(t.switchPorts);
        if constexpr (requires { t.scalableUnits; })
            picture.scalableUnits = static_cast<int>(t.scalableUnits);
        static const char* const names[] = {"leaf", "spine", "core"};
        const long long planes = picture.planes;
        for (const auto& c : t.tiersCounts) {
            FabricPicture::Tier tier;
            const int index = static_cast<int>(c.tier);
            tier.name = QString::fromLatin1(index >= 0 && index < 3 ? names[index] : "tier");
            // The solver sums over planes; the view draws one plane and says how many there are.
            tier.switches = static_cast<long long>(c.switches) / planes;
            tier.portsUsed = static_cast<long long>(c.portsUsed) / planes;
            tier.portsFree = static_cast<long long>(c.portsFree) / planes;
            tier.linksDown = static_cast<long long>(c.linksDown) / planes;
            picture.tiers.push_back(tier);
        }
    }
}

template <class E> void fillFromEvaluation(const E& e, FabricPicture& picture)
{
    if constexpr (requires { e.network.topology.tiersCounts; })
        fillFromTopology(e.network.topology, picture);
    else if constexpr (requires { e.network.tiersCounts; })
        fillFromTopology(e.network, picture);
    else if constexpr (requires { e.topology.tiersCounts; })
        fillFromTopology(e.topology, picture);
}

} // namespace

FabricPicture FabricPicture::fromEvaluation(const solvers::Evaluation& evaluation)
{
    FabricPicture picture;
    fillFromEvaluation(evaluation, picture);
    return picture;
}

} // namespace dct::ui
