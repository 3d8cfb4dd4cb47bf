// `tilecamp` with no command. On a terminal: the first time a short welcome and the current
// lesson, then the watch screen on the current exercise; later runs resume there directly. Piped
// or scripted: the welcome and where the learner stands, as plain text.
#include <fmt/format.h>
#include <unistd.h>

#include <iostream>

#include "runner/backend_choice.h"
#include "runner/command.h"
#include "runner/learner/learner_course.h"
#include "runner/learner/lessons.h"
#include "runner/learner/markdown_render.h"
#include "runner/learner/progress_list.h"
#include "runner/terminal.h"
#include "runner/learner/tty.h"
#include "runner/learner/watch.h"

namespace tilecamp::runner {
namespace {

// Which backend `auto` picks here, said for a learner.
std::string grading_backend() {
  auto sandbox = open_sandbox({}, false);  // no child starts: only asked where kernels would run
  if (!sandbox) return "Your kernels are graded on tilecamp's emulator.";
  auto choice = choose_backend("auto", **sandbox);
  if (!choice) return "Your kernels are graded on tilecamp's emulator (" + choice.error() + ").";
  const std::string name = choice->backend->name();
  if (name == "emulator") {
    return "Your kernels are graded on tilecamp's **emulator**: no GPU was found here, and none is needed. It runs "
           "the PTX of your kernel and counts what Nsight Compute counts on a real GPU, line by line.";
  }
  return "Your kernels are graded on the **GPU** found here (" + name + "), and the emulator explains their memory "
         "traffic line by line.";
}

std::string welcome_markdown(const LearnerCourse& course, const std::string& finish) {
  const grade::CourseEntry& current = course.current();
  return fmt::format(
      "# Welcome to tilecamp\n\n"
      "tilecamp teaches the GPU memory hierarchy (coalescing, shared-memory tiling, `__syncthreads`, bank "
      "conflicts, SGEMM) by having you write CUDA kernels: {} lessons, {} exercises.\n\n"
      "Each exercise is a kernel stub with `// TODO`s. You complete it in your own editor, and tilecamp checks it "
      "every time you save: the results on hidden test cases, and the memory behaviour a profiler would show.\n\n"
      "{}\n\n"
      "While you work: **h** a hint, **n** the next exercise once you pass, **l** your progress, **v** the "
      "lesson, **r** check again, **s** the solution once you pass, **x** start the exercise over.\n\n"
      "Quit any time with **q**; run `tilecamp` again to carry on where you left off. You start with "
      "`{}`, in `{}`.\n\n{}",
      lesson_files(course.root).size(), course.course.exercises.size(), grading_backend(), current.id,
      exercise_file_shown(current), finish);
}

// Plain text for a pipe or a script: nothing waits for keys.
int print_overview(const LearnerCourse& course) {
  const grade::CourseEntry& current = course.current();
  const std::string finish = fmt::format(
      "Read lesson {} with `tilecamp lesson {}`, edit `{}`, and run `tilecamp watch` to have every save checked "
      "(or `tilecamp check {}` once). Run `tilecamp` in a terminal for all of it in one screen.",
      current.lesson, current.lesson, exercise_file_shown(current), current.id);
  const report::Style style = style_for(stdout);
  for (const std::string& line : render_markdown(welcome_markdown(course, finish), {text_width(), style.color()})) {
    std::cout << line << "\n";
  }
  std::cout << "\n" << progress_list_text(course, style);
  return k_exit_ok;
}

// The welcome screen; false when the learner quits from it.
bool welcome(const LearnerCourse& course) {
  const grade::CourseEntry& current = course.current();
  const std::string title = lesson_title(course.root, current.lesson);
  const std::string finish = fmt::format("**Press Enter to read lesson {}{}, or q to quit.**", current.lesson,
                                         title.empty() ? "" : " (" + title + ")");
  std::string screen = screen::k_clear;
  const size_t width = std::min<size_t>(text_width(), 80);  // a short text reads better narrow
  for (const std::string& line : render_markdown(welcome_markdown(course, finish), {width, style_for(stdout).color()})) {
    screen += line + "\n";
  }
  RawMode raw;
  write_now(screen);
  for (;;) {
    const Key key = read_key(STDIN_FILENO, -1);
    if (key.code == KeyCode::Enter || key.is(' ')) return true;
    if (key.is('q') || key.is('Q') || key.code == KeyCode::Interrupt || key.code == KeyCode::EndOfInput) return false;
  }
}

}  // namespace

int run_course_overview() {
  auto course = open_learner_course();
  if (!course) {
    std::cerr << style_for(stderr).red("error") << ": " << course.error() << "\n";
    return k_exit_usage;
  }
  if (!interactive_terminal()) return print_overview(*course);
  const grade::CourseEntry& current = course->current();
  WatchOptions options;
  if (!course->progress.welcome_seen()) {
    const bool start = welcome(*course);
    std::string error;
    if (!course->progress.set_welcome_seen(error)) std::cerr << "note: your progress could not be saved: " << error << "\n";
    if (!start) {
      std::cout << "\nRun tilecamp again when you are ready.\n";
      return k_exit_ok;
    }
    if (auto shown = show_lesson(course->root, current.lesson, true); !shown) options.greeting = shown.error();
    if (options.greeting.empty()) {
      options.greeting = fmt::format("Now open {} in your editor and follow its TODOs.", exercise_file_shown(current));
    }
  } else {
    options.greeting = fmt::format("Welcome back: you are on {} (lesson {}). v shows the lesson again.", current.id,
                                   current.lesson);
  }
  return run_watch(*course, current, options);
}

}  // namespace tilecamp::runner
