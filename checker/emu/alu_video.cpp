// The video instructions as the PTX ISA defines them.
// SIMD (vadd4, vsub2, vavrg4, vabsdiff2, vmin4, vmax2, vset4...): each element of a and b is
// picked by the operand's selector from the bytes (half-words) of {b, a} and sign- or
// zero-extended as the operand's type says; the operation is exact, clamped to the destination's
// element range by .sat; the destination's mask then says which results replace c's elements
// (merge) or are added to c (.add). (The ISA's prose for vset4's merge names b's bytes, its
// pseudocode c's: the emulator follows the pseudocode, as every other SIMD form says c.)
// Scalar (vadd, vsub, vabsdiff, vmin, vmax, vshl, vshr, vset, vmad): a byte, half-word or the word
// of a and b, extended as their types say; the exact result clamped by .sat to the destination
// (or to its selected part), then combined with c (.add, .min, .max) or merged into c's part, in
// that order, as the ISA's pseudocode has it. A shift is exact (vshl by 32 of a 33-bit value
// exceeds the ISA's 34-bit intermediate; .sat clamps the exact value).
#include <algorithm>

#include "checker/emu/alu.h"

namespace tilecamp::emu {

using ptx::CompareOp;
using ptx::Instruction;
using ptx::Operand;
using ptx::VideoOp;

namespace {

__extension__ typedef __int128 int128;  // a shifted word, a 32 x 32-bit product plus c (GCC/Clang)

bool holds(CompareOp compare, int64_t a, int64_t b) {
  switch (compare) {
    case CompareOp::Eq: return a == b;
    case CompareOp::Ne: return a != b;
    case CompareOp::Lt: return a < b;
    case CompareOp::Le: return a <= b;
    case CompareOp::Gt: return a > b;
    case CompareOp::Ge: return a >= b;
    default: return false;  // the decoder refuses the others
  }
}

int64_t operate(const Instruction& in, int64_t a, int64_t b) {
  switch (in.video_op) {
    case VideoOp::Add: return a + b;
    case VideoOp::Sub: return a - b;
    case VideoOp::Avrg: return a + b >= 0 ? (a + b + 1) >> 1 : (a + b) >> 1;  // halves round away from zero
    case VideoOp::Absdiff: return a > b ? a - b : b - a;
    case VideoOp::Min: return std::min(a, b);
    case VideoOp::Max: return std::max(a, b);
    case VideoOp::Set: return holds(in.compare, a, b) ? 1 : 0;
    default: return 0;
  }
}

int128 saturate(int128 value, int bits, bool is_signed_type) {
  const int128 low = is_signed_type ? -(int128{1} << (bits - 1)) : 0;
  const int128 high = is_signed_type ? (int128{1} << (bits - 1)) - 1 : (int128{1} << bits) - 1;
  return std::clamp(value, low, high);
}

// Which element of {b, a} a source's selector picks for element i (the last digit written is
// element 0's); whether the destination's mask names element i.
int selected(const Operand& source, int i) { return source.select_digits >> (4 * i) & 0xf; }

bool masked(const Operand& destination, int i) {
  for (int k = 0; k < destination.select_count; ++k) {
    if (selected(destination, k) == i) return true;
  }
  return false;
}

uint64_t simd(const Instruction& in, const AluSources& s) {
  const int elements = in.opcode == ptx::Opcode::Vop4 ? 4 : 2, bits = 32 / elements;
  const uint64_t pair = truncate_bits(s[1], 32) << 32 | truncate_bits(s[0], 32);  // {b, a}: a's elements first
  const Operand& d = in.operands[0];
  const bool a_signed = ptx::is_signed(in.source_type), b_signed = ptx::is_signed(in.source_type_b);
  uint64_t merged = 0, sum = truncate_bits(s[2], 32);
  for (int i = 0; i < elements; ++i) {
    const int64_t a = packed_element(pair, selected(in.operands[1], i), bits, a_signed);
    const int64_t b = packed_element(pair, selected(in.operands[2], i), bits, b_signed);
    int64_t result = operate(in, a, b);
    if (in.saturate) result = static_cast<int64_t>(saturate(result, bits, ptx::is_signed(in.type)));
    const bool written = masked(d, i);
    if (written) sum += static_cast<uint64_t>(result);  // .add: the full result, its sign included
    const uint64_t element = written ? static_cast<uint64_t>(result) : static_cast<uint64_t>(packed_element(s[2], i, bits, false));
    merged |= truncate_bits(element, bits) << (bits * i);
  }
  return in.sub_op == ptx::SubOp::Add ? truncate_bits(sum, 32) : merged;
}

// A scalar operand's selected part: its byte (.b0-.b3), half-word (.h0, .h1) or whole word.
int64_t part(uint64_t word, const Operand& operand, bool is_signed_type) {
  if (operand.select_kind == 0) return packed_element(word, 0, 32, is_signed_type);
  return packed_element(word, operand.select_digits, operand.select_kind == 'b' ? 8 : 16, is_signed_type);
}

int part_bits(const Operand& operand) { return operand.select_kind == 0 ? 32 : operand.select_kind == 'b' ? 8 : 16; }

// vmad d, {-}a, {-}b, {-}c: (a * b) + c, its sign from the operands' types and negations; a
// negation is a ones' complement plus one, .po adds one; .shr7/.shr15 scale before .sat.
uint64_t multiply_add(const Instruction& in, const AluSources& s) {
  const Operand &a = in.operands[1], &b = in.operands[2], &c = in.operands[3];
  const bool product_negated = a.minus != b.minus;
  const bool signed_final = ptx::is_signed(in.source_type) || ptx::is_signed(in.source_type_b) || product_negated || c.minus;
  int128 product = int128{part(s[0], a, ptx::is_signed(in.source_type))} * part(s[1], b, ptx::is_signed(in.source_type_b));
  uint64_t addend = truncate_bits(s[2], 32);
  int lsb = 0;
  if (in.plus_one) {
    lsb = 1;
  } else if (product_negated) {
    product = ~product;
    lsb = 1;
  } else if (c.minus) {
    addend = truncate_bits(~addend, 32);
    lsb = 1;
  }
  const int128 sum = product + (signed_final ? sign_extend(addend, 32) : static_cast<int64_t>(addend)) + lsb;
  int128 result = sum >> in.video_shift;
  if (in.saturate) result = saturate(result, 32, signed_final);
  return truncate_bits(static_cast<uint64_t>(result), 32);
}

uint64_t scalar(const Instruction& in, const AluSources& s) {
  if (in.video_op == VideoOp::Mad) return multiply_add(in, s);
  const Operand& d = in.operands[0];
  const int64_t a = part(s[0], in.operands[1], ptx::is_signed(in.source_type));
  const int64_t b = part(s[1], in.operands[2], ptx::is_signed(in.source_type_b));
  int128 result = 0;
  if (in.video_op == VideoOp::Shl || in.video_op == VideoOp::Shr) {
    const int amount = static_cast<int>(in.clamp ? std::min<int64_t>(b, 32) : b & 31);
    result = in.video_op == VideoOp::Shl ? int128{a} << amount : int128{a >> amount};
  } else {
    result = operate(in, a, b);
  }
  const bool signed_result = in.video_op != VideoOp::Set && ptx::is_signed(in.type);
  if (in.saturate) result = saturate(result, part_bits(d), signed_result);
  const int64_t c = packed_element(s[2], 0, 32, signed_result);  // c's sign is the destination's
  switch (in.sub_op) {
    case ptx::SubOp::Add: result += c; break;
    case ptx::SubOp::Min: result = std::min<int128>(result, c); break;
    case ptx::SubOp::Max: result = std::max<int128>(result, c); break;
    default: break;
  }
  if (d.select_kind == 0) return truncate_bits(static_cast<uint64_t>(result), 32);
  const int bits = part_bits(d), shift = bits * d.select_digits;  // merged into c's byte or half-word
  const uint64_t field = ((uint64_t{1} << bits) - 1) << shift;
  return (static_cast<uint64_t>(result) << shift & field) | (truncate_bits(s[2], 32) & ~field);
}

}  // namespace

uint64_t alu_video(const Instruction& in, const AluSources& s) {
  return in.opcode == ptx::Opcode::Vop ? scalar(in, s) : simd(in, s);
}

}  // namespace tilecamp::emu
