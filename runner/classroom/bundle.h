// What the instructors' exports (`tilecamp autograder`, `tilecamp classroom`) share: the
// exercises chosen with --exercises, and the CUDA major version this program's NVRTC belongs to
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

// N of the libnvrtc.so.N this program is linked with (13 when it cannot tell).
int linked_nvrtc_major();

}  // namespace tilecamp::runner
