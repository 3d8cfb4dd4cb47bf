#include "checker/grade/self_check.h"

#include <algorithm>
#include <fstream>
#include <set>
#include <sstream>

#include "checker/grade/exercise.h"
#include "checker/grade/grade.h"

namespace tilecamp::grade {
namespace {

constexpr uint64_t k_self_check_seed = 20261129;

bool read_source(const std::filesystem::path& path, SourceFile& source) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  std::stringstream buffer;
  buffer << in.rdbuf();
  source = {path.string(), buffer.str()};
  return true;
}

Verdict grade_file(const Exercise& exercise, const SourceFile& source, Compiler& compiler, const EmulatorFactory& emulator) {
  GradeOptions options;
  options.seed = k_self_check_seed;
  options.emulator = emulator;
  std::unique_ptr<Backend> backend = emulator();
  return grade_exercise(exercise, source, compiler, *backend, options);
}

// A `stub_fails` entry names a check kind ("safety") or part of a check's name (a metric).
bool check_matches(const Check& check, const std::string& reason) {
  return reason == check_kind_name(check.kind) || check.name.find(reason) != std::string::npos;
}

std::string failures(const Verdict& verdict) {
  std::string why = verdict.error;
  for (const Check& check : verdict.checks) {
    if (check.status == CheckStatus::Fail) why += (why.empty() ? "" : "; ") + check.name + ": " + check.message;
  }
  return why;
}

void check_stub(const Exercise& exercise, Compiler& compiler, const EmulatorFactory& emulator, SelfCheckResult& result) {
  SourceFile stub;
  if (!read_source(exercise.stub_path(), stub)) {
    result.problems.push_back("cannot read " + exercise.stub_path().string());
    return;
  }
  if (stub.text.find("// TODO") == std::string::npos) result.problems.push_back("the stub has no `// TODO` marker");
  const Verdict verdict = grade_file(exercise, stub, compiler, emulator);
  if (verdict.status != VerdictStatus::Fail) {
    result.problems.push_back(std::string("the stub should fail, but its verdict is ") +
                              verdict_status_name(verdict.status) + (verdict.error.empty() ? "" : ": " + verdict.error));
    return;
  }
  for (const Check& check : verdict.checks) {
    if (check.status != CheckStatus::Fail) continue;
    const bool expected = std::any_of(exercise.stub_fails.begin(), exercise.stub_fails.end(),
                                      [&](const std::string& reason) { return check_matches(check, reason); });
    if (!expected) {
      result.problems.push_back("the stub fails `" + check.name + "` (" + check_kind_name(check.kind) +
                                "), which stub_fails does not name: " + check.message);
    }
  }
  for (const std::string& reason : exercise.stub_fails) {
    const bool seen = std::any_of(verdict.checks.begin(), verdict.checks.end(), [&](const Check& check) {
      return check.status == CheckStatus::Fail && check_matches(check, reason);
    });
    if (!seen) result.problems.push_back("the stub should fail a check matching `" + reason + "`, but does not");
  }
}

void check_solution(const Exercise& exercise, const std::filesystem::path& course_root, Compiler& compiler,
                    const EmulatorFactory& emulator, SelfCheckResult& result) {
  SourceFile solution;
  const std::filesystem::path path = course_root / "solutions" / exercise.name / "kernel.cu";
  if (!read_source(path, solution)) {
    result.problems.push_back("no solution at " + path.string());
    return;
  }
  const Verdict verdict = grade_file(exercise, solution, compiler, emulator);
  if (verdict.status != VerdictStatus::Pass) result.problems.push_back("the solution does not pass: " + failures(verdict));
}

bool lesson_exists(const std::filesystem::path& course_root, int lesson) {
  char prefix[8];
  std::snprintf(prefix, sizeof prefix, "%02d-", lesson);
  std::error_code error;
  for (const auto& entry : std::filesystem::directory_iterator(course_root / "lessons", error)) {
    const std::string name = entry.path().filename().string();
    if (name.starts_with(prefix) && name.ends_with(".md")) return true;
  }
  return false;
}

}  // namespace

bool SelfCheckReport::passed() const {
  return course_problems.empty() &&
         std::all_of(exercises.begin(), exercises.end(), [](const SelfCheckResult& r) { return r.passed; });
}

SelfCheckReport self_check_course(const std::filesystem::path& course_root, Compiler& compiler,
                                  const EmulatorFactory& emulator) {
  SelfCheckReport report;
  auto course = load_course(course_root);
  if (!course) {
    report.course_problems.push_back(course.error());
    return report;
  }
  std::set<std::string> listed;
  for (const CourseEntry& entry : course->exercises) listed.insert(entry.id);
  std::error_code error;
  for (const auto& folder : std::filesystem::directory_iterator(course_root / "exercises", error)) {
    const std::string name = folder.path().filename().string();
    if (folder.is_directory() && !listed.count(name)) {
      report.course_problems.push_back("exercises/" + name + " is not listed in exercises/course.toml");
    }
  }
  for (const CourseEntry& entry : course->exercises) {
    SelfCheckResult result;
    result.exercise = entry.id;
    auto exercise = load_course_exercise(entry);
    if (!exercise) {
      result.problems.push_back(exercise.error());
    } else {
      if (exercise->stub_fails.empty()) result.problems.push_back("exercise.toml names no `stub_fails` reason");
      if (exercise->hints.empty()) result.problems.push_back("exercise.toml has no hints");
      if (!lesson_exists(course_root, entry.lesson)) {
        result.problems.push_back("its lesson " + std::to_string(entry.lesson) + " has no lessons/" +
                                  (entry.lesson < 10 ? "0" : "") + std::to_string(entry.lesson) + "-*.md");
      }
      check_stub(*exercise, compiler, emulator, result);
      check_solution(*exercise, course_root, compiler, emulator, result);
    }
    result.passed = result.problems.empty();
    report.exercises.push_back(std::move(result));
  }
  return report;
}

}  // namespace tilecamp::grade
