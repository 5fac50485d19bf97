#include "dct/cli/collectivescommand.h"

#include "dct/cli/cli.h"
#include "dct/cli/output.h"
#include "dct/cli/scenariofile.h"
#include "dct/model/catalog.h"
#include "dct/model/jsonread.h"
#include "dct/model/textformat.h"
#include "dct/solvers/collectivenames.h"
#include "dct/solvers/collectives.h"
#include "dct/solvers/networksolver.h"

#include <CLI/CLI.hpp>
#include <algorithm>
#include <array>
#include <charconv>
#include <fmt/format.h>
#include <nlohmann/json.hpp>
#include <optional>
#include <ostream>

namespace dct::cli {

using nlohmann::json;

namespace {

// The sizes nccl-tests sweeps with -b 8 -e 16G -f 2 (nccl-tests README, "Arguments").
constexpr double kMinBytes = 8.0;
constexpr double kMaxBytes = 17179869184.0;

constexpr std::array kOps = {solvers::CollectiveOp::AllReduce, solvers::CollectiveOp::ReduceScatter,
                             solvers::CollectiveOp::AllGather, solvers::CollectiveOp::AllToAll,
                             solvers::CollectiveOp::SendRecv};
constexpr std::array kAlgorithms = {
    solvers::CollectiveAlgorithm::Ring,         solvers::CollectiveAlgorithm::DoubleBinaryTree,
    solvers::CollectiveAlgorithm::Hierarchical, solvers::CollectiveAlgorithm::InNetwork,
    solvers::CollectiveAlgorithm::Nvls,         solvers::CollectiveAlgorithm::NvlsTree};

std::vector<std::string> opNames()
{
    std::vector<std::string> names;
    for (auto op : kOps)
        names.emplace_back(solvers::collectiveOpName(op));
    return names;
}

std::vector<std::string> algorithmNames()
{
    std::vector<std::string> names = {"best"};
    for (auto a : kAlgorithms)
        names.emplace_back(solvers::collectiveAlgorithmName(a));
    return names;
}

solvers::CollectiveOp opByName(const std::string& name)
{
    for (auto op : kOps)
        if (name == solvers::collectiveOpName(op))
            return op;
    return solvers::CollectiveOp::AllReduce;
}

/** Returns the algorithm named \a name, or nothing for "best" (NCCL's tuner picks per size). */
std::optional<solvers::CollectiveAlgorithm> algorithmByName(const std::string& name)
{
    for (auto a : kAlgorithms)
        if (name == solvers::collectiveAlgorithmName(a))
            return a;
    return std::nullopt;
}

/** Returns \a bytes as nccl-tests would read it: "8 B", "4 KiB", "16 GiB". */
std::string sizeText(double bytes)
{
    static constexpr std::array units = {"B", "KiB", "MiB", "GiB", "TiB"};
    std::size_t unit = 0;
    while (bytes >= 1024.0 && unit + 1 < units.size()) {
        bytes /= 1024.0;
        ++unit;
    }
    return fmt::format("{:g} {}", bytes, units[unit]);
}

/** Returns \a v in the shortest form that reads back to the same double. */
std::string exactNumber(double v)
{
    char buffer[32];
    const auto r = std::to_chars(buffer, buffer + sizeof buffer, v);
    return std::string(buffer, r.ptr);
}

std::vector<solvers::CollectiveTiming> curve(solvers::CollectiveOp op,
                                             std::optional<solvers::CollectiveAlgorithm> algorithm,
                                             const solvers::CollectiveInputs& inputs)
{
    const solvers::CollectiveEngine engine(inputs);
    if (algorithm)
        return engine.curve(op, *algorithm, kMinBytes, kMaxBytes);
    return engine.bestCurve(op, kMinBytes, kMaxBytes);
}

} // namespace

CollectivesCommand::CollectivesCommand(CLI::App& app)
{
    m_command = app.add_subcommand(
        "collectives", "Print the time, algbw and busbw of a collective over every GPU of a "
                       "scenario, 8 B to 16 GiB (as nccl-tests reports them)");
    m_command->add_option("file", m_file, "Scenario JSON file")->required();
    m_command->add_option("--op", m_op, "Operation (default all_reduce)")
        ->check(CLI::IsMember(opNames()));
    m_command
        ->add_option("--algorithm", m_algorithm,
                     "Algorithm (default best: the fastest available at each size)")
        ->check(CLI::IsMember(algorithmNames()));
    m_command->add_option("-f,--format", m_format, "Output format: table, csv or json")
        ->check(CLI::IsMember({"table", "csv", "json"}));
}

CLI::App* CollectivesCommand::subcommand() const
{
    return m_command;
}

int CollectivesCommand::run(const CommandContext& context, std::ostream& out, std::ostream& err)
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
    // The gradient all-reduce does not enter the curve; the solver needs its size anyway.
    const double gradientBytes = solvers::gradientAllReduceBytes(r);
    Diagnostics diagnostics;
    const solvers::NetworkResult network = solvers::solveNetwork(r, gradientBytes, diagnostics);
    if (!network.valid) {
        diagnostics.setFile(m_file);
        for (const auto& d : diagnostics)
            err << d.toString() << "\n";
        return ExitEvaluation;
    }

    const solvers::CollectiveOp op = opByName(m_op);
    const auto algorithm = algorithmByName(m_algorithm);
    const solvers::CollectiveInputs& in = network.worldInputs;
    const std::vector<solvers::CollectiveTiming> points = curve(op, algorithm, in);
    const bool anyAvailable =
        std::any_of(points.begin(), points.end(), [](const auto& t) { return t.available; });
    if (!anyAvailable) {
        err << "dctwin-cli: error: " << m_file << ": " << m_op << " by " << m_algorithm
            << " does not apply to this fabric: "
            << (points.empty() ? std::string("no sizes") : points.front().reason.text()) << "\n";
        return ExitEvaluation;
    }
    const double busFactor = solvers::busBandwidthFactor(op, in.ranks);

    if (m_format == "json") {
        json rows = json::array();
        for (const auto& t : points) {
            json row = {{"bytes", t.bytes},
                        {"algorithm", solvers::collectiveRouteName(t.op, t.algorithm)},
                        {"available", t.available},
                        {"reason", t.reason.text()}};
            if (t.available) {
                row["protocol"] = solvers::collectiveProtocolName(t.protocol);
                row["channels"] = t.channels;
                row["seconds"] = t.seconds;
                row["algbw_gbyte_per_s"] = t.algbwGbytePerS;
                row["busbw_gbyte_per_s"] = t.busbwGbytePerS;
                const solvers::CollectiveLatency& l = t.latency;
                row["latency_us"] = {{"launch", l.launchUs}, {"software", l.softwareUs},
                                     {"nvlink", l.nvlinkUs}, {"pcie", l.pcieUs},
                                     {"nic", l.nicUs},       {"switch", l.switchUs},
                                     {"cable", l.cableUs},   {"total", l.totalUs}};
            }
            rows.push_back(row);
        }
        const json doc = {{"scenario", r.scenario.name},
                          {"op", m_op},
                          {"algorithm", m_algorithm},
                          {"ranks", in.ranks},
                          {"ranks_per_node", in.ranksPerNode},
                          {"bus_factor", busFactor},
                          {"fabric_gbyte_per_s_per_rank", in.fabricGbytePerS},
                          {"scale_up_gbyte_per_s_per_rank", in.scaleUpGbytePerS},
                          {"points", rows}};
        out << model::jsonText(doc) << "\n";
        return consistency.ok() ? ExitOk : ExitEvaluation;
    }
    if (m_format == "csv") {
        out << "bytes,algorithm,seconds,algbw_gbyte_per_s,busbw_gbyte_per_s\n";
        for (const auto& t : points)
            out << exactNumber(t.bytes) << ',' << solvers::collectiveRouteName(t.op, t.algorithm)
                << ',' << (t.available ? exactNumber(t.seconds) : "") << ','
                << (t.available ? exactNumber(t.algbwGbytePerS) : "") << ','
                << (t.available ? exactNumber(t.busbwGbytePerS) : "") << '\n';
        return consistency.ok() ? ExitOk : ExitEvaluation;
    }
    out << fmt::format("{}\n{} by {} over {} ranks ({} per node); bus factor {}\n"
                       "fabric {} GB/s and NVLink {} GB/s per rank per direction\n\n",
                       printableText(r.scenario.name), m_op, m_algorithm, in.ranks, in.ranksPerNode,
                       formatNumber(busFactor), formatNumber(in.fabricGbytePerS),
                       formatNumber(in.scaleUpGbytePerS));
    out << fmt::format("{:>10}{:>14}{:>10}{:>14}{:>16}{:>16}\n", "size", "algorithm", "protocol",
                       "time us", "algbw GB/s", "busbw GB/s");
    for (const auto& t : points) {
        if (!t.available) {
            out << fmt::format("{:>10}{:>14}{:>10}{:>14}{:>16}{:>16}\n", sizeText(t.bytes),
                               solvers::collectiveRouteName(t.op, t.algorithm), "", "n/a", "", "");
            continue;
        }
        out << fmt::format("{:>10}{:>14}{:>10}{:>14}{:>16}{:>16}\n", sizeText(t.bytes),
                           solvers::collectiveRouteName(t.op, t.algorithm),
                           solvers::collectiveProtocolName(t.protocol),
                           formatNumber(t.seconds * 1e6), formatNumber(t.algbwGbytePerS),
                           formatNumber(t.busbwGbytePerS));
    }
    // Why: one line per run of sizes with the same choice.
    out << "\nwhy:\n";
    for (std::size_t i = 0; i < points.size();) {
        std::size_t j = i;
        while (j + 1 < points.size() && points[j + 1].algorithm == points[i].algorithm &&
               points[j + 1].protocol == points[i].protocol &&
               points[j + 1].available == points[i].available)
            ++j;
        const auto& t = points[i];
        out << fmt::format("  {} to {}: {}{}{}: {}\n", sizeText(t.bytes), sizeText(points[j].bytes),
                           solvers::collectiveRouteName(t.op, t.algorithm), t.available ? "/" : "",
                           t.available ? solvers::collectiveProtocolName(t.protocol) : "",
                           t.reason.text());
        i = j + 1;
    }
    return consistency.ok() ? ExitOk : ExitEvaluation;
}

} // namespace dct::cli
