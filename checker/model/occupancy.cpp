#include "checker/model/occupancy.h"

#include <algorithm>
#include <climits>

namespace tilecamp::model {
namespace {

uint64_t round_up(uint64_t value, uint64_t step) { return (value + step - 1) / step * step; }

int clamp_blocks(uint64_t blocks) { return static_cast<int>(std::min<uint64_t>(blocks, INT_MAX)); }

int blocks_by_registers(const OccupancySpec& spec, uint32_t registers, uint64_t warps, Occupancy& result) {
  if (registers == 0) return INT_MAX;  // a fake compiler's kernel: nothing known, no limit
  const uint64_t per_warp = round_up(uint64_t{registers} * 32, static_cast<uint64_t>(spec.register_granularity));
  result.registers_per_block = static_cast<uint32_t>(std::min<uint64_t>(per_warp * warps, UINT32_MAX));
  // The hardware checks a block as if its warps filled every sub-partition alike.
  const uint64_t assumed = per_warp * round_up(warps, static_cast<uint64_t>(spec.register_sub_partitions));
  const uint64_t per_block = static_cast<uint64_t>(spec.registers_per_block);
  if (registers > static_cast<uint32_t>(spec.max_registers_per_thread) || assumed > per_block || per_warp * warps > per_block) {
    return 0;
  }
  const uint64_t per_partition = static_cast<uint64_t>(spec.registers_per_sm / spec.register_sub_partitions);
  const uint64_t sm_warps = per_partition / per_warp * static_cast<uint64_t>(spec.register_sub_partitions);
  return clamp_blocks(sm_warps / warps);
}

int blocks_by_shared(const OccupancySpec& spec, const KernelResources& kernel, uint32_t dynamic, Occupancy& result) {
  const uint64_t used = uint64_t{kernel.static_shared_bytes} + dynamic + spec.shared_reserved_per_block;
  const uint64_t given = round_up(used, spec.shared_granularity);
  result.shared_per_block = static_cast<uint32_t>(std::min<uint64_t>(given, UINT32_MAX));
  if (given > uint64_t{spec.shared_per_block} + spec.shared_reserved_per_block) return 0;
  return given == 0 ? INT_MAX : clamp_blocks(spec.shared_per_sm / given);
}

}  // namespace

OccupancySpec h200_occupancy() { return OccupancySpec{}; }

Occupancy compute_occupancy(const OccupancySpec& spec, const KernelResources& kernel, uint64_t threads_per_block,
                            uint32_t dynamic_shared_bytes) {
  Occupancy result;
  if (threads_per_block == 0) return result;
  const uint64_t warps = (threads_per_block + 31) / 32;
  const bool fits = threads_per_block <= static_cast<uint64_t>(spec.max_threads_per_block) &&
                    (kernel.max_threads == 0 || threads_per_block <= kernel.max_threads);
  result.by_warps = fits ? clamp_blocks(static_cast<uint64_t>(spec.max_warps_per_sm) / warps) : 0;
  result.by_blocks = spec.max_blocks_per_sm;
  result.by_registers = blocks_by_registers(spec, kernel.registers, warps, result);
  result.by_shared = blocks_by_shared(spec, kernel, dynamic_shared_bytes, result);
  result.blocks_per_sm = std::min({result.by_warps, result.by_blocks, result.by_registers, result.by_shared});
  result.warps_per_sm = clamp_blocks(static_cast<uint64_t>(result.blocks_per_sm) * warps);
  result.fraction = static_cast<double>(result.warps_per_sm) / spec.max_warps_per_sm;
  const std::pair<int, const char*> limits[] = {{result.by_warps, "warps"},
                                               {result.by_blocks, "blocks"},
                                               {result.by_registers, "registers"},
                                               {result.by_shared, "shared memory"}};
  for (const auto& [blocks, name] : limits) {
    if (blocks != result.blocks_per_sm) continue;
    result.limited_by += (result.limited_by.empty() ? "" : ", ") + std::string(name);
  }
  return result;
}

}  // namespace tilecamp::model
