#include "dct/model/schema.h"

#include "dct/model/scenario.h"

namespace dct::model {

using nlohmann::json;

namespace {

template <class S> json fieldSchema(const Field<S>& field)
{
    json p;
    switch (field.kind) {
    case FieldKind::Number:
    case FieldKind::Integer: {
        p["type"] = field.kind == FieldKind::Integer ? "integer" : "number";
        json range = json::object();
        if (field.minimum)
            range[field.exclusiveMinimum ? "exclusiveMinimum" : "minimum"] = *field.minimum;
        if (field.maximum)
            range["maximum"] = *field.maximum;
        if (field.zeroAllowed)
            p["anyOf"] = json::array({json{{"const", 0}}, range});
        else
            p.update(range);
        break;
    }
    case FieldKind::Boolean:
        p["type"] = "boolean";
        break;
    case FieldKind::String:
        p["type"] = "string";
        break;
    case FieldKind::Enum:
        p["enum"] = field.choices;
        break;
    case FieldKind::CatalogRef:
        p["oneOf"] =
            json::array({json{{"type", "string"}, {"minLength", 1}},
                         json{{"type", "object"},
                              {"required", json::array({"id"})},
                              {"properties", {{"id", {{"type", "string"}, {"minLength", 1}}}}}}});
        p["x-catalog-kind"] = field.catalogKind;
        break;
    case FieldKind::Custom:
        p = field.schema;
        break;
    }
    std::string description = field.description;
    if (!field.unit.empty())
        description += " [" + field.unit + "]";
    p["description"] = description;
    return p;
}

template <class S> json sectionSchema(const std::string& description)
{
    json properties = json::object();
    json required = json::array();
    for (const auto& field : S::fields()) {
        properties[field.key] = fieldSchema(field);
        if (field.required)
            required.push_back(field.key);
    }
    json s = {{"type", "object"},
              {"description", description},
              {"additionalProperties", false},
              {"properties", properties}};
    if (!required.empty())
        s["required"] = required;
    return s;
}

} // namespace

json scenarioJsonSchema()
{
    json properties = {
        {"schema_version",
         {{"type", "integer"},
          {"minimum", 1},
          {"maximum", Scenario::currentSchemaVersion},
          {"description", "Version of the scenario format; older versions are migrated"}}},
        {"name", {{"type", "string"}, {"description", "Scenario name"}}},
        {"description", {{"type", "string"}, {"description", "Free text"}}},
        {"site",
         {{"oneOf", json::array({json{{"type", "string"}, {"minLength", 1}},
                                 json{{"type", "object"},
                                      {"required", json::array({"id"})},
                                      {"properties", {{"id", {{"type", "string"}}}}}}})},
          {"x-catalog-kind", "site"},
          {"description", "Site catalog id, or an object with \"id\" and fields to override"}}},
    };
    json required = json::array({"schema_version", "site"});
    forEachSection([&](const SectionInfo& info, auto member) {
        using S = std::decay_t<decltype(Scenario{}.*member)>;
        properties[info.key] = sectionSchema<S>(info.description);
        if (info.required)
            required.push_back(info.key);
    });
    return {{"$schema", "https://json-schema.org/draft/2020-12/schema"},
            {"$id", "https://dctwin.invalid/schema/scenario.schema.json"},
            {"title", "DC Twin scenario"},
            {"description", "A cluster, its site and its workload, as read by DC Twin"},
            {"type", "object"},
            {"additionalProperties", false},
            {"required", required},
            {"properties", properties}};
}

} // namespace dct::model
