#include "checker/gpu/gpu_backend.h"

#include <dlfcn.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>

#include "checker/gpu/worker.h"
#include "checker/ptx/parser.h"

namespace tilecamp::gpu {
namespace {

constexpr int k_worker_in_fd = 3, k_worker_out_fd = 4;

std::string exit_text(int status) {
  if (WIFSIGNALED(status)) {
    const int signal = WTERMSIG(status);
    return "was killed by signal " + std::to_string(signal) + " (" + strsignal(signal) + ")";
  }
  if (WIFEXITED(status)) return "exited with status " + std::to_string(WEXITSTATUS(status));
  return "ended";
}

}  // namespace

WorkerProcess::~WorkerProcess() {
  stop();
  if (!m_output_path.empty()) ::unlink(m_output_path.c_str());
}

Status WorkerProcess::start() {
  if (m_command.empty()) return make_error("no GPU worker command");
  // A worker that dies while a request is being written would otherwise kill this process with
  // SIGPIPE; the failed write is reported instead.
  ::signal(SIGPIPE, SIG_IGN);
  int to_worker[2], from_worker[2];
  if (::pipe2(to_worker, O_CLOEXEC) != 0 || ::pipe2(from_worker, O_CLOEXEC) != 0) {
    return make_error(std::string("cannot create pipes for the GPU worker: ") + std::strerror(errno));
  }
  if (m_output_path.empty()) {
    char path[] = "/tmp/tilecamp-gpu-worker-XXXXXX";
    const int fd = ::mkstemp(path);
    if (fd >= 0) {
      ::close(fd);
      m_output_path = path;
    }
  }
  std::vector<std::string> arguments = m_command;
  arguments.push_back(std::to_string(k_worker_in_fd));
  arguments.push_back(std::to_string(k_worker_out_fd));
  std::vector<char*> argv;
  for (std::string& argument : arguments) argv.push_back(argument.data());
  argv.push_back(nullptr);
  const char* output = m_output_path.empty() ? "/dev/null" : m_output_path.c_str();
  const pid_t pid = ::fork();
  if (pid < 0) return make_error(std::string("cannot start the GPU worker: ") + std::strerror(errno));
  if (pid == 0) {  // the child: only async-signal-safe calls until exec
    const int log = ::open(output, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    if (log >= 0) {
      ::dup2(log, 1);
      ::dup2(log, 2);
    }
    // Move both ends out of the way first: a pipe end may already be 3 or 4, and dup2 onto
    // itself would keep its close-on-exec flag.
    const int in = ::fcntl(to_worker[0], F_DUPFD, 10);
    const int out = ::fcntl(from_worker[1], F_DUPFD, 10);
    ::dup2(in, k_worker_in_fd);
    ::dup2(out, k_worker_out_fd);
    ::execv(argv[0], argv.data());
    ::_exit(127);
  }
  ::close(to_worker[0]);
  ::close(from_worker[1]);
  m_pid = pid;
  m_to_worker = to_worker[1];
  m_from_worker = from_worker[0];
  ++m_generation;
  return ok();
}

std::string WorkerProcess::reap(bool kill_first) {
  if (m_to_worker >= 0) ::close(m_to_worker);
  if (m_from_worker >= 0) ::close(m_from_worker);
  m_to_worker = m_from_worker = -1;
  std::string how;
  if (m_pid > 0) {
    if (kill_first) ::kill(m_pid, SIGKILL);
    int status = 0;
    if (::waitpid(m_pid, &status, 0) == m_pid) how = exit_text(status);
  }
  m_pid = -1;
  return how;
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

Expected<MessageReader> WorkerProcess::call(const std::string& request, int64_t timeout_ms) {
  if (m_pid <= 0) TC_TRY(start());
  Status sent = write_frame(m_to_worker, request);
  auto reply = sent ? read_frame(m_from_worker, timeout_ms) : Expected<std::string>(Error{sent.error()});
  if (reply) return MessageReader(std::move(*reply));
  if (reply.error().starts_with("timeout")) {
    reap(true);
    return make_error("timeout");
  }
  const std::string how = reap(false);
  return make_error("the GPU worker " + (how.empty() ? std::string("ended") : how));
}

// ---------------------------------------------------------------------------------------------

struct GpuBackend::Session {
  explicit Session(const GpuOptions& given) : worker(given.worker_command), options(given) {}
  WorkerProcess worker;
  GpuOptions options;
  GpuInfo info;
  uint32_t next_slot = 0;
};

std::string driver_unavailable_reason() {
  void* library = dlopen("libcuda.so.1", RTLD_LAZY | RTLD_LOCAL);
  if (library == nullptr) return "no CUDA driver: libcuda.so.1 was not found";
  dlclose(library);
  return "";
}

Expected<std::unique_ptr<GpuBackend>> GpuBackend::open(const GpuOptions& options) {
  if (std::string why = driver_unavailable_reason(); !why.empty()) return make_error(why);
  auto session = std::make_shared<Session>(options);
  MessageWriter request;
  request.u32(static_cast<uint32_t>(Request::Info));
  // The first call initialises CUDA and measures the copy bandwidth: allow it a generous time.
  auto reply = session->worker.call(request.data(), static_cast<int64_t>(std::max(options.timeout_s, 30.0) * 1e3));
  if (!reply) return make_error("cannot start the GPU worker: " + reply.error());
  TC_TRY_ASSIGN(uint32_t status, reply->u32());
  if (status != static_cast<uint32_t>(Reply::Ok)) {
    TC_TRY_ASSIGN(std::string why, reply->text());
    return make_error(why);
  }
  GpuInfo& info = session->info;
  TC_TRY_ASSIGN(info.name, reply->text());
  TC_TRY_ASSIGN(uint32_t major, reply->u32());
  TC_TRY_ASSIGN(uint32_t minor, reply->u32());
  TC_TRY_ASSIGN(uint32_t sms, reply->u32());
  TC_TRY_ASSIGN(info.l2_bytes, reply->u64());
  TC_TRY_ASSIGN(info.copy_gbps, reply->f64());
  info.major = static_cast<int>(major);
  info.minor = static_cast<int>(minor);
  info.sms = static_cast<int>(sms);
  const uint32_t slot = session->next_slot++;
  return std::unique_ptr<GpuBackend>(new GpuBackend(std::move(session), slot));
}

const GpuInfo& GpuBackend::info() const { return m_session->info; }

std::string GpuBackend::finish_worker() {
  m_session->worker.stop();
  return m_session->worker.output();
}

std::string GpuBackend::arch() const {
  // The emulator's PTX (compute_90) runs on every newer GPU; older ones get their own.
  const int version = info().major * 10 + info().minor;
  return version >= 90 ? "compute_90" : "compute_" + std::to_string(version);
}

std::unique_ptr<Backend> GpuBackend::another() const {
  return std::unique_ptr<Backend>(new GpuBackend(m_session, m_session->next_slot++));
}

Status GpuBackend::send_load() {
  MessageWriter request;
  request.u32(static_cast<uint32_t>(Request::Load)).u32(m_slot).text(m_ptx);
  auto reply = m_session->worker.call(request.data(), static_cast<int64_t>(m_session->options.timeout_s * 1e3));
  if (!reply) return make_error("the GPU worker could not load the PTX: " + reply.error());
  TC_TRY_ASSIGN(uint32_t status, reply->u32());
  if (status != static_cast<uint32_t>(Reply::Ok)) {
    TC_TRY_ASSIGN(std::string why, reply->text());
    return make_error(why);
  }
  m_loaded_generation = m_session->worker.generation();
  return ok();
}

Status GpuBackend::load(const std::string& ptx) {
  auto module = ptx::parse_module(ptx);
  if (!module) return make_error("cannot read the PTX: " + module.error());
  m_module = std::make_unique<ptx::Module>(std::move(*module));
  m_ptx = ptx;
  return send_load();
}

namespace {

void write_launch(MessageWriter& out, uint32_t slot, const LaunchRequest& request) {
  out.u32(static_cast<uint32_t>(Request::Launch)).u32(slot).text(request.kernel);
  const emu::Dim3& grid = request.config.grid;
  const emu::Dim3& block = request.config.block;
  out.u32(grid.x).u32(grid.y).u32(grid.z).u32(block.x).u32(block.y).u32(block.z).u32(request.config.dynamic_shared_bytes);
  out.u32(static_cast<uint32_t>(request.buffers.size()));
  for (const BufferData& buffer : request.buffers) out.u32(static_cast<uint32_t>(buffer.role)).bytes(buffer.bytes);
  out.u32(static_cast<uint32_t>(request.arguments.size()));
  for (const KernelArgument& argument : request.arguments) {
    out.u64(static_cast<uint64_t>(static_cast<int64_t>(argument.buffer))).bytes(argument.scalar);
  }
  out.u32(static_cast<uint32_t>(request.variables.size()));
  for (const VariableFill& variable : request.variables) out.text(variable.name).bytes(variable.bytes);
  const TimingRequest& timing = request.timing;
  out.u32(timing.enabled ? 1 : 0).u32(static_cast<uint32_t>(timing.warmups)).u32(static_cast<uint32_t>(timing.min_repetitions))
      .u32(static_cast<uint32_t>(timing.max_repetitions)).f64(timing.max_seconds);
}

// A launch the GPU could not finish, as an error diagnostic: the grader reports it as a failed
// safety check, like the emulator's findings.
LaunchOutcome failed_launch(const LaunchRequest& request, const std::string& kind, const std::string& message) {
  LaunchOutcome outcome;
  for (const BufferData& buffer : request.buffers) outcome.buffers.push_back(buffer.bytes);
  Diagnostic diagnostic;
  diagnostic.severity = Severity::Error;
  diagnostic.kind = kind;
  diagnostic.message = message;
  outcome.profile.diagnostics.push_back(diagnostic);
  outcome.profile.completed = false;
  return outcome;
}

}  // namespace

Expected<LaunchOutcome> GpuBackend::launch(const LaunchRequest& request) {
  if (!m_module) return make_error("no PTX module is loaded");
  if (m_loaded_generation != m_session->worker.generation() || !m_session->worker.running()) TC_TRY(send_load());
  MessageWriter message;
  write_launch(message, m_slot, request);
  const double timeout_s = m_session->options.timeout_s;
  auto reply = m_session->worker.call(message.data(), static_cast<int64_t>(timeout_s * 1e3));
  if (!reply) {
    if (reply.error() == "timeout") {
      return failed_launch(request, "gpu-timeout",
                           "the kernel did not finish within " + std::to_string(static_cast<int>(timeout_s)) +
                               " s on the GPU: a deadlock or an infinite loop?");
    }
    return failed_launch(request, "gpu-fault", "the kernel crashed the GPU worker: " + reply.error());
  }
  TC_TRY_ASSIGN(uint32_t status, reply->u32());
  if (status != static_cast<uint32_t>(Reply::Ok)) {
    TC_TRY_ASSIGN(std::string why, reply->text());
    if (status == static_cast<uint32_t>(Reply::Fatal)) {
      m_session->worker.stop();  // it exits by itself; make sure, and start afresh next time
      return failed_launch(request, "gpu-fault", why);
    }
    return make_error(why);
  }
  LaunchOutcome outcome;
  TC_TRY_ASSIGN(uint32_t buffers, reply->u32());
  for (uint32_t i = 0; i < buffers; ++i) {
    TC_TRY_ASSIGN(std::vector<uint8_t> bytes, reply->bytes());
    outcome.buffers.push_back(std::move(bytes));
  }
  TC_TRY_ASSIGN(uint32_t timed, reply->u32());
  if (timed) {
    KernelTiming timing;
    TC_TRY_ASSIGN(timing.median_ms, reply->f64());
    TC_TRY_ASSIGN(timing.min_ms, reply->f64());
    TC_TRY_ASSIGN(timing.max_ms, reply->f64());
    TC_TRY_ASSIGN(uint32_t repetitions, reply->u32());
    timing.repetitions = static_cast<int>(repetitions);
    outcome.timing = timing;
  }
  outcome.profile.completed = true;
  return outcome;
}

}  // namespace tilecamp::gpu
