# Precompiled headers: the third-party headers that most translation units include are parsed
# once per target instead of once per file. nlohmann/json reaches 180 of the 218 files (about 3 s
# of GCC's front end each), Eigen 110 (2.3 s), Catch2 every test file (1.9 s); a file's front end
# took 6 to 8 s of its 15 to 40 s. The test programs share one precompiled header
# (dct_test_precompiled_headers below), built once with the flags they all have.
#
# A precompiled header hides a missing #include in the files of its target. The fuzz build
# (scripts/fuzz.sh: clang; the model, solvers, study and store layers) turns them off, so that a
# file there that does not include what it uses fails to build.
option(DCT_PRECOMPILE_HEADERS "Precompile the heavy third-party headers once per target" ON)

# The standard headers our files include most (each 0.1 to 0.8 s of the front end).
set(DCT_PCH_STANDARD
    <algorithm>
    <array>
    <cmath>
    <cstdint>
    <filesystem>
    <fstream>
    <functional>
    <map>
    <memory>
    <optional>
    <sstream>
    <string>
    <string_view>
    <utility>
    <vector>)

# dct_precompile_headers(<target> [<header>...]): precompiles the standard headers above and the
# given ones (the heavy headers of the packages <target> links) for every file of <target>.
function(dct_precompile_headers target)
    if(DCT_PRECOMPILE_HEADERS)
        target_precompile_headers(${target} PRIVATE ${DCT_PCH_STANDARD} ${ARGN})
    endif()
endfunction()
