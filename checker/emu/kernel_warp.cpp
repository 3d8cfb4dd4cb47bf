// Warp-level operations: shfl.sync, vote.sync, match.sync, activemask, bar.warp.sync. Every
// `.sync` form names the lanes that take part; a lane of that mask which is not executing the
// instruction with the others (it took another path, or exited) makes the result undefined on a
// GPU, so the emulator reports it instead of guessing.
#include <bit>

#include "checker/emu/alu.h"
#include "checker/emu/kernel_run.h"

namespace tilecamp::emu {

using ptx::Instruction;
using ptx::Operand;
using ptx::SubOp;

// The member mask of a .sync instruction must be the same in every lane and must name only
// lanes that execute it now. Returns false (after reporting) otherwise.
bool KernelRun::check_member_mask(Warp& warp, const Instruction& in, uint32_t lanes, const Operand& mask_operand,
                                  uint32_t& members) {
  const int first = std::countr_zero(lanes);
  members = static_cast<uint32_t>(read(warp, mask_operand, first));
  bool uniform = true;
  for_each_lane(lanes, [&](int lane) { uniform &= static_cast<uint32_t>(read(warp, mask_operand, lane)) == members; });
  if (!uniform) {
    fail(in, "warp-sync", "the lanes of warp " + std::to_string(warp.index) + " in block " + block_name() +
                              " executed `" + in.text + "` with different member masks");
    return false;
  }
  if ((lanes & ~members) != 0) {
    fail(in, "warp-sync", "threads " + lane_list(lanes & ~members) + " of warp " + std::to_string(warp.index) +
                              " in block " + block_name() + " executed `" + in.text +
                              "` but are not in its member mask " + hex_mask(members));
    return false;
  }
  const uint32_t missing = members & ~lanes;
  if (missing != 0) {
    const bool exited = (missing & ~warp.live_mask) != 0;
    fail(in, "warp-sync",
         "`" + in.text + "` in warp " + std::to_string(warp.index) + " of block " + block_name() + " names threads " +
             lane_list(missing) + " in its member mask " + hex_mask(members) + ", but they " +
             (exited ? "have exited or do not exist" : "took another path") + " (only threads " + lane_list(lanes) +
             " execute it): pass the mask of the threads that really take part, e.g. __activemask() or a __ballot_sync of the branch condition");
    return false;
  }
  return true;
}

void KernelRun::execute_warp_operation(Warp& warp, const Instruction& in, uint32_t lanes) {
  const Operand* op = in.operands.data();
  uint32_t members = 0;
  switch (in.opcode) {
    case ptx::Opcode::Activemask:
      for_each_lane(lanes, [&](int lane) { write(warp, op[0].reg, lane, lanes); });
      return;
    case ptx::Opcode::BarWarp:
      // __syncwarp(): orders the shared accesses of its member lanes before it against theirs after.
      if (check_member_mask(warp, in, lanes, op[0], members)) {
        m_races.warp_synced(warp.index, members, epoch_step(warp));
      }
      return;
    case ptx::Opcode::Shfl:
      if (check_member_mask(warp, in, lanes, op[4], members)) shuffle(warp, in, lanes);
      return;
    case ptx::Opcode::Vote: {
      if (!check_member_mask(warp, in, lanes, op[2], members)) return;
      uint32_t ballot = 0;
      for_each_lane(lanes, [&](int lane) {
        if (read_predicate(warp, op[1], lane)) ballot |= 1u << lane;
      });
      for_each_lane(lanes, [&](int lane) {
        uint64_t value = 0;
        switch (in.sub_op) {
          case SubOp::Ballot: value = ballot; break;
          case SubOp::All: value = ballot == lanes; break;
          case SubOp::Any: value = ballot != 0; break;
          case SubOp::Uni: value = ballot == 0 || ballot == lanes; break;
          default: break;
        }
        write(warp, op[0].reg, lane, value);
      });
      return;
    }
    case ptx::Opcode::Match: {
      if (!check_member_mask(warp, in, lanes, op[2], members)) return;
      const int bits = ptx::type_bits(in.type);
      bool all_equal = true;
      const uint64_t first = truncate_bits(read(warp, op[1], std::countr_zero(lanes)), bits);
      for_each_lane(lanes, [&](int lane) { all_equal &= truncate_bits(read(warp, op[1], lane), bits) == first; });
      for_each_lane(lanes, [&](int lane) {
        uint32_t same = 0;
        const uint64_t mine = truncate_bits(read(warp, op[1], lane), bits);
        for_each_lane(lanes, [&](int other) {
          if (truncate_bits(read(warp, op[1], other), bits) == mine) same |= 1u << other;
        });
        write(warp, op[0].reg, lane, in.sub_op == SubOp::All ? (all_equal ? lanes : 0) : same);
        if (op[0].elements[0] >= 0) write(warp, op[0].elements[0], lane, all_equal);
      });
      return;
    }
    default:
      fail(in, "unsupported", "tilecamp's emulator cannot execute `" + in.text + "`");
  }
}

// shfl.sync.MODE.b32 d[|p], a, b, c, membermask -- the PTX ISA's source-lane computation.
void KernelRun::shuffle(Warp& warp, const Instruction& in, uint32_t lanes) {
  const Operand* op = in.operands.data();
  std::array<uint64_t, k_warp_size> source_values{};
  for (int lane = 0; lane < k_warp_size; ++lane) source_values[lane] = read(warp, op[1], lane);
  std::array<uint64_t, k_warp_size> results{};
  std::array<bool, k_warp_size> in_range{};
  for_each_lane(lanes, [&](int lane) {
    const int b = static_cast<int>(read(warp, op[2], lane) & 0x1f);
    const uint32_t c = static_cast<uint32_t>(read(warp, op[3], lane));
    const int clamp = static_cast<int>(c & 0x1f);
    const int segment = static_cast<int>((c >> 8) & 0x1f);
    const int max_lane = (lane & segment) | (clamp & ~segment);
    const int min_lane = lane & segment;
    int source = lane;
    bool valid = false;
    switch (in.sub_op) {
      case SubOp::Up: source = lane - b; valid = source >= max_lane; break;
      case SubOp::Down: source = lane + b; valid = source <= max_lane; break;
      case SubOp::Bfly: source = lane ^ b; valid = source <= max_lane; break;
      case SubOp::Idx: source = min_lane | (b & ~segment); valid = source <= max_lane; break;
      default: break;
    }
    if (!valid) source = lane;
    if (!(lanes >> source & 1u)) {  // reading a lane that is not taking part: undefined
      fail(in, "warp-sync", "thread " + std::to_string(lane) + " of warp " + std::to_string(warp.index) + " in block " +
                                block_name() + " shuffles from lane " + std::to_string(source) +
                                ", which is not executing this shfl: the value would be undefined on a GPU");
      return;
    }
    results[lane] = source_values[source];
    in_range[lane] = valid;
  });
  if (m_failed) return;
  for_each_lane(lanes, [&](int lane) {
    write(warp, op[0].reg, lane, truncate_bits(results[lane], 32));
    if (op[0].elements[0] >= 0) write(warp, op[0].elements[0], lane, in_range[lane]);
  });
}

}  // namespace tilecamp::emu
