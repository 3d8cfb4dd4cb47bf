#include "checker/grade/self_check.h"

#include <algorithm>
#include <fstream>
#include <sstream>

#include "checker/emu/emulator_backend.h"
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

Verdict grade_file(const Exercise& exercise, const SourceFile& source, Compiler& compiler) {
  emu::EmulatorBackend backend;
  return grade_exercise(exercise, source, compiler, backend, {k_self_check_seed});
}

void check_stub(const Exercise& exercise, Compiler& compiler, SelfCheckResult& result) {
  SourceFile stub;
  if (!read_source(exercise.stub_path(), stub)) {
    result.problems.push_back("cannot read " + exercise.stub_path().string());
    return;
  }
  if (stub.text.find("// TODO") == std::string::npos) result.problems.push_back("the stub has no `// TODO` marker");
  const Verdict verdict = grade_file(exercise, stub, compiler);
  if (verdict.status != VerdictStatus::Fail) {
    result.problems.push_back(std::string("the stub should fail, but its verdict is ") + verdict_status_name(verdict.status) +
                              (verdict.error.empty() ? "" : ": " + verdict.error));
    return;
  }
  auto expected = [&](const std::string& name) {
    return std::any_of(exercise.stub_fails.begin(), exercise.stub_fails.end(),
                       [&](const std::string& reason) { return name.find(reason) != std::string::npos; });
  };
  std::vector<std::string> failed;
  for (const Check& check : verdict.checks) {
    if (check.status != CheckStatus::Fail) continue;
    failed.push_back(check.name);
    if (!expected(check.name)) result.problems.push_back("the stub fails `" + check.name + "`, which stub_fails does not name: " + check.message);
  }
  for (const std::string& reason : exercise.stub_fails) {
    const bool seen = std::any_of(failed.begin(), failed.end(), [&](const std::string& name) { return name.find(reason) != std::string::npos; });
    if (!seen) result.problems.push_back("the stub should fail a check matching `" + reason + "`, but does not");
  }
}

void check_solution(const Exercise& exercise, const std::filesystem::path& course_root, Compiler& compiler,
                    SelfCheckResult& result) {
  SourceFile solution;
  const std::filesystem::path path = course_root / "solutions" / exercise.name / "kernel.cu";
  if (!read_source(path, solution)) {
    result.problems.push_back("no solution at " + path.string());
    return;
  }
  const Verdict verdict = grade_file(exercise, solution, compiler);
  if (verdict.status == VerdictStatus::Pass) return;
  std::string why = verdict.error;
  for (const Check& check : verdict.checks) {
    if (check.status == CheckStatus::Fail) why += (why.empty() ? "" : "; ") + check.name + ": " + check.message;
  }
  result.problems.push_back("the solution does not pass: " + why);
}

}  // namespace

std::vector<SelfCheckResult> self_check_course(const std::filesystem::path& course_root, Compiler& compiler) {
  std::vector<SelfCheckResult> results;
  for (const auto& folder : exercise_folders(course_root)) {
    SelfCheckResult result;
    result.exercise = folder.filename().string();
    auto exercise = load_exercise(folder);
    if (!exercise) {
      result.problems.push_back(exercise.error());
    } else {
      if (exercise->stub_fails.empty()) result.problems.push_back("exercise.toml names no `stub_fails` reason");
      check_stub(*exercise, compiler, result);
      check_solution(*exercise, course_root, compiler, result);
      for (size_t i = 0; i < exercise->hints.size(); ++i) {
        if (exercise->hints[i].empty()) result.problems.push_back("hint " + std::to_string(i + 1) + " is empty");
      }
    }
    result.passed = result.problems.empty();
    results.push_back(std::move(result));
  }
  return results;
}

}  // namespace tilecamp::grade
