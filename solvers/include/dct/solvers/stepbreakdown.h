#pragma once

#include "dct/solvers/computeresult.h"
#include "dct/solvers/goodputresult.h"

#include <string>
#include <vector>

namespace dct::solvers {

/** One part of a training step's wall time on the critical path. */
struct StepPart
{
    std::string key;   ///< "compute", "tensor_parallel", ... (stable, for CSV and tests).
    std::string label; ///< "Matrix math", "Exposed tensor-parallel", ...
    double seconds = 0.0;
    bool communication = false; ///< An exposed collective (drawn in the fabric's colours).
};

/**
 * Returns where a training step's wall time goes: matrix math, element-wise work, the exposed
 * tensor-, context-, expert-, pipeline- and data-parallel communication, the pipeline bubble,
 * the optimizer update, stragglers, and, when \a goodput is given and valid, the checkpoints
 * and failures of the run spread over its steps. Parts of zero are kept (a chart or a table
 * shows them as such). Without a predicted step (an explicit /workload/mfu), compute and the
 * exposed gradient all-reduce stand for the layout's parts.
 */
std::vector<StepPart> stepBreakdown(const ComputeResult& compute,
                                    const GoodputResult* goodput = nullptr);

} // namespace dct::solvers
