#include "checker/model/cost_model.h"

#include <algorithm>
#include <cstdint>
#include <initializer_list>
#include <string>
#include <utility>

namespace tilecamp::model {
namespace {

constexpr double k_sector_bytes = 32;

// NVIDIA H200 SXM: 132 SMs at 1.98 GHz boost, 64 warps and 32 blocks per SM. The SM rates are the
// architectural ones (1 request, 1 shared wavefront, 4 warp instructions per clock); DRAM is the
// measured cudaMemcpy rate; the L2 rates and the two latencies are fitted to
// /work/shared/calibration/h200-timings.md (ARCHITECTURE.md gives the fit).
GpuSpec h200() {
  GpuSpec gpu;
  gpu.name = "h200";
  gpu.sms = 132;
  gpu.clock_hz = 1.98e9;
  gpu.occupancy = h200_occupancy();
  gpu.dram_bytes_per_s = 4.0e12;
  gpu.l2_store_sectors_per_clock = 0.25;
  gpu.l1_requests_per_clock = 1.0;
  gpu.l1_l2_sectors_per_clock = 0.5;
  // Atomics, fitted to bench/model/h200/atomics/atomics_time.txt: a warp's RED on 32 words of
  // their own (4 sectors), 32 sectors of their own, or 32 lanes on one word (32 passes) run at
  // 70, 94 and 77 G sector passes/s; one word takes a pass every 0.74 ns (every warp of the grid
  // on one counter), and the sectors of a 256-bin histogram's 1 KB one every 0.36 ns.
  gpu.l2_atomic_sectors_per_clock = 0.3;
  gpu.atomic_word_pass_s = 0.74e-9;
  gpu.atomic_region_pass_s = 0.36e-9;
  gpu.shared_wavefronts_per_clock = 1.0;
  gpu.warp_instructions_per_clock = 4.0;
  gpu.l2_latency_s = 0.25e-6;
  gpu.dram_latency_s = 0.7e-6;
  gpu.warp_start_s = 0.0117e-6;
  gpu.launch_overhead_s = 3e-6;
  // The H200 SXM's data-sheet peaks: 128 FP32 and 64 FP64 lanes per SM, an FMA each per clock
  // (66.9 and 33.5 TFLOP/s at 1.98 GHz; tensor cores are not counted).
  gpu.fp32_flops_per_clock = 256;
  gpu.fp64_flops_per_clock = 128;
  return gpu;
}

// How the launch spreads over the SMs: an SM holds as many blocks at once as its warps, its block
// slots, its registers and its shared memory leave room for (occupancy.h); the last two only
// when the kernel's resources are known.
struct LaunchShape {
  double warps = 0;
  double warps_per_block = 0;
  double blocks_per_sm = 0;      // resident at once
  double busiest_sm_blocks = 0;  // blocks the busiest SM runs in all: ceil(blocks / SMs)
  double skew = 1;               // the busiest SM's share of the work over an even share
};

LaunchShape launch_shape(const GpuSpec& gpu, const CostInput& input) {
  const uint64_t warps_per_block = (input.block.count() + 31) / 32;
  const uint64_t blocks = input.grid.count();
  const uint64_t sms = static_cast<uint64_t>(gpu.sms);
  LaunchShape shape;
  shape.warps = static_cast<double>(warps_per_block * blocks);
  shape.warps_per_block = static_cast<double>(warps_per_block);
  if (shape.warps == 0) return shape;
  const OccupancySpec& limits = gpu.occupancy;
  uint64_t fitting = std::max<uint64_t>(1, static_cast<uint64_t>(limits.max_warps_per_sm) / warps_per_block);
  if (input.resources) {
    const Occupancy occupancy =
        compute_occupancy(limits, *input.resources, input.block.count(), input.dynamic_shared_bytes);
    fitting = std::min<uint64_t>(fitting, static_cast<uint64_t>(std::max(1, occupancy.blocks_per_sm)));
  }
  shape.blocks_per_sm = static_cast<double>(std::min<uint64_t>(fitting, static_cast<uint64_t>(limits.max_blocks_per_sm)));
  shape.busiest_sm_blocks = static_cast<double>((blocks + sms - 1) / sms);
  shape.skew = shape.busiest_sm_blocks * static_cast<double>(sms) / static_cast<double>(blocks);
  return shape;
}

// The time the busiest SM needs for its share of `count` events, at `per_clock` events per clock.
double sm_time(const GpuSpec& gpu, const LaunchShape& shape, double count, double per_clock) {
  return count * shape.skew / (per_clock * gpu.sms * gpu.clock_hz);
}

void throughput_times(const GpuSpec& gpu, const CostInput& input, const LaunchShape& shape, double dram_bytes,
                      CostEstimate& e) {
  const Counters& c = input.totals;
  const double stored_sectors = static_cast<double>(c.global_st_sectors + c.global_atom_sectors);
  e.dram_s = dram_bytes / gpu.dram_bytes_per_s;
  // Stores and atomics are done in L2, which is shared by all SMs: no skew.
  e.l2_store_s = static_cast<double>(c.global_st_sectors) / (gpu.l2_store_sectors_per_clock * gpu.sms * gpu.clock_hz) +
                 static_cast<double>(c.global_atom_sectors) / (gpu.l2_atomic_sectors_per_clock * gpu.sms * gpu.clock_hz);
  // However many SMs send them, the passes on one word, or on one region, queue in L2.
  e.atomic_s = std::max(static_cast<double>(c.global_atom_chain) * gpu.atomic_word_pass_s,
                        static_cast<double>(c.global_atom_region_chain) * gpu.atomic_region_pass_s);
  // The LSU takes every request; L1 fetches from L2 only the sectors its block has not loaded
  // before (it keeps what one block reads), and passes every stored sector on to L2.
  const double requests = static_cast<double>(c.global_ld_requests + c.global_st_requests + c.global_atom_requests);
  const double l1_l2_sectors = static_cast<double>(c.global_ld_unique_sectors) + stored_sectors;
  e.l1_s = sm_time(gpu, shape, requests, gpu.l1_requests_per_clock) +
           sm_time(gpu, shape, l1_l2_sectors, gpu.l1_l2_sectors_per_clock);
  e.shared_s = sm_time(gpu, shape, static_cast<double>(c.shared_ld_wavefronts + c.shared_st_wavefronts + c.shared_atom_wavefronts),
                       gpu.shared_wavefronts_per_clock);
  e.issue_s = sm_time(gpu, shape, static_cast<double>(c.warp_instructions), gpu.warp_instructions_per_clock);
}

// A warp waits one round trip per round of loads (emu counts the rounds: the loads issued before a
// barrier, a global store or a loop's back-edge travel together). A round takes DRAM's latency
// for the share of the traffic DRAM serves, L2's for the rest. Little's law on the busiest SM:
// as many warps wait at once as it holds. A block's place is taken by the next only once its
// warps have started, one after another: a block of 32 warps that does one round of loads spends
// a third of its life starting (fitted to the 1-element copies with 32 x 32 blocks).
void latency_times(const GpuSpec& gpu, const Counters& c, const LaunchShape& shape, double dram_share,
                   CostEstimate& e) {
  const double round_s = gpu.l2_latency_s + dram_share * (gpu.dram_latency_s - gpu.l2_latency_s);
  // A block lives as long as its warps that wait on loads: warps that load nothing (the idle warps
  // of a block where one warp does the work) do not shorten it.
  const double loading = c.loading_warps > 0 ? static_cast<double>(c.loading_warps) : shape.warps;
  e.chain_s = static_cast<double>(c.global_ld_rounds) / loading * round_s;
  const double block_life_s = e.chain_s + shape.warps_per_block * gpu.warp_start_s;
  e.latency_s = block_life_s * shape.busiest_sm_blocks / std::min(shape.busiest_sm_blocks, shape.blocks_per_sm);
}

using Term = std::pair<double, std::string>;

Term slowest(std::initializer_list<Term> terms) { return *std::max_element(terms.begin(), terms.end()); }

}  // namespace

std::vector<std::string> known_gpus() { return {"h200"}; }

Expected<GpuSpec> find_gpu(const std::string& name) {
  if (name == "h200") return h200();
  std::string names;
  for (const std::string& known : known_gpus()) names += (names.empty() ? "" : ", ") + known;
  return make_error("no GPU model named `" + name + "` (known: " + names + ")");
}

CostEstimate model_cost(const GpuSpec& gpu, const CostInput& input) {
  CostEstimate e;
  e.total_s = gpu.launch_overhead_s;
  e.bound = "launch";
  const LaunchShape shape = launch_shape(gpu, input);
  if (shape.warps == 0) return e;
  const Counters& c = input.totals;
  const double read_bytes = static_cast<double>(c.global_ld_sector_pairs) * 2 * k_sector_bytes;
  const double written_bytes = static_cast<double>(c.global_st_sectors + c.global_atom_sectors) * k_sector_bytes;
  const double sector_bytes = static_cast<double>(c.global_ld_sectors) * k_sector_bytes + written_bytes;
  // L2 fetches from DRAM in 64-byte sector pairs, absorbs re-reads and merges partial-sector
  // writes: DRAM reads each touched byte once and writes each once, at most the buffers' bytes.
  auto capped = [&](double bytes) { return input.footprint_bytes > 0 ? std::min(bytes, input.footprint_bytes) : bytes; };
  const double dram_bytes = capped(read_bytes) + capped(written_bytes);
  e.dram_bytes = dram_bytes;
  throughput_times(gpu, input, shape, dram_bytes, e);
  latency_times(gpu, c, shape, sector_bytes > 0 ? std::min(1.0, dram_bytes / sector_bytes) : 0, e);

  const Term core = slowest({{e.shared_s, "shared"}, {e.issue_s, "issue"}});
  const Term throughput = slowest({{e.dram_s, "dram"}, {e.l2_store_s, "l2 stores"}, {e.atomic_s, "atomic contention"}, {e.l1_s, "l1"}, core});
  // Behind a barrier a block's warps use shared memory only once the round's loads are in, and
  // load the next round only once all have used it; the blocks of an SM tend to keep in step (they
  // wait on the same pipe), so rounds and shared-memory passes add up. Other instructions issue
  // while warps wait: they overlap (the padded 32 x 32 transpose costs barely more than a copy).
  const Term rounds = c.barriers > 0 ? Term{e.latency_s + e.shared_s, "latency + shared"}
                                     : Term{e.latency_s, "latency"};
  // Even a throughput-bound kernel waits for one warp's rounds: nothing flows before the first
  // round trip, and nothing overlaps the last warps' final rounds.
  const Term pace = slowest({{throughput.first + e.chain_s, throughput.second}, rounds});
  e.total_s += pace.first;
  e.bound = pace.second;
  return e;
}

}  // namespace tilecamp::model
