#include "runner/backend_choice.h"

#include <unistd.h>

#include <cstdlib>

#include "checker/gpu/gpu_backend.h"
#include "runner/sandbox_options.h"

namespace tilecamp::runner {
namespace {

// This very program, started again as `tilecamp __gpu-worker IN OUT`.
std::vector<std::string> worker_command(const std::string& sanitizer_tool) {
  std::vector<std::string> command;
  if (!sanitizer_tool.empty()) {
    command = {compute_sanitizer_path(), "--tool", sanitizer_tool, "--print-limit", "20"};
  }
  command.push_back(this_program());
  command.push_back(k_worker_argument);
  return command;
}

double timeout_seconds() {
  const char* text = std::getenv("TILECAMP_GPU_TIMEOUT");
  const double value = text ? std::atof(text) : 0;
  return value > 0 ? value : 10;
}

}  // namespace

std::string compute_sanitizer_path() {
  for (const char* candidate : {"/usr/local/cuda/bin/compute-sanitizer", "/usr/bin/compute-sanitizer"}) {
    if (::access(candidate, X_OK) == 0) return candidate;
  }
  return "";
}

Expected<BackendChoice> choose_backend(const std::string& choice, sandbox::Sandbox& sandbox, const std::string& sanitizer_tool) {
  if (choice != "auto" && choice != "emulator" && choice != "gpu") {
    return make_error("--backend '" + choice + "': expected auto, emulator or gpu");
  }
  BackendChoice chosen;
  if (choice != "emulator") {
    gpu::GpuOptions options;
    options.worker_command = worker_command(sanitizer_tool);
    options.timeout_s = timeout_seconds();
    options.read_outline = [shared = sandbox.shared_from_this()](const std::string& ptx) -> Expected<ptx::Module> {
      std::unique_ptr<Backend> emulator = shared->emulator();
      TC_TRY(emulator->load(ptx));
      return emulator->module();
    };
    auto gpu = gpu::GpuBackend::open(options);
    if (gpu) {
      chosen.backend = std::move(*gpu);
      return chosen;
    }
    if (choice == "gpu") return make_error("--backend gpu: no usable GPU: " + gpu.error());
    chosen.note = "grading on the emulator (no GPU: " + gpu.error() + ")";
  }
  chosen.backend = sandbox.emulator();
  return chosen;
}

}  // namespace tilecamp::runner
