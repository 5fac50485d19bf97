#pragma once

#include "dct/model/field.h"
#include "dct/model/textformat.h"

#include <optional>
#include <string>
#include <vector>

namespace dct::ui {

/** One editable scenario field, described without its struct type, addressed by JSON pointer. */
struct FieldInfo
{
    std::string pointer; ///< JSON pointer of the field, e.g. "/compute/node_count".
    std::string key;     ///< JSON key, e.g. "node_count".
    std::string label;   ///< Human label without the unit, e.g. "Node count".
    model::FieldKind kind = model::FieldKind::Number;
    std::string unit;
    std::string description;
    std::optional<double> minimum;
    std::optional<double> maximum;
    bool exclusiveMinimum = false;
    bool zeroAllowed = false; ///< 0 is accepted besides the range ("none", "predicted").
    model::ZeroMeaning zeroMeans = model::ZeroMeaning::None; ///< What that 0 stands for.
    std::vector<std::string> choices;                        ///< Accepted strings of an Enum field.
    std::string catalogKind; ///< Catalog kind of a CatalogRef field.
    bool required = false;
    std::string rangeText; ///< What the table accepts, as text.
};

/** The form's labels are the model's (dct::humanLabel), as in reports. */
using dct::humanLabel;

/** Describes every field of \a table as a FieldInfo below the JSON pointer \a section. */
template <class S>
std::vector<FieldInfo> describeFields(const model::FieldTable<S>& table, const std::string& section)
{
    std::vector<FieldInfo> infos;
    for (const auto& field : table) {
        FieldInfo info;
        info.pointer = section + "/" + field.key;
        info.key = field.key;
        info.label = humanLabel(field.key, field.unit);
        info.kind = field.kind;
        info.unit = field.unit;
        info.description = field.description;
        info.minimum = field.minimum;
        info.maximum = field.maximum;
        info.exclusiveMinimum = field.exclusiveMinimum;
        info.zeroAllowed = field.zeroAllowed;
        info.zeroMeans = field.zeroMeans;
        info.choices = field.choices;
        info.catalogKind = field.catalogKind;
        info.required = field.required;
        if (field.kind == model::FieldKind::Number || field.kind == model::FieldKind::Integer)
            info.rangeText = field.rangeText();
        else if (field.kind == model::FieldKind::Enum)
            info.rangeText = "one of " + model::choiceText(field.choices);
        else if (field.kind == model::FieldKind::CatalogRef)
            info.rangeText = "a " + field.catalogKind + " catalog id";
        infos.push_back(std::move(info));
    }
    return infos;
}

} // namespace dct::ui
