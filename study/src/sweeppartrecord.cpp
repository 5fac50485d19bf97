#include "dct/study/sweeppartrecord.h"

#include "dct/model/atomicfile.h"

#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

namespace dct::study {

namespace {

/** The record's format, so that a later layout can be told apart. */
constexpr int recordVersion = 1;
/** A record is a few kB (one entry per column); anything far larger is not one. */
constexpr std::uintmax_t maxRecordBytes = 16u << 20;

} // namespace

std::filesystem::path SweepPartRecord::pathFor(const std::filesystem::path& output)
{
    std::filesystem::path record = output;
    record += ".shard.json";
    return record;
}

std::string SweepPartRecord::toJson() const
{
    nlohmann::ordered_json j;
    j["dctwin_sweep_part"] = recordVersion;
    j["spec_hash"] = specHash;
    j["shard"] = shard.toString();
    j["variants"] = variants;
    j["first_variant"] = firstVariant;
    j["end_variant"] = endVariant;
    j["format"] = format == SweepFormat::Jsonl ? "jsonl" : "csv";
    j["precision"] = std::string(precisionName(precision));
    j["rows"] = rows;
    j["bytes"] = bytes;
    j["checksum"] = checksum;
    // One column a line: the record stays short and reads well.
    std::string text = j.dump(1);
    text.pop_back(); // the closing brace
    text += ",\n \"columns\": [";
    for (std::size_t i = 0; i < columns.size(); ++i) {
        const nlohmann::ordered_json column = {{"name", columns[i].name},
                                               {"role", std::string(roleName(columns[i].role))},
                                               {"type", std::string(typeName(columns[i].type))}};
        text += (i ? ",\n  " : "\n  ") + column.dump();
    }
    return text + "\n ]\n}\n";
}

Result<SweepPartRecord> SweepPartRecord::fromJson(const std::string& text, const std::string& file)
{
    auto bad = [&](const std::string& path, const std::string& what) {
        return makeError(file, path, what, "the record that dctwin-cli sweep -o writes");
    };
    // A record is two levels deep: deeper nesting is discarded as it is read (no deep copy).
    const auto shallow = [](int depth, nlohmann::json::parse_event_t, nlohmann::json&) {
        return depth <= 3;
    };
    const nlohmann::json j = nlohmann::json::parse(text, shallow, false);
    if (j.is_discarded() || !j.is_object())
        return bad("", "not a sweep part record (invalid JSON)");
    if (!j.contains("dctwin_sweep_part") || j["dctwin_sweep_part"] != recordVersion)
        return bad("/dctwin_sweep_part", "not a sweep part record of version 1");
    auto string = [&](const char* key) -> Result<std::string> {
        if (!j.contains(key) || !j[key].is_string())
            return bad(std::string("/") + key, std::string("missing the text '") + key + "'");
        return j[key].get<std::string>();
    };
    auto count = [&](const char* key) -> Result<std::uint64_t> {
        if (!j.contains(key) || !j[key].is_number_unsigned())
            return bad(std::string("/") + key, std::string("missing the count '") + key + "'");
        return j[key].get<std::uint64_t>();
    };
    SweepPartRecord r;
    auto hash = string("spec_hash");
    auto shardText = string("shard");
    auto format = string("format");
    auto checksum = string("checksum");
    auto variants = count("variants");
    auto first = count("first_variant");
    auto end = count("end_variant");
    auto rows = count("rows");
    auto bytes = count("bytes");
    for (const auto* e : {&hash, &shardText, &format, &checksum})
        if (!*e)
            return tl::unexpected(e->error());
    for (const auto* e : {&variants, &first, &end, &rows, &bytes})
        if (!*e)
            return tl::unexpected(e->error());
    auto shard = SweepShard::parse(*shardText);
    if (!shard)
        return bad("/shard", "invalid shard '" + *shardText + "'");
    if (*format != "csv" && *format != "jsonl")
        return bad("/format", "unknown format '" + *format + "'");
    if (*first > *end || *end > *variants || *rows > *end - *first)
        return bad("/rows", "the variant range and the row count disagree");
    r.specHash = *hash;
    r.shard = *shard;
    r.variants = *variants;
    r.firstVariant = *first;
    r.endVariant = *end;
    r.format = *format == "jsonl" ? SweepFormat::Jsonl : SweepFormat::Csv;
    if (j.contains("precision")) {
        const auto& precision = j["precision"];
        const auto named = precision.is_string() ? precisionNamed(precision.get<std::string>())
                                                 : std::optional<SweepPrecision>();
        if (!named)
            return bad("/precision", "unknown precision (display or full)");
        if (r.format == SweepFormat::Jsonl && *named != SweepPrecision::Full)
            return bad("/precision", "JSON lines keep every digit (precision full)");
        r.precision = *named;
    }
    r.rows = *rows;
    r.bytes = *bytes;
    r.checksum = *checksum;
    if (!j.contains("columns") || !j["columns"].is_array() || j["columns"].empty())
        return bad("/columns", "missing the columns");
    for (std::size_t i = 0; i < j["columns"].size(); ++i) {
        const auto& c = j["columns"][i];
        const std::string path = "/columns/" + std::to_string(i);
        if (!c.is_object() || !c.contains("name") || !c["name"].is_string() ||
            !c.contains("role") || !c["role"].is_string() || !c.contains("type") ||
            !c["type"].is_string())
            return bad(path, "a column needs a name, a role and a type");
        const auto role = roleNamed(c["role"].get<std::string>());
        const auto type = typeNamed(c["type"].get<std::string>());
        if (!role || !type)
            return bad(path, "unknown column role or type");
        SweepColumn column;
        column.name = c["name"].get<std::string>();
        column.role = *role;
        column.type = *type;
        column.source = i;
        r.columns.push_back(std::move(column));
    }
    return r;
}

Result<void> SweepPartRecord::writeBeside(const std::filesystem::path& output) const
{
    return writeFileAtomically(pathFor(output), toJson());
}

Result<SweepPartRecord> SweepPartRecord::readBeside(const std::filesystem::path& output)
{
    const std::filesystem::path path = pathFor(output);
    const std::string file = path.string();
    std::error_code ec;
    if (!std::filesystem::is_regular_file(path, ec))
        return makeError(output.string(), "",
                         "no part record " + file +
                             " beside it, so it cannot be checked as a shard of a sweep",
                         "outputs of dctwin-cli sweep -o FILE (it writes FILE.shard.json)");
    if (std::filesystem::file_size(path, ec) > maxRecordBytes)
        return makeError(file, "", "too large for a sweep part record",
                         "the record that dctwin-cli sweep -o writes");
    std::ifstream in(path, std::ios::binary);
    std::stringstream text;
    text << in.rdbuf();
    if (!in)
        return makeError(file, "", "cannot read the part record", "a readable file");
    return fromJson(text.str(), file);
}

} // namespace dct::study
