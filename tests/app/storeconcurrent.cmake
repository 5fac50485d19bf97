# Several `dctwin-cli store list` started at once on a store that does not exist yet, ROUNDS
# times: each must exit 0 and list the seeded store. Before first-use creation was atomic, 5 to 11
# of 100 rounds of four programs had one fail ("not a DC Twin scenario store", "database is
# locked").
# Run as
#   cmake -DCLI=<dctwin-cli> -DWORK=<scratch folder> -DROUNDS=<n> -DPROGRAMS=<n> -P storeconcurrent.cmake
foreach(var CLI WORK ROUNDS PROGRAMS)
    if(NOT DEFINED ${var})
        message(FATAL_ERROR "storeconcurrent.cmake: -D${var}=... is required")
    endif()
endforeach()

file(REMOVE_RECURSE "${WORK}")
file(MAKE_DIRECTORY "${WORK}")

# The programs of one round start together from one shell and are waited for one by one, so that
# each one's exit code is known; each writes its own output files.
set(script [=[
cli=$1; store=$2; out=$3; programs=$4
pids=""
i=0
while [ "$i" -lt "$programs" ]; do
    "$cli" store --store "$store" list >"$out.$i.out" 2>"$out.$i.err" &
    pids="$pids $!"
    i=$((i + 1))
done
failed=0
i=0
for pid in $pids; do
    wait "$pid" || { echo "program $i exited $?:"; cat "$out.$i.err"; failed=1; }
    i=$((i + 1))
done
exit $failed
]=])

set(failures 0)
math(EXPR last "${ROUNDS} - 1")
foreach(round RANGE ${last})
    set(store "${WORK}/${round}/scenarios.sqlite")
    execute_process(COMMAND sh -c "${script}" sh "${CLI}" "${store}" "${WORK}/${round}" ${PROGRAMS}
        RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
    if(NOT rc EQUAL 0)
        math(EXPR failures "${failures} + 1")
        message(STATUS "round ${round}: ${out}${err}")
        continue()
    endif()
    math(EXPR programs_last "${PROGRAMS} - 1")
    foreach(i RANGE ${programs_last})
        file(READ "${WORK}/${round}.${i}.out" listing)
        if(NOT listing MATCHES "seed-h100-dallas-d2c" OR NOT listing MATCHES "scenarios in ")
            math(EXPR failures "${failures} + 1")
            message(STATUS "round ${round}, program ${i} listed:\n${listing}")
        endif()
    endforeach()
endforeach()
file(GLOB leftovers "${WORK}/*/.scenarios.sqlite.new-*")
if(leftovers)
    message(FATAL_ERROR "temporary files of the creation were left behind: ${leftovers}")
endif()
if(failures GREATER 0)
    message(FATAL_ERROR "${failures} programs of ${ROUNDS} rounds of ${PROGRAMS} failed")
endif()
message(STATUS "${ROUNDS} rounds of ${PROGRAMS} programs creating one store at once: all listed it")
