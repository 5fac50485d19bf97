#pragma once

#include "dct/ui/fieldinfo.h"

#include <string>
#include <vector>

namespace dct::ui {

/** A domain of the form editor (site, compute, network, ...) and the fields it shows. */
struct FieldGroup
{
    std::string title;
    std::vector<FieldInfo> fields;
};

/** Returns the form's domains, generated from the scenario's field tables. */
const std::vector<FieldGroup>& scenarioFieldGroups();

/** Returns the field at \a pointer or at the longest prefix of it that is a field, or nullptr. */
const FieldInfo* findFieldInfo(const std::string& pointer);

/** Returns the index of the group holding the field at \a pointer, or -1. */
int fieldGroupIndex(const std::string& pointer);

} // namespace dct::ui
