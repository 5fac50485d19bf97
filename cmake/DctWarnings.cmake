# dct_set_warnings(<target>): the warning set of the dev preset, applied when DCT_WARNINGS is ON.
option(DCT_WARNINGS "Build with -Wall -Wextra -Wpedantic -Wshadow -Wconversion" OFF)
option(DCT_WARNINGS_AS_ERRORS "Turn warnings into errors" OFF)

function(dct_set_warnings target)
    if(DCT_WARNINGS)
        target_compile_options(${target} PRIVATE -Wall -Wextra -Wpedantic -Wshadow -Wconversion)
        if(DCT_WARNINGS_AS_ERRORS)
            target_compile_options(${target} PRIVATE -Werror)
        endif()
    endif()
endfunction()
