// mbarrier: the split arrive/wait barriers in shared memory behind cuda::barrier and
// cuda::pipeline. Each is modelled by its state (expected and pending arrivals, the phase), kept
// beside the block's shared memory at the barrier's address; its 8 bytes hold nothing readable.
//
//   mbarrier.init [b], count          expected = pending = count, phase 0
//   mbarrier.arrive state, [b]{, n}   pending -= n (1); the returned state names the phase
//   mbarrier.arrive_drop              the same, and expected -= n for the phases after
//   mbarrier.try_wait / test_wait     p = the phase `state` names has completed (.parity: the
//                                     phase of that parity)
//   cp.async.mbarrier.arrive [b]      the thread's cp.async so far land when the phase completes
//                                     (.noinc: and count as one of its arrivals)
//
// A phase completes when its pending count reaches 0: the tracked copies land, the phase turns,
// and pending starts again at expected. A barrier every thread of the block takes part in orders
// their shared accesses as __syncthreads() does (the race detector starts a new epoch).
#include <bit>

#include "checker/emu/kernel_run.h"

namespace tilecamp::emu {

using ptx::Instruction;
using ptx::SubOp;

void KernelRun::execute_mbarrier(Warp& warp, const Instruction& in, uint32_t lanes) {
  const ptx::Operand* op = in.operands.data();
  const bool arrives_copies = in.opcode == ptx::Opcode::CpAsyncMbarrierArrive;
  const ptx::Operand& address_operand = arrives_copies || in.sub_op == SubOp::MbInit || in.sub_op == SubOp::MbInval ? op[0] : op[1];
  Instruction shared_side = in;
  shared_side.space = ptx::Space::Shared;
  shared_side.opcode = ptx::Opcode::Ld;
  WarpAccess access;
  if (!resolve_access(warp, shared_side, address_operand, lanes, 8, access)) return;
  for_each_lane(lanes, [&](int lane) {
    if (m_failed) return;
    const uint32_t offset = static_cast<uint32_t>(access.addresses[1][lane]);
    if (in.sub_op == SubOp::MbInit && !arrives_copies) {
      const uint32_t count = static_cast<uint32_t>(read(warp, op[1], lane));
      m_mbarriers[offset] = Mbarrier{count, count, 0, {}};
      return;
    }
    auto found = m_mbarriers.find(offset);
    if (found == m_mbarriers.end()) {
      fail(in, "mbarrier", thread_name(warp, lane) + " uses the mbarrier at byte " + std::to_string(offset) +
                               " of shared memory before any thread initialized it (mbarrier.init, cuda::barrier's "
                               "init(), or a pipeline's shared state made with cuda::make_pipeline)");
      return;
    }
    Mbarrier& barrier = found->second;
    if (arrives_copies) {
      // The thread's copies so far, committed or not, now land with the barrier's phase.
      auto take = [&](std::vector<PendingCopy>& copies) {
        for (auto it = copies.begin(); it != copies.end();) {
          if (it->lane != lane) { ++it; continue; }
          barrier.copies.push_back(*it);
          it = copies.erase(it);
        }
      };
      take(warp.open_copies);
      for (std::vector<PendingCopy>& group : warp.committed_copies) take(group);
      if (in.sub_op == SubOp::NoInc) arrive_on(barrier, 1);
      return;
    }
    switch (in.sub_op) {
      case SubOp::MbInval:
        m_mbarriers.erase(found);
        return;
      case SubOp::MbArrive:
      case SubOp::MbArriveDrop: {
        const uint32_t count = in.operand_count > 2 ? static_cast<uint32_t>(read(warp, op[2], lane)) : 1;
        if (op[0].kind == ptx::Operand::Kind::Register) write(warp, op[0].reg, lane, barrier.phase);
        if (in.sub_op == SubOp::MbArriveDrop) barrier.expected -= std::min(barrier.expected, count);
        if (count > barrier.pending) {
          fail(in, "mbarrier", thread_name(warp, lane) + " arrives at the mbarrier at byte " + std::to_string(offset) +
                                   " of shared memory more times than its phase expects (" +
                                   std::to_string(barrier.expected) + " arrivals): its count was initialized too low");
          return;
        }
        arrive_on(barrier, count);
        return;
      }
      case SubOp::MbTryWait:
      case SubOp::MbTestWait: {
        const uint64_t asked = read(warp, op[2], lane);
        const bool complete = in.parity ? (barrier.phase & 1) != (asked & 1) : barrier.phase != asked;
        write(warp, op[0].reg, lane, complete ? 1 : 0);
        return;
      }
      default:
        return;
    }
  });
}

void KernelRun::arrive_on(Mbarrier& barrier, uint32_t count) {
  barrier.pending -= count;
  if (barrier.pending != 0) return;
  for (const PendingCopy& copy : barrier.copies) land_copy(copy);
  barrier.copies.clear();
  ++barrier.phase;
  barrier.pending = barrier.expected;
  // Every thread of the block arrived: what each did before its arrival comes before what any
  // does after its wait, as with a __syncthreads().
  uint32_t live = 0;
  for (const Warp& warp : *m_block_warps) live += std::popcount(warp.live_mask);
  if (barrier.expected >= live) {
    flush_warp_races();
    m_races.barrier_released();
    for (Warp& warp : *m_block_warps) warp.epoch_start = warp.executed;
  }
}

}  // namespace tilecamp::emu
