#include "dct/ui/fabricpicture.h"

#include <QObject>
#include <algorithm>

namespace dct::ui {

QString FabricPicture::Tier::name() const
{
    return QString::fromLatin1(solvers::fabricTierName(tier));
}

QString FabricPicture::topologyName(model::TopologyKind kind)
{
    switch (kind) {
    case model::TopologyKind::FatTree:
        return QObject::tr("fat-tree");
    case model::TopologyKind::RailOptimized:
        return QObject::tr("rail-optimized");
    case model::TopologyKind::RailOnly:
        return QObject::tr("rail-only");
    case model::TopologyKind::MultiPlane:
        return QObject::tr("multi-plane");
    }
    return {};
}

FabricPicture FabricPicture::fromEvaluation(const solvers::Evaluation& evaluation)
{
    const solvers::TopologyResult& t = evaluation.network.topology;
    FabricPicture picture;
    picture.available = !t.tiersCounts.empty();
    if (!picture.available)
        return picture;
    picture.topology = topologyName(evaluation.network.spec.kind);
    picture.planes = std::max(1, t.planes);
    picture.nodes = t.nodes;
    picture.nics = t.nics;
    picture.switchPorts = t.switchPorts;
    picture.scalableUnits = t.scalableUnits;
    const long long planes = picture.planes;
    for (const auto& c : t.tiersCounts) {
        // The solver sums over planes; the view draws one plane and says how many there are.
        picture.tiers.push_back({c.tier, c.switches / planes, c.portsUsed / planes,
                                 c.portsFree / planes, c.linksDown / planes});
    }
    return picture;
}

} // namespace dct::ui
