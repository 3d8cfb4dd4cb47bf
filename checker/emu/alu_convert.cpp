// cvt: between integer types (wrapping, or clamping with .sat), from floats to integers (rounded
// as .rni/.rzi/.rmi/.rpi say, clamped to the destination's range, NaN to 0), from integers to
// floats and between floats (rounded as .rn/.rz/.rm/.rp say; .rni... round a float to an integral
// float; .relu and .satfinite clamp an f16 or bf16 result). Every conversion is computed exactly
// and rounded once.
#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>

#include "checker/emu/alu.h"
#include "checker/emu/float_format.h"

namespace tilecamp::emu {

using ptx::Instruction;
using ptx::Rounding;
using ptx::Type;

namespace {

bool is_integral_rounding(Rounding rounding) {
  return rounding == Rounding::Rni || rounding == Rounding::Rzi || rounding == Rounding::Rmi ||
         rounding == Rounding::Rpi;
}

double round_integral(Rounding rounding, double value) {
  switch (rounding) {
    case Rounding::Rni: return std::nearbyint(value);
    case Rounding::Rzi: return std::trunc(value);
    case Rounding::Rmi: return std::floor(value);
    case Rounding::Rpi: return std::ceil(value);
    default: return value;
  }
}

bool is_nan_of(Type type, uint64_t bits) {
  if (type == Type::F64) return std::isnan(std::bit_cast<double>(bits));
  return is_nan(*float_format(type), truncate_bits(bits, ptx::type_bits(type)));
}

// A float source's value, exactly (.ftz flushes an f32 subnormal first).
double float_value(const Instruction& in, uint64_t bits) {
  if (in.source_type == Type::F64) return std::bit_cast<double>(bits);
  const FloatFormat& format = *float_format(in.source_type);
  bits = truncate_bits(bits, ptx::type_bits(in.source_type));
  return decode(format, in.ftz && in.source_type == Type::F32 ? flush_to_zero(format, bits) : bits);
}

// NaN to a float, as the GPU converts it: to or from f64 the payload's top bits carry over,
// quieted (an f32 flushed by .ftz is the canonical NaN first); bf16 to f32 is a plain shift;
// anything else is the destination's canonical NaN. .sat makes NaN +0.
uint64_t convert_nan(const Instruction& in, uint64_t bits) {
  const Type from = in.source_type, to = in.type;
  if (in.saturate) return 0;
  if (from == Type::BF16 && to == Type::F32) return truncate_bits(bits, 16) << 16;
  if (from != Type::F64 && to != Type::F64) return float_format(to)->canonical_nan;
  if (from == Type::F32 && in.ftz) bits = k_f32.canonical_nan;
  const int from_mantissa = from == Type::F64 ? 52 : float_format(from)->mantissa_bits;
  const uint64_t sign = bits >> (ptx::type_bits(from) - 1) & 1;
  const uint64_t payload = truncate_bits(bits, from_mantissa) << (52 - from_mantissa);  // as f64's
  if (to == Type::F64) return sign << 63 | 0x7ff8000000000000 | payload;
  const FloatFormat& format = *float_format(to);
  const uint64_t exponent = ((uint64_t{1} << format.exponent_bits) - 1) << format.mantissa_bits;
  const uint64_t quiet = uint64_t{1} << (format.mantissa_bits - 1);
  return (sign ? sign_bit(format) : 0) | exponent | quiet | payload >> (52 - format.mantissa_bits);
}

// NaN to an integer: 0, except from f64 or to a 64-bit integer, where it is the sign bit alone.
uint64_t nan_to_integer(const Instruction& in) {
  const int width = ptx::type_bits(in.type);
  return in.source_type == Type::F64 || width == 64 ? uint64_t{1} << (width - 1) : 0;
}

// Signed integer results fill the register with their sign, as the GPU's cvt.s8 and cvt.s16 do.
uint64_t extend(Type type, uint64_t value) {
  return ptx::is_signed(type) ? static_cast<uint64_t>(sign_extend(value, ptx::type_bits(type))) : value;
}

// An integer source's value as a double plus the sign of what rounding to double lost.
ExactValue integer_value(Type type, uint64_t bits) {
  const int width = ptx::type_bits(type);
  if (ptx::is_signed(type)) {
    const int64_t value = sign_extend(bits, width);
    const double rounded = static_cast<double>(value);
    if (rounded >= 0x1p63) return {rounded, -1};
    const int64_t back = static_cast<int64_t>(rounded);
    return {rounded, value > back ? 1 : value < back ? -1 : 0};
  }
  const uint64_t value = truncate_bits(bits, width);
  const double rounded = static_cast<double>(value);
  if (rounded >= 0x1p64) return {rounded, -1};
  const uint64_t back = static_cast<uint64_t>(rounded);
  return {rounded, value > back ? 1 : value < back ? -1 : 0};
}

// Rounds to an f64 destination: the double itself, stepped one ulp where a directed mode says.
uint64_t to_f64(ExactValue exact, Rounding rounding) {
  double value = exact.value;
  const bool toward_zero = rounding == Rounding::Rz && exact.error_sign * value < 0;
  if (toward_zero || (rounding == Rounding::Rm && exact.error_sign < 0)) {
    value = std::nextafter(value, toward_zero ? 0.0 : -HUGE_VAL);
  } else if (rounding == Rounding::Rp && exact.error_sign > 0) {
    value = std::nextafter(value, HUGE_VAL);
  }
  return std::bit_cast<uint64_t>(value);
}

uint64_t to_float(const Instruction& in, ExactValue exact) {
  if (in.type == Type::F64) return to_f64(exact, in.rounding);
  const FloatFormat& format = *float_format(in.type);
  uint64_t bits = encode(format, exact, in.rounding);
  if (in.saturate) {  // [0, 1]; NaN and -0 become +0
    const double value = decode(format, bits);
    bits = !(value > 0) ? 0 : value >= 1 ? encode(format, {1.0}, Rounding::Rn) : bits;
  }
  if (in.satfinite) bits = saturate_finite(format, bits);  // cvt.rn.satfinite.f16.f32 and the like
  if (in.relu) bits = relu(format, bits);
  return in.ftz && in.type == Type::F32 ? flush_to_zero(format, bits) : bits;
}

// Floats convert to integers saturating: out-of-range values clamp.
uint64_t to_integer(Type type, double value) {
  const int width = ptx::type_bits(type);
  if (ptx::is_signed(type)) {
    const double limit = std::ldexp(1.0, width - 1);
    if (value >= limit) return truncate_bits(~uint64_t{0} >> (65 - width), width);
    if (value <= -limit) return truncate_bits(uint64_t{1} << (width - 1), width);
    return truncate_bits(static_cast<uint64_t>(static_cast<int64_t>(value)), width);
  }
  if (value <= 0) return 0;
  if (value >= std::ldexp(1.0, width)) return truncate_bits(~uint64_t{0}, width);
  return static_cast<uint64_t>(value);
}

uint64_t integer_to_integer(const Instruction& in, uint64_t a) {
  const Type to = in.type, from = in.source_type;
  const int to_bits = ptx::type_bits(to), from_bits = ptx::type_bits(from);
  const bool signed_from = ptx::is_signed(from);
  if (!in.saturate) {
    return truncate_bits(signed_from ? static_cast<uint64_t>(sign_extend(a, from_bits)) : truncate_bits(a, from_bits),
                         to_bits);
  }
  // .sat: clamp the source's value to the destination's range, comparing in 128 bits.
  __extension__ typedef __int128 int128;
  const int128 value = signed_from ? int128{sign_extend(a, from_bits)} : int128{truncate_bits(a, from_bits)};
  const int128 high = ptx::is_signed(to) ? (int128{1} << (to_bits - 1)) - 1 : (int128{1} << to_bits) - 1;
  const int128 low = ptx::is_signed(to) ? -high - 1 : 0;
  return truncate_bits(static_cast<uint64_t>(std::clamp(value, low, high)), to_bits);
}

uint64_t convert_one(const Instruction& in, uint64_t a) {
  const bool float_from = ptx::is_float(in.source_type), float_to = ptx::is_float(in.type);
  if (!float_from && !float_to) return extend(in.type, integer_to_integer(in, a));
  if (!float_from) return to_float(in, integer_value(in.source_type, a));
  if (is_nan_of(in.source_type, a)) return float_to ? convert_nan(in, a) : extend(in.type, nan_to_integer(in));
  const double value = float_value(in, a);
  if (!float_to) return extend(in.type, to_integer(in.type, round_integral(in.rounding, value)));
  if (is_integral_rounding(in.rounding)) return to_float(in, {round_integral(in.rounding, value)});
  return to_float(in, {value});
}

}  // namespace

uint64_t alu_convert(const Instruction& in, const AluSources& sources) {
  if (in.type == Type::F16x2 || in.type == Type::BF16x2) {  // cvt.rn.f16x2.f32 d, a, b: a high, b low
    Instruction element = in;
    element.type = in.type == Type::F16x2 ? Type::F16 : Type::BF16;
    return convert_one(element, sources[0]) << 16 | convert_one(element, sources[1]);
  }
  return convert_one(in, sources[0]);
}

}  // namespace tilecamp::emu
