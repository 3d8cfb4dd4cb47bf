# The PTX cache through the CLI: a second `tilecamp check` of an unchanged file takes its PTX from
# the cache (`ptx_cache` in --json: hits, no misses), an edited file is compiled again,
# TILECAMP_CACHE_DIR=off compiles every time, and a cache folder that cannot be made costs one note,
# never the check.
#   cmake -DTILECAMP=path -DSOURCE_DIR=path -DWORK=path -P ptx_cache.cmake
cmake_minimum_required(VERSION 3.24)
file(REMOVE_RECURSE "${WORK}")
file(MAKE_DIRECTORY "${WORK}")
file(COPY_FILE "${SOURCE_DIR}/solutions/01-vector-add/kernel.cu" "${WORK}/mine.cu")
set(ENV{TILECAMP_ROOT} "${SOURCE_DIR}")
set(ENV{NO_COLOR} 1)

# check(EXPECTED_HITS_REGEX EXPECTED_MISSES_REGEX): checks mine.cu, which passes, and matches the
# counts of its `ptx_cache` ("none" when the field must be absent).
function(check hits misses)
  execute_process(COMMAND "${TILECAMP}" check 01-vector-add --file "${WORK}/mine.cu" --seed 1 --json WORKING_DIRECTORY "${WORK}"
                  RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT status STREQUAL 0)
    message(FATAL_ERROR "tilecamp check: exit ${status}, expected 0\n${out}${err}")
  endif()
  string(JSON got_hits ERROR_VARIABLE absent GET "${out}" ptx_cache hits)
  string(JSON got_misses ERROR_VARIABLE absent GET "${out}" ptx_cache misses)
  if(hits STREQUAL "none")
    if(NOT absent)
      message(FATAL_ERROR "with the cache off, ptx_cache should be absent:\n${out}")
    endif()
  elseif(absent OR NOT got_hits MATCHES "^${hits}$" OR NOT got_misses MATCHES "^${misses}$")
    message(FATAL_ERROR "ptx_cache: ${got_hits} hits and ${got_misses} misses, expected ${hits} and ${misses}:\n${out}")
  endif()
  set(err "${err}" PARENT_SCOPE)
endfunction()

set(ENV{TILECAMP_CACHE_DIR} "${WORK}/ptx")
check(0 "[1-9][0-9]*")             # the first check compiles everything
check("[1-9][0-9]*" 0)             # the second compiles nothing
file(APPEND "${WORK}/mine.cu" "// an edit\n")
check("[0-9]+" "[1-9][0-9]*")      # the edited file is compiled again
check("[1-9][0-9]*" 0)

set(ENV{TILECAMP_CACHE_DIR} off)
check(none none)
if(EXISTS "${WORK}/off")
  message(FATAL_ERROR "TILECAMP_CACHE_DIR=off made a folder")
endif()

set(ENV{TILECAMP_CACHE_DIR} "/proc/tilecamp-cannot-be-made")
check(none none)
string(REGEX MATCHALL "note: compiled kernels are not kept" notes "${err}")
list(LENGTH notes count)
if(NOT count EQUAL 1)
  message(FATAL_ERROR "expected one note about the cache folder, got ${count}:\n${err}")
endif()
