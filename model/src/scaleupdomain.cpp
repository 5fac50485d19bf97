#include "dct/model/scaleupdomain.h"

#include "dct/model/resolvedscenario.h"

#include <algorithm>

namespace dct::model {

int nodesPerScaleUpDomain(const ResolvedScenario& r)
{
    const int perNode = std::max(1, r.gpusPerNode);
    const int domain = r.node.scaleUpDomainGpus;
    if (domain <= perNode || domain % perNode != 0)
        return 1;
    return std::max(1, std::min(domain / perNode, std::max(1, r.scenario.compute.nodeCount)));
}

int scaleUpDomainGpus(const ResolvedScenario& r)
{
    return nodesPerScaleUpDomain(r) * std::max(1, r.gpusPerNode);
}

} // namespace dct::model
