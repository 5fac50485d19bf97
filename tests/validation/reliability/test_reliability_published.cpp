// Job interruption rates against published cluster-reliability studies.
#include "../../solvers/facility/facilitysupport.h"
#include "dct/solvers/evaluator.h"

using namespace dct;
using namespace dct::solvers;

namespace {

/** Evaluates the 16k-H100 example (2,048 HGX H100 nodes) with \a nodes nodes. */
Evaluation h100Job(int nodes)
{
    return evaluate(test::resolvedExample(
        "multiplane-16k-h100", [nodes](model::Scenario& s) { s.compute.nodeCount = nodes; }));
}

} // namespace

TEST_CASE("Llama 3 405B (Dubey et al. 2024, Table 5): 419 interruptions in 54 days on 16,384 "
          "H100, within 10%",
          "[validation][reliability][llama3]")
{
    // The catalog's per-component rates are Table 5's counts over the units of Meta's job (the
    // only public per-component breakdown at H100 scale; data/catalog/failures.json says so).
    // This is therefore a consistency check, not an independent validation: the twin counts
    // the GPUs, nodes and NICs itself and the links of the fabric it builds (8 two-tier planes
    // here, against Meta's three-layer RoCE Clos), and must land on the published total. The
    // independent checks against other clusters follow.
    const Evaluation e = h100Job(2048);
    REQUIRE(e.goodput.valid);
    REQUIRE(e.compute.gpuCount == 16384);
    const double interruptionsIn54Days = e.goodput.interruptionsPerHour * 54.0 * 24.0;
    CHECK(interruptionsIn54Days == Approx(419.0).epsilon(0.10));
    // "on average one failure every three hours" (Llama 3 section 3.3.4; 54 x 24 / 419 = 3.1 h)
    CHECK(e.goodput.jobMtbfHours == Approx(54.0 * 24.0 / 419.0).epsilon(0.10));
    // GPU issues were the largest category: 58.7% of unexpected interruptions (section 3.3.4).
    CHECK(e.goodput.gpus.perHour / e.goodput.interruptionsPerHour > 0.5);
}

TEST_CASE("Kokolis et al. 2024 (Meta RSC-1 and RSC-2): job MTTF falls as 1 / GPUs and lies "
          "between the two clusters' fits",
          "[validation][reliability][kokolis]")
{
    // Kokolis et al., "Revisiting Reliability in Large-Scale Machine Learning Research
    // Clusters" (arXiv:2410.21680, HPCA 2025): 11 months of two A100 clusters; failures per
    // node-day fitted at 6.50e-3 (RSC-1, 16k GPUs) and 2.34e-3 (RSC-2, 8k GPUs), projecting a
    // 16,384-GPU job's MTTF at 1.8 h on RSC-1. A job's MTTF is 1 / (nodes x rate). They are
    // A100 clusters running many jobs, so they bound the H100 rates derived from Llama 3 rather
    // than pin them: the twin's MTBF must lie in the band and scale as theirs does.
    const double rsc1PerNodeHour = 6.50e-3 / 24.0;
    const double rsc2PerNodeHour = 2.34e-3 / 24.0;
    CHECK(1.0 / (2048 * rsc1PerNodeHour) == Approx(1.8).epsilon(0.02)); // their projection
    for (int nodes : {128, 512, 1024, 2048}) {
        INFO(nodes << " nodes");
        const Evaluation e = h100Job(nodes);
        REQUIRE(e.goodput.valid);
        CHECK(e.goodput.jobMtbfHours > 1.0 / (nodes * rsc1PerNodeHour));
        CHECK(e.goodput.jobMtbfHours < 1.0 / (nodes * rsc2PerNodeHour));
    }
    // 1 / N: sixteen times the GPUs, a sixteenth of the MTTF (within 10%: the fabric's links
    // per node change with its size).
    const double ratio = h100Job(128).goodput.jobMtbfHours / h100Job(2048).goodput.jobMtbfHours;
    CHECK(ratio == Approx(16.0).epsilon(0.10));
}
