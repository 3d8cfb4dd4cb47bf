// What the instructors' commands (`tilecamp autograder`, `tilecamp classroom`, `tilecamp grade`)
// share: the exercises chosen with --exercises, how a usage error is printed, and the CUDA major version this program's NVRTC belongs to
// (the one their setup installs). Implemented in autograder_command.cpp.
#pragma once

#include <string>
#include <vector>

#include "checker/grade/exercise.h"
#include "checker/util/expected.h"

namespace tilecamp::runner {

// The course's exercises named in `ids`, in course order (all of them when `ids` is empty); an
// unknown id is an error listing the exercises.
Expected<std::vector<grade::CourseEntry>> chosen_exercises(const grade::Course& course, const std::vector<std::string>& ids);

// The course of the current folder and the exercises chosen from it with --exercises.
struct ChosenCourse {
  grade::Course course;
  std::vector<grade::CourseEntry> exercises;
};
Expected<ChosenCourse> load_chosen_course(const std::vector<std::string>& ids);

// Prints "error: MESSAGE" to stderr (red on a terminal) and returns the usage exit code.
int fail_with(const std::string& message);

// N of the libnvrtc.so.N this program is linked with (13 when it cannot tell).
int linked_nvrtc_major();

}  // namespace tilecamp::runner
