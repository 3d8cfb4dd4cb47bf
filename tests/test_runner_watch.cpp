// Watch mode's parts that need no terminal: noticing saves (runner/learner/file_watcher.h) and the watch
// screen (runner/learner/watch_screen.h) drawn from a verdict.
#include <doctest/doctest.h>

#include <thread>

#include "runner/learner/ansi_text.h"
#include "runner/learner/file_watcher.h"
#include "runner/learner/watch_screen.h"
#include "tests/test_runner_support.h"
#include "tests/test_support.h"

namespace tilecamp {
namespace {

using namespace std::chrono_literals;
using runner::WatchClock;

TEST_CASE("debounce: a burst of changes is one save, due once the file has been quiet long enough") {
  runner::Debounce debounce(100ms);
  const auto start = WatchClock::time_point{};
  CHECK_FALSE(debounce.wait(start));
  debounce.changed(start);
  debounce.changed(start + 60ms);  // the editor writes again
  CHECK_FALSE(debounce.due(start + 120ms));
  CHECK(debounce.wait(start + 120ms) == 40ms);
  CHECK(debounce.due(start + 160ms));
  CHECK_FALSE(debounce.due(start + 200ms));  // once
}

// Polls the watcher as the watch loop does, for at most `limit`.
bool saved_within(runner::FileWatcher& watcher, std::chrono::milliseconds limit) {
  const auto end = WatchClock::now() + limit;
  while (WatchClock::now() < end) {
    watcher.drain(WatchClock::now());
    if (watcher.saved(WatchClock::now())) return true;
    std::this_thread::sleep_for(5ms);
  }
  return false;
}

TEST_CASE("file watcher: a write, and a save by rename over the file (as vim does), are each noticed once") {
  test::ScratchFolder folder;
  folder.write("kernel.cu", "v1");
  runner::FileWatcher watcher(folder.path() / "kernel.cu", 20ms);
  REQUIRE(watcher.fd() >= 0);
  CHECK(watcher.how() == "every save is checked");
  CHECK_FALSE(saved_within(watcher, 60ms));
  folder.write("kernel.cu", "v2");
  CHECK(saved_within(watcher, 1000ms));
  CHECK_FALSE(saved_within(watcher, 60ms));
  folder.write("kernel.cu.swp", "v3");
  std::filesystem::rename(folder.path() / "kernel.cu.swp", folder.path() / "kernel.cu");
  CHECK(saved_within(watcher, 1000ms));
  folder.write("notes.txt", "another file in the folder");
  CHECK_FALSE(saved_within(watcher, 60ms));
}

TEST_CASE("file watcher: without inotify the file's time and size are compared instead") {
  test::ScratchFolder folder;
  folder.write("kernel.cu", "v1");
  runner::FileWatcher watcher(folder.path() / "kernel.cu", 10ms, false);
  CHECK(watcher.fd() == -1);
  CHECK(test::contains(watcher.how(), "every second"));
  folder.write("kernel.cu", "version 2");
  CHECK(saved_within(watcher, 2500ms));
}

grade::Verdict failing_verdict() {
  grade::Verdict verdict;
  verdict.exercise = "01-vector-add";
  verdict.file = "exercises/01-vector-add/kernel.cu";
  verdict.backend = "emulator";
  verdict.seed = 7;
  verdict.status = grade::VerdictStatus::Fail;
  verdict.checks.push_back({"compiles", grade::CheckKind::Compile, grade::CheckStatus::Pass, "", "", {}, {}});
  verdict.checks.push_back({"public case n=100", grade::CheckKind::Correctness, grade::CheckStatus::Fail,
                            "line 3: out-of-bounds global load", "", {}, {}});
  verdict.diagnostics.push_back({Severity::Error, "out-of-bounds", "exercises/01-vector-add/kernel.cu", 3,
                                 "out-of-bounds global load of 4 bytes at element 100 of `a`"});
  return verdict;
}

runner::WatchScreen screen_for(const grade::Verdict& verdict) {
  runner::WatchScreen screen;
  screen.exercise = "01-vector-add";
  screen.title = "Vector add";
  screen.lesson = 1;
  screen.lesson_title = "Coalescing";
  screen.total = 12;
  screen.file = "exercises/01-vector-add/kernel.cu";
  screen.verdict = &verdict;
  screen.source = "__global__ void vectorAdd(const float* a, const float* b, float* c, int n) {\n  int i = threadIdx.x;\n  c[i] = a[i] + b[i];\n}\n";
  screen.next_exercise = "01-copy-coalesced";
  screen.watching = "every save is checked";
  screen.width = 100;
  return screen;
}

TEST_CASE("watch screen: a failure shows the failing case, the diagnostic with its source line marked, and what to do") {
  const grade::Verdict verdict = failing_verdict();
  const std::string text = runner::render_watch_screen(screen_for(verdict), report::Style(false));
  CHECK(test::contains(text, "lesson 1: Coalescing  >  01-vector-add: Vector add"));
  CHECK(test::contains(text, "0/12 done"));
  CHECK(test::contains(text, "FAIL  public case n=100"));
  CHECK(test::contains(text, "exercises/01-vector-add/kernel.cu:3: out-of-bounds global load"));
  CHECK(test::contains(text, "    >   3 |   c[i] = a[i] + b[i];"));
  CHECK(test::contains(text, "NOT YET  wrong results in the public case n=100. Fix it in your editor and save"));
  CHECK(test::contains(text, "Edit exercises/01-vector-add/kernel.cu: every save is checked."));
  CHECK(test::contains(text, "x reset  q quit"));
  CHECK(text.find('\x1b') == std::string::npos);
}

TEST_CASE("watch screen: with colour the diagnostic's source line is highlighted") {
  const grade::Verdict verdict = failing_verdict();
  const std::string text = runner::render_watch_screen(screen_for(verdict), report::Style(true));
  CHECK(test::contains(text, "\x1b[31m    >   3 | \x1b[0m\x1b[1m  c[i] = a[i] + b[i];\x1b[0m"));
}

TEST_CASE("watch screen: a pass says which exercise n moves on to, n and s are offered only then") {
  grade::Verdict verdict = failing_verdict();
  verdict.status = grade::VerdictStatus::Pass;
  verdict.checks.resize(1);
  verdict.diagnostics.clear();
  runner::WatchScreen screen = screen_for(verdict);
  screen.passed = true;
  screen.done = 1;
  const std::string text = runner::render_watch_screen(screen, report::Style(false));
  CHECK(test::contains(text, "PASSED  n moves on to 01-copy-coalesced; s compares yours with the solution"));
  CHECK(test::contains(text, "1/12 done"));
  screen.next_exercise.clear();
  // The last in order is not the end while others have not passed.
  CHECK(test::contains(runner::render_watch_screen(screen, report::Style(false)),
                       "that was the last exercise in order; 11 of 12 still to pass: l lists them"));
  screen.done = screen.total;
  CHECK(test::contains(runner::render_watch_screen(screen, report::Style(false)), "you have finished the course"));
  screen.done = 1;
  CHECK(test::contains(runner::render_watch_screen(screen, report::Style(true)), "\x1b[1mn\x1b[0m next"));
  screen.passed = false;
  CHECK(test::contains(runner::render_watch_screen(screen, report::Style(true)), "\x1b[2mn next\x1b[0m"));
}

TEST_CASE("watch screen: a compile error names its line, an error that stopped the check says what to do") {
  grade::Verdict verdict = failing_verdict();
  verdict.checks = {{"compiles", grade::CheckKind::Compile, grade::CheckStatus::Fail, "", "", {}, {}}};
  verdict.diagnostics = {{Severity::Error, "compile", "exercises/01-vector-add/kernel.cu", 2, "expected a \";\""}};
  CHECK(test::contains(runner::next_step(screen_for(verdict), report::Style(false)),
                       "it does not compile: fix the error at line 2 above and save"));
  verdict.status = grade::VerdictStatus::Error;
  verdict.error = "cannot open exercises/01-vector-add/kernel.cu";
  CHECK(test::contains(runner::next_step(screen_for(verdict), report::Style(false)),
                       "COULD NOT CHECK  cannot open exercises/01-vector-add/kernel.cu; fix that and save, or press r"));
}

TEST_CASE("watch screen: a file that compiles without the kernel says what is missing, not that it does not compile") {
  grade::Verdict verdict = failing_verdict();
  verdict.checks = {{"compiles", grade::CheckKind::Compile, grade::CheckStatus::Pass, "", "", {}, {}},
                    {"kernel `vectorAdd` is defined", grade::CheckKind::Compile, grade::CheckStatus::Fail,
                     "no kernel named `vectorAdd`: the file defines no __global__ function", "", {}, {}}};
  const std::string step = runner::next_step(screen_for(verdict), report::Style(false));
  CHECK(test::contains(step, "NOT YET  no kernel named `vectorAdd`: the file defines no __global__ function"));
  CHECK_FALSE(test::contains(step, "does not compile"));
}

TEST_CASE("watch screen: the header keeps to one line of the width, with a progress bar where it fits") {
  grade::Verdict verdict = failing_verdict();
  runner::WatchScreen screen = screen_for(verdict);
  screen.done = 3;
  screen.title = "Register-blocked SGEMM with a title much longer than any of the course's";
  for (const size_t width : {160u, 100u, 80u, 60u, 40u, 20u}) {
    screen.width = width;
    const std::string first = runner::render_watch_screen(screen, report::Style(false)).substr(0, std::string::npos);
    const std::string header = first.substr(0, first.find('\n'));
    INFO("width ", width, ": ", header);
    CHECK(header.size() <= width);
    CHECK(header.starts_with("tilecamp  "));
  }
  screen.width = 160;
  const std::string wide = runner::render_watch_screen(screen, report::Style(false));
  CHECK(test::contains(wide.substr(0, wide.find('\n')), "[##--------] 3/12 done"));
  CHECK(test::contains(wide.substr(0, wide.find('\n')), "Register-blocked SGEMM"));
}

TEST_CASE("watch screen: long lines wrap to the width with a hanging indent") {
  grade::Verdict verdict = failing_verdict();
  runner::WatchScreen screen = screen_for(verdict);
  screen.width = 50;
  for (const std::string& line : runner::split_lines(runner::render_watch_screen(screen, report::Style(false)))) {
    CHECK(runner::visible_width(line) <= 50);
  }
}

}  // namespace
}  // namespace tilecamp
