// The instructor's grading, piece by piece: the scoring policy, what a student may see of hidden
// cases, the verdict records a resumed run reads back, the class reports' formats, and the
// hidden-tests file (runner/classroom/roster_hidden.h). The whole command is tested in test_grade_roster.cpp.
#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include "checker/grade/grade.h"
#include "checker/report/class_report.h"
#include "checker/report/student_report.h"
#include "checker/report/verdict_record.h"
#include "runner/classroom/roster_hidden.h"
#include "tests/test_runner_support.h"
#include "tests/test_support.h"

namespace tilecamp {
namespace {

using grade::Check;
using grade::CheckKind;
using grade::CheckStatus;
using report::ExerciseResult;
using report::OutcomeStatus;

Check check(const std::string& name, CheckKind kind, CheckStatus status, const std::string& message = "",
            bool hidden = false) {
  Check c;
  c.name = name;
  c.kind = kind;
  c.status = status;
  c.message = message;
  c.hidden = hidden;
  return c;
}

grade::Verdict verdict_of(std::vector<Check> checks) {
  grade::Verdict verdict;
  verdict.exercise = "02-transpose-tiled";
  verdict.file = "exercises/02-transpose-tiled/kernel.cu";
  verdict.backend = "emulator";
  verdict.seed = 987654321;
  verdict.checks = std::move(checks);
  grade::settle_status(verdict);
  return verdict;
}

// A verdict whose hidden case 2 is wrong, with everything the judge says about it.
grade::Verdict wrong_on_a_hidden_case() {
  return verdict_of({check("compiles", CheckKind::Compile, CheckStatus::Pass),
                     check("public case width=64 height=64", CheckKind::Correctness, CheckStatus::Pass),
                     check("hidden case 1 (width=55 height=95)", CheckKind::Correctness, CheckStatus::Pass, "", true),
                     check("hidden case 2 (width=1 height=4099)", CheckKind::Correctness, CheckStatus::Fail,
                           "4099 of 4099 elements of `out` are wrong (`out` is 1 rows x 4099 columns):\n"
                           "    out[0][17]: expected 0.25, got NaN (never written)\n"
                           "    ... and 4098 more\n"
                           "  every wrong element was never written",
                           true),
                     check("global stores are coalesced (global_st_sectors_per_request <= 4)", CheckKind::Performance,
                           CheckStatus::Skip, "skipped: every case must be correct first")});
}

ExerciseResult result_of(grade::Verdict verdict) {
  return {verdict.exercise, "Tiled transpose", std::move(verdict)};
}

TEST_CASE("scoring: 2 points for a pass, 1 when correct but slow, 0 for a wrong case, a missing file or an error") {
  const grade::Verdict passing = verdict_of({check("compiles", CheckKind::Compile, CheckStatus::Pass),
                                             check("coalesced", CheckKind::Performance, CheckStatus::Pass)});
  CHECK(report::score_exercise(result_of(passing)).points == 2);
  CHECK(report::score_exercise(result_of(passing)).status == OutcomeStatus::Pass);

  Check slow = check("coalesced", CheckKind::Performance, CheckStatus::Fail, "32.00, at most 4 needed");
  slow.metric = "global_st_sectors_per_request";
  const report::ExerciseScore correct_but_slow =
      report::score_exercise(result_of(verdict_of({check("compiles", CheckKind::Compile, CheckStatus::Pass), slow})));
  CHECK(correct_but_slow.points == 1);
  CHECK(correct_but_slow.correct);
  CHECK(correct_but_slow.reason == "slow: global_st_sectors_per_request");

  const report::ExerciseScore wrong = report::score_exercise(result_of(wrong_on_a_hidden_case()));
  CHECK(wrong.points == 0);
  CHECK(wrong.reason == "wrong results");

  const report::ExerciseScore missing = report::score_exercise({"02-transpose-tiled", "Tiled transpose", std::nullopt});
  CHECK(missing.status == OutcomeStatus::Missing);
  CHECK(missing.reason == "not submitted");

  grade::Verdict error = verdict_of({});
  error.status = grade::VerdictStatus::Error;
  error.error = "the exercise's baseline kernel failed";
  CHECK(report::score_exercise(result_of(error)).status == OutcomeStatus::Error);
}

TEST_CASE("scoring: a failed safety check is counted under the kind of the finding it reports") {
  grade::Verdict verdict = verdict_of({check("compiles", CheckKind::Compile, CheckStatus::Pass),
                                       check("hidden case 1 (width=5 height=3)", CheckKind::Safety, CheckStatus::Fail,
                                             "line 13: warps of block (0,0,0) wait at different barriers", true)});
  verdict.diagnostics.push_back({Severity::Error, "deadlock", verdict.file, 13, "warps of block (0,0,0) wait at different barriers"});
  CHECK(report::score_exercise(result_of(verdict)).reason == "deadlock");
}

TEST_CASE("student view: a hidden case keeps its number and what went wrong, never its shape or values") {
  const std::string feedback = report::exercise_feedback(result_of(wrong_on_a_hidden_case()));
  CHECK(test::contains(feedback, "FAIL  hidden case 2\n"));
  CHECK(test::contains(feedback, "some elements of `out` are wrong"));
  CHECK(test::contains(feedback, "every wrong element was never written"));
  CHECK(test::contains(feedback, "public case width=64 height=64"));  // public cases are shown whole
  for (const char* secret : {"4099", "width=1", "width=55", "out[0][17]", "0.25", "987654321"}) {
    CAPTURE(secret);
    CHECK_FALSE(test::contains(feedback, secret));
  }
}

TEST_CASE("student view: a hidden case's safety finding is named by kind only: no line, no detail") {
  // A kernel can choose the line of its fault by the case's size: the line would tell the size.
  grade::Verdict verdict = verdict_of({check("compiles", CheckKind::Compile, CheckStatus::Pass),
                                       check("hidden case 1 (n=77777)", CheckKind::Safety, CheckStatus::Fail,
                                             "line 24: out-of-bounds global load at element 77777 of `a`", true)});
  verdict.diagnostics.push_back({Severity::Error, "out-of-bounds", verdict.file, 24, "out-of-bounds global load at element 77777 of `a`", true});
  verdict.diagnostics.push_back({Severity::Warning, "race", verdict.file, 31, "a race between warps 0 and 1", false});
  const grade::Verdict shown = report::student_view(verdict);
  CHECK(shown.checks[1].message == "an out-of-bounds memory access");
  CHECK(shown.diagnostics[0].message == "an out-of-bounds memory access");
  CHECK(shown.diagnostics[0].line == 0);
  CHECK(shown.diagnostics[1].line == 31);  // found in a public case: its line is the student's to see
  CHECK(shown.seed == 0);
  CHECK_FALSE(test::contains(report::exercise_feedback(result_of(verdict)), ":24"));

  grade::Verdict error = verdict_of({});
  error.status = grade::VerdictStatus::Error;
  error.error = "case hidden case 3 (n=77777): buffer `a` would have too many elements";
  CHECK_FALSE(test::contains(report::exercise_feedback(result_of(error)), "77777"));
}

TEST_CASE("student view: never says whether the file was compiled or read from the PTX cache") {
  grade::Verdict verdict = verdict_of({check("compiles", CheckKind::Compile, CheckStatus::Pass)});
  verdict.ptx_cache = grade::Verdict::PtxCache{1, 0};  // a hit: the same file was compiled before
  CHECK_FALSE(report::student_view(verdict).ptx_cache.has_value());
}

TEST_CASE("student view: only the compiler's words from another file are withheld, tilecamp's own compile messages are shown") {
  const grade::Verdict misnamed = verdict_of({check("compiles", CheckKind::Compile, CheckStatus::Pass),
                                              check("kernel `vectorAdd` is defined", CheckKind::Compile, CheckStatus::Fail,
                                                    "no kernel named `vectorAdd` in your file")});
  const std::string kept = report::student_view(misnamed).checks[1].message;
  CHECK(kept == "no kernel named `vectorAdd` in your file");
  const grade::Verdict included = verdict_of({check("compiles", CheckKind::Compile, CheckStatus::Fail,
                                                    "/usr/local/cuda/include/cuda_fp16.hpp:12:3: error: the secret line")});
  const std::string withheld = report::student_view(included).checks[0].message;
  CHECK(withheld == "the first error is in a file your kernel includes (only your own file's lines are shown)");
  const grade::Verdict own = verdict_of({check("compiles", CheckKind::Compile, CheckStatus::Fail,
                                               "exercises/02-transpose-tiled/kernel.cu:3:1: error: expected ';'")});
  CHECK(report::student_view(own).checks[0].message == "exercises/02-transpose-tiled/kernel.cu:3:1: error: expected ';'");
}

TEST_CASE("verdict record: a verdict read back is the verdict written, hidden marks and diagnostics included") {
  grade::Verdict verdict = wrong_on_a_hidden_case();
  verdict.constants["TILE_DIM"] = 32;
  Check measured = check("coalesced", CheckKind::Performance, CheckStatus::Pass, "4.00");
  measured.metric = "global_ld_sectors_per_request";
  measured.value = 4.0;
  measured.threshold = 4.0;
  verdict.checks.push_back(measured);
  verdict.diagnostics.push_back({Severity::Warning, "early-exit-barrier", verdict.file, 19, "threads returned"});
  verdict.printed = grade::Verdict::Printed{"public case width=64 height=64", "lane 0\n", true};
  verdict.ptx_cache = grade::Verdict::PtxCache{2, 1};
  const nlohmann::ordered_json record = report::verdict_record(verdict);
  auto back = report::read_verdict_record(nlohmann::json::parse(record.dump()));
  REQUIRE(back);
  CHECK(report::verdict_record(*back) == record);
  CHECK(back->checks[3].hidden);
  CHECK_FALSE(back->checks[1].hidden);
  CHECK(back->diagnostics[0].severity == Severity::Warning);
  REQUIRE(back->printed.has_value());
  CHECK(back->printed->text == "lane 0\n");
  REQUIRE(back->ptx_cache.has_value());
  CHECK(back->ptx_cache->hits == 2);
  CHECK(back->ptx_cache->misses == 1);
  CHECK_FALSE(report::read_verdict_record(nlohmann::json::parse(R"({"exercise": "x"})")));
}

report::ClassResults two_students() {
  report::ClassResults results;
  results.seed = 987654321;
  results.backend = "emulator";
  results.exercises = {"02-transpose-tiled"};
  grade::Verdict wrong = wrong_on_a_hidden_case();
  wrong.checks[1].status = CheckStatus::Fail;
  wrong.checks[1].message = "expected <1> & got \"2\"";
  results.students = {{"doe, jane", {result_of(wrong)}}, {"zed", {{"02-transpose-tiled", "Tiled transpose", std::nullopt}}}};
  return results;
}

TEST_CASE("grades.csv: points and status per exercise, a student id with a comma quoted") {
  CHECK(report::grades_csv(two_students()) ==
        "student,02-transpose-tiled,02-transpose-tiled status,total,max_total\n"
        "\"doe, jane\",0,fail,0,2\n"
        "zed,0,missing,0,2\n");
}

TEST_CASE("junit.xml: a failure per lost point, a skipped test per missing file, text escaped") {
  const std::string xml = report::junit_xml(two_students());
  CHECK(test::contains(xml, "<testsuites name=\"tilecamp grade\" tests=\"2\" failures=\"1\" errors=\"0\" skipped=\"1\">"));
  CHECK(test::contains(xml, "<testsuite name=\"doe, jane\" tests=\"1\" failures=\"1\""));
  CHECK(test::contains(xml, "<failure message=\"0/2 points: wrong results\" type=\"correctness\">"));
  CHECK(test::contains(xml, "expected &lt;1&gt; &amp; got &quot;2&quot;"));
  CHECK(test::contains(xml, "<testcase classname=\"zed\" name=\"02-transpose-tiled\">\n      <skipped message=\"not submitted\"/>"));
}

TEST_CASE("summary: the pass rate per exercise and the reasons for lost points, most common first") {
  const report::ClassSummary summary = report::summarize(two_students());
  REQUIRE(summary.exercises.size() == 1);
  CHECK(summary.exercises[0].students == 2);
  CHECK(summary.exercises[0].submitted == 1);
  CHECK(summary.exercises[0].passed == 0);
  CHECK(summary.reasons.size() == 2);
  const std::string text = report::summary_text(summary);
  CHECK(test::contains(text, "02-transpose-tiled                 1/2       0/2       0/2     0%"));
  CHECK(test::contains(text, "      1  not submitted"));
}

TEST_CASE("gradescope results.json: score, max_score and one visible test per exercise") {
  const report::StudentResult student = two_students().students[0];
  const nlohmann::ordered_json json = report::gradescope_results(student);
  CHECK(json["score"] == 0);
  CHECK(json["max_score"] == 2);
  REQUIRE(json["tests"].size() == 1);
  CHECK(json["tests"][0]["name"] == "02-transpose-tiled: Tiled transpose");
  CHECK(json["tests"][0]["status"] == "failed");
  CHECK(json["tests"][0]["visibility"] == "visible");
  CHECK_FALSE(test::contains(json.dump(), "4099"));
}

// The hidden-tests file, checked against the real course.
struct HiddenFile {
  test::ScratchFolder folder;
  grade::Course course = grade::load_course(TILECAMP_SOURCE_DIR).value();

  Expected<runner::HiddenTests> load(const std::string& text) {
    folder.write("hidden.toml", text);
    return runner::load_hidden_tests(folder.path() / "hidden.toml", course);
  }
};

TEST_CASE("hidden tests: cases are added to the exercise's hidden ones, thresholds replace the course's") {
  HiddenFile file;
  auto hidden = file.load(
      "[exercise.02-transpose-tiled]\n"
      "cases = [[1023, 7], [1, 2049]]\n"
      "thresholds.emulator = { modelled_speedup = 1.3, shared_ld_bank_conflicts = 0 }\n");
  REQUIRE(hidden);
  grade::Exercise exercise = grade::find_exercise(TILECAMP_SOURCE_DIR, "02-transpose-tiled").value();
  const size_t before = exercise.problem.hidden_cases.size(), thresholds = exercise.emulator_thresholds.size();
  runner::apply_hidden_tests(exercise, *hidden);
  REQUIRE(exercise.problem.hidden_cases.size() == before + 2);
  CHECK(exercise.problem.hidden_cases[before] == std::vector<int64_t>{1023, 7});
  CHECK(exercise.emulator_thresholds.size() == thresholds + 1);  // one replaced, one added
  for (const grade::Threshold& threshold : exercise.emulator_thresholds) {
    if (threshold.metric == "modelled_speedup") CHECK(threshold.bound == 1.3);
  }
}

TEST_CASE("hidden tests: every mistake is reported with the file and the field") {
  HiddenFile file;
  const std::string path = (file.folder.path() / "hidden.toml").string();
  auto error_of = [&](const std::string& text) {
    auto hidden = file.load(text);
    return hidden ? std::string("(no error)") : hidden.error();
  };
  CHECK(error_of("[exercise.02-transpose-tiled]\ncases = [[1023]]\n") ==
        path + ": field `exercise.02-transpose-tiled.cases[0]`: expected a list of 2 positive integers (width, height)");
  CHECK(error_of("[exercise.02-transpose-tiled]\ncases = [[0, 5]]\n") ==
        path + ": field `exercise.02-transpose-tiled.cases[0]`: expected a list of 2 positive integers (width, height)");
  CHECK(test::contains(error_of("[exercise.99-nothing]\ncases = [[1]]\n"),
                       path + ": field `exercise.99-nothing`: expected an exercise of the course; they are: 01-vector-add"));
  CHECK(test::contains(error_of("[exercise.02-transpose-tiled]\ncase = [[1, 1]]\n"),
                       path + ": unknown field `exercise.02-transpose-tiled.case` (known here: cases, thresholds)"));
  CHECK(test::contains(error_of("[exercise.02-transpose-tiled.thresholds.emulator]\nspeed = 2\n"),
                       path + ": field `exercise.02-transpose-tiled.thresholds.emulator.speed`: unknown metric"));
  CHECK(test::contains(error_of("[exercise.03-early-exit.thresholds.emulator]\nmodelled_speedup = 2\n"),
                       "has no baseline kernel"));
  CHECK(error_of("[exercise.01-vector-add]\ncases = [[77777], [2000000000]]\n") ==
        path + ": field `exercise.01-vector-add.cases[1]`: buffer `a` would have 2000000000 elements (size `n`); at "
               "most 67108864 are allowed");
  CHECK(error_of("[exercise.01-vector-add]\ncases = [[67108864]]\n") == "(no error)");
  CHECK(test::contains(error_of("seed = 4\n"), path + ": unknown field `seed` (known here: exercise)"));
  CHECK(test::contains(error_of("[exercise\n"), path + ":1:"));
}

}  // namespace
}  // namespace tilecamp
