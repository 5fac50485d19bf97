# Runs a large sweep with the real program and checks that it completes: one CSV row per
# variant (plus the header) and no failed variant. Run as
#   cmake -DCLI=<dctwin-cli> -DSPEC=<sweep spec> -DVARIANTS=<n> -DWORK=<folder> -P sweeplarge.cmake
foreach(var CLI SPEC VARIANTS WORK)
    if(NOT DEFINED ${var})
        message(FATAL_ERROR "sweeplarge.cmake: -D${var}=... is required")
    endif()
endforeach()

file(REMOVE_RECURSE "${WORK}")
file(MAKE_DIRECTORY "${WORK}")
string(TIMESTAMP started "%s")
execute_process(COMMAND "${CLI}" sweep "${SPEC}" -o "${WORK}/sweep.csv"
    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
string(TIMESTAMP finished "%s")
if(NOT rc EQUAL 0)
    message(FATAL_ERROR "dctwin-cli sweep exited ${rc}:\n${out}\n${err}")
endif()
# The estimate before the run: "sweep: 100,000 variants, about 6.5 MB of CSV".
if(NOT err MATCHES "sweep: [0-9,]+ variants, about [0-9.]+ [kMG]?B of CSV")
    message(FATAL_ERROR "no estimate before the run: ${err}")
endif()
# The summary line: "sweep: N variants in S s (R/s): N rows, 0 filtered out, 0 failed".
if(NOT err MATCHES "sweep: ${VARIANTS} variants in .*: ${VARIANTS} rows, 0 filtered out, 0 failed")
    message(FATAL_ERROR "unexpected sweep summary: ${err}")
endif()
file(STRINGS "${WORK}/sweep.csv" lines)
list(LENGTH lines count)
math(EXPR expected "${VARIANTS} + 1")
if(NOT count EQUAL expected)
    message(FATAL_ERROR "${count} lines written, expected ${expected} (header + one per variant)")
endif()
math(EXPR seconds "${finished} - ${started}")
message(STATUS "${err}(about ${seconds} s with start-up; not a timing assertion)")
