#include "checker/child/worker_process.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>

namespace tilecamp::child {
namespace {

constexpr int k_worker_in_fd = 3, k_worker_out_fd = 4;

double cpu_seconds(const rusage& usage) {
  return static_cast<double>(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) +
         static_cast<double>(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6;
}

// The child, between fork and exec: only async-signal-safe calls. It dies with this process, its
// pipes become descriptors 3 and 4, and no other descriptor of this process survives the exec.
[[noreturn]] void exec_worker(char* const* argv, char* const* environment, const char* output, const char* directory,
                              int in, int out, pid_t parent) {
  ::prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (::getppid() != parent) ::_exit(127);
  const int null_in = ::open("/dev/null", O_RDONLY);
  if (null_in >= 0) ::dup2(null_in, 0);
  const int log = ::open(output, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  if (log >= 0) {
    ::dup2(log, 1);
    ::dup2(log, 2);
  }
  // Move both ends out of the way first: a pipe end may already be 3 or 4, and dup2 onto itself
  // would keep its close-on-exec flag.
  const int moved_in = ::fcntl(in, F_DUPFD, 10);
  const int moved_out = ::fcntl(out, F_DUPFD, 10);
  ::dup2(moved_in, k_worker_in_fd);
  ::dup2(moved_out, k_worker_out_fd);
  ::syscall(SYS_close_range, k_worker_out_fd + 1, ~0U, 0);
  if (directory[0] != '\0' && ::chdir(directory) != 0) ::_exit(127);
  if (environment != nullptr) {
    ::execve(argv[0], argv, environment);
  } else {
    ::execv(argv[0], argv);
  }
  ::_exit(127);
}

std::vector<char*> pointers(std::vector<std::string>& strings) {
  std::vector<char*> result;
  for (std::string& text : strings) result.push_back(text.data());
  result.push_back(nullptr);
  return result;
}

}  // namespace

std::string WorkerEnd::describe() const {
  if (timed_out) return "was stopped at its deadline";
  if (WIFSIGNALED(status)) {
    const int signal = WTERMSIG(status);
    return "was killed by signal " + std::to_string(signal) + " (" + strsignal(signal) + ")";
  }
  if (WIFEXITED(status)) return "exited with status " + std::to_string(WEXITSTATUS(status));
  return "ended";
}

WorkerProcess::~WorkerProcess() {
  stop();
  if (!m_output_path.empty()) ::unlink(m_output_path.c_str());
}

Status WorkerProcess::start() {
  if (m_command.argv.empty()) return make_error("no worker command");
  // A worker that dies while a request is being written would otherwise kill this process with
  // SIGPIPE; the failed write is reported instead.
  ::signal(SIGPIPE, SIG_IGN);
  int to_worker[2], from_worker[2];
  if (::pipe2(to_worker, O_CLOEXEC) != 0) return make_error(std::string("cannot create a pipe: ") + std::strerror(errno));
  if (::pipe2(from_worker, O_CLOEXEC) != 0) {
    ::close(to_worker[0]);
    ::close(to_worker[1]);
    return make_error(std::string("cannot create a pipe: ") + std::strerror(errno));
  }
  if (m_command.keep_output && m_output_path.empty()) {
    char path[] = "/tmp/tilecamp-worker-XXXXXX";
    const int fd = ::mkstemp(path);
    if (fd >= 0) {
      ::close(fd);
      m_output_path = path;
    }
  }
  std::vector<std::string> arguments = m_command.argv;
  arguments.push_back(std::to_string(k_worker_in_fd));
  arguments.push_back(std::to_string(k_worker_out_fd));
  std::vector<char*> argv = pointers(arguments);
  std::vector<std::string> environment = m_command.environment.value_or(std::vector<std::string>{});
  std::vector<char*> envp = pointers(environment);
  const char* output = m_output_path.empty() ? "/dev/null" : m_output_path.c_str();
  const pid_t parent = ::getpid();
  const pid_t pid = ::fork();
  if (pid < 0) return make_error(std::string("cannot start a worker process: ") + std::strerror(errno));
  if (pid == 0) {
    exec_worker(argv.data(), m_command.environment ? envp.data() : nullptr, output,
                m_command.working_directory.c_str(), to_worker[0], from_worker[1], parent);
  }
  ::close(to_worker[0]);
  ::close(from_worker[1]);
  m_pid = pid;
  m_to_worker = to_worker[1];
  m_from_worker = from_worker[0];
  ++m_generation;
  return ok();
}

void WorkerProcess::reap(bool kill_first) {
  if (m_to_worker >= 0) ::close(m_to_worker);
  if (m_from_worker >= 0) ::close(m_from_worker);
  m_to_worker = m_from_worker = -1;
  if (m_pid > 0) {
    if (kill_first) ::kill(m_pid, SIGKILL);
    rusage usage{};
    int status = 0;
    if (::wait4(m_pid, &status, 0, &usage) == m_pid) {
      m_last_end.status = status;
      m_last_end.cpu_seconds = cpu_seconds(usage);
    }
  }
  m_pid = -1;
}

void WorkerProcess::stop() {
  if (m_pid <= 0) return;
  ::close(m_to_worker);  // the worker's read fails and it exits; kill it if it does not
  m_to_worker = -1;
  for (int i = 0; i < 50; ++i) {
    int status = 0;
    if (::waitpid(m_pid, &status, WNOHANG) == m_pid) {
      m_pid = -1;
      reap(false);
      return;
    }
    ::usleep(10000);
  }
  reap(true);
}

std::string WorkerProcess::output() const {
  std::ifstream in(m_output_path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

Expected<MessageReader> WorkerProcess::call(const std::string& request, int64_t timeout_ms, uint64_t max_reply_bytes) {
  if (m_pid <= 0) TC_TRY(start());
  m_last_end = WorkerEnd();
  Status sent = write_frame(m_to_worker, request);
  auto reply = sent ? read_frame(m_from_worker, timeout_ms, max_reply_bytes) : Expected<std::string>(Error{sent.error()});
  if (reply) return MessageReader(std::move(*reply));
  if (reply.error().starts_with("timeout")) {
    reap(true);
    m_last_end.timed_out = true;
    return make_error("timeout");
  }
  const bool too_large = reply.error().starts_with("too large");
  reap(too_large);
  return make_error("the " + m_command.name + " " + (too_large ? "sent a reply over the size limit (" + reply.error() + ")" : m_last_end.describe()));
}

}  // namespace tilecamp::child
