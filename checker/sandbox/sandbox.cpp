#include "checker/sandbox/sandbox.h"

#include <signal.h>
#include <sys/wait.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>

#include "checker/child/launch_wire.h"
#include "checker/emu/emulator.h"
#include "checker/sandbox/sandbox_worker.h"
#include "checker/sandbox/tile_footprint_wire.h"
#include "checker/sandbox/worst_access_wire.h"

namespace tilecamp::sandbox {
namespace {

using child::MessageReader;
using child::MessageWriter;

// What the child's environment keeps of this one: where NVRTC and the toolkit's headers are.
std::vector<std::string> child_environment() {
  std::vector<std::string> environment;
  for (const char* name : {"LD_LIBRARY_PATH", "TILECAMP_CUDA_INCLUDE"}) {
    if (const char* value = std::getenv(name); value != nullptr) environment.push_back(std::string(name) + "=" + value);
  }
  return environment;
}

child::WorkerCommand worker_command(const SandboxOptions& options) {
  child::WorkerCommand command;
  command.name = "sandbox";
  command.argv = {options.program, k_sandbox_argument, "--memory", std::to_string(options.limits.memory_bytes), "--seconds",
                  std::to_string(options.limits.seconds)};
  if (!options.confine) command.argv.push_back("--unconfined");
  command.environment = child_environment();
  command.keep_output = false;
  command.working_directory = k_sandbox_working_directory;
  return command;
}

std::string seconds_text(double seconds) {
  return seconds == std::floor(seconds) ? std::to_string(static_cast<long long>(seconds)) : std::to_string(seconds);
}

// A reply's size limit: what was sent plus room for the counters, lines and messages.
uint64_t reply_limit(uint64_t request_bytes) { return request_bytes + (uint64_t{256} << 20); }

class SandboxedCompiler : public Compiler {
 public:
  explicit SandboxedCompiler(std::shared_ptr<Sandbox> sandbox) : m_sandbox(std::move(sandbox)) {}

  Expected<CompileResult> compile(const SourceFile& source, const CompileOptions& options) override {
    MessageWriter request;
    request.u32(static_cast<uint32_t>(Request::Compile));
    child::write_compile_request(request, source, options);
    Sandbox::CallResult called = m_sandbox->call(request.data(), "compiling " + source.path, reply_limit(request.data().size()));
    if (called.finding) {
      CompileResult result;  // the learner's finding, as a compile error that names the limit
      CompileDiagnostic diagnostic;
      diagnostic.file = source.path;
      diagnostic.severity = "error";
      diagnostic.kind = called.finding->kind;
      diagnostic.message = called.finding->message;
      result.log = source.path + ": error: " + diagnostic.message + "\n";
      result.diagnostics.push_back(std::move(diagnostic));
      return result;
    }
    if (!called.reply) return make_error(called.error);
    return child::read_compile_result(*called.reply);
  }

 private:
  std::shared_ptr<Sandbox> m_sandbox;
};

class SandboxedEmulator : public Backend {
 public:
  explicit SandboxedEmulator(std::shared_ptr<Sandbox> sandbox) : m_sandbox(std::move(sandbox)), m_slot(m_sandbox->next_slot()) {}

  std::string name() const override { return "emulator"; }
  const ptx::Module& module() const override { return m_module; }
  std::unique_ptr<Backend> another() const override { return m_sandbox->emulator(); }

  Status load(const std::string& ptx) override {
    m_ptx = ptx;
    m_loaded_generation = 0;
    return send_load();
  }

  Expected<LaunchOutcome> launch(const LaunchRequest& request) override {
    if (m_ptx.empty()) return make_error("no PTX module is loaded");
    if (m_loaded_generation != m_sandbox->generation()) TC_TRY(send_load());
    auto* finder = dynamic_cast<viz::WorstAccessFinder*>(request.config.observer);
    auto* footprint = dynamic_cast<viz::TileFootprint*>(request.config.observer);
    if (request.config.observer != nullptr && finder == nullptr && footprint == nullptr) {
      return make_error("this observer cannot watch a kernel in the sandbox");
    }
    MessageWriter message;
    message.u32(static_cast<uint32_t>(Request::Launch)).u32(m_slot);
    child::write_launch_request(message, request, m_sandbox->launch_time_limit_ms());
    const Observe observe = finder != nullptr ? Observe::WorstAccesses : footprint != nullptr ? Observe::TileFootprint : Observe::Nothing;
    message.u32(static_cast<uint32_t>(observe));
    if (footprint != nullptr) write_footprint_target(message, footprint->target());
    Sandbox::CallResult called = m_sandbox->call(message.data(), "running the kernel", reply_limit(message.data().size()));
    if (called.finding) return stopped_launch(request, *called.finding);
    if (!called.reply) return make_error(called.error);
    MessageReader& reply = *called.reply;
    LaunchOutcome outcome;
    TC_TRY_ASSIGN(uint32_t buffers, reply.u32());
    if (buffers != request.buffers.size()) return make_error("the sandbox returned " + std::to_string(buffers) + " buffers");
    for (uint32_t i = 0; i < buffers; ++i) {
      TC_TRY_ASSIGN(std::vector<uint8_t> bytes, reply.bytes());
      if (bytes.size() != request.buffers[i].bytes.size()) return make_error("the sandbox returned a buffer of another size");
      outcome.buffers.push_back(std::move(bytes));
    }
    TC_TRY_ASSIGN(outcome.profile, child::read_launch_result(reply));
    for (Diagnostic& diagnostic : outcome.profile.diagnostics) {
      if (diagnostic.kind == "time-limit") diagnostic.message += m_sandbox->option_hint("--time-limit");
    }
    TC_TRY_ASSIGN(WorstAccessLines lines, read_worst_accesses(reply));
    if (finder != nullptr) finder->adopt(std::move(lines));
    if (footprint != nullptr) {
      TC_TRY_ASSIGN(viz::Footprint recorded, read_footprint(reply));
      if (!(recorded.target == footprint->target())) {
        return make_error("malformed message: a footprint of another thread");
      }
      footprint->adopt(std::move(recorded));
    }
    return outcome;
  }

 private:
  Status send_load() {
    MessageWriter request;
    request.u32(static_cast<uint32_t>(Request::Load)).u32(m_slot).text(m_ptx);
    Sandbox::CallResult called = m_sandbox->call(request.data(), "reading the kernel's PTX", reply_limit(request.data().size()));
    if (called.finding) return make_error(called.finding->message);
    if (!called.reply) return make_error(called.error);
    TC_TRY_ASSIGN(m_module, child::read_module_outline(*called.reply));
    m_loaded_generation = m_sandbox->generation();
    return ok();
  }

  // A launch the limits stopped, as an error diagnostic of it: the grader reports it as a failed
  // safety check, like the emulator's own findings.
  static LaunchOutcome stopped_launch(const LaunchRequest& request, const LimitFinding& finding) {
    LaunchOutcome outcome;
    for (const BufferData& buffer : request.buffers) outcome.buffers.push_back(buffer.bytes);
    outcome.profile.diagnostics.push_back({Severity::Error, finding.kind, "", 0, finding.message});
    outcome.profile.completed = false;
    return outcome;
  }

  std::shared_ptr<Sandbox> m_sandbox;
  uint32_t m_slot;
  std::string m_ptx;
  uint64_t m_loaded_generation = 0;
  ptx::Module m_module;
};

}  // namespace

Sandbox::Sandbox(SandboxOptions options)
    : m_options(std::move(options)), m_worker(worker_command(m_options)), m_deadline(std::chrono::steady_clock::now()) {
  start_check();
}

std::shared_ptr<Sandbox> Sandbox::create(SandboxOptions options) {
  return std::shared_ptr<Sandbox>(new Sandbox(std::move(options)));
}

void Sandbox::start_check() {
  m_worker.stop();
  m_deadline = std::chrono::steady_clock::now() +
               std::chrono::milliseconds(static_cast<int64_t>(m_options.limits.seconds * 1e3));
}

std::unique_ptr<Compiler> Sandbox::compiler() { return std::make_unique<SandboxedCompiler>(shared_from_this()); }

std::unique_ptr<Backend> Sandbox::emulator() { return std::make_unique<SandboxedEmulator>(shared_from_this()); }

Sandbox::CallResult Sandbox::call(const std::string& request, const std::string& doing, uint64_t max_reply_bytes) {
  CallResult result;
  const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(m_deadline - std::chrono::steady_clock::now());
  if (left.count() <= 0) {
    m_worker.stop();
    result.finding = finding_after(doing);
    result.finding->kind = "time-limit";
    result.finding->message = "the check ran out of its " + seconds_text(m_options.limits.seconds) + " s before " + doing +
                              option_hint("--time-limit");
    return result;
  }
  auto reply = m_worker.call(request, left.count(), max_reply_bytes);
  if (!reply) {
    const child::WorkerEnd& end = m_worker.last_end();
    if (WIFEXITED(end.status) && WEXITSTATUS(end.status) == 127) {
      result.error = "cannot start the sandbox (" + m_options.program + " " + k_sandbox_argument + ")";
    } else if (end.timed_out || end.status != 0) {
      result.finding = finding_after(doing);
    } else {
      result.error = reply.error();
    }
    return result;
  }
  auto status = reply->u32();
  if (!status) {
    result.error = "the sandbox's reply is malformed: " + status.error();
  } else if (*status == static_cast<uint32_t>(Reply::Ok)) {
    result.reply = std::move(*reply);
  } else {
    auto why = reply->text();
    const std::string text = why ? *why : "(no message)";
    result.error = *status == static_cast<uint32_t>(Reply::Unconfined) ? "the sandbox could not confine itself: " + text : text;
  }
  return result;
}

uint32_t Sandbox::launch_time_limit_ms() const {
  const int64_t left =
      std::chrono::duration_cast<std::chrono::milliseconds>(m_deadline - std::chrono::steady_clock::now()).count();
  // The emulator stops itself a little before the child is killed, to say where the time went; the
  // margin covers sending back what it has.
  const int64_t limit = left - std::min<int64_t>(1000, left / 5);
  return static_cast<uint32_t>(std::clamp<int64_t>(limit, 1, UINT32_MAX));
}

std::string Sandbox::option_hint(const std::string& option) const {
  return m_options.name_options ? " (change the limit with " + option + ")" : "";
}

LimitFinding Sandbox::finding_after(const std::string& doing) const {
  const child::WorkerEnd& end = m_worker.last_end();
  const int signal = WIFSIGNALED(end.status) ? WTERMSIG(end.status) : 0;
  const double cpu_limit = std::ceil(m_options.limits.seconds) * emu::default_host_threads() + 2;  // as confine.cpp
  if (end.timed_out || signal == SIGXCPU || (signal == SIGKILL && end.cpu_seconds >= cpu_limit)) {
    return {"time-limit", doing + " took longer than the " + seconds_text(m_options.limits.seconds) +
                              " s a check may take, and was stopped: a loop that never ends, or far too much work?" +
                              option_hint("--time-limit")};
  }
  if (WIFEXITED(end.status) && WEXITSTATUS(end.status) == k_exit_out_of_memory) {
    return {"memory-limit", doing + " needed more than the " + std::to_string(m_options.limits.memory_bytes >> 20) +
                                " MiB of memory a check may use, and was stopped" + option_hint("--memory-limit")};
  }
  if (signal == SIGSYS) {
    return {"sandbox", doing + " made a system call the sandbox forbids, and was stopped"};
  }
  return {"crash", doing + ": tilecamp's compiler or emulator " + end.describe() +
                       " on this kernel (a bug of tilecamp's: please report it with the kernel)"};
}

}  // namespace tilecamp::sandbox
