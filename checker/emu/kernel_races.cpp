// Turning the race detector's findings into diagnostics a learner can act on: which threads,
// which shared variable and element, which two lines, and what is missing between them.
#include <algorithm>
#include <string>
#include <tuple>

#include "checker/emu/kernel_run.h"
#include "checker/ptx/kernel_lookup.h"

namespace tilecamp::emu {

namespace {

constexpr size_t k_max_race_reports = 8;

// One of the two accesses of a race, as a report names it.
struct RaceSide {
  uint32_t pc = 0;
  uint32_t step = 0;  // the warp's instructions since the barrier
  bool writes = false, atomic = false;
  int line = 0;        // 0 when the PTX has no line for it
  std::string where;   // "line 12"
  std::string thread;  // "thread (3,0,0)"
};

std::string access_verb(const RaceSide& side) {
  if (side.atomic) return "atomically updates";
  return side.writes ? "writes" : "reads";
}

std::string access_noun(const RaceSide& side) {
  if (side.atomic) return "atomic update";
  return side.writes ? "write" : "read";
}

// Named by program order, not by the order the emulator happened to run the warps in: a write
// then a read needs the barrier a learner calls read-after-write, whichever warp ran first.
std::string hazard_name(const RaceSide& first, const RaceSide& second) {
  if (first.writes && second.writes) return "write-after-write";
  return first.writes ? "read-after-write" : "write-after-read";
}

std::string what_can_happen(const std::string& hazard) {
  if (hazard == "write-after-write") return "either write may land last";
  return hazard == "read-after-write" ? "the read may run before the write" : "the write may run before the read";
}

// Where the barrier goes: after the access that comes first in program order, before the other.
std::string missing_barrier(const RaceSide& first, const RaceSide& second) {
  const std::string first_access = "the " + access_noun(first) + " at " + first.where;
  const std::string second_access = "the " + access_noun(second) + " at " + second.where;
  if (second.pc == first.pc) {
    return "The same store runs in both warps, so no barrier can order them: let one thread write the word, or "
           "give each warp words of its own";
  }
  // Later in the program, earlier in the source: on a later trip round a loop.
  const bool later_trip = first.line > 0 && second.line > 0 ? second.line < first.line : second.pc < first.pc;
  if (later_trip) {
    return "Put a __syncthreads() after " + first_access + ", before the loop comes back to " + second_access;
  }
  if (first.where == second.where) {
    return "Put a __syncthreads() between the " + access_noun(first) + " and the " + access_noun(second) +
           ", both at " + first.where + " (split the line)";
  }
  return "Put a __syncthreads() after " + first_access + " and before " + second_access;
}

// "shared-memory race (read-after-write): thread (128,0,0) of block (0,0,0) writes word 128 of
// `buffer` at line 25 and thread (127,0,0) (another warp) reads it at line 27 with no ...".
std::string race_message(const RaceSide& first, const RaceSide& second, const std::string& element,
                         const std::string& block, bool same_value) {
  const std::string hazard = hazard_name(first, second);
  const std::string message = "shared-memory race (" + hazard + "): " + first.thread + " of block " + block + " " +
                              access_verb(first) + " " + element + " at " + first.where + " and " + second.thread +
                              " (another warp) " + access_verb(second) + " it at " + second.where +
                              " with no __syncthreads() between them";
  if (same_value) return message + "; both stored the same value, which today's GPUs tolerate";
  return message + ": on a GPU " + what_can_happen(hazard) + ". " + missing_barrier(first, second);
}

}  // namespace

std::string KernelRun::thread_name(uint32_t warp, int lane) const {
  const Dim3 tid = thread_in_block(uint64_t{warp} * k_warp_size + static_cast<uint64_t>(lane), m_config.block);
  return "thread (" + std::to_string(tid.x) + "," + std::to_string(tid.y) + "," + std::to_string(tid.z) + ")";
}

std::string KernelRun::shared_element(uint64_t address, uint32_t unit_bytes, const char* unit) const {
  const ptx::Symbol* owner = shared_variable_before(address);
  if (owner == nullptr || address >= owner->offset + shared_variable_bytes(*owner)) {
    return "byte " + std::to_string(address) + " of shared memory";
  }
  return std::string(unit) + " " + std::to_string((address - owner->offset) / unit_bytes) + " of `" +
         ptx::readable_variable_name(owner->name) + "`";
}

void KernelRun::report_race(const RaceReport& race) {
  // One report per pair of source lines, in either order (unrolled loops repeat an access).
  const int line = m_code[race.pc].location.line, other_line = m_code[race.other_pc].location.line;
  const std::pair<uint32_t, uint32_t> key{static_cast<uint32_t>(std::min(line, other_line)),
                                          static_cast<uint32_t>(std::max(line, other_line))};
  if (m_reported_races.size() >= k_max_race_reports ||
      std::find(m_reported_races.begin(), m_reported_races.end(), key) != m_reported_races.end()) {
    return;
  }
  m_reported_races.push_back(key);
  if (race.kind == "conflicting-write") {
    warn_or_error(m_code[race.pc], Severity::Error, "race",
                  thread_name(race.warp, race.lane) + " and " + thread_name(race.other_warp, race.other_lane) +
                      " of block " + block_name() + " write different values to " + shared_element(race.address) +
                      " in the same store at " + where(race.pc) + ": which value remains is undefined");
    return;
  }
  // The emulator runs a warp until it blocks, then the next, so which access it met first says
  // nothing about the program. The one with fewer instructions since the barrier (then the one
  // earlier in the code) comes first in its thread's program, and the report is located there.
  const RaceSide ran_second{race.pc, race.step, race.is_write, race.is_atomic, line, where(race.pc),
                            thread_name(race.warp, race.lane)};
  const RaceSide ran_first{race.other_pc, race.other_step, race.other_is_write, race.other_is_atomic, other_line,
                           where(race.other_pc), thread_name(race.other_warp, race.other_lane)};
  const bool in_order = std::tie(ran_first.step, ran_first.pc) <= std::tie(ran_second.step, ran_second.pc);
  const RaceSide& first = in_order ? ran_first : ran_second;
  const RaceSide& second = in_order ? ran_second : ran_first;
  warn_or_error(m_code[first.pc], race.same_value ? Severity::Warning : Severity::Error, "race",
                race_message(first, second, shared_element(race.address), block_name(), race.same_value));
}

}  // namespace tilecamp::emu
