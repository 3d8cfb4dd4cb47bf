// A child process that answers requests in frames (wire.h) on two pipes: the GPU backend's worker
// and the sandbox that compiles and emulates a learner's kernel both are one. The parent owns the
// pipes: a request that gets no answer in time kills the child, a child that dies is noticed, and
// the next request starts a fresh one.
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "checker/child/wire.h"

namespace tilecamp::child {

struct WorkerCommand {
  std::string name = "worker";  // how errors name it: "the GPU worker exited with status 3"
  // Run with two more arguments: the child's read and write descriptors (3 and 4).
  std::vector<std::string> argv;
  // The child's whole environment ("NAME=VALUE"); nullopt: this process's own.
  std::optional<std::vector<std::string>> environment;
  // Where the child's stdout and stderr go: a fresh temporary file that output() reads back, or
  // /dev/null.
  bool keep_output = true;
  // The child's working folder; empty: this process's own.
  std::string working_directory;
};

// How the last child ended, when it did not answer.
struct WorkerEnd {
  bool timed_out = false;  // killed by this process at the deadline
  int status = 0;          // waitpid's status
  double cpu_seconds = 0;  // the CPU time it used
  std::string describe() const;  // "was killed by signal 11 (Segmentation fault)", "exited with status 3"
};

class WorkerProcess {
 public:
  explicit WorkerProcess(WorkerCommand command) : m_command(std::move(command)) {}
  WorkerProcess(std::string name, std::vector<std::string> argv) : m_command{std::move(name), std::move(argv), std::nullopt, true, ""} {}
  ~WorkerProcess();
  WorkerProcess(const WorkerProcess&) = delete;
  WorkerProcess& operator=(const WorkerProcess&) = delete;

  // Sends a request and waits at most `timeout_ms` for the reply (at most `max_reply_bytes` of
  // it), starting the child first if none is running. Errors: "timeout" (the child was killed),
  // "the NAME ended ..." (it crashed or exited; last_end() says how), or a failure to start it.
  Expected<MessageReader> call(const std::string& request, int64_t timeout_ms,
                               uint64_t max_reply_bytes = k_default_max_frame);
  bool running() const { return m_pid > 0; }
  // Bumped each time a child starts: state loaded into an earlier one is gone.
  uint64_t generation() const { return m_generation; }
  const WorkerEnd& last_end() const { return m_last_end; }
  // What the child printed (stdout and stderr), e.g. compute-sanitizer's report.
  std::string output() const;
  void stop();

 private:
  Status start();
  void reap(bool kill_first);

  WorkerCommand m_command;
  pid_t m_pid = -1;
  int m_to_worker = -1, m_from_worker = -1;
  std::string m_output_path;
  uint64_t m_generation = 0;
  WorkerEnd m_last_end;
};

}  // namespace tilecamp::child
