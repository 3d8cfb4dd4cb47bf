// A roofline-style cost model: turns a kernel's emulated counters (and its launch shape) into a
// modelled run time on a named GPU. Each resource gives a time (DRAM bytes, L2 store sectors, L1
// requests and L1<->L2 sectors, shared wavefronts, instruction issue, load round trips); the kernel
// takes the slowest, plus the round trips of one warp (the pipeline's fill and drain) and a fixed
// launch overhead. ARCHITECTURE.md ("checker/emu: the cost model") says what each parameter
// assumes and how the model was held to measured H200 timings.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "checker/backend/launch.h"
#include "checker/compile/compiler.h"
#include "checker/model/occupancy.h"
#include "checker/util/expected.h"

namespace tilecamp::model {

// Rates "per clock" are per SM; the model multiplies them by `sms` and `clock_hz`.
struct GpuSpec {
  std::string name;
  int sms = 0;
  double clock_hz = 0;
  // What decides how many blocks an SM holds at once: warps, block slots, registers and shared
  // memory, by the occupancy calculator's rules.
  OccupancySpec occupancy;
  double dram_bytes_per_s = 0;             // achieved (cudaMemcpy device-to-device), whole GPU
  double l2_store_sectors_per_clock = 0;   // store sectors (each partial write is one) L2 absorbs
  double l1_requests_per_clock = 0;        // warp-wide global load and store requests the LSU takes
  double l1_l2_sectors_per_clock = 0;      // sectors between L1 and L2: load misses in, stores out
  double l2_atomic_sectors_per_clock = 0;  // global atomic sector passes (global_atom_sectors) L2 takes
  // Contention: the passes on one word wait for each other (global_atom_chain), and the sector
  // passes on one 1 KB region are served one after another (global_atom_region_chain).
  double atomic_word_pass_s = 0;
  double atomic_region_pass_s = 0;
  double shared_wavefronts_per_clock = 0;
  double warp_instructions_per_clock = 0;  // issue slots (4 schedulers)
  double l2_latency_s = 0;                 // a round of loads that L2 serves, under load
  double dram_latency_s = 0;               // a round of loads that DRAM serves, under load
  double warp_start_s = 0;                 // starting one warp of a new block: a block's turnover
  double launch_overhead_s = 0;
  // The roofline's ceiling (checker/model/roofline.h): FLOPs an SM can do per clock, an FMA two.
  double fp32_flops_per_clock = 0;
  double fp64_flops_per_clock = 0;
};

// What the model reads: the counters of the whole launch and its shape.
struct CostInput {
  Counters totals;
  Dim3 grid;
  Dim3 block;
  // Bytes of the buffers the kernel touches (0: unknown, count every sector as DRAM traffic).
  double footprint_bytes = 0;
  // The kernel's registers and shared memory (ptxas's, compile/cubin_resources.h) and the launch's
  // dynamic shared memory: with them an SM holds as many blocks as model/occupancy.h says; without,
  // as many as its warp and block limits allow.
  std::optional<KernelResources> resources;
  uint32_t dynamic_shared_bytes = 0;
};

struct CostEstimate {
  double dram_s = 0, l2_store_s = 0, l1_s = 0;  // memory throughput
  double atomic_s = 0;  // global atomics queued on their busiest word or region
  double shared_s = 0, issue_s = 0;             // SM throughput
  double latency_s = 0;  // every warp's load rounds, as many warps waiting at once as fit on an SM
  double chain_s = 0;    // one warp's load rounds: what no other warp hides at the start and end
  double total_s = 0;
  double dram_bytes = 0;  // what the DRAM term moves: pairs read and sectors written, capped at the footprint
  std::string bound;  // what sets total_s: "dram", "l2 stores", "latency + shared", ...
};

std::vector<std::string> known_gpus();
Expected<GpuSpec> find_gpu(const std::string& name);  // the error lists the known names
CostEstimate model_cost(const GpuSpec& gpu, const CostInput& input);

}  // namespace tilecamp::model
