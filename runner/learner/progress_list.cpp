#include "runner/learner/progress_list.h"

#include <fmt/format.h>

#include "runner/learner/lessons.h"

namespace tilecamp::runner {

std::string progress_bar(size_t done, size_t total, size_t width) {
  const size_t filled = total == 0 ? 0 : done * width / total;
  return "[" + std::string(filled, '#') + std::string(width - filled, '-') + "]";
}

std::string progress_list_text(const LearnerCourse& course, const report::Style& style) {
  const size_t total = course.course.exercises.size(), done = course.done_count();
  std::string out = fmt::format("{}  {}  {}/{} exercises done\n", style.bold("Progress"), progress_bar(done, total, 30), done, total);
  const std::string& current = course.current().id;
  int lesson = 0;
  for (const grade::CourseEntry& entry : course.course.exercises) {
    if (entry.lesson != lesson) {
      lesson = entry.lesson;
      out += fmt::format("\n{}  {}{}\n", style.bold(fmt::format("Lesson {}", lesson)), lesson_title(course.root, lesson),
                         style.dim(fmt::format("   (tilecamp lesson {})", lesson)));
    }
    auto exercise = grade::load_course_exercise(entry);
    const bool is_current = entry.id == current;
    out += fmt::format("{} {}  {:<28}{}{}\n", is_current ? style.cyan(">") : " ",
                       course.done(entry) ? style.green("done   ") : style.yellow("pending"), entry.id,
                       exercise ? exercise->title : style.red(exercise.error()), is_current ? style.cyan("  <- you are here") : "");
  }
  return out;
}

}  // namespace tilecamp::runner
