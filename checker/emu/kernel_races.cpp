// Turning the race detector's findings into diagnostics a learner can act on: which threads,
// which shared variable and element, which two lines, and what is missing between them.
#include <algorithm>

#include "checker/emu/kernel_run.h"
#include "checker/ptx/kernel_lookup.h"

namespace tilecamp::emu {

namespace {

constexpr size_t k_max_race_reports = 8;

std::string access_verb(bool is_write, bool is_atomic) {
  if (is_atomic) return "atomically updates";
  return is_write ? "writes" : "reads";
}

}  // namespace

std::string KernelRun::thread_name(uint32_t warp, int lane) const {
  const Dim3 tid = thread_in_block(uint64_t{warp} * k_warp_size + static_cast<uint64_t>(lane), m_config.block);
  return "thread (" + std::to_string(tid.x) + "," + std::to_string(tid.y) + "," + std::to_string(tid.z) + ")";
}

// "element 12 of `tile`" for a shared byte offset (4-byte elements: the banks' word size).
std::string KernelRun::shared_element(uint64_t address) const {
  const ptx::Symbol* owner = shared_variable_before(address);
  if (owner == nullptr || address >= owner->offset + shared_variable_bytes(*owner)) {
    return "byte " + std::to_string(address) + " of shared memory";
  }
  return "word " + std::to_string((address - owner->offset) / 4) + " of `" + ptx::readable_variable_name(owner->name) + "`";
}

void KernelRun::report_race(const RaceReport& race) {
  // One report per pair of source lines, in either order (unrolled loops repeat an access).
  const int line = m_code[race.pc].location.line, other_line = m_code[race.other_pc].location.line;
  const std::pair<uint32_t, uint32_t> key{static_cast<uint32_t>(std::min(line, other_line)),
                                          static_cast<uint32_t>(std::max(line, other_line))};
  if (m_diagnostics.size() >= k_max_race_reports ||
      std::find(m_reported_races.begin(), m_reported_races.end(), key) != m_reported_races.end()) {
    return;
  }
  m_reported_races.push_back(key);
  const ptx::Instruction& in = m_code[race.pc];
  const std::string where_block = " of block " + block_name();
  if (race.kind == "conflicting-write") {
    warn_or_error(in, Severity::Error, "race",
                  thread_name(race.warp, race.lane) + " and " + thread_name(race.other_warp, race.other_lane) +
                      where_block + " write different values to " + shared_element(race.address) +
                      " in the same store at " + where(race.pc) + ": which value remains is undefined");
    return;
  }
  const std::string pattern = race.is_write && race.other_is_write ? "write-after-write"
                              : race.is_write                      ? "write-after-read"
                                                                   : "read-after-write";
  std::string message = "shared-memory race (" + pattern + "): " + thread_name(race.warp, race.lane) + where_block +
                        " " + access_verb(race.is_write, race.is_atomic) + " " + shared_element(race.address) + " at " +
                        where(race.pc) + ", which " + thread_name(race.other_warp, race.other_lane) + " (another warp) " +
                        (race.other_is_atomic ? "atomically updated" : race.other_is_write ? "wrote" : "read") + " at " +
                        where(race.other_pc) + " with no __syncthreads() between them";
  if (race.same_value) {
    warn_or_error(in, Severity::Warning, "race", message + "; both stored the same value, which today's GPUs tolerate");
    return;
  }
  warn_or_error(in, Severity::Error, "race",
                message + ": on a GPU the result depends on which warp runs first. Put a barrier between them");
}

}  // namespace tilecamp::emu
