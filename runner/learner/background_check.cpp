#include "runner/learner/background_check.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <utility>
#include <nlohmann/json.hpp>

#include "checker/report/verdict_record.h"

namespace tilecamp::runner {

bool BackgroundCheck::start(const std::function<grade::Verdict()>& work, std::string& error) {
  return start_text([&] { return report::verdict_record(work()).dump(); }, error);
}

bool BackgroundCheck::start_text(const std::function<std::string()>& work, std::string& error) {
  cancel();
  int pipe_fds[2];
  if (::pipe2(pipe_fds, O_CLOEXEC) != 0) {
    error = std::string("cannot start the check: pipe: ") + std::strerror(errno);
    return false;
  }
  const pid_t pid = ::fork();
  if (pid < 0) {
    error = std::string("cannot start the check: fork: ") + std::strerror(errno);
    ::close(pipe_fds[0]);
    ::close(pipe_fds[1]);
    return false;
  }
  if (pid == 0) {  // the child: grade, send the verdict, and leave without touching the terminal
    ::setpgid(0, 0);
    ::close(pipe_fds[0]);
    const int null = ::open("/dev/null", O_RDWR);
    if (null >= 0) {
      ::dup2(null, STDIN_FILENO);
      ::dup2(null, STDOUT_FILENO);
      ::dup2(null, STDERR_FILENO);
    }
    std::string text;
    try {
      text = work();
    } catch (...) {
      ::_exit(3);
    }
    for (size_t at = 0; at < text.size();) {
      const ssize_t written = ::write(pipe_fds[1], text.data() + at, text.size() - at);
      if (written < 0 && errno == EINTR) continue;
      if (written <= 0) ::_exit(4);
      at += static_cast<size_t>(written);
    }
    ::_exit(0);
  }
  ::setpgid(pid, pid);  // also here, so that a cancel right away finds the group
  ::close(pipe_fds[1]);
  ::fcntl(pipe_fds[0], F_SETFL, ::fcntl(pipe_fds[0], F_GETFL) | O_NONBLOCK);
  m_pid = pid;
  m_fd = pipe_fds[0];
  m_received.clear();
  m_started = Clock::now();
  return true;
}

bool BackgroundCheck::read_to_end() {
  char buffer[65536];
  for (;;) {
    const ssize_t got = ::read(m_fd, buffer, sizeof buffer);
    if (got > 0) {
      m_received.append(buffer, static_cast<size_t>(got));
      continue;
    }
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) return false;  // EAGAIN: more to come
    break;                      // end of the pipe: the child is done
  }
  ::waitpid(m_pid, &m_status, 0);
  ::kill(-m_pid, SIGKILL);  // anything the work started and left behind
  ::close(m_fd);
  m_pid = -1;
  m_fd = -1;
  return true;
}

std::optional<std::string> BackgroundCheck::poll_text() {
  if (m_pid <= 0 || !read_to_end()) return std::nullopt;
  return std::exchange(m_received, std::string());
}

std::optional<grade::Verdict> BackgroundCheck::poll_result() {
  if (m_pid <= 0 || !read_to_end()) return std::nullopt;
  const std::string received = std::exchange(m_received, std::string());
  const nlohmann::json json = nlohmann::json::parse(received, nullptr, false);
  if (!json.is_discarded()) {
    if (auto read = report::read_verdict_record(json)) return *read;
  }
  grade::Verdict verdict;
  verdict.status = grade::VerdictStatus::Error;
  verdict.error = WIFSIGNALED(m_status) ? std::string("the check stopped on signal ") + ::strsignal(WTERMSIG(m_status))
                                        : "the check ended without a verdict (exit status " +
                                              std::to_string(WIFEXITED(m_status) ? WEXITSTATUS(m_status) : -1) + ")";
  return verdict;
}

void BackgroundCheck::cancel() {
  if (m_pid <= 0) return;
  ::kill(-m_pid, SIGKILL);
  ::kill(m_pid, SIGKILL);
  ::waitpid(m_pid, nullptr, 0);
  ::close(m_fd);
  m_pid = -1;
  m_fd = -1;
  m_received.clear();
}

}  // namespace tilecamp::runner
