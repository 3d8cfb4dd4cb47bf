// tilecamp list [--json]: the exercises lesson by lesson, done or pending, with a progress bar.
#include <iostream>
#include <nlohmann/json.hpp>

#include "runner/command.h"
#include "runner/learner/learner_course.h"
#include "runner/learner/progress_list.h"
#include "runner/terminal.h"

namespace tilecamp::runner {
namespace {

// The JSON contract (docs/learner-reference.md, "Your progress: `tilecamp list`"): keep its fields as they are.
nlohmann::ordered_json list_json(const LearnerCourse& course) {
  nlohmann::ordered_json items = nlohmann::ordered_json::array();
  for (const grade::CourseEntry& entry : course.course.exercises) {
    items.push_back({{"id", entry.id},
                     {"lesson", entry.lesson},
                     {"path", exercise_file_shown(entry)},
                     // relative to the course; a folder made by `tilecamp init` names the one it came from
                     {"solution", course.source == course.root
                                      ? "solutions/" + entry.id + "/kernel.cu"
                                      : (course.source / "solutions" / entry.id / "kernel.cu").string()},
                     {"done", course.done(entry)}});
  }
  return nlohmann::ordered_json{{"exercises", items}};
}

int run_list(bool json) {
  auto course = open_learner_course();
  if (!course) {
    std::cerr << style_for(stderr).red("error") << ": " << course.error() << "\n";
    return k_exit_usage;
  }
  if (json) {
    std::cout << list_json(*course).dump(2) << "\n";
    return k_exit_ok;
  }
  std::cout << progress_list_text(*course, style_for(stdout))
            << "\nWork on the current one: tilecamp   check one: tilecamp check EXERCISE   all: tilecamp check-all\n";
  return k_exit_ok;
}

}  // namespace

std::function<int()> setup_list_command(CommandLine& app) {
  auto json = std::make_shared<bool>(false);
  CommandLine command = app.subcommand("list", "List the exercises lesson by lesson, done or pending");
  command.footer(
      "Examples:\n"
      "  tilecamp list\n"
      "  tilecamp list --json   # {\"exercises\": [{\"id\", \"lesson\", \"path\", \"solution\", \"done\"}]}\n\n"
      "An exercise is done when its last check passed and its kernel.cu has not changed since.");
  command.flag("--json", *json, "print the list as JSON");
  return [json] { return run_list(*json); };
}

}  // namespace tilecamp::runner
