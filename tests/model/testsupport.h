#pragma once

#include "dct/model/catalog.h"

#include <catch2/catch.hpp>
#include <filesystem>
#include <string>

namespace dct::test {

/** Returns the bundled data folder of the source tree. */
inline std::filesystem::path dataDir()
{
    return DCT_TEST_DATA_DIR;
}

/** Loads the bundled catalog once and returns it; fails the test when it cannot. */
inline const model::Catalog& catalog()
{
    static const auto loaded = model::Catalog::load(dataDir() / "catalog");
    if (!loaded)
        FAIL("catalog: " << loaded.error().toString());
    return *loaded;
}

/** Returns the bundled example scenario files; fails the test when there are none, so that no
 *  loop over them passes by running zero times. */
inline std::vector<std::filesystem::path> examples()
{
    std::vector<std::filesystem::path> files;
    for (const auto& e : std::filesystem::directory_iterator(dataDir() / "examples"))
        if (e.path().extension() == ".json")
            files.push_back(e.path());
    std::sort(files.begin(), files.end());
    REQUIRE(!files.empty());
    return files;
}

} // namespace dct::test
