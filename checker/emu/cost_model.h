// A roofline-style cost model: turns a kernel's emulated counters (and its launch shape) into a
// modelled run time on a named GPU. Each resource gives a time (DRAM bytes, L2 store sectors, L1
// load requests, shared wavefronts, instruction issue, memory latency); the kernel takes the
// slowest, plus a fixed launch overhead. ARCHITECTURE.md ("checker/emu: the cost model") says what
// each parameter assumes and how the model was held to measured H200 timings.
#pragma once

#include <string>
#include <vector>

#include "checker/emu/counters.h"
#include "checker/emu/emulator.h"
#include "checker/util/expected.h"

namespace tilecamp::emu {

struct GpuSpec {
  std::string name;
  int sms = 0;
  double clock_hz = 0;
  double dram_bytes_per_s = 0;          // achieved (cudaMemcpy device-to-device), not the data sheet
  double l2_bytes = 0;                  // a footprint up to this is read from DRAM once
  double l2_store_sectors_per_clock = 0;  // per SM: global store sectors L2 absorbs
  double l1_requests_per_clock = 0;     // per SM: global load requests the LSU/L1 takes
  double shared_wavefronts_per_clock = 0;  // per SM
  double warp_instructions_per_clock = 0;  // per SM: issue slots (4 schedulers)
  double memory_latency_s = 0;          // one dependent round trip to global memory
  int max_warps_per_sm = 0;
  int max_blocks_per_sm = 0;
  double launch_overhead_s = 0;
};

// What the model reads: the counters of the whole launch and its shape.
struct CostInput {
  Counters totals;
  Dim3 grid;
  Dim3 block;
  // Bytes of the buffers the kernel touches (0: unknown, count every sector as DRAM traffic).
  double footprint_bytes = 0;
};

struct CostEstimate {
  double dram_s = 0, l2_store_s = 0, l1_s = 0, latency_s = 0;  // memory side
  double shared_s = 0, issue_s = 0;                            // SM side
  double total_s = 0;
  std::string bound;  // the resource that sets total_s: "dram", "shared", ...
};

std::vector<std::string> known_gpus();
Expected<GpuSpec> find_gpu(const std::string& name);  // the error lists the known names
CostEstimate model_cost(const GpuSpec& gpu, const CostInput& input);

}  // namespace tilecamp::emu
