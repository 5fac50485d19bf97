#include "dct/model/scenarioio.h"

#include "dct/model/atomicfile.h"
#include "dct/model/jsonread.h"

#include <cstdio>
#include <fstream>
#include <sstream>
#include <system_error>
#include <unistd.h>

namespace dct::model {

using nlohmann::json;

namespace {

/** Returns the top-level keys of a scenario document, for messages. */
std::string topLevelKeys()
{
    std::string keys = "schema_version, name, description, site";
    forEachSection([&](const SectionInfo& info, auto) { keys += std::string(", ") + info.key; });
    return keys;
}

template <class S>
void readSection(const json& document, const char* key, bool required, S& section,
                 Diagnostics& diagnostics, std::set<std::string>& present)
{
    const std::string path = std::string("/") + key;
    if (!document.contains(key)) {
        if (required) {
            // Name the keys the section needs; the others have defaults and may be left out.
            std::string needed;
            std::size_t optional = 0;
            for (const auto& f : S::fields()) {
                if (f.required)
                    needed += (needed.empty() ? "" : ", ") + f.key;
                else
                    ++optional;
            }
            diagnostics.error(path, std::string("missing required section '") + key + "'",
                              "an object" +
                                  (needed.empty() ? std::string(" (it may be empty: {})")
                                                  : " with at least the keys " + needed) +
                                  "; its " + std::to_string(optional) + " other keys have defaults",
                              "missing");
        }
        return;
    }
    readFields(S::fields(), document[key], path, section, diagnostics, &present);
}

// Schema version 1 named the cooling plant by family ("type": "air" or "liquid") and gave the
// model size and token count as plain counts. Version 2 names a catalog cooling system and keeps
// the unit in the key (billions).
void migrate1to2(json& document)
{
    if (document.contains("cooling") && document["cooling"].is_object()) {
        json& cooling = document["cooling"];
        if (cooling.contains("type") && cooling["type"].is_string()) {
            const std::string type = cooling["type"].get<std::string>();
            cooling["system"] = type == "liquid" ? "d2c-rdhx" : "crac-air";
            cooling.erase("type");
        }
    }
    if (document.contains("workload") && document["workload"].is_object()) {
        json& workload = document["workload"];
        for (const auto& [oldKey, newKey] : {std::pair{"parameters", "parameters_billion"},
                                             std::pair{"tokens", "tokens_billion"}}) {
            if (workload.contains(oldKey) && workload[oldKey].is_number()) {
                workload[newKey] = workload[oldKey].get<double>() / 1e9;
                workload.erase(oldKey);
            }
        }
    }
    document["schema_version"] = 2;
}

} // namespace

Result<int> migrateScenario(json& document, const std::string& file)
{
    if (!document.is_object())
        return makeError(file, "",
                         "a scenario must be a JSON object, found " + jsonTypeName(document),
                         "an object with the keys " + topLevelKeys());
    if (!document.contains("schema_version"))
        return makeError(file, "/schema_version", "missing required key 'schema_version'",
                         "an integer from 1 to " + std::to_string(Scenario::currentSchemaVersion));
    const json& version = document["schema_version"];
    if (!version.is_number_integer())
        return makeError(file, "/schema_version",
                         "invalid value " + version.dump() + ", found " + jsonTypeName(version),
                         "an integer from 1 to " + std::to_string(Scenario::currentSchemaVersion));
    const auto from = version.get<long long>();
    if (from < 1 || from > Scenario::currentSchemaVersion)
        return makeError(
            file, "/schema_version",
            "unsupported schema version " + std::to_string(from) +
                (from > Scenario::currentSchemaVersion ? " (written by a newer DC Twin)" : ""),
            "an integer from 1 to " + std::to_string(Scenario::currentSchemaVersion));
    if (from == 1)
        migrate1to2(document);
    return static_cast<int>(from);
}

ScenarioReadResult readScenario(const json& input, const std::string& file)
{
    ScenarioReadResult result;
    json document = input;
    auto migrated = migrateScenario(document, file);
    if (!migrated) {
        const Error& e = migrated.error();
        result.diagnostics.add(
            {Severity::Error, e.path, e.message, e.accepted, "schema-version", file});
        return result;
    }
    if (*migrated != Scenario::currentSchemaVersion) {
        result.migratedFrom = *migrated;
        result.diagnostics.note("/schema_version",
                                "migrated from schema version " + std::to_string(*migrated) +
                                    " to " + std::to_string(Scenario::currentSchemaVersion),
                                "save the scenario to write the current version", "migrated");
    }

    Scenario scenario;
    scenario.schemaVersion = Scenario::currentSchemaVersion;
    Diagnostics& d = result.diagnostics;
    for (auto it = document.begin(); it != document.end(); ++it) {
        const std::string& key = it.key();
        const std::string path = "/" + key;
        if (key == "schema_version")
            continue;
        if (key == "name" || key == "description") {
            if (!it.value().is_string()) {
                d.error(path, "invalid value " + it.value().dump(),
                        "a string, found " + jsonTypeName(it.value()), "type");
                continue;
            }
            (key == "name" ? scenario.name : scenario.description) = it.value().get<std::string>();
            scenario.present.insert(path);
        } else if (key == "site") {
            const json& v = it.value();
            if (v.is_string() && !v.get<std::string>().empty()) {
                scenario.site.id = v.get<std::string>();
            } else if (v.is_object() && v.contains("id") && v["id"].is_string()) {
                scenario.site.id = v["id"].get<std::string>();
                scenario.site.overrides = v;
                scenario.site.overrides.erase("id");
            } else {
                d.error(path, "invalid value " + v.dump(),
                        "a site catalog id as a string, or an object with \"id\" and fields to "
                        "override",
                        "type");
                continue;
            }
            scenario.present.insert(path);
        } else if (!isSectionKey(key)) {
            d.error(path, "unknown key '" + key + "'", "one of " + topLevelKeys(), "unknown-key");
        }
    }
    if (!document.contains("site"))
        d.error("/site", "missing required key 'site'", "a site catalog id such as \"dallas\"",
                "missing");
    forEachSection([&](const SectionInfo& info, auto member) {
        readSection(document, info.key, info.required, scenario.*member, d, scenario.present);
    });
    d.setFile(file);
    result.scenario = std::move(scenario);
    return result;
}

ScenarioReadResult readScenarioText(const std::string& text, const std::string& file)
{
    auto document = parseJson(text, file, "a JSON object (see data/schema/scenario.schema.json)");
    if (!document) {
        ScenarioReadResult result;
        const Error& e = document.error().error;
        result.diagnostics.add(
            {Severity::Error, e.path, e.message, e.accepted, document.error().code, file});
        return result;
    }
    return readScenario(*document, file);
}

ScenarioReadResult readScenarioFile(const std::filesystem::path& path)
{
    const std::string file = path.string();
    std::error_code ec;
    if (std::filesystem::is_directory(path, ec)) {
        ScenarioReadResult result;
        result.diagnostics.add({Severity::Error, "", "is a directory, not a scenario file",
                                "a .json scenario file", "io", file});
        return result;
    }
    if (auto tooLarge = jsonFileTooLarge(path, "a .json scenario file")) {
        ScenarioReadResult result;
        result.diagnostics.add(
            {Severity::Error, "", tooLarge->message, tooLarge->accepted, "file-size", file});
        return result;
    }
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        ScenarioReadResult result;
        result.diagnostics.add({Severity::Error, "", "cannot open the file for reading",
                                "a readable .json scenario file", "io", file});
        return result;
    }
    std::ostringstream buffer;
    buffer << in.rdbuf();
    return readScenarioText(buffer.str(), file);
}

json writeScenario(const Scenario& s)
{
    json j = json::object();
    j["schema_version"] = Scenario::currentSchemaVersion;
    j["name"] = s.name;
    if (!s.description.empty())
        j["description"] = s.description;
    j["site"] = s.site.toJson();
    forEachSection([&](const SectionInfo& info, auto member) {
        const auto& value = s.*member;
        using S = std::decay_t<decltype(value)>;
        json out = writeFields(S::fields(), value);
        // An empty catalog reference means "not set"; leave it out rather than write "".
        for (const auto& field : S::fields())
            if (field.kind == FieldKind::CatalogRef && out[field.key] == json(""))
                out.erase(field.key);
        j[info.key] = std::move(out);
    });
    return j;
}

bool isSectionKey(const std::string& key)
{
    bool found = false;
    forEachSection([&](const SectionInfo& info, auto) { found = found || key == info.key; });
    return found;
}

Result<void> saveScenarioFile(const Scenario& scenario, const std::filesystem::path& path)
{
    return writeFileAtomically(path, writeScenario(scenario).dump(2) + "\n");
}

} // namespace dct::model
