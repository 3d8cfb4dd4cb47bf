// What every command a learner types starts from: the course folder, its index of exercises, and
// the learner's progress through it.
#pragma once

#include <filesystem>
#include <string>

#include "checker/grade/exercise.h"
#include "checker/util/expected.h"
#include "runner/learner/progress.h"

namespace tilecamp::runner {

struct LearnerCourse {
  std::filesystem::path root;
  std::filesystem::path source;  // where the hints and solutions are (course_source(root))
  grade::Course course;
  Progress progress;

  // The exercise the learner is on: the progress file's `current` when the course has it, else
  // the first.
  const grade::CourseEntry& current() const;
  const grade::CourseEntry* find(const std::string& id) const;
  const grade::CourseEntry* after(const grade::CourseEntry& entry) const;  // nullptr after the last

  // Passed, and kernel.cu unchanged since.
  bool done(const grade::CourseEntry& entry) const;
  size_t done_count() const;

  // The exercise's hints: its own, or for a folder made by `tilecamp init` (which leaves them
  // out), the course's it was made from.
  std::vector<std::string> hints(const grade::Exercise& exercise) const;

  // Reads the progress file again: another tilecamp (a `check` in another terminal) may have
  // written it since.
  void reload_progress();
};

// Finds and loads the course and the progress (a repair note goes to standard error), and keeps a
// copy of every stub not yet kept (runner/learner/stub_store.h). Errors say what to do.
Expected<LearnerCourse> open_learner_course();

// The exercise named `id`, or an error that lists the course's exercises.
Expected<const grade::CourseEntry*> course_entry(const LearnerCourse& course, const std::string& id);

// "exercises/01-vector-add/kernel.cu", as the learner sees it from the course folder.
std::string exercise_file_shown(const grade::CourseEntry& entry);

}  // namespace tilecamp::runner
