#include "dct/cli/layoutcommand.h"

#include "dct/cli/cli.h"
#include "dct/cli/output.h"
#include "dct/cli/scenariofile.h"
#include "dct/model/atomicfile.h"
#include "dct/model/jsonread.h"
#include "dct/model/textformat.h"
#include "dct/report/hallsvg.h"
#include "dct/solvers/documentevaluation.h"
#include "dct/solvers/verdict.h"

#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <nlohmann/json.hpp>
#include <ostream>

namespace dct::cli {

using nlohmann::json;

namespace {

const char* rackKindName(solvers::HallRackKind kind)
{
    switch (kind) {
    case solvers::HallRackKind::Compute:
        return "compute";
    case solvers::HallRackKind::Network:
        return "network";
    case solvers::HallRackKind::Mda:
        return "mda";
    }
    return "compute";
}

json layoutJson(const std::string& name, const solvers::HallResult& h, const solvers::Evaluation& e)
{
    json rows = json::array();
    for (const auto& row : h.rows)
        rows.push_back({{"name", row.name},
                        {"mda", row.mda},
                        {"racks", row.racks},
                        {"y_m", row.yM},
                        {"nameplate_kw", row.nameplateKw},
                        {"design_kw", row.designKw},
                        {"busway_kw", row.buswayKw},
                        {"cooling_kw", row.coolingKw}});
    json racks = json::array();
    for (const auto& r : h.racks)
        racks.push_back({{"name", r.name},
                         {"kind", rackKindName(r.kind)},
                         {"row", h.rows[static_cast<std::size_t>(r.row)].name},
                         {"x_m", r.xM},
                         {"y_m", r.yM},
                         {"nodes", r.nodes},
                         {"leaves", r.leaves},
                         {"spines", r.spines},
                         {"cores", r.cores},
                         {"nameplate_kw", r.nameplateKw},
                         {"design_kw", r.designKw}});
    json bill = json::array();
    for (const auto& l : h.bill)
        bill.push_back({{"link_class", solvers::hallLinkClassName(l.linkClass)},
                        {"cable", l.cableId},
                        {"kind", l.cableKind},
                        {"switch_module", l.switchModuleId},
                        {"rate_gbps", l.rateGbps},
                        {"links", l.links},
                        {"cables", l.cables},
                        {"transceivers", l.transceivers},
                        {"length_m", l.lengthM},
                        {"max_length_m", l.maxLengthM},
                        {"power_w", l.powerW},
                        {"cost_usd", l.costUsd},
                        {"latency_ns", l.latencyNs}});
    json classes = json::array();
    for (const auto& c : h.classes)
        classes.push_back({{"link_class", solvers::hallLinkClassName(c.linkClass)},
                           {"links", c.links},
                           {"mean_length_m", c.meanLengthM},
                           {"max_length_m", c.maxLengthM},
                           {"mean_latency_ns", c.meanLatencyNs},
                           {"longest_link", c.longestLink}});
    json units = json::array();
    for (const auto& u : h.units)
        units.push_back({{"name", u.name},
                         {"kind", u.kind == solvers::HallUnitKind::Cdu ? "cdu" : "crah"},
                         {"x_m", u.xM},
                         {"y_m", u.yM},
                         {"width_m", u.widthM},
                         {"depth_m", u.depthM},
                         {"capacity_kw", u.capacityKw},
                         {"load_kw", u.loadKw},
                         {"serves", u.serves}});
    json room = nullptr;
    if (h.mdaRoom.present)
        room = {{"position", h.mdaRoom.position},
                {"x_m", h.mdaRoom.xM},
                {"y_m", h.mdaRoom.yM},
                {"width_m", h.mdaRoom.widthM},
                {"depth_m", h.mdaRoom.depthM},
                {"wall_m", h.mdaRoom.wallM}};
    return {{"scenario", name},
            {"width_m", h.widthM},
            {"depth_m", h.depthM},
            {"area_m2", h.areaM2},
            {"nodes_per_rack", h.nodesPerRack},
            {"racks_per_row", h.racksPerRow},
            {"compute_rows", h.computeRows},
            {"row_blocks", h.rowBlocks},
            {"cross_aisle_m", h.crossAisleM},
            {"compute_racks", h.computeRacks},
            {"network_racks", h.networkRacks},
            {"mda_racks", h.mdaRacks},
            {"switches_per_network_rack", h.switchesPerNetworkRack},
            {"rack_depth_m", h.rackDepthM},
            {"rdhx_depth_m", h.rdhxDepthM},
            {"cdus", h.cdus},
            {"crahs", h.crahs},
            {"cooling_units", units},
            {"mda_room", room},
            {"cables", h.cables},
            {"transceivers", h.transceivers},
            {"cable_length_m", h.cableLengthM},
            {"cable_power_w", h.cablePowerW},
            {"cable_cost_usd", h.cableCostUsd},
            {"links_beyond_reach", h.linksBeyondReach},
            {"rows", rows},
            {"racks", racks},
            {"bill", bill},
            {"link_classes", classes},
            {"verdict", verdictJson(e.verdict())}};
}

std::string layoutText(const std::string& name, const solvers::HallResult& h,
                       const solvers::Verdict& verdict)
{
    std::string s;
    s += fmt::format("{}\n", printableText(name));
    // The verdict first, in eval's words: a hall past a hard limit is not a plan to build.
    s += fmt::format("Verdict: {}\n", solvers::feasibilityLabel(verdict.feasibility));
    s += fmt::format("Hall {} m x {} m = {} m²   {} compute rows of up to {} racks in {} {}, "
                     "{} {} a rack\n",
                     formatNumber(h.widthM), formatNumber(h.depthM), formatNumber(h.areaM2),
                     h.computeRows, h.racksPerRow, h.rowBlocks,
                     h.rowBlocks == 1 ? "block" : "blocks", h.nodesPerRack,
                     h.nodesPerRack == 1 ? "node" : "nodes");
    s += fmt::format("Racks: {} compute, {} network (in the rows), {} MDA; up to {} switches a "
                     "network rack\n\n",
                     h.computeRacks, h.networkRacks, h.mdaRacks, h.switchesPerNetworkRack);
    if (h.mdaRoom.present || !h.units.empty() || h.rdhxDepthM > 0.0) {
        s.pop_back(); // the blank line comes after the floor units
        if (h.mdaRoom.present)
            s += fmt::format("MDA room ({}): {} m x {} m\n", h.mdaRoom.position,
                             formatNumber(h.mdaRoom.widthM), formatNumber(h.mdaRoom.depthM));
        if (h.cdus > 0)
            s += fmt::format("Cooling units: {} {} of {} kW at the row ends\n", h.cdus,
                             h.cdus == 1 ? "CDU" : "CDUs", formatNumber(h.cduCapacityKw));
        if (h.crahs > 0)
            s += fmt::format("Cooling units: {} CRAH/CRAC units of {} kW along the side walls\n",
                             h.crahs, formatNumber(h.crahCapacityKw));
        if (h.rdhxDepthM > 0.0)
            s += fmt::format("Rear doors: {} m on every rack ({} m deep with its door)\n",
                             formatNumber(h.rdhxDepthM), formatNumber(h.rackDepthM));
        s += "\n";
    }
    s += fmt::format("{:<8}{:>7}{:>16}{:>12}{:>14}{:>12}\n", "row", "racks", "nameplate kW",
                     "busway kW", "heat kW", "cooling kW");
    for (const auto& row : h.rows)
        s += fmt::format("{:<8}{:>7}{:>16}{:>12}{:>14}{:>12}\n", row.name, row.racks,
                         formatNumber(row.nameplateKw), formatNumber(row.buswayKw),
                         formatNumber(row.designKw), formatNumber(row.coolingKw));
    s += "\nCable bill\n";
    s += fmt::format("  {:<11}{:<44}{:>6}{:>8}{:>8}{:>8}{:>12}{:>9}{:>12}{:>14}\n", "class",
                     "medium", "G", "links", "cables", "optics", "length m", "max m", "power W",
                     "cost USD");
    for (const auto& l : h.bill) {
        std::string medium = l.cableId.empty() ? "(beyond every reach)" : l.cableId;
        if (!l.switchModuleId.empty())
            medium += " +" + l.switchModuleId.substr(l.switchModuleId.find('-') + 1);
        s += fmt::format("  {:<11}{:<44}{:>6}{:>8}{:>8}{:>8}{:>12}{:>9}{:>12}{:>14}\n",
                         solvers::hallLinkClassName(l.linkClass), medium, l.rateGbps, l.links,
                         l.cables, l.transceivers, formatNumber(l.lengthM),
                         formatNumber(l.maxLengthM), formatNumber(l.powerW),
                         formatNumber(l.costUsd));
    }
    s += fmt::format("  total: {} cables and fibers, {} transceivers, {} m, {} W, {} USD\n",
                     h.cables, h.transceivers, formatNumber(h.cableLengthM),
                     formatNumber(h.cablePowerW), formatNumber(h.cableCostUsd));
    s += "\nRuns\n";
    for (const auto& c : h.classes)
        s += fmt::format("  {:<11} mean {} m, longest {} m: {}; electronics {} ns\n",
                         solvers::hallLinkClassName(c.linkClass), formatNumber(c.meanLengthM),
                         formatNumber(c.maxLengthM), c.longestLink, formatNumber(c.meanLatencyNs));
    return s;
}

} // namespace

LayoutCommand::LayoutCommand(CLI::App& app)
{
    m_command = app.add_subcommand(
        "layout", "Print the hall of a scenario: rows, racks, network racks and the cable bill");
    m_command->add_option("file", m_file, "Scenario JSON file")->required();
    m_command->add_option("--svg", m_svgPath, "Write the floor plan as SVG to this file");
    m_command->add_option("-f,--format", m_format, "Output format: text or json")
        ->check(CLI::IsMember({"text", "json"}));
    m_command
        ->add_option("--color", m_color,
                     "Rack colours of the SVG: kw (heat) or limit (against the row's busway)")
        ->check(CLI::IsMember({"kw", "limit"}));
}

CLI::App* LayoutCommand::subcommand() const
{
    return m_command;
}

int LayoutCommand::run(const CommandContext& context, std::ostream& out, std::ostream& err)
{
    auto catalog = loadCatalog(context.catalogDirectory, err);
    if (!catalog)
        return ExitUsage;
    const solvers::DocumentEvaluation document = solvers::evaluateDocumentFile(m_file, *catalog);
    // A warning that breaks a hard limit (verdict.cpp) is printed as the error it is.
    for (const auto& d : document.diagnostics) {
        if (d.severity == Severity::Warning && solvers::breaksConstraint(d)) {
            Diagnostic hard = d;
            hard.severity = Severity::Error;
            err << hard.toString() << "  [makes the design infeasible]\n";
        } else {
            err << d.toString() << "\n";
        }
    }
    if (!document.evaluated())
        return ExitUsage;
    const solvers::Evaluation& e = *document.evaluation;
    const solvers::HallResult& hall = e.network.hall;
    if (!hall.valid) {
        err << "dctwin-cli: error: " << m_file
            << ": the hall could not be laid out (see the errors above)\n";
        return ExitEvaluation;
    }
    if (!m_svgPath.empty()) {
        report::HallSvgOptions options;
        options.coloring =
            m_color == "limit" ? report::HallColoring::RowLimit : report::HallColoring::Kilowatts;
        options.title = e.scenarioName;
        if (auto written = writeFileAtomically(m_svgPath, report::hallSvg(hall, options));
            !written) {
            err << "dctwin-cli: error: " << written.error().toString() << "\n";
            return ExitUsage;
        }
    }
    const solvers::Verdict verdict = e.verdict();
    if (m_format == "json")
        out << model::jsonText(layoutJson(e.scenarioName, hall, e)) << "\n";
    else
        out << layoutText(e.scenarioName, hall, verdict);
    if (!e.ok())
        return ExitEvaluation;
    if (verdict.feasibility == solvers::Feasibility::Infeasible) {
        // Laid out, but a hard limit is broken: the plan is shown, the exit says no (as eval).
        err << m_file << ": " << verdict.summary() << "\n";
        return ExitEvaluation;
    }
    return ExitOk;
}

} // namespace dct::cli
