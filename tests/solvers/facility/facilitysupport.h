#pragma once

#include "dct/model/resolver.h"
#include "dct/model/scenarioio.h"
#include "testsupport.h"

#include <functional>
#include <string>

namespace dct::test {

/** Reads example \a name (without .json), lets \a edit change it, and resolves it. */
inline model::ResolvedScenario
resolvedExample(const std::string& name, const std::function<void(model::Scenario&)>& edit = {})
{
    const auto file = dataDir() / "examples" / (name + ".json");
    auto read = model::readScenarioFile(file);
    if (!read.scenario)
        FAIL("cannot read " << file.string());
    if (edit)
        edit(*read.scenario);
    auto r = model::resolveScenario(*read.scenario, catalog(), file.string());
    if (!r.resolved)
        FAIL("cannot resolve " << file.string());
    return *r.resolved;
}

/** Returns catalog entry \a id of the cooling shelf. */
inline model::CoolingSystemSpec coolingSystem(const std::string& id)
{
    const auto& shelf = catalog().coolingSystems().entries;
    const auto it = shelf.find(id);
    if (it == shelf.end())
        FAIL("no cooling system " << id);
    return it->second;
}

} // namespace dct::test
