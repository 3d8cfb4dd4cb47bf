#include "runner/learner/watch.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>
#include <poll.h>
#include <unistd.h>

#include <cstdlib>
#include <iostream>
#include <memory>

#include "runner/learner/ansi_text.h"
#include "runner/learner/background_check.h"
#include "runner/learner/file_watcher.h"
#include "runner/grading.h"
#include "runner/learner/learner_actions.h"
#include "runner/learner/lessons.h"
#include "runner/learner/pager.h"
#include "runner/learner/progress_list.h"
#include "runner/learner/stub_store.h"
#include "runner/terminal.h"
#include "runner/learner/tty.h"
#include "runner/learner/watch_screen.h"

namespace tilecamp::runner {
namespace {

// TILECAMP_DEBOUNCE_MS: how long a file must be quiet after a save before it is checked.
std::chrono::milliseconds debounce_time() {
  const char* text = std::getenv("TILECAMP_DEBOUNCE_MS");
  const int value = text ? std::atoi(text) : 0;
  return std::chrono::milliseconds(value > 0 ? value : 200);
}

class WatchSession {
 public:
  WatchSession(LearnerCourse& course, const WatchOptions& options)
      : m_course(course), m_options(options), m_style(style_for(stdout)), m_screen_is_terminal(::isatty(STDOUT_FILENO)),
        m_seed(options.seed ? *options.seed : fresh_seed()), m_message(options.greeting) {}

  int run(const grade::CourseEntry& start);

 private:
  enum class After { Stay, Quit };

  void open(const grade::CourseEntry& entry);
  void check();                                  // starts a check beside the screen
  void finish_check(grade::Verdict verdict);     // its verdict arrived
  void stop_overdue_check();                     // past its time: stopped, said so
  void settle_check(bool readable);              // either of those, when due; redraws
  void draw();
  After on_key(const Key& key);
  void next();
  void list();  // l: the exercises to move through; Enter goes to one, x resets it
  void check_all();                              // c: every exercise, beside the screen
  void finish_check_all(const std::string& result);
  void hint();
  void reset();
  void page(const std::vector<std::string>& lines, const std::string& title);
  std::string shown_file() const { return exercise_file_shown(*m_entry); }
  // The same text with the session's seed gives the same verdict: a save that changed nothing (or
  // the write of a reset that was already checked) keeps the screen as it is.
  bool changed_since_check() const {
    std::string text, error;
    if (!read_file(m_entry->directory / "kernel.cu", text, error)) return true;
    if (m_running.running()) return text != m_running_source;
    return !m_verdict || text != m_source;
  }
  // The sandbox stops a kernel at the check's time limit with its own finding; past that and a
  // margin the whole check is stopped from here.
  double overdue_seconds() const { return m_options.sandbox.seconds + 10; }

  LearnerCourse& m_course;
  WatchOptions m_options;
  report::Style m_style;
  bool m_screen_is_terminal;
  uint64_t m_seed;
  const grade::CourseEntry* m_entry = nullptr;
  std::optional<grade::Exercise> m_exercise;
  std::string m_exercise_error;
  std::optional<grade::Verdict> m_verdict;
  std::string m_source;
  std::string m_message;
  std::unique_ptr<FileWatcher> m_watcher;
  size_t m_scroll = 0;             // the first line of the verdict shown, when it does not fit
  BackgroundCheck m_running;       // the check under way, if any
  BackgroundCheck m_all;           // c: every exercise checked, under way
  std::string m_running_source;    // the text it checks
};

void WatchSession::open(const grade::CourseEntry& entry) {
  m_entry = &entry;
  m_verdict.reset();
  auto exercise = grade::load_course_exercise(entry);
  m_exercise.reset();
  m_exercise_error.clear();
  if (exercise) {
    m_exercise = std::move(*exercise);
    m_exercise->hints = m_course.hints(*m_exercise);  // a folder made by `tilecamp init` has none of its own
  } else {
    m_exercise_error = exercise.error();
  }
  if (m_course.progress.current() != entry.id) {
    std::string error;
    if (!m_course.progress.set_current(entry.id, error)) m_message = "Your progress could not be saved: " + error;
  }
  m_watcher.reset();
  if (!m_options.manual) m_watcher = std::make_unique<FileWatcher>(entry.directory / "kernel.cu", debounce_time());
  check();
}

void WatchSession::check() {
  std::string error;
  std::string source;
  std::error_code missing;
  if (!std::filesystem::exists(m_entry->directory / "kernel.cu", missing)) {  // deleted, or renamed away
    m_running.cancel();
    m_source.clear();
    m_verdict = error_verdict(m_entry->id, shown_file(),
                              shown_file() + " is gone (deleted or renamed): x brings back the stub, or save your "
                                             "file there again");
    return;
  }
  read_file(m_entry->directory / "kernel.cu", source, error);
  if (!m_exercise) {
    m_running.cancel();
    m_source = source;
    m_verdict = error_verdict(m_entry->id, shown_file(), m_exercise_error);
    return;
  }
  GradeSettings settings;
  settings.seed = m_seed;
  settings.sandbox = m_options.sandbox;
  const grade::Exercise& exercise = *m_exercise;
  const std::filesystem::path file = m_entry->directory / "kernel.cu";
  const std::string shown = shown_file();
  m_running_source = source;
  if (!m_running.start([&] { return grade_file(exercise, file, shown, settings); }, error)) {
    m_source = source;
    m_verdict = error_verdict(m_entry->id, shown, error);
  }
}

void WatchSession::finish_check(grade::Verdict verdict) {
  m_verdict = std::move(verdict);
  m_scroll = 0;
  m_source = m_running_source;
  if (m_verdict->status == grade::VerdictStatus::Error) return;
  std::string error;
  m_course.reload_progress();
  if (!m_course.progress.record(m_entry->id, m_source, m_verdict->status == grade::VerdictStatus::Pass, error)) {
    m_message = "Your progress could not be saved: " + error;
  }
}

void WatchSession::settle_check(bool readable) {
  if (!m_running.running()) return;
  if (readable) {
    if (auto verdict = m_running.poll_result()) {
      finish_check(std::move(*verdict));
      draw();
      return;
    }
  }
  if (m_running.seconds() > overdue_seconds()) {
    stop_overdue_check();
    draw();
  }
}

void WatchSession::stop_overdue_check() {
  m_running.cancel();
  m_source = m_running_source;
  m_verdict = error_verdict(m_entry->id, shown_file(),
                            fmt::format("the check ran {:.0f} s, past its limit of {:g} s, and was stopped (a kernel that "
                                        "runs that long is stuck in a loop or far too slow; tilecamp check {} "
                                        "--time-limit N allows more)",
                                        overdue_seconds(), m_options.sandbox.seconds, m_entry->id));
}

void WatchSession::draw() {
  WatchScreen screen;
  screen.exercise = m_entry->id;
  screen.title = m_exercise ? m_exercise->title : "";
  screen.lesson = m_entry->lesson;
  screen.lesson_title = lesson_title(m_course.root, m_entry->lesson);
  screen.done = m_course.done_count();
  screen.total = m_course.course.exercises.size();
  screen.file = shown_file();
  screen.verdict = m_verdict ? &*m_verdict : nullptr;
  screen.source = m_source;
  screen.passed = m_course.done(*m_entry);
  const grade::CourseEntry* next = m_course.after(*m_entry);
  screen.next_exercise = next ? next->id : "";
  screen.width = static_cast<size_t>(m_screen_is_terminal ? screen_size().cols : 80);
  if (m_exercise) {
    screen.hints = hint_lines(*m_exercise, m_course.progress.hints_shown(m_entry->id), std::min<size_t>(screen.width, 100),
                              m_style.color());
  }
  screen.message = m_message;
  if (m_all.running()) {
    screen.message = fmt::format("checking every exercise... {:.0f} s", m_all.seconds()) +
                     (screen.message.empty() ? "" : "\n" + screen.message);
  }
  if (m_running.running()) {  // the verdict shown is the last one; say what is under way
    screen.message = fmt::format("checking {}... {:.0f} s  (q quits, a new save restarts it)", shown_file(), m_running.seconds()) +
                     (m_message.empty() ? "" : "\n" + m_message);
  }
  screen.watching = m_watcher ? m_watcher->how() : "press r to check it after saving (manual mode)";
  if (m_screen_is_terminal) {
    // At most the terminal's height, so that the header never scrolls away; the verdict scrolls
    // with j/k instead. Raw mode leaves output processing on, so "\n" still returns the carriage.
    const size_t rows = static_cast<size_t>(std::max(screen_size().rows, 1));
    const std::vector<std::string> lines = fit_watch_screen(screen, m_style, rows, m_scroll);
    std::string text;
    for (size_t i = 0; i < lines.size(); ++i) text += (i ? "\n" : "") + lines[i];
    write_now(std::string(screen::k_clear) + text);
  } else {
    write_now("\n" + render_watch_screen(screen, m_style));
  }
}

void WatchSession::page(const std::vector<std::string>& lines, const std::string& title) {
  show_paged(lines, title, m_style.color(), true);
}

void WatchSession::next() {
  if (!m_course.done(*m_entry)) {
    m_message = fmt::format("Not yet: {} has not passed with your current kernel.cu. Make it pass, then press n.", m_entry->id);
    return;
  }
  auto next = advance(m_course);
  if (!next) {
    m_message = next.error();
    return;
  }
  const int lesson = m_entry->lesson;
  if ((*next)->lesson != lesson) {
    if (auto shown = show_lesson(m_course.root, (*next)->lesson, true); !shown) m_message = shown.error();
  }
  m_message = fmt::format("On to {}: open {} in your editor.", (*next)->id, exercise_file_shown(**next));
  open(**next);
}

void WatchSession::list() {
  if (!m_screen_is_terminal) {
    page(split_lines(progress_list_text(m_course, m_style)), "progress");
    return;
  }
  std::vector<std::string> lines;
  std::vector<size_t> choices;
  std::vector<const grade::CourseEntry*> entry_at;
  size_t start = 0;
  int lesson = 0;
  for (const grade::CourseEntry& entry : m_course.course.exercises) {
    if (entry.lesson != lesson) {
      lesson = entry.lesson;
      lines.push_back(m_style.bold(fmt::format("Lesson {}  {}", lesson, lesson_title(m_course.root, lesson))));
      entry_at.push_back(nullptr);
    }
    auto exercise = grade::load_course_exercise(entry);
    if (&entry == m_entry) start = lines.size();
    choices.push_back(lines.size());
    const bool done = m_course.done(entry);
    lines.push_back(fmt::format("  {}  {:<27} {}", done ? m_style.green("done   ") : m_style.dim("pending"), entry.id,
                                exercise ? exercise->title : ""));
    entry_at.push_back(&entry);
  }
  const std::string keys = fmt::format("{}/{} done   j/k or arrows move   Enter go to it   x reset it   q back",
                                       m_course.done_count(), m_course.course.exercises.size());
  const auto picked = pick_line(lines, choices, start, keys, "x", m_style.color());
  if (!picked) return;
  const grade::CourseEntry& chosen = *entry_at[picked->line];
  if (&chosen != m_entry) {
    std::string error;
    if (!m_course.progress.set_current(chosen.id, error)) m_message = "Your progress could not be saved: " + error;
    open(chosen);
    m_message = fmt::format("On {}: open {} in your editor.", chosen.id, exercise_file_shown(chosen));
  }
  if (picked->key == 'x') reset();
}

void WatchSession::check_all() {
  if (m_all.running()) {
    m_message = "Every exercise is being checked already.";
    return;
  }
  GradeSettings settings;
  settings.seed = m_seed;
  settings.sandbox = m_options.sandbox;
  LearnerCourse& course = m_course;
  // In the child: each exercise's kernel.cu graded in turn, each result recorded as a check
  // would record it; the list of which passed comes back.
  auto work = [&]() -> std::string {
    nlohmann::json results = nlohmann::json::array();
    for (const grade::CourseEntry& entry : course.course.exercises) {
      std::string source, error;
      bool passed = false;
      auto exercise = grade::load_course_exercise(entry);
      if (exercise && read_file(entry.directory / "kernel.cu", source, error)) {
        const grade::Verdict verdict = grade_file(*exercise, entry.directory / "kernel.cu", exercise_file_shown(entry), settings);
        passed = verdict.status == grade::VerdictStatus::Pass;
        if (verdict.status != grade::VerdictStatus::Error) {
          course.reload_progress();
          course.progress.record(entry.id, source, passed, error);
        }
      }
      results.push_back({{"id", entry.id}, {"passed", passed}});
    }
    return results.dump();
  };
  std::string error;
  if (!m_all.start_text(work, error)) {
    m_message = error;
    return;
  }
  m_message.clear();
}

void WatchSession::finish_check_all(const std::string& result) {
  m_course.reload_progress();
  const nlohmann::json results = nlohmann::json::parse(result, nullptr, false);
  if (!results.is_array()) {
    m_message = "Checking every exercise stopped before the end; press c to try again.";
    return;
  }
  size_t passed = 0;
  std::string pending;
  for (const nlohmann::json& item : results) {
    if (item.value("passed", false)) {
      ++passed;
    } else {
      pending += (pending.empty() ? "" : ", ") + item.value("id", std::string());
    }
  }
  m_message = fmt::format("Checked every exercise: {} of {} pass{}", passed, results.size(),
                          pending.empty() ? "." : "; not yet: " + pending + " (l to go to one).");
}

void WatchSession::hint() {
  if (!m_exercise) {
    m_message = m_exercise_error;
    return;
  }
  const int before = m_course.progress.hints_shown(m_entry->id);
  auto shown = reveal_hint(m_course, *m_exercise);
  if (!shown) {
    m_message = shown.error();
  } else if (*shown == before) {
    m_message = "No more hints for this one.";
  } else {
    m_message.clear();
  }
}

void WatchSession::reset() {
  m_message = fmt::format("Reset {} to the original stub? Your version is kept in .tilecamp/reset/. Press y to reset, any other key to keep it.",
                          shown_file());
  draw();
  const Key answer = read_key(STDIN_FILENO, -1);
  if (!answer.is('y') && !answer.is('Y')) {
    m_message = "Nothing was reset.";
    return;
  }
  auto restored = StubStore(m_course.root).restore(*m_entry);
  m_message = restored ? *restored + "." : "Could not reset: " + restored.error();
  if (restored) check();
}

WatchSession::After WatchSession::on_key(const Key& key) {
  if (key.code == KeyCode::Interrupt || key.code == KeyCode::EndOfInput || key.is('q') || key.is('Q')) return After::Quit;
  const size_t page_rows = static_cast<size_t>(std::max(screen_size().rows / 2, 1));
  if (key.is('j') || key.code == KeyCode::Down || key.is('k') || key.code == KeyCode::Up || key.code == KeyCode::PageDown ||
      key.code == KeyCode::PageUp) {  // scroll the verdict (draw clamps it)
    if (key.is('j') || key.code == KeyCode::Down) m_scroll += 1;
    if (key.code == KeyCode::PageDown) m_scroll += page_rows;
    if (key.is('k') || key.code == KeyCode::Up) m_scroll = m_scroll > 0 ? m_scroll - 1 : 0;
    if (key.code == KeyCode::PageUp) m_scroll = m_scroll > page_rows ? m_scroll - page_rows : 0;
    draw();
    return After::Stay;
  }
  if (key.code != KeyCode::Char) return After::Stay;
  m_message.clear();
  switch (key.ch) {
    case 'r': check(); break;
    case 'n': next(); break;
    case 'h': hint(); break;
    case 'x': reset(); break;
    case 'l': list(); break;
    case 'c': check_all(); break;
    case 'v':
      if (auto shown = show_lesson(m_course.root, m_entry->lesson, true); !shown) m_message = shown.error();
      break;
    case 's': {
      auto lines = solution_lines(m_course, *m_entry, static_cast<size_t>(screen_size().cols), m_style.color());
      if (lines) {
        page(*lines, "solution of " + m_entry->id);
      } else {
        m_message = "Not yet: the solution opens once your kernel passes (s after PASSED). Stuck? h gives a hint.";
      }
      break;
    }
    default:
      m_message = "Keys: n next, h hint, l list, c check all, v lesson, r re-check, s solution, x reset, q quit; j/k scroll the verdict.";
      break;
  }
  draw();
  return After::Stay;
}

int WatchSession::run(const grade::CourseEntry& start) {
  RawMode raw;
  open(start);
  draw();
  ScreenSize size = screen_size();
  auto last_tick = WatchClock::now();
  for (;;) {
    const auto now = WatchClock::now();
    int timeout = m_watcher ? m_watcher->timeout_ms(now) : -1;
    if (m_screen_is_terminal) timeout = timeout < 0 ? 500 : std::min(timeout, 500);  // notice a resized window
    if (m_running.running() || m_all.running()) timeout = timeout < 0 ? 1000 : std::min(timeout, 1000);  // the seconds counter
    pollfd fds[4] = {{STDIN_FILENO, POLLIN, 0},
                     {m_watcher ? m_watcher->fd() : -1, POLLIN, 0},
                     {m_running.fd(), POLLIN, 0},
                     {m_all.fd(), POLLIN, 0}};
    ::poll(fds, 4, timeout);
    const auto woke = WatchClock::now();
    if (m_all.running() && (fds[3].revents & (POLLIN | POLLHUP))) {
      if (auto result = m_all.poll_text()) {
        finish_check_all(*result);
        draw();
      }
    }
    settle_check(fds[2].revents & (POLLIN | POLLHUP));
    if (m_watcher && (fds[1].revents & POLLIN)) m_watcher->drain(woke);
    if (m_watcher && m_watcher->saved(woke) && changed_since_check()) {  // a new save restarts a check
      m_message.clear();
      check();
      draw();
    }
    if (fds[0].revents & (POLLIN | POLLHUP)) {
      const Key key = read_key(STDIN_FILENO, 0);
      if (key.code == KeyCode::EndOfInput) {  // a script's input ended: let the check under way finish
        while (m_running.running()) {
          pollfd done{m_running.fd(), POLLIN, 0};
          ::poll(&done, 1, 1000);
          settle_check(done.revents & (POLLIN | POLLHUP));
        }
        break;
      }
      if (on_key(key) == After::Quit) break;  // q or Ctrl-C: a check under way is cancelled below
    }
    if (m_screen_is_terminal && (screen_size().rows != size.rows || screen_size().cols != size.cols)) {
      size = screen_size();
      draw();
    } else if (m_screen_is_terminal && (m_running.running() || m_all.running()) &&
               woke - last_tick >= std::chrono::seconds(1)) {
      last_tick = woke;
      draw();
    }
  }
  m_running.cancel();
  m_all.cancel();
  write_now(fmt::format("\nProgress saved. Run {} to carry on with {}.\n", tilecamp_command(), m_entry->id));
  return k_exit_ok;
}

}  // namespace

int run_watch(LearnerCourse& course, const grade::CourseEntry& start, const WatchOptions& options) {
  WatchSession session(course, options);
  return session.run(start);
}

}  // namespace tilecamp::runner
