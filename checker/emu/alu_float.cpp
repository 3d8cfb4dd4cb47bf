// Floating-point arithmetic. f16, bf16 and f32 results are computed exactly in doubles and rounded
// once into their format (float_format.h), except f32 in round-to-nearest, which is the host's
// own float arithmetic; f64 is the host's double arithmetic, under the host's rounding mode for
// .rz/.rm/.rp. .f16x2 and .bf16x2 apply the operation to each half. Where the GPU's behaviour is
// not the host's, it follows an H200's (measured over millions of operands, edge cases included):
// - NaN: an f16, bf16 or f32 instruction that produces a NaN produces the canonical NaN (0x7fff,
//   0x7fffffff), abs and neg included (copysign alone moves bits). f64 passes on one NaN operand,
//   quieted, preferring b, then c, then a (div: a, then b); abs and neg leave its sign alone.
// - .ftz flushes subnormal operands, and results that are tiny after rounding to the format's
//   precision with an unbounded exponent, to zeros of the same sign.
// - min and max: -0 < +0; one NaN operand gives the other, two give NaN (.NaN: any NaN does).
//
// The .approx instructions (the "fast math" intrinsics __expf, __sinf, __fdividef, rsqrtf...)
// have no exactly specified result. Here they are the true function, computed in double and
// rounded to nearest, after the steps the GPU takes first: sin and cos scale the angle to turns
// by an f32 multiply rounded toward zero, so large angles lose the GPU's bits; div.approx is
// a * (1/b) with the reciprocal of |b| > 2^126 flushed; rcp.approx.ftz.f64 and
// rsqrt.approx.ftz.f64 read and write only the upper 32 bits of the double; f16 and bf16
// approximations truncate an f32 result. Against the H200 the results are within: rcp, sqrt,
// rsqrt 1 ulp; div, ex2 2 ulp; lg2 2^-22 absolute in [0.5, 2] and 2 ulp elsewhere; sin, cos
// 2^-21.5 absolute (the GPU's own error); tanh 2^-16.5 relative; f16 and bf16 one unit in the last
// place; rsqrt.approx.f64 1 ulp. Special operands (zeros, infinities, NaN, negative arguments,
// subnormals with and without .ftz) give the GPU's results exactly.
#include <bit>
#include <cfenv>
#include <cmath>
#include <limits>
#include <optional>
#include <span>

#include "checker/emu/alu.h"
#include "checker/emu/float_format.h"

namespace tilecamp::emu {

using ptx::CompareOp;
using ptx::Instruction;
using ptx::Opcode;
using ptx::Rounding;
using ptx::SubOp;
using ptx::Type;

namespace {

constexpr double k_nan = std::numeric_limits<double>::quiet_NaN();

bool is_nearest(Rounding rounding) { return rounding == Rounding::None || rounding == Rounding::Rn; }

// ---- the host's arithmetic, in the instruction's rounding mode ----

// Makes `value` unknown to the optimizer at this point, so arithmetic cannot move across it.
template <typename T>
T opaque(T value) {
  asm volatile("" : "+m"(value) : : "memory");
  return value;
}

int host_rounding_mode(Rounding rounding) {
  switch (rounding) {
    case Rounding::Rz: return FE_TOWARDZERO;
    case Rounding::Rm: return FE_DOWNWARD;
    case Rounding::Rp: return FE_UPWARD;
    default: return FE_TONEAREST;
  }
}

// f(args...) with the host in `rounding`'s mode; operands and result pass through `opaque` so the
// compiler cannot compute them outside the mode change (it assumes round-to-nearest throughout).
template <typename F, typename... Args>
auto in_rounding_mode(Rounding rounding, F f, Args... args) {
  const int mode = host_rounding_mode(rounding);
  if (mode == FE_TONEAREST) return f(args...);
  std::fesetround(mode);
  const auto result = opaque(f(opaque(args)...));
  std::fesetround(FE_TONEAREST);
  return result;
}

template <typename F>
F host_arithmetic(Opcode op, F a, F b, F c) {
  switch (op) {
    case Opcode::Add: return a + b;
    case Opcode::Sub: return a - b;
    case Opcode::Mul: return a * b;
    case Opcode::Mad: case Opcode::Fma: return std::fma(a, b, c);
    case Opcode::Div: return a / b;
    case Opcode::Rcp: return 1 / a;
    case Opcode::Sqrt: return std::sqrt(a);
    default: return std::numeric_limits<F>::quiet_NaN();
  }
}

// ---- the .approx instructions ----

constexpr double k_two_pi = 6.283185307179586476925;

// sin(2 pi t) and cos(2 pi t) with t reduced exactly, so that whole, half and quarter turns give
// exact zeros, signed as the GPU's are: the sine's like the angle for whole turns and unlike it
// for half turns; the cosine's negative where t and its distance to the nearest whole turn agree
// in sign.
double sine_of_turns(double turns, bool cosine) {
  double r = turns - std::nearbyint(turns);  // [-0.5, 0.5]
  if (cosine) {
    if (std::fabs(r) == 0.25) return (r > 0) == (turns > 0) ? -0.0 : 0.0;
    r = 0.25 - std::fabs(r);  // cos(2 pi r) = sin(2 pi (1/4 - |r|))
  } else if (r == 0 || std::fabs(r) == 0.5) {
    return std::copysign(0.0, r == 0 ? turns : -turns);
  } else if (std::fabs(r) > 0.25) {
    r = std::copysign(0.5 - std::fabs(r), r);  // sin(pi - x) = sin(x)
  }
  return std::sin(k_two_pi * r);
}

// The GPU scales the angle to turns with an f32 multiply by 1/(2 pi), rounded toward zero, and
// its sine unit flushes subnormal turns.
double turns_of(double angle) {
  const uint64_t turns = encode(k_f32, {angle * static_cast<double>(0.15915494f)}, Rounding::Rz);
  return decode(k_f32, flush_to_zero(k_f32, turns));
}

// The function an .approx instruction approximates, with the GPU's own first steps.
double approximate(Opcode op, double a, double b = 0) {
  switch (op) {
    case Opcode::Ex2: return std::exp2(a);
    case Opcode::Lg2: return std::log2(a);
    case Opcode::Sin: return std::isinf(a) ? k_nan : sine_of_turns(turns_of(a), false);
    case Opcode::Cos: return std::isinf(a) ? k_nan : sine_of_turns(turns_of(a), true);
    case Opcode::Tanh: return std::tanh(a);
    case Opcode::Rsqrt: return 1 / std::sqrt(a);
    case Opcode::Rcp: return 1 / a;
    case Opcode::Sqrt: return std::sqrt(a);
    case Opcode::Div:  // a * (1/b), where the reciprocal of 2^126 < |b| is flushed to zero
      return std::isfinite(b) && std::fabs(b) > 0x1p126 ? a * std::copysign(0.0, b) : a / b;
    default: return k_nan;
  }
}

bool is_approximation(const Instruction& in) {
  switch (in.opcode) {
    case Opcode::Ex2: case Opcode::Lg2: case Opcode::Sin: case Opcode::Cos: case Opcode::Tanh:
    case Opcode::Rsqrt:
      return true;
    case Opcode::Rcp: case Opcode::Sqrt: case Opcode::Div:
      return in.approx;
    default:
      return false;
  }
}

// ---- f16, bf16 and f32 ----

// An exactly zero sum is -0 if both addends are -0 or, rounding down, if they cancel (IEEE 754).
ExactValue signed_zero_sum(ExactValue sum, double x, double y, Rounding rounding) {
  if (sum.value != 0 || sum.error_sign != 0) return sum;
  const bool both_zero_same_sign = x == 0 && y == 0 && std::signbit(x) == std::signbit(y);
  const bool negative = both_zero_same_sign ? std::signbit(x) : rounding == Rounding::Rm;
  return {negative ? -0.0 : 0.0};
}

// The exact result of an IEEE operation on values of a narrow format, whose products and
// quotients a double's range holds.
ExactValue exact_result(Opcode op, Rounding rounding, double a, double b, double c) {
  switch (op) {
    case Opcode::Add: return signed_zero_sum(exact_sum(a, b), a, b, rounding);
    case Opcode::Sub: return signed_zero_sum(exact_sum(a, -b), a, -b, rounding);
    case Opcode::Mul: return {a * b};
    case Opcode::Mad: case Opcode::Fma: return signed_zero_sum(exact_fma(a, b, c), a * b, c, rounding);
    case Opcode::Div: return exact_quotient(a, b);
    case Opcode::Rcp: return exact_quotient(1, a);
    case Opcode::Sqrt: return exact_sqrt(a);
    default: return {k_nan};
  }
}

struct Narrow {
  const FloatFormat& format;
  const Instruction& in;

  uint64_t operand(uint64_t bits) const {
    bits &= (sign_bit(format) << 1) - 1;
    return in.ftz ? flush_to_zero(format, bits) : bits;
  }
  uint64_t finish(uint64_t bits) const {
    if (in.saturate) bits = saturate(bits);
    return in.ftz ? flush_to_zero(format, bits) : bits;
  }
  // .sat: clamp to [0, 1]; NaN and -0 become +0.
  uint64_t saturate(uint64_t bits) const {
    const double value = decode(format, bits);
    if (!(value > 0)) return 0;
    return value >= 1 ? encode(format, {1.0}, Rounding::Rn) : bits;
  }
  uint64_t round(double value) const { return encode(format, {value}, Rounding::Rn); }

  uint64_t execute(uint64_t a_bits, uint64_t b_bits, uint64_t c_bits) const;
  uint64_t arithmetic(double a, double b, double c) const;
  bool is_tiny(ExactValue exact) const;
  uint64_t min_max(uint64_t a_bits, uint64_t b_bits) const;
  uint64_t approximation(double a, double b) const;
};

uint64_t Narrow::execute(uint64_t a_bits, uint64_t b_bits, uint64_t c_bits) const {
  const uint64_t sign = sign_bit(format);
  if (in.opcode == Opcode::Copysign) {  // bits only, NaN payloads included
    return (b_bits & (sign - 1)) | (a_bits & sign);
  }
  a_bits = operand(a_bits);
  b_bits = operand(b_bits);
  c_bits = operand(c_bits);
  switch (in.opcode) {
    case Opcode::Abs: return is_nan(format, a_bits) ? format.canonical_nan : a_bits & (sign - 1);
    case Opcode::Neg: return is_nan(format, a_bits) ? format.canonical_nan : a_bits ^ sign;
    case Opcode::Min: case Opcode::Max: return min_max(a_bits, b_bits);
    default: break;
  }
  const double a = decode(format, a_bits), b = decode(format, b_bits), c = decode(format, c_bits);
  if (is_approximation(in)) return finish(approximation(a, b));
  return finish(arithmetic(a, b, c));
}

uint64_t Narrow::arithmetic(double a, double b, double c) const {
  if (&format == &k_f32 && is_nearest(in.rounding)) {  // the common case: the host's floats
    const float result = host_arithmetic<float>(in.opcode, static_cast<float>(a), static_cast<float>(b),
                                                static_cast<float>(c));
    const bool near_flush = in.ftz && result != 0 && std::fabs(result) <= std::numeric_limits<float>::min();
    if (!near_flush) return std::isnan(result) ? k_f32.canonical_nan : std::bit_cast<uint32_t>(result);
  }
  const ExactValue exact = exact_result(in.opcode, in.rounding, a, b, c);
  if (in.ftz && is_tiny(exact)) return std::signbit(exact.value) ? sign_bit(format) : 0;
  return encode(format, exact, in.rounding);
}

// .ftz flushes tiny results: those below the smallest normal value after rounding to the format's
// precision with an unbounded exponent (IEEE 754's tininess after rounding), so a result that
// only rounds up to the smallest normal value is flushed too.
bool Narrow::is_tiny(ExactValue exact) const {
  if (!std::isfinite(exact.value)) return false;
  const FloatFormat unbounded{format.mantissa_bits, 11, format.canonical_nan};
  const double rounded = decode(unbounded, encode(unbounded, exact, in.rounding));
  const double smallest_normal = decode(format, uint64_t{1} << format.mantissa_bits);
  return rounded != 0 && std::fabs(rounded) < smallest_normal;
}

// min and max return the other operand for one NaN, the canonical NaN for two (or for any, with
// .NaN); -0 is smaller than +0.
uint64_t Narrow::min_max(uint64_t a_bits, uint64_t b_bits) const {
  const bool a_nan = is_nan(format, a_bits), b_nan = is_nan(format, b_bits);
  if ((a_nan && b_nan) || ((a_nan || b_nan) && in.sub_op == SubOp::PropagateNaN)) return format.canonical_nan;
  if (a_nan) return b_bits;
  if (b_nan) return a_bits;
  const double a = decode(format, a_bits), b = decode(format, b_bits);
  const bool a_smaller = a < b || (a == b && (a_bits & sign_bit(format)) != 0);
  return (in.opcode == Opcode::Min) == a_smaller ? a_bits : b_bits;
}

uint64_t Narrow::approximation(double a, double b) const {
  const double value = approximate(in.opcode, a, b);
  if (in.ftz && is_tiny({value})) return std::signbit(value) ? sign_bit(format) : 0;
  if (&format == &k_f32) return round(value);
  // The GPU's f16 and bf16 approximations are its f32 ones with the extra mantissa bits dropped.
  const double single = static_cast<float>(value);
  return encode(format, {single}, std::fabs(single) < overflow_threshold(format) ? Rounding::Rz : Rounding::Rn);
}

uint64_t narrow_execute(const FloatFormat& format, const Instruction& in, const AluSources& s) {
  const uint64_t result = Narrow{format, in}.execute(s[0], s[1], s[2]);
  return in.relu ? relu(format, result) : result;
}

// .f16x2 and .bf16x2: the scalar operation on each 16-bit half.
uint64_t packed_execute(const FloatFormat& format, const Instruction& in, const AluSources& s) {
  uint64_t result = 0;
  for (int half = 0; half < 2; ++half) {
    const int shift = 16 * half;
    const uint64_t value = narrow_execute(format, in, {s[0] >> shift & 0xffff, s[1] >> shift & 0xffff,
                                                       s[2] >> shift & 0xffff, 0});
    result |= value << shift;
  }
  return result;
}

// ---- f64 ----

// One NaN operand: the other (two: f64_nan_operand's choice).
uint64_t f64_min_max(const Instruction& in, double a, double b) {
  if (std::isnan(a)) return std::bit_cast<uint64_t>(b);
  if (std::isnan(b)) return std::bit_cast<uint64_t>(a);
  const bool a_smaller = a < b || (a == b && std::signbit(a));
  return std::bit_cast<uint64_t>((in.opcode == Opcode::Min) == a_smaller ? a : b);
}

// rcp.approx.ftz.f64 and rsqrt.approx.ftz.f64, as the GPU computes them: from the upper 32 bits of
// the operand only, giving only the upper 32 bits of the result (subnormals flushed; a NaN result
// is 0x7fffffff00000000).
uint64_t gross_approximation(Opcode op, uint64_t bits) {
  double operand = std::bit_cast<double>(bits & 0xffffffff00000000);
  if (std::fpclassify(operand) == FP_SUBNORMAL) operand = std::copysign(0.0, operand);
  double result = approximate(op, operand);
  if (std::isnan(result)) return 0x7fffffff00000000;
  if (std::fpclassify(result) == FP_SUBNORMAL) result = std::copysign(0.0, result);
  return std::bit_cast<uint64_t>(result) & 0xffffffff00000000;
}

// The NaN operand an f64 instruction passes on (quieted) when there are several, in the H200's
// order of preference: b, then a for add, sub, mul, min and max; b, c, a for fma; a, b for div.
std::optional<uint64_t> f64_nan_operand(Opcode op, const AluSources& s) {
  static constexpr int k_binary[] = {1, 0}, k_fused[] = {1, 2, 0}, k_divide[] = {0, 1}, k_unary[] = {0};
  std::span<const int> order = k_binary;
  if (op == Opcode::Fma || op == Opcode::Mad) order = k_fused;
  if (op == Opcode::Div) order = k_divide;
  if (op == Opcode::Rcp || op == Opcode::Sqrt || op == Opcode::Rsqrt || op == Opcode::Abs || op == Opcode::Neg) order = k_unary;
  for (int i : order) {
    if (std::isnan(std::bit_cast<double>(s[i]))) return s[i] | (uint64_t{1} << 51);
  }
  return std::nullopt;
}

uint64_t f64_execute(const Instruction& in, const AluSources& s) {
  const double a = std::bit_cast<double>(s[0]), b = std::bit_cast<double>(s[1]), c = std::bit_cast<double>(s[2]);
  constexpr uint64_t k_sign = uint64_t{1} << 63;
  if (in.opcode == Opcode::Copysign) return (s[1] & ~k_sign) | (s[0] & k_sign);
  if ((in.opcode == Opcode::Rcp && in.approx) || (in.opcode == Opcode::Rsqrt && in.ftz)) {
    return gross_approximation(in.opcode, s[0]);
  }
  if (const auto nan = f64_nan_operand(in.opcode, s)) {
    const bool other_wins = (in.opcode == Opcode::Min || in.opcode == Opcode::Max) && !(std::isnan(a) && std::isnan(b));
    if (!other_wins) return *nan;
  }
  switch (in.opcode) {
    case Opcode::Abs: return s[0] & ~k_sign;
    case Opcode::Neg: return s[0] ^ k_sign;
    case Opcode::Min: case Opcode::Max: return f64_min_max(in, a, b);
    case Opcode::Rsqrt: return std::bit_cast<uint64_t>(approximate(Opcode::Rsqrt, a));
    default: break;
  }
  return std::bit_cast<uint64_t>(in_rounding_mode(in.rounding, host_arithmetic<double>, in.opcode, a, b, c));
}

// ---- comparison ----

bool compare_values(CompareOp compare, double x, double y) {
  const bool unordered = std::isnan(x) || std::isnan(y);
  switch (compare) {
    case CompareOp::Eq: return !unordered && x == y;
    case CompareOp::Ne: return !unordered && x != y;
    case CompareOp::Lt: return !unordered && x < y;
    case CompareOp::Le: return !unordered && x <= y;
    case CompareOp::Gt: return !unordered && x > y;
    case CompareOp::Ge: return !unordered && x >= y;
    case CompareOp::Equ: return unordered || x == y;
    case CompareOp::Neu: return unordered || x != y;
    case CompareOp::Ltu: return unordered || x < y;
    case CompareOp::Leu: return unordered || x <= y;
    case CompareOp::Gtu: return unordered || x > y;
    case CompareOp::Geu: return unordered || x >= y;
    case CompareOp::Num: return !unordered;
    case CompareOp::Nan: return unordered;
    default: return false;
  }
}

// The bulk of real kernels' float work: f32 add, sub, mul and fma in round-to-nearest, without
// .ftz or .sat, straight on the host's floats.
std::optional<uint64_t> plain_f32(const Instruction& in, const AluSources& s) {
  if (in.type != Type::F32 || in.ftz || in.saturate || !is_nearest(in.rounding)) return std::nullopt;
  switch (in.opcode) {
    case Opcode::Add: case Opcode::Sub: case Opcode::Mul: case Opcode::Fma: case Opcode::Mad: break;
    default: return std::nullopt;
  }
  auto f32 = [](uint64_t bits) { return std::bit_cast<float>(static_cast<uint32_t>(bits)); };
  const float result = host_arithmetic(in.opcode, f32(s[0]), f32(s[1]), f32(s[2]));
  return std::isnan(result) ? k_f32.canonical_nan : std::bit_cast<uint32_t>(result);
}

}  // namespace

uint64_t alu_float(const Instruction& in, const AluSources& sources) {
  if (const auto result = plain_f32(in, sources)) return *result;
  if (in.type == Type::F64) return f64_execute(in, sources);
  const FloatFormat& format = *float_format(in.type);
  if (in.type == Type::F16x2 || in.type == Type::BF16x2) return packed_execute(format, in, sources);
  return narrow_execute(format, in, sources);
}

uint64_t alu_float_compare(const Instruction& in, Type type, uint64_t a, uint64_t b) {
  if (type == Type::F64) return compare_values(in.compare, std::bit_cast<double>(a), std::bit_cast<double>(b));
  const FloatFormat& format = *float_format(type);
  const int halves = (type == Type::F16x2 || type == Type::BF16x2) ? 2 : 1;
  const int width = format.mantissa_bits + format.exponent_bits + 1;
  uint64_t result = 0;
  for (int half = 0; half < halves; ++half) {
    uint64_t x = truncate_bits(a >> (width * half), width), y = truncate_bits(b >> (width * half), width);
    if (in.ftz) x = flush_to_zero(format, x), y = flush_to_zero(format, y);
    result |= uint64_t{compare_values(in.compare, decode(format, x), decode(format, y))} << half;
  }
  return result;
}

uint64_t alu_float_test(SubOp test, Type type, uint64_t bits) {
  const double value = type == Type::F64 ? std::bit_cast<double>(bits) : std::bit_cast<float>(static_cast<uint32_t>(bits));
  const bool subnormal = type == Type::F64 ? std::fpclassify(value) == FP_SUBNORMAL : is_subnormal(k_f32, bits);
  switch (test) {
    case SubOp::Finite: return std::isfinite(value);
    case SubOp::Infinite: return std::isinf(value);
    case SubOp::Number: return !std::isnan(value);
    case SubOp::NotANumber: return std::isnan(value);
    case SubOp::Normal: return std::isfinite(value) && !subnormal;  // zeros count as normal
    case SubOp::Subnormal: return subnormal;
    default: return 0;
  }
}

}  // namespace tilecamp::emu
