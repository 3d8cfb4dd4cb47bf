#include "runner/grading.h"

#include <random>

#include "checker/compile/nvrtc_compiler.h"
#include "checker/grade/grade.h"
#include "runner/backend_choice.h"
#include "runner/terminal.h"

namespace tilecamp::runner {

grade::Verdict error_verdict(const std::string& exercise, const std::string& file, const std::string& message) {
  grade::Verdict verdict;
  verdict.exercise = exercise;
  verdict.file = file;
  verdict.backend = "emulator";
  verdict.status = grade::VerdictStatus::Error;
  verdict.error = message;
  return verdict;
}

grade::Verdict grade_file(const grade::Exercise& exercise, const std::filesystem::path& file,
                          const std::string& shown, const GradeSettings& settings) {
  SourceFile source{shown, ""};
  std::string error;
  if (!read_file(file, source.text, error)) return error_verdict(exercise.name, shown, error);
  auto backend = choose_backend(settings.backend);
  if (!backend) return error_verdict(exercise.name, shown, backend.error());
  grade::GradeOptions options;
  options.seed = settings.seed;
  options.gpu = settings.gpu;
  NvrtcCompiler compiler;
  return grade::grade_exercise(exercise, source, compiler, **backend, options);
}

int exit_code(grade::VerdictStatus status) {
  switch (status) {
    case grade::VerdictStatus::Pass: return k_exit_ok;
    case grade::VerdictStatus::Fail: return k_exit_failed;
    case grade::VerdictStatus::Error: return k_exit_usage;
  }
  return k_exit_usage;
}

std::string shown_path(const std::filesystem::path& path) {
  std::error_code ignored;
  auto relative = std::filesystem::relative(path, std::filesystem::current_path(ignored), ignored);
  if (!relative.empty() && !relative.string().starts_with("..")) return relative.string();
  return path.string();
}

uint64_t fresh_seed() { return std::random_device{}() % 1000000; }

}  // namespace tilecamp::runner
