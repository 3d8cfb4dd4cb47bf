// tilecamp lesson N: a lesson rendered for the terminal (runner/learner/markdown_render.h), paged when it
// is longer than the screen.
#include <iostream>

#include "runner/command.h"
#include "runner/learner/lessons.h"
#include "runner/terminal.h"

namespace tilecamp::runner {
namespace {

int run_lesson(int number) {
  auto root = find_course_root();
  if (!root) {
    std::cerr << style_for(stderr).red("error") << ": " << k_no_course << "\n";
    return k_exit_usage;
  }
  if (auto shown = show_lesson(*root, number); !shown) {
    std::cerr << style_for(stderr).red("error") << ": " << shown.error() << "\nShow one with: tilecamp lesson N\n";
    return k_exit_usage;
  }
  return k_exit_ok;
}

}  // namespace

std::function<int()> setup_lesson_command(CommandLine& app) {
  auto number = std::make_shared<int>(1);
  CommandLine command = app.subcommand("lesson", "Show a lesson of the course");
  command.footer(
      "Example:\n"
      "  tilecamp lesson 2      # shared-memory tiling\n\n"
      "On a terminal a long lesson is paged: space or f a page on, b back, j/k a line, q to leave.\n"
      "Set TILECAMP_NO_PAGER=1 to print it straight; NO_COLOR=1 for no colours. Piped, it is plain text.");
  command.option("number", *number, "the lesson's number, e.g. 1").required();
  return [number] { return run_lesson(*number); };
}

}  // namespace tilecamp::runner
