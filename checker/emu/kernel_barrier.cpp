// Block barriers: bar.sync / barrier.sync (with an optional barrier number and thread count),
// bar.red (__syncthreads_count/and/or), and the deadlock and early-exit rules of DESIGN.md.
#include <algorithm>
#include <bit>
#include <map>

#include "checker/emu/kernel_run.h"

namespace tilecamp::emu {

using ptx::Instruction;
using ptx::Opcode;

namespace {

constexpr uint32_t k_barrier_count = 16;  // named barriers 0..15, as on the hardware

}  // namespace

// Lanes waiting at `pending` are leaving if they can reach no barrier and will run none of the
// code the barrier's lanes run after `barrier` (other than the final `ret` they share).
bool KernelRun::is_leaving(uint32_t pending, uint32_t barrier) const {
  const uint32_t n = static_cast<uint32_t>(m_code.size());
  auto reachable = [&](uint32_t from, auto&& visit) {  // visit(pc) returns true to stop
    std::vector<bool> seen(n + 1, false);
    std::vector<uint32_t> work{from};
    while (!work.empty()) {
      const uint32_t pc = work.back();
      work.pop_back();
      if (pc >= n || seen[pc]) continue;
      seen[pc] = true;
      if (visit(pc)) return true;
      const Instruction& in = m_code[pc];
      const bool guarded = in.guard >= 0;
      if (in.opcode == Opcode::Bra) work.push_back(in.target);
      if ((in.opcode != Opcode::Bra && in.opcode != Opcode::Ret && in.opcode != Opcode::Exit) || guarded) {
        work.push_back(pc + 1);
      }
    }
    return false;
  };
  if (pending >= n) return true;
  auto is_barrier = [&](uint32_t pc) { return m_code[pc].opcode == Opcode::Bar || m_code[pc].opcode == Opcode::BarRed; };
  if (reachable(pending, is_barrier)) return false;
  auto is_exit = [&](uint32_t pc) {
    return (m_code[pc].opcode == Opcode::Ret || m_code[pc].opcode == Opcode::Exit) && m_code[pc].guard < 0;
  };
  if (is_exit(pending)) return true;
  return !reachable(barrier + 1, [&](uint32_t pc) { return pc == pending; });
}

// bar.sync a{, b}   bar.red.OP d, a{, b}, {!}c
void KernelRun::barrier(Warp& warp, const Instruction& in, uint32_t lanes) {
  const uint32_t pc = warp.stack.back().pc;
  const bool reduces = in.opcode == Opcode::BarRed;
  const int first_operand = reduces ? 1 : 0;
  const int lane = std::countr_zero(lanes);
  const uint32_t id = static_cast<uint32_t>(read(warp, in.operands[first_operand], lane));
  const bool counted = in.operand_count > first_operand + (reduces ? 2 : 1);
  const uint32_t expected = counted ? static_cast<uint32_t>(read(warp, in.operands[first_operand + 1], lane)) : 0;
  if (id >= k_barrier_count) {
    fail(in, "barrier", "barrier number " + std::to_string(id) + " is out of range (0 to 15)");
    return;
  }
  if (counted && (expected == 0 || expected % k_warp_size != 0)) {
    fail(in, "barrier", "a barrier's thread count must be a positive multiple of 32, not " + std::to_string(expected));
    return;
  }
  if (in.sub_op == ptx::SubOp::Arrive) {
    // bar.arrive: the threads count towards the barrier's next release and go on (a producer
    // telling consumers waiting with bar.sync that its data is there).
    m_arrivals[id] += static_cast<uint32_t>(std::popcount(lanes));
    return;
  }
  if (lanes != warp.live_mask) {
    // Where are the other lanes? Lanes on their way out (the early-return pattern) count as
    // arrived, with a warning at release; lanes with more code to run are a deadlock.
    const uint32_t others = warp.live_mask & ~lanes;
    std::string elsewhere;
    uint32_t leaving = 0;
    for (auto it = warp.stack.rbegin(); it != warp.stack.rend(); ++it) {
      const uint32_t held = it->mask & others & ~leaving;
      if (held == 0) continue;
      if (is_leaving(it->pc, pc)) {
        leaving |= held;
      } else if (elsewhere.empty()) {
        elsewhere = it->pc < m_code.size() ? "at " + where(it->pc) : "about to exit";
      }
    }
    if (leaving != others) {
      // Whatever was said about threads leaving before this barrier is superseded: the barrier is
      // the problem, not the exit.
      for (size_t i = m_diagnostics.size(); i-- > 0;) {
        if (m_diagnostics[i].kind == "early-exit-barrier" && m_diagnostics[i].line == in.location.line) {
          m_diagnostics.erase(m_diagnostics.begin() + static_cast<std::ptrdiff_t>(i));
          m_once_keys.erase(m_once_keys.begin() + static_cast<std::ptrdiff_t>(i));
        }
      }
      fail(in, "deadlock",
           "deadlock: threads " + lane_list(lanes) + " of warp " + std::to_string(warp.index) + " in block " +
               block_name() + " wait at the barrier at " + where(pc) + "; threads " + lane_list(others & ~leaving) +
               " of the same warp took another path (" + elsewhere +
               ") and will not arrive. A __syncthreads() that some threads of the block never reach is "
               "undefined (PTX's barriers are .aligned): on a GPU it hangs when the others are still running or "
               "wait at another barrier, and otherwise lets the block run on unsynchronized. Move it out of the "
               "branch, so that every thread reaches it");
      return;
    }
    warp.leaving_mask = leaving;
  }
  if (reduces) {
    BarrierReduction& reduction = m_reductions[id];
    const ptx::Operand& predicate = in.operands[in.operand_count - 1];
    for (int l = 0; l < k_warp_size; ++l) {
      if (!(lanes >> l & 1u)) continue;
      const bool value = read_predicate(warp, predicate, l);
      reduction.count += value;
      reduction.all &= value;
      reduction.any |= value;
    }
  }
  warp.state = Warp::State::AtBarrier;
  warp.barrier_pc = pc;
  warp.barrier_id = id;
  warp.barrier_expected = expected;
}

// Every warp still running is blocked at a barrier. Release each barrier whose threads have all
// arrived; if none can be released, the block is deadlocked.
void KernelRun::release_barrier(std::vector<Warp>& warps) {
  uint32_t alive = 0;
  std::map<uint32_t, std::vector<Warp*>> waiting;  // barrier id -> warps waiting at it
  for (Warp& warp : warps) {
    if (warp.state == Warp::State::Done) continue;
    alive += std::popcount(warp.live_mask);
    waiting[warp.barrier_id].push_back(&warp);
  }
  bool released = false;
  for (auto& [id, group] : waiting) {
    uint32_t arrived = 0, expected = 0;
    for (const Warp* warp : group) {
      arrived += std::popcount(warp->live_mask);
      expected = std::max(expected, warp->barrier_expected);
    }
    if (expected == 0) expected = alive;  // a whole-block barrier
    const uint32_t waiting_threads = arrived;
    arrived += m_arrivals[id];  // threads that arrived with bar.arrive and went on
    if (arrived < expected) continue;
    m_arrivals[id] -= std::min(m_arrivals[id], expected - std::min(expected, waiting_threads));
    if (expected == alive) warn_split_barrier(group);
    warn_early_exit(group);
    for (Warp* warp : group) {
      const Instruction& in = m_code[warp->barrier_pc];
      if (in.opcode == Opcode::BarRed) deliver_reduction(*warp, in, m_reductions[id]);
      warp->state = Warp::State::Running;
      warp->leaving_mask = 0;
      warp->stack.back().pc = warp->barrier_pc + 1;
    }
    m_reductions[id] = BarrierReduction{};
    if (m_config.observer) observe_barrier(m_code[group.front()->barrier_pc]);
    flush_warp_races();
    warn_uninitialized_reads();
    m_shared_written.note_barrier();
    m_races.barrier_released();
    for (Warp& warp : warps) warp.epoch_start = warp.executed;  // program order restarts with the epoch
    copies_still_in_flight(warps);
    released = true;
  }
  if (released) return;
  std::string groups;
  for (const auto& [id, group] : waiting) {
    uint32_t arrived = 0;
    for (const Warp* warp : group) arrived += std::popcount(warp->live_mask);
    groups += "; " + std::to_string(arrived) + " thread(s) wait at barrier " + std::to_string(id) + " (" +
              where(group.front()->barrier_pc) + ") for " +
              std::to_string(group.front()->barrier_expected ? group.front()->barrier_expected : alive);
  }
  fail(m_code[waiting.begin()->second.front()->barrier_pc], "deadlock",
       "deadlock in block " + block_name() + ": no barrier can complete" + groups);
}

// Warps waiting at different __syncthreads() lines: undefined by CUDA, but every one is
// `bar.sync 0`, whose arrivals a GPU counts together, so once all have arrived it releases them as
// one barrier (an H200 did, as SGEMM_CUDA's kernel 11 relies on). The emulator does the same and
// warns, once per set of lines; a block whose arrivals never add up is reported as a deadlock.
void KernelRun::warn_split_barrier(const std::vector<Warp*>& group) {
  std::map<uint32_t, uint32_t> warps_at;  // barrier pc -> mask of warp indices waiting there
  for (const Warp* warp : group) warps_at[warp->barrier_pc] |= 1u << (warp->index % 32);
  if (warps_at.size() == 1) return;
  const uint32_t pc = std::prev(warps_at.end())->first;
  if (std::find(m_warned_barriers.begin(), m_warned_barriers.end(), pc) != m_warned_barriers.end()) return;
  m_warned_barriers.push_back(pc);
  std::string places;
  for (const auto& [at, warps] : warps_at) {
    places += std::string(places.empty() ? "" : ", ") + (std::popcount(warps) == 1 ? "warp " : "warps ") +
              lane_list(warps) + (std::popcount(warps) == 1 ? " waits" : " wait") + " at the barrier at " + where(at);
  }
  const std::string once = "barrier:" + std::to_string(pc);
  warn(m_code[pc], "split-barrier",
       "in block " + block_name() + ", " + places +
           ". CUDA requires every thread of a block to reach the same __syncthreads(); these are all bar.sync 0, "
           "so a GPU counts their arrivals together and releases them as one barrier (an H200 does, and so does "
           "the emulator), but nothing in CUDA promises it and compute-sanitizer's synccheck reports it. Move "
           "the barrier out of the branch",
       once);
}

void KernelRun::warn_early_exit(const std::vector<Warp*>& group) {
  const uint32_t pc = group.front()->barrier_pc;
  uint32_t waiting = 0, leaving = 0;
  for (const Warp* warp : group) {
    waiting += std::popcount(warp->live_mask & ~warp->leaving_mask);
    leaving += std::popcount(warp->leaving_mask);
  }
  if (m_block_exited + leaving == 0 || group.front()->barrier_expected != 0) return;
  if (std::find(m_warned_barriers.begin(), m_warned_barriers.end(), pc) != m_warned_barriers.end()) return;
  m_warned_barriers.push_back(pc);
  const std::string once = "barrier:" + std::to_string(pc);
  warn(m_code[pc], "early-exit-barrier",
       std::to_string(m_block_exited + leaving) + " thread(s) of block " + block_name() +
           " exited (a return, or the end of the kernel) without reaching the barrier at " + where(pc) +
           " that the other " + std::to_string(waiting) +
           " wait at. PTX defines this: a barrier waits only for threads that have not exited, so it "
           "completes. The course flags it because threads that leave early skip their share of the block's "
           "work after it (a halo load, part of a tile), and a later full-warp __shfl_sync() with exited "
           "lanes is undefined: keep every thread to the end and guard only the memory accesses",
       once);
}

void KernelRun::deliver_reduction(Warp& warp, const Instruction& in, const BarrierReduction& reduction) {
  const uint32_t lanes = warp.live_mask & ~warp.leaving_mask;
  uint64_t value = 0;
  switch (in.sub_op) {
    case ptx::SubOp::Popc: value = reduction.count; break;
    case ptx::SubOp::And: value = reduction.all; break;
    case ptx::SubOp::Or: value = reduction.any; break;
    default: break;
  }
  for (int lane = 0; lane < k_warp_size; ++lane) {
    if (lanes >> lane & 1u) write(warp, in.operands[0].reg, lane, value);
  }
}

}  // namespace tilecamp::emu
