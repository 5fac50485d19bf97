// libFuzzer target: sweep spec text through the JSON reader and the spec parser, as
// `dctwin-cli sweep` reads a spec (the base scenario is not read). Any crash, sanitizer report or
// exception that escapes is a defect (docs/fuzzing.md).
#include "dct/model/jsonread.h"
#include "dct/study/sweepspec.h"

#include <cstddef>
#include <cstdint>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    const auto json = dct::model::parseJson(text, "fuzz-spec.json", "a sweep spec");
    if (!json)
        return 0;
    const auto spec = dct::study::parseSweepSpec(*json, "fuzz-spec.json");
    (void)spec;
    return 0;
}
