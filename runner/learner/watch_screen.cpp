#include "runner/learner/watch_screen.h"

#include <fmt/format.h>

#include <algorithm>

#include "checker/report/verdict_report.h"
#include "runner/learner/ansi_text.h"

namespace tilecamp::runner {
namespace {

const grade::Check* first_failure(const grade::Verdict& verdict) {
  for (const grade::Check& check : verdict.checks) {
    if (check.status == grade::CheckStatus::Fail || check.status == grade::CheckStatus::Error) return &check;
  }
  return nullptr;
}

int first_error_line(const grade::Verdict& verdict) {
  for (const Diagnostic& d : verdict.diagnostics) {
    if (d.severity == Severity::Error && d.line > 0) return d.line;
  }
  return 0;
}

// "tilecamp  lesson 4: Bank conflicts  >  04-row-sums: Row sums ...    [###-------] 3/12 done", on
// one line of the screen's width whatever the titles: the bar goes first, then the exercise's
// title, then the lesson's, and last the place is cut short.
std::string header(const WatchScreen& screen, const report::Style& style) {
  const std::string count = fmt::format("{}/{} done", screen.done, screen.total);
  constexpr size_t k_bar = 10;
  const size_t filled = screen.total > 0 ? std::min(k_bar, screen.done * k_bar / screen.total) : 0;
  const std::string bar_plain = "[" + std::string(filled, '#') + std::string(k_bar - filled, '-') + "] ";
  const std::string bar = "[" + style.green(std::string(filled, '#')) + style.dim(std::string(k_bar - filled, '-')) + "] ";
  auto where = [&](bool lesson_title, bool title) {
    return fmt::format("lesson {}{}  >  {}{}", screen.lesson,
                       lesson_title && !screen.lesson_title.empty() ? ": " + screen.lesson_title : "", screen.exercise,
                       title && !screen.title.empty() ? ": " + screen.title : "");
  };
  const std::string prefix = "tilecamp  ";
  struct Layout {
    bool bar, lesson_title, title;
  };
  for (const Layout layout : {Layout{true, true, true}, Layout{false, true, true}, Layout{true, true, false},
                              Layout{false, true, false}, Layout{true, false, false}, Layout{false, false, false}}) {
    const std::string place = where(layout.lesson_title, layout.title);
    const size_t right = (layout.bar ? bar_plain.size() : 0) + count.size();
    const size_t used = visible_width(prefix + place) + right;
    if (used + 2 > screen.width) continue;
    return style.bold(style.cyan("tilecamp")) + "  " + style.bold(place) + std::string(screen.width - used, ' ') +
           (layout.bar ? bar : "") + style.dim(count);
  }
  // Narrower still: the place alone, cut to the width.
  std::string place = where(false, false);
  const size_t room = screen.width > prefix.size() + 1 ? screen.width - prefix.size() : 1;
  if (place.size() > room) place = place.substr(0, room > 3 ? room - 3 : 0) + "...";
  return style.bold(style.cyan("tilecamp")) + "  " + style.bold(place);
}

// "n next  h hint  l list ...": lines break between keys, never inside one.
std::string key_bar(const WatchScreen& screen, const report::Style& style) {
  struct KeyText {
    const char* letter;
    const char* what;
    bool available;
  };
  const KeyText keys[] = {{"n", "next", screen.passed}, {"h", "hint", true},     {"l", "list", true},
                          {"c", "all", true},           {"v", "lesson", true},   {"r", "re-check", true},
                          {"s", "solution", screen.passed}, {"x", "reset", true}, {"q", "quit", true}};
  std::string out;
  size_t column = 0;
  for (const KeyText& key : keys) {
    const std::string plain = fmt::format("{} {}", key.letter, key.what);
    const std::string text = key.available ? fmt::format("{} {}", style.bold(key.letter), key.what) : style.dim(plain);
    if (column > 0 && column + 2 + plain.size() > screen.width) {
      out += "\n";
      column = 0;
    } else if (column > 0) {
      out += "  ";
      column += 2;
    }
    out += text;
    column += plain.size();
  }
  return out;
}

}  // namespace

std::string next_step(const WatchScreen& screen, const report::Style& style) {
  if (screen.verdict == nullptr) return "Checking " + screen.file + "...";
  const grade::Verdict& verdict = *screen.verdict;
  switch (verdict.status) {
    case grade::VerdictStatus::Pass:
      if (!screen.passed) return style.green(style.bold("PASSED")) + "  save once more to record it, or press r";
      if (screen.next_exercise.empty()) {
        if (screen.done < screen.total) {  // the last in order, not the last to pass
          return style.green(style.bold("PASSED")) + fmt::format("  that was the last exercise in order; {} of {} still to pass: "
                                                                 "l lists them",
                                                                 screen.total - screen.done, screen.total);
        }
        return style.green(style.bold("PASSED")) + "  and that was the last exercise: you have finished the course!";
      }
      return style.green(style.bold("PASSED")) + "  n moves on to " + screen.next_exercise + "; s compares yours with the solution";
    case grade::VerdictStatus::Error:
      return style.red(style.bold("COULD NOT CHECK")) + "  " + verdict.error + "; fix that and save, or press r to try again";
    case grade::VerdictStatus::Fail: break;
  }
  const grade::Check* failing = first_failure(verdict);
  if (failing != nullptr && failing->kind == grade::CheckKind::Compile && failing->name != "compiles") {
    // It compiled; what is missing is the kernel, or its parameters, or a launch constant.
    return style.red(style.bold("NOT YET")) + "  " + failing->message + ". Fix it in your editor and save";
  }
  if (failing != nullptr && failing->kind == grade::CheckKind::Compile) {
    const int line = first_error_line(verdict);
    return style.red(style.bold("NOT YET")) + "  it does not compile: fix the error" +
           (line > 0 ? fmt::format(" at line {}", line) : std::string()) + " above and save";
  }
  std::string what = "a check fails";
  if (failing != nullptr && failing->kind == grade::CheckKind::Correctness) {
    what = "wrong results in the " + failing->name;
  } else if (failing != nullptr && failing->kind == grade::CheckKind::Safety) {
    what = "the emulator caught an error (the source line is shown above)";
  } else if (failing != nullptr && failing->kind == grade::CheckKind::Performance) {
    what = "correct on every case, but not yet fast enough: " + failing->name;
  }
  return style.red(style.bold("NOT YET")) + "  " + what + ". Fix it in your editor and save; h gives a hint";
}

namespace {

std::vector<std::string> wrapped_lines(const std::string& text, size_t width) {
  std::vector<std::string> lines;
  for (const std::string& line : split_lines(text)) {
    for (const std::string& piece : wrap_line(line, width)) lines.push_back(piece);
  }
  return lines;
}

// The screen in three parts: what stays at the top (where you are), the verdict and the hints
// (which scroll when the terminal is too short), and what stays at the bottom (what to do now,
// the answer to the last key, the keys).
struct ScreenParts {
  std::vector<std::string> top, body, bottom;
};

ScreenParts screen_parts(const WatchScreen& screen, const report::Style& style) {
  const std::string rule = style.dim(std::string(std::min<size_t>(screen.width, 100), '-'));
  ScreenParts parts;
  parts.top = wrapped_lines(header(screen, style) + "\n" + style.dim("Edit " + screen.file + ": " + screen.watching + ".") +
                                "\n" + rule,
                            screen.width);
  std::string body;
  if (screen.verdict != nullptr) {
    report::VerdictTextOptions options;
    options.source = screen.source;
    options.next_step = false;
    body += report::verdict_text(*screen.verdict, style, options) + rule + "\n";
  }
  std::string bottom = next_step(screen, style) + "\n";
  if (!screen.hints.empty()) {
    bottom += "\n";
    for (const std::string& line : screen.hints) bottom += line + "\n";
  }
  if (!screen.message.empty()) bottom += "\n" + screen.message + "\n";
  bottom += "\n" + key_bar(screen, style);
  parts.body = wrapped_lines(body, screen.width);
  if (!parts.body.empty() && parts.body.back().empty()) parts.body.pop_back();
  parts.bottom = wrapped_lines(bottom, screen.width);
  return parts;
}

}  // namespace

std::string render_watch_screen(const WatchScreen& screen, const report::Style& style) {
  const ScreenParts parts = screen_parts(screen, style);
  std::string out;
  for (const auto* part : {&parts.top, &parts.body, &parts.bottom}) {
    for (const std::string& line : *part) out += line + "\n";
  }
  return out;
}

std::vector<std::string> fit_watch_screen(const WatchScreen& screen, const report::Style& style, size_t rows, size_t& scroll) {
  ScreenParts parts = screen_parts(screen, style);
  const size_t all = parts.top.size() + parts.body.size() + parts.bottom.size();
  if (all <= rows) {
    scroll = 0;
    std::vector<std::string> lines = parts.top;
    lines.insert(lines.end(), parts.body.begin(), parts.body.end());
    lines.insert(lines.end(), parts.bottom.begin(), parts.bottom.end());
    return lines;
  }
  // Too tall: the bottom (PASSED or NOT YET, the keys) always shows; then the header's first line;
  // the rest of the top if there is room; the verdict gets what is left, from `scroll`, behind a
  // line that says how to move it.
  std::vector<std::string> lines;
  if (parts.bottom.size() + 1 > rows) {
    // Tiny: the header's first line, the status (cut short if need be) and the keys, no blank lines.
    const auto last_blank = std::find_if(parts.bottom.rbegin(), parts.bottom.rend(),
                                         [](const std::string& line) { return line.empty(); });
    const std::vector<std::string> keys(last_blank.base(), parts.bottom.end());
    std::vector<std::string> status;
    for (auto it = parts.bottom.begin(); it != last_blank.base(); ++it) {
      if (!it->empty()) status.push_back(*it);
    }
    lines.push_back(parts.top.front());
    const size_t room = rows > 1 + keys.size() ? rows - 1 - keys.size() : 1;
    lines.insert(lines.end(), status.begin(), status.begin() + static_cast<std::ptrdiff_t>(std::min(room, status.size())));
    lines.insert(lines.end(), keys.begin(), keys.end());
    if (lines.size() > rows) lines.resize(rows);
    return lines;
  }
  size_t room = rows - parts.bottom.size();
  std::vector<std::string> top(parts.top.begin(), parts.top.begin() + static_cast<std::ptrdiff_t>(std::min<size_t>(1, room)));
  room -= top.size();
  if (room >= parts.top.size() - top.size() + 3) {  // the whole top, if the verdict keeps 2 lines and its guide
    top = parts.top;
    room = rows - parts.bottom.size() - top.size();
  }
  lines = top;
  if (room >= 2 && !parts.body.empty()) {
    const size_t shown = room - 1;
    const size_t last_start = parts.body.size() > shown ? parts.body.size() - shown : 0;
    scroll = std::min(scroll, last_start);
    const size_t end = std::min(parts.body.size(), scroll + shown);
    lines.insert(lines.end(), parts.body.begin() + static_cast<std::ptrdiff_t>(scroll),
                 parts.body.begin() + static_cast<std::ptrdiff_t>(end));
    lines.push_back(style.dim(truncate_visible(
        fmt::format("-- lines {}-{} of {} of the verdict: j/k or arrows scroll, PgUp/PgDn a page --", scroll + 1, end,
                    parts.body.size()),
        screen.width)));
  } else if (room >= 1) {
    lines.push_back(style.dim(truncate_visible("-- the verdict needs a taller terminal --", screen.width)));
  }
  lines.insert(lines.end(), parts.bottom.begin(), parts.bottom.end());
  return lines;
}

}  // namespace tilecamp::runner
