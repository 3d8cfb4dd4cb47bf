// `tilecamp profile`: run any kernel once on a backend with arguments from the command line and
// report Nsight-like counters, per kernel and per source line, with the emulator's diagnostics.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "checker/backend/backend.h"
#include "checker/compile/compiler.h"
#include "checker/model/cost_model.h"
#include "checker/model/occupancy.h"
#include "checker/profile/arg_spec.h"

namespace tilecamp::profile {

struct ProfileRequest {
  std::string path;  // a .cu file (compiled with NVRTC) or a .ptx file (used as is)
  std::string text;  // the file's contents
  std::string kernel;
  Dim3 grid;
  Dim3 block;
  std::vector<ArgSpec> arguments;
  std::vector<std::pair<std::string, ArgSpec>> variables;  // --set NAME=SPEC
  uint32_t dynamic_shared_bytes = 0;                       // --shared BYTES
  uint64_t seed = 1;
  std::string gpu = "h200";  // --gpu NAME: the GPU whose cost model times the kernel
  emu::AccessObserver* observer = nullptr;  // shown every access (profile --explain)
  // --sample: run a sample of the grid's blocks on zeroed buffers and estimate the whole grid's
  // counters from them (checker/model/sampling.h), for grids too large to emulate whole.
  bool sample = false;
  // --max-warp-instructions: past it a warp is stopped as a runaway (LaunchConfig's default).
  uint64_t warp_instruction_budget = LaunchConfig{}.warp_instruction_budget;
  bool cooperative = false;  // --cooperative: every block resident, as cudaLaunchCooperativeKernel
};

// A buffer argument after the run: for `--dump`.
struct BufferResult {
  int parameter = 0;  // position of the kernel parameter, from 0
  std::vector<uint8_t> bytes;
};

struct ProfileReport {
  std::string path;      // the profiled file, as given
  bool compiled = true;  // false: compile_diagnostics hold the compiler's errors
  std::vector<CompileDiagnostic> compile_diagnostics;
  std::string compile_log;
  std::string kernel;   // as a person writes it: "sgemmTiled<16>"
  std::string mangled;  // the PTX entry
  Dim3 grid;
  Dim3 block;
  LaunchResult result;
  std::vector<BufferResult> buffers;
  std::string gpu;
  uint64_t sampled_blocks = 0;  // with --sample: the blocks that ran (the counters are the grid's estimate)
  model::CostEstimate modelled;  // the counters turned into a time on `gpu` (emu/cost_model.h)
  // What ptxas gave the kernel (registers, shared memory) and how many of its blocks an SM holds
  // (model/occupancy.h); nothing for a .ptx file, which is not assembled.
  std::optional<KernelResources> resources;
  std::optional<model::Occupancy> occupancy;
  uint32_t dynamic_shared_bytes = 0;  // the launch's (--shared)
  // When the kernel also ran on a real GPU (--backend gpu): the device and its measured time.
  std::string measured_on;
  std::optional<KernelTiming> measured;
};

// An Error is a usage problem (unknown kernel, arguments that do not match its parameters,
// unreadable PTX); a kernel that fails at run time is a report with error diagnostics. On a
// backend that does not count (a GPU) the launch is timed instead: `measured` holds the time.
Expected<ProfileReport> profile_kernel(Compiler& compiler, Backend& backend, const ProfileRequest& request);

}  // namespace tilecamp::profile
