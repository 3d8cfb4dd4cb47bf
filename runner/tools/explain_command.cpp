// tilecamp explain EXERCISE [--line N] [--file PATH] [--seed N]
// Runs the exercise's cases on the emulator as `check` does, watching every access of the
// performance case (the one the thresholds are measured on), and draws the costliest.
#include <fmt/format.h>

#include <unistd.h>

#include <iostream>

#include "checker/grade/cases.h"
#include "checker/grade/grade.h"
#include "runner/command.h"
#include "runner/ptx_cache.h"
#include "runner/tools/explain_text.h"
#include "runner/grading.h"
#include "runner/terminal.h"
#include "runner/learner/tty.h"

namespace tilecamp::runner {
namespace {

struct ExplainOptions {
  std::string exercise;
  std::optional<int> line;
  std::string file;
  uint64_t seed = 1;
  SandboxChoice sandbox;
};

// --seed: a whole number, 0 or more (CLI11 would take -1 as 2^64 - 1).
std::string check_seed(const std::string& text) {
  const bool digits = !text.empty() && text.find_first_not_of("0123456789") == std::string::npos;
  return digits ? "" : "expected a whole number, 0 or more (got '" + text + "')";
}

std::string performance_case(const grade::Exercise& exercise, uint64_t seed) {
  for (const grade::ProblemCase& problem_case : grade::draw_cases(exercise.problem, seed)) {
    if (problem_case.performance) return grade::case_shape(exercise.problem, problem_case);
  }
  return "";
}

int run_explain(const ExplainOptions& options) {
  auto found = find_exercise_file(options.exercise, options.file);
  if (!found) return fail_with_code(found.error(), k_exit_usage);
  const grade::Exercise* exercise = &found->exercise;
  const SourceFile& source = found->source;

  viz::WorstAccessFinder finder;
  grade::GradeOptions grading;
  grading.seed = options.seed;
  grading.cases_only = true;
  grading.observer = &finder;
  auto sandbox = open_sandbox(options.sandbox, false);
  if (!sandbox) return fail_with_code(sandbox.error(), k_exit_usage);
  grading.emulator = [sandbox = *sandbox] { return sandbox->emulator(); };
  std::unique_ptr<Compiler> compiler = cached_compiler(**sandbox);
  std::unique_ptr<Backend> emulator = (*sandbox)->emulator();
  const grade::Verdict verdict = grade::grade_exercise(*exercise, source, *compiler, *emulator, grading);
  if (finder.lines().empty()) {
    return fail_with_code("the performance case did not run, so there is nothing to draw: " + stopping_failure(verdict) +
                         "\n  (tilecamp check " + exercise->name + " shows every check)",
                     k_exit_failed);
  }
  const viz::LineAccesses* line = options.line ? finder.find_line(*options.line) : nullptr;
  if (options.line && line == nullptr) {
    return fail_with_code(no_access_at(finder, *options.line, source.text), k_exit_usage);
  }
  const report::Style style = style_for(stdout);
  std::string constants;
  for (const auto& [name, value] : verdict.constants) constants += fmt::format(", {} = {}", name, value);
  std::cout << style.bold(exercise->name) << "  " << source.path << " on the emulator\n"
            << "  performance case " << performance_case(*exercise, options.seed) << constants << "\n\n"
            << (line ? explain_line(*line, source.text, style) : explain_kernel(finder, source.text, style));
  return k_exit_ok;
}

}  // namespace

std::function<int()> setup_explain_command(CommandLine& app) {
  auto options = std::make_shared<ExplainOptions>();
  CommandLine command = app.subcommand(
      "explain", "Draw your kernel's costliest memory access: lanes against banks or against 32-byte sectors");
  command.footer(
      "Examples:\n"
      "  tilecamp explain 04-transpose-padded            # the worst shared and global access of the kernel\n"
      "  tilecamp explain 04-transpose-padded --line 42  # the worst accesses of line 42\n\n"
      "The accesses are those of the exercise's performance case on the emulator, the run its thresholds\n"
      "are measured on. Exit status: 0 drawn, 1 the kernel did not get that far, 2 bad usage.");
  command.option("exercise", options->exercise, "the exercise, e.g. 04-transpose-padded").required();
  command.option("--line", options->line, "draw the accesses of this source line").check(check_line_number, "LINE");
  command.option("--file", options->file, "explain this kernel file instead of the exercise's kernel.cu");
  command.option("--seed", options->seed, "seed for the cases' inputs (default 1)")
      .check(check_seed, "N");
  add_sandbox_options(command, options->sandbox, 60);
  return [options] { return run_explain(*options); };
}

}  // namespace tilecamp::runner
