#include "dct/cli/cli.h"

#include "dct/cli/collectivescommand.h"
#include "dct/cli/comparecommand.h"
#include "dct/cli/output.h"
#include "dct/cli/scenariofile.h"
#include "dct/cli/reportcommand.h"
#include "dct/cli/storecommand.h"
#include "dct/cli/sweepcommand.h"
#include "dct/cli/topologycommand.h"
#include "dct/model/catalog.h"
#include "dct/model/schema.h"
#include "dct/model/validator.h"
#include "dct/solvers/evaluator.h"

#include <CLI/CLI.hpp>

#include <ostream>

namespace dct::cli {

using nlohmann::json;

namespace {

struct Options
{
    std::string catalogDir;
    std::vector<std::string> files;
    std::string format = "table";
    std::string kind;
    std::string id;
};

void printDiagnostics(const Diagnostics& d, std::ostream& err)
{
    for (const auto& item : d)
        err << item.toString() << "\n";
}

int commandValidate(const Options& o, std::ostream& out, std::ostream& err)
{
    auto catalog = loadCatalog(o.catalogDir, err);
    if (!catalog)
        return ExitUsage;
    int code = ExitOk;
    json report = json::array();
    for (const auto& file : o.files) {
        LoadedScenario loaded = loadScenario(file, *catalog);
        Diagnostics all = loaded.diagnostics;
        int fileCode = ExitOk;
        if (!loaded.resolved) {
            fileCode = ExitUsage;
        } else {
            Diagnostics checks = model::validateScenario(*loaded.resolved);
            checks.setFile(file);
            all.append(checks);
            if (checks.hasErrors())
                fileCode = ExitEvaluation;
        }
        code = std::max(code, fileCode);
        if (o.format == "json") {
            report.push_back({{"file", file},
                              {"valid", fileCode == ExitOk},
                              {"diagnostics", diagnosticsJson(all)}});
        } else {
            printDiagnostics(all, fileCode == ExitOk ? out : err);
            if (fileCode == ExitOk)
                out << file << ": valid ("
                    << all.count(Severity::Warning) << " warnings)\n";
        }
    }
    if (o.format == "json")
        out << (report.size() == 1 ? report[0] : report).dump(2) << "\n";
    return code;
}

int commandEval(const Options& o, std::ostream& out, std::ostream& err)
{
    auto catalog = loadCatalog(o.catalogDir, err);
    if (!catalog)
        return ExitUsage;
    int code = ExitOk;
    json documents = json::array();
    if (o.format == "csv")
        out << evaluationCsvHeader();
    bool first = true;
    for (const auto& file : o.files) {
        LoadedScenario loaded = loadScenario(file, *catalog);
        if (!loaded.resolved) {
            printDiagnostics(loaded.diagnostics, err);
            if (o.format == "json")
                documents.push_back({{"file", file},
                                     {"ok", false},
                                     {"diagnostics", diagnosticsJson(loaded.diagnostics)}});
            code = std::max(code, static_cast<int>(ExitUsage));
            continue;
        }
        solvers::Evaluation e = solvers::evaluate(*loaded.resolved);
        Diagnostics all = loaded.diagnostics;
        all.append(e.diagnostics);
        all.setFile(file);
        e.diagnostics = all;
        if (!e.ok()) {
            code = std::max(code, static_cast<int>(ExitEvaluation));
            printDiagnostics(e.diagnostics, err);
        }
        if (o.format == "json") {
            documents.push_back(evaluationJson(e, file));
        } else if (o.format == "csv") {
            out << evaluationCsvRows(e, file);
        } else if (e.ok()) {
            out << (first ? "" : "\n") << evaluationTable(e, file);
            first = false;
        }
    }
    if (o.format == "json")
        out << (documents.size() == 1 ? documents[0] : documents).dump(2) << "\n";
    return code;
}

int commandCatalog(const Options& o, std::ostream& out, std::ostream& err)
{
    auto catalog = loadCatalog(o.catalogDir, err);
    if (!catalog)
        return ExitUsage;
    const auto kinds = model::Catalog::kinds();
    if (o.kind.empty()) {
        for (const auto& kind : kinds) {
            out << kind << ":";
            for (const auto& id : catalog->ids(kind))
                out << " " << id;
            out << "\n";
        }
        return ExitOk;
    }
    if (std::find(kinds.begin(), kinds.end(), o.kind) == kinds.end()) {
        std::string list;
        for (const auto& k : kinds)
            list += (list.empty() ? "" : ", ") + k;
        err << "dctwin-cli: error: unknown catalog kind '" << o.kind << "' (accepted: " << list
            << ")\n";
        return ExitUsage;
    }
    const auto ids = catalog->ids(o.kind);
    if (o.id.empty()) {
        for (const auto& id : ids)
            out << id << "\n";
        return ExitOk;
    }
    auto show = [&](const auto& shelf) -> int {
        auto it = shelf.entries.find(o.id);
        if (it == shelf.entries.end()) {
            std::string list;
            for (const auto& id : ids)
                list += (list.empty() ? "" : ", ") + id;
            err << "dctwin-cli: error: no " << o.kind << " with id '" << o.id
                << "' (accepted: " << list << ")\n";
            return ExitUsage;
        }
        out << model::writeCatalogEntry(it->second).dump(2) << "\n";
        return ExitOk;
    };
    if (o.kind == "gpu")
        return show(catalog->gpus());
    if (o.kind == "node")
        return show(catalog->nodes());
    if (o.kind == "nic")
        return show(catalog->nics());
    if (o.kind == "switch")
        return show(catalog->switches());
    if (o.kind == "cable")
        return show(catalog->cables());
    if (o.kind == "cooling")
        return show(catalog->coolingSystems());
    if (o.kind == "site")
        return show(catalog->sites());
    if (o.kind == "egress")
        return show(catalog->egressPricing());
    return show(catalog->ports());
}

} // namespace

int run(int argc, char** argv, std::ostream& out, std::ostream& err)
{
    CLI::App app{"DC Twin: digital twin and capacity planner for AI data centers.\n"
                 "Evaluates scenario files (cluster, fabric, power, cooling, site, workload)."};
    app.name("dctwin-cli");
    app.require_subcommand(1);
    Options o;
    app.add_option("--catalog", o.catalogDir,
                   "Catalog folder (default: $DCT_DATA_DIR/catalog or the bundled data)");

    auto* validate = app.add_subcommand("validate", "Check scenario files and report problems");
    validate->add_option("files", o.files, "Scenario JSON files")->required();
    validate->add_option("--format", o.format, "Output format")
        ->check(CLI::IsMember({"table", "json"}));

    auto* eval = app.add_subcommand("eval", "Evaluate scenario files and print every figure");
    eval->add_option("files", o.files, "Scenario JSON files")->required();
    eval->add_option("-f,--format", o.format, "Output format: table, json or csv")
        ->check(CLI::IsMember({"table", "json", "csv"}));

    auto* compare = app.add_subcommand(
        "compare", "Evaluate scenario files and print them side by side with deltas to the first");
    compare->add_option("files", o.files, "Scenario JSON files (at least two)")
        ->required()
        ->expected(2, -1);
    compare->add_option("-f,--format", o.format, "Output format: table, json or csv")
        ->check(CLI::IsMember({"table", "json", "csv"}));

    auto* catalog = app.add_subcommand("catalog", "List catalog kinds and ids, or show an entry");
    catalog->add_option("kind", o.kind, "Kind: gpu, node, nic, switch, cable, cooling, site, "
                                        "egress or port");
    catalog->add_option("id", o.id, "Entry id to show");

    auto* schema = app.add_subcommand("schema", "Print the JSON Schema of scenario files");

    StoreCommand store(app);
    SweepCommand sweep(app);
    ReportCommand report(app);
    TopologyCommand topology(app);
    CollectivesCommand collectives(app);

    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
        const int code = app.exit(e, out, err);
        return code == 0 ? ExitOk : ExitUsage;
    }

    try {
        if (validate->parsed())
            return commandValidate(o, out, err);
        if (eval->parsed())
            return commandEval(o, out, err);
        if (compare->parsed())
            return commandCompare(o.files, o.catalogDir, o.format, out, err);
        if (catalog->parsed())
            return commandCatalog(o, out, err);
        if (store.parsed())
            return store.run(o.catalogDir, out, err);
        if (sweep.parsed())
            return sweep.run(o.catalogDir, out, err);
        if (report.parsed())
            return report.run(o.catalogDir, out, err);
        if (topology.parsed())
            return topology.run(o.catalogDir, out, err);
        if (collectives.parsed())
            return collectives.run(o.catalogDir, out, err);
        if (schema->parsed()) {
            out << model::scenarioJsonSchema().dump(2) << "\n";
            return ExitOk;
        }
    } catch (const std::exception& e) {
        // Nothing below should throw; if something does, say so instead of crashing.
        err << "dctwin-cli: internal error: " << e.what() << "\n";
        return ExitUsage;
    }
    return ExitUsage;
}

} // namespace dct::cli
