// A check that runs beside the watch screen, in a child process of its own, so that the screen
// keeps answering keys and saves while a kernel is being graded: a new save or `q` cancels it
// (the child and everything it started are killed), and a check that outlives its budget is
// stopped the same way.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <functional>
#include <optional>
#include <string>

#include "checker/grade/verdict.h"

namespace tilecamp::runner {

class BackgroundCheck {
 public:
  using Clock = std::chrono::steady_clock;

  BackgroundCheck() = default;
  BackgroundCheck(const BackgroundCheck&) = delete;
  BackgroundCheck& operator=(const BackgroundCheck&) = delete;
  ~BackgroundCheck() { cancel(); }

  // Starts `work` in a forked child (its own process group) that sends the verdict back through
  // a pipe. Cancels a check still running. False, with `error`, when no child could start.
  bool start(const std::function<grade::Verdict()>& work, std::string& error);
  // The same for any work whose result is text (e.g. JSON); poll_text() gives it back.
  bool start_text(const std::function<std::string()>& work, std::string& error);
  bool running() const { return m_pid > 0; }
  int fd() const { return m_fd; }  // readable while the verdict arrives, then at its end
  double seconds() const { return std::chrono::duration<double>(Clock::now() - m_started).count(); }

  // Reads what the pipe holds; the verdict once the child is done, else nothing yet.
  std::optional<grade::Verdict> poll_result();
  // For start_text(): the text once the child is done (empty when it ended without one).
  std::optional<std::string> poll_text();
  // Kills the child and its process group and forgets the check.
  void cancel();

 private:
  pid_t m_pid = -1;
  int m_fd = -1;
  std::string m_received;
  int m_status = 0;  // the child's wait status, once done
  bool read_to_end();  // false while more is to come
  Clock::time_point m_started;
};

}  // namespace tilecamp::runner
