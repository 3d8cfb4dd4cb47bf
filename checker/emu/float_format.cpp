#include "checker/emu/float_format.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>

namespace tilecamp::emu {

using ptx::Rounding;
using ptx::Type;

namespace {

int bias(const FloatFormat& format) { return (1 << (format.exponent_bits - 1)) - 1; }
int min_exponent(const FloatFormat& format) { return 1 - bias(format); }

uint64_t infinity_bits(const FloatFormat& format) {
  return uint64_t{(1u << format.exponent_bits) - 1} << format.mantissa_bits;
}

int sign_of(double value) { return value > 0 ? 1 : value < 0 ? -1 : 0; }

// The bits of a magnitude that the format represents exactly.
uint64_t magnitude_bits(const FloatFormat& format, double magnitude) {
  const int e_min = min_exponent(format);
  if (magnitude < std::ldexp(1.0, e_min)) {  // subnormal or zero
    return static_cast<uint64_t>(std::ldexp(magnitude, format.mantissa_bits - e_min));
  }
  int exponent = 0;
  const double fraction = std::frexp(magnitude, &exponent);  // in [0.5, 1)
  const uint64_t biased = static_cast<uint64_t>(exponent - 1 + bias(format));
  const uint64_t mantissa = static_cast<uint64_t>(std::ldexp(fraction, format.mantissa_bits + 1)) -
                            (uint64_t{1} << format.mantissa_bits);
  return biased << format.mantissa_bits | mantissa;
}

// Where the exact magnitude lies between the representable value below it and the next one up.
enum class Rest { Exact, BelowHalf, Half, AboveHalf };

struct Truncated {
  double units;    // the magnitude truncated, in quanta
  double quantum;  // the spacing of representable values there
  Rest rest;
};

Truncated truncate_magnitude(const FloatFormat& format, double magnitude, int error_sign) {
  auto split = [&](double m) {
    int exponent = 0;
    std::frexp(m, &exponent);
    const double quantum = std::ldexp(1.0, std::max(exponent - 1, min_exponent(format)) - format.mantissa_bits);
    const double units = std::floor(m / quantum);
    return Truncated{units, quantum, Rest::Exact};
  };
  Truncated t = split(magnitude);
  const double remainder = magnitude - t.units * t.quantum;  // exact: the low bits of `magnitude`
  if (remainder == 0) {
    if (error_sign < 0) {
      // Just below a representable value, which may start a binade: truncate the double below.
      t = split(std::nextafter(magnitude, 0.0));
      t.rest = Rest::AboveHalf;
    } else {
      t.rest = error_sign > 0 ? Rest::BelowHalf : Rest::Exact;
    }
    return t;
  }
  // The remainder and half a quantum are multiples of the double's own spacing, which is larger
  // than the error, so only an exact tie needs the error's sign.
  const double half = t.quantum / 2;
  if (remainder != half) {
    t.rest = remainder < half ? Rest::BelowHalf : Rest::AboveHalf;
  } else {
    t.rest = error_sign > 0 ? Rest::AboveHalf : error_sign < 0 ? Rest::BelowHalf : Rest::Half;
  }
  return t;
}

enum class Direction { Nearest, TowardZero, AwayFromZero };

Direction magnitude_direction(Rounding rounding, bool negative) {
  switch (rounding) {
    case Rounding::Rz: case Rounding::Rzi: return Direction::TowardZero;
    case Rounding::Rm: case Rounding::Rmi: return negative ? Direction::AwayFromZero : Direction::TowardZero;
    case Rounding::Rp: case Rounding::Rpi: return negative ? Direction::TowardZero : Direction::AwayFromZero;
    default: return Direction::Nearest;
  }
}

}  // namespace

const FloatFormat* float_format(Type type) {
  switch (type) {
    case Type::F16: case Type::F16x2: return &k_f16;
    case Type::BF16: case Type::BF16x2: return &k_bf16;
    case Type::F32: return &k_f32;
    default: return nullptr;
  }
}

ExactValue exact_sum(double a, double b) {
  const double sum = a + b;
  if (!std::isfinite(sum)) return {sum, 0};
  const double b_part = sum - a;
  const double error = (a - (sum - b_part)) + (b - b_part);
  return {sum, sign_of(error)};
}

ExactValue exact_fma(double a, double b, double c) { return exact_sum(a * b, c); }

ExactValue exact_quotient(double a, double b) {
  const double quotient = a / b;
  if (!std::isfinite(quotient) || quotient == 0) return {quotient, 0};
  return {quotient, sign_of(std::fma(-quotient, b, a)) * sign_of(b)};
}

ExactValue exact_sqrt(double a) {
  const double root = std::sqrt(a);
  if (!std::isfinite(root) || root == 0) return {root, 0};
  return {root, sign_of(std::fma(-root, root, a))};
}

double decode(const FloatFormat& format, uint64_t bits) {
  if (&format == &k_f32) return std::bit_cast<float>(static_cast<uint32_t>(bits));  // the common case
  const uint64_t mantissa = bits & ((uint64_t{1} << format.mantissa_bits) - 1);
  const uint64_t biased = (bits >> format.mantissa_bits) & ((uint64_t{1} << format.exponent_bits) - 1);
  double magnitude = 0;
  if (biased == (uint64_t{1} << format.exponent_bits) - 1) {
    magnitude = mantissa ? std::numeric_limits<double>::quiet_NaN() : std::numeric_limits<double>::infinity();
  } else if (biased == 0) {
    magnitude = std::ldexp(static_cast<double>(mantissa), min_exponent(format) - format.mantissa_bits);
  } else {
    magnitude = std::ldexp(static_cast<double>(mantissa | uint64_t{1} << format.mantissa_bits),
                           static_cast<int>(biased) - bias(format) - format.mantissa_bits);
  }
  return (bits & sign_bit(format)) ? -magnitude : magnitude;
}

uint64_t encode(const FloatFormat& format, ExactValue exact, Rounding rounding) {
  if (std::isnan(exact.value)) return format.canonical_nan;
  const bool negative = std::signbit(exact.value);
  const uint64_t sign = negative ? sign_bit(format) : 0;
  const double magnitude = std::fabs(exact.value);
  const Direction direction = magnitude_direction(rounding, negative);
  const uint64_t infinity = infinity_bits(format);
  if (magnitude == 0) return sign;
  if (std::isinf(magnitude)) return sign | infinity;
  if (magnitude >= overflow_threshold(format)) {
    return sign | (direction == Direction::TowardZero ? infinity - 1 : infinity);
  }
  const Truncated t = truncate_magnitude(format, magnitude, negative ? -exact.error_sign : exact.error_sign);
  bool up = false;
  if (direction == Direction::Nearest) {
    up = t.rest == Rest::AboveHalf || (t.rest == Rest::Half && std::fmod(t.units, 2.0) != 0);
  } else if (direction == Direction::AwayFromZero) {
    up = t.rest != Rest::Exact;
  }
  const double rounded = (t.units + (up ? 1 : 0)) * t.quantum;
  if (rounded >= overflow_threshold(format)) return sign | infinity;
  return sign | magnitude_bits(format, rounded);
}

double overflow_threshold(const FloatFormat& format) { return std::ldexp(1.0, bias(format) + 1); }

bool is_nan(const FloatFormat& format, uint64_t bits) {
  return (bits & (sign_bit(format) - 1)) > infinity_bits(format);
}

bool is_subnormal(const FloatFormat& format, uint64_t bits) {
  return (bits & infinity_bits(format)) == 0 && (bits & ((uint64_t{1} << format.mantissa_bits) - 1)) != 0;
}

uint64_t sign_bit(const FloatFormat& format) {
  return uint64_t{1} << (format.mantissa_bits + format.exponent_bits);
}

uint64_t flush_to_zero(const FloatFormat& format, uint64_t bits) {
  return is_subnormal(format, bits) ? bits & sign_bit(format) : bits;
}

uint64_t relu(const FloatFormat& format, uint64_t bits) {
  if (is_nan(format, bits)) return format.canonical_nan;
  const bool negative = (bits & sign_bit(format)) != 0 && (bits & (sign_bit(format) - 1)) != 0;
  return negative ? 0 : bits;
}

uint64_t saturate_finite(const FloatFormat& format, uint64_t bits) {
  const bool infinite = (bits & (sign_bit(format) - 1)) == infinity_bits(format);
  return infinite ? bits - 1 : bits;  // the exponent's last finite step, every mantissa bit set
}

}  // namespace tilecamp::emu
