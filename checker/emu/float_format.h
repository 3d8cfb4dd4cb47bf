// The binary floating-point formats narrower than the host's double (f16, bf16, f32), and exact
// rounding into them in any of PTX's rounding modes. The emulator computes a half- or
// single-precision result exactly in doubles (as a rounded value plus the sign of what rounding
// lost) and rounds it here once, so the result is the IEEE result without relying on the host's
// floating-point environment.
#pragma once

#include <cstdint>

#include "checker/ptx/module.h"

namespace tilecamp::emu {

struct FloatFormat {
  int mantissa_bits;
  int exponent_bits;
  uint64_t canonical_nan;  // what NVIDIA GPUs produce for any NaN result: all ones but the sign
};

inline constexpr FloatFormat k_f16{10, 5, 0x7fff};
inline constexpr FloatFormat k_bf16{7, 8, 0x7fff};
inline constexpr FloatFormat k_f32{23, 8, 0x7fffffff};

// The format of a scalar floating-point PTX type (the element of .f16x2 and .bf16x2); f64 has none.
const FloatFormat* float_format(ptx::Type type);

// A real number as `value` (already rounded to a double) plus the sign of `value`'s rounding error
// `exact - value`: -1, 0 or +1. Every double is a FloatFormat value's exact superset, so this
// carries all that rounding to a narrower format needs.
struct ExactValue {
  double value;
  int error_sign = 0;
};

// Exact results of operations on values of the narrow formats, whose products and quotients a
// double's range holds: a + b (TwoSum: the error of a rounded sum is itself a double), a * b + c
// (a * b is exact in a double), a / b and sqrt(a) (the sign of the remainder, by fma).
ExactValue exact_sum(double a, double b);
ExactValue exact_fma(double a, double b, double c);
ExactValue exact_quotient(double a, double b);
ExactValue exact_sqrt(double a);

double decode(const FloatFormat& format, uint64_t bits);
// Rounds to the format (Rounding::None means round to nearest even); NaN becomes the canonical
// NaN, and results beyond the largest finite value become infinity or that value as the rounding
// mode says.
uint64_t encode(const FloatFormat& format, ExactValue exact, ptx::Rounding rounding);

// 2^(emax + 1): magnitudes from here on are beyond the largest finite value in every rounding.
double overflow_threshold(const FloatFormat& format);
bool is_nan(const FloatFormat& format, uint64_t bits);
bool is_subnormal(const FloatFormat& format, uint64_t bits);
uint64_t sign_bit(const FloatFormat& format);
// .ftz: a subnormal becomes a zero of the same sign.
uint64_t flush_to_zero(const FloatFormat& format, uint64_t bits);
// .relu: a NaN becomes the canonical NaN, a negative number +0 (-0 is not negative: it stays).
uint64_t relu(const FloatFormat& format, uint64_t bits);
// .satfinite: an infinity becomes the largest finite value of its sign.
uint64_t saturate_finite(const FloatFormat& format, uint64_t bits);

}  // namespace tilecamp::emu
