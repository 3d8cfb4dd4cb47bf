// What a learner can ask for about an exercise, the same from the watch screen's keys and from
// the commands (`tilecamp hint`, `next`, `solution`): each returns text or an error that says
// what to do, and prints nothing.
#pragma once

#include <string>
#include <vector>

#include "checker/grade/exercise.h"
#include "runner/learner/learner_course.h"

namespace tilecamp::runner {

// Reveals one more hint of `entry` (up to the last) and saves that in the progress file.
// Returns how many are shown now.
Expected<int> reveal_hint(LearnerCourse& course, const grade::Exercise& exercise);

// The first `shown` hints, "Hint 1 of 3: ...", wrapped to `width`; after the last one, where to
// look next.
std::vector<std::string> hint_lines(const grade::Exercise& exercise, int shown, size_t width, bool color);

// Moves the learner on from the current exercise, which must be done; returns the new one.
Expected<const grade::CourseEntry*> advance(LearnerCourse& course);

// From this width on, the solution is shown beside the learner's kernel.cu, line by line (lines
// that differ only in spaces or comments side by side), each half cut to fit; narrower, the
// solution alone with `+` on its lines the learner's file lacks. Only once the exercise passes.
inline constexpr size_t k_side_by_side_columns = 160;
Expected<std::vector<std::string>> solution_lines(const LearnerCourse& course, const grade::CourseEntry& entry,
                                                  size_t width, bool color);

}  // namespace tilecamp::runner
