# The learner's commands as a shell user types them: hints one at a time, the solution and `next`
# refused until the exercise passes, then allowed; reset asks (or takes --yes) and keeps the
# learner's version; unknown exercises are errors that list the course.
#   cmake -DTILECAMP=path -DSOURCE_DIR=path -DWORK=path -P learner_commands.cmake
cmake_minimum_required(VERSION 3.24)
set(COURSE_COPY "${WORK}")
include("${CMAKE_CURRENT_LIST_DIR}/copy_course.cmake")
set(ENV{TILECAMP_ROOT} "${WORK}")
set(ENV{NO_COLOR} 1)
set(kernel "${WORK}/exercises/01-vector-add/kernel.cu")

include("${CMAKE_CURRENT_LIST_DIR}/run.cmake")

run(0 "01-vector-add  Vector add\nHint 1 of 3: A thread's element.*run it again for hint 2" hint)
run(0 "Hint 1 of 3: .*Hint 2 of 3: .*run it again for hint 3" hint 01-vector-add)
run(0 "Hint 3 of 3: .*That was the last hint. Lesson 1 explains" hint)
run(0 "Hint 3 of 3: " hint)  # stays at the last
run(2 "no exercise named `nope`; the exercises are:\n  01-vector-add" hint nope)

run(1 "the solution of 01-vector-add opens once your kernel passes \\(tilecamp check 01-vector-add\\)" solution 01-vector-add)
run(1 "01-vector-add is not done yet: make it pass first \\(tilecamp check 01-vector-add\\)" next)

file(READ "${kernel}" stub)
file(COPY_FILE "${WORK}/solutions/01-vector-add/kernel.cu" "${kernel}")
run(0 "PASSED" check 01-vector-add --seed 5)
run(0 "solutions/01-vector-add/kernel.cu .*if \\(i < n\\)" solution 01-vector-add)
run(0 "Now on 01-copy-coalesced: Coalesced matrix copy: open exercises/01-copy-coalesced/kernel.cu" next)
run(0 "> pending  01-copy-coalesced" list)

run(2 "reset asks before it overwrites your kernel: run it in a terminal, or add --yes" reset 01-vector-add)
run(0 "exercises/01-vector-add/kernel.cu is the original stub again; your version is kept in .tilecamp/reset/01-vector-add-[0-9]+-[0-9]+.cu"
    reset 01-vector-add --yes)
file(READ "${kernel}" restored)
if(NOT restored STREQUAL stub)
  message(FATAL_ERROR "reset did not restore the stub")
endif()
run(0 "already the original stub" reset 01-vector-add --yes)
run(2 "no exercise named `nope`" reset nope --yes)
message("learner commands: hints, solution and next after a pass, reset")
