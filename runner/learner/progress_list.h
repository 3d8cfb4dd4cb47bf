// The learner's progress as `tilecamp list` and the watch screen's `l` show it: a progress bar,
// then the exercises lesson by lesson, done or pending, the current one marked.
#pragma once

#include <string>

#include "checker/report/style.h"
#include "runner/learner/learner_course.h"

namespace tilecamp::runner {

std::string progress_bar(size_t done, size_t total, size_t width);

std::string progress_list_text(const LearnerCourse& course, const report::Style& style);

}  // namespace tilecamp::runner
