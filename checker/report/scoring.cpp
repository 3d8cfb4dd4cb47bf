#include "checker/report/scoring.h"

namespace tilecamp::report {
namespace {

bool is_performance(const grade::Check& check) { return check.kind == grade::CheckKind::Performance; }

// Why a check that did not pass cost points.
std::string reason_for(const grade::Verdict& verdict, const grade::Check& check) {
  switch (check.kind) {
    case grade::CheckKind::Compile: {
      // A limit that stopped the compiler is named for itself ("time-limit").
      if (const std::string kind = safety_kind(verdict, check); !kind.empty()) return kind;
      if (check.name == "compiles") return "compile error";
      return check.name == "launch constants can be read" ? "bad launch constants" : "kernel not found";
    }
    case grade::CheckKind::Safety: {
      const std::string kind = safety_kind(verdict, check);
      return kind.empty() ? "unsafe" : kind;
    }
    case grade::CheckKind::Correctness:
      return "wrong results";
    case grade::CheckKind::Performance:
      return "slow: " + (check.metric.empty() ? check.name : check.metric);
  }
  return check.name;
}

}  // namespace

const char* outcome_status_name(OutcomeStatus status) {
  static const char* const k_names[] = {"pass", "fail", "error", "missing"};
  return k_names[static_cast<int>(status)];
}

std::string safety_kind(const grade::Verdict& verdict, const grade::Check& check) {
  for (const Diagnostic& diagnostic : verdict.diagnostics) {
    if (diagnostic.kind != "compile" && !diagnostic.message.empty() &&
        check.message.find(diagnostic.message) != std::string::npos) {
      return diagnostic.kind;
    }
  }
  return "";
}

ExerciseScore score_exercise(const ExerciseResult& result) {
  ExerciseScore score;
  if (!result.verdict) {
    score.reason = "not submitted";
    return score;
  }
  const grade::Verdict& verdict = *result.verdict;
  if (verdict.status == grade::VerdictStatus::Error) {
    score.status = OutcomeStatus::Error;
    score.reason = "could not grade";
    return score;
  }
  const grade::Check* first_problem = nullptr;   // among compile, correctness and safety
  const grade::Check* first_slow = nullptr;      // among the thresholds
  for (const grade::Check& check : verdict.checks) {
    if (check.status == grade::CheckStatus::Pass) continue;
    const grade::Check*& first = is_performance(check) ? first_slow : first_problem;
    if (first == nullptr) first = &check;
  }
  score.correct = first_problem == nullptr && !verdict.checks.empty();
  score.points = score.correct ? (first_slow == nullptr ? 2 : 1) : 0;
  score.status = score.points == k_points_per_exercise ? OutcomeStatus::Pass : OutcomeStatus::Fail;
  if (const grade::Check* costly = first_problem != nullptr ? first_problem : first_slow) {
    score.reason = reason_for(verdict, *costly);
    score.kind = grade::check_kind_name(costly->kind);
  }
  return score;
}

StudentScore score_student(const StudentResult& result) {
  StudentScore score;
  for (const ExerciseResult& exercise : result.exercises) {
    score.points += score_exercise(exercise).points;
    score.max_points += k_points_per_exercise;
  }
  return score;
}

}  // namespace tilecamp::report
