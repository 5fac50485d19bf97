#include "dct/model/resolver.h"

namespace dct::model {

using nlohmann::json;

namespace {

std::string idList(const std::vector<std::string>& ids)
{
    std::string text;
    for (const auto& id : ids)
        text += (text.empty() ? "" : ", ") + id;
    return text.empty() ? "(the catalog has none)" : text;
}

class Resolver
{
public:
    Resolver(const Catalog& catalog, std::string file, ResolvedScenario& out, Diagnostics& d)
        : m_catalog(catalog), m_file(std::move(file)), m_out(out), m_diagnostics(d)
    {}

    /** Looks up \a ref in the catalog, applies its overrides and records provenance. */
    template <class T> bool entry(const CatalogRef& ref, const std::string& path, T& value)
    {
        const auto& shelf = m_catalog.shelf<T>();
        auto it = shelf.entries.find(ref.id);
        if (it == shelf.entries.end()) {
            m_diagnostics.error(
                path, std::string("no ") + T::kind + " with id '" + ref.id + "' in the catalog",
                "one of " + idList(m_catalog.ids(T::kind)), "unknown-id");
            return false;
        }
        value = it->second;
        std::set<std::string> overridden;
        if (!ref.overrides.empty())
            readFields(T::fields(), ref.overrides, path, value, m_diagnostics, &overridden);
        for (const auto& field : T::fields()) {
            const std::string fieldPath = path + "/" + field.key;
            if (overridden.count(fieldPath))
                m_out.provenance[fieldPath] = {Provenance::Origin::User,
                                               userSource() + " (override of " + T::kind + " '" +
                                                   ref.id + "')"};
            else
                m_out.provenance[fieldPath] = {Provenance::Origin::Catalog,
                                               std::string("catalog ") + T::kind + " '" + ref.id +
                                                   "': " + value.sourceOf(field.key)};
        }
        return true;
    }

    /** Records the provenance of every field of a scenario section. */
    template <class S> void section(const std::string& path, const std::set<std::string>& present)
    {
        for (const auto& field : S::fields()) {
            if (field.kind == FieldKind::CatalogRef)
                continue;
            const std::string fieldPath = path + "/" + field.key;
            if (present.count(fieldPath))
                m_out.provenance[fieldPath] = {Provenance::Origin::User, userSource()};
            else
                m_out.provenance[fieldPath] = {Provenance::Origin::Default,
                                               "default: " + field.description};
        }
    }

private:
    std::string userSource() const { return m_file.empty() ? "scenario" : m_file; }

    const Catalog& m_catalog;
    std::string m_file;
    ResolvedScenario& m_out;
    Diagnostics& m_diagnostics;
};

} // namespace

ResolveResult resolveScenario(const Scenario& scenario, const Catalog& catalog,
                              const std::string& file)
{
    ResolveResult result;
    ResolvedScenario r;
    r.scenario = scenario;
    Diagnostics& d = result.diagnostics;
    Resolver resolver(catalog, file, r, d);

    bool ok = true;
    ok &= resolver.entry(scenario.site, "/site", r.site);
    const bool nodeOk = resolver.entry(scenario.compute.node, "/compute/node", r.node);
    ok &= nodeOk;
    if (nodeOk || !scenario.compute.gpu.empty()) {
        CatalogRef gpu = scenario.compute.gpu;
        if (gpu.empty())
            gpu.id = r.node.gpu;
        ok &= resolver.entry(gpu, "/compute/gpu", r.gpu);
    }
    if (nodeOk || !scenario.network.nic.empty()) {
        CatalogRef nic = scenario.network.nic;
        if (nic.empty())
            nic.id = r.node.nic;
        ok &= resolver.entry(nic, "/network/nic", r.nic);
    }
    ok &= resolver.entry(scenario.network.fabricSwitch, "/network/switch", r.fabricSwitch);
    ok &= resolver.entry(scenario.cooling.system, "/cooling/system", r.cooling);
    if (!scenario.economics.egressPricing.empty()) {
        r.hasEgressPricing = resolver.entry(scenario.economics.egressPricing,
                                            "/economics/egress_pricing", r.egressPricing);
        ok &= r.hasEgressPricing;
    }
    if (!scenario.economics.unmeteredPort.empty()) {
        r.hasUnmeteredPort = resolver.entry(scenario.economics.unmeteredPort,
                                            "/economics/unmetered_port", r.unmeteredPort);
        ok &= r.hasUnmeteredPort;
    }
    if (!scenario.workload.model.empty()) {
        r.modelSynthesized = false;
        ok &= resolver.entry(scenario.workload.model, "/workload/model", r.model);
    }
    for (const auto& [id, cable] : catalog.cables().entries)
        r.cables.push_back(cable);
    for (const auto& [id, system] : catalog.coolingSystems().entries)
        r.coolingOptions.push_back(system);
    for (const auto& [id, port] : catalog.ports().entries)
        r.portOffers.push_back(port);
    for (const auto& [id, rate] : catalog.failureRates().entries)
        r.failureRates.push_back(rate);
    for (const auto& [id, unit] : catalog.plantUnits().entries)
        r.plantUnits.push_back(unit);

    forEachSection([&](const SectionInfo& info, auto member) {
        using S = std::decay_t<decltype(Scenario{}.*member)>;
        resolver.template section<S>(std::string("/") + info.key, scenario.present);
    });
    applyDerivedRules(r);
    if (r.modelSynthesized)
        for (const auto& field : ModelSpec::fields())
            r.provenance["/workload/model/" + field.key] = {
                Provenance::Origin::Default,
                "synthesized from /workload/parameters_billion: " + r.model.source};

    d.setFile(file);
    if (ok && !d.hasErrors())
        result.resolved = std::move(r);
    return result;
}

void applyDerivedRules(ResolvedScenario& r)
{
    const Scenario& s = r.scenario;
    r.gpusPerNode = s.compute.gpusPerNode > 0 ? s.compute.gpusPerNode : r.node.gpusPerNode;
    r.rails = s.network.rails > 0 ? s.network.rails : r.node.computeNics;
    const auto& w = s.workload;
    // Without a catalog model, a dense one of parameters_billion, its layers a multiple of the
    // pipeline chunks (recomputed here so that sweeps over the size or the layout follow).
    if (r.modelSynthesized) {
        const int chunks = std::max(1, w.pipelineParallel) * std::max(1, w.virtualStages);
        r.model = synthesizeDenseModel(w.parametersBillion, chunks,
                                       w.sequenceLength > 0 ? w.sequenceLength : 4096);
    }
    r.sequenceLength = w.sequenceLength > 0 ? w.sequenceLength : r.model.sequenceLength;
    const long long modelParallel = static_cast<long long>(w.tensorParallel) * w.pipelineParallel *
                                    std::max(1, w.contextParallel);
    r.dataParallel =
        s.workload.dataParallel > 0
            ? s.workload.dataParallel
            : std::max(1, static_cast<int>(r.gpuCount() / std::max<long long>(1, modelParallel)));
    // Port breakout: a port of rate R runs as b logical ports of R / b (an 800G OSFP cage as
    // 2 x 400G, NVIDIA SN5000 user manual "Data Interfaces": SN5600 64 x 800GbE, 128 x 400GbE or
    // 256 x 200GbE). Automatic: split while a logical port still carries the NIC's full rate, as
    // far as the switch allows; an unsplit port faster than the NIC would strand the rest of its
    // bandwidth and half the radix.
    if (s.network.portBreakout > 0) {
        r.portBreakout = s.network.portBreakout;
    } else {
        const int allowed = std::max(1, r.fabricSwitch.maxBreakout);
        int b = 1;
        while (b * 2 <= allowed &&
               r.fabricSwitch.portRateGbps / (b * 2) >= r.nic.rateGbps * (1.0 - 1e-9))
            b *= 2;
        r.portBreakout = b;
    }
}

} // namespace dct::model
