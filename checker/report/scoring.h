// What one student's submission of one exercise earns, and why it lost points: the grading policy
// every class report (CSV, JSON, JUnit, Gradescope, feedback) shares.
//
// An exercise is worth 2 points: 1 for correctness (it compiles, every case is correct and the
// emulator found nothing unsafe) and 1 for performance (every threshold met, which is only
// measured once it is correct). An exercise without thresholds gives both with correctness.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "checker/grade/verdict.h"

namespace tilecamp::report {

constexpr int k_points_per_exercise = 2;

// One exercise of one student: graded, or not submitted (no kernel file in the student's folder).
struct ExerciseResult {
  std::string exercise;  // "02-transpose-tiled"
  std::string title;     // "Tiled transpose"
  std::optional<grade::Verdict> verdict;  // nullopt: not submitted
};

struct StudentResult {
  std::string student;  // the folder's name in the roster
  std::vector<ExerciseResult> exercises;
};

// pass: full points; fail: fewer; error: tilecamp could not grade it; missing: not submitted.
enum class OutcomeStatus { Pass, Fail, Error, Missing };
const char* outcome_status_name(OutcomeStatus status);

struct ExerciseScore {
  OutcomeStatus status = OutcomeStatus::Missing;
  int points = 0;
  bool correct = false;  // the correctness point
  // Why points were lost, in a few words shared by many students ("compile error", "deadlock",
  // "wrong results", "slow: global_st_sectors_per_request", "not submitted"); empty on a pass.
  std::string reason;
  std::string kind;  // the kind of the check that cost points: compile, correctness, safety, performance
};

ExerciseScore score_exercise(const ExerciseResult& result);

struct StudentScore {
  int points = 0;
  int max_points = 0;
};

StudentScore score_student(const StudentResult& result);

// The safety finding behind a failed safety check (e.g. "deadlock", "out-of-bounds", "runaway"):
// the kind of the first diagnostic its message reports, or "" when none matches.
std::string safety_kind(const grade::Verdict& verdict, const grade::Check& check);

}  // namespace tilecamp::report
