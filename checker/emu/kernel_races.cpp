// Turning the race detector's findings into diagnostics a learner can act on: which threads,
// which shared variable and element, which two lines, and what is missing between them.
#include <algorithm>
#include <vector>
#include <string>
#include <tuple>

#include "checker/emu/kernel_run.h"
#include "checker/ptx/kernel_lookup.h"

namespace tilecamp::emu {

using ptx::Opcode;

namespace {


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
std::string missing_barrier(const RaceSide& first, const RaceSide& second, bool in_loop) {
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
    // A barrier "between" two accesses of one line that a loop repeats goes at the end of the
    // trip, and outside any `if` around the line: the whole block must reach it.
    const std::string end_of_trip = "at the end of each trip of the loop, outside any `if` around " + first.where +
                                    " (every thread of the block must reach it)";
    if (second.pc <= first.pc) {  // back to an earlier instruction of the line: the next trip
      return "The " + access_noun(second) + " comes on a later trip than the " + access_noun(first) + ", both at " +
             first.where + ": put a __syncthreads() " + end_of_trip;
    }
    if (in_loop) {
      return "Put a __syncthreads() between the " + access_noun(first) + " and the " + access_noun(second) +
             ", both at " + first.where + ": " + end_of_trip + ", and if they meet within one trip, split the line "
             "too";
    }
    return "Put a __syncthreads() between the " + access_noun(first) + " and the " + access_noun(second) +
           ", both at " + first.where + " (split the line)";
  }
  return "Put a __syncthreads() after " + first_access + " and before " + second_access;
}

// "shared-memory race (read-after-write): thread (128,0,0) of block (0,0,0) writes word 128 of
// `buffer` at line 25 and thread (127,0,0) (another warp) reads it at line 27 with no
// __syncthreads() between them"; `relation` is "another warp" or "the same warp", `sync` what
// would order them.
std::string race_opening(const RaceSide& first, const RaceSide& second, const std::string& element,
                         const std::string& block, const char* relation, const char* sync) {
  return "shared-memory race (" + hazard_name(first, second) + "): " + first.thread + " of block " + block + " " +
         access_verb(first) + " " + element + " at " + first.where + " and " + second.thread + " (" + relation + ") " +
         access_verb(second) + " it at " + second.where + " with no " + sync + " between them";
}

constexpr const char* k_same_value = "; both stored the same value, which today's GPUs tolerate";

std::string race_message(const RaceSide& first, const RaceSide& second, const std::string& element,
                         const std::string& block, bool same_value, bool in_loop) {
  const std::string hazard = hazard_name(first, second);
  const std::string message = race_opening(first, second, element, block, "another warp", "__syncthreads()");
  if (same_value) return message + k_same_value;
  return message + ": on a GPU " + what_can_happen(hazard) + ". " + missing_barrier(first, second, in_loop);
}

// Between two lanes of one warp: the same, with __syncwarp(). `first` comes first in the warp's
// program (fewer instructions since the barrier), unless `sides` (they are on the two sides of one
// branch: the warp runs one side, then the other) or `later_trip` (the loop came back from the
// first to the second).
std::string warp_race_message(const RaceSide& first, const RaceSide& second, const std::string& element,
                              const std::string& block, bool same_value, bool sides, bool later_trip) {
  const std::string hazard = hazard_name(first, second);
  const std::string message = race_opening(first, second, element, block, "the same warp", "__syncwarp()");
  if (same_value) return message + k_same_value;
  const std::string first_access = "the " + access_noun(first) + " at " + first.where;
  const std::string second_access = "the " + access_noun(second) + " at " + second.where;
  if (sides) {
    return message + ": they are on the two sides of a branch, which the warp runs one after the other in no set "
                     "order, so " + what_can_happen(hazard) +
           ". No __syncwarp() inside either side can order them: move " + second_access +
           " after the point where the two sides meet, behind a __syncwarp()";
  }
  std::string fix;
  if (later_trip) {
    fix = "Put a __syncwarp() after " + first_access + ", before the loop comes back to " + second_access;
  } else if (first.where == second.where) {  // one statement, or two trips of an unrolled loop
    fix = "Put a __syncwarp() after the " + access_noun(first) + " and before the " + access_noun(second) +
          ", both at " + first.where + ": at the end of each trip if the line is in a loop, else split the line";
  } else {
    fix = "Put a __syncwarp() after " + first_access + " and before " + second_access;
  }
  return message + ": since Volta the lanes of a warp do not run in lockstep, so " + what_can_happen(hazard) + ". " +
         fix;
}

}  // namespace

// Instructions `a` and `b` are on the two sides of one branch: of the paths leaving a conditional
// `bra` until they meet again, only one reaches `a` and only the other reaches `b`. Run only for a
// new report (a handful per launch), so a walk of the code per branch is cheap enough.
bool KernelRun::on_two_sides_of_a_branch(uint32_t a, uint32_t b) const {
  const uint32_t size = static_cast<uint32_t>(m_code.size());
  std::vector<uint8_t> seen(size);
  std::vector<uint32_t> to_visit;
  // Which of a and b the paths from `from` reach before `meet`: bit 0 a, bit 1 b.
  auto reaches = [&](uint32_t from, uint32_t meet) {
    std::fill(seen.begin(), seen.end(), 0);
    to_visit.assign(1, from);
    uint32_t found = 0;
    while (!to_visit.empty()) {
      const uint32_t pc = to_visit.back();
      to_visit.pop_back();
      if (pc >= size || pc == meet || seen[pc]) continue;
      seen[pc] = 1;
      if (pc == a) found |= 1;
      if (pc == b) found |= 2;
      const ptx::Instruction& in = m_code[pc];
      const bool guarded = in.guard >= 0;
      if (in.opcode == Opcode::Bra) {
        to_visit.push_back(in.target);
        if (guarded) to_visit.push_back(pc + 1);
      } else if ((in.opcode != Opcode::Ret && in.opcode != Opcode::Exit) || guarded) {
        to_visit.push_back(pc + 1);
      }
    }
    return found;
  };
  for (uint32_t pc = 0; pc < size; ++pc) {
    const ptx::Instruction& in = m_code[pc];
    if (in.opcode != Opcode::Bra || in.guard < 0) continue;
    const uint32_t meet = m_function.reconvergence_pc[pc];
    const uint32_t taken = reaches(in.target, meet), not_taken = reaches(pc + 1, meet);
    if ((taken == 1 && not_taken == 2) || (taken == 2 && not_taken == 1)) return true;
  }
  return false;
}

// A branch at or after `pc` goes back to `pc` or before it: the instruction is inside a loop.
bool KernelRun::in_a_loop(uint32_t pc) const {
  for (uint32_t at = pc; at < m_code.size(); ++at) {
    if (m_code[at].opcode == Opcode::Bra && m_code[at].target <= pc) return true;
  }
  return false;
}

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

namespace {

// One report per pair of source lines, in either order (unrolled loops repeat an access).
std::pair<uint32_t, uint32_t> line_pair(int line, int other_line) {
  return {static_cast<uint32_t>(std::min(line, other_line)), static_cast<uint32_t>(std::max(line, other_line))};
}

}  // namespace

void KernelRun::report_race(const RaceReport& race) {
  if (race.warp != race.other_warp || race.kind == "conflicting-write") {
    emit_race(race);
    return;
  }
  const auto key = line_pair(m_code[race.pc].location.line, m_code[race.other_pc].location.line);
  for (const RaceReport& pending : m_pending_warp_races) {
    if (line_pair(m_code[pending.pc].location.line, m_code[pending.other_pc].location.line) == key) return;
  }
  m_pending_warp_races.push_back(race);
}

void KernelRun::flush_warp_races() {
  std::vector<RaceReport> pending;
  pending.swap(m_pending_warp_races);
  for (const RaceReport& race : pending) emit_race(race);  // skips the line pairs already reported
}

void KernelRun::emit_race(const RaceReport& race) {
  const int line = m_code[race.pc].location.line, other_line = m_code[race.other_pc].location.line;
  const std::pair<uint32_t, uint32_t> key = line_pair(line, other_line);
  if (m_reported_races.size() >= k_max_race_reports ||
      std::find(m_reported_races.begin(), m_reported_races.end(), key) != m_reported_races.end()) {
    return;
  }
  m_reported_races.push_back(key);
  const std::string once = "race:" + std::to_string(key.first) + ":" + std::to_string(key.second);
  if (race.kind == "conflicting-write") {
    warn_or_error(m_code[race.pc], Severity::Error, "race",
                  thread_name(race.warp, race.lane) + " and " + thread_name(race.other_warp, race.other_lane) +
                      " of block " + block_name() + " write different values to " + shared_element(race.address) +
                      " in the same store at " + where(race.pc) + ": which value remains is undefined", once);
    return;
  }
  // The emulator runs a warp until it blocks, then the next, so which access it met first says
  // nothing about the program. The one with fewer instructions since the barrier (then the one
  // earlier in the code) comes first in its thread's program, and the report is located there.
  const RaceSide ran_second{race.pc, race.step, race.is_write, race.is_atomic, line, where(race.pc),
                            thread_name(race.warp, race.lane)};
  const RaceSide ran_first{race.other_pc, race.other_step, race.other_is_write, race.other_is_atomic, other_line,
                           where(race.other_pc), thread_name(race.other_warp, race.other_lane)};
  const Severity severity = race.same_value ? Severity::Warning : Severity::Error;
  // One side a cp.async still in flight: no barrier helps, only the copying thread's wait does.
  const bool copy_here = m_code[race.pc].opcode == ptx::Opcode::CpAsync;
  const bool copy_there = m_code[race.other_pc].opcode == ptx::Opcode::CpAsync;
  if (copy_here != copy_there) {
    const RaceSide& copy = copy_here ? ran_second : ran_first;
    const RaceSide& access = copy_here ? ran_first : ran_second;
    warn_or_error(m_code[access.pc], severity, "race",
                  "shared-memory race with an asynchronous copy: the cp.async at " + copy.where + " (" + copy.thread +
                      ") may land at any time until that thread waits for its group, and " + access.thread +
                      (race.warp == race.other_warp ? " (the same warp) " : " (another warp) ") + access_verb(access) +
                      " " + shared_element(race.address) + " at " + access.where +
                      " before then: a __syncthreads() orders when copies are issued, not when they arrive. Have "
                      "the copying threads wait for the group (cp.async.wait_group, __pipeline_wait_prior, a "
                      "pipeline's consumer_wait), then __syncthreads(), before any thread touches those bytes", once);
    return;
  }
  if (race.warp == race.other_warp) {
    // One warp: its steps are the program order of both threads, except across the two sides of a
    // branch (run in either order), which go by the source.
    const bool sides = on_two_sides_of_a_branch(race.pc, race.other_pc);
    const bool in_order = !sides                                      ? ran_first.step <= ran_second.step
                          : ran_first.line > 0 && ran_second.line > 0 ? ran_first.line <= ran_second.line
                                                                      : ran_first.pc <= ran_second.pc;
    const RaceSide& first = in_order ? ran_first : ran_second;
    const RaceSide& second = in_order ? ran_second : ran_first;
    // Back to an earlier instruction (a loop) or line (an unrolled loop) than the first access.
    const bool later_trip =
        !sides && (second.pc <= first.pc || (first.line > 0 && second.line > 0 && second.line < first.line));
    warn_or_error(m_code[first.pc], severity, "race",
                  warp_race_message(first, second, shared_element(race.address), block_name(), race.same_value, sides,
                                    later_trip), once);
    return;
  }
  const bool in_order = std::tie(ran_first.step, ran_first.pc) <= std::tie(ran_second.step, ran_second.pc);
  const RaceSide& first = in_order ? ran_first : ran_second;
  const RaceSide& second = in_order ? ran_second : ran_first;
  warn_or_error(m_code[first.pc], severity, "race",
                race_message(first, second, shared_element(race.address), block_name(), race.same_value,
                             in_a_loop(first.pc) && in_a_loop(second.pc)), once);
}

}  // namespace tilecamp::emu
