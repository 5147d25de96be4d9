# Compiles SOURCE and passes only if the compiler fails with the message named on the source's
# first line (`// expect: <text>`): a rule the DSL cannot handle must be a readable error.
file(STRINGS ${SOURCE} first_line LIMIT_COUNT 1)
string(REGEX REPLACE "^// expect: " "" expected "${first_line}")
separate_arguments(include_flags UNIX_COMMAND "${INCLUDES}")
execute_process(
  COMMAND ${COMPILER} -std=c++20 -fsyntax-only ${include_flags} ${SOURCE}
  RESULT_VARIABLE result OUTPUT_VARIABLE output ERROR_VARIABLE output)
if(result EQUAL 0)
  message(FATAL_ERROR "${SOURCE} compiled, but it must fail with: ${expected}")
endif()
string(FIND "${output}" "${expected}" found)
if(found EQUAL -1)
  message(FATAL_ERROR "${SOURCE} failed without the message '${expected}':\n${output}")
endif()
message(STATUS "failed as expected: ${expected}")
