// Integer and bit arithmetic, selection and comparison; alu_execute sends floating-point
// arithmetic to alu_float.cpp and conversions to alu_convert.cpp.
#include "checker/emu/alu.h"

#include <algorithm>
#include <bit>

#include "checker/emu/float_format.h"

namespace tilecamp::emu {

using ptx::BoolOp;
using ptx::CompareOp;
using ptx::Instruction;
using ptx::MulMode;
using ptx::Opcode;
using ptx::SubOp;
using ptx::Type;

uint64_t truncate_bits(uint64_t value, int bits) {
  return bits >= 64 ? value : value & ((uint64_t{1} << bits) - 1);
}

int64_t sign_extend(uint64_t value, int bits) {
  if (bits >= 64) return static_cast<int64_t>(value);
  const uint64_t sign = uint64_t{1} << (bits - 1);
  value = truncate_bits(value, bits);
  return static_cast<int64_t>((value ^ sign) - sign);
}

int64_t packed_element(uint64_t word, int index, int bits, bool is_signed) {
  const uint64_t raw = word >> (bits * index) & ((uint64_t{1} << bits) - 1);
  return is_signed ? sign_extend(raw, bits) : static_cast<int64_t>(raw);
}

namespace {

// 128-bit integers for mul.hi of 64-bit operands, INT_MIN / -1 and saturation (a GCC/Clang extension).
__extension__ typedef __int128 int128;
__extension__ typedef unsigned __int128 uint128;

// An operand's value as the instruction's type reads it, widened to 128 bits.
int128 value_of(uint64_t bits, int width, bool is_signed_type) {
  return is_signed_type ? int128{sign_extend(bits, width)} : int128{truncate_bits(bits, width)};
}

int128 clamp_to(int128 value, int width) {
  const int128 high = (int128{1} << (width - 1)) - 1;
  return std::clamp(value, -high - 1, high);
}

// mul.lo/.hi/.wide (and mul24: the low 24 bits of each operand, the product's bits 16..47 for .hi).
// The 128-bit product is needed only for the high half of 64-bit and 24-bit forms.
uint64_t multiply(const Instruction& in, uint64_t a, uint64_t b) {
  const int width = ptx::type_bits(in.type);
  const bool s = ptx::is_signed(in.type);
  const bool is24 = in.opcode == Opcode::Mul24 || in.opcode == Opcode::Mad24;
  if (!is24 && in.mul_mode != MulMode::Hi) {
    if (in.mul_mode != MulMode::Wide) return truncate_bits(a * b, width);  // the low half ignores signs
    const uint64_t product = s ? static_cast<uint64_t>(sign_extend(a, width) * sign_extend(b, width))
                               : truncate_bits(a, width) * truncate_bits(b, width);
    return truncate_bits(product, 2 * width);
  }
  const int operand_width = is24 ? 24 : width;
  const int128 x = value_of(a, operand_width, s), y = value_of(b, operand_width, s);
  const int128 p = s ? x * y : static_cast<int128>(static_cast<uint128>(x) * static_cast<uint128>(y));
  if (in.mul_mode == MulMode::Hi) return truncate_bits(static_cast<uint64_t>(p >> (is24 ? 16 : width)), width);
  return truncate_bits(static_cast<uint64_t>(p), width);
}

// mad and mad24: the product's selected bits plus c; .sat (mad.hi.s32, mad24.hi.s32) clamps the sum.
uint64_t multiply_add(const Instruction& in, uint64_t a, uint64_t b, uint64_t c) {
  const int width = ptx::type_bits(in.type) * (in.mul_mode == MulMode::Wide ? 2 : 1);
  const uint64_t part = multiply(in, a, b);
  if (!in.saturate) return truncate_bits(part + c, width);
  const int128 sum = int128{sign_extend(part, width)} + sign_extend(c, width);
  return truncate_bits(static_cast<uint64_t>(clamp_to(sum, width)), width);
}

// Division by zero is undefined in PTX; like the GPU, div and rem answer all ones.
uint64_t divide(const Instruction& in, uint64_t a, uint64_t b) {
  const int width = ptx::type_bits(in.type);
  const bool s = ptx::is_signed(in.type);
  if (truncate_bits(b, width) == 0) return truncate_bits(~uint64_t{0}, width);
  const int128 x = value_of(a, width, s), y = value_of(b, width, s);  // INT_MIN / -1 fits in 128
  return truncate_bits(static_cast<uint64_t>(in.opcode == Opcode::Div ? x / y : x % y), width);
}

uint64_t add_subtract(const Instruction& in, uint64_t a, uint64_t b) {
  const int width = ptx::type_bits(in.type);
  const bool subtract = in.opcode == Opcode::Sub;
  if (!in.saturate) return truncate_bits(subtract ? a - b : a + b, width);  // the common case
  const int128 x = value_of(a, width, true), y = value_of(b, width, true);  // .sat is for .s32 only
  return truncate_bits(static_cast<uint64_t>(clamp_to(subtract ? x - y : x + y, width)), width);
}

uint64_t shift(const Instruction& in, uint64_t a, uint64_t amount) {
  const int width = ptx::type_bits(in.type);
  const uint64_t n = truncate_bits(amount, 32);
  if (in.opcode == Opcode::Shl) return n >= static_cast<uint64_t>(width) ? 0 : truncate_bits(a << n, width);
  if (ptx::is_signed(in.type)) {  // arithmetic: shifts past the width leave the sign everywhere
    return truncate_bits(static_cast<uint64_t>(sign_extend(a, width) >> std::min<uint64_t>(n, width - 1)), width);
  }
  return n >= static_cast<uint64_t>(width) ? 0 : truncate_bits(a, width) >> n;
}

// ---- bit manipulation ----

// The ISA restricts bfe's and bfi's positions and lengths to 0..255: the GPU's 32-bit forms take
// them modulo 256, its 64-bit forms (which ptxas builds from 32-bit operations) clamp them.
uint64_t field_operand(uint64_t value, int width) {
  return width == 64 ? std::min<uint64_t>(truncate_bits(value, 32), 255) : value & 0xff;
}

// bfe: `len` bits from `pos`, zero- or sign-extended.
uint64_t bit_field_extract(const Instruction& in, uint64_t a, uint64_t b, uint64_t c) {
  const int width = ptx::type_bits(in.type);
  const uint64_t pos = field_operand(b, width), len = field_operand(c, width);
  const int msb = width - 1;
  const bool sign = ptx::is_signed(in.type) && len != 0 &&
                    (a >> std::min<uint64_t>(pos + len - 1, msb) & 1);
  uint64_t result = 0;
  for (int i = 0; i <= msb; ++i) {
    const bool bit = (static_cast<uint64_t>(i) < len && pos + i <= static_cast<uint64_t>(msb)) ? (a >> (pos + i) & 1) : sign;
    result |= uint64_t{bit} << i;
  }
  return result;
}

// bfi: the low `len` bits of a inserted into b at `pos`.
uint64_t bit_field_insert(const Instruction& in, uint64_t a, uint64_t b, uint64_t c, uint64_t d) {
  const int width = ptx::type_bits(in.type);
  const uint64_t pos = field_operand(c, width), len = field_operand(d, width);
  uint64_t result = truncate_bits(b, width);
  for (uint64_t i = 0; i < len && pos + i < static_cast<uint64_t>(width); ++i) {
    result = (result & ~(uint64_t{1} << (pos + i))) | ((a >> i & 1) << (pos + i));
  }
  return result;
}

// bfind: the most significant bit that differs from the sign (unsigned: the most significant 1),
// or with .shiftamt the left shift that brings it to the top; 0xffffffff if there is none.
uint64_t find_bit(const Instruction& in, uint64_t a) {
  const int width = ptx::type_bits(in.type);
  uint64_t value = truncate_bits(a, width);
  if (ptx::is_signed(in.type) && (value >> (width - 1) & 1)) value = truncate_bits(~value, width);
  if (value == 0) return 0xffffffff;
  const int position = 63 - std::countl_zero(value);
  return in.sub_op == SubOp::ShiftAmount ? static_cast<uint64_t>(width - 1 - position) : static_cast<uint64_t>(position);
}

uint64_t reverse_bits(uint64_t a, int width) {
  uint64_t result = 0;
  for (int i = 0; i < width; ++i) result |= (a >> i & 1) << (width - 1 - i);
  return result;
}

// prmt: each destination byte picks one of the 8 bytes of {b, a}. Without a mode each selector
// nibble picks a byte (its bit 3 replicates the byte's sign instead); the modes' fixed tables
// (PTX ISA, prmt) are indexed by c's low two bits.
uint64_t permute_bytes(const Instruction& in, uint64_t a, uint64_t b, uint64_t c) {
  const uint64_t source = truncate_bits(b, 32) << 32 | truncate_bits(a, 32);
  static constexpr uint8_t k_modes[6][4][4] = {  // [mode][c & 3][destination byte]
      {{0, 1, 2, 3}, {1, 2, 3, 4}, {2, 3, 4, 5}, {3, 4, 5, 6}},  // f4e
      {{0, 7, 6, 5}, {1, 0, 7, 6}, {2, 1, 0, 7}, {3, 2, 1, 0}},  // b4e
      {{0, 0, 0, 0}, {1, 1, 1, 1}, {2, 2, 2, 2}, {3, 3, 3, 3}},  // rc8
      {{0, 1, 2, 3}, {1, 1, 2, 3}, {2, 2, 2, 3}, {3, 3, 3, 3}},  // ecl
      {{0, 0, 0, 0}, {0, 1, 1, 1}, {0, 1, 2, 2}, {0, 1, 2, 3}},  // ecr
      {{0, 1, 0, 1}, {2, 3, 2, 3}, {0, 1, 0, 1}, {2, 3, 2, 3}},  // rc16
  };
  const int mode = in.sub_op == SubOp::None ? -1 : static_cast<int>(in.sub_op) - static_cast<int>(SubOp::F4e);
  uint64_t result = 0;
  for (int i = 0; i < 4; ++i) {
    uint64_t byte = 0;
    if (mode < 0) {
      const uint64_t selector = c >> (4 * i) & 0xf;
      byte = source >> (8 * (selector & 7)) & 0xff;
      if (selector & 8) byte = (byte & 0x80) ? 0xff : 0;
    } else {
      byte = source >> (8 * k_modes[mode][c & 3][i]) & 0xff;
    }
    result |= byte << (8 * i);
  }
  return result;
}

// shf: the 64-bit {b, a} shifted by c (.clamp: at most 32; .wrap: c mod 32), its upper word for
// .l and its lower word for .r.
uint64_t funnel_shift(const Instruction& in, uint64_t a, uint64_t b, uint64_t c) {
  const uint64_t n = in.clamp ? std::min<uint64_t>(truncate_bits(c, 32), 32) : (c & 31);
  const uint64_t joined = truncate_bits(b, 32) << 32 | truncate_bits(a, 32);
  if (in.sub_op == SubOp::Left) return truncate_bits((joined << n) >> 32, 32);
  return truncate_bits(joined >> n, 32);
}

// lop3: immLut is the truth table, indexed by the bits (a, b, c) of each position.
uint64_t three_input_logic(uint64_t a, uint64_t b, uint64_t c, uint64_t table) {
  uint64_t result = 0;
  for (int bit = 0; bit < 32; ++bit) {
    const uint64_t index = (a >> bit & 1) << 2 | (b >> bit & 1) << 1 | (c >> bit & 1);
    result |= (table >> index & 1) << bit;
  }
  return result;
}

// fns.b32 d, mask, base, offset: the position of the |offset|-th set bit of mask counting from
// bit `base` upwards (offset > 0) or downwards (offset < 0), base itself included; offset 0 asks
// whether bit `base` is set. 0xffffffff when there is no such bit.
uint64_t nth_set_bit(uint64_t mask, uint64_t base_bits, uint64_t offset_bits) {
  const int base = static_cast<int>(truncate_bits(base_bits, 32) & 31);  // a base past 31 is undefined
  const int64_t offset = sign_extend(offset_bits, 32);
  if (offset == 0) return (mask >> base & 1) != 0 ? static_cast<uint64_t>(base) : 0xffffffffu;
  int64_t left = (offset > 0 ? offset : -offset) - 1;
  const int step = offset > 0 ? 1 : -1;
  for (int position = base; position >= 0 && position < 32; position += step) {
    if (!(mask >> position & 1)) continue;
    if (left-- == 0) return static_cast<uint64_t>(position);
  }
  return 0xffffffffu;
}

// bmsk.mode.b32 d, a, b: b set bits from bit a up, cut off at bit 31. .wrap takes a and b modulo
// 32 (so b = 32 is an empty mask); .clamp makes a >= 32 an empty mask and b >= 32 every bit from a up.
uint64_t bit_mask(const Instruction& in, uint64_t a_bits, uint64_t b_bits) {
  const uint64_t a = truncate_bits(a_bits, 32), b = truncate_bits(b_bits, 32);
  if (in.clamp && a >= 32) return 0;
  const uint64_t position = a & 31, end = position + (b & 31);
  const uint64_t from_position = truncate_bits(~uint64_t{0} << position, 32);
  if ((in.clamp && b >= 32) || end >= 32) return from_position;
  return from_position & ((uint64_t{1} << end) - 1);
}

// szext.mode.type d, a, b: a's low b bits, sign-extended (.s32) or zero-extended (.u32) from bit
// b - 1; none for b = 0. .wrap takes b modulo 32; .clamp leaves a as it is for b >= 32.
uint64_t extend_field(const Instruction& in, uint64_t a_bits, uint64_t b_bits) {
  const uint64_t a = truncate_bits(a_bits, 32), b = truncate_bits(b_bits, 32);
  if (in.clamp && b >= 32) return a;
  const int width = static_cast<int>(b & 31);
  if (width == 0) return 0;
  return ptx::is_signed(in.type) ? truncate_bits(static_cast<uint64_t>(sign_extend(a, width)), 32) : truncate_bits(a, width);
}

uint64_t bit_operation(const Instruction& in, const AluSources& s) {
  const int width = ptx::type_bits(in.type);
  const uint64_t a = truncate_bits(s[0], width);
  switch (in.opcode) {
    case Opcode::Popc: return static_cast<uint64_t>(std::popcount(a));
    case Opcode::Clz: return static_cast<uint64_t>(std::countl_zero(a) - (64 - width));
    case Opcode::Brev: return reverse_bits(a, width);
    case Opcode::Bfe: return bit_field_extract(in, a, s[1], s[2]);
    case Opcode::Bfi: return bit_field_insert(in, a, s[1], s[2], s[3]);
    case Opcode::Bfind: return find_bit(in, a);
    case Opcode::Prmt: return permute_bytes(in, a, s[1], s[2]);
    case Opcode::Shf: return funnel_shift(in, a, s[1], s[2]);
    case Opcode::Lop3: return three_input_logic(a, s[1], s[2], s[3]);
    case Opcode::Fns: return nth_set_bit(a, s[1], s[2]);
    case Opcode::Bmsk: return bit_mask(in, a, s[1]);
    case Opcode::Szext: return extend_field(in, a, s[1]);
    default: return 0;
  }
}

// ---- selection and comparison ----

bool combine(BoolOp op, bool value, uint64_t c) {
  switch (op) {
    case BoolOp::And: return value && c;
    case BoolOp::Or: return value || c;
    case BoolOp::Xor: return value != (c != 0);
    default: return value;
  }
}

bool is_packed(Type type) { return type == Type::F16x2 || type == Type::BF16x2; }

// setp p|q, a, b{, c}: q is the complement of p, or for packed halves the high halves' result.
uint64_t set_predicate(const Instruction& in, const AluSources& s) {
  const uint64_t t = alu_compare(in, in.type, s[0], s[1]);
  const bool p = is_packed(in.type) ? (t & 1) : t, q = is_packed(in.type) ? (t >> 1 & 1) : !t;
  return uint64_t{combine(in.bool_op, p, s[2])} | uint64_t{combine(in.bool_op, q, s[2])} << 1;
}

// set.CmpOp.dtype.stype d, a, b{, c}: all ones, or 1.0 for a float destination, where true.
uint64_t set_value(const Instruction& in, const AluSources& s) {
  const uint64_t t = alu_compare(in, in.source_type, s[0], s[1]);
  const FloatFormat* format = float_format(in.type);
  const int halves = is_packed(in.type) ? 2 : 1;
  const int width = ptx::type_bits(in.type) / halves;
  const uint64_t one = format ? encode(*format, {1.0}, ptx::Rounding::Rn) : truncate_bits(~uint64_t{0}, width);
  uint64_t result = 0;
  for (int half = 0; half < halves; ++half) {
    const bool value = is_packed(in.source_type) ? (t >> half & 1) : (t & 1);
    if (combine(in.bool_op, value, s[2])) result |= one << (width * half);
  }
  return result;
}

// slct d, a, b, c: a if c >= 0 (c an s32, or an f32 that .ftz may flush), else b.
uint64_t select_by_sign(const Instruction& in, const AluSources& s) {
  bool non_negative = false;
  if (in.source_type == Type::F32) {
    const uint64_t c = in.ftz ? flush_to_zero(k_f32, truncate_bits(s[2], 32)) : truncate_bits(s[2], 32);
    non_negative = decode(k_f32, c) >= 0;
  } else {
    non_negative = sign_extend(s[2], 32) >= 0;
  }
  return truncate_bits(non_negative ? s[0] : s[1], ptx::type_bits(in.type));
}

// dp4a.atype.btype d, a, b, c: c plus the products of a's and b's four bytes. dp2a.mode: c plus
// the products of a's two halves with two bytes of b, its low two (.lo) or its high two (.hi).
// An element is signed when its operand's type is .s32; the sum wraps to 32 bits.
uint64_t dot_product(const Instruction& in, const AluSources& s) {
  const bool a_signed = ptx::is_signed(in.type), b_signed = ptx::is_signed(in.source_type);
  uint64_t sum = truncate_bits(s[2], 32);
  if (in.opcode == Opcode::Dp4a) {
    for (int k = 0; k < 4; ++k) {
      sum += static_cast<uint64_t>(packed_element(s[0], k, 8, a_signed) * packed_element(s[1], k, 8, b_signed));
    }
  } else {
    const int first = in.mul_mode == ptx::MulMode::Hi ? 2 : 0;
    for (int k = 0; k < 2; ++k) {
      sum += static_cast<uint64_t>(packed_element(s[0], k, 16, a_signed) * packed_element(s[1], first + k, 8, b_signed));
    }
  }
  return truncate_bits(sum, 32);
}

// add, min and max on .s16x2 and .u16x2: each 16-bit half on its own, a sum wrapping within its
// half (.relu: a negative half becomes 0).
uint64_t packed_integer(const Instruction& in, const AluSources& s) {
  const bool is_signed_type = in.type == Type::S16x2;
  uint64_t result = 0;
  for (int half = 0; half < 2; ++half) {
    const int64_t a = packed_element(s[0], half, 16, is_signed_type), b = packed_element(s[1], half, 16, is_signed_type);
    int64_t value = in.opcode == Opcode::Add ? a + b : in.opcode == Opcode::Min ? std::min(a, b) : std::max(a, b);
    if (in.relu && value < 0) value = 0;
    result |= (static_cast<uint64_t>(value) & 0xffff) << (16 * half);
  }
  return result;
}

}  // namespace

uint64_t alu_with_carry(const Instruction& in, const AluSources& s, bool carry_in, bool& carry_out) {
  const int width = ptx::type_bits(in.type);
  const uint128 mask = (uint128{1} << width) - 1;
  const uint128 carry = in.carry_in && carry_in ? 1 : 0;
  const uint128 a = truncate_bits(s[0], width), b = truncate_bits(s[1], width);
  if (in.opcode == Opcode::Sub) {  // a - (b + borrow); the borrow out is whether that went below 0
    carry_out = b + carry > a;
    return static_cast<uint64_t>((a - b - carry) & mask);
  }
  uint128 augend = a, addend = b;
  if (in.opcode == Opcode::Mad) {  // mad.lo/.hi: the product's low or high half, plus c
    const bool is_signed_type = ptx::is_signed(in.type);
    // In 128 bits, wrapping: the low 128 bits of a signed product are those of the unsigned one.
    const uint128 product = static_cast<uint128>(value_of(s[0], width, is_signed_type)) *
                            static_cast<uint128>(value_of(s[1], width, is_signed_type));
    augend = (in.mul_mode == ptx::MulMode::Hi ? product >> width : product) & mask;
    addend = truncate_bits(s[2], width);
  }
  const uint128 sum = augend + addend + carry;
  carry_out = (sum >> width) != 0;
  return static_cast<uint64_t>(sum & mask);
}

uint64_t alu_integer(const Instruction& in, const AluSources& s) {
  const int width = ptx::type_bits(in.type);
  switch (in.opcode) {
    case Opcode::Add: case Opcode::Sub: return add_subtract(in, s[0], s[1]);
    case Opcode::Mul: case Opcode::Mul24: return multiply(in, s[0], s[1]);
    case Opcode::Mad: case Opcode::Mad24: return multiply_add(in, s[0], s[1], s[2]);
    case Opcode::And: return truncate_bits(s[0] & s[1], width);
    case Opcode::Or: return truncate_bits(s[0] | s[1], width);
    case Opcode::Xor: return truncate_bits(s[0] ^ s[1], width);
    case Opcode::Not: return truncate_bits(~s[0], width);
    case Opcode::Cnot: return truncate_bits(s[0], width) == 0 ? 1 : 0;
    case Opcode::Shl: case Opcode::Shr: return shift(in, s[0], s[1]);
    case Opcode::Neg: return truncate_bits(uint64_t{0} - s[0], width);
    default: break;
  }
  const bool is_signed_type = ptx::is_signed(in.type);
  const int64_t sa = sign_extend(s[0], width), sb = sign_extend(s[1], width);
  const uint64_t ua = truncate_bits(s[0], width), ub = truncate_bits(s[1], width);
  const bool a_smaller = is_signed_type ? sa < sb : ua < ub;
  switch (in.opcode) {
    case Opcode::Div: case Opcode::Rem: return divide(in, s[0], s[1]);
    case Opcode::Sad: return truncate_bits((a_smaller ? s[1] - s[0] : s[0] - s[1]) + s[2], width);
    case Opcode::Min: return a_smaller ? ua : ub;
    case Opcode::Max: return a_smaller ? ub : ua;
    case Opcode::Abs: return truncate_bits(sa < 0 ? uint64_t{0} - ua : ua, width);
    default: return bit_operation(in, s);
  }
}

uint64_t alu_compare(const Instruction& in, Type type, uint64_t a, uint64_t b) {
  if (ptx::is_float(type)) return alu_float_compare(in, type, a, b);
  const int width = ptx::type_bits(type);
  const int64_t sa = sign_extend(a, width), sb = sign_extend(b, width);
  const uint64_t ua = truncate_bits(a, width), ub = truncate_bits(b, width);
  const bool s = ptx::is_signed(type);
  switch (in.compare) {
    case CompareOp::Eq: return ua == ub;
    case CompareOp::Ne: return ua != ub;
    case CompareOp::Lt: return s ? sa < sb : ua < ub;
    case CompareOp::Le: return s ? sa <= sb : ua <= ub;
    case CompareOp::Gt: return s ? sa > sb : ua > ub;
    case CompareOp::Ge: return s ? sa >= sb : ua >= ub;
    case CompareOp::Lo: return ua < ub;
    case CompareOp::Ls: return ua <= ub;
    case CompareOp::Hi: return ua > ub;
    case CompareOp::Hs: return ua >= ub;
    default: return 0;
  }
}

uint64_t alu_execute(const Instruction& in, const AluSources& s) {
  switch (in.opcode) {
    case Opcode::Dp4a: case Opcode::Dp2a: return dot_product(in, s);
    case Opcode::Vop4: case Opcode::Vop2: case Opcode::Vop: return alu_video(in, s);
    case Opcode::Mov: return s[0];
    case Opcode::Cvt: return alu_convert(in, s);
    case Opcode::Selp: return s[2] ? s[0] : s[1];
    case Opcode::Slct: return select_by_sign(in, s);
    case Opcode::Setp: return set_predicate(in, s);
    case Opcode::Set: return set_value(in, s);
    case Opcode::Testp: return alu_float_test(in.sub_op, in.type, s[0]);
    default: break;
  }
  if (ptx::is_float(in.type)) return alu_float(in, s);
  if (in.type == Type::S16x2 || in.type == Type::U16x2) return packed_integer(in, s);
  return alu_integer(in, s);
}

}  // namespace tilecamp::emu
