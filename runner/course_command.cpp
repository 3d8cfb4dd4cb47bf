// `tilecamp` with no command: a short welcome, the exercises, then lesson 1.
#include <algorithm>
#include <iostream>
#include <sstream>

#include "checker/grade/exercise.h"
#include "runner/command.h"
#include "runner/terminal.h"

namespace tilecamp::runner {
namespace {

std::string exercise_list(const std::filesystem::path& root, const report::Style& style, std::string& first) {
  std::ostringstream out;
  auto course = grade::load_course(root);
  if (!course) return "  " + style.red("error") + ": " + course.error() + "\n";
  for (const grade::CourseEntry& entry : course->exercises) {
    auto exercise = grade::load_course_exercise(entry);
    if (!exercise) {
      out << "  " << style.red(entry.id) << "  " << exercise.error() << "\n";
      continue;
    }
    if (first.empty()) first = exercise->name;
    out << "  " << style.cyan(exercise->name) << "  " << exercise->title << " (lesson " << exercise->lesson << ")  "
        << style.dim("exercises/" + exercise->name + "/kernel.cu") << "\n";
  }
  return out.str();
}

}  // namespace

int run_course_overview() {
  const report::Style style = style_for(stdout);
  auto root = find_course_root();
  if (!root) {
    std::cerr << style.red("error") << ": " << k_no_course << "\n";
    return k_exit_usage;
  }
  std::string first;
  std::ostringstream out;
  out << style.bold("tilecamp") << ": the GPU memory hierarchy, learned by writing CUDA kernels\n\n"
      << "Kernels are graded on tilecamp's emulator: it runs the PTX that NVRTC makes of your file\n"
      << "and counts what Nsight Compute counts on a real GPU, line by line. No GPU is needed.\n"
      << "Lessons: tilecamp lesson N (q leaves the pager).  Every command: tilecamp --help\n\n"
      << style.bold("Exercises") << "\n"
      << exercise_list(*root, style, first);
  if (!first.empty()) {
    out << "\nWhen a lesson sends you to an exercise, open its kernel.cu in your editor, follow the\n"
        << "TODOs, then run: tilecamp check " << first << "\n";
  }
  out << "\nProfile any kernel: tilecamp profile FILE.cu --kernel NAME --grid X,Y --block X,Y --arg SPEC...\n";
  std::error_code ignored;
  if (!std::filesystem::is_directory(*root / "lessons", ignored)) {
    std::cout << out.str();
    return k_exit_ok;
  }
  out << "\n" << std::string(78, '-') << "\n\n";
  return show_lesson(1, out.str());
}

}  // namespace tilecamp::runner
