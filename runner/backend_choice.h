// --backend auto|emulator|gpu, shared by every command that runs kernels.
#pragma once

#include <memory>
#include <string>

#include "checker/backend/backend.h"
#include "checker/sandbox/sandbox.h"
#include "checker/util/expected.h"

namespace tilecamp::runner {

constexpr const char* k_backend_help =
    "where kernels run: auto (a GPU when one works, else the emulator), emulator, or gpu";

// The hidden first argument that turns tilecamp into the GPU backend's worker process.
constexpr const char* k_worker_argument = "__gpu-worker";

struct BackendChoice {
  std::unique_ptr<Backend> backend;
  std::string note;  // why auto fell back to the emulator; empty otherwise
};

// The backend for `choice`: a GPU, or the emulator in `sandbox`. `sanitizer_tool` (memcheck,
// racecheck, synccheck) runs the GPU worker under compute-sanitizer. An Error names the choices,
// or says why a GPU cannot be used.
Expected<BackendChoice> choose_backend(const std::string& choice, sandbox::Sandbox& sandbox,
                                       const std::string& sanitizer_tool = "");

// compute-sanitizer's path, or "" when it is not installed.
std::string compute_sanitizer_path();

}  // namespace tilecamp::runner
