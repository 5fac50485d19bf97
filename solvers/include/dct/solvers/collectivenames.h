#pragma once

#include "dct/solvers/collectives.h"

namespace dct::solvers {

/**
 * What runs \a op by \a algorithm, as the faces print it: "p2p" for all-to-all and send/recv,
 * which NCCL runs point to point whatever algorithm is asked (the engine keeps them in the
 * ring's slot, CollectiveUnavailable::PointToPointOnly for the others), else the algorithm's
 * name (collectiveAlgorithmName()).
 */
inline const char* collectiveRouteName(CollectiveOp op, CollectiveAlgorithm algorithm)
{
    if (op == CollectiveOp::AllToAll || op == CollectiveOp::SendRecv)
        return "p2p";
    return collectiveAlgorithmName(algorithm);
}

} // namespace dct::solvers
