// The SIMT interpreter: runs a kernel of a parsed PTX module on the CPU, warp by warp, counting
// what Nsight Compute would count and reporting what a real GPU would silently get wrong.
//
// Warps of 32 lanes execute in lockstep under an active mask; a divergent branch pushes both
// paths on a reconvergence stack and they meet again at the branch's immediate post-dominator.
// Blocks run one after another (or on several host threads with the same result: kernel_launch.cpp;
// a cooperative launch's in turns: kernel_cooperative.cpp); within a block each warp runs until it
// reaches a barrier or exits, then the next warp runs. That order is fixed, so every run gives the
// same numbers.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "checker/diagnostic.h"
#include "checker/backend/launch.h"
#include "checker/emu/device_memory.h"
#include "checker/ptx/module.h"
#include "checker/util/expected.h"

namespace tilecamp::emu {

// Host threads a launch's blocks may run on when its LaunchConfig names none: the cores this
// process may use (or $TILECAMP_EMULATOR_THREADS), at most 16. Grading several exercises at once
// sets it lower, so that the jobs share the cores rather than fight over them.
unsigned default_host_threads();
void set_default_host_threads(unsigned threads);

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
  // The workspace a cooperative launch's grid barrier counts in (0 before the first one).
  uint64_t grid_workspace() const { return m_grid_workspace; }

 private:
  Status prepare_cooperative(const ptx::Function& function, const LaunchConfig& config);

  const ptx::Module& m_module;
  DeviceMemory& m_memory;
  std::map<int, uint64_t> m_global_symbols;  // module variable -> device address
  uint64_t m_grid_workspace = 0;
};

}  // namespace tilecamp::emu
