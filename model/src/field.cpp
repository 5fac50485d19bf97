#include "dct/model/field.h"

#include "dct/model/catalogref.h"
#include "dct/model/provenance.h"

namespace dct::model {

std::string jsonTypeName(const nlohmann::json& value)
{
    switch (value.type()) {
    case nlohmann::json::value_t::null:
        return "null";
    case nlohmann::json::value_t::object:
        return "an object";
    case nlohmann::json::value_t::array:
        return "an array";
    case nlohmann::json::value_t::string:
        return "a string";
    case nlohmann::json::value_t::boolean:
        return "a boolean";
    case nlohmann::json::value_t::number_integer:
    case nlohmann::json::value_t::number_unsigned:
        return "an integer";
    case nlohmann::json::value_t::number_float:
        return "a number";
    default:
        return "an unsupported value";
    }
}

std::string choiceText(const std::vector<std::string>& choices)
{
    std::string text;
    for (std::size_t i = 0; i < choices.size(); ++i) {
        if (i > 0)
            text += i + 1 == choices.size() ? " or " : ", ";
        text += "'" + choices[i] + "'";
    }
    return text;
}

nlohmann::json CatalogRef::toJson() const
{
    if (overrides.empty())
        return id;
    nlohmann::json j = overrides;
    j["id"] = id;
    return j;
}

const char* Provenance::originName(Origin origin)
{
    switch (origin) {
    case Origin::User:
        return "user";
    case Origin::Catalog:
        return "catalog";
    case Origin::Default:
        return "default";
    }
    return "default";
}

} // namespace dct::model
