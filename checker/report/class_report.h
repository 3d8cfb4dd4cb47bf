// The instructor's reports of a class graded by `tilecamp grade`: grades.csv, grades.json,
// junit.xml and the summary table. They show everything, hidden cases and seed included; what a
// student receives is student_report.h's.
#pragma once

#include <cstdint>
#include <nlohmann/json_fwd.hpp>
#include <string>
#include <utility>
#include <vector>

#include "checker/report/scoring.h"

namespace tilecamp::report {

struct ClassResults {
  uint64_t seed = 0;
  std::string backend;                 // where the kernels ran: "emulator" or "gpu"
  std::vector<std::string> exercises;  // the graded exercises, in course order
  std::vector<StudentResult> students; // sorted by id; each has one result per exercise, in order
};

// student, then per exercise `ID` (points) and `ID status` (pass, fail, error, missing), then
// total and max_total. RFC 4180 quoting.
std::string grades_csv(const ClassResults& results);

// {"seed", "backend", "points_per_exercise", "exercises", "students": [{"student", "score",
// "max_score", "exercises": [{"exercise", "status", "points", "max_points", "reason", "verdict"}]}],
// "summary"}; "verdict" is the `check --json` object with `"hidden": true` on the checks of hidden
// cases (verdict_record.h), null when not submitted.
nlohmann::ordered_json grades_json(const ClassResults& results);

// One <testsuite> per student, one <testcase> per exercise: a <failure> when it lost points, an
// <error> when it could not be graded, <skipped> when it was not submitted.
std::string junit_xml(const ClassResults& results);

struct ExerciseSummary {
  std::string exercise;
  int students = 0, submitted = 0, correct = 0, passed = 0;
};

struct ClassSummary {
  std::vector<ExerciseSummary> exercises;
  std::vector<std::pair<std::string, int>> reasons;  // why points were lost, most common first
};

ClassSummary summarize(const ClassResults& results);

// The table printed at the end of a run: pass rate per exercise, the most common reasons.
std::string summary_text(const ClassSummary& summary);

}  // namespace tilecamp::report
