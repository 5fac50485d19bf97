# End-to-end check of sharded sweeps with the real program: the spec run whole, then as three
# shards (--shard i/3) joined by sweep-merge, must give byte-for-byte the same output, in CSV
# and in JSON lines, and the same record beside it (FILE.shard.json). Run as
#   cmake -DCLI=<dctwin-cli> -DSPEC=<sweep spec> -DWORK=<scratch folder> -P sweepshards.cmake
foreach(var CLI SPEC WORK)
    if(NOT DEFINED ${var})
        message(FATAL_ERROR "sweepshards.cmake: -D${var}=... is required")
    endif()
endforeach()

file(REMOVE_RECURSE "${WORK}")
file(MAKE_DIRECTORY "${WORK}")

# Runs dctwin-cli with the given arguments; it must exit 0 (a sweep exits 1 when some variants
# fail, and no variant of the bundled spec does).
function(run_cli)
    execute_process(COMMAND "${CLI}" ${ARGN}
        RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
    if(NOT rc EQUAL 0)
        message(FATAL_ERROR "dctwin-cli ${ARGN} exited ${rc}:\n${out}\n${err}")
    endif()
endfunction()

foreach(format csv jsonl)
    run_cli(sweep "${SPEC}" --quiet --format ${format} -o "${WORK}/whole.${format}")
    set(parts)
    foreach(i 0 1 2)
        run_cli(sweep "${SPEC}" --quiet --format ${format} --shard ${i}/3
                -o "${WORK}/part${i}.${format}")
        list(APPEND parts "${WORK}/part${i}.${format}")
    endforeach()
    run_cli(sweep-merge ${parts} -o "${WORK}/merged.${format}")

    file(STRINGS "${WORK}/whole.${format}" lines)
    list(LENGTH lines count)
    if(count LESS 10)
        message(FATAL_ERROR "the unsharded ${format} sweep wrote only ${count} lines")
    endif()
    foreach(i 0 1 2)
        file(SIZE "${WORK}/part${i}.${format}" size)
        if(size EQUAL 0)
            message(FATAL_ERROR "shard ${i}/3 wrote nothing (${format})")
        endif()
    endforeach()
    foreach(suffix "" ".shard.json")
        execute_process(COMMAND "${CMAKE_COMMAND}" -E compare_files
            "${WORK}/whole.${format}${suffix}" "${WORK}/merged.${format}${suffix}"
            RESULT_VARIABLE differ)
        if(differ)
            message(FATAL_ERROR "the merged shards differ from the unsharded ${format} sweep: "
                                "${WORK}/merged.${format}${suffix} vs ${WORK}/whole.${format}${suffix}")
        endif()
    endforeach()
    # The merged output is itself a whole sweep: it merges alone into the same bytes.
    run_cli(sweep-merge "${WORK}/merged.${format}" -o "${WORK}/again.${format}")
    execute_process(COMMAND "${CMAKE_COMMAND}" -E compare_files
        "${WORK}/whole.${format}" "${WORK}/again.${format}" RESULT_VARIABLE differ)
    if(differ)
        message(FATAL_ERROR "the merged ${format} output does not merge into itself")
    endif()
    message(STATUS "${format}: ${count} lines, 3 shards merged byte-for-byte")
endforeach()
