#include "dct/cli/topologycommand.h"

#include "dct/cli/cli.h"
#include "dct/cli/output.h"
#include "dct/cli/scenariofile.h"
#include "dct/model/catalog.h"
#include "dct/model/jsonread.h"
#include "dct/model/textformat.h"
#include "dct/solvers/fabricbuilder.h"
#include "dct/solvers/fabricgraph.h"
#include "dct/solvers/networksolver.h"

#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <fstream>
#include <nlohmann/json.hpp>
#include <ostream>

namespace dct::cli {

using nlohmann::json;

namespace {

const char* topologyName(model::TopologyKind kind)
{
    switch (kind) {
    case model::TopologyKind::FatTree:
        return "fat_tree";
    case model::TopologyKind::RailOptimized:
        return "rail_optimized";
    case model::TopologyKind::RailOnly:
        return "rail_only";
    case model::TopologyKind::MultiPlane:
        return "multi_plane";
    }
    return "fat_tree";
}

/** What the explicit graph says about the fabric. */
struct GraphReport
{
    bool built = false;
    bool countsMatch = false;
    double bisectionGbps = 0.0;
    solvers::HopStats hops;
    solvers::FailureImpact spineDown; ///< One switch of the top tier down.
    solvers::FailureImpact planeDown; ///< Plane 0 down (multi-plane fabrics).
    bool hasPlaneDown = false;
};

bool sameCounts(const solvers::TopologyResult& a, const solvers::TopologyResult& b)
{
    if (a.switches != b.switches || a.switchLinks != b.switchLinks ||
        a.endpointLinks != b.endpointLinks || a.tiersCounts.size() != b.tiersCounts.size())
        return false;
    for (std::size_t i = 0; i < a.tiersCounts.size(); ++i)
        if (a.tiersCounts[i].switches != b.tiersCounts[i].switches ||
            a.tiersCounts[i].portsUsed != b.tiersCounts[i].portsUsed ||
            a.tiersCounts[i].linksDown != b.tiersCounts[i].linksDown)
            return false;
    return true;
}

GraphReport checkGraph(const solvers::FabricGraph& g, const solvers::TopologyResult& closed)
{
    GraphReport r;
    r.built = true;
    r.countsMatch = sameCounts(closed, solvers::graphCounts(g));
    r.bisectionGbps = solvers::bisectionGbps(g);
    r.hops = solvers::hopStats(g, 8);
    // What-if: the first switch of the top tier fails.
    const solvers::VertexKind top = g.plan.tiers == 3   ? solvers::VertexKind::Core
                                    : g.plan.tiers == 2 ? solvers::VertexKind::Spine
                                                        : solvers::VertexKind::Leaf;
    solvers::FailureSet spine;
    for (auto [v, end] = boost::vertices(g.graph); v != end; ++v)
        if (g.graph[*v].kind == top) {
            spine.vertices.push_back(static_cast<long long>(*v));
            break;
        }
    r.spineDown = solvers::failureImpact(g, spine);
    if (g.plan.planes > 1) {
        solvers::FailureSet plane;
        plane.plane = 0;
        r.planeDown = solvers::failureImpact(g, plane);
        r.hasPlaneDown = true;
    }
    return r;
}

json impactJson(const solvers::FailureImpact& i)
{
    return {{"endpoints_disconnected", i.endpointsDisconnected},
            {"hosts_disconnected", i.hostsDisconnected},
            {"bisection_before_gbps", i.bisectionBeforeGbps},
            {"bisection_after_gbps", i.bisectionAfterGbps},
            {"bisection_lost_gbps", i.bisectionLostGbps}};
}

json topologyJson(const model::ResolvedScenario& r, const solvers::NetworkResult& n,
                  const GraphReport& g)
{
    const solvers::TopologyResult& t = n.topology;
    json tiers = json::array();
    for (const auto& c : t.tiersCounts)
        tiers.push_back({{"tier", solvers::fabricTierName(c.tier)},
                         {"switches", c.switches},
                         {"ports_used", c.portsUsed},
                         {"ports_free", c.portsFree},
                         {"links_down", c.linksDown}});
    json cables = json::array();
    for (const auto& c : t.cables)
        cables.push_back({{"link_class", c.linkClass},
                          {"links", c.links},
                          {"rate_gbps", c.rateGbps},
                          {"length_m", c.lengthM},
                          {"cable", c.cableId},
                          {"kind", c.cableKind},
                          {"cables", c.cables},
                          {"transceivers", c.transceivers},
                          {"power_w", c.powerW},
                          {"cost_usd", c.costUsd}});
    json doc = {{"scenario", r.scenario.name},
                {"topology", topologyName(r.scenario.network.topology)},
                {"switch", r.fabricSwitch.id},
                {"switch_ports", t.switchPorts},
                {"planes", t.planes},
                {"tiers", t.tiers},
                {"nodes", t.nodes},
                {"nics", t.nics},
                {"endpoints", t.endpoints},
                {"scalable_units", t.scalableUnits},
                {"reserved_slots", t.reservedSlots},
                {"tiers_counts", tiers},
                {"switches", t.switches},
                {"switch_links", t.switchLinks},
                {"endpoint_links", t.endpointLinks},
                {"cables", cables},
                {"power_w",
                 {{"switches", t.switchPowerW},
                  {"nics", t.nicPowerW},
                  {"cables", t.cablePowerW},
                  {"total", t.powerW}}},
                {"cost_usd",
                 {{"switches", t.switchCostUsd},
                  {"nics", t.nicCostUsd},
                  {"cables", t.cableCostUsd},
                  {"total", t.costUsd}}},
                {"bisection_closed_form_gbps", t.fullBisectionGbps}};
    if (g.built) {
        doc["graph"] = {{"counts_match_closed_form", g.countsMatch},
                        {"bisection_max_flow_gbps", g.bisectionGbps},
                        {"diameter_switch_hops", g.hops.diameterSwitchHops},
                        {"mean_switch_hops", g.hops.averageSwitchHops},
                        {"what_if_top_switch_down", impactJson(g.spineDown)}};
        if (g.hasPlaneDown)
            doc["graph"]["what_if_plane_0_down"] = impactJson(g.planeDown);
    }
    return doc;
}

std::string topologyTable(const model::ResolvedScenario& r, const solvers::NetworkResult& n,
                          const GraphReport& g)
{
    const solvers::TopologyResult& t = n.topology;
    std::string s;
    s += fmt::format("{}\nFabric: {}, {} tier(s), {} plane(s) of {}-port {} switches\n",
                     printableText(r.scenario.name), topologyName(r.scenario.network.topology),
                     t.tiers, t.planes, t.switchPorts, r.fabricSwitch.id);
    s += fmt::format("Nodes {}   NICs {}   endpoints {}", formatNumber(double(t.nodes)),
                     formatNumber(double(t.nics)), formatNumber(double(t.endpoints)));
    if (t.scalableUnits > 0)
        s += fmt::format("   scalable units {}   reserved slots {}", t.scalableUnits,
                         t.reservedSlots);
    s += "\n\n";
    s += fmt::format("{:<8}{:>12}{:>14}{:>14}{:>14}\n", "tier", "switches", "ports used",
                     "ports free", "links down");
    for (const auto& c : t.tiersCounts)
        s += fmt::format("{:<8}{:>12}{:>14}{:>14}{:>14}\n", solvers::fabricTierName(c.tier),
                         c.switches, c.portsUsed, c.portsFree, c.linksDown);
    s += fmt::format("{:<8}{:>12}{:>14}{:>14}{:>14}\n", "total", t.switches, "", "",
                     t.switchLinks + t.endpointLinks);
    s += "\nCables\n";
    for (const auto& c : t.cables)
        s += fmt::format("  {:<11}{:>8} x {:<42} {:>4} G {:>6.1f} m  optics {:>7}  {:>10} W  "
                         "{:>14} USD\n",
                         c.linkClass, c.links,
                         c.cableId.empty() ? "(none fits)" : c.cableId + " (" + c.cableKind + ")",
                         c.rateGbps, c.lengthM, c.transceivers, formatNumber(c.powerW),
                         formatNumber(c.costUsd));
    s += fmt::format("\nPower  switches {} W, NICs {} W, cables/optics {} W, total {} kW\n",
                     formatNumber(t.switchPowerW), formatNumber(t.nicPowerW),
                     formatNumber(t.cablePowerW), formatNumber(t.powerW / 1000.0));
    s += fmt::format("Cost   switches {} USD, NICs {} USD, cables/optics {} USD, total {} USD\n",
                     formatNumber(t.switchCostUsd), formatNumber(t.nicCostUsd),
                     formatNumber(t.cableCostUsd), formatNumber(t.costUsd));
    s += fmt::format("Bisection (closed form) {} Gbps\n", formatNumber(t.fullBisectionGbps));
    if (g.built) {
        s += fmt::format("\nGraph check: closed forms {} the explicit graph\n",
                         g.countsMatch ? "match" : "DO NOT match");
        s += fmt::format("  bisection by max-flow {} Gbps; diameter {} switch hops, mean {}\n",
                         formatNumber(g.bisectionGbps), g.hops.diameterSwitchHops,
                         formatNumber(g.hops.averageSwitchHops));
        s += fmt::format("  what-if one top-tier switch down: {} endpoints cut off, bisection "
                         "-{} Gbps\n",
                         g.spineDown.endpointsDisconnected,
                         formatNumber(g.spineDown.bisectionLostGbps));
        if (g.hasPlaneDown)
            s += fmt::format("  what-if plane 0 down: {} NIC ports and {} hosts cut off, "
                             "bisection -{} Gbps\n",
                             g.planeDown.endpointsDisconnected, g.planeDown.hostsDisconnected,
                             formatNumber(g.planeDown.bisectionLostGbps));
    }
    return s;
}

} // namespace

TopologyCommand::TopologyCommand(CLI::App& app)
{
    m_command = app.add_subcommand(
        "topology", "Print the fabric of a scenario: switches, ports, links and cables per tier");
    m_command->add_option("file", m_file, "Scenario JSON file")->required();
    m_command->add_option("--dot", m_dotPath,
                          "Write the fabric graph as Graphviz DOT to this file");
    m_command->add_option("-f,--format", m_format, "Output format: table or json")
        ->check(CLI::IsMember({"table", "json"}));
    m_command->add_flag("--nccl-env", m_ncclEnv,
                        "Print NCCL environment settings for the configured rails instead");
    m_command->add_flag("--no-graph", m_noGraph,
                        "Skip building the explicit graph (max-flow, BFS, what-ifs)");
}

CLI::App* TopologyCommand::subcommand() const
{
    return m_command;
}

int TopologyCommand::run(const CommandContext& context, std::ostream& out, std::ostream& err)
{
    auto catalog = loadCatalog(context.catalogDirectory, err);
    if (!catalog)
        return ExitUsage;
    LoadedScenario loaded = loadScenario(m_file, *catalog);
    for (const auto& d : loaded.diagnostics)
        err << d.toString() << "\n";
    if (!loaded.resolved)
        return ExitUsage;
    const model::ResolvedScenario& r = *loaded.resolved;
    // The consistency checks eval makes, with the same errors: a scenario eval refuses is
    // refused here too; errors in the workload alone are printed and the fabric still solved.
    const ScenarioConsistency consistency = checkConsistency(r, m_file);
    if (!consistency.ok())
        for (const auto& d : consistency.diagnostics)
            err << d.toString() << "\n";
    if (!consistency.fabricSolvable)
        return ExitEvaluation;
    const double gradientBytes = solvers::gradientAllReduceBytes(r);
    Diagnostics diagnostics;
    const solvers::NetworkResult network = solvers::solveNetwork(r, gradientBytes, diagnostics);
    diagnostics.setFile(m_file);
    for (const auto& d : diagnostics)
        err << d.toString() << "\n";
    if (!network.valid)
        return ExitEvaluation;
    if (m_ncclEnv) {
        out << solvers::ncclEnvironment(r, network);
        return consistency.ok() ? ExitOk : ExitEvaluation;
    }

    GraphReport graph;
    if (!m_noGraph || !m_dotPath.empty()) {
        Diagnostics scratch;
        const solvers::FabricPlan plan = solvers::planFabric(network.spec, scratch);
        const solvers::FabricGraph g = solvers::buildFabricGraph(plan, true);
        if (!m_noGraph)
            graph = checkGraph(g, solvers::topologyCounts(plan));
        if (!m_dotPath.empty()) {
            std::ofstream file(m_dotPath);
            file << solvers::fabricDot(g);
            if (!file) {
                err << "dctwin-cli: error: " << m_dotPath << ": cannot write the DOT file\n";
                return ExitUsage;
            }
        }
    }
    if (m_format == "json")
        out << model::jsonText(topologyJson(r, network, graph)) << "\n";
    else
        out << topologyTable(r, network, graph);
    return consistency.ok() ? ExitOk : ExitEvaluation;
}

} // namespace dct::cli
