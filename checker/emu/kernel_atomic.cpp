// atom and red: read-modify-write on global or shared memory. The lanes of a warp apply their
// operations one after another in lane order, so results are deterministic.
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

}  // namespace

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
  if (access.lanes[k_global_slot]) {
    ++counters.global_atom_requests;
    counters.global_atom_sectors += count_sectors(access.addresses[k_global_slot], access.lanes[k_global_slot], bytes);
    counters.global_atom_bytes += uint64_t{bytes} * std::popcount(access.lanes[k_global_slot]);
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
