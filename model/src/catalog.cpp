#include "dct/model/catalog.h"

#include "dct/model/jsonread.h"

#include <cstdlib>
#include <fstream>
#include <sstream>

#ifndef DCT_SOURCE_DATA_DIR
#define DCT_SOURCE_DATA_DIR ""
#endif

namespace dct::model {

using nlohmann::json;

template <class T>
T readCatalogEntry(const json& entry, const std::string& path, Diagnostics& diagnostics)
{
    T value;
    if (!entry.is_object()) {
        diagnostics.error(path, "expected an object, found " + jsonTypeName(entry),
                          "an object with \"id\", \"source\" and the fields of a " +
                              std::string(T::kind),
                          "type");
        return value;
    }
    json rest = entry;
    if (!entry.contains("id") || !entry["id"].is_string() || entry["id"].get<std::string>().empty())
        diagnostics.error(path + "/id", "missing or empty 'id'", "a non-empty string", "missing");
    else
        value.id = entry["id"].get<std::string>();
    if (!entry.contains("source") || !entry["source"].is_string() ||
        entry["source"].get<std::string>().empty())
        diagnostics.error(path + "/source", "missing or empty 'source'",
                          "the document, table or URL the numbers come from, or \"assumption: "
                          "...\"",
                          "missing");
    else
        value.source = entry["source"].get<std::string>();
    if (entry.contains("sources")) {
        const json& sources = entry["sources"];
        if (!sources.is_object()) {
            diagnostics.error(path + "/sources", "expected an object", "{\"field\": \"source\"}",
                              "type");
        } else {
            for (auto it = sources.begin(); it != sources.end(); ++it) {
                if (!findField(T::fields(), it.key()))
                    diagnostics.error(path + "/sources/" + it.key(),
                                      "names no field of a " + std::string(T::kind),
                                      "one of " + fieldKeys(T::fields()), "unknown-key");
                else if (!it.value().is_string())
                    diagnostics.error(path + "/sources/" + it.key(), "expected a string",
                                      "a source", "type");
                else
                    value.sources[it.key()] = it.value().get<std::string>();
            }
        }
    }
    if (entry.contains("notes") && entry["notes"].is_string())
        value.notes = entry["notes"].get<std::string>();
    for (const char* key : {"id", "source", "sources", "notes"})
        rest.erase(key);
    readFields(T::fields(), rest, path, value, diagnostics);
    return value;
}

template <class T> json writeCatalogEntry(const T& entry)
{
    json j = writeFields(T::fields(), entry);
    j["id"] = entry.id;
    j["source"] = entry.source;
    if (!entry.sources.empty())
        j["sources"] = entry.sources;
    if (!entry.notes.empty())
        j["notes"] = entry.notes;
    return j;
}

#define DCT_INSTANTIATE(T)                                                                         \
    template T readCatalogEntry<T>(const json&, const std::string&, Diagnostics&);                 \
    template json writeCatalogEntry<T>(const T&);
DCT_INSTANTIATE(GpuSpec)
DCT_INSTANTIATE(NodeSpec)
DCT_INSTANTIATE(NicSpec)
DCT_INSTANTIATE(SwitchSpec)
DCT_INSTANTIATE(CableSpec)
DCT_INSTANTIATE(CoolingSystemSpec)
DCT_INSTANTIATE(SiteSpec)
DCT_INSTANTIATE(EgressPricing)
DCT_INSTANTIATE(PortOffer)
DCT_INSTANTIATE(ModelSpec)
DCT_INSTANTIATE(FailureRateSpec)
DCT_INSTANTIATE(PlantUnitSpec)
#undef DCT_INSTANTIATE

namespace {

template <class T>
Result<void> loadShelf(const std::filesystem::path& directory, const char* fileName,
                       CatalogShelf<T>& shelf)
{
    const std::filesystem::path path = directory / fileName;
    const std::string file = path.string();
    shelf.file = file;
    auto parsed = readJsonFile(path, std::string("a readable ") + fileName +
                                         " in the catalog folder, a JSON object");
    if (!parsed)
        return tl::unexpected(parsed.error().error);
    json document = std::move(*parsed);
    if (!document.is_object() || !document.contains("entries") || !document["entries"].is_array())
        return makeError(file, "/entries", "missing the 'entries' array",
                         std::string("{\"kind\": \"") + T::kind + "\", \"entries\": [...]}");
    if (document.value("kind", std::string()) != T::kind)
        return makeError(file, "/kind", "wrong or missing kind",
                         std::string("\"") + T::kind + "\"");
    const json& entries = document["entries"];
    for (std::size_t i = 0; i < entries.size(); ++i) {
        Diagnostics d;
        const std::string entryPath = "/entries/" + std::to_string(i);
        T entry = readCatalogEntry<T>(entries[i], entryPath, d);
        if (d.hasErrors()) {
            const Diagnostic& first = *std::find_if(
                d.begin(), d.end(), [](const auto& x) { return x.severity == Severity::Error; });
            return makeError(file, first.path, first.message, first.hint);
        }
        if (shelf.entries.count(entry.id))
            return makeError(file, entryPath + "/id", "duplicate id '" + entry.id + "'",
                             "ids unique within their kind");
        shelf.json[entry.id] = entries[i];
        shelf.entries.emplace(entry.id, std::move(entry));
    }
    return {};
}

} // namespace

Result<Catalog> Catalog::load(const std::filesystem::path& directory)
{
    Catalog c;
    Result<void> r;
    visitShelves(c, [&](const char* fileName, auto& shelf) {
        if (r)
            r = loadShelf(directory, fileName, shelf);
    });
    if (!r)
        return tl::unexpected(r.error());
    return c;
}

std::filesystem::path Catalog::dataDirectory()
{
    if (const char* env = std::getenv("DCT_DATA_DIR"); env && *env)
        return env;
    // An installed program: <prefix>/bin/<program> with its data in <prefix>/share/dctwin.
    std::error_code ec;
    const auto exe = std::filesystem::read_symlink("/proc/self/exe", ec);
    if (!ec) {
        const auto installed = exe.parent_path() / ".." / "share" / "dctwin";
        if (std::filesystem::is_directory(installed / "catalog", ec))
            return installed.lexically_normal();
    }
    return DCT_SOURCE_DATA_DIR;
}

std::filesystem::path Catalog::defaultDirectory()
{
    return dataDirectory() / "catalog";
}

std::vector<std::string> Catalog::kinds()
{
    std::vector<std::string> out;
    Catalog().forEachShelf(
        [&](const auto& shelf) { out.push_back(std::decay_t<decltype(shelf)>::Entry::kind); });
    return out;
}

std::vector<std::string> Catalog::ids(const std::string& kind) const
{
    std::vector<std::string> out;
    forEachShelf([&](const auto& shelf) {
        if (kind == std::decay_t<decltype(shelf)>::Entry::kind)
            for (const auto& [id, entry] : shelf.entries)
                out.push_back(id);
    });
    return out;
}

template <> const CatalogShelf<GpuSpec>& Catalog::shelf<GpuSpec>() const
{
    return m_gpus;
}
template <> const CatalogShelf<NodeSpec>& Catalog::shelf<NodeSpec>() const
{
    return m_nodes;
}
template <> const CatalogShelf<NicSpec>& Catalog::shelf<NicSpec>() const
{
    return m_nics;
}
template <> const CatalogShelf<SwitchSpec>& Catalog::shelf<SwitchSpec>() const
{
    return m_switches;
}
template <> const CatalogShelf<CableSpec>& Catalog::shelf<CableSpec>() const
{
    return m_cables;
}
template <> const CatalogShelf<CoolingSystemSpec>& Catalog::shelf<CoolingSystemSpec>() const
{
    return m_cooling;
}
template <> const CatalogShelf<SiteSpec>& Catalog::shelf<SiteSpec>() const
{
    return m_sites;
}
template <> const CatalogShelf<EgressPricing>& Catalog::shelf<EgressPricing>() const
{
    return m_egress;
}
template <> const CatalogShelf<PortOffer>& Catalog::shelf<PortOffer>() const
{
    return m_ports;
}
template <> const CatalogShelf<ModelSpec>& Catalog::shelf<ModelSpec>() const
{
    return m_models;
}
template <> const CatalogShelf<FailureRateSpec>& Catalog::shelf<FailureRateSpec>() const
{
    return m_failures;
}
template <> const CatalogShelf<PlantUnitSpec>& Catalog::shelf<PlantUnitSpec>() const
{
    return m_plant;
}

} // namespace dct::model
