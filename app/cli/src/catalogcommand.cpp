#include "dct/cli/catalogcommand.h"

#include "dct/cli/cli.h"
#include "dct/cli/scenariofile.h"
#include "dct/model/catalog.h"
#include "dct/model/jsonread.h"

#include <CLI/CLI.hpp>
#include <algorithm>
#include <nlohmann/json.hpp>
#include <ostream>
#include <type_traits>

namespace dct::cli {

CatalogCommand::CatalogCommand(CLI::App& app)
{
    m_subcommand = app.add_subcommand("catalog", "List catalog kinds and ids, or show an entry");
    // The kinds from the catalog's one registry (Catalog::forEachShelf), so that none is missed.
    std::string kinds;
    for (const auto& kind : model::Catalog::kinds())
        kinds += (kinds.empty() ? "" : ", ") + kind;
    m_subcommand->add_option("kind", m_kind, "Kind: " + kinds);
    m_subcommand->add_option("id", m_id, "Entry id to show");
}

CLI::App* CatalogCommand::subcommand() const
{
    return m_subcommand;
}

int CatalogCommand::run(const CommandContext& context, std::ostream& out, std::ostream& err)
{
    auto catalog = loadCatalog(context.catalogDirectory, err);
    if (!catalog)
        return ExitUsage;
    const auto kinds = model::Catalog::kinds();
    if (m_kind.empty()) {
        for (const auto& kind : kinds) {
            out << kind << ":";
            for (const auto& id : catalog->ids(kind))
                out << " " << id;
            out << "\n";
        }
        return ExitOk;
    }
    if (std::find(kinds.begin(), kinds.end(), m_kind) == kinds.end()) {
        std::string list;
        for (const auto& kind : kinds)
            list += (list.empty() ? "" : ", ") + kind;
        err << "dctwin-cli: error: unknown catalog kind '" << m_kind << "' (accepted: " << list
            << ")\n";
        return ExitUsage;
    }
    const auto ids = catalog->ids(m_kind);
    if (m_id.empty()) {
        for (const auto& id : ids)
            out << id << "\n";
        return ExitOk;
    }
    auto show = [&](const auto& shelf) -> int {
        auto it = shelf.entries.find(m_id);
        if (it == shelf.entries.end()) {
            std::string list;
            for (const auto& id : ids)
                list += (list.empty() ? "" : ", ") + id;
            err << "dctwin-cli: error: no " << m_kind << " with id '" << m_id
                << "' (accepted: " << list << ")\n";
            return ExitUsage;
        }
        out << model::jsonText(model::writeCatalogEntry(it->second)) << "\n";
        return ExitOk;
    };
    int code = ExitUsage;
    catalog->forEachShelf([&](const auto& shelf) {
        if (m_kind == std::decay_t<decltype(shelf)>::Entry::kind)
            code = show(shelf);
    });
    return code;
}

} // namespace dct::cli
