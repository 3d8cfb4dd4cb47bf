#include "checker/report/student_report.h"

#include <nlohmann/json.hpp>

#include <fmt/format.h>

#include <map>
#include <regex>
#include <sstream>

namespace tilecamp::report {
namespace {

// What each of the emulator's findings means, for a student who is not shown its details.
std::string finding_phrase(const std::string& kind) {
  static const std::map<std::string, std::string> k_phrases = {
      {"deadlock", "a deadlock: a barrier that not every thread of the block reaches"},
      {"early-exit-barrier", "threads returned before a barrier the rest of the block waits at"},
      {"mbarrier", "an mbarrier (cuda::barrier, cuda::pipeline) used wrongly"},
      {"split-barrier", "warps of one block waiting at different __syncthreads() lines"},
      {"out-of-bounds", "an out-of-bounds memory access"},
      {"misaligned", "a misaligned memory access"},
      {"race", "a shared-memory race"},
      {"uninitialized-shared", "a read of shared memory no thread wrote"},
      {"warp-sync", "a warp-synchronous operation whose mask names threads that are not executing it"},
      {"assert", "a failed assert()"},
      {"trap", "a __trap()"},
      {"runaway", "a runaway kernel: a warp ran too many instructions (an infinite loop?)"},
      {"unsupported", "PTX the emulator does not execute"},
      {"gpu-timeout", "a kernel that did not finish on the GPU"},
      {"gpu-fault", "a kernel that crashed the GPU"},
      {"time-limit", "grading it took longer than the time limit (a kernel that runs far too long?)"},
      {"memory-limit", "grading it needed more memory than the limit"},
  };
  auto found = k_phrases.find(kind);
  return found == k_phrases.end() ? "a `" + kind + "` finding" : found->second;
}

// "hidden case 2 (width=55 height=95)" -> "hidden case 2".
std::string without_shape(const std::string& name) { return name.substr(0, name.find(" (")); }

// A hidden case's wrong answer without coordinates, values or sizes: what is wrong and the
// judge's reading of the pattern (its lines indented by two spaces), which holds no values.
std::string hidden_correctness_summary(const std::string& message) {
  static const std::regex k_wrong(R"(^\d+ of \d+ elements of (`[^`]+`) are wrong)");
  std::istringstream lines(message);
  std::string line, summary;
  std::getline(lines, line);
  std::smatch match;
  if (std::regex_search(line, match, k_wrong)) {
    summary = "some elements of " + match[1].str() + " are wrong";
  } else if (line.starts_with("the kernel wrote to its input")) {
    summary = line;
  } else {
    summary = "wrong results";
  }
  while (std::getline(lines, line)) {
    if (line.starts_with("  ") && !line.starts_with("   ")) summary += "\n" + line;
  }
  return summary;
}

// "line 24: out-of-bounds global load of 4 bytes at element 100 of `a` ..." -> "an out-of-bounds
// memory access": not even the line, which a kernel can choose by the case's size.
std::string hidden_safety_summary(const grade::Verdict& verdict, const grade::Check& check) {
  const std::string kind = safety_kind(verdict, check);
  return kind.empty() ? "an error the emulator found" : finding_phrase(kind);
}

// A compile error's text may quote any file the kernel #includes, and a student may include any
// file the grader can read: only the submission's own lines are shown. Only the `compiles`
// check carries the compiler's words (its first diagnostic, or its log); the other compile-kind
// checks ("kernel `vectorAdd` is defined": "no kernel named ...") are tilecamp's own and shown.
bool about_submission(const std::string& message, const std::string& file) { return message.starts_with(file + ":"); }

bool quotes_the_compiler(const grade::Check& check) { return check.name == "compiles"; }

grade::Check student_check(const grade::Verdict& verdict, const grade::Check& check) {
  if (check.kind == grade::CheckKind::Compile && check.status == grade::CheckStatus::Fail && quotes_the_compiler(check) &&
      !about_submission(check.message, verdict.file)) {
    grade::Check shown = check;
    shown.message = "the first error is in a file your kernel includes (only your own file's lines are shown)";
    return shown;
  }
  if (!check.hidden) return check;
  grade::Check shown = check;
  shown.name = without_shape(check.name);
  if (check.status == grade::CheckStatus::Pass || check.status == grade::CheckStatus::Skip) {
    shown.message.clear();
  } else if (check.kind == grade::CheckKind::Correctness) {
    shown.message = hidden_correctness_summary(check.message);
  } else if (check.kind == grade::CheckKind::Safety) {
    shown.message = hidden_safety_summary(verdict, check);
  } else {
    shown.message = "failed (the details of hidden cases are not shown)";
  }
  return shown;
}

std::string mark(grade::CheckStatus status) {
  static const char* const k_marks[] = {"PASS ", "FAIL ", "SKIP ", "ERROR"};
  return k_marks[static_cast<int>(status)];
}

std::string indented(const std::string& text, const std::string& prefix) {
  std::string out;
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) out += prefix + line + "\n";
  return out;
}

std::string score_line(const ExerciseResult& result, const ExerciseScore& score) {
  std::string line = fmt::format("{}  {}  {}/{} points", result.exercise, result.title, score.points,
                                 k_points_per_exercise);
  if (!score.reason.empty()) line += "  (" + score.reason + ")";
  return line + "\n";
}

}  // namespace

grade::Verdict student_view(const grade::Verdict& verdict) {
  grade::Verdict shown = verdict;
  shown.seed = 0;
  shown.notes.clear();
  shown.ptx_cache.reset();  // a hit would tell that the same file was compiled before
  if (verdict.status == grade::VerdictStatus::Error) {
    shown.error = "tilecamp could not grade this submission; your instructor has the details";
  }
  shown.checks.clear();
  for (const grade::Check& check : verdict.checks) shown.checks.push_back(student_check(verdict, check));
  for (Diagnostic& diagnostic : shown.diagnostics) {
    if (diagnostic.kind != "compile") {
      diagnostic.message = finding_phrase(diagnostic.kind);
      if (diagnostic.hidden) diagnostic.line = 0;
    } else if (diagnostic.file != verdict.file) {
      diagnostic.file = "a file your kernel includes";
      diagnostic.line = 0;
      diagnostic.message = "an error there (its text is not shown)";
    }
  }
  return shown;
}

std::string exercise_feedback(const ExerciseResult& result) {
  const ExerciseScore score = score_exercise(result);
  std::string out = score_line(result, score);
  if (!result.verdict) {
    return out + "  not submitted: there is no exercises/" + result.exercise + "/kernel.cu in your folder\n";
  }
  const grade::Verdict shown = student_view(*result.verdict);
  if (shown.status == grade::VerdictStatus::Error) return out + "  " + shown.error + "\n";
  for (const grade::Check& check : shown.checks) {
    out += "  " + mark(check.status) + " " + check.name + "\n";
    if (check.status != grade::CheckStatus::Pass && !check.message.empty()) out += indented(check.message, "          ");
  }
  for (const Diagnostic& d : shown.diagnostics) {
    const std::string where = d.file.empty() ? "" : d.file + (d.line > 0 ? fmt::format(":{}", d.line) : "") + ": ";
    out += fmt::format("  {} {}[{}] {}\n", severity_name(d.severity), where, d.kind, d.message);
  }
  return out;
}

std::string feedback_text(const StudentResult& result) {
  const StudentScore total = score_student(result);
  std::string out = fmt::format("tilecamp: {} of {} points{}\n", total.points, total.max_points,
                                result.student.empty() ? "" : " for " + result.student);
  out += "Each exercise is worth 2 points: 1 when it is correct (it compiles, every case is right, nothing unsafe),\n"
         "1 more when it also meets its performance thresholds. Hidden cases are named, not shown.\n";
  for (const ExerciseResult& exercise : result.exercises) out += "\n" + exercise_feedback(exercise);
  return out;
}

nlohmann::ordered_json gradescope_results(const StudentResult& result) {
  const StudentScore total = score_student(result);
  nlohmann::ordered_json json;
  json["score"] = total.points;
  json["max_score"] = total.max_points;
  json["output"] = fmt::format("tilecamp: {} of {} points. Each exercise is worth 2 points: 1 when it is correct, 1 more "
                               "when it also meets its performance thresholds.",
                               total.points, total.max_points);
  json["visibility"] = "visible";
  json["tests"] = nlohmann::ordered_json::array();
  for (const ExerciseResult& exercise : result.exercises) {
    const ExerciseScore score = score_exercise(exercise);
    json["tests"].push_back({{"name", exercise.title.empty() ? exercise.exercise : exercise.exercise + ": " + exercise.title},
                             {"score", score.points},
                             {"max_score", k_points_per_exercise},
                             {"status", score.status == OutcomeStatus::Pass ? "passed" : "failed"},
                             {"visibility", "visible"},
                             {"output", exercise_feedback(exercise)}});
  }
  return json;
}

}  // namespace tilecamp::report
