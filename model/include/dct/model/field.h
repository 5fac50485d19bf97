#pragma once

#include "dct/model/diagnostics.h"

#include <cmath>
#include <functional>
#include <limits>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace dct::model {

/** The JSON type a field accepts. */
enum class FieldKind
{
    Number,
    Integer,
    Boolean,
    String,
    Enum,
    CatalogRef,
    Custom
};

/** What the 0 of a number field that accepts it besides its range stands for. */
enum class ZeroMeaning
{
    None,      ///< Nothing of the kind ("0 when the GPU has none").
    Automatic, ///< A value derived from the rest ("0 takes the rack width").
    Predicted, ///< The model predicts it ("0 predicts the MFU").
    Unchecked  ///< No limit is checked ("0 leaves it unchecked").
};

/**
 * Describes one JSON key of a struct: its type, unit, range and meaning, and how to read it from
 * and write it to JSON. One table of fields per struct drives parsing, writing, the JSON Schema,
 * overrides of catalog entries, sweeps over JSON pointers and the desktop form editor alike.
 */
template <class S> struct Field
{
    std::string key;
    FieldKind kind = FieldKind::Number;
    std::string unit;
    std::string description;
    std::optional<double> minimum;
    std::optional<double> maximum;
    bool exclusiveMinimum = false;
    bool zeroAllowed = false;                  ///< 0 is accepted besides the range (see zeroMeans).
    ZeroMeaning zeroMeans = ZeroMeaning::None; ///< What a zeroAllowed field's 0 stands for.
    std::vector<std::string> choices;          ///< Accepted strings of an Enum field.
    std::string catalogKind; ///< Catalog kind of a CatalogRef field ("gpu", "node", ...).
    nlohmann::json schema;   ///< JSON Schema fragment of a Custom field.
    bool required = false;   ///< Must be present in the JSON object.
    /** Returns the field's value as JSON. */
    std::function<nlohmann::json(const S&)> get;
    /** Sets the field from JSON; returns "" on success or a description of what is accepted. */
    std::function<std::string(S&, const nlohmann::json&)> set;
    /** Returns the field's value as a number (Number, Integer, Boolean, Enum index). */
    std::function<double(const S&)> number;
    /** Sets the field from a number without checks, for fast sweeps. */
    std::function<void(S&, double)> setNumber;

    /** Returns "" when \a value is inside the field's range, else what is accepted. */
    std::string checkRange(double value) const
    {
        if (zeroAllowed && value == 0.0)
            return {};
        const bool lowOk = !minimum || (exclusiveMinimum ? value > *minimum : value >= *minimum);
        const bool highOk = !maximum || value <= *maximum;
        if (lowOk && highOk && std::isfinite(value))
            return {};
        return rangeText();
    }

    /** Returns the accepted range as text, e.g. "a number >= 0.01 and <= 1". */
    std::string rangeText() const
    {
        std::string text = zeroAllowed ? "0 or " : "";
        text += kind == FieldKind::Integer ? "an integer" : "a number";
        if (minimum)
            text += (exclusiveMinimum ? " > " : " >= ") + formatBound(*minimum);
        if (minimum && maximum)
            text += " and";
        if (maximum)
            text += " <= " + formatBound(*maximum);
        if (!unit.empty())
            text += " (" + unit + ")";
        return text;
    }

private:
    static std::string formatBound(double v)
    {
        nlohmann::json j = v;
        if (std::floor(v) == v && std::fabs(v) < 1e15)
            j = static_cast<long long>(v);
        return j.dump();
    }
};

template <class S> using FieldTable = std::vector<Field<S>>;

/** Returns the field of \a table named \a key, or nullptr. */
template <class S> const Field<S>* findField(const FieldTable<S>& table, const std::string& key)
{
    for (const auto& f : table)
        if (f.key == key)
            return &f;
    return nullptr;
}

/** Returns the keys of \a table as "a, b, c". */
template <class S> std::string fieldKeys(const FieldTable<S>& table)
{
    std::string keys;
    for (const auto& f : table)
        keys += (keys.empty() ? "" : ", ") + f.key;
    return keys;
}

/** Returns a JSON type name for messages ("a string", "an object", ...). */
std::string jsonTypeName(const nlohmann::json& value);

/** Returns \a choices as "'a', 'b' or 'c'". */
std::string choiceText(const std::vector<std::string>& choices);

/**
 * Reads the keys of the JSON object \a json into \a out through \a table. Unknown keys, wrong
 * types, out-of-range values and missing required keys become errors at \a path. The pointer of
 * every key read is added to \a present when given.
 */
template <class S>
void readFields(const FieldTable<S>& table, const nlohmann::json& json, const std::string& path,
                S& out, Diagnostics& diagnostics, std::set<std::string>* present = nullptr)
{
    if (!json.is_object()) {
        diagnostics.error(path, "expected an object, found " + jsonTypeName(json),
                          "an object with the keys " + fieldKeys(table), "type");
        return;
    }
    for (auto it = json.begin(); it != json.end(); ++it) {
        const std::string fieldPath = path + "/" + it.key();
        const Field<S>* field = findField(table, it.key());
        if (!field) {
            diagnostics.error(fieldPath, "unknown key '" + it.key() + "'",
                              "one of " + fieldKeys(table), "unknown-key");
            continue;
        }
        const std::string problem = field->set(out, it.value());
        if (!problem.empty()) {
            diagnostics.error(fieldPath, "invalid value " + it.value().dump(), problem,
                              it.value().is_number() ? "range" : "type");
            continue;
        }
        if (present)
            present->insert(fieldPath);
    }
    for (const auto& field : table)
        if (field.required && !json.contains(field.key))
            diagnostics.error(path + "/" + field.key, "missing required key '" + field.key + "'",
                              field.description, "missing");
}

/** Writes every field of \a value through \a table into a JSON object. */
template <class S> nlohmann::json writeFields(const FieldTable<S>& table, const S& value)
{
    nlohmann::json json = nlohmann::json::object();
    for (const auto& field : table)
        json[field.key] = field.get(value);
    return json;
}

namespace fields {

/** Returns the JSON setter of a number field bound to \a member, checked against \a range. */
template <class S>
std::function<std::string(S&, const nlohmann::json&)> numberSetter(double S::*member,
                                                                   Field<S> range)
{
    return [member, check = std::move(range)](S& s, const nlohmann::json& j) -> std::string {
        if (!j.is_number())
            return check.rangeText() + ", found " + jsonTypeName(j);
        const double v = j.get<double>();
        std::string problem = check.checkRange(v);
        if (problem.empty())
            s.*member = v;
        return problem;
    };
}

/** A number field bound to \a member. */
template <class S>
Field<S> number(std::string key, double S::*member, std::string unit, std::string description,
                std::optional<double> minimum = std::nullopt,
                std::optional<double> maximum = std::nullopt, bool exclusiveMinimum = false)
{
    Field<S> f;
    f.key = std::move(key);
    f.kind = FieldKind::Number;
    f.unit = std::move(unit);
    f.description = std::move(description);
    f.minimum = minimum;
    f.maximum = maximum;
    f.exclusiveMinimum = exclusiveMinimum;
    f.get = [member](const S& s) { return nlohmann::json(s.*member); };
    f.number = [member](const S& s) { return s.*member; };
    f.setNumber = [member](S& s, double v) { s.*member = v; };
    f.set = numberSetter(member, f);
    return f;
}

/**
 * A number field bound to \a member that is either 0, standing for \a zeroMeans ("none": an
 * A100 has no FP8 peak; "automatic": a derived value; "predicted"; "unchecked"), or inside
 * [\a minimum, \a maximum].
 */
template <class S>
Field<S> numberOrZero(std::string key, double S::*member, std::string unit, std::string description,
                      double minimum, double maximum, ZeroMeaning zeroMeans = ZeroMeaning::None)
{
    Field<S> f = number<S>(std::move(key), member, std::move(unit), std::move(description), minimum,
                           maximum);
    f.zeroAllowed = true;
    f.zeroMeans = zeroMeans;
    f.set = numberSetter(member, f);
    return f;
}

/** An integer field bound to \a member. */
template <class S>
Field<S> integer(std::string key, int S::*member, std::string unit, std::string description,
                 std::optional<double> minimum = std::nullopt,
                 std::optional<double> maximum = std::nullopt)
{
    Field<S> f;
    f.key = std::move(key);
    f.kind = FieldKind::Integer;
    f.unit = std::move(unit);
    f.description = std::move(description);
    f.minimum = minimum;
    f.maximum = maximum;
    f.get = [member](const S& s) { return nlohmann::json(s.*member); };
    f.number = [member](const S& s) { return static_cast<double>(s.*member); };
    f.setNumber = [member](S& s, double v) { s.*member = static_cast<int>(std::lround(v)); };
    f.set = [member, check = f](S& s, const nlohmann::json& j) -> std::string {
        const bool integral =
            j.is_number_integer() ||
            (j.is_number_float() && std::floor(j.get<double>()) == j.get<double>());
        if (!integral)
            return check.rangeText() + ", found " + jsonTypeName(j);
        const double v = j.get<double>();
        if (std::fabs(v) > 2.0e9)
            return check.rangeText();
        std::string problem = check.checkRange(v);
        if (problem.empty())
            s.*member = static_cast<int>(v);
        return problem;
    };
    return f;
}

/** A boolean field bound to \a member. */
template <class S> Field<S> boolean(std::string key, bool S::*member, std::string description)
{
    Field<S> f;
    f.key = std::move(key);
    f.kind = FieldKind::Boolean;
    f.description = std::move(description);
    f.get = [member](const S& s) { return nlohmann::json(s.*member); };
    f.number = [member](const S& s) { return s.*member ? 1.0 : 0.0; };
    f.setNumber = [member](S& s, double v) { s.*member = v != 0.0; };
    f.set = [member](S& s, const nlohmann::json& j) -> std::string {
        if (!j.is_boolean())
            return "true or false, found " + jsonTypeName(j);
        s.*member = j.get<bool>();
        return {};
    };
    return f;
}

/** A free-text field bound to \a member. */
template <class S>
Field<S> text(std::string key, std::string S::*member, std::string description,
              bool required = false)
{
    Field<S> f;
    f.key = std::move(key);
    f.kind = FieldKind::String;
    f.description = std::move(description);
    f.required = required;
    f.get = [member](const S& s) { return nlohmann::json(s.*member); };
    f.set = [member](S& s, const nlohmann::json& j) -> std::string {
        if (!j.is_string())
            return "a string, found " + jsonTypeName(j);
        s.*member = j.get<std::string>();
        return {};
    };
    return f;
}

/** An enumeration field: \a member holds one of the values named in \a names. */
template <class S, class E>
Field<S> choice(std::string key, E S::*member, std::vector<std::pair<E, std::string>> names,
                std::string description)
{
    Field<S> f;
    f.key = std::move(key);
    f.kind = FieldKind::Enum;
    f.description = std::move(description);
    for (const auto& n : names)
        f.choices.push_back(n.second);
    f.get = [member, names](const S& s) {
        for (const auto& n : names)
            if (n.first == s.*member)
                return nlohmann::json(n.second);
        return nlohmann::json(nullptr);
    };
    f.number = [member, names](const S& s) {
        for (std::size_t i = 0; i < names.size(); ++i)
            if (names[i].first == s.*member)
                return static_cast<double>(i);
        return -1.0;
    };
    f.setNumber = [member, names](S& s, double v) {
        const auto i = static_cast<std::size_t>(std::lround(v));
        if (i < names.size())
            s.*member = names[i].first;
    };
    f.set = [member, names, text = choiceText(f.choices)](S& s,
                                                          const nlohmann::json& j) -> std::string {
        if (j.is_string())
            for (const auto& n : names)
                if (n.second == j.get<std::string>()) {
                    s.*member = n.first;
                    return {};
                }
        return "one of " + text;
    };
    return f;
}

/** A field with its own reader and writer, e.g. an array of objects. */
template <class S>
Field<S> custom(std::string key, std::string description, nlohmann::json schema,
                std::function<nlohmann::json(const S&)> get,
                std::function<std::string(S&, const nlohmann::json&)> set)
{
    Field<S> f;
    f.key = std::move(key);
    f.kind = FieldKind::Custom;
    f.description = std::move(description);
    f.schema = std::move(schema);
    f.get = std::move(get);
    f.set = std::move(set);
    return f;
}

} // namespace fields
} // namespace dct::model
