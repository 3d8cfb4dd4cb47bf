// tilecamp hint [EXERCISE], reset EXERCISE, solution EXERCISE, next: what the watch screen's
// h, x, s and n keys do, as commands for a learner who prefers their own shell.
#include <fmt/format.h>

#include <iostream>

#include "runner/command.h"
#include "runner/learner/learner_actions.h"
#include "runner/learner/learner_course.h"
#include "runner/learner/lessons.h"
#include "runner/learner/pager.h"
#include "runner/learner/stub_store.h"
#include "runner/terminal.h"
#include "runner/learner/tty.h"

namespace tilecamp::runner {
namespace {

int fail(const std::string& message, int code = k_exit_usage) {
  std::cerr << style_for(stderr).red("error") << ": " << message << "\n";
  return code;
}

// The named exercise, or the current one when `id` is empty.
Expected<const grade::CourseEntry*> chosen(const LearnerCourse& course, const std::string& id) {
  if (id.empty()) return &course.current();
  return course_entry(course, id);
}

int run_hint(const std::string& id) {
  auto course = open_learner_course();
  if (!course) return fail(course.error());
  auto entry = chosen(*course, id);
  if (!entry) return fail(entry.error());
  auto exercise = grade::load_course_exercise(**entry);
  if (!exercise) return fail(exercise.error());
  exercise->hints = course->hints(*exercise);  // a folder made by `tilecamp init` has none of its own
  auto shown = reveal_hint(*course, *exercise);
  if (!shown) return fail(shown.error());
  const report::Style style = style_for(stdout);
  std::cout << style.bold((*entry)->id) << "  " << exercise->title << "\n";
  for (const std::string& line : hint_lines(*exercise, *shown, text_width(), style.color())) std::cout << line << "\n";
  if (*shown < static_cast<int>(exercise->hints.size())) {
    std::cout << style.dim(fmt::format("(run it again for hint {})", *shown + 1)) << "\n";
  }
  return k_exit_ok;
}

bool confirmed(const std::string& file) {
  std::cout << fmt::format("Reset {} to the original stub? Your version is kept in .tilecamp/reset/. [y/N] ", file) << std::flush;
  std::string answer;
  std::getline(std::cin, answer);
  return answer == "y" || answer == "Y" || answer == "yes";
}

int run_reset(const std::string& id, bool yes) {
  auto course = open_learner_course();
  if (!course) return fail(course.error());
  auto entry = course_entry(*course, id);
  if (!entry) return fail(entry.error());
  if (!yes) {
    if (!interactive_terminal()) return fail("reset asks before it overwrites your kernel: run it in a terminal, or add --yes");
    if (!confirmed(exercise_file_shown(**entry))) {
      std::cout << "Nothing was reset.\n";
      return k_exit_ok;
    }
  }
  auto restored = StubStore(course->root).restore(**entry);
  if (!restored) return fail(restored.error());
  std::cout << *restored << ".\n";
  return k_exit_ok;
}

int run_solution(const std::string& id) {
  auto course = open_learner_course();
  if (!course) return fail(course.error());
  auto entry = course_entry(*course, id);
  if (!entry) return fail(entry.error());
  const bool color = style_for(stdout).color();
  auto lines = solution_lines(*course, **entry, static_cast<size_t>(interactive_terminal() ? screen_size().cols : 80), color);
  if (!lines) return fail(lines.error(), k_exit_failed);
  show_paged(*lines, "solution of " + (*entry)->id, color);
  return k_exit_ok;
}

int run_next() {
  auto course = open_learner_course();
  if (!course) return fail(course.error());
  const int lesson = course->current().lesson;
  auto next = advance(*course);
  if (!next) return fail(next.error(), k_exit_failed);
  const grade::CourseEntry& entry = **next;
  auto exercise = grade::load_course_exercise(entry);
  std::cout << fmt::format("Now on {}{}: open {} in your editor.\n", entry.id, exercise ? ": " + exercise->title : "",
                           exercise_file_shown(entry));
  if (entry.lesson != lesson) std::cout << fmt::format("It belongs to lesson {}: read it first with tilecamp lesson {}.\n", entry.lesson, entry.lesson);
  std::cout << "tilecamp (or tilecamp watch) checks it every time you save.\n";
  return k_exit_ok;
}

}  // namespace

std::function<int()> setup_hint_command(CommandLine& app) {
  auto id = std::make_shared<std::string>();
  CommandLine command = app.subcommand("hint", "Show one more hint for an exercise (the current one by default)");
  command.footer(
      "Examples:\n"
      "  tilecamp hint                  # the exercise you are on\n"
      "  tilecamp hint 02-transpose-tiled\n\n"
      "Each run reveals one more hint and shows those revealed so far; tilecamp remembers how many you saw.");
  command.option("exercise", *id, "the exercise, e.g. 01-vector-add");
  return [id] { return run_hint(*id); };
}

std::function<int()> setup_reset_command(CommandLine& app) {
  auto id = std::make_shared<std::string>();
  auto yes = std::make_shared<bool>(false);
  CommandLine command = app.subcommand("reset", "Start an exercise over from its original stub");
  command.footer(
      "Example:\n"
      "  tilecamp reset 01-vector-add\n"
      "  tilecamp reset 01-vector-add --yes    # without asking\n\n"
      "Your version is kept in .tilecamp/reset/EXERCISE-DATE-TIME.cu (every reset its own). The stubs are those tilecamp found the first time\n"
      "it ran in this course folder (kept in .tilecamp/stubs/).");
  command.option("exercise", *id, "the exercise, e.g. 01-vector-add").required();
  command.flag("--yes,-y", *yes, "reset without asking");
  return [id, yes] { return run_reset(*id, *yes); };
}

std::function<int()> setup_solution_command(CommandLine& app) {
  auto id = std::make_shared<std::string>();
  CommandLine command = app.subcommand("solution", "Show an exercise's solution, once your kernel passes");
  command.footer(
      "Example:\n"
      "  tilecamp solution 01-vector-add\n\n"
      "Next to your kernel when the terminal is wide enough; + marks the solution's lines that yours lacks.\n"
      "Exit status 1 while the exercise has not passed.");
  command.option("exercise", *id, "the exercise, e.g. 01-vector-add").required();
  return [id] { return run_solution(*id); };
}

std::function<int()> setup_next_command(CommandLine& app) {
  app.subcommand("next", "Move on to the next exercise, once the current one passes")
      .footer(
          "Example:\n"
          "  tilecamp next\n\n"
          "Exit status 1 while the current exercise has not passed (tilecamp check EXERCISE records a pass).");
  return [] { return run_next(); };
}

}  // namespace tilecamp::runner
