#include "checker/gpu/gpu_backend.h"

#include <dlfcn.h>

#include <algorithm>

#include "checker/child/launch_wire.h"
#include "checker/gpu/worker.h"
#include "checker/ptx/parser.h"

namespace tilecamp::gpu {

using child::MessageReader;
using child::MessageWriter;

struct GpuBackend::Session {
  explicit Session(const GpuOptions& given) : worker("GPU worker", given.worker_command), options(given) {}
  child::WorkerProcess worker;
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
  const auto& read_outline = m_session->options.read_outline;
  auto module = read_outline ? read_outline(ptx) : ptx::parse_module(ptx);
  if (!module) return make_error("cannot read the PTX: " + module.error());
  m_module = std::make_unique<ptx::Module>(std::move(*module));
  m_ptx = ptx;
  return send_load();
}

namespace {

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
  message.u32(static_cast<uint32_t>(Request::Launch)).u32(m_slot);
  write_launch_request(message, request, request.config.time_limit_ms);
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
