#include "runner/learner/learner_actions.h"

#include <fmt/format.h>

#include <algorithm>
#include <set>
#include <cstdint>
#include <utility>
#include <optional>

#include "runner/learner/ansi_text.h"
#include "runner/learner/code_highlight.h"
#include "runner/learner/markdown_render.h"
#include "runner/terminal.h"

namespace tilecamp::runner {
namespace {

// A line as the comparison sees it: no comment after `//`, no spaces.
std::string comparable(const std::string& line) {
  std::string out;
  for (size_t i = 0; i < line.size(); ++i) {
    if (line[i] == '/' && i + 1 < line.size() && line[i + 1] == '/') break;
    if (line[i] != ' ' && line[i] != '\t' && line[i] != '\r') out += line[i];
  }
  return out;
}

// Each line of the solution, highlighted, behind a gutter: "+" where the learner's file has no
// such line (spaces and comments aside: a comment alone is never marked).
std::vector<std::string> marked_solution(const std::string& solution, const std::string& mine, bool color) {
  std::set<std::string> my_lines;
  for (const std::string& line : split_lines(mine)) my_lines.insert(comparable(line));
  const std::vector<std::string> raw = split_lines(solution);
  const std::vector<std::string> shown = highlight_code(solution, CodeLanguage::Cuda, color);
  std::vector<std::string> out;
  for (size_t i = 0; i < raw.size(); ++i) {
    const bool new_line = !comparable(raw[i]).empty() && !my_lines.contains(comparable(raw[i]));
    out.push_back((new_line ? (color ? sgr("32", "+ ") : "+ ") : "  ") + shown[i]);
  }
  return out;
}

// Pairs of line numbers (yours, the solution's) in order, matched by a longest common
// subsequence of their comparable forms; a line of one side only is paired with nothing.
std::vector<std::pair<std::optional<size_t>, std::optional<size_t>>> aligned_lines(const std::vector<std::string>& mine,
                                                                                   const std::vector<std::string>& theirs) {
  std::vector<std::string> a, b;
  for (const std::string& line : mine) a.push_back(comparable(line));
  for (const std::string& line : theirs) b.push_back(comparable(line));
  std::vector<std::vector<uint16_t>> common(a.size() + 1, std::vector<uint16_t>(b.size() + 1, 0));
  for (size_t i = a.size(); i-- > 0;) {
    for (size_t j = b.size(); j-- > 0;) {
      common[i][j] = a[i] == b[j] ? static_cast<uint16_t>(common[i + 1][j + 1] + 1)
                                  : std::max(common[i + 1][j], common[i][j + 1]);
    }
  }
  std::vector<std::pair<std::optional<size_t>, std::optional<size_t>>> rows;
  size_t i = 0, j = 0;
  while (i < a.size() || j < b.size()) {
    if (i < a.size() && j < b.size() && a[i] == b[j]) {
      rows.emplace_back(i++, j++);
    } else if (j < b.size() && (i == a.size() || common[i][j + 1] >= common[i + 1][j])) {
      rows.emplace_back(std::nullopt, j++);
    } else {
      rows.emplace_back(i++, std::nullopt);
    }
  }
  return rows;
}

}  // namespace

Expected<int> reveal_hint(LearnerCourse& course, const grade::Exercise& exercise) {
  if (exercise.hints.empty()) return make_error(exercise.name + " has no hints; lesson " + std::to_string(exercise.lesson) +
                                                " explains what it needs: tilecamp lesson " + std::to_string(exercise.lesson));
  course.reload_progress();
  std::string error;
  if (!course.progress.reveal_hint(exercise.name, static_cast<int>(exercise.hints.size()), error)) {
    return make_error("the hint could not be saved: " + error);
  }
  return course.progress.hints_shown(exercise.name);
}

std::vector<std::string> hint_lines(const grade::Exercise& exercise, int shown, size_t width, bool color) {
  std::vector<std::string> lines;
  const int total = static_cast<int>(exercise.hints.size());
  for (int i = 0; i < std::min(shown, total); ++i) {
    const std::string label = fmt::format("Hint {} of {}: ", i + 1, total);
    const std::vector<std::string> hint = render_inline_paragraph(
        exercise.hints[static_cast<size_t>(i)], {width, color}, color ? sgr("1;33", label) : label, std::string(label.size(), ' '));
    lines.insert(lines.end(), hint.begin(), hint.end());
  }
  if (shown >= total && total > 0) {
    lines.push_back(fmt::format("That was the last hint. Lesson {} explains the idea (tilecamp lesson {}).", exercise.lesson,
                                exercise.lesson));
  }
  return lines;
}

Expected<const grade::CourseEntry*> advance(LearnerCourse& course) {
  course.reload_progress();
  const grade::CourseEntry& current = course.current();
  if (!course.done(current)) {
    return make_error(fmt::format("{} is not done yet: make it pass first (tilecamp check {}), then move on", current.id,
                                  current.id));
  }
  const grade::CourseEntry* next = course.after(current);
  if (next == nullptr) {
    const size_t left = course.course.exercises.size() - course.done_count();
    if (left > 0) {
      return make_error(fmt::format("{} is the last exercise in order; {} still to pass (tilecamp list shows which)",
                                    current.id, left));
    }
    return make_error(current.id + " is the last exercise: you have finished the course");
  }
  std::string error;
  if (!course.progress.set_current(next->id, error)) return make_error("could not save your progress: " + error);
  return next;
}

Expected<std::vector<std::string>> solution_lines(const LearnerCourse& course, const grade::CourseEntry& entry,
                                                  size_t width, bool color) {
  if (!course.done(entry)) {
    return make_error(fmt::format("the solution of {} opens once your kernel passes (tilecamp check {}); stuck? "
                                  "tilecamp hint {} gives one more hint",
                                  entry.id, entry.id, entry.id));
  }
  std::string solution, mine, error;
  // From the course as shipped: a folder made by `tilecamp init` has no solutions of its own.
  const std::filesystem::path solution_file = course.source / "solutions" / entry.id / "kernel.cu";
  if (!read_file(solution_file, solution, error)) return make_error(error);
  read_file(entry.directory / "kernel.cu", mine, error);
  const std::vector<std::string> theirs = marked_solution(solution, mine, color);
  const std::string heading = fmt::format("solutions/{}/kernel.cu  (+ marks lines that are not in yours)", entry.id);
  auto bold = [&](const std::string& text) { return color ? sgr("1", text) : text; };
  std::vector<std::string> out;
  if (width < k_side_by_side_columns) {
    out.push_back(bold(heading));
    out.emplace_back();
    out.insert(out.end(), theirs.begin(), theirs.end());
    return out;
  }
  // Side by side, each line of yours beside the same line of the solution (the same once spaces
  // and comments are set aside), and what only one side has across from a blank.
  const size_t half = (width - 3) / 2;
  const std::vector<std::string> yours = highlight_code(mine, CodeLanguage::Cuda, color);
  const std::vector<std::string> my_raw = split_lines(mine), their_raw = split_lines(solution);
  out.push_back(pad_visible(truncate_visible(bold(exercise_file_shown(entry) + "  (yours)"), half), half) + " | " +
                truncate_visible(bold(heading), half));
  out.emplace_back();
  for (const auto& [left, right] : aligned_lines(my_raw, their_raw)) {
    const std::string mine_shown = left && *left < yours.size() ? "  " + yours[*left] : "";
    const std::string their_shown = right && *right < theirs.size() ? theirs[*right] : "";
    out.push_back(pad_visible(truncate_visible(mine_shown, half), half) + " | " + truncate_visible(their_shown, half));
  }
  return out;
}

}  // namespace tilecamp::runner
