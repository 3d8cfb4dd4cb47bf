// The Backend that runs kernels on a real NVIDIA GPU. Every CUDA call happens in a worker child
// process (worker.h) that this backend starts and talks to over two pipes it owns: a kernel that
// hangs is killed when its time is up, one that faults takes only the worker down, and either is
// reported as an error diagnostic of that launch; the next launch starts a fresh worker.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "checker/backend/backend.h"
#include "checker/child/worker_process.h"

namespace tilecamp::gpu {

struct GpuInfo {
  std::string name;
  int major = 0, minor = 0, sms = 0;
  uint64_t l2_bytes = 0;
  double copy_gbps = 0;  // device-to-device copy, bytes read + written per second
};

struct GpuOptions {
  std::vector<std::string> worker_command;  // e.g. {"/path/to/tilecamp", "__gpu-worker"}
  double timeout_s = 10;                    // per launch, timed repetitions included
  // Reads a module's outline (its kernels and their parameters) from PTX: in tilecamp, in the
  // sandbox, since the PTX carries a kernel's inline assembly; parsed here when empty.
  std::function<Expected<ptx::Module>(const std::string& ptx)> read_outline;
};

class GpuBackend : public Backend {
 public:
  // Starts a worker and asks it about the GPU. An Error says why no GPU can be used.
  static Expected<std::unique_ptr<GpuBackend>> open(const GpuOptions& options);

  std::string name() const override { return "gpu"; }
  Status load(const std::string& ptx) override;
  const ptx::Module& module() const override { return *m_module; }
  Expected<LaunchOutcome> launch(const LaunchRequest& request) override;
  std::unique_ptr<Backend> another() const override;
  std::string arch() const override;
  bool counts() const override { return false; }
  double copy_bandwidth_gbps() const override { return info().copy_gbps; }
  const GpuInfo& info() const;
  // Ends the worker (so a wrapping tool like compute-sanitizer writes its summary) and returns
  // everything it printed.
  std::string finish_worker();

 private:
  struct Session;  // the worker and what was loaded into it, shared by sibling backends
  GpuBackend(std::shared_ptr<Session> session, uint32_t slot) : m_session(std::move(session)), m_slot(slot) {}
  Status send_load();

  std::shared_ptr<Session> m_session;
  uint32_t m_slot = 0;
  std::string m_ptx;
  uint64_t m_loaded_generation = 0;
  std::unique_ptr<ptx::Module> m_module;
};

// Whether libcuda.so.1 can be opened here, without starting a worker: "" when it can, else why
// not. Cheap enough for --backend auto on every run.
std::string driver_unavailable_reason();

}  // namespace tilecamp::gpu
