// Register-to-register instructions: arithmetic, logic, comparison, conversion, moves (vector
// `{a, b}` operands pack and unpack registers), address-space conversion. The arithmetic itself
// is in alu*.cpp; this file reads the operands and writes the results lane by lane.
#include <algorithm>
#include <array>
#include <bit>
#include <cmath>

#include "checker/emu/alu.h"
#include "checker/emu/kernel_run.h"

namespace tilecamp::emu {

using ptx::Instruction;
using ptx::Opcode;
using ptx::Operand;

namespace {

bool is_register_arithmetic(Opcode opcode) {
  switch (opcode) {
    case Opcode::Mov: case Opcode::Cvt: case Opcode::Selp: case Opcode::Add: case Opcode::Sub:
    case Opcode::Mul: case Opcode::Mad: case Opcode::Fma: case Opcode::Div: case Opcode::Rem:
    case Opcode::Min: case Opcode::Max: case Opcode::Abs: case Opcode::Neg: case Opcode::And:
    case Opcode::Or: case Opcode::Xor: case Opcode::Not: case Opcode::Cnot: case Opcode::Shl:
    case Opcode::Shr: case Opcode::Setp: case Opcode::Set: case Opcode::Popc: case Opcode::Clz:
    case Opcode::Brev: case Opcode::Bfe: case Opcode::Bfi: case Opcode::Bfind: case Opcode::Prmt:
    case Opcode::Shf: case Opcode::Lop3: case Opcode::Mul24: case Opcode::Mad24: case Opcode::Sad:
    case Opcode::Copysign: case Opcode::Testp: case Opcode::Slct: case Opcode::Rcp: case Opcode::Sqrt:
    case Opcode::Rsqrt: case Opcode::Ex2: case Opcode::Lg2: case Opcode::Sin: case Opcode::Cos:
    case Opcode::Tanh: case Opcode::Dp4a: case Opcode::Dp2a: case Opcode::Fns: case Opcode::Bmsk:
    case Opcode::Szext: case Opcode::Vop4: case Opcode::Vop2: case Opcode::Vop:
      return true;
    default:
      return false;
  }
}

// The width of each element of a vector operand `{a, b}`: the instruction's width split evenly.
int element_bits(const Instruction& in, const Operand& vector) {
  return ptx::type_bits(in.type) / vector.count;
}

uint64_t& register_of(Warp& warp, int32_t reg, int lane) { return warp.registers[reg * k_warp_size + lane]; }

// A vector source `{lo, hi}` packed into one value, its first element lowest.
uint64_t pack(Warp& warp, const Instruction& in, const Operand& vector, int lane) {
  const int bits = element_bits(in, vector);
  uint64_t packed = 0;
  for (int i = 0; i < vector.count; ++i) {
    if (vector.elements[i] >= 0) packed |= truncate_bits(register_of(warp, vector.elements[i], lane), bits) << (bits * i);
  }
  return packed;
}

// Writes a lane's result: setp's one or two predicates, a vector's elements (`_` discards one),
// or the destination register.
void store(Warp& warp, const Instruction& in, uint64_t value, int lane) {
  const Operand& destination = in.operands[0];
  if (in.opcode == Opcode::Setp) {
    register_of(warp, destination.reg, lane) = value & 1;
    if (destination.elements[0] >= 0) register_of(warp, destination.elements[0], lane) = value >> 1 & 1;
  } else if (destination.kind == Operand::Kind::Vector) {
    const int bits = element_bits(in, destination);
    for (int i = 0; i < destination.count; ++i) {
      if (destination.elements[i] < 0) continue;
      register_of(warp, destination.elements[i], lane) = truncate_bits(value >> (bits * i), bits);
    }
  } else {
    register_of(warp, destination.reg, lane) = value;
  }
}

bool is_plain_operand(const Operand& operand) {
  return (operand.kind == Operand::Kind::Register || operand.kind == Operand::Kind::Immediate) && !operand.negate;
}

// The handful of forms that make up most of what NVRTC emits (address arithmetic, loop
// counters, comparisons, f32 multiply-adds), executed without the general dispatch. Each result
// is what alu_execute computes; the tests run both paths.
template <typename Operation>
bool run_lanes(Warp& warp, const Instruction& in, uint32_t lanes, int sources, Operation operation) {
  const Operand* op = in.operands.data();
  uint64_t* destination = warp.registers + op[0].reg * k_warp_size;
  // Each source as a row of 32 values: a register's own row, or an immediate repeated.
  std::array<std::array<uint64_t, k_warp_size>, 3> repeated;
  std::array<const uint64_t*, 3> rows{};
  for (int i = 0; i < 3; ++i) {
    static const std::array<uint64_t, k_warp_size> k_zeros{};
    if (i >= sources) {
      rows[i] = k_zeros.data();
    } else if (op[i + 1].kind == Operand::Kind::Register) {
      rows[i] = warp.registers + op[i + 1].reg * k_warp_size;
    } else {
      repeated[i].fill(op[i + 1].bits);
      rows[i] = repeated[i].data();
    }
  }
  if (lanes == 0xffffffffu) {  // a converged warp: a plain loop the compiler can vectorise
    for (int lane = 0; lane < k_warp_size; ++lane) destination[lane] = operation(rows[0][lane], rows[1][lane], rows[2][lane]);
    return true;
  }
  for (uint32_t mask = lanes; mask; mask &= mask - 1) {
    const int lane = std::countr_zero(mask);
    destination[lane] = operation(rows[0][lane], rows[1][lane], rows[2][lane]);
  }
  return true;
}

float as_float(uint64_t bits) { return std::bit_cast<float>(static_cast<uint32_t>(bits)); }

// The GPU returns one canonical NaN from f32 arithmetic.
uint64_t float_bits(float value) { return value != value ? 0x7fffffffu : std::bit_cast<uint32_t>(value); }

bool execute_fast(Warp& warp, const Instruction& in, uint32_t lanes) {
  const Operand* op = in.operands.data();
  if (op[0].kind != Operand::Kind::Register || op[0].elements[0] >= 0 || in.saturate || in.ftz || in.relu) return false;
  const int sources = in.operand_count - 1;
  for (int i = 1; i <= sources; ++i) {
    if (!is_plain_operand(op[i])) return false;
  }
  const int bits = ptx::type_bits(in.type);
  const bool packed = in.type == ptx::Type::S16x2 || in.type == ptx::Type::U16x2;  // add.u16x2 adds halves
  const bool integer = !ptx::is_float(in.type) && (bits == 32 || bits == 64) && in.type != ptx::Type::Pred && !packed;
  const uint64_t mask = bits == 64 ? ~uint64_t{0} : 0xffffffffu;
  const bool wide = in.mul_mode == ptx::MulMode::Wide;
  if (integer && !wide && in.mul_mode != ptx::MulMode::Hi) {
    switch (in.opcode) {
      case Opcode::Mov: return run_lanes(warp, in, lanes, 1, [](uint64_t a, uint64_t, uint64_t) { return a; });
      case Opcode::Add: return run_lanes(warp, in, lanes, 2, [mask](uint64_t a, uint64_t b, uint64_t) { return (a + b) & mask; });
      case Opcode::Sub: return run_lanes(warp, in, lanes, 2, [mask](uint64_t a, uint64_t b, uint64_t) { return (a - b) & mask; });
      case Opcode::Mul: return run_lanes(warp, in, lanes, 2, [mask](uint64_t a, uint64_t b, uint64_t) { return (a * b) & mask; });
      case Opcode::Mad: return run_lanes(warp, in, lanes, 3, [mask](uint64_t a, uint64_t b, uint64_t c) { return (a * b + c) & mask; });
      case Opcode::And: return run_lanes(warp, in, lanes, 2, [mask](uint64_t a, uint64_t b, uint64_t) { return a & b & mask; });
      case Opcode::Or: return run_lanes(warp, in, lanes, 2, [mask](uint64_t a, uint64_t b, uint64_t) { return (a | b) & mask; });
      case Opcode::Xor: return run_lanes(warp, in, lanes, 2, [mask](uint64_t a, uint64_t b, uint64_t) { return (a ^ b) & mask; });
      case Opcode::Shl:
        return run_lanes(warp, in, lanes, 2, [mask, bits](uint64_t a, uint64_t b, uint64_t) {
          const uint64_t amount = b & 0xffffffffu;
          return amount >= static_cast<uint64_t>(bits) ? 0 : (a << amount) & mask;
        });
      default: break;
    }
  }
  if (wide && bits == 32 && (in.opcode == Opcode::Mul || in.opcode == Opcode::Mad)) {
    const bool is_signed_type = ptx::is_signed(in.type);
    const bool add = in.opcode == Opcode::Mad;
    return run_lanes(warp, in, lanes, add ? 3 : 2, [is_signed_type, add](uint64_t a, uint64_t b, uint64_t c) {
      const uint64_t product = is_signed_type ? static_cast<uint64_t>(int64_t{static_cast<int32_t>(a)} * static_cast<int32_t>(b))
                                              : (a & 0xffffffffu) * (b & 0xffffffffu);
      return add ? product + c : product;
    });
  }
  if (in.opcode == Opcode::Setp && integer && in.bool_op == ptx::BoolOp::None && op[0].elements[0] < 0) {
    const bool is_signed_type = ptx::is_signed(in.type);
    const int shift = 64 - bits;  // compare as 64-bit values, sign- or zero-extended
    auto extend = [is_signed_type, shift, mask](uint64_t v) -> int64_t {
      return is_signed_type ? static_cast<int64_t>(v << shift) >> shift : static_cast<int64_t>(v & mask);
    };
    switch (in.compare) {
      case ptx::CompareOp::Eq:
        return run_lanes(warp, in, lanes, 2, [mask](uint64_t a, uint64_t b, uint64_t) -> uint64_t { return (a & mask) == (b & mask); });
      case ptx::CompareOp::Ne:
        return run_lanes(warp, in, lanes, 2, [mask](uint64_t a, uint64_t b, uint64_t) -> uint64_t { return (a & mask) != (b & mask); });
      case ptx::CompareOp::Lt:
      case ptx::CompareOp::Lo:
        if (in.compare == ptx::CompareOp::Lo && is_signed_type) break;
        return run_lanes(warp, in, lanes, 2, [extend, is_signed_type, mask](uint64_t a, uint64_t b, uint64_t) -> uint64_t {
          return is_signed_type ? extend(a) < extend(b) : (a & mask) < (b & mask);
        });
      case ptx::CompareOp::Ge:
      case ptx::CompareOp::Hs:
        if (in.compare == ptx::CompareOp::Hs && is_signed_type) break;
        return run_lanes(warp, in, lanes, 2, [extend, is_signed_type, mask](uint64_t a, uint64_t b, uint64_t) -> uint64_t {
          return is_signed_type ? extend(a) >= extend(b) : (a & mask) >= (b & mask);
        });
      case ptx::CompareOp::Gt:
      case ptx::CompareOp::Hi:
        if (in.compare == ptx::CompareOp::Hi && is_signed_type) break;
        return run_lanes(warp, in, lanes, 2, [extend, is_signed_type, mask](uint64_t a, uint64_t b, uint64_t) -> uint64_t {
          return is_signed_type ? extend(a) > extend(b) : (a & mask) > (b & mask);
        });
      case ptx::CompareOp::Le:
      case ptx::CompareOp::Ls:
        if (in.compare == ptx::CompareOp::Ls && is_signed_type) break;
        return run_lanes(warp, in, lanes, 2, [extend, is_signed_type, mask](uint64_t a, uint64_t b, uint64_t) -> uint64_t {
          return is_signed_type ? extend(a) <= extend(b) : (a & mask) <= (b & mask);
        });
      default:
        break;
    }
  }
  if (in.type == ptx::Type::F32 && (in.rounding == ptx::Rounding::None || in.rounding == ptx::Rounding::Rn)) {
    switch (in.opcode) {
      case Opcode::Add:
        return run_lanes(warp, in, lanes, 2, [](uint64_t a, uint64_t b, uint64_t) { return float_bits(as_float(a) + as_float(b)); });
      case Opcode::Sub:
        return run_lanes(warp, in, lanes, 2, [](uint64_t a, uint64_t b, uint64_t) { return float_bits(as_float(a) - as_float(b)); });
      case Opcode::Mul:
        return run_lanes(warp, in, lanes, 2, [](uint64_t a, uint64_t b, uint64_t) { return float_bits(as_float(a) * as_float(b)); });
      case Opcode::Fma:
      case Opcode::Mad:
        return run_lanes(warp, in, lanes, 3, [](uint64_t a, uint64_t b, uint64_t c) {
          return float_bits(std::fma(as_float(a), as_float(b), as_float(c)));
        });
      default: break;
    }
  }
  return false;
}

}  // namespace

// add.cc, addc, sub.cc, subc, mad.cc, madc on .u32/.s32/.u64/.s64: each lane's carry (for
// subtraction, its borrow) goes through the warp's condition-code flags, one bit per lane.
void KernelRun::execute_with_carry(Warp& warp, const Instruction& in, uint32_t lanes) {
  for_each_lane(lanes, [&](int lane) {
    AluSources values{};
    for (int i = 1; i < in.operand_count && i <= 3; ++i) values[i - 1] = read(warp, in.operands[i], lane);
    bool carried = false;
    write(warp, in.operands[0].reg, lane, alu_with_carry(in, values, (warp.carry >> lane & 1u) != 0, carried));
    if (in.carry_out) warp.carry = (warp.carry & ~(1u << lane)) | (uint32_t{carried} << lane);
  });
}

void KernelRun::execute_alu(Warp& warp, const Instruction& in, uint32_t lanes) {
  if (in.carry_in || in.carry_out) {
    execute_with_carry(warp, in, lanes);
    return;
  }
  if (execute_fast(warp, in, lanes)) return;
  if (in.opcode == Opcode::Mov && in.operands[1].kind == Operand::Kind::Special && in.operands[0].kind == Operand::Kind::Register) {
    const Operand& from = in.operands[1];
    uint64_t* destination = warp.registers + in.operands[0].reg * k_warp_size;
    if (from.special == ptx::SpecialRegister::Tid) {  // %tid.x/y/z, in nearly every kernel: a row copy
      const std::array<uint32_t, k_warp_size>& row = from.component == 0 ? warp.tid_x : from.component == 1 ? warp.tid_y : warp.tid_z;
      for_each_lane(lanes, [&](int lane) { destination[lane] = row[lane]; });
      return;
    }
    using ptx::SpecialRegister;
    const bool per_lane = from.special == SpecialRegister::Laneid || from.special == SpecialRegister::LanemaskEq ||
                          from.special == SpecialRegister::LanemaskLt || from.special == SpecialRegister::LanemaskLe ||
                          from.special == SpecialRegister::LanemaskGe || from.special == SpecialRegister::LanemaskGt;
    if (!per_lane && lanes != 0) {  // the same for the whole warp (%ctaid, %ntid, %clock...): read once
      const uint64_t value = special(warp, from, std::countr_zero(lanes));
      for_each_lane(lanes, [&](int lane) { destination[lane] = value; });
      return;
    }
    for_each_lane(lanes, [&](int lane) { destination[lane] = special(warp, from, lane); });
    return;
  }
  if (in.opcode == Opcode::Cvta) {
    const uint64_t window = in.space == ptx::Space::Shared  ? k_shared_window
                            : in.space == ptx::Space::Local ? k_local_window
                                                            : 0;
    for_each_lane(lanes, [&](int lane) {
      const uint64_t address = read(warp, in.operands[1], lane);
      write(warp, in.operands[0].reg, lane, in.to_space ? address - window : address + window);
    });
    return;
  }
  if (!is_register_arithmetic(in.opcode)) {
    fail(in, "unsupported", "tilecamp's emulator cannot execute `" + in.text + "`");
    return;
  }
  // Registers and immediates, nearly every operand, are read here directly: this loop is hot.
  auto source = [&](const Operand& operand, int lane) -> uint64_t {
    uint64_t value = 0;
    switch (operand.kind) {
      case Operand::Kind::Register: value = register_of(warp, operand.reg, lane); break;
      case Operand::Kind::Immediate: value = operand.bits; break;
      case Operand::Kind::Vector: value = pack(warp, in, operand, lane); break;
      default: value = read(warp, operand, lane); break;
    }
    return operand.negate ? uint64_t{(value & 1) == 0} : value;  // `!p`
  };
  const int sources = std::min<int>(in.operand_count - 1, static_cast<int>(AluSources{}.size()));
  for_each_lane(lanes, [&](int lane) {
    AluSources values{};
    for (int i = 0; i < sources; ++i) values[i] = source(in.operands[i + 1], lane);
    store(warp, in, alu_execute(in, values), lane);
  });
}

}  // namespace tilecamp::emu
