#include "checker/report/occupancy_text.h"

#include <climits>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

namespace tilecamp::report {
namespace {

// A limit no launch reaches (shared memory of a kernel that uses none) has no figure.
nlohmann::ordered_json limit_json(int blocks) { return blocks >= INT_MAX ? nlohmann::ordered_json() : nlohmann::ordered_json(blocks); }

std::string limit_text(int blocks) { return blocks >= INT_MAX ? "-" : std::to_string(blocks); }

}  // namespace

std::string occupancy_text(const KernelResources& kernel, const model::Occupancy& occupancy,
                           uint32_t dynamic_shared_bytes, const std::string& gpu, const Style& style) {
  // Fits 80 columns, as the lessons quote it.
  std::string out = style.bold("occupancy") + style.dim(" (" + gpu + ", as ptxas assembled it for sm_90)") + "\n";
  out += fmt::format("  {:<24}{:>6}\n", "registers per thread", kernel.registers);
  out += fmt::format("  {:<24}{:>6} B", "shared memory per block", kernel.static_shared_bytes);
  if (dynamic_shared_bytes > 0) out += fmt::format(" + {} B dynamic", dynamic_shared_bytes);
  out += fmt::format("  ({} B with the 1 KB reserve)\n", occupancy.shared_per_block);
  out += fmt::format("  {:<24}{:>6} B{}\n", "local memory per thread", kernel.local_bytes,
                     kernel.local_bytes > 0 ? "  (local arrays or spilled registers)" : "");
  if (kernel.max_threads > 0) out += fmt::format("  {:<24}{:>6}\n", "__launch_bounds__", kernel.max_threads);
  out += fmt::format("  {:<24}{:>6}  (warps {}, slots {}, registers {}, shared {})\n", "blocks per SM",
                     occupancy.blocks_per_sm, limit_text(occupancy.by_warps), limit_text(occupancy.by_blocks),
                     limit_text(occupancy.by_registers), limit_text(occupancy.by_shared));
  out += fmt::format("  {:<24}{:>6}  of 64: {:.0f}% occupancy\n", "active warps per SM", occupancy.warps_per_sm,
                     occupancy.fraction * 100);
  const std::string limit = fmt::format("  {:<24}{:>6}  {}", "limited by", "",
                                        occupancy.blocks_per_sm == 0 ? occupancy.limited_by + ": a block does not fit"
                                                                     : occupancy.limited_by);
  out += (occupancy.blocks_per_sm == 0 ? style.red(limit) : limit) + "\n";
  return out;
}

nlohmann::ordered_json occupancy_json(const KernelResources& kernel, const model::Occupancy& occupancy,
                                      uint32_t dynamic_shared_bytes) {
  nlohmann::ordered_json json;
  json["registers_per_thread"] = kernel.registers;
  json["static_shared_bytes"] = kernel.static_shared_bytes;
  json["dynamic_shared_bytes"] = dynamic_shared_bytes;
  json["shared_bytes_per_block"] = occupancy.shared_per_block;
  json["local_bytes_per_thread"] = kernel.local_bytes;
  json["launch_bounds_threads"] = kernel.max_threads == 0 ? nlohmann::ordered_json() : nlohmann::ordered_json(kernel.max_threads);
  json["blocks_per_sm"] = occupancy.blocks_per_sm;
  json["warps_per_sm"] = occupancy.warps_per_sm;
  json["occupancy"] = occupancy.fraction;
  json["limited_by"] = occupancy.limited_by;
  json["blocks_per_sm_by"] = {{"warps", limit_json(occupancy.by_warps)},
                              {"blocks", limit_json(occupancy.by_blocks)},
                              {"registers", limit_json(occupancy.by_registers)},
                              {"shared_memory", limit_json(occupancy.by_shared)}};
  return json;
}

}  // namespace tilecamp::report
