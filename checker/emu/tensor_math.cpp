#include "checker/emu/tensor_math.h"

#include <algorithm>
#include <bit>

#include "checker/ptx/matrix_decoder.h"

namespace tilecamp::emu {

using ptx::MatrixType;

namespace {

// An operand as the tensor core reads it: significand * 2^(exponent - fraction bits).
struct Element {
  enum class Kind { Finite, Infinite, NaN } kind = Kind::Finite;
  bool negative = false;
  uint64_t significand = 0;  // with the hidden bit; 0 for a zero
  int exponent = 0;          // the exponent field's value, unbiased (a subnormal's is the smallest normal's)
  int fraction_bits = 0;
};

Element decode(MatrixType type, uint32_t bits) {
  int exponent_bits = 8, fraction_bits = 23;
  if (type == MatrixType::F16) exponent_bits = 5, fraction_bits = 10;
  if (type == MatrixType::BF16) fraction_bits = 7;
  if (type == MatrixType::TF32) bits &= 0xffffe000u;  // the low 13 bits are not read
  const int total = 1 + exponent_bits + fraction_bits;
  if (total < 32) bits &= (1u << total) - 1;
  Element element;
  element.negative = (bits >> (total - 1) & 1u) != 0;
  const uint32_t field = bits >> fraction_bits & ((1u << exponent_bits) - 1);
  const uint32_t fraction = bits & ((1u << fraction_bits) - 1);
  const int bias = (1 << (exponent_bits - 1)) - 1;
  if (field == (1u << exponent_bits) - 1u) {
    element.kind = fraction != 0 ? Element::Kind::NaN : Element::Kind::Infinite;
    return element;
  }
  element.significand = field == 0 ? fraction : (fraction | 1u << fraction_bits);
  element.exponent = std::max<int>(static_cast<int>(field), 1) - bias;
  element.fraction_bits = fraction_bits;
  return element;
}

// A finite term of the sum: magnitude * 2^scale, and its exponent for the alignment.
struct Term {
  bool negative = false;
  uint64_t magnitude = 0;
  int scale = 0;
  int exponent = 0;
};

constexpr int k_kept_bits = 25;         // bits below the largest exponent each term keeps
constexpr int k_finest_exponent = -149;  // nor finer than f32's smallest subnormal

// magnitude * 2^(scale - lsb), cut toward zero.
uint64_t in_units(const Term& term, int lsb) {
  const int shift = term.scale - lsb;
  if (shift >= 0) return term.magnitude << shift;  // at most 2^27: see tensor_dot
  return -shift >= 64 ? 0 : term.magnitude >> -shift;
}

uint32_t round_to_f32(bool negative, uint64_t units, int lsb) {
  const uint32_t sign = negative ? 0x80000000u : 0u;
  const int top = 63 - std::countl_zero(units);  // units != 0
  const int exponent = top + lsb;
  if (exponent > 127) return sign | 0x7f800000u;  // toward zero, yet overflow gives infinity
  if (exponent < -126) {  // subnormal: lsb >= -149, so exact
    return sign | static_cast<uint32_t>(units << (lsb + 149));
  }
  const uint64_t significand = top > 23 ? units >> (top - 23) : units << (23 - top);  // cut toward zero
  return sign | static_cast<uint32_t>(exponent + 127) << 23 | (static_cast<uint32_t>(significand) & 0x7fffffu);
}

uint32_t round_to_f16(bool negative, uint64_t units, int lsb) {
  const uint32_t sign = negative ? 0x8000u : 0u;
  const int top = 63 - std::countl_zero(units);
  int ulp = std::max(top + lsb - 10, -24);  // the exponent of the result's last bit
  const int shift = ulp - lsb;
  uint64_t q = 0;
  if (shift <= 0) {
    q = units << -shift;
  } else {
    q = shift >= 64 ? 0 : units >> shift;
    const uint64_t rest = shift >= 64 ? units : units - (q << shift);
    const uint64_t half = shift > 64 ? ~uint64_t{0} : uint64_t{1} << (shift - 1);
    if (rest > half || (rest == half && (q & 1u))) ++q;  // to nearest, ties to even
  }
  if (q >= 0x800u) q >>= 1, ++ulp;
  if (q < 0x400u) return sign | static_cast<uint32_t>(q);  // subnormal (or zero)
  const int field = ulp + 25;
  if (field >= 31) return sign | 0x7c00u;
  return sign | static_cast<uint32_t>(field) << 10 | (static_cast<uint32_t>(q) & 0x3ffu);
}

}  // namespace

int matrix_type_bits(MatrixType type) {
  return type == MatrixType::F16 || type == MatrixType::BF16 || type == MatrixType::B16 ? 16 : 32;
}

uint32_t tensor_dot(MatrixType ab, const uint32_t* a, const uint32_t* b, int k, MatrixType c_type, uint32_t c,
                    MatrixType d_type) {
  const bool f16_result = d_type == MatrixType::F16;
  const uint32_t nan = f16_result ? 0x7fffu : 0x7fffffffu;
  const uint32_t infinity = f16_result ? 0x7c00u : 0x7f800000u;
  const uint32_t sign_bit = f16_result ? 0x8000u : 0x80000000u;
  Term terms[33];
  int count = 0;
  bool is_nan = false, positive_infinity = false, negative_infinity = false;
  for (int i = 0; i < k; ++i) {
    const Element x = decode(ab, a[i]), y = decode(ab, b[i]);
    const bool negative = x.negative != y.negative;
    if (x.kind == Element::Kind::NaN || y.kind == Element::Kind::NaN) {
      is_nan = true;
    } else if (x.kind == Element::Kind::Infinite || y.kind == Element::Kind::Infinite) {
      const bool zero = (x.kind == Element::Kind::Finite && x.significand == 0) ||
                        (y.kind == Element::Kind::Finite && y.significand == 0);
      if (zero) is_nan = true;
      (negative ? negative_infinity : positive_infinity) = true;
    } else if (x.significand != 0 && y.significand != 0) {
      terms[count++] = {negative, x.significand * y.significand,
                        x.exponent - x.fraction_bits + y.exponent - y.fraction_bits, x.exponent + y.exponent};
    }
  }
  const Element z = decode(c_type, c);
  if (z.kind == Element::Kind::NaN) is_nan = true;
  if (z.kind == Element::Kind::Infinite) (z.negative ? negative_infinity : positive_infinity) = true;
  if (z.kind == Element::Kind::Finite && z.significand != 0) {
    terms[count++] = {z.negative, z.significand, z.exponent - z.fraction_bits, z.exponent};
  }
  if (is_nan || (positive_infinity && negative_infinity)) return nan;
  if (positive_infinity || negative_infinity) return infinity | (negative_infinity ? sign_bit : 0u);
  if (count == 0) return 0;  // every term zero: +0 whatever their signs
  int largest = terms[0].exponent;
  for (int i = 1; i < count; ++i) largest = std::max(largest, terms[i].exponent);
  // Each term is below 2^(largest + 2), so below 2^27 units of 2^lsb: the sum fits easily.
  const int lsb = std::max(largest - k_kept_bits, k_finest_exponent);
  int64_t sum = 0;
  for (int i = 0; i < count; ++i) {
    const auto units = static_cast<int64_t>(in_units(terms[i], lsb));
    sum += terms[i].negative ? -units : units;
  }
  if (sum == 0) return 0;
  const bool negative = sum < 0;
  const uint64_t units = negative ? static_cast<uint64_t>(-sum) : static_cast<uint64_t>(sum);
  return f16_result ? round_to_f16(negative, units, lsb) : round_to_f32(negative, units, lsb);
}

int fragment_elements(const ptx::Instruction& in, char which) {
  const ptx::MatrixForm& f = in.matrix;
  const MatrixType type = which == 'a' ? f.a : which == 'b' ? f.b : which == 'c' ? f.c : f.d;
  return ptx::fragment_registers(in, which) * (matrix_type_bits(type) == 16 ? 2 : 1);
}

MatrixPlace fragment_place(const ptx::Instruction& in, char which, int lane, int element) {
  const ptx::MatrixForm& f = in.matrix;
  const int group = lane >> 2, thread = lane & 3;
  const bool wmma = in.opcode != ptx::Opcode::Mma;
  const MatrixType type = which == 'a' ? f.a : which == 'b' ? f.b : which == 'c' ? f.c : f.d;
  const bool halves = matrix_type_bits(type) == 16;
  const int reg = halves ? element / 2 : element, half = halves ? element % 2 : 0;
  if (which == 'a') {
    if (!halves) return {group + 8 * (reg % 2), thread + 4 * (reg / 2)};  // tf32: m16n8k8 and m16n8k4
    const int r = reg % 4;  // a WMMA f16 fragment's registers 4-7 repeat 0-3
    return {group + 8 * (r % 2), 2 * thread + half + 8 * (r / 2)};
  }
  if (which == 'b') {
    if (!halves) return {thread + 4 * (reg % 2), group + 8 * (wmma ? reg / 2 : 0)};
    const int r = reg % 4;
    return wmma ? MatrixPlace{2 * thread + half + 8 * (r % 2), group + 8 * (r / 2)}
                : MatrixPlace{2 * thread + half + 8 * r, group};
  }
  if (!halves) return {group + 8 * ((reg % 4) / 2), 2 * thread + reg % 2 + 8 * (reg / 4)};  // f32 accumulators
  return {group + 8 * (reg % 2), 2 * thread + half + 8 * (reg / 2)};  // f16 accumulators
}

}  // namespace tilecamp::emu
