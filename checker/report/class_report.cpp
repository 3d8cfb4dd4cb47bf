#include "checker/report/class_report.h"

#include <nlohmann/json.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <map>

#include "checker/report/verdict_record.h"
#include "checker/report/verdict_report.h"

namespace tilecamp::report {
namespace {

constexpr size_t k_reasons_shown = 8;

std::string csv_field(const std::string& text) {
  if (text.find_first_of(",\"\r\n") == std::string::npos) return text;
  std::string quoted = "\"";
  for (char c : text) quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
  return quoted + "\"";
}

// Text for an XML attribute or element: the five entities escaped, and the control characters
// XML 1.0 forbids replaced (a compile error may quote anything from a student's file).
std::string xml_text(const std::string& text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&apos;"; break;
      default:
        out += static_cast<unsigned char>(c) < 0x20 && c != '\n' && c != '\t' && c != '\r' ? '?' : c;
    }
  }
  return out;
}

// The junit element of one exercise of one student, inside its <testcase>.
std::string junit_outcome(const ExerciseResult& result, const ExerciseScore& score) {
  switch (score.status) {
    case OutcomeStatus::Pass:
      return "";
    case OutcomeStatus::Missing:
      return "      <skipped message=\"not submitted\"/>\n";
    case OutcomeStatus::Error:
      return fmt::format("      <error message=\"{}\">{}</error>\n", xml_text("could not grade: " + result.verdict->error),
                         xml_text(result.verdict->error));
    case OutcomeStatus::Fail:
      break;
  }
  VerdictTextOptions options;
  options.next_step = false;
  return fmt::format("      <failure message=\"{}\" type=\"{}\">{}</failure>\n",
                     xml_text(fmt::format("{}/{} points: {}", score.points, k_points_per_exercise, score.reason)),
                     score.kind,
                     xml_text(verdict_text(*result.verdict, Style(false), options)));
}

struct OutcomeCounts {
  int tests = 0, failures = 0, errors = 0, skipped = 0;

  void add(OutcomeStatus status) {
    ++tests;
    failures += status == OutcomeStatus::Fail;
    errors += status == OutcomeStatus::Error;
    skipped += status == OutcomeStatus::Missing;
  }
  std::string attributes() const {
    return fmt::format("tests=\"{}\" failures=\"{}\" errors=\"{}\" skipped=\"{}\"", tests, failures, errors, skipped);
  }
};

nlohmann::ordered_json summary_json(const ClassSummary& summary) {
  nlohmann::ordered_json json = {{"exercises", nlohmann::ordered_json::array()},
                                 {"reasons", nlohmann::ordered_json::array()}};
  for (const ExerciseSummary& exercise : summary.exercises) {
    json["exercises"].push_back({{"exercise", exercise.exercise},
                                 {"students", exercise.students},
                                 {"submitted", exercise.submitted},
                                 {"correct", exercise.correct},
                                 {"passed", exercise.passed}});
  }
  for (const auto& [reason, count] : summary.reasons) json["reasons"].push_back({{"reason", reason}, {"count", count}});
  return json;
}

}  // namespace

std::string grades_csv(const ClassResults& results) {
  std::string out = "student";
  for (const std::string& exercise : results.exercises) out += "," + csv_field(exercise) + "," + csv_field(exercise + " status");
  out += ",total,max_total\n";
  for (const StudentResult& student : results.students) {
    out += csv_field(student.student);
    for (const ExerciseResult& exercise : student.exercises) {
      const ExerciseScore score = score_exercise(exercise);
      out += fmt::format(",{},{}", score.points, outcome_status_name(score.status));
    }
    const StudentScore total = score_student(student);
    out += fmt::format(",{},{}\n", total.points, total.max_points);
  }
  return out;
}

nlohmann::ordered_json grades_json(const ClassResults& results) {
  nlohmann::ordered_json json = {{"seed", results.seed},
                                 {"backend", results.backend},
                                 {"points_per_exercise", k_points_per_exercise},
                                 {"exercises", results.exercises},
                                 {"students", nlohmann::ordered_json::array()}};
  for (const StudentResult& student : results.students) {
    const StudentScore total = score_student(student);
    nlohmann::ordered_json item = {{"student", student.student},
                                   {"score", total.points},
                                   {"max_score", total.max_points},
                                   {"exercises", nlohmann::ordered_json::array()}};
    for (const ExerciseResult& exercise : student.exercises) {
      const ExerciseScore score = score_exercise(exercise);
      item["exercises"].push_back({{"exercise", exercise.exercise},
                                   {"status", outcome_status_name(score.status)},
                                   {"points", score.points},
                                   {"max_points", k_points_per_exercise},
                                   {"reason", score.reason},
                                   {"verdict", exercise.verdict ? verdict_record(*exercise.verdict) : nullptr}});
    }
    json["students"].push_back(std::move(item));
  }
  json["summary"] = summary_json(summarize(results));
  return json;
}

std::string junit_xml(const ClassResults& results) {
  OutcomeCounts all;
  std::string suites;
  for (const StudentResult& student : results.students) {
    OutcomeCounts counts;
    std::string cases;
    for (const ExerciseResult& exercise : student.exercises) {
      const ExerciseScore score = score_exercise(exercise);
      counts.add(score.status);
      all.add(score.status);
      const std::string outcome = junit_outcome(exercise, score);
      cases += fmt::format("    <testcase classname=\"{}\" name=\"{}\"", xml_text(student.student), xml_text(exercise.exercise));
      cases += outcome.empty() ? "/>\n" : ">\n" + outcome + "    </testcase>\n";
    }
    suites += fmt::format("  <testsuite name=\"{}\" {}>\n{}  </testsuite>\n", xml_text(student.student),
                          counts.attributes(), cases);
  }
  return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n" +
         fmt::format("<testsuites name=\"tilecamp grade\" {}>\n{}</testsuites>\n", all.attributes(), suites);
}

ClassSummary summarize(const ClassResults& results) {
  ClassSummary summary;
  std::map<std::string, int> reasons;
  for (size_t i = 0; i < results.exercises.size(); ++i) {
    ExerciseSummary exercise{results.exercises[i]};
    for (const StudentResult& student : results.students) {
      if (i >= student.exercises.size()) continue;
      const ExerciseScore score = score_exercise(student.exercises[i]);
      ++exercise.students;
      exercise.submitted += score.status != OutcomeStatus::Missing;
      exercise.correct += score.correct;
      exercise.passed += score.status == OutcomeStatus::Pass;
      if (!score.reason.empty()) ++reasons[score.reason];
    }
    summary.exercises.push_back(exercise);
  }
  summary.reasons.assign(reasons.begin(), reasons.end());
  std::stable_sort(summary.reasons.begin(), summary.reasons.end(),
                   [](const auto& a, const auto& b) { return a.second > b.second; });
  return summary;
}

std::string summary_text(const ClassSummary& summary) {
  std::string out = fmt::format("{:<28} {:>9} {:>9} {:>9} {:>6}\n", "exercise", "submitted", "correct", "passed", "rate");
  for (const ExerciseSummary& e : summary.exercises) {
    const double rate = e.students == 0 ? 0.0 : 100.0 * e.passed / e.students;
    out += fmt::format("{:<28} {:>9} {:>9} {:>9} {:>5.0f}%\n", e.exercise, fmt::format("{}/{}", e.submitted, e.students),
                       fmt::format("{}/{}", e.correct, e.students), fmt::format("{}/{}", e.passed, e.students), rate);
  }
  if (summary.reasons.empty()) return out + "\nNo points were lost.\n";
  out += "\nMost common reasons for lost points:\n";
  for (size_t i = 0; i < summary.reasons.size() && i < k_reasons_shown; ++i) {
    out += fmt::format("  {:>5}  {}\n", summary.reasons[i].second, summary.reasons[i].first);
  }
  return out;
}

}  // namespace tilecamp::report
