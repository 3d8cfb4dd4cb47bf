// The course rejects plausible wrong solutions, and for the right reason.
//
// tests/data/wrong/<exercise>/<mistake>.cu is the exercise's solution with one mistake a learner
// really makes. Its first comment line names the mistake; then come one or more expectations,
// each on its own line:
//     // expect: safety "out-of-bounds"                 a kind and a quoted text
//     // expect: performance shared_ld_bank_conflicts   a kind and a metric
// The kinds are the checks' kinds: compile, correctness, safety, performance. For each seed below,
// the file graded as its exercise on the emulator must:
//   1. fail: the verdict is `fail`, neither `pass` nor `error`;
//   2. meet every expectation: some failed check of that kind has the text (or metric) in its
//      name or its message;
//   3. fail for no other reason: every failed check is of a listed kind. A safety mistake must
//      not instead fail to compile or give a wrong answer; a performance mistake must pass every
//      compile, correctness and safety check. (Thresholds are measured only once every case is
//      correct, so this is "no failed check of an earlier kind, compile < correctness and safety
//      < performance", made strict between correctness and safety: a mistake that trips both
//      lists both.)
// Mistakes the checker does not catch yet are kept in tests/data/wrong-undetected/, not run here.
#include <doctest/doctest.h>

#include <algorithm>
#include <atomic>
#include <filesystem>
#include <map>
#include <optional>
#include <sstream>
#include <thread>

#include "checker/compile/nvrtc_compiler.h"
#include "checker/emu/emulator_backend.h"
#include "checker/grade/grade.h"
#include "checker/report/verdict_report.h"
#include "tests/test_support.h"

namespace tilecamp {
namespace {

namespace fs = std::filesystem;

// Two seeds: a mistake that only some hidden cases catch fails here on one of them, not later in CI.
constexpr uint64_t k_seeds[] = {20261129, 7};
constexpr size_t k_min_wrong_solutions = 2;
constexpr const char* k_wrong_folder = "tests/data/wrong";

struct Expectation {
  grade::CheckKind kind;
  std::string text;  // in the failed check's name, message or metric
};

std::optional<grade::CheckKind> kind_named(const std::string& name) {
  for (grade::CheckKind kind : {grade::CheckKind::Compile, grade::CheckKind::Correctness, grade::CheckKind::Safety,
                                grade::CheckKind::Performance}) {
    if (name == grade::check_kind_name(kind)) return kind;
  }
  return std::nullopt;
}

// `// expect: KIND "TEXT"` or `// expect: KIND METRIC`; an unreadable line fails the calling test.
std::vector<Expectation> read_expectations(const std::string& source) {
  constexpr std::string_view k_prefix = "// expect: ";
  std::vector<Expectation> expectations;
  std::istringstream lines(source);
  for (std::string line; std::getline(lines, line);) {
    if (line.rfind(k_prefix, 0) != 0) continue;
    CAPTURE(line);
    const std::string rest = line.substr(k_prefix.size());
    const size_t space = rest.find(' ');
    REQUIRE_MESSAGE(space != std::string::npos, "expected `// expect: KIND \"TEXT\"` or `// expect: KIND METRIC`");
    const auto kind = kind_named(rest.substr(0, space));
    REQUIRE_MESSAGE(kind.has_value(), "the kind must be compile, correctness, safety or performance");
    std::string text = rest.substr(space + 1);
    if (text.size() >= 2 && text.front() == '"' && text.back() == '"') text = text.substr(1, text.size() - 2);
    REQUIRE_MESSAGE(!text.empty(), "an expectation needs a text or a metric");
    expectations.push_back({*kind, text});
  }
  return expectations;
}

bool meets(const grade::Check& check, const Expectation& expectation) {
  return check.status == grade::CheckStatus::Fail && check.kind == expectation.kind &&
         (test::contains(check.name, expectation.text) || test::contains(check.message, expectation.text) ||
          check.metric == expectation.text);
}

void check_rejected_for_the_right_reason(const grade::Verdict& verdict, const std::vector<Expectation>& expectations) {
  INFO(report::verdict_text(verdict, report::Style(false)));
  CHECK(verdict.status == grade::VerdictStatus::Fail);
  if (verdict.status != grade::VerdictStatus::Fail) return;
  for (const Expectation& expectation : expectations) {
    const std::string kind = grade::check_kind_name(expectation.kind);
    INFO("expected: a failed " << kind << " check naming \"" << expectation.text << "\"");
    CHECK(std::any_of(verdict.checks.begin(), verdict.checks.end(),
                      [&](const grade::Check& check) { return meets(check, expectation); }));
  }
  for (const grade::Check& check : verdict.checks) {
    if (check.status != grade::CheckStatus::Fail) continue;
    CAPTURE(check.name);
    CHECK_MESSAGE(std::any_of(expectations.begin(), expectations.end(),
                              [&](const Expectation& expectation) { return expectation.kind == check.kind; }),
                  "a check of an unlisted kind failed: the mistake is caught for another reason");
  }
}

// tests/data/wrong/<exercise>/*.cu, by exercise, in a fixed order.
std::map<std::string, std::vector<fs::path>> wrong_solution_files() {
  std::map<std::string, std::vector<fs::path>> by_exercise;
  for (const fs::directory_entry& folder : fs::directory_iterator(test::source_path(k_wrong_folder))) {
    if (!folder.is_directory()) continue;
    std::vector<fs::path>& files = by_exercise[folder.path().filename().string()];
    for (const fs::directory_entry& file : fs::directory_iterator(folder.path())) {
      if (file.path().extension() == ".cu") files.push_back(file.path());
    }
    std::sort(files.begin(), files.end());
  }
  return by_exercise;
}

struct Grading {
  const grade::Exercise* exercise;
  SourceFile source;  // its path relative to the repository, as reports show it
  std::vector<Expectation> expectations;
  uint64_t seed;
  grade::Verdict verdict;
};

// Grades on every core: each grading has its own compiler and emulator, and the checker keeps no
// global state. The assertions stay on the test's thread.
void grade_all(std::vector<Grading>& gradings) {
  std::atomic<size_t> next{0};
  auto work = [&] {
    for (size_t i = next++; i < gradings.size(); i = next++) {
      Grading& grading = gradings[i];
      NvrtcCompiler compiler;
      emu::EmulatorBackend backend;
      grade::GradeOptions options;
      options.seed = grading.seed;
      grading.verdict = grade::grade_exercise(*grading.exercise, grading.source, compiler, backend, options);
    }
  };
  std::vector<std::thread> workers(std::max(1u, std::thread::hardware_concurrency()));
  for (std::thread& worker : workers) worker = std::thread(work);
  for (std::thread& worker : workers) worker.join();
}

TEST_CASE("wrong solutions: every exercise of the course has at least two") {
  auto course = grade::load_course(test::source_path(""));
  REQUIRE_MESSAGE(course.has_value(), (course ? "" : course.error()));
  const auto by_exercise = wrong_solution_files();
  for (const grade::CourseEntry& entry : course->exercises) {
    CAPTURE(entry.id);
    const auto found = by_exercise.find(entry.id);
    CHECK((found == by_exercise.end() ? 0 : found->second.size()) >= k_min_wrong_solutions);
  }
  for (const auto& [exercise, files] : by_exercise) {
    CAPTURE(exercise);
    CHECK_MESSAGE(std::any_of(course->exercises.begin(), course->exercises.end(),
                              [&](const grade::CourseEntry& entry) { return entry.id == exercise; }),
                  "a folder of tests/data/wrong/ that names no exercise of the course index");
  }
}

TEST_CASE("wrong solutions: each fails its exercise for the reason its header names, on two seeds") {
  std::map<std::string, grade::Exercise> exercises;
  std::vector<Grading> gradings;
  for (const auto& [exercise_id, files] : wrong_solution_files()) {
    auto exercise = grade::find_exercise(test::source_path(""), exercise_id);
    if (!exercise) {
      FAIL_CHECK(exercise.error());
      continue;
    }
    const grade::Exercise& loaded = exercises[exercise_id] = std::move(*exercise);
    for (const fs::path& file : files) {
      const std::string relative = std::string(k_wrong_folder) + "/" + exercise_id + "/" + file.filename().string();
      CAPTURE(relative);
      const SourceFile source{relative, test::read_text(file)};
      const std::vector<Expectation> expectations = read_expectations(source.text);
      REQUIRE_MESSAGE(!expectations.empty(), "no `// expect:` line");
      for (uint64_t seed : k_seeds) gradings.push_back({&loaded, source, expectations, seed, {}});
    }
  }
  grade_all(gradings);
  for (const Grading& grading : gradings) {
    CAPTURE(grading.source.path);
    CAPTURE(grading.seed);
    check_rejected_for_the_right_reason(grading.verdict, grading.expectations);
  }
}

}  // namespace
}  // namespace tilecamp
