// The SIMT interpreter: runs a kernel of a parsed PTX module on the CPU, warp by warp, counting
// what Nsight Compute would count and reporting what a real GPU would silently get wrong.
//
// Warps of 32 lanes execute in lockstep under an active mask; a divergent branch pushes both
// paths on a reconvergence stack and they meet again at the branch's immediate post-dominator.
// Blocks run one after another; within a block each warp runs until it reaches a barrier or
// exits, then the next warp runs. That order is fixed, so every run gives the same numbers.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "checker/diagnostic.h"
#include "checker/emu/counters.h"
#include "checker/emu/device_memory.h"
#include "checker/ptx/module.h"
#include "checker/util/expected.h"

namespace tilecamp::emu {

class AccessObserver;  // checker/emu/access_observer.h

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
  // Shown every global and shared access and every barrier as they happen (tilecamp viz, explain).
  AccessObserver* observer = nullptr;
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
  bool has_error() const;
};

// NVRTC writes `.file` with the working directory in front of a relative path; this puts back the
// path as the person gave it, in every line and diagnostic of `result`.
void show_path_as_given(LaunchResult& result, const std::string& given);

class Emulator {
 public:
  // Allocates the module's `__device__` and `__constant__` variables in `memory`.
  Emulator(const ptx::Module& module, DeviceMemory& memory);

  // `parameters` holds one value per kernel parameter, as its bytes (a pointer is its address).
  // An Error means the launch itself is malformed (unknown kernel, wrong parameter count, block
  // too large); problems of the kernel's own are diagnostics in the result.
  Expected<LaunchResult> launch(const std::string& kernel, const LaunchConfig& config,
                                const std::vector<std::vector<uint8_t>>& parameters);

  const ptx::Module& module() const { return m_module; }
  uint64_t symbol_address(int symbol) const;

 private:
  const ptx::Module& m_module;
  DeviceMemory& m_memory;
  std::map<int, uint64_t> m_global_symbols;  // module variable -> device address
};

}  // namespace tilecamp::emu
