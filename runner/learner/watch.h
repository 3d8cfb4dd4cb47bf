// Watch mode: the learner edits an exercise in their own editor, and every save is checked and
// shown on the watch screen (runner/learner/watch_screen.h). Keys: n next (once passed), h hint, l list,
// v lesson, r re-check, s solution (once passed), x reset (asks first), q quit. It never moves
// on by itself.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "runner/learner/learner_course.h"
#include "runner/sandbox_options.h"

namespace tilecamp::runner {

struct WatchOptions {
  std::optional<uint64_t> seed;  // for the hidden cases; default one fresh seed per session
  bool manual = false;           // no file watching: r re-checks
  std::string greeting;          // shown on the first screen
  SandboxChoice sandbox{30};     // each check's limits: 30 s by default, a learner is waiting
};

// Runs until the learner quits (q, Ctrl-C, or the end of standard input). Exit code 0, or 2 when
// the exercise cannot be opened.
int run_watch(LearnerCourse& course, const grade::CourseEntry& start, const WatchOptions& options);

}  // namespace tilecamp::runner
