#pragma once

// The numeric inputs of a scenario document, from the field tables: every number and integer
// field of every section, and every number and integer field of the catalog entries a scenario
// names (set as overrides, {"id": ..., "<key>": value}). Shared by the bounds sweep and the
// mutation probe.
#include "dct/model/catalog.h"
#include "dct/model/scenario.h"
#include "dct/solvers/documentevaluation.h"
#include "testsupport.h"

#include <cmath>
#include <fstream>
#include <optional>
#include <string>
#include <vector>

namespace dct::test {

/** One numeric field of a scenario document, with its range from the field table. */
struct NumericInput
{
    std::string pointer;   ///< "/workload/mfu" or "/network/nic/rate_gbps".
    std::string section;   ///< "workload"; "" for the site.
    std::string reference; ///< Catalog reference key ("nic"), or "" for a plain field.
    std::string key;       ///< "mfu", "rate_gbps".
    bool integer = false;
    std::optional<double> minimum;
    std::optional<double> maximum;
    bool exclusiveMinimum = false;
    bool zeroAllowed = false;
};

template <class S>
void addNumericInputs(const model::FieldTable<S>& table, const std::string& section,
                      const std::string& reference, std::vector<NumericInput>& out)
{
    for (const auto& field : table) {
        if (field.kind != model::FieldKind::Number && field.kind != model::FieldKind::Integer)
            continue;
        NumericInput input;
        input.section = section;
        input.reference = reference;
        input.key = field.key;
        input.pointer = (section.empty() ? "" : "/" + section) + "/" +
                        (reference.empty() ? "" : reference + "/") + field.key;
        input.integer = field.kind == model::FieldKind::Integer;
        input.minimum = field.minimum;
        input.maximum = field.maximum;
        input.exclusiveMinimum = field.exclusiveMinimum;
        input.zeroAllowed = field.zeroAllowed;
        out.push_back(input);
    }
}

/** Returns every numeric input: the sections' fields, then the catalog entries' fields. */
inline std::vector<NumericInput> numericInputs()
{
    std::vector<NumericInput> inputs;
    model::forEachSection([&](const model::SectionInfo& info, auto member) {
        using S = std::decay_t<decltype(model::Scenario{}.*member)>;
        addNumericInputs(S::fields(), info.key, "", inputs);
    });
    model::forEachSection([&](const model::SectionInfo& info, auto member) {
        using S = std::decay_t<decltype(model::Scenario{}.*member)>;
        for (const auto& field : S::fields()) {
            if (field.kind != model::FieldKind::CatalogRef)
                continue;
            catalog().forEachShelf([&](const auto& shelf) {
                using Entry = typename std::decay_t<decltype(shelf)>::Entry;
                if (field.catalogKind == Entry::kind)
                    addNumericInputs(Entry::fields(), info.key, field.key, inputs);
            });
        }
    });
    addNumericInputs(model::SiteSpec::fields(), "", "site", inputs);
    return inputs;
}

/** Returns the seed example as JSON. */
inline nlohmann::json seedDocument()
{
    std::ifstream in(dataDir() / "examples" / "seed-h100-dallas-d2c.json");
    return nlohmann::json::parse(in);
}

/** Returns the id of the catalog entry \a document names at section/reference, or "". */
inline std::string referencedId(const nlohmann::json& document, const NumericInput& input)
{
    const nlohmann::json* ref = nullptr;
    if (input.section.empty()) {
        if (document.contains(input.reference))
            ref = &document[input.reference];
    } else if (document.contains(input.section) &&
               document[input.section].contains(input.reference)) {
        ref = &document[input.section][input.reference];
    }
    if (ref && ref->is_string())
        return ref->get<std::string>();
    if (ref && ref->is_object())
        return (*ref)["id"].get<std::string>();
    // Absent: the node type's own GPU or NIC.
    const std::string node = document["compute"]["node"].is_string()
                                 ? document["compute"]["node"].get<std::string>()
                                 : document["compute"]["node"]["id"].get<std::string>();
    const auto& entry = catalog().nodes().entries.at(node);
    if (input.reference == "gpu")
        return entry.gpu;
    if (input.reference == "nic")
        return entry.nic;
    return {};
}

/** Sets \a input to \a value in \a document (as an override when it is a catalog field). */
inline void setInput(nlohmann::json& document, const NumericInput& input, double value)
{
    const nlohmann::json number =
        input.integer && std::fabs(value) < 9e15 && std::floor(value) == value
            ? nlohmann::json(static_cast<long long>(value))
            : nlohmann::json(value);
    if (input.reference.empty()) {
        document[input.section][input.key] = number;
        return;
    }
    nlohmann::json& ref = input.section.empty() ? document[input.reference]
                                                : document[input.section][input.reference];
    if (!ref.is_object())
        ref = nlohmann::json{{"id", referencedId(document, input)}};
    ref[input.key] = number;
}

/** Returns true when some error diagnostic of \a d names \a pointer or a pointer holding it. */
inline bool errorNames(const Diagnostics& diagnostics, const std::string& pointer)
{
    for (const auto& d : diagnostics) {
        if (d.severity != Severity::Error)
            continue;
        if (d.path == pointer || (!d.path.empty() && pointer.rfind(d.path + "/", 0) == 0) ||
            d.message.find(pointer) != std::string::npos ||
            d.hint.find(pointer) != std::string::npos)
            return true;
    }
    return false;
}

/** Returns the keys of the metrics of \a d that are not finite, as "a, b". */
inline std::string nonFiniteMetrics(const solvers::DocumentEvaluation& d)
{
    std::string keys;
    if (d.evaluation)
        for (const auto& m : d.evaluation->metrics)
            if (!std::isfinite(m.value))
                keys += (keys.empty() ? "" : ", ") + m.key;
    return keys;
}

} // namespace dct::test
