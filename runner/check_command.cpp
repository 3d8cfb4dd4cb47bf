// tilecamp check EXERCISE [--file PATH] [--seed N] [--json]
#include <iostream>
#include <random>

#include "checker/compile/nvrtc_compiler.h"
#include "checker/grade/grade.h"
#include "checker/report/verdict_report.h"
#include "runner/backend_choice.h"
#include "runner/command.h"
#include "runner/terminal.h"

namespace tilecamp::runner {
namespace {

struct CheckOptions {
  std::string exercise;
  std::string file;
  std::optional<uint64_t> seed;
  std::string backend = "auto";
  bool json = false;
};

int exit_code(grade::VerdictStatus status) {
  switch (status) {
    case grade::VerdictStatus::Pass: return k_exit_ok;
    case grade::VerdictStatus::Fail: return k_exit_failed;
    case grade::VerdictStatus::Error: return k_exit_usage;
  }
  return k_exit_usage;
}

// A verdict that could not even start (no course, unknown exercise, unreadable file).
int report_error(const CheckOptions& options, const std::string& message) {
  grade::Verdict verdict;
  verdict.exercise = options.exercise;
  verdict.file = options.file;
  verdict.backend = "emulator";
  verdict.status = grade::VerdictStatus::Error;
  verdict.error = message;
  if (options.json) {
    std::cout << report::verdict_json(verdict).dump(2) << "\n";
  } else {
    std::cerr << style_for(stderr).red("error") << ": " << message << "\n";
  }
  return k_exit_usage;
}

int run_check(CheckOptions options) {
  auto root = find_course_root();
  if (!root) {
    return report_error(options, k_no_course);
  }
  auto exercise = grade::find_exercise(*root, options.exercise);
  if (!exercise) return report_error(options, exercise.error());
  std::filesystem::path file = options.file.empty() ? exercise->stub_path() : std::filesystem::path(options.file);
  if (options.file.empty()) {  // show the path relative to where the learner stands
    std::error_code ignored;
    auto relative = std::filesystem::relative(file, std::filesystem::current_path(ignored), ignored);
    if (!relative.empty() && !relative.string().starts_with("..")) file = relative;
  }
  options.file = file.string();
  SourceFile source{file.string(), ""};
  std::string error;
  if (!read_file(file, source.text, error)) return report_error(options, error);

  grade::GradeOptions grade_options;
  grade_options.seed = options.seed ? *options.seed : std::random_device{}() % 1000000;
  auto backend = choose_backend(options.backend);
  if (!backend) return report_error(options, backend.error());
  NvrtcCompiler compiler;
  const grade::Verdict verdict = grade::grade_exercise(*exercise, source, compiler, **backend, grade_options);
  if (options.json) {
    std::cout << report::verdict_json(verdict).dump(2) << "\n";
  } else {
    std::cout << report::verdict_text(verdict, style_for(stdout));
  }
  return exit_code(verdict.status);
}

}  // namespace

std::function<int()> setup_check_command(CLI::App& app) {
  auto options = std::make_shared<CheckOptions>();
  CLI::App* command = app.add_subcommand("check", "Grade an exercise: compile, run hidden tests, check speed");
  command->footer(
      "Examples:\n"
      "  tilecamp check 02-transpose-tiled                   # your exercises/02-transpose-tiled/kernel.cu\n"
      "  tilecamp check 02-transpose-tiled --file mine.cu    # another file, graded as that exercise\n"
      "  tilecamp check 02-transpose-tiled --seed 4242       # the same hidden cases as an earlier run\n\n"
      "Exit status: 0 passed, 1 failed (a check did not pass), 2 could not check.");
  command->add_option("exercise", options->exercise, "the exercise, e.g. 02-transpose-tiled")->required();
  command->add_option("--file", options->file, "check this kernel file instead of the exercise's kernel.cu");
  command->add_option("--seed", options->seed, "seed for the hidden cases and inputs (default: a fresh one, printed)");
  command->add_option("--backend", options->backend, k_backend_help);
  command->add_flag("--json", options->json, "print the verdict as one JSON object");
  return [options] { return run_check(*options); };
}

}  // namespace tilecamp::runner
