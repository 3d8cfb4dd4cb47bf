// cp.async: copies from global to shared memory that land only when the thread waits for their
// group (cp.async.wait_group / wait_all). The source is read when the copy is issued; the shared
// destination is written at the wait, so a kernel that reads the tile before waiting sees the
// old contents, as it may on a GPU.
#include <bit>
#include <cstring>

#include "checker/emu/kernel_run.h"

namespace tilecamp::emu {

using ptx::Instruction;

// cp.async.CACHE.shared.global [dst], [src], cp-size{, src-size}
void KernelRun::copy_async(Warp& warp, const Instruction& in, uint32_t lanes) {
  const ptx::Operand* op = in.operands.data();
  const uint32_t size = static_cast<uint32_t>(read(warp, op[2], std::countr_zero(lanes)));
  if (size != 4 && size != 8 && size != 16) {
    fail(in, "unsupported", "cp.async copies 4, 8 or 16 bytes, not " + std::to_string(size));
    return;
  }
  Instruction global_side = in;  // resolve the source as a global load of `size` bytes
  global_side.space = ptx::Space::Global;
  global_side.opcode = ptx::Opcode::Ld;
  WarpAccess source;
  if (!resolve_access(warp, global_side, op[1], lanes, size, source)) return;
  Instruction shared_side = in;
  shared_side.space = ptx::Space::Shared;
  shared_side.opcode = ptx::Opcode::St;
  WarpAccess destination;
  if (!resolve_access(warp, shared_side, op[0], lanes, size, destination)) return;
  // Counted as Nsight Compute counts LDGSTS on an H200: a global load of `size` bytes a lane (its
  // requests, sectors, bytes; a load round like any global load); its write into shared memory is
  // no shared store there (l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st counts 0).
  const ChargedAccess charged = count_access(in, source, size, false);
  if (m_config.observer) observe_access(warp, in, source, size, charged);  // its global load, what it copies
  if (!std::exchange(warp.load_round_open, true)) ++m_counters[&in - m_code.data()].global_ld_rounds;
  if (!std::exchange(warp.has_loaded, true)) ++m_counters[&in - m_code.data()].loading_warps;
  ++m_counters[&in - m_code.data()].shared_async_st_requests;  // no hardware counter: for `requires` only
  for (int lane = 0; lane < k_warp_size; ++lane) {
    if (!(lanes >> lane & 1u)) continue;
    PendingCopy copy;
    copy.shared_offset = static_cast<uint32_t>(destination.addresses[1][lane]);
    copy.bytes = size;
    // src-size < cp-size: only that many bytes are read, the rest of the destination is zeroed.
    const uint32_t read_bytes =
        in.operand_count > 3 && op[3].kind != ptx::Operand::Kind::None
            ? std::min<uint32_t>(size, static_cast<uint32_t>(read(warp, op[3], lane)))
            : size;
    std::memcpy(copy.data.data(), source.pointers[lane], read_bytes);
    copy.pc = static_cast<uint32_t>(&in - m_code.data());
    copy.lane = lane;
    warp.open_copies.push_back(copy);
  }
  // The copy may land at any time until the wait: for the race detector it writes now as well as
  // when it lands (wait_copies).
  SharedAccess shared{.warp = warp.index, .lanes = destination.lanes[1], .addresses = &destination.addresses[1],
                      .bytes = size, .is_write = true, .pc = static_cast<uint32_t>(&in - m_code.data()),
                      .step = epoch_step(warp)};
  if (auto race = m_races.record(shared)) report_race(*race);
}

// A barrier orders the issue of a cp.async, not its arrival: the copies no wait has completed
// yet may still land in the new epoch, so they write there too, first in program order. A thread
// that reads (or writes) their bytes before the copying thread waits for them races with the copy.
void KernelRun::copies_still_in_flight(std::vector<Warp>& warps) {
  for (Warp& warp : warps) {
    for (const PendingCopy& copy : warp.open_copies) record_copy_write(warp.index, copy, 0);
    for (const std::vector<PendingCopy>& group : warp.committed_copies) {
      for (const PendingCopy& copy : group) record_copy_write(warp.index, copy, 0);
    }
  }
}

void KernelRun::record_copy_write(uint32_t warp, const PendingCopy& copy, uint32_t step) {
  LaneAddresses address;
  address[copy.lane] = copy.shared_offset;
  SharedAccess shared{.warp = warp, .lanes = 1u << copy.lane, .addresses = &address, .bytes = copy.bytes,
                      .is_write = true, .pc = copy.pc, .step = step};
  if (auto race = m_races.record(shared)) report_race(*race);
}

void KernelRun::land_copy(const PendingCopy& copy) {
  std::memcpy(m_shared.data() + copy.shared_offset, copy.data.data(), copy.bytes);
  m_shared_written.mark(copy.shared_offset, copy.bytes);
}

void KernelRun::commit_copies(Warp& warp) {
  warp.committed_copies.push_back(std::move(warp.open_copies));
  warp.open_copies.clear();
}

// Completes every committed group but the `keep` most recent ones.
void KernelRun::wait_copies(Warp& warp, size_t keep) {
  while (warp.committed_copies.size() > keep) {
    for (const PendingCopy& copy : warp.committed_copies.front()) {
      land_copy(copy);
      record_copy_write(warp.index, copy, epoch_step(warp));
    }
    warp.committed_copies.pop_front();
  }
}

void KernelRun::execute_async_copy(Warp& warp, const Instruction& in, uint32_t lanes) {
  switch (in.opcode) {
    case ptx::Opcode::CpAsync:
      copy_async(warp, in, lanes);
      return;
    case ptx::Opcode::CpAsyncCommit:
      commit_copies(warp);
      return;
    case ptx::Opcode::CpAsyncWait:
      if (in.sub_op == ptx::SubOp::WaitAll) {
        commit_copies(warp);
        wait_copies(warp, 0);
      } else {
        wait_copies(warp, static_cast<size_t>(read(warp, in.operands[0], std::countr_zero(lanes))));
      }
      return;
    default:
      return;
  }
}

}  // namespace tilecamp::emu
