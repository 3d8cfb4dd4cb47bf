// What a student receives from the instructor's grading: feedback.txt and Gradescope's
// results.json. Neither ever shows a hidden case's shape or values, the seed, or why tilecamp
// itself could not grade a submission; the instructor's reports (class_report.h) keep all that.
#pragma once

#include <nlohmann/json_fwd.hpp>
#include <string>

#include "checker/grade/verdict.h"
#include "checker/report/scoring.h"

namespace tilecamp::report {

// The verdict as a student may see it: each hidden case named "hidden case N" (or "performance
// case") with its message reduced to what went wrong, the emulator's findings reduced to their
// kind and line, no seed, and an error's details withheld.
grade::Verdict student_view(const grade::Verdict& verdict);

// One exercise for its student: the score, then each check, a failure with why.
std::string exercise_feedback(const ExerciseResult& result);

// feedback.txt: the student's total, then every exercise's feedback.
std::string feedback_text(const StudentResult& result);

// Gradescope's results.json: {"score", "max_score", "output", "visibility", "tests": [{"name",
// "score", "max_score", "status" ("passed" or "failed"), "visibility", "output"}]}, one test per
// exercise.
nlohmann::ordered_json gradescope_results(const StudentResult& result);

}  // namespace tilecamp::report
