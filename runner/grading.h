// Grading one of the course's exercises from the runner: what `check`, `check-all` and (later)
// the watch mode share. Never throws; every failure comes back as a verdict.
#pragma once

#include <filesystem>
#include <string>

#include "checker/compile/compiler.h"
#include "checker/grade/exercise.h"
#include "checker/grade/verdict.h"
#include "runner/sandbox_options.h"

namespace tilecamp::runner {

struct GradeSettings {
  uint64_t seed = 0;
  std::string backend = "auto";
  std::string gpu = "h200";
  bool sanitize = false;  // on a GPU: also run the cases under compute-sanitizer's memcheck,
                          // racecheck and synccheck, and fold their findings into the verdict
  std::string explain_file;  // see grade::GradeOptions::explain_file
  SandboxChoice sandbox;     // the check's limits, and whether kernels run sandboxed
  bool require_sandbox = false;  // grading others' kernels: no check without Landlock and seccomp
  bool for_student = false;      // feedback for a student: compiler messages quote only their file's words
};

// Grades `file` as `exercise`. `shown_path` is how the verdict names the file.
grade::Verdict grade_file(const grade::Exercise& exercise, const std::filesystem::path& file,
                          const std::string& shown_path, const GradeSettings& settings);

// A verdict for a check that could not start (no course, unknown exercise, unreadable file).
grade::Verdict error_verdict(const std::string& exercise, const std::string& file, const std::string& message);

// Why a verdict's cases stopped: its last failure (a compile error, a crash or a race in an earlier
// case...), or its error.
std::string stopping_failure(const grade::Verdict& verdict);

// 0 passed, 1 failed, 2 could not check.
int exit_code(grade::VerdictStatus status);

// An exercise of the course found from the working directory, and the kernel file to run as it:
// `file`, or the exercise's kernel.cu when empty. An Error (for exit 2) names what is missing.
struct ExerciseFile {
  grade::Exercise exercise;
  SourceFile source;  // its path as the person gave it, or kernel.cu's relative to here
};
Expected<ExerciseFile> find_exercise_file(const std::string& exercise, const std::string& file);

// `path` relative to the working directory when it lies below it, else as given.
std::string shown_path(const std::filesystem::path& path);

// A fresh seed for the hidden cases, printed with every verdict so a run can be repeated.
uint64_t fresh_seed();
// A seed no one can find by trying: below 2^48 (exact in JSON), for grading a class, where the
// values a student sees in a public case's failure must not give away the hidden cases' draws.
uint64_t fresh_secret_seed();

}  // namespace tilecamp::runner
