// The launch model every backend shares: a launch's shape and budgets, and what it reports (the
// counters, per kernel and per source line, and the findings). The emulator fills every field; a
// GPU fills the outputs and times (checker/backend/backend.h).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "checker/backend/counters.h"
#include "checker/diagnostic.h"

namespace tilecamp {

namespace emu {
class AccessObserver;  // checker/emu/access_observer.h: what `tilecamp viz` and `explain` watch
}  // namespace emu

struct Dim3 {
  uint32_t x = 1, y = 1, z = 1;
  uint64_t count() const { return uint64_t{x} * y * z; }
  bool operator==(const Dim3&) const = default;
};

struct LaunchConfig {
  Dim3 grid;
  Dim3 block;
  uint32_t dynamic_shared_bytes = 0;
  // A warp that executes more instructions than this is stopped as a runaway kernel (an
  // infinite loop is caught in about a second; the heaviest course kernels need ~1% of it).
  uint64_t warp_instruction_budget = 5'000'000;
  // The same for the whole launch, so that a huge grid of slow warps also ends.
  uint64_t instruction_budget = 2'000'000'000;
  // Wall-clock milliseconds the launch may run (0: no limit). Past it the launch stops with a
  // "time-limit" finding that names the lines its instructions went to: the sandbox sets it a
  // little short of the check's deadline, so a kernel that runs too long is told where.
  uint32_t time_limit_ms = 0;
  // Shown every global and shared access and every barrier as they happen (tilecamp viz, explain).
  emu::AccessObserver* observer = nullptr;
  // When not empty, only these blocks of the grid run, each with its own blockIdx: a sample from
  // which the whole grid's counters are estimated (checker/model/sampling.h). When the first
  // `sample_uniform_after` of them count exactly alike, the rest are not run: the grid is uniform.
  std::vector<Dim3> sample_blocks;
  uint32_t sample_uniform_after = 0;
  // Host threads the emulator may run the grid's blocks on (0: emu::default_host_threads()). The
  // result is the same for any number: see docs/emulator.md, "Blocks on several cores".
  uint32_t host_threads = 0;
  // A cooperative launch (cudaLaunchCooperativeKernel): every block resident at once, so that the
  // grid can synchronize (cooperative groups' this_grid().sync()). The grid must fit on the GPU.
  bool cooperative = false;
};

struct LineProfile {
  std::string file;
  int line = 0;
  Counters counters;
};

struct LaunchResult {
  Counters totals;
  std::vector<LineProfile> lines;  // by file, then line
  std::vector<Diagnostic> diagnostics;
  bool completed = false;          // false when an error stopped the kernel
  std::string output;              // what the kernel printed: block by block, warp by warp
  uint32_t shared_bytes_per_block = 0;  // static and dynamic shared memory of each block
  uint32_t host_threads = 1;  // host threads the emulator ran its blocks on (1: one after another)
  std::vector<Counters> block_counters;  // with sample_blocks: each sampled block's counters, in order
  bool has_error() const;
};

// NVRTC writes `.file` with the working directory in front of a relative path; this puts back the
// path as the person gave it, in every line and diagnostic of `result`.
void show_path_as_given(LaunchResult& result, const std::string& given);

}  // namespace tilecamp
