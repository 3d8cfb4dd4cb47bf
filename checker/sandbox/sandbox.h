// The parent's side of the sandbox (sandbox_worker.h): a Compiler and emulator Backends whose
// every compile and launch happens in one confined child process, under the check's limits.
//
// A check starts a fresh child (start_check) and shares one wall-clock budget across all its
// calls. What the limits stop becomes a finding against the kernel, never an error of tilecamp's:
//   time-limit    the check ran past its time (the child is killed at the deadline);
//   memory-limit  an allocation failed under the memory limit;
//   crash         the compiler or the emulator died on this kernel (a signal);
//   sandbox       the child made a system call the sandbox forbids.
#pragma once

#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "checker/backend/backend.h"
#include "checker/child/worker_process.h"
#include "checker/compile/compiler.h"
#include "checker/sandbox/confine.h"

namespace tilecamp::sandbox {

// The child's working folder. NVRTC writes a relative path into the PTX behind it, so the PTX
// cache's key names it (runner/ptx_cache.cpp).
inline constexpr const char* k_sandbox_working_directory = "/";

struct SandboxOptions {
  std::string program;  // the tilecamp program, started as `__sandbox`
  Limits limits;
  bool confine = true;  // false: --no-sandbox (limits and a child process still, no Landlock or seccomp)
  // Findings say which option changes the limit ("--time-limit"): for whoever runs tilecamp, not
  // for a student reading feedback on a class's grading.
  bool name_options = true;
};

// A finding the sandbox's limits made: kind and sentence, for the compiler's or a launch's result.
struct LimitFinding {
  std::string kind;
  std::string message;
};

class Sandbox : public std::enable_shared_from_this<Sandbox> {
 public:
  static std::shared_ptr<Sandbox> create(SandboxOptions options);

  // A new check: a fresh child at the next call, and `limits.seconds` from now for all of them.
  void start_check();
  const SandboxOptions& options() const { return m_options; }

  std::unique_ptr<Compiler> compiler();
  std::unique_ptr<Backend> emulator();

  // Sends a request and reads the reply's status. `reply` is set (positioned after the status)
  // when the child answered Ok; `finding` when a limit stopped the child or it died (`doing`, e.g.
  // "compiling", names what it was at); `error` otherwise: the child's own error message, or why it
  // could not start or confine itself.
  struct CallResult {
    std::optional<child::MessageReader> reply;
    std::optional<LimitFinding> finding;
    std::string error;
  };
  CallResult call(const std::string& request, const std::string& doing, uint64_t max_reply_bytes);

  // For slots: each emulator backend has its own module in the child.
  uint32_t next_slot() { return m_next_slot++; }
  uint64_t generation() const { return m_worker.generation(); }
  // What a launch may run, in milliseconds: the check's time left, less a margin to report in.
  uint32_t launch_time_limit_ms() const;
  std::string option_hint(const std::string& option) const;  // " (change the limit with OPTION)" or ""

 private:
  explicit Sandbox(SandboxOptions options);
  LimitFinding finding_after(const std::string& doing) const;

  SandboxOptions m_options;
  child::WorkerProcess m_worker;
  std::chrono::steady_clock::time_point m_deadline;
  uint32_t m_next_slot = 0;
};

}  // namespace tilecamp::sandbox
