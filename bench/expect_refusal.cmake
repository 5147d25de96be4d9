# Runs PROGRAM with ARGS (a list) and OUT as its output file, and fails unless it exits 2 with one
# line on stderr that names the bad argument ("gpu_bench: --variant wants" or "--only wants" or
# "--variant needs") and left OUT unwritten.
file(REMOVE "${OUT}")
execute_process(COMMAND "${PROGRAM}" "${OUT}" ${ARGS} RESULT_VARIABLE code OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT code EQUAL 2)
  message(FATAL_ERROR "exit ${code}, not 2; stderr: ${err}")
endif()
if(NOT err MATCHES "^gpu_bench: --(variant wants|only wants|variant needs)[^\n]*\n$")
  message(FATAL_ERROR "not one line naming the argument: '${err}'")
endif()
if(EXISTS "${OUT}")
  message(FATAL_ERROR "${OUT} was written")
endif()
