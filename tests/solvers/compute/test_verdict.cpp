// The feasibility verdict: an error or a broken hard limit makes a design infeasible, other
// warnings make it feasible with warnings; and a workload error leaves the rest evaluated.
#include "dct/solvers/documentevaluation.h"
#include "dct/solvers/evaluator.h"
#include "dct/solvers/verdict.h"
#include "testsupport.h"

#include <algorithm>
#include <fstream>
#include <sstream>

using namespace dct;
using namespace dct::solvers;
using nlohmann::json;

namespace {

json example(const std::string& name)
{
    std::ifstream in(test::dataDir() / "examples" / name);
    return json::parse(in);
}

bool hasReason(const Verdict& v, const std::string& code)
{
    return std::any_of(v.reasons.begin(), v.reasons.end(),
                       [&](const Diagnostic& d) { return d.code == code; });
}

} // namespace

TEST_CASE("Errors and broken limits are infeasible, other warnings are not", "[verdict]")
{
    Diagnostics notes;
    notes.note("/facility/rack_layout", "spread", {}, "rack-layout-spread");
    CHECK(assessVerdict(notes).feasibility == Feasibility::Feasible);
    CHECK(assessVerdict(notes).reasons.empty());

    Diagnostics risky = notes;
    risky.warning("/network/pfc_enabled", "lossy", {}, "network-roce-lossy");
    const Verdict withWarnings = assessVerdict(risky);
    CHECK(withWarnings.feasibility == Feasibility::FeasibleWithWarnings);
    REQUIRE(withWarnings.reasons.size() == 1);
    CHECK(withWarnings.reasons[0].code == "network-roce-lossy");

    Diagnostics hot = risky;
    hot.warning("/cooling/system", "296 of 296 racks carry 46 kW", {}, "rack-over-capacity");
    CHECK(assessVerdict(hot).feasibility == Feasibility::FeasibleWithWarnings);
    hot.warning("/cooling/system", "server inlet air reaches 39.9 C, above the 35 C", {},
                "inlet-over-allowable");
    const Verdict infeasible = assessVerdict(hot);
    CHECK(infeasible.feasibility == Feasibility::Infeasible);
    REQUIRE(infeasible.reasons.size() == 1); // the broken limit, not the risks
    CHECK(infeasible.reasons[0].code == "inlet-over-allowable");
    CHECK_THAT(infeasible.summary(), Catch::StartsWith("infeasible: /cooling/system: server"));

    Diagnostics wrong;
    wrong.error("/workload/data_parallel", "does not tile", {}, "parallelism");
    CHECK(assessVerdict(wrong).feasibility == Feasibility::Infeasible);
    CHECK(std::string(feasibilityKey(Feasibility::FeasibleWithWarnings)) ==
          "feasible_with_warnings");
}

TEST_CASE("The overpacked air hall is infeasible: its inlet air passes the node's limit",
          "[verdict]")
{
    const DocumentEvaluation d = evaluateDocument(example("overpacked-air-h100-dallas.json"),
                                                  test::catalog(), "overpacked.json");
    REQUIRE(d.evaluated());
    const Verdict v = d.evaluation->verdict();
    CHECK(v.feasibility == Feasibility::Infeasible);
    CHECK(hasReason(v, "inlet-over-allowable"));
    CHECK(d.diagnostics.hasCode("rack-over-capacity")); // the cause, listed beside it
    // The figures are still there, so a planner sees by how much.
    CHECK(d.evaluation->metric("cooling.pue") != nullptr);
}

TEST_CASE("Every other bundled example is feasible", "[verdict]")
{
    const auto files = test::examples();
    REQUIRE(files.size() >= 4);
    for (const auto& file : files) {
        if (file.filename() == "overpacked-air-h100-dallas.json")
            continue;
        INFO(file.string());
        const DocumentEvaluation d = evaluateDocumentFile(file, test::catalog());
        REQUIRE(d.evaluated());
        const Verdict v = d.evaluation->verdict();
        INFO(v.summary());
        CHECK(v.feasibility != Feasibility::Infeasible);
    }
}

TEST_CASE("Inlet air above the node's operating range is infeasible", "[verdict][cooling]")
{
    const DocumentEvaluation seed =
        evaluateDocument(example("seed-h100-dallas-d2c.json"), test::catalog(), "seed.json");
    REQUIRE(seed.resolved);
    model::ResolvedScenario r = *seed.resolved;
    const Evaluation base = evaluate(r);
    REQUIRE(base.cooling.inletTempC > 15.0);
    CHECK_FALSE(base.diagnostics.hasCode("inlet-over-allowable"));
    r.node.maxInletTempC = base.cooling.inletTempC - 1.0;
    const Evaluation hot = evaluate(r);
    CHECK(hot.diagnostics.hasCode("inlet-over-allowable"));
    CHECK(hot.verdict().feasibility == Feasibility::Infeasible);
    CHECK(hot.ok()); // evaluated: a limit broken, not an input error
}

TEST_CASE("A workload error leaves the cluster, facility and cost evaluated", "[verdict][partial]")
{
    json doc = example("seed-h100-dallas-d2c.json");
    doc["compute"]["node_count"] = 127;
    doc["network"]["tiers"] = 0;
    doc["workload"]["tensor_parallel"] = 8;
    doc["workload"]["pipeline_parallel"] = 4;
    const DocumentEvaluation d = evaluateDocument(doc, test::catalog(), "partial.json");
    REQUIRE(d.evaluated());
    const Evaluation& e = *d.evaluation;
    CHECK_FALSE(e.ok());
    CHECK(e.verdict().feasibility == Feasibility::Infeasible);
    for (const char* key : {"cooling.pue", "power.racks", "cost.tco_usd_per_year",
                            "network.switches", "compute.gpus"}) {
        INFO(key);
        CHECK(e.metric(key) != nullptr);
    }
    for (const char* key : {"compute.training_days", "cost.training_run_usd",
                            "collectives.gradient_allreduce_seconds"}) {
        INFO(key);
        CHECK(e.metric(key) == nullptr);
    }
    CHECK(e.diagnostics.hasCode("workload-not-evaluated"));
    bool named = false;
    for (const auto& item : e.diagnostics)
        if (item.code == "parallelism") {
            named = item.path == "/workload/pipeline_parallel";
            CHECK(item.hint.find("leave data_parallel at 0") == std::string::npos);
        }
    CHECK(named);
}

TEST_CASE("An error outside the workload still stops the evaluation", "[verdict][partial]")
{
    json doc = example("seed-h100-dallas-d2c.json");
    doc["network"]["mtu_bytes"] = 3000;
    const DocumentEvaluation d = evaluateDocument(doc, test::catalog(), "mtu.json");
    REQUIRE(d.evaluated());
    CHECK(d.evaluation->metrics.empty());
    CHECK(d.evaluation->verdict().feasibility == Feasibility::Infeasible);
}

TEST_CASE("A node hotter than its rack's cooling even alone is infeasible", "[verdict][cooling]")
{
    json doc = example("seed-h100-dallas-d2c.json");
    doc["cooling"]["system"] = "crac-air";
    doc["facility"]["rack_layout"] = "spread";
    doc["facility"]["rack_power_limit_kw"] = 40;
    const DocumentEvaluation d = evaluateDocument(doc, test::catalog(), "spread.json");
    REQUIRE(d.evaluated());
    // crac-air removes 15 kW per rack; one HGX H100 node gives off about 10 kW: fits alone.
    CHECK_FALSE(d.diagnostics.hasCode("node-over-cooling-capacity"));
    model::ResolvedScenario r = *d.resolved;
    r.cooling.maxRackKw = 5.0; // less than one node's heat
    const Evaluation hot = evaluate(r);
    CHECK(hot.diagnostics.hasCode("node-over-cooling-capacity"));
    CHECK(hot.verdict().feasibility == Feasibility::Infeasible);
}

TEST_CASE("More GPUs than a cluster may have is an error, never an overflow", "[verdict][range]")
{
    // Found by the mutation probe under UBSan: 10^7 nodes of 850 GPUs overflowed an int.
    json doc = example("seed-h100-dallas-d2c.json");
    doc["compute"]["node_count"] = 10000000;
    doc["compute"]["gpus_per_node"] = 850;
    const DocumentEvaluation d = evaluateDocument(doc, test::catalog(), "huge.json");
    CHECK(d.diagnostics.hasCode("too-many-gpus"));
    CHECK_FALSE(d.ok());
    bool named = false;
    for (const auto& item : d.diagnostics)
        named |= item.code == "too-many-gpus" && item.path == "/compute/node_count";
    CHECK(named);
}
