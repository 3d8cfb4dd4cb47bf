#include "runner/learner/learner_actions.h"

#include <fmt/format.h>

#include <algorithm>
#include <set>

#include "runner/learner/ansi_text.h"
#include "runner/learner/code_highlight.h"
#include "runner/learner/markdown_render.h"
#include "runner/terminal.h"

namespace tilecamp::runner {
namespace {

std::string trimmed(const std::string& line) {
  const size_t first = line.find_first_not_of(" \t");
  return first == std::string::npos ? "" : line.substr(first, line.find_last_not_of(" \t\r") - first + 1);
}

// Each line of the solution, highlighted, behind a gutter: "+" where the learner's file has no
// such line.
std::vector<std::string> marked_solution(const std::string& solution, const std::string& mine, bool color) {
  std::set<std::string> my_lines;
  for (const std::string& line : split_lines(mine)) my_lines.insert(trimmed(line));
  const std::vector<std::string> raw = split_lines(solution);
  const std::vector<std::string> shown = highlight_code(solution, CodeLanguage::Cuda, color);
  std::vector<std::string> out;
  for (size_t i = 0; i < raw.size(); ++i) {
    const bool new_line = !trimmed(raw[i]).empty() && !my_lines.contains(trimmed(raw[i]));
    out.push_back((new_line ? (color ? sgr("32", "+ ") : "+ ") : "  ") + shown[i]);
  }
  return out;
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
  const std::vector<std::string> yours = highlight_code(mine, CodeLanguage::Cuda, color);
  size_t widest = 0;
  for (const std::string& line : split_lines(solution + "\n" + mine)) widest = std::max(widest, visible_width(line) + 2);
  const std::string heading = fmt::format("solutions/{}/kernel.cu  (+ marks lines that are not in yours)", entry.id);
  auto bold = [&](const std::string& text) { return color ? sgr("1", text) : text; };
  std::vector<std::string> out;
  if (2 * widest + 3 > width) {
    out.push_back(bold(heading));
    out.emplace_back();
    out.insert(out.end(), theirs.begin(), theirs.end());
    return out;
  }
  out.push_back(pad_visible(bold(exercise_file_shown(entry) + "  (yours)"), widest) + " | " + bold(heading));
  out.emplace_back();
  for (size_t i = 0; i < std::max(theirs.size(), yours.size()); ++i) {
    const std::string left = i < yours.size() ? "  " + yours[i] : "";
    out.push_back(pad_visible(left, widest) + " | " + (i < theirs.size() ? theirs[i] : ""));
  }
  return out;
}

}  // namespace tilecamp::runner
