// Replays every committed input of one fuzz target through the target's function, without
// libFuzzer: its seed corpus (corpus/<target>/) and the inputs of the defects fuzzing found
// (regressions/<target>/, each named after what it broke). Each is thus a test of the normal
// build and of the asan preset.
#include <catch2/catch.hpp>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size);

TEST_CASE("every committed input of the fuzz target runs clean", "[fuzz]")
{
    const std::filesystem::path here = DCT_FUZZ_SOURCE_DIR;
    int inputs = 0;
    for (const char* folder : {"corpus", "regressions"}) {
        const auto directory = here / folder / DCT_FUZZ_TARGET;
        if (!std::filesystem::is_directory(directory))
            continue;
        for (const auto& entry : std::filesystem::directory_iterator(directory)) {
            INFO(entry.path().string());
            std::ifstream in(entry.path(), std::ios::binary);
            const std::string bytes((std::istreambuf_iterator<char>(in)),
                                    std::istreambuf_iterator<char>());
            CHECK(LLVMFuzzerTestOneInput(reinterpret_cast<const std::uint8_t*>(bytes.data()),
                                         bytes.size()) == 0);
            ++inputs;
        }
    }
    CHECK(inputs > 0);
}
