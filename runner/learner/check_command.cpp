// tilecamp check EXERCISE [--file PATH] [--backend auto|emulator|gpu] [--seed N] [--gpu NAME]
//                [--json | --format text|json|gradescope]
#include <nlohmann/json.hpp>
#include <iostream>

#include "checker/report/student_report.h"
#include "checker/report/verdict_report.h"
#include "runner/backend_choice.h"
#include "runner/command.h"
#include "runner/grading.h"
#include "runner/learner/progress.h"
#include "runner/terminal.h"

namespace tilecamp::runner {
namespace {

struct CheckOptions {
  std::string exercise;
  std::string file;
  std::optional<uint64_t> seed;
  std::string backend = "auto";
  std::string gpu = "h200";
  bool sanitize = false;
  bool json = false;
  std::string format = "text";
  SandboxChoice sandbox;
};

// Gradescope's results.json for this one submission (the student's view: hidden cases unshown).
void print_gradescope(const grade::Verdict& verdict, const std::string& title) {
  report::StudentResult result{"", {{verdict.exercise, title, verdict}}};
  std::cout << report::gradescope_results(result).dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
}

int print_verdict(const grade::Verdict& verdict, const std::string& format, const std::string& title = "") {
  const bool json = format == "json";
  for (const std::string& note : verdict.notes) {
    if (format == "text") std::cerr << style_for(stderr).dim("note: " + note) << "\n";
  }
  if (format == "gradescope") {
    print_gradescope(verdict, title);
  } else if (json) {
    std::cout << report::verdict_json(verdict).dump(2) << "\n";
  } else if (verdict.status == grade::VerdictStatus::Error && verdict.checks.empty()) {
    std::cerr << style_for(stderr).red("error") << ": " << verdict.error << "\n";
  } else {
    std::cout << report::verdict_text(verdict, style_for(stdout));
  }
  return exit_code(verdict.status);
}

// Remembers the result when the learner's own kernel.cu was checked, for `tilecamp list`.
void record_progress(const std::filesystem::path& root, const grade::Exercise& exercise,
                     const std::filesystem::path& file, const grade::Verdict& verdict) {
  std::error_code ignored;
  if (!std::filesystem::equivalent(file, exercise.stub_path(), ignored)) return;
  if (verdict.status == grade::VerdictStatus::Error) return;
  Progress progress = Progress::load(root);
  if (!progress.repair_note().empty()) std::cerr << style_for(stderr).yellow("note") << ": " << progress.repair_note() << "\n";
  std::string contents, error;
  if (!read_file(file, contents, error) || !progress.record(exercise.name, contents, verdict.status == grade::VerdictStatus::Pass, error)) {
    std::cerr << style_for(stderr).yellow("note") << ": progress not saved: " << error << "\n";
  }
}

int run_check(CheckOptions options) {
  if (options.json) options.format = "json";
  auto root = find_course_root();
  if (!root) return print_verdict(error_verdict(options.exercise, options.file, k_no_course), options.format);
  auto exercise = grade::find_exercise(*root, options.exercise);
  if (!exercise) return print_verdict(error_verdict(options.exercise, options.file, exercise.error()), options.format);
  const std::filesystem::path file = options.file.empty() ? exercise->stub_path() : std::filesystem::path(options.file);
  const std::string shown = options.file.empty() ? shown_path(file) : options.file;
  GradeSettings settings;
  settings.seed = options.seed ? *options.seed : fresh_seed();
  settings.backend = options.backend;
  settings.gpu = options.gpu;
  settings.sanitize = options.sanitize;
  settings.sandbox = options.sandbox;
  settings.for_student = options.format == "gradescope";
  std::error_code ignored;  // another file than the exercise's own: the explain hint must name it
  if (!options.file.empty() && !std::filesystem::equivalent(file, exercise->stub_path(), ignored)) {
    settings.explain_file = options.file;
  }
  const grade::Verdict verdict = grade_file(*exercise, file, shown, settings);
  record_progress(*root, *exercise, file, verdict);
  return print_verdict(verdict, options.format, exercise->title);
}

}  // namespace

std::function<int()> setup_check_command(CommandLine& app) {
  auto options = std::make_shared<CheckOptions>();
  CommandLine command = app.subcommand("check", "Grade an exercise: compile, run hidden tests, check speed");
  command.footer(
      "Examples:\n"
      "  tilecamp check 02-transpose-tiled                   # your exercises/02-transpose-tiled/kernel.cu\n"
      "  tilecamp check 02-transpose-tiled --file mine.cu    # another file, graded as that exercise\n"
      "  tilecamp check 02-transpose-tiled --seed 4242       # the same hidden cases as an earlier run\n"
      "  tilecamp check 02-transpose-tiled --json            # one JSON object (docs/learner-reference.md)\n"
      "  tilecamp check 02-transpose-tiled --format gradescope > /autograder/results/results.json\n\n"
      "Exit status: 0 passed, 1 failed (a check did not pass), 2 could not check.");
  command.option("exercise", options->exercise, "the exercise, e.g. 02-transpose-tiled").required();
  command.option("--file", options->file, "check this kernel file instead of the exercise's kernel.cu");
  command.option("--seed", options->seed, "seed for the hidden cases and inputs (default: a fresh one, printed)");
  command.option("--backend", options->backend, k_backend_help);
  command.option("--gpu", options->gpu, "the GPU whose cost model gives the emulator's modelled speedup (default h200)");
  command.flag("--sanitize", options->sanitize,
                    "on a GPU, also run the cases under compute-sanitizer (memcheck, racecheck, synccheck)");
  command.flag("--json", options->json, "print the verdict as one JSON object (the same as --format json)");
  command.option("--format", options->format,
                      "text (default), json, or gradescope: Gradescope's results.json, hidden cases unshown")
      .one_of({"text", "json", "gradescope"});
  add_sandbox_options(command, options->sandbox, 60);
  return [options] { return run_check(*options); };
}

}  // namespace tilecamp::runner
