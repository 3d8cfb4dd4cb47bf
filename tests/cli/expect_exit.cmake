# Runs a command and checks its exit status and, optionally, its output. CTest alone cannot ask
# for a status other than 0 (WILL_FAIL accepts any failure), and PASS_REGULAR_EXPRESSION ignores
# the status altogether, so the tests of the tilecamp program run through this script:
#
#   cmake -DEXPECTED_EXIT=N [-DEXPECTED_OUTPUT=REGEX] [-DUNEXPECTED_OUTPUT=REGEX]
#         -P expect_exit.cmake COMMAND [ARG...]
#
# REGEX is matched against stdout and stderr together; the output is echoed, so a failing test
# shows what the command said.
cmake_minimum_required(VERSION 3.24)

if(NOT DEFINED EXPECTED_EXIT)
  message(FATAL_ERROR "expect_exit.cmake: set -DEXPECTED_EXIT=N")
endif()

# The command is every argument after the script's path, which follows -P.
set(command)
set(state before)
math(EXPR last "${CMAKE_ARGC} - 1")
foreach(i RANGE ${last})
  if(state STREQUAL "command")
    list(APPEND command "${CMAKE_ARGV${i}}")
  elseif(state STREQUAL "script")
    set(state command)
  elseif(CMAKE_ARGV${i} STREQUAL "-P")
    set(state script)
  endif()
endforeach()
if(NOT command)
  message(FATAL_ERROR "expect_exit.cmake: no command given after the script")
endif()

execute_process(COMMAND ${command} RESULT_VARIABLE status OUTPUT_VARIABLE output ERROR_VARIABLE output)
message("${output}")

if(NOT status STREQUAL EXPECTED_EXIT)
  message(FATAL_ERROR "exit status ${status}, expected ${EXPECTED_EXIT}")
endif()
if(DEFINED EXPECTED_OUTPUT AND NOT EXPECTED_OUTPUT STREQUAL "" AND NOT output MATCHES "${EXPECTED_OUTPUT}")
  message(FATAL_ERROR "the output does not match the regular expression: ${EXPECTED_OUTPUT}")
endif()
if(DEFINED UNEXPECTED_OUTPUT AND NOT UNEXPECTED_OUTPUT STREQUAL "" AND output MATCHES "${UNEXPECTED_OUTPUT}")
  message(FATAL_ERROR "the output should not match the regular expression: ${UNEXPECTED_OUTPUT}")
endif()
