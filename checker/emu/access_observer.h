// What a launch can show an observer while it runs: each warp-wide global or shared load and
// store, and each barrier a block passes. `tilecamp viz` draws a kernel from these, and
// `tilecamp explain` finds the access of a line that costs the most, so both show what the
// emulator executed and counted rather than a model of it.
//
// An observer is optional (LaunchConfig::observer); without one a launch pays one null test per
// access. A cp.async is reported as the global load it makes (its shared side lands later, at
// the wait, and Nsight Compute counts no shared store for it). Atomics and local memory are not
// reported.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "checker/emu/access_rules.h"
#include "checker/emu/emulator.h"

namespace tilecamp::emu {

struct ObservedAccess {
  const ptx::Module& module;
  const ptx::Instruction& instruction;  // its source line, its text, its ptxas merge (fused_bytes)
  ptx::Space space;                     // Global or Shared
  bool is_store = false;
  Dim3 block;
  uint32_t warp = 0;   // in the block; lane l is thread warp * 32 + l of the block, x fastest
  uint32_t lanes = 0;  // the lanes that made this access
  uint32_t bytes = 0;  // per lane
  // Per lane: a global address, or an offset in the block's shared memory.
  const LaneAddresses& addresses;
  // Per active lane, its `bytes` bytes as they are after the access (what it loaded or stored).
  // Valid only during the call.
  const std::array<uint8_t*, k_warp_size>& data;
  // What the counters charged for it in this space, as Nsight Compute counts it: requests (0 for
  // a member of an access ptxas merged, which another member pays for, and for the second and
  // later pieces of a WMMA matrix, whose first pays for it all; a TF32 WMMA load is 4), and
  // sectors (global) or wavefronts (shared), with the conflict-free wavefronts of the same access.
  ChargedCost charged;
  // A tensor-core fragment's access (ldmatrix, WMMA load or store): its "lanes" are the rows the
  // lanes name (ldmatrix) or the matrix's 16-byte pieces (WMMA), not what each thread receives,
  // which the fragment's layout decides.
  bool fragment = false;
};

struct ObservedBarrier {
  const ptx::Instruction& instruction;  // the barrier the block's warps waited at
  Dim3 block;
};

class AccessObserver {
 public:
  virtual ~AccessObserver() = default;
  // Before the kernel runs: the device address of each of the launch's buffers, in the order of
  // LaunchRequest::buffers.
  virtual void on_buffers(const std::vector<uint64_t>& /*addresses*/) {}
  virtual void on_access(const ObservedAccess& access) = 0;
  // Every warp of the block (of the barrier's group) arrived; they go on after this call.
  virtual void on_barrier(const ObservedBarrier&) {}
};

}  // namespace tilecamp::emu
