// Replays every committed input of one fuzz target through the target's function, without
// libFuzzer: the repository's files that seed it (seeds.txt: the bundled examples, sweep specs,
// nccl-tests logs), its committed corpus (corpus/<target>/) and the inputs of the defects fuzzing
// found (regressions/<target>/, each named after what it broke). Each is thus a test of the
// normal build and of the asan preset.
#include "seedlist.h"

#include <catch2/catch.hpp>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size);

namespace {

void replay(const std::filesystem::path& file)
{
    INFO(file.string());
    std::ifstream in(file, std::ios::binary);
    const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    CHECK(LLVMFuzzerTestOneInput(reinterpret_cast<const std::uint8_t*>(bytes.data()),
                                 bytes.size()) == 0);
}

} // namespace

TEST_CASE("every committed input of the fuzz target runs clean", "[fuzz]")
{
    const std::filesystem::path here = DCT_FUZZ_SOURCE_DIR;
    int inputs = 0;
    for (const char* folder : {"corpus", "regressions"}) {
        const auto directory = here / folder / DCT_FUZZ_TARGET;
        if (!std::filesystem::is_directory(directory))
            continue;
        for (const auto& entry : std::filesystem::directory_iterator(directory)) {
            replay(entry.path());
            ++inputs;
        }
    }
    CHECK(inputs > 0);
}

TEST_CASE("every file of the repository that seeds the fuzz target runs clean", "[fuzz][seeds]")
{
    const std::filesystem::path source = DCT_TEST_SOURCE_DIR;
    for (const auto& rule : dct::test::seedRules(source)) {
        if (rule.target != DCT_FUZZ_TARGET)
            continue;
        INFO(rule.folder.string() << "/" << rule.pattern);
        const auto files = dct::test::seedFiles(source, rule);
        CHECK(!files.empty()); // a moved folder must not silently drop its seeds
        for (const auto& file : files)
            replay(file);
    }
}
