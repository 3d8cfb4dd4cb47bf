#include "runner/grading.h"

#include <random>
#include <sstream>

#include "checker/gpu/gpu_backend.h"
#include "checker/grade/grade.h"
#include "runner/backend_choice.h"
#include "runner/ptx_cache.h"
#include "runner/terminal.h"

namespace tilecamp::runner {
namespace {

// compute-sanitizer's findings from the worker's output: the summary's error count and the first
// report lines ("Invalid __global__ write of size 4 bytes", "at transposeTiled+0x90 in kernel.cu:12").
grade::Check sanitizer_check(const std::string& tool, const std::string& output) {
  grade::Check check;
  check.name = "compute-sanitizer " + tool;
  check.kind = grade::CheckKind::Safety;
  std::istringstream in(output);
  std::string line, findings;
  int shown = 0;
  bool summary = false;
  long errors = 0;
  for (std::getline(in, line); in; std::getline(in, line)) {
    if (!line.starts_with("=========")) continue;
    const size_t start = line.find_first_not_of("= ");
    if (start == std::string::npos) continue;
    const std::string text = line.substr(start);
    if (text.find("SUMMARY") != std::string::npos) {
      summary = true;
      const size_t at = text.find("(") != std::string::npos && tool == "racecheck" ? text.find("(") + 1 : text.find(": ") + 2;
      errors += std::strtol(text.c_str() + std::min(at, text.size()), nullptr, 10);
      continue;
    }
    if (text.empty() || text.starts_with("COMPUTE-SANITIZER") || text.starts_with("Target application")) continue;
    if (shown++ < 8) findings += "\n  " + text;
  }
  if (!summary) {
    check.status = grade::CheckStatus::Error;
    check.message = "compute-sanitizer printed no summary; its output:\n" + output.substr(0, 2000);
  } else if (errors == 0) {
    check.status = grade::CheckStatus::Pass;
  } else {
    check.status = grade::CheckStatus::Fail;
    check.message = std::to_string(errors) + " error(s):" + findings;
  }
  return check;
}

// Grades with the compiler and backend given, then again under compute-sanitizer if asked.
grade::Verdict grade_with(const grade::Exercise& exercise, const SourceFile& source, Compiler& compiler,
                          const std::shared_ptr<sandbox::Sandbox>& sandbox, BackendChoice& choice,
                          const GradeSettings& settings) {
  grade::GradeOptions options;
  options.seed = settings.seed;
  options.gpu = settings.gpu;
  options.explain_file = settings.explain_file;
  options.own_words_only = settings.for_student;
  options.emulator = [sandbox] { return sandbox->emulator(); };
  grade::Verdict verdict = grade::grade_exercise(exercise, source, compiler, *choice.backend, options);
  if (!choice.note.empty()) verdict.notes.push_back(choice.note);
  if (!settings.sanitize) return verdict;
  if (choice.backend->name() != "gpu") {
    verdict.notes.push_back("--sanitize needs a GPU: compute-sanitizer checks kernels running on one");
    return verdict;
  }
  if (compute_sanitizer_path().empty()) {
    verdict.notes.push_back("--sanitize: compute-sanitizer is not installed (it comes with the CUDA toolkit)");
    return verdict;
  }
  options.cases_only = true;  // timings under a sanitizer mean nothing
  for (const char* tool : {"memcheck", "racecheck", "synccheck"}) {
    sandbox->start_check();
    auto sanitized = choose_backend("gpu", *sandbox, tool);
    if (!sanitized) {
      verdict.checks.push_back({std::string("compute-sanitizer ") + tool, grade::CheckKind::Safety,
                                grade::CheckStatus::Error, sanitized.error(), "", {}, {}});
      continue;
    }
    grade::grade_exercise(exercise, source, compiler, *sanitized->backend, options);
    auto& gpu = static_cast<gpu::GpuBackend&>(*sanitized->backend);
    verdict.checks.push_back(sanitizer_check(tool, gpu.finish_worker()));
  }
  grade::settle_status(verdict);
  return verdict;
}

}  // namespace

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
  auto sandbox = open_sandbox(settings.sandbox, settings.require_sandbox);
  if (!sandbox) return error_verdict(exercise.name, shown, sandbox.error());
  auto choice = choose_backend(settings.backend, **sandbox);
  if (!choice) return error_verdict(exercise.name, shown, choice.error());
  std::unique_ptr<CompileCache> compiler = cached_compiler(**sandbox);
  grade::Verdict verdict = grade_with(exercise, source, *compiler, *sandbox, *choice, settings);
  if (compiler->enabled()) verdict.ptx_cache = grade::Verdict::PtxCache{compiler->use().hits, compiler->use().misses};
  return verdict;
}

int exit_code(grade::VerdictStatus status) {
  switch (status) {
    case grade::VerdictStatus::Pass: return k_exit_ok;
    case grade::VerdictStatus::Fail: return k_exit_failed;
    case grade::VerdictStatus::Error: return k_exit_usage;
  }
  return k_exit_usage;
}

Expected<ExerciseFile> find_exercise_file(const std::string& name, const std::string& file) {
  auto root = find_course_root();
  if (!root) return make_error(k_no_course);
  TC_TRY_ASSIGN(grade::Exercise exercise, grade::find_exercise(*root, name));
  const std::filesystem::path path = file.empty() ? exercise.stub_path() : std::filesystem::path(file);
  SourceFile source{file.empty() ? shown_path(path) : file, ""};
  std::string error;
  if (!read_file(path, source.text, error)) return make_error(error);
  return ExerciseFile{std::move(exercise), std::move(source)};
}

std::string stopping_failure(const grade::Verdict& verdict) {
  for (auto check = verdict.checks.rbegin(); check != verdict.checks.rend(); ++check) {
    if (check->status == grade::CheckStatus::Fail || check->status == grade::CheckStatus::Error) {
      return check->name + ": " + check->message;
    }
  }
  return verdict.error;
}

std::string shown_path(const std::filesystem::path& path) {
  std::error_code ignored;
  auto relative = std::filesystem::relative(path, std::filesystem::current_path(ignored), ignored);
  if (!relative.empty() && !relative.string().starts_with("..")) return relative.string();
  return path.string();
}

uint64_t fresh_seed() { return std::random_device{}() % 1000000; }

uint64_t fresh_secret_seed() {
  std::random_device device;
  const uint64_t high = device(), low = device();
  return ((high << 32) | low) & ((uint64_t{1} << 48) - 1);
}

}  // namespace tilecamp::runner
