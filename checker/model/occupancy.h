// How many blocks of a kernel an SM holds at once, by the rules of NVIDIA's occupancy calculator
// (cuda_occupancy.h, the CUDA Programming Guide's "Compute Capabilities" table), from what ptxas
// gave the kernel (registers, static shared memory), the launch's block size and dynamic shared
// memory. For the H200 (compute capability 9.0):
// - warps: 64 per SM; a block takes ceil(threads / 32) of them;
// - blocks: 32 per SM;
// - registers: 65536 per SM in 4 sub-partitions of 16384; a warp takes registers x 32 rounded up
//   to 256, and sits in one sub-partition, so an SM holds 4 x floor(16384 / that) warps; a block
//   whose warps, rounded up to a multiple of 4, need more than 65536 registers cannot launch;
// - shared memory: a block takes its static and dynamic shared memory plus the 1 KB the driver
//   reserves, rounded up to 128 bytes; a block may have up to 227 KB plus the reserve (past
//   48 KB of dynamic shared memory the GPU backend opts in, as cudaFuncSetAttribute does); the
//   SM's carveout (the default one) is 228 KB.
#pragma once

#include <cstdint>
#include <string>

#include "checker/compile/compiler.h"

namespace tilecamp::model {

struct OccupancySpec {
  int max_warps_per_sm = 64;
  int max_blocks_per_sm = 32;
  int max_threads_per_block = 1024;
  int registers_per_sm = 65536;
  int registers_per_block = 65536;
  int register_sub_partitions = 4;
  int register_granularity = 256;     // per warp
  int max_registers_per_thread = 255;
  uint32_t shared_per_sm = 233472;    // 228 KB: the largest carveout, the default's
  uint32_t shared_per_block = 232448;  // 227 KB, opted in
  uint32_t shared_reserved_per_block = 1024;
  uint32_t shared_granularity = 128;
};

OccupancySpec h200_occupancy();

struct Occupancy {
  // How many blocks each resource alone leaves room for (a large number: no limit).
  int by_warps = 0, by_blocks = 0, by_registers = 0, by_shared = 0;
  int blocks_per_sm = 0;  // the least of them: 0 when one block does not fit at all
  int warps_per_sm = 0;   // blocks_per_sm x warps per block
  double fraction = 0;    // warps_per_sm over the SM's 64
  std::string limited_by;  // "warps", "blocks", "registers", "shared memory"; several joined by ", "
  uint32_t shared_per_block = 0;     // what a block is given: static + dynamic + the reserve, rounded
  uint32_t registers_per_block = 0;  // what a block is given: registers per warp rounded, x warps
};

Occupancy compute_occupancy(const OccupancySpec& spec, const KernelResources& kernel, uint64_t threads_per_block,
                            uint32_t dynamic_shared_bytes);

}  // namespace tilecamp::model
