// tilecamp watch [EXERCISE] [--seed N] [--manual]: the watch screen without the welcome.
#include <iostream>

#include "runner/command.h"
#include "runner/learner/learner_course.h"
#include "runner/terminal.h"
#include "runner/learner/watch.h"

namespace tilecamp::runner {
namespace {

struct WatchArguments {
  std::string exercise;
  std::optional<uint64_t> seed;
  bool manual = false;
  SandboxChoice sandbox;
};

int run_watch_command(const WatchArguments& arguments) {
  auto course = open_learner_course();
  if (!course) {
    std::cerr << style_for(stderr).red("error") << ": " << course.error() << "\n";
    return k_exit_usage;
  }
  const grade::CourseEntry* entry = &course->current();
  if (!arguments.exercise.empty()) {
    auto named = course_entry(*course, arguments.exercise);
    if (!named) {
      std::cerr << style_for(stderr).red("error") << ": " << named.error() << "\n";
      return k_exit_usage;
    }
    entry = *named;
  }
  WatchOptions options;
  options.seed = arguments.seed;
  options.manual = arguments.manual;
  options.sandbox = arguments.sandbox;
  return run_watch(*course, *entry, options);
}

}  // namespace

std::function<int()> setup_watch_command(CommandLine& app) {
  auto arguments = std::make_shared<WatchArguments>();
  CommandLine command = app.subcommand("watch", "Check an exercise every time you save it (the current one by default)");
  command.footer(
      "Examples:\n"
      "  tilecamp watch                         # the exercise you are on\n"
      "  tilecamp watch 02-transpose-tiled      # jump to another exercise\n"
      "  tilecamp watch --manual                # no file watching: press r after saving\n\n"
      "Keys: n next (once passed), h hint, l list, v lesson, r re-check, s solution (once passed),\n"
      "x reset (asks first), q quit. Use --manual where saves go unnoticed (some network or\n"
      "shared folders); without inotify tilecamp compares the file's time every second.");
  command.option("exercise", arguments->exercise, "the exercise, e.g. 01-vector-add");
  command.option("--seed", arguments->seed, "seed for the hidden cases (default: a fresh one per session)");
  command.flag("--manual", arguments->manual, "do not watch the file; press r to check");
  add_sandbox_options(command, arguments->sandbox, 30);
  return [arguments] { return run_watch_command(*arguments); };
}

}  // namespace tilecamp::runner
