#include "dct/cli/storecommand.h"

#include "dct/cli/cli.h"
#include "dct/cli/output.h"
#include "dct/model/atomicfile.h"
#include "dct/model/calibrationprofile.h"
#include "dct/model/catalog.h"
#include "dct/model/contenthash.h"
#include "dct/model/jsonread.h"
#include "dct/model/resolver.h"
#include "dct/model/scenarioio.h"
#include "dct/model/textformat.h"
#include "dct/solvers/documentevaluation.h"
#include "dct/solvers/evaluator.h"
#include "dct/solvers/modelversion.h"
#include "dct/store/scenariostore.h"

#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <fstream>
#include <ostream>

namespace dct::cli {

using nlohmann::json;

namespace {

/** As eval: a design evaluated without error and not infeasible. */
bool feasibleOk(const solvers::Evaluation& e)
{
    return e.ok() && e.verdict().feasibility != solvers::Feasibility::Infeasible;
}

void printError(std::ostream& err, const Error& error)
{
    err << "dctwin-cli: error: " << error.toString() << "\n";
}

std::string joined(const std::vector<std::string>& items, const char* separator = ", ")
{
    std::string text;
    for (const auto& item : items)
        text += (text.empty() ? "" : separator) + item;
    return text;
}

json summaryJson(const store::StoredScenario& s)
{
    return {{"name", s.name},
            {"latest_version", s.latestVersion},
            {"versions", s.versionCount},
            {"created_at", s.createdAt},
            {"updated_at", s.updatedAt},
            {"tags", s.tags},
            {"notes", s.notes}};
}

} // namespace

StoreCommand::StoreCommand(CLI::App& app)
{
    m_store = app.add_subcommand("store", "The scenario library (SQLite): list, show, import, "
                                          "export, history, restore, tag, notes, eval, "
                                          "recover");
    m_store->require_subcommand(1);
    m_store->add_option("--store", m_path,
                        "Store file (default: $DCT_STORE, else "
                        "$XDG_DATA_HOME/dctwin/scenarios.sqlite or "
                        "~/.local/share/dctwin/scenarios.sqlite)");

    m_list = m_store->add_subcommand("list", "List the scenarios with versions and tags");
    m_list->add_option("--tag", m_tagFilter, "Only scenarios with this tag");
    m_list->add_option("-f,--format", m_format, "table or json")
        ->check(CLI::IsMember({"table", "json"}));

    m_show = m_store->add_subcommand("show", "Print a scenario's JSON (latest or --version)");
    m_show->add_option("name", m_name, "Scenario name")->required();
    m_show->add_option("-v,--version", m_version, "Version number (default: latest)");
    m_show->add_flag("--info", m_info, "Print the name, versions, tags and notes instead");

    m_import = m_store->add_subcommand("import", "Save scenario files as new versions");
    m_import->add_option("files", m_files, "Scenario JSON files")->required();
    m_import->add_option("-n,--name", m_name, "Name in the store (default: the file's stem)");
    m_import->add_option("-m,--comment", m_comment, "Why this version was saved");
    m_import->add_option("-t,--tag", m_tags, "Tag to add (repeatable)");

    m_export = m_store->add_subcommand("export", "Write a scenario's JSON to a file or stdout");
    m_export->add_option("name", m_name, "Scenario name")->required();
    m_export->add_option("-v,--version", m_version, "Version number (default: latest)");
    m_export->add_option("-o,--output", m_output, "File to write (atomically); stdout if absent");

    m_history = m_store->add_subcommand("history", "List every saved version of a scenario");
    m_history->add_option("name", m_name, "Scenario name")->required();
    m_history->add_option("-f,--format", m_format, "table or json")
        ->check(CLI::IsMember({"table", "json"}));

    m_restore = m_store->add_subcommand("restore", "Save an old version again as the newest");
    m_restore->add_option("name", m_name, "Scenario name")->required();
    m_restore->add_option("version", m_version, "Version to restore")->required();

    m_tag = m_store->add_subcommand("tag", "Add (or --remove) tags of a scenario");
    m_tag->add_option("name", m_name, "Scenario name")->required();
    m_tag->add_option("tags", m_tags, "Tags")->required();
    m_tag->add_flag("--remove", m_untag, "Remove the tags instead");

    m_notes = m_store->add_subcommand("notes", "Set the notes of a scenario");
    m_notes->add_option("name", m_name, "Scenario name")->required();
    m_notes->add_option("text", m_notesText, "Notes")->required();

    m_remove = m_store->add_subcommand("remove", "Delete a scenario and its whole history");
    m_remove->add_option("name", m_name, "Scenario name")->required();

    m_eval = m_store->add_subcommand("eval", "Evaluate a stored scenario and print its figures "
                                             "as eval does, reusing the cached result while its "
                                             "inputs are unchanged");
    m_eval->add_option("name", m_name, "Scenario name")->required();
    m_eval->add_option("-v,--version", m_version, "Version number (default: latest)");
    m_eval->add_option("-f,--format", m_format, "table (as eval prints it) or json")
        ->check(CLI::IsMember({"table", "json"}));

    m_recover = m_store->add_subcommand(
        "recover", "Copy every readable scenario version, tag and note of a damaged store into "
                   "a new store (the damaged file is only read)");
    m_recover->add_option("damaged", m_damaged, "The damaged store")->required();
    m_recover->add_option("new", m_recovered, "The new store (must not exist)")->required();
}

CLI::App* StoreCommand::subcommand() const
{
    return m_store;
}

int StoreCommand::run(const CommandContext& context, std::ostream& out, std::ostream& err)
{
    if (m_recover->parsed()) {
        auto report = store::ScenarioStore::recover(m_damaged, m_recovered);
        if (!report) {
            printError(err, report.error());
            return ExitUsage;
        }
        out << "recovered " << report->scenarios << " scenarios (" << report->versions
            << " versions, " << report->tags << " tags, notes of " << report->notes << ") from "
            << m_damaged << " into " << m_recovered << "\n";
        if (report->problems.empty())
            out << "everything was readable\n";
        else
            out << report->problems.size() << " things could not be read or were renamed:\n";
        for (const auto& problem : report->problems)
            out << "  " << problem << "\n";
        out << "cached results were not copied (`store eval` computes them again); " << m_damaged
            << " was not changed\n";
        return ExitOk;
    }
    store::StoreOpenOptions options;
    options.seedDirectory = model::Catalog::dataDirectory() / "examples";
    const std::filesystem::path path =
        m_path.empty() ? store::ScenarioStore::defaultPath() : std::filesystem::path(m_path);
    auto opened = store::ScenarioStore::open(path, options);
    if (!opened) {
        printError(err, opened.error());
        return ExitUsage;
    }
    store::ScenarioStore& store = *opened;
    // A write command's refusal says the same, so the warning is for the reading ones.
    const bool writes = m_import->parsed() || m_restore->parsed() || m_tag->parsed() ||
                        m_notes->parsed() || m_remove->parsed();
    if (store.readOnly() && !writes)
        err << "dctwin-cli: warning: " << store.path().string()
            << ": the store is damaged (integrity check: " << store.damage()
            << "); it is open read-only. Recover what is readable with `dctwin-cli store recover "
            << store.path().string() << " NEW.sqlite`\n";
    if (!store.checkNote().empty())
        err << "dctwin-cli: warning: " << store.path().string() << ": " << store.checkNote()
            << "\n";
    auto fail = [&](const Error& e) {
        printError(err, e);
        return static_cast<int>(ExitUsage);
    };

    if (m_list->parsed()) {
        auto list = store.list(m_tagFilter);
        if (!list)
            return fail(list.error());
        if (m_format == "json") {
            json items = json::array();
            for (const auto& s : *list)
                items.push_back(summaryJson(s));
            out << model::jsonText(items) << "\n";
            return ExitOk;
        }
        std::size_t width = 4;
        // Names, tags and comments came from files and command lines: never printed raw.
        for (const auto& s : *list)
            width = std::max(width, printableText(s.name).size());
        out << fmt::format("{:<{}}  {:>7}  {:<24}  {}\n", "name", width, "version", "updated",
                           "tags");
        for (const auto& s : *list)
            out << fmt::format("{:<{}}  {:>7}  {:<24}  {}\n", printableText(s.name), width,
                               s.latestVersion, s.updatedAt, printableText(joined(s.tags)));
        out << list->size() << " scenarios in " << store.path().string() << "\n";
        return ExitOk;
    }
    if (m_show->parsed()) {
        if (m_info) {
            auto found = store.find(m_name);
            if (!found)
                return fail(found.error());
            out << model::jsonText(summaryJson(*found)) << "\n";
            return ExitOk;
        }
        auto version = store.load(m_name, m_version);
        if (!version)
            return fail(version.error());
        out << version->json << (version->json.ends_with('\n') ? "" : "\n");
        return ExitOk;
    }
    if (m_import->parsed()) {
        if (!m_name.empty() && m_files.size() > 1)
            return fail(Error{"", "",
                              "--name applies to one file, but " + std::to_string(m_files.size()) +
                                  " were given",
                              "one file with --name, or several without"});
        int code = ExitOk;
        for (const auto& file : m_files) {
            if (auto tooLarge = model::jsonFileTooLarge(file, "a scenario file")) {
                code = fail(*tooLarge);
                continue;
            }
            std::ifstream in(file, std::ios::binary);
            if (!in) {
                code = fail(Error{file, "", "cannot read the file", "a readable scenario file"});
                continue;
            }
            const std::string text((std::istreambuf_iterator<char>(in)),
                                   std::istreambuf_iterator<char>());
            // Only scenarios this program can read go in: the store must never hold junk.
            auto read = model::readScenarioText(text, file);
            if (!read.scenario || read.diagnostics.hasErrors()) {
                for (const auto& d : read.diagnostics)
                    err << d.toString() << "\n";
                code = ExitUsage;
                continue;
            }
            const std::string name =
                m_name.empty() ? std::filesystem::path(file).stem().string() : m_name;
            auto version =
                store.save(name, text, m_comment.empty() ? "imported from " + file : m_comment);
            if (!version) {
                code = fail(version.error());
                continue;
            }
            for (const auto& tag : m_tags)
                if (auto r = store.addTag(name, tag); !r)
                    code = fail(r.error());
            out << printableText(name) << ": version " << *version << "\n";
        }
        return code;
    }
    if (m_export->parsed()) {
        auto version = store.load(m_name, m_version);
        if (!version)
            return fail(version.error());
        std::string text = version->json;
        if (!text.ends_with('\n'))
            text += '\n';
        if (m_output.empty()) {
            out << text;
            return ExitOk;
        }
        if (auto r = writeFileAtomically(m_output, text); !r)
            return fail(r.error());
        out << printableText(m_name) << ": version " << version->version << " written to "
            << printableText(m_output) << "\n";
        return ExitOk;
    }
    if (m_history->parsed()) {
        auto history = store.history(m_name);
        if (!history)
            return fail(history.error());
        if (m_format == "json") {
            json items = json::array();
            for (const auto& v : *history)
                items.push_back({{"version", v.version},
                                 {"saved_at", v.savedAt},
                                 {"comment", v.comment},
                                 {"hash", v.hash}});
            out << model::jsonText(items) << "\n";
            return ExitOk;
        }
        out << fmt::format("{:>7}  {:<24}  {}\n", "version", "saved", "comment");
        for (const auto& v : *history)
            out << fmt::format("{:>7}  {:<24}  {}\n", v.version, v.savedAt,
                               printableText(v.comment));
        return ExitOk;
    }
    if (m_restore->parsed()) {
        auto version = store.restore(m_name, m_version);
        if (!version)
            return fail(version.error());
        out << printableText(m_name) << ": version " << m_version << " restored as version "
            << *version << "\n";
        return ExitOk;
    }
    if (m_tag->parsed()) {
        for (const auto& tag : m_tags) {
            auto r = m_untag ? store.removeTag(m_name, tag) : store.addTag(m_name, tag);
            if (!r)
                return fail(r.error());
        }
        return ExitOk;
    }
    if (m_notes->parsed()) {
        if (auto r = store.setNotes(m_name, m_notesText); !r)
            return fail(r.error());
        return ExitOk;
    }
    if (m_remove->parsed()) {
        if (auto r = store.remove(m_name); !r)
            return fail(r.error());
        return ExitOk;
    }
    if (m_eval->parsed()) {
        auto version = store.load(m_name, m_version);
        if (!version)
            return fail(version.error());
        const auto dir = context.catalogDirectory.empty()
                             ? model::Catalog::defaultDirectory()
                             : std::filesystem::path(context.catalogDirectory);
        auto catalog = model::Catalog::load(dir);
        if (!catalog)
            return fail(catalog.error());
        // The calibration profile the version names is an input too: a profile fitted again
        // under the same name makes the cached result stale.
        std::string fingerprint = model::catalogFingerprint(*catalog);
        const json scenarioJson = json::parse(version->json, nullptr, false);
        const json* profileName = scenarioJson.is_object() && scenarioJson.contains("network") &&
                                          scenarioJson["network"].is_object() &&
                                          scenarioJson["network"].contains("calibration_profile")
                                      ? &scenarioJson["network"]["calibration_profile"]
                                      : nullptr;
        if (profileName && profileName->is_string() && !profileName->get<std::string>().empty()) {
            auto stored = store.loadCalibrationProfile(profileName->get<std::string>());
            fingerprint += stored ? "+calibration:" + model::contentHash(stored->json)
                                  : "+calibration-missing";
        }
        const std::string hash = store::ScenarioStore::inputsHash(version->json, fingerprint);
        auto cached = store.cachedEvaluation(m_name, version->version, hash, solvers::modelVersion);
        if (!cached)
            return fail(cached.error());
        if (cached->has_value()) {
            err << printableText(m_name) << ": version " << version->version << ": cached result\n";
            // As eval: an error or an infeasible design exits 1.
            const json result = json::parse(**cached, nullptr, false);
            if (m_format == "json" || !result.is_object())
                out << **cached << "\n";
            else
                out << evaluationTableFromJson(result);
            const bool feasible = result.is_object() && result.value("ok", true) &&
                                  !(result.contains("verdict") && result["verdict"].is_object() &&
                                    result["verdict"].value("feasibility", "") == "infeasible");
            return feasible ? ExitOk : ExitEvaluation;
        }
        const std::string label = "store:" + m_name + "@" + std::to_string(version->version);
        solvers::EvaluateOptions evalOptions;
        evalOptions.calibrationProfile =
            [&store](const std::string& name) -> Result<model::CalibrationProfile> {
            auto stored = store.loadCalibrationProfile(name);
            if (!stored)
                return tl::unexpected(stored.error());
            return model::readCalibrationProfile(
                stored->json, store.path().string() + " (calibration profile '" + name + "')");
        };
        solvers::DocumentEvaluation document =
            solvers::evaluateDocumentText(version->json, *catalog, label, evalOptions);
        if (!document.evaluated()) {
            for (const auto& d : document.diagnostics)
                err << d.toString() << "\n";
            return ExitUsage;
        }
        const solvers::Evaluation& e = *document.evaluation;
        const std::string result = model::jsonText(evaluationJson(e, label));
        if (store.readOnly()) {
            // The evaluation is a read; only its cache would be a write.
            err << printableText(m_name) << ": version " << version->version
                << ": result not cached (the store is read-only)\n";
            out << (m_format == "json" ? result + "\n"
                                       : evaluationTableFromJson(evaluationJson(e, label)));
            return feasibleOk(e) ? ExitOk : ExitEvaluation;
        }
        if (auto r = store.storeEvaluation(m_name, version->version, hash, solvers::modelVersion,
                                           result);
            !r)
            return fail(r.error());
        out << (m_format == "json" ? result + "\n"
                                   : evaluationTableFromJson(evaluationJson(e, label)));
        return feasibleOk(e) ? ExitOk : ExitEvaluation;
    }
    return ExitUsage;
}

} // namespace dct::cli
