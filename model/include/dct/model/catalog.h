#pragma once

#include "dct/model/cablespec.h"
#include "dct/model/coolingsystemspec.h"
#include "dct/model/diagnostics.h"
#include "dct/model/egresspricing.h"
#include "dct/model/error.h"
#include "dct/model/failureratespec.h"
#include "dct/model/gpuspec.h"
#include "dct/model/modelspec.h"
#include "dct/model/nicspec.h"
#include "dct/model/nodespec.h"
#include "dct/model/plantunitspec.h"
#include "dct/model/portoffer.h"
#include "dct/model/sitespec.h"
#include "dct/model/switchspec.h"

#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace dct::model {

/** One kind of catalog entry, keyed by id, keeping each entry's JSON for overrides. */
template <class T> struct CatalogShelf
{
    using Entry = T;
    std::map<std::string, T> entries;
    std::map<std::string, nlohmann::json> json; ///< Entry as read, for applying overrides.
    std::string file;                           ///< The file the entries came from.
};

/**
 * The hardware, site and price catalog read from data/catalog/: GPUs, nodes, NICs, switches,
 * cables and optics, cooling systems, sites, egress price tables, unmetered ports, model
 * architectures, component failure rates and facility plant units.
 */
class Catalog
{
public:
    /** Reads every catalog file in \a directory; the first problem is returned as an Error. */
    static Result<Catalog> load(const std::filesystem::path& directory);
    /** Returns the catalog folder: dataDirectory() / "catalog". */
    static std::filesystem::path defaultDirectory();
    /** Returns the data folder (holding catalog/, examples/ and schema/), the first of:
     *  $DCT_DATA_DIR; <folder of the running program>/../share/dctwin (an installed program,
     *  found through /proc/self/exe) when it holds catalog/; the source tree's data folder. */
    static std::filesystem::path dataDirectory();

    const CatalogShelf<GpuSpec>& gpus() const { return m_gpus; }
    const CatalogShelf<NodeSpec>& nodes() const { return m_nodes; }
    const CatalogShelf<NicSpec>& nics() const { return m_nics; }
    const CatalogShelf<SwitchSpec>& switches() const { return m_switches; }
    const CatalogShelf<CableSpec>& cables() const { return m_cables; }
    const CatalogShelf<CoolingSystemSpec>& coolingSystems() const { return m_cooling; }
    const CatalogShelf<SiteSpec>& sites() const { return m_sites; }
    const CatalogShelf<EgressPricing>& egressPricing() const { return m_egress; }
    const CatalogShelf<PortOffer>& ports() const { return m_ports; }
    const CatalogShelf<ModelSpec>& models() const { return m_models; }
    const CatalogShelf<FailureRateSpec>& failureRates() const { return m_failures; }
    const CatalogShelf<PlantUnitSpec>& plantUnits() const { return m_plant; }

    /** Returns the ids of catalog kind \a kind ("gpu", "node", ...), empty for an unknown kind. */
    std::vector<std::string> ids(const std::string& kind) const;
    /** Returns the kinds this catalog knows. */
    static std::vector<std::string> kinds();

    /** Returns the shelf of entries of type T. */
    template <class T> const CatalogShelf<T>& shelf() const;

    /**
     * Calls \a visit(shelf) for every kind in the catalog's order: the one registry of catalog
     * kinds (a shelf's kind is CatalogShelf::Entry::kind), read by load, kinds(), ids() and the
     * CLI's catalog command.
     */
    template <class F> void forEachShelf(F&& visit) const
    {
        visitShelves(*this, [&](const char*, const auto& shelf) { visit(shelf); });
    }

private:
    /** Calls \a visit(fileName, shelf) for every kind of \a self, const or not. */
    template <class Self, class F> static void visitShelves(Self& self, F&& visit)
    {
        visit("gpus.json", self.m_gpus);
        visit("nodes.json", self.m_nodes);
        visit("nics.json", self.m_nics);
        visit("switches.json", self.m_switches);
        visit("cables.json", self.m_cables);
        visit("cooling.json", self.m_cooling);
        visit("sites.json", self.m_sites);
        visit("egress.json", self.m_egress);
        visit("ports.json", self.m_ports);
        visit("models.json", self.m_models);
        visit("failures.json", self.m_failures);
        visit("plant.json", self.m_plant);
    }

    CatalogShelf<GpuSpec> m_gpus;
    CatalogShelf<NodeSpec> m_nodes;
    CatalogShelf<NicSpec> m_nics;
    CatalogShelf<SwitchSpec> m_switches;
    CatalogShelf<CableSpec> m_cables;
    CatalogShelf<CoolingSystemSpec> m_cooling;
    CatalogShelf<SiteSpec> m_sites;
    CatalogShelf<EgressPricing> m_egress;
    CatalogShelf<PortOffer> m_ports;
    CatalogShelf<ModelSpec> m_models;
    CatalogShelf<FailureRateSpec> m_failures;
    CatalogShelf<PlantUnitSpec> m_plant;
};

template <> const CatalogShelf<GpuSpec>& Catalog::shelf<GpuSpec>() const;
template <> const CatalogShelf<NodeSpec>& Catalog::shelf<NodeSpec>() const;
template <> const CatalogShelf<NicSpec>& Catalog::shelf<NicSpec>() const;
template <> const CatalogShelf<SwitchSpec>& Catalog::shelf<SwitchSpec>() const;
template <> const CatalogShelf<CableSpec>& Catalog::shelf<CableSpec>() const;
template <> const CatalogShelf<CoolingSystemSpec>& Catalog::shelf<CoolingSystemSpec>() const;
template <> const CatalogShelf<SiteSpec>& Catalog::shelf<SiteSpec>() const;
template <> const CatalogShelf<EgressPricing>& Catalog::shelf<EgressPricing>() const;
template <> const CatalogShelf<PortOffer>& Catalog::shelf<PortOffer>() const;
template <> const CatalogShelf<ModelSpec>& Catalog::shelf<ModelSpec>() const;
template <> const CatalogShelf<FailureRateSpec>& Catalog::shelf<FailureRateSpec>() const;
template <> const CatalogShelf<PlantUnitSpec>& Catalog::shelf<PlantUnitSpec>() const;

/** Reads one catalog entry of type T from \a json; problems go to \a diagnostics at \a path. */
template <class T>
T readCatalogEntry(const nlohmann::json& json, const std::string& path, Diagnostics& diagnostics);

/** Writes one catalog entry of type T as JSON (id, name, source, sources, notes and fields). */
template <class T> nlohmann::json writeCatalogEntry(const T& entry);

} // namespace dct::model
