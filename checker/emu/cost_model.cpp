#include "checker/emu/cost_model.h"

#include <algorithm>
#include <utility>

namespace tilecamp::emu {
namespace {

constexpr double k_sector_bytes = 32;

// NVIDIA H200 SXM: 132 SMs at ~1.98 GHz boost. The memory figures are effective rates fitted to
// /work/shared/calibration/h200-timings.md (see ARCHITECTURE.md), the SM figures are the
// architectural ones (4 schedulers, 1 shared wavefront per clock).
GpuSpec h200() {
  GpuSpec gpu;
  gpu.name = "h200";
  gpu.sms = 132;
  gpu.clock_hz = 1.98e9;
  gpu.dram_bytes_per_s = 4.0e12;
  gpu.l2_bytes = 50e6;
  gpu.l2_store_sectors_per_clock = 0.25;
  gpu.l1_requests_per_clock = 1.0;
  gpu.shared_wavefronts_per_clock = 1.0;
  gpu.warp_instructions_per_clock = 4.0;
  gpu.memory_latency_s = 0.7e-6;
  gpu.max_warps_per_sm = 64;
  gpu.max_blocks_per_sm = 32;
  gpu.launch_overhead_s = 3e-6;
  return gpu;
}

double per_gpu_rate(const GpuSpec& gpu, double per_sm_per_clock) { return per_sm_per_clock * gpu.sms * gpu.clock_hz; }

// Little's law: a warp waits one latency per dependent round trip; as many warps wait at once as
// fit on the SMs. Loads before a barrier are issued together (one round per barrier); without a
// barrier, each load feeds a store that the next load may not pass (the pointers may alias).
double latency_time(const GpuSpec& gpu, const CostInput& input) {
  const double warps_per_block = static_cast<double>((input.block.count() + 31) / 32);
  const double warps = warps_per_block * static_cast<double>(input.grid.count());
  if (warps == 0) return 0;
  const Counters& c = input.totals;
  const double rounds = c.barriers > 0 ? static_cast<double>(c.barriers)
                                       : static_cast<double>(std::min(c.global_ld_requests, c.global_st_requests));
  const int blocks_per_sm = std::min(gpu.max_blocks_per_sm, static_cast<int>(gpu.max_warps_per_sm / warps_per_block));
  const double resident = std::max(1, blocks_per_sm) * warps_per_block * gpu.sms;
  return rounds * gpu.memory_latency_s / std::min(warps, resident);
}

}  // namespace

std::vector<std::string> known_gpus() { return {"h200"}; }

Expected<GpuSpec> find_gpu(const std::string& name) {
  if (name == "h200") return h200();
  std::string names;
  for (const std::string& known : known_gpus()) names += (names.empty() ? "" : ", ") + known;
  return make_error("no GPU model named `" + name + "` (known: " + names + ")");
}

CostEstimate model_cost(const GpuSpec& gpu, const CostInput& input) {
  const Counters& c = input.totals;
  CostEstimate e;
  double dram_bytes = static_cast<double>(c.global_ld_sectors + c.global_st_sectors) * k_sector_bytes;
  if (input.footprint_bytes > 0) dram_bytes = std::min(dram_bytes, input.footprint_bytes);
  e.dram_s = dram_bytes / gpu.dram_bytes_per_s;
  e.l2_store_s = static_cast<double>(c.global_st_sectors) / per_gpu_rate(gpu, gpu.l2_store_sectors_per_clock);
  e.l1_s = static_cast<double>(c.global_ld_requests) / per_gpu_rate(gpu, gpu.l1_requests_per_clock);
  e.latency_s = latency_time(gpu, input);
  e.shared_s = static_cast<double>(c.shared_ld_wavefronts + c.shared_st_wavefronts) /
               per_gpu_rate(gpu, gpu.shared_wavefronts_per_clock);
  e.issue_s = static_cast<double>(c.warp_instructions) / per_gpu_rate(gpu, gpu.warp_instructions_per_clock);
  const std::pair<double, const char*> memory[] = {
      {e.dram_s, "dram"}, {e.l2_store_s, "l2 stores"}, {e.l1_s, "l1 loads"}, {e.latency_s, "latency"}};
  const std::pair<double, const char*> core[] = {{e.shared_s, "shared"}, {e.issue_s, "issue"}};
  const auto& slowest_memory = *std::max_element(std::begin(memory), std::end(memory));
  const auto& slowest_core = *std::max_element(std::begin(core), std::end(core));
  // A barrier separates a block's global phase from its shared phase, so they add up; without
  // one, warps overlap memory and computation and the slower side sets the pace.
  if (c.barriers > 0) {
    e.total_s = slowest_memory.first + slowest_core.first;
    e.bound = std::string(slowest_memory.second) + " + " + slowest_core.second;
  } else {
    const bool memory_bound = slowest_memory.first >= slowest_core.first;
    e.total_s = std::max(slowest_memory.first, slowest_core.first);
    e.bound = memory_bound ? slowest_memory.second : slowest_core.second;
  }
  e.total_s += gpu.launch_overhead_s;
  return e;
}

}  // namespace tilecamp::emu
