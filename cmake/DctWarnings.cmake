# dct_set_warnings(<target>): the warning set of the dev preset, applied when DCT_WARNINGS is ON.
option(DCT_WARNINGS "Build with -Wall -Wextra -Wpedantic -Wshadow -Wconversion" OFF)
option(DCT_WARNINGS_AS_ERRORS "Turn warnings into errors" OFF)

function(dct_set_warnings target)
    if(DCT_WARNINGS)
        target_compile_options(${target} PRIVATE -Wall -Wextra -Wpedantic -Wshadow -Wconversion)
        if(DCT_WARNINGS_AS_ERRORS)
            target_compile_options(${target} PRIVATE -Werror)
            # GCC 12's -Wrestrict warns inside libstdc++'s std::string at -O2 (GCC bug 105329, a
            # false positive): a warning there, never an error, so that optimized builds with
            # the dev warnings compile.
            if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU" AND CMAKE_CXX_COMPILER_VERSION VERSION_GREATER_EQUAL 12)
                target_compile_options(${target} PRIVATE -Wno-error=restrict)
            endif()
        endif()
    endif()
endfunction()
