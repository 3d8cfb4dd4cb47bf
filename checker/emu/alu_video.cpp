// The SIMD video instructions (vadd4, vsub2, vavrg4, vabsdiff2, vmin4, vmax2, vset4...) as the
// PTX ISA defines them. Each element of a and b is picked by the operand's selector from the
// bytes (half-words) of {b, a} and sign- or zero-extended as the operand's type says; the
// operation is exact, clamped to the destination's element range by .sat; the destination's mask
// then says which results replace c's elements (merge) or are added to c (.add).
#include <algorithm>

#include "checker/emu/alu.h"

namespace tilecamp::emu {

using ptx::CompareOp;
using ptx::Instruction;
using ptx::Operand;
using ptx::VideoOp;

namespace {

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

int64_t saturate(int64_t value, int bits, bool is_signed_type) {
  const int64_t low = is_signed_type ? -(int64_t{1} << (bits - 1)) : 0;
  const int64_t high = is_signed_type ? (int64_t{1} << (bits - 1)) - 1 : (int64_t{1} << bits) - 1;
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

}  // namespace

uint64_t alu_video(const Instruction& in, const AluSources& s) {
  const int elements = in.opcode == ptx::Opcode::Vop4 ? 4 : 2, bits = 32 / elements;
  const uint64_t pair = truncate_bits(s[1], 32) << 32 | truncate_bits(s[0], 32);  // {b, a}: a's elements first
  const Operand& d = in.operands[0];
  const bool a_signed = ptx::is_signed(in.source_type), b_signed = ptx::is_signed(in.source_type_b);
  uint64_t merged = 0, sum = truncate_bits(s[2], 32);
  for (int i = 0; i < elements; ++i) {
    const int64_t a = packed_element(pair, selected(in.operands[1], i), bits, a_signed);
    const int64_t b = packed_element(pair, selected(in.operands[2], i), bits, b_signed);
    int64_t result = operate(in, a, b);
    if (in.saturate) result = saturate(result, bits, ptx::is_signed(in.type));
    const bool written = masked(d, i);
    if (written) sum += static_cast<uint64_t>(result);  // .add: the full result, its sign included
    const uint64_t element = written ? static_cast<uint64_t>(result) : static_cast<uint64_t>(packed_element(s[2], i, bits, false));
    merged |= truncate_bits(element, bits) << (bits * i);
  }
  return in.sub_op == ptx::SubOp::Add ? truncate_bits(sum, 32) : merged;
}

}  // namespace tilecamp::emu
