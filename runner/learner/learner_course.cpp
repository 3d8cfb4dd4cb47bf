#include "runner/learner/learner_course.h"

#include <algorithm>
#include <iostream>
#include <vector>

#include "runner/learner/stub_store.h"
#include "runner/terminal.h"

namespace tilecamp::runner {

const grade::CourseEntry& LearnerCourse::current() const {
  if (progress.current()) {
    if (const grade::CourseEntry* entry = find(*progress.current())) return *entry;
  }
  return course.exercises.front();
}

const grade::CourseEntry* LearnerCourse::find(const std::string& id) const {
  for (const grade::CourseEntry& entry : course.exercises) {
    if (entry.id == id) return &entry;
  }
  return nullptr;
}

const grade::CourseEntry* LearnerCourse::after(const grade::CourseEntry& entry) const {
  for (size_t i = 0; i + 1 < course.exercises.size(); ++i) {
    if (course.exercises[i].id == entry.id) return &course.exercises[i + 1];
  }
  return nullptr;
}

bool LearnerCourse::done(const grade::CourseEntry& entry) const {
  std::string contents, ignored;
  return read_file(entry.directory / "kernel.cu", contents, ignored) && progress.done(entry.id, contents);
}

std::vector<std::string> LearnerCourse::hints(const grade::Exercise& exercise) const {
  if (!exercise.hints.empty() || source == root) return exercise.hints;
  auto original = grade::load_exercise(source / "exercises" / exercise.name);
  return original ? original->hints : std::vector<std::string>{};
}

size_t LearnerCourse::done_count() const {
  return static_cast<size_t>(
      std::count_if(course.exercises.begin(), course.exercises.end(), [&](const grade::CourseEntry& e) { return done(e); }));
}

void LearnerCourse::reload_progress() {
  progress = Progress::load(root);
  if (!progress.repair_note().empty()) std::cerr << style_for(stderr).yellow("note") << ": " << progress.repair_note() << "\n";
}

Expected<LearnerCourse> open_learner_course() {
  auto root = find_course_root();
  if (!root) return make_error(k_no_course);
  auto course = grade::load_course(*root);
  if (!course) return make_error(course.error());
  if (course->exercises.empty()) {
    return make_error((*root / "exercises" / "course.toml").string() + " lists no exercises; add an [[exercise]] entry");
  }
  LearnerCourse learner{*root, course_source(*root), std::move(*course), Progress{}};
  learner.reload_progress();
  StubStore(*root).remember(learner.course.exercises);
  return learner;
}

Expected<const grade::CourseEntry*> course_entry(const LearnerCourse& course, const std::string& id) {
  if (const grade::CourseEntry* entry = course.find(id)) return entry;
  if (const grade::CourseEntry* guess = grade::closest_exercise(course.course, id)) {
    return make_error("no exercise named `" + id + "`; did you mean " + guess->id + "? (tilecamp list shows them all)");
  }
  std::string message = "no exercise named `" + id + "`; the exercises are:";
  for (const grade::CourseEntry& entry : course.course.exercises) message += "\n  " + entry.id;
  return make_error(message + "\n(tilecamp list shows them with your progress)");
}

std::string exercise_file_shown(const grade::CourseEntry& entry) { return "exercises/" + entry.id + "/kernel.cu"; }

}  // namespace tilecamp::runner
