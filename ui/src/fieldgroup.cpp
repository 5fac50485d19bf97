#include "dct/ui/fieldgroup.h"

#include "dct/model/scenario.h"

namespace dct::ui {

namespace {

/** The top-level keys of a scenario that are not sections: name, description and site. */
std::vector<FieldInfo> topLevelFields()
{
    FieldInfo name;
    name.pointer = "/name";
    name.key = "name";
    name.label = "Name";
    name.kind = model::FieldKind::String;
    name.description = "Name of the scenario, shown in lists and reports";
    FieldInfo description = name;
    description.pointer = "/description";
    description.key = "description";
    description.label = "Description";
    description.description = "What the scenario describes and why";
    FieldInfo site;
    site.pointer = "/site";
    site.key = "site";
    site.label = "Site";
    site.kind = model::FieldKind::CatalogRef;
    site.catalogKind = "site";
    site.required = true;
    site.description = "Site: climate, energy price and grid";
    site.rangeText = "a site catalog id";
    return {name, description, site};
}

template <class S> void append(std::vector<FieldInfo>& to, const std::string& section)
{
    auto infos = describeFields(S::fields(), section);
    to.insert(to.end(), infos.begin(), infos.end());
}

} // namespace

const std::vector<FieldGroup>& scenarioFieldGroups()
{
    static const std::vector<FieldGroup> groups = [] {
        std::vector<FieldGroup> g(7);
        g[0].title = "Site";
        g[0].fields = topLevelFields();
        g[1].title = "Compute";
        append<model::ComputeSection>(g[1].fields, "/compute");
        append<model::StorageSection>(g[1].fields, "/storage");
        g[2].title = "Network";
        append<model::NetworkSection>(g[2].fields, "/network");
        g[3].title = "Facility and cooling";
        append<model::CoolingSection>(g[3].fields, "/cooling");
        append<model::FacilitySection>(g[3].fields, "/facility");
        g[4].title = "Workload";
        append<model::WorkloadSection>(g[4].fields, "/workload");
        g[5].title = "Hall";
        append<model::HallSection>(g[5].fields, "/hall");
        g[6].title = "Economics";
        append<model::EconomicsSection>(g[6].fields, "/economics");
        return g;
    }();
    return groups;
}

const FieldInfo* findFieldInfo(const std::string& pointer)
{
    std::string path = pointer;
    while (!path.empty()) {
        for (const auto& group : scenarioFieldGroups())
            for (const auto& field : group.fields)
                if (field.pointer == path)
                    return &field;
        const auto slash = path.rfind('/');
        if (slash == std::string::npos)
            break;
        path.erase(slash);
    }
    return nullptr;
}

int fieldGroupIndex(const std::string& pointer)
{
    const FieldInfo* field = findFieldInfo(pointer);
    if (!field)
        return -1;
    const auto& groups = scenarioFieldGroups();
    for (std::size_t i = 0; i < groups.size(); ++i)
        for (const auto& f : groups[i].fields)
            if (&f == field)
                return static_cast<int>(i);
    return -1;
}

} // namespace dct::ui
