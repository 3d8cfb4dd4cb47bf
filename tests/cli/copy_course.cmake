# Copies the course (exercises, solutions, lessons) to COURSE_COPY, so that the tests of the
# tilecamp program write the learner's progress file there, never into the source tree.
cmake_minimum_required(VERSION 3.24)
file(REMOVE_RECURSE "${COURSE_COPY}")
foreach(folder exercises solutions lessons)
  file(COPY "${SOURCE_DIR}/${folder}" DESTINATION "${COURSE_COPY}")
endforeach()
