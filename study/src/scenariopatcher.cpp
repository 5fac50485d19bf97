#include "dct/study/scenariopatcher.h"

#include "dct/model/resolver.h"

#include <algorithm>
#include <cmath>

namespace dct::study {

using model::ResolvedScenario;
using nlohmann::json;

namespace {

std::vector<std::string> splitPointer(const std::string& pointer)
{
    std::vector<std::string> tokens;
    std::size_t start = 1;
    while (start <= pointer.size()) {
        const std::size_t end = std::min(pointer.find('/', start), pointer.size());
        std::string token = pointer.substr(start, end - start);
        std::string unescaped;
        for (std::size_t i = 0; i < token.size(); ++i) {
            if (token[i] == '~' && i + 1 < token.size()) {
                unescaped += token[i + 1] == '1' ? '/' : '~';
                ++i;
            } else {
                unescaped += token[i];
            }
        }
        tokens.push_back(unescaped);
        start = end + 1;
    }
    return tokens;
}

} // namespace

Result<ScenarioPatcher> ScenarioPatcher::compile(const std::string& pointer,
                                                 const std::string& file,
                                                 const std::string& specPath)
{
    ScenarioPatcher p;
    p.m_pointer = pointer;
    p.m_file = file;
    const auto tokens = splitPointer(pointer);
    auto fail = [&](const std::string& message, const std::string& accepted) {
        return makeError(file, specPath, "cannot sweep " + pointer + ": " + message, accepted);
    };
    const std::string sections = "/site, /compute, /network, /storage, /facility, /cooling, "
                                 "/workload or /economics followed by a field key";

    // Binds a plain field of table \a table reached through \a access.
    auto bindPlain = [&](const auto& table, const std::string& key, auto access,
                         bool allowReference) -> Result<void> {
        const auto* field = model::findField(table, key);
        if (!field)
            return fail("no field '" + key + "'", "one of " + model::fieldKeys(table));
        using Kind = model::FieldKind;
        if (field->kind == Kind::CatalogRef) {
            if (!allowReference)
                return fail("not a number field", "a number, integer, boolean or enum field");
            p.m_catalogReference = true;
            p.m_setReference = [access, set = field->set](model::Scenario& s, const json& v) {
                ResolvedScenario holder;
                holder.scenario = s;
                std::string problem = set(access(holder), v);
                if (problem.empty())
                    s = holder.scenario;
                return problem;
            };
            return {};
        }
        if (field->kind == Kind::String || field->kind == Kind::Custom || !field->setNumber)
            return fail("a text or structured field cannot be swept",
                        "a number, integer, boolean, enum or catalog reference field");
        p.m_integer = field->kind == Kind::Integer;
        if (field->kind == Kind::Boolean)
            p.m_choices = {"false", "true"};
        if (field->kind == Kind::Enum)
            p.m_choices = field->choices;
        if (field->minimum)
            p.m_minimum = *field->minimum;
        if (field->maximum)
            p.m_maximum = *field->maximum;
        p.m_exclusiveMinimum = field->exclusiveMinimum;
        p.m_zeroAllowed = field->zeroAllowed;
        p.m_rangeText = field->kind == Kind::Enum ? "one of " + model::choiceText(field->choices)
                                                  : field->rangeText();
        p.m_set = [access, set = field->setNumber](ResolvedScenario& r, double v) {
            set(access(r), v);
        };
        return {};
    };
    // Binds a field of the catalog entry in use, e.g. /compute/gpu/tdp_w.
    auto bindEntry = [&](const auto& table, const std::string& key, auto access) {
        return bindPlain(table, key, access, false);
    };

    Result<void> bound;
    if (tokens.empty() || pointer.empty() || pointer[0] != '/') {
        return fail("not a JSON pointer", sections);
    } else if (tokens[0] == "site") {
        if (tokens.size() == 1) {
            p.m_catalogReference = true;
            p.m_setReference = [](model::Scenario& s, const json& v) -> std::string {
                if (!v.is_string() || v.get<std::string>().empty())
                    return "a site catalog id as a string";
                s.site = model::CatalogRef{v.get<std::string>(), json::object()};
                return {};
            };
            return p;
        }
        if (tokens.size() != 2)
            return fail("too deep", "/site or /site/<field>");
        bound = bindEntry(model::SiteSpec::fields(), tokens[1],
                          [](ResolvedScenario& r) -> model::SiteSpec& { return r.site; });
    } else if (tokens.size() == 2 || tokens.size() == 3) {
        const std::string& section = tokens[0];
        const std::string& key = tokens[1];
        const bool entry = tokens.size() == 3;
        if (entry) {
            const std::string& sub = tokens[2];
            if (section == "compute" && key == "node")
                bound = bindEntry(
                    model::NodeSpec::fields(), sub,
                    [](ResolvedScenario & r) -> auto& { return r.node; });
            else if (section == "compute" && key == "gpu")
                bound = bindEntry(
                    model::GpuSpec::fields(), sub,
                    [](ResolvedScenario & r) -> auto& { return r.gpu; });
            else if (section == "network" && key == "nic")
                bound = bindEntry(
                    model::NicSpec::fields(), sub,
                    [](ResolvedScenario & r) -> auto& { return r.nic; });
            else if (section == "network" && key == "switch")
                bound = bindEntry(
                    model::SwitchSpec::fields(), sub,
                    [](ResolvedScenario & r) -> auto& { return r.fabricSwitch; });
            else if (section == "cooling" && key == "system")
                bound = bindEntry(
                    model::CoolingSystemSpec::fields(), sub,
                    [](ResolvedScenario & r) -> auto& { return r.cooling; });
            else if (section == "economics" && key == "egress_pricing")
                bound = bindEntry(
                    model::EgressPricing::fields(), sub,
                    [](ResolvedScenario & r) -> auto& { return r.egressPricing; });
            else if (section == "economics" && key == "unmetered_port")
                bound = bindEntry(
                    model::PortOffer::fields(), sub,
                    [](ResolvedScenario & r) -> auto& { return r.unmeteredPort; });
            else
                return fail("'" + key + "' of '" + section + "' is not a catalog entry",
                            "/compute/node, /compute/gpu, /network/nic, /network/switch, "
                            "/cooling/system, /economics/egress_pricing or "
                            "/economics/unmetered_port followed by a field key");
        } else if (model::isSectionKey(section)) {
            model::forEachSection([&](const model::SectionInfo& info, auto member) {
                using S = std::decay_t<decltype(model::Scenario{}.*member)>;
                if (section == info.key)
                    bound = bindPlain(
                        S::fields(), key,
                        [member](ResolvedScenario& r) -> S& { return r.scenario.*member; }, true);
            });
        } else {
            return fail("unknown section '" + section + "'", sections);
        }
    } else {
        return fail("not a field", sections);
    }
    if (!bound)
        return tl::unexpected(bound.error());
    return p;
}

Result<double> ScenarioPatcher::toNumber(const json& value, const std::string& valuePath) const
{
    auto fail = [&](const std::string& accepted) {
        return makeError(m_file, valuePath, "invalid value " + value.dump() + " for " + m_pointer,
                         accepted);
    };
    if (m_catalogReference)
        return fail("a catalog id (string); catalog references are resolved, not set by number");
    if (!m_choices.empty()) {
        if (value.is_boolean() && m_choices.size() == 2 && m_choices[0] == "false")
            return value.get<bool>() ? 1.0 : 0.0;
        if (value.is_string()) {
            const auto it = std::find(m_choices.begin(), m_choices.end(), value.get<std::string>());
            if (it != m_choices.end())
                return static_cast<double>(it - m_choices.begin());
        }
        return fail(m_choices[0] == "false" ? "true or false" : m_rangeText);
    }
    if (!value.is_number())
        return fail(m_rangeText);
    const double v = value.get<double>();
    const bool lowOk =
        (m_zeroAllowed && v == 0.0) || (m_exclusiveMinimum ? v > m_minimum : v >= m_minimum);
    if (!lowOk || v > m_maximum || !std::isfinite(v) || (m_integer && std::floor(v) != v))
        return fail(m_rangeText);
    return v;
}

std::string ScenarioPatcher::setReference(model::Scenario& scenario, const json& value) const
{
    if (!m_setReference)
        return "a number";
    return m_setReference(scenario, value);
}

void ScenarioPatcher::updateDerived(ResolvedScenario& r)
{
    model::applyDerivedRules(r);
}

} // namespace dct::study
