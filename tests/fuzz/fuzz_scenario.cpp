// libFuzzer target: scenario text as a user's file gives it, read, resolved against the bundled
// catalog and evaluated, as `dctwin-cli eval` does. Any crash, sanitizer report or exception
// that escapes is a defect (the readers return errors as values, docs/fuzzing.md).
#include "dct/model/catalog.h"
#include "dct/model/resolver.h"
#include "dct/model/scenarioio.h"
#include "dct/solvers/evaluator.h"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

namespace {

const dct::model::Catalog& catalog()
{
    static const dct::model::Catalog loaded = [] {
        auto c = dct::model::Catalog::load(dct::model::Catalog::defaultDirectory());
        if (!c)
            std::abort(); // the bundled catalog must load: see DCT_DATA_DIR
        return std::move(*c);
    }();
    return loaded;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const std::string text(reinterpret_cast<const char*>(data), size);
    const auto read = dct::model::readScenarioText(text, "fuzz.json");
    if (!read.scenario || read.diagnostics.hasErrors())
        return 0;
    const auto resolved = dct::model::resolveScenario(*read.scenario, catalog(), "fuzz.json");
    if (!resolved.resolved || resolved.diagnostics.hasErrors())
        return 0;
    const auto evaluation = dct::solvers::evaluate(*resolved.resolved);
    (void)evaluation;
    return 0;
}
