# `tilecamp init DIR` as a learner uses it, and what it refuses: the folder gets the lessons and
# the stubs without hints or solutions; a solved exercise there passes, hints and the solution
# come from the course it was made from, and the course's own stubs stay as shipped, so the
# course self-check still passes after the learner's work.
#   cmake -DTILECAMP=path -DSOURCE_DIR=path -DWORK=path -P init_course.cmake
cmake_minimum_required(VERSION 3.24)
file(REMOVE_RECURSE "${WORK}")
file(MAKE_DIRECTORY "${WORK}")
set(ENV{NO_COLOR} 1)
set(ENV{TILECAMP_ROOT} "${SOURCE_DIR}")
set(course "${WORK}/course")

include("${CMAKE_CURRENT_LIST_DIR}/run.cmake")
function(require_file path what)
  if(NOT EXISTS "${path}")
    message(FATAL_ERROR "${what}: ${path}")
  endif()
endfunction()

file(SHA256 "${SOURCE_DIR}/exercises/01-vector-add/kernel.cu" shipped_stub)
run(0 "Made a course folder in .*: [0-9]+ exercises.*Start it: cd " init "${course}")
require_file("${course}/lessons/01-coalescing.md" "the lessons were not copied")
require_file("${course}/exercises/02-transpose-tiled/baseline.cu" "an exercise's baseline was not copied")
require_file("${course}/.tilecamp/source" "the course's origin was not kept")
if(EXISTS "${course}/solutions")
  message(FATAL_ERROR "init copied the solutions")
endif()
file(GLOB_RECURSE metadata "${course}/exercises/*/exercise.toml")
foreach(file ${metadata})
  file(READ "${file}" text)
  if(NOT text MATCHES "\nhints = \\[\\]  #" OR text MATCHES "\nhints = \\[\n")
    message(FATAL_ERROR "${file} still holds its hints")
  endif()
endforeach()

# Refused: the same folder again (not empty), a file, a folder inside the course it copies.
run(2 "exists and is not empty: choose a new folder for the course \\(nothing was written\\)" init "${course}")
file(WRITE "${WORK}/a-file" "x")
run(2 "exists and is not a folder" init "${WORK}/a-file")
run(2 "overlaps the course it would copy" init "${SOURCE_DIR}/exercises/mine")

# The learner's work, in the learner's folder.
set(ENV{TILECAMP_ROOT} "${course}")
run(0 "Hint 1 of 3: " hint 01-vector-add)
run(1 "the solution of 01-vector-add opens once your kernel passes" solution 01-vector-add)
file(COPY_FILE "${SOURCE_DIR}/solutions/01-vector-add/kernel.cu" "${course}/exercises/01-vector-add/kernel.cu")
run(0 "PASSED" check 01-vector-add --seed 5)
run(0 "solutions/01-vector-add/kernel.cu .*if \\(i < n\\)" solution 01-vector-add)
run(2 "no exercise named `transpose-tild`; did you mean 02-transpose-tiled\\?" check transpose-tild)

# The course as shipped is untouched, and its self-check passes with the learner's work done.
file(SHA256 "${SOURCE_DIR}/exercises/01-vector-add/kernel.cu" stub_after)
if(NOT shipped_stub STREQUAL stub_after)
  message(FATAL_ERROR "the course's own stub changed")
endif()
set(ENV{TILECAMP_ROOT} "${SOURCE_DIR}")
run(0 "[0-9]+ exercise\\(s\\)" dev check)
message("init: a learner's folder without answers; hints and solution from the course; the course untouched")
