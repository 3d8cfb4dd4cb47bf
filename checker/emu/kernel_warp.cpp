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

// What the PTX ISA asks of a .sync instruction's member masks, lane by lane: an executing lane is
// in its own mask, and every lane its mask names either executes the instruction with the same
// mask or has exited (or does not exist: a partial last warp). Disjoint groups may execute one
// instruction together, each with its own mask. A named lane that is alive but took another path
// would make a GPU wait for it at an instruction it never reaches: an error. Reading an exited
// lane's value is checked where it happens (shuffle).
bool KernelRun::check_member_masks(Warp& warp, const Instruction& in, uint32_t lanes, const Operand& mask_operand,
                                   LaneMasks& masks) {
  masks.fill(0);
  for_each_lane(lanes, [&](int lane) { masks[lane] = static_cast<uint32_t>(read(warp, mask_operand, lane)); });
  const std::string where_text = " of warp " + std::to_string(warp.index) + " in block " + block_name();
  uint32_t outside = 0;
  for_each_lane(lanes, [&](int lane) {
    if (!(masks[lane] >> lane & 1u)) outside |= 1u << lane;
  });
  if (outside != 0) {
    fail(in, "warp-sync", "threads " + lane_list(outside) + where_text + " executed `" + in.text +
                              "` but are not in their own member mask " + hex_mask(masks[std::countr_zero(outside)]));
    return false;
  }
  for (int lane = 0; lane < k_warp_size; ++lane) {
    if (!(lanes >> lane & 1u)) continue;
    const uint32_t members = masks[lane];
    uint32_t disagreeing = 0;
    for_each_lane(members & lanes, [&](int other) {
      if (masks[other] != members) disagreeing |= 1u << other;
    });
    if (disagreeing != 0) {
      const int other = std::countr_zero(disagreeing);
      fail(in, "warp-sync", "thread " + std::to_string(lane) + where_text + " executed `" + in.text +
                                "` with member mask " + hex_mask(members) + ", which names thread " +
                                std::to_string(other) + ", but thread " + std::to_string(other) +
                                " executed it with another mask, " + hex_mask(masks[other]) +
                                ": the threads that name each other must pass the same mask");
      return false;
    }
    const uint32_t elsewhere = members & ~lanes & warp.live_mask;
    if (elsewhere != 0) {
      fail(in, "warp-sync",
           "`" + in.text + "` in warp " + std::to_string(warp.index) + " of block " + block_name() + " names threads " +
               lane_list(elsewhere) + " in its member mask " + hex_mask(members) +
               ", but they took another path (only threads " + lane_list(members & lanes) +
               " execute it): pass the mask of the threads that really take part, e.g. __activemask() or a "
               "__ballot_sync of the branch condition");
      return false;
    }
  }
  return true;
}

namespace {

// The lanes executing with the same member mask as `lane`: its group.
uint32_t group_of(const std::array<uint32_t, k_warp_size>& masks, uint32_t lanes, int lane) {
  return masks[lane] & lanes;
}

}  // namespace

void KernelRun::execute_warp_operation(Warp& warp, const Instruction& in, uint32_t lanes) {
  const Operand* op = in.operands.data();
  LaneMasks masks{};
  switch (in.opcode) {
    case ptx::Opcode::Activemask:
      for_each_lane(lanes, [&](int lane) { write(warp, op[0].reg, lane, lanes); });
      return;
    case ptx::Opcode::BarWarp:
      // __syncwarp(): orders the shared accesses of its member lanes before it against theirs after,
      // group by group.
      if (check_member_masks(warp, in, lanes, op[0], masks)) {
        uint32_t done = 0;
        for_each_lane(lanes, [&](int lane) {
          if (done >> lane & 1u) return;
          const uint32_t group = group_of(masks, lanes, lane);
          m_races.warp_synced(warp.index, group, epoch_step(warp));
          done |= group;
        });
      }
      return;
    case ptx::Opcode::Shfl:
      if (check_member_masks(warp, in, lanes, op[4], masks)) shuffle(warp, in, lanes, masks);
      return;
    case ptx::Opcode::Vote: {
      if (!check_member_masks(warp, in, lanes, op[2], masks)) return;
      uint32_t ballot = 0;  // over every executing lane; each group sees only its own lanes' bits
      for_each_lane(lanes, [&](int lane) {
        if (read_predicate(warp, op[1], lane)) ballot |= 1u << lane;
      });
      for_each_lane(lanes, [&](int lane) {
        const uint32_t group = group_of(masks, lanes, lane);
        const uint32_t mine = ballot & group;
        uint64_t value = 0;
        switch (in.sub_op) {
          case SubOp::Ballot: value = mine; break;
          case SubOp::All: value = mine == group; break;
          case SubOp::Any: value = mine != 0; break;
          case SubOp::Uni: value = mine == 0 || mine == group; break;
          default: break;
        }
        write(warp, op[0].reg, lane, value);
      });
      return;
    }
    case ptx::Opcode::Match: {
      if (!check_member_masks(warp, in, lanes, op[2], masks)) return;
      const int bits = ptx::type_bits(in.type);
      for_each_lane(lanes, [&](int lane) {
        const uint32_t group = group_of(masks, lanes, lane);
        const uint64_t mine = truncate_bits(read(warp, op[1], lane), bits);
        uint32_t same = 0;
        for_each_lane(group, [&](int other) {
          if (truncate_bits(read(warp, op[1], other), bits) == mine) same |= 1u << other;
        });
        const bool all_equal = same == group;
        write(warp, op[0].reg, lane, in.sub_op == SubOp::All ? (all_equal ? group : 0) : same);
        if (op[0].elements[0] >= 0) write(warp, op[0].elements[0], lane, all_equal);
      });
      return;
    }
    case ptx::Opcode::Redux: {  // redux.sync.op.type d, a, membermask: a reduction over the group
      if (!check_member_masks(warp, in, lanes, op[2], masks)) return;
      const bool is_signed_type = ptx::is_signed(in.type);
      for_each_lane(lanes, [&](int lane) {
        uint64_t result = 0;
        bool first = true;
        for_each_lane(group_of(masks, lanes, lane), [&](int other) {
          const uint64_t value = truncate_bits(read(warp, op[1], other), 32);
          if (first) {
            result = value;
            first = false;
            return;
          }
          const bool less = is_signed_type ? sign_extend(value, 32) < sign_extend(result, 32) : value < result;
          switch (in.sub_op) {
            case SubOp::Add: result = truncate_bits(result + value, 32); break;
            case SubOp::Min: if (less) result = value; break;
            case SubOp::Max: if (!less) result = value; break;
            case SubOp::And: result &= value; break;
            case SubOp::Or: result |= value; break;
            case SubOp::Xor: result ^= value; break;
            default: break;
          }
        });
        write(warp, op[0].reg, lane, result);
      });
      return;
    }
    default:
      fail(in, "unsupported", "tilecamp's emulator cannot execute `" + in.text + "`");
  }
}

// shfl.sync.MODE.b32 d[|p], a, b, c, membermask -- the PTX ISA's source-lane computation.
void KernelRun::shuffle(Warp& warp, const Instruction& in, uint32_t lanes, const LaneMasks& masks) {
  const Operand* op = in.operands.data();
  std::array<uint64_t, k_warp_size> source_values{};
  for (int lane = 0; lane < k_warp_size; ++lane) source_values[lane] = read(warp, op[1], lane);
  std::array<uint64_t, k_warp_size> results{};
  std::array<bool, k_warp_size> in_range{};
  for_each_lane(lanes, [&](int lane) {
    if (m_failed) return;  // one finding per shuffle: the first lane that reads an undefined value
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
    // Reading a lane outside this lane's group (it exited, does not exist, or executes the shfl
    // with another mask) gives an undefined value on a GPU.
    if (!(group_of(masks, lanes, lane) >> source & 1u)) {
      const char* why = !(warp.live_mask >> source & 1u) ? "which has exited or does not exist"
                        : !(lanes >> source & 1u)        ? "which is not executing this shfl"
                                                         : "which is not in its member mask";
      fail(in, "warp-sync", "thread " + std::to_string(lane) + " of warp " + std::to_string(warp.index) + " in block " +
                                block_name() + " shuffles from lane " + std::to_string(source) + ", " + why +
                                ": the value would be undefined on a GPU");
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
