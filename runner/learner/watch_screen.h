// The watch screen: where the learner is, the verdict of their last save with each diagnostic's
// source line, what to do next, the hints asked for, and the keys. Built from plain data so
// that it can be tested without a terminal or a grader.
#pragma once

#include <string>
#include <vector>

#include "checker/grade/verdict.h"
#include "checker/report/style.h"

namespace tilecamp::runner {

struct WatchScreen {
  std::string exercise;      // "01-vector-add"
  std::string title;         // "Vector add"
  int lesson = 0;
  std::string lesson_title;  // "Coalescing"
  size_t done = 0, total = 0;
  std::string file;          // as the learner sees it: exercises/01-vector-add/kernel.cu
  const grade::Verdict* verdict = nullptr;  // nullptr: not checked yet
  std::string source;        // the text that was checked, for the diagnostics' lines
  bool passed = false;       // the progress file's word: passed, and unchanged since
  std::string next_exercise; // "" after the last
  std::vector<std::string> hints;  // rendered hint lines
  std::string message;       // the answer to the last key
  std::string watching;      // how saves are noticed: "every save is checked"
  size_t width = 80;
};

std::string render_watch_screen(const WatchScreen& screen, const report::Style& style);

// The same screen in at most `rows` lines: the status and the keys at the bottom always, the
// header at the top, and the verdict scrolled to `scroll` (clamped here) when it does not fit.
std::vector<std::string> fit_watch_screen(const WatchScreen& screen, const report::Style& style, size_t rows, size_t& scroll);

// One line: what the verdict means for the learner and what to do now.
std::string next_step(const WatchScreen& screen, const report::Style& style);

}  // namespace tilecamp::runner
