// atom and red: read-modify-write on global or shared memory. The lanes of a warp apply their
// operations one after another in lane order, so results are deterministic.
#include <algorithm>
#include <array>
#include <bit>
#include <cstring>

#include "checker/emu/alu.h"
#include "checker/emu/kernel_run.h"

namespace tilecamp::emu {

using ptx::Instruction;
using ptx::SubOp;
using ptx::Type;

namespace {

template <typename F>
uint64_t float_add(uint64_t old, uint64_t operand) {
  F a, b;
  std::memcpy(&a, &old, sizeof(F));
  std::memcpy(&b, &operand, sizeof(F));
  const F sum = a + b;
  uint64_t bits = 0;
  std::memcpy(&bits, &sum, sizeof(F));
  return bits;
}

// The new memory value; `ok` is false for a combination the PTX ISA does not define.
uint64_t apply(SubOp op, Type type, uint64_t old, uint64_t b, uint64_t c, bool& ok) {
  const int bits = ptx::type_bits(type);
  const bool is_signed_type = ptx::is_signed(type);
  const int64_t so = sign_extend(old, bits), sb = sign_extend(b, bits);
  const uint64_t uo = truncate_bits(old, bits), ub = truncate_bits(b, bits);
  ok = true;
  switch (op) {
    case SubOp::Add:
      if (type == Type::F16 || type == Type::F16x2 || type == Type::BF16 || type == Type::BF16x2) {
        // atom.add.noftz.f16x2 (atomicAdd on __half2): each half rounded to nearest even, as add.rn.
        Instruction add;
        add.opcode = ptx::Opcode::Add;
        add.type = type;
        add.rounding = ptx::Rounding::Rn;
        return alu_float(add, AluSources{old, b});
      }
      if (type == Type::F32) return float_add<float>(old, b);
      if (type == Type::F64) return float_add<double>(old, b);
      return truncate_bits(uo + ub, bits);
    case SubOp::Min:
      if (ptx::is_float(type)) break;
      return is_signed_type ? truncate_bits(static_cast<uint64_t>(std::min(so, sb)), bits) : std::min(uo, ub);
    case SubOp::Max:
      if (ptx::is_float(type)) break;
      return is_signed_type ? truncate_bits(static_cast<uint64_t>(std::max(so, sb)), bits) : std::max(uo, ub);
    case SubOp::Exch: return ub;
    case SubOp::Cas: return uo == ub ? truncate_bits(c, bits) : uo;
    case SubOp::And: return uo & ub;
    case SubOp::Or: return uo | ub;
    case SubOp::Xor: return uo ^ ub;
    case SubOp::Inc: return uo >= ub ? 0 : truncate_bits(uo + 1, bits);
    case SubOp::Dec: return (uo == 0 || uo > ub) ? ub : uo - 1;
    default: break;
  }
  ok = false;
  return old;
}

// The registers of `function` whose value is the same in every lane of a warp by construction:
// made only from kernel parameters, immediates and the block's and grid's sizes and indices. A
// register any instruction writes from something else (a thread index, a load, a shuffle, a
// register that is not uniform, or under a guard that is not) is not. Flow-insensitive, as
// ptxas's test for a uniform address is for the atomics it aggregates.
std::vector<bool> uniform_registers(const std::vector<Instruction>& code) {
  int32_t registers = 0;
  auto note = [&](int32_t reg) { registers = std::max(registers, reg + 1); };
  for (const Instruction& in : code) {
    note(in.guard);
    for (int i = 0; i < in.operand_count; ++i) {
      note(in.operands[i].reg);
      for (int32_t element : in.operands[i].elements) note(element);
    }
  }
  std::vector<bool> uniform(static_cast<size_t>(registers), true);
  auto special_uniform = [](ptx::SpecialRegister r) {
    using S = ptx::SpecialRegister;
    return r == S::Ntid || r == S::Ctaid || r == S::Nctaid || r == S::Gridid || r == S::Nwarpid || r == S::Nsmid ||
           r == S::Envreg || r == S::DynamicSmemSize || r == S::TotalSmemSize || r == S::AggrSmemSize;
  };
  auto source_uniform = [&](const ptx::Operand& operand) {
    if (operand.reg >= 0 && !uniform[static_cast<size_t>(operand.reg)]) return false;
    if (operand.kind == ptx::Operand::Kind::Special) return special_uniform(operand.special);
    if (operand.kind == ptx::Operand::Kind::Vector) {
      for (int e = 0; e < operand.count; ++e) {
        if (operand.elements[e] >= 0 && !uniform[static_cast<size_t>(operand.elements[e])]) return false;
      }
    }
    return true;
  };
  for (bool changed = true; changed;) {
    changed = false;
    for (const Instruction& in : code) {
      if (in.operand_count == 0) continue;
      const ptx::Operand& destination = in.operands[0];
      if (destination.kind != ptx::Operand::Kind::Register && destination.kind != ptx::Operand::Kind::Vector) continue;
      bool result = !(in.guard >= 0 && !uniform[static_cast<size_t>(in.guard)]);
      using ptx::Opcode;
      if (in.opcode == Opcode::Ld && in.space != ptx::Space::Param) result = false;
      if (in.opcode == Opcode::Atom || in.opcode == Opcode::Shfl || in.opcode == Opcode::Vote ||
          in.opcode == Opcode::Match || in.opcode == Opcode::Activemask) {
        result = false;
      }
      for (int i = 1; i < in.operand_count && result; ++i) result = source_uniform(in.operands[i]);
      if (result) continue;
      auto mark = [&](int32_t reg) {
        if (reg >= 0 && uniform[static_cast<size_t>(reg)]) {
          uniform[static_cast<size_t>(reg)] = false;
          changed = true;
        }
      };
      mark(destination.reg);
      if (destination.kind == ptx::Operand::Kind::Vector) {
        for (int e = 0; e < destination.count; ++e) mark(destination.elements[e]);
      }
    }
  }
  return uniform;
}

// L2's passes over one warp's global atomic: for each sector, as many as the most lanes on one
// of its words (the words of a sector are updated together, one update per word a pass).
struct AtomicPasses {
  std::array<std::pair<uint64_t, uint32_t>, 32> words{};    // each word and its lanes
  std::array<std::pair<uint64_t, uint32_t>, 32> sectors{};  // each sector (its address) and its passes
  int word_count = 0, sector_count = 0;
};

// Adds `count` to the entry of `key` in `entries` (made with 0 if new), or raises it to `count`
// when `most`.
template <size_t N>
void tally(std::array<std::pair<uint64_t, uint32_t>, N>& entries, int& used, uint64_t key, uint32_t count, bool most) {
  int i = 0;
  while (i < used && entries[i].first != key) ++i;
  if (i == used) entries[used++] = {key, 0};
  entries[i].second = most ? std::max(entries[i].second, count) : entries[i].second + count;
}

AtomicPasses atomic_passes(const LaneAddresses& addresses, uint32_t lanes) {
  AtomicPasses passes;
  for (uint32_t rest = lanes; rest != 0; rest &= rest - 1) {
    tally(passes.words, passes.word_count, addresses[std::countr_zero(rest)], 1, false);
  }
  for (int w = 0; w < passes.word_count; ++w) {
    tally(passes.sectors, passes.sector_count, passes.words[w].first / 32 * 32, passes.words[w].second, true);
  }
  return passes;
}

}  // namespace

bool KernelRun::warp_uniform_atomic(const Instruction& in) {
  const size_t pc = static_cast<size_t>(&in - m_code.data());
  if (m_warp_uniform_atomic.empty()) {
    m_warp_uniform_atomic.assign(m_code.size(), -1);
    const std::vector<bool> uniform = uniform_registers(m_code);
    auto is_uniform = [&](const ptx::Operand& operand) {
      if (operand.kind == ptx::Operand::Kind::Immediate) return true;
      if (operand.kind == ptx::Operand::Kind::Register || operand.kind == ptx::Operand::Kind::Address) {
        return operand.reg < 0 || uniform[static_cast<size_t>(operand.reg)];
      }
      return false;
    };
    for (size_t i = 0; i < m_code.size(); ++i) {
      const Instruction& atomic = m_code[i];
      if (atomic.opcode != ptx::Opcode::Atom && atomic.opcode != ptx::Opcode::Red) continue;
      const int first = atomic.opcode == ptx::Opcode::Atom ? 1 : 0;
      // What ptxas was seen to aggregate on the H200 (bench/atomics_gpu.sh): an integer add of a
      // uniform value to a uniform address, as a vote, a popc and one atomic from one lane.
      const bool integer_add = atomic.sub_op == SubOp::Add && !ptx::is_float(atomic.type);
      m_warp_uniform_atomic[i] = integer_add && atomic.operand_count == first + 2 && is_uniform(atomic.operands[first]) &&
                                 is_uniform(atomic.operands[first + 1]) && (atomic.guard < 0 || uniform[static_cast<size_t>(atomic.guard)]);
    }
  }
  return m_warp_uniform_atomic[pc] == 1;
}

void KernelRun::count_atomic_passes(uint32_t pc, uint64_t key, uint64_t passes, bool region) {
  if (m_atomic_hot.deferred) {
    m_atomic_hot.recorded.push_back({key, static_cast<uint32_t>(passes), pc, region});
    return;
  }
  uint64_t& on_key = (region ? m_atomic_hot.regions : m_atomic_hot.words)[key];
  on_key += passes;
  uint64_t& most = region ? m_atomic_hot.region_most : m_atomic_hot.word_most;
  if (on_key <= most) return;
  (region ? m_counters[pc].global_atom_region_chain : m_counters[pc].global_atom_chain) += on_key - most;
  most = on_key;
}

// atom.SPACE.OP.TYPE d, [a], b{, c}    red.SPACE.OP.TYPE [a], b
void KernelRun::atomic_access(Warp& warp, const Instruction& in, uint32_t lanes) {
  const bool returns = in.opcode == ptx::Opcode::Atom;
  const int first = returns ? 1 : 0;
  const ptx::Operand& address_operand = in.operands[first];
  const uint32_t bytes = static_cast<uint32_t>(ptx::type_bits(in.type) / 8);
  const bool half = in.type == Type::F16 || in.type == Type::BF16;
  if (in.vector != 1 || (bytes != 4 && bytes != 8 && !(bytes == 2 && half))) {
    fail(in, "unsupported", "tilecamp's emulator supports 32- and 64-bit scalar atomics and 16-bit float adds, not `" +
                                in.text + "`");
    return;
  }
  WarpAccess access;
  if (!resolve_access(warp, in, address_operand, lanes, bytes, access)) return;
  Counters& counters = m_counters[&in - m_code.data()];
  if (const uint32_t global = access.lanes[k_global_slot]) {
    ++counters.global_atom_requests;
    counters.global_atom_bytes += uint64_t{bytes} * std::popcount(global);
    const uint32_t pc = static_cast<uint32_t>(&in - m_code.data());
    // ptxas aggregates a uniform add: one lane adds the warp's sum, one pass.
    const uint32_t passing = warp_uniform_atomic(in) ? global & (0u - global) : global;
    const AtomicPasses passes = atomic_passes(access.addresses[k_global_slot], passing);
    for (int w = 0; w < passes.word_count; ++w) count_atomic_passes(pc, passes.words[w].first, passes.words[w].second, false);
    // Sector passes by 1 KB region (counted from the buffer's start, as cudaMalloc aligns it): a
    // region's sectors are served one pass after another.
    std::array<std::pair<uint64_t, uint32_t>, 32> regions{};
    int region_count = 0;
    for (int s = 0; s < passes.sector_count; ++s) {
      const auto [sector, sector_passes] = passes.sectors[s];
      counters.global_atom_sectors += sector_passes;
      const DeviceBuffer* buffer = m_memory.find(sector, 1);
      const uint64_t base = buffer != nullptr ? buffer->address : 0;
      tally(regions, region_count, base + ((sector - base) & ~uint64_t{1023}), sector_passes, false);
    }
    for (int r = 0; r < region_count; ++r) count_atomic_passes(pc, regions[r].first, regions[r].second, true);
  }
  if (access.lanes[k_shared_slot]) {
    // An H200 adds floats in shared memory by a compare-and-swap loop (ptxas's code for
    // atom.shared.add.f32): integer operations are one ATOMS.
    const bool loop = ptx::is_float(in.type);
    const SharedAtomicCost cost = count_shared_atomic(access.addresses[k_shared_slot], access.lanes[k_shared_slot], bytes, loop);
    counters.shared_atom_requests += cost.atomic_requests;
    counters.shared_atom_wavefronts += cost.atomic_wavefronts;
    counters.shared_atom_bank_conflicts += cost.atomic_bank_conflicts;
    counters.shared_ld_requests += cost.load_requests;
    counters.shared_ld_wavefronts += cost.load_wavefronts;
    SharedAccess shared{.warp = warp.index, .lanes = access.lanes[1], .addresses = &access.addresses[1], .bytes = bytes,
                        .is_atomic = true, .pc = static_cast<uint32_t>(&in - m_code.data()), .step = epoch_step(warp)};
    if (auto race = m_races.record(shared)) report_race(*race);
    m_shared_written.mark(access.addresses[1], access.lanes[1], bytes);
    // Acquire, then release, through the word (a read-modify-write continues what it released).
    using Semantics = ptx::Instruction::Semantics;
    const uint64_t word = access.addresses[1][std::countr_zero(access.lanes[1])];
    if (in.semantics == Semantics::Acquire || in.semantics == Semantics::AcqRel) m_races.acquire(warp.index, word);
    if (in.semantics == Semantics::Release || in.semantics == Semantics::AcqRel) {
      m_races.release(warp.index, epoch_step(warp), word, true);
    }
  }
  for (int lane = 0; lane < k_warp_size; ++lane) {
    if (!(lanes >> lane & 1u)) continue;
    uint64_t old = 0;
    std::memcpy(&old, access.pointers[lane], bytes);
    const uint64_t b = read(warp, in.operands[first + 1], lane);
    const uint64_t c = in.operand_count > first + 2 ? read(warp, in.operands[first + 2], lane) : 0;
    bool ok = false;
    const uint64_t updated = apply(in.sub_op, in.type, old, b, c, ok);
    if (!ok) {
      fail(in, "unsupported", "tilecamp's emulator does not support the atomic `" + in.text + "`");
      return;
    }
    std::memcpy(access.pointers[lane], &updated, bytes);
    if (returns) write(warp, in.operands[0].reg, lane, old);
  }
}

}  // namespace tilecamp::emu
