#include "checker/emu/alu.h"

#include <algorithm>
#include <bit>
#include <cfenv>
#include <cmath>
#include <limits>

namespace tilecamp::emu {

using ptx::CompareOp;
using ptx::Instruction;
using ptx::MulMode;
using ptx::Opcode;
using ptx::Rounding;
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

namespace {

// 128-bit products for mul.hi and mul.wide of 64-bit operands (a GCC/Clang extension).
__extension__ typedef __int128 int128;
__extension__ typedef unsigned __int128 uint128;

float as_f32(uint64_t bits) { return std::bit_cast<float>(static_cast<uint32_t>(bits)); }
double as_f64(uint64_t bits) { return std::bit_cast<double>(bits); }
uint64_t bits_of(float value) { return std::bit_cast<uint32_t>(value); }
uint64_t bits_of(double value) { return std::bit_cast<uint64_t>(value); }

template <typename F>
F flush_subnormal(F value, bool ftz) {
  if (ftz && std::fpclassify(value) == FP_SUBNORMAL) return std::copysign(F(0), value);
  return value;
}

// Runs `compute` under the rounding mode an instruction names (round-to-nearest by default).
template <typename Compute>
auto with_rounding(Rounding rounding, Compute compute) {
  int mode = FE_TONEAREST;
  if (rounding == Rounding::Rz) mode = FE_TOWARDZERO;
  if (rounding == Rounding::Rm) mode = FE_DOWNWARD;
  if (rounding == Rounding::Rp) mode = FE_UPWARD;
  if (mode == FE_TONEAREST) return compute();
  std::fesetround(mode);
  auto result = compute();
  std::fesetround(FE_TONEAREST);
  return result;
}

template <typename F>
F float_min_max(bool is_min, F a, F b) {
  if (std::isnan(a)) return b;
  if (std::isnan(b)) return a;
  return is_min ? std::fmin(a, b) : std::fmax(a, b);
}

template <typename F>
F float_binary(const Instruction& in, F a, F b) {
  a = flush_subnormal(a, in.ftz);
  b = flush_subnormal(b, in.ftz);
  F result = with_rounding(in.rounding, [&]() -> F {
    switch (in.opcode) {
      case Opcode::Add: return a + b;
      case Opcode::Sub: return a - b;
      case Opcode::Mul: return a * b;
      case Opcode::Div: return a / b;
      case Opcode::Min: return float_min_max(true, a, b);
      case Opcode::Max: return float_min_max(false, a, b);
      default: return std::numeric_limits<F>::quiet_NaN();
    }
  });
  if (in.saturate) result = std::isnan(result) ? F(0) : std::clamp(result, F(0), F(1));
  return flush_subnormal(result, in.ftz);
}

uint64_t integer_multiply(const Instruction& in, uint64_t a, uint64_t b) {
  const int bits = ptx::type_bits(in.type);
  const bool is_signed_type = ptx::is_signed(in.type);
  if (in.mul_mode == MulMode::Wide || in.mul_mode == MulMode::Hi) {
    const int128 product =
        is_signed_type ? static_cast<int128>(sign_extend(a, bits)) * sign_extend(b, bits)
                       : static_cast<int128>(static_cast<uint128>(truncate_bits(a, bits)) * truncate_bits(b, bits));
    if (in.mul_mode == MulMode::Wide) return truncate_bits(static_cast<uint64_t>(product), 2 * bits);
    return truncate_bits(static_cast<uint64_t>(product >> bits), bits);
  }
  return truncate_bits(a * b, bits);
}

uint64_t integer_binary(const Instruction& in, uint64_t a, uint64_t b) {
  const int bits = ptx::type_bits(in.type);
  const bool s = ptx::is_signed(in.type);
  const int64_t sa = sign_extend(a, bits), sb = sign_extend(b, bits);
  const uint64_t ua = truncate_bits(a, bits), ub = truncate_bits(b, bits);
  switch (in.opcode) {
    case Opcode::Add:
      if (in.saturate && s) {
        return truncate_bits(static_cast<uint64_t>(std::clamp<int64_t>(sa + sb, INT32_MIN, INT32_MAX)), bits);
      }
      return truncate_bits(a + b, bits);
    case Opcode::Sub:
      if (in.saturate && s) {
        return truncate_bits(static_cast<uint64_t>(std::clamp<int64_t>(sa - sb, INT32_MIN, INT32_MAX)), bits);
      }
      return truncate_bits(a - b, bits);
    case Opcode::Mul: return integer_multiply(in, a, b);
    // Division by zero is undefined in PTX; the emulator answers all ones rather than trapping.
    case Opcode::Div:
      if (ub == 0) return truncate_bits(~uint64_t{0}, bits);
      return truncate_bits(s ? static_cast<uint64_t>(sa / sb) : ua / ub, bits);
    case Opcode::Rem:
      if (ub == 0) return ua;
      return truncate_bits(s ? static_cast<uint64_t>(sa % sb) : ua % ub, bits);
    case Opcode::Min: return truncate_bits(s ? static_cast<uint64_t>(std::min(sa, sb)) : std::min(ua, ub), bits);
    case Opcode::Max: return truncate_bits(s ? static_cast<uint64_t>(std::max(sa, sb)) : std::max(ua, ub), bits);
    case Opcode::And: return ua & ub;
    case Opcode::Or: return ua | ub;
    case Opcode::Xor: return ua ^ ub;
    case Opcode::Shl: return b >= static_cast<uint64_t>(bits) ? 0 : truncate_bits(ua << b, bits);
    case Opcode::Shr:
      if (s) {
        return truncate_bits(static_cast<uint64_t>(sa >> std::min<uint64_t>(b, bits - 1)), bits);
      }
      return b >= static_cast<uint64_t>(bits) ? 0 : ua >> b;
    default: return 0;
  }
}

}  // namespace

int result_bits(const Instruction& in) {
  if (in.opcode == Opcode::Setp) return 1;
  int bits = ptx::type_bits(in.type);
  if ((in.opcode == Opcode::Mul || in.opcode == Opcode::Mad) && in.mul_mode == MulMode::Wide) {
    bits *= 2;
  }
  return bits;
}

uint64_t alu_binary(const Instruction& in, uint64_t a, uint64_t b) {
  if (in.type == Type::F32) return bits_of(float_binary(in, as_f32(a), as_f32(b)));
  if (in.type == Type::F64) return bits_of(float_binary(in, as_f64(a), as_f64(b)));
  if (in.type == Type::Pred) {  // and/or/xor on predicates
    return integer_binary(in, a & 1, b & 1) & 1;
  }
  return integer_binary(in, a, b);
}

uint64_t alu_ternary(const Instruction& in, uint64_t a, uint64_t b, uint64_t c) {
  if (in.type == Type::F32) {
    float result = with_rounding(in.rounding, [&] {
      return std::fmaf(flush_subnormal(as_f32(a), in.ftz), flush_subnormal(as_f32(b), in.ftz),
                       flush_subnormal(as_f32(c), in.ftz));
    });
    if (in.saturate) result = std::isnan(result) ? 0.0f : std::clamp(result, 0.0f, 1.0f);
    return bits_of(flush_subnormal(result, in.ftz));
  }
  if (in.type == Type::F64) {
    return bits_of(with_rounding(in.rounding, [&] { return std::fma(as_f64(a), as_f64(b), as_f64(c)); }));
  }
  Instruction multiply = in;
  multiply.opcode = Opcode::Mul;
  const uint64_t product = integer_multiply(multiply, a, b);
  const int bits = result_bits(in);
  return truncate_bits(product + c, bits);
}

uint64_t alu_unary(const Instruction& in, uint64_t a) {
  const int bits = ptx::type_bits(in.type);
  switch (in.opcode) {
    case Opcode::Abs:
      if (in.type == Type::F32) return bits_of(std::fabs(as_f32(a)));
      if (in.type == Type::F64) return bits_of(std::fabs(as_f64(a)));
      return truncate_bits(static_cast<uint64_t>(std::llabs(sign_extend(a, bits))), bits);
    case Opcode::Neg:
      if (in.type == Type::F32) return bits_of(-as_f32(a));
      if (in.type == Type::F64) return bits_of(-as_f64(a));
      return truncate_bits(~a + 1, bits);
    case Opcode::Not:
      return in.type == Type::Pred ? (~a & 1) : truncate_bits(~a, bits);
    case Opcode::Cnot:
      return truncate_bits(a, bits) == 0 ? 1 : 0;
    default:
      return 0;
  }
}

bool alu_compare(CompareOp compare, Type type, uint64_t a, uint64_t b) {
  if (ptx::is_float(type)) {
    const double x = type == Type::F64 ? as_f64(a) : as_f32(a);
    const double y = type == Type::F64 ? as_f64(b) : as_f32(b);
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
  const int bits = ptx::type_bits(type);
  const int64_t sa = sign_extend(a, bits), sb = sign_extend(b, bits);
  const uint64_t ua = truncate_bits(a, bits), ub = truncate_bits(b, bits);
  const bool s = ptx::is_signed(type);
  switch (compare) {
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
    default: return false;
  }
}

namespace {

double round_integral(Rounding rounding, double value) {
  switch (rounding) {
    case Rounding::Rni: return std::nearbyint(value);
    case Rounding::Rzi: return std::trunc(value);
    case Rounding::Rmi: return std::floor(value);
    case Rounding::Rpi: return std::ceil(value);
    default: return value;
  }
}

// float -> integer conversions saturate in PTX; NaN becomes 0.
uint64_t float_to_integer(double value, Type destination) {
  const int bits = ptx::type_bits(destination);
  if (std::isnan(value)) return 0;
  if (ptx::is_signed(destination)) {
    const double low = std::ldexp(-1.0, bits - 1);
    const double high = std::ldexp(1.0, bits - 1);
    if (value <= low) return truncate_bits(static_cast<uint64_t>(static_cast<int64_t>(low)), bits);
    if (value >= high) return truncate_bits(~uint64_t{0} >> (65 - bits), bits);
    return truncate_bits(static_cast<uint64_t>(static_cast<int64_t>(value)), bits);
  }
  if (value <= 0) return 0;
  if (value >= std::ldexp(1.0, bits)) return truncate_bits(~uint64_t{0}, bits);
  return static_cast<uint64_t>(value);
}

}  // namespace

uint64_t alu_convert(const Instruction& in, uint64_t a) {
  const Type to = in.type, from = in.source_type;
  const int to_bits = ptx::type_bits(to), from_bits = ptx::type_bits(from);
  if (!ptx::is_float(from) && !ptx::is_float(to)) {
    const int64_t value = ptx::is_signed(from) ? sign_extend(a, from_bits)
                                               : static_cast<int64_t>(truncate_bits(a, from_bits));
    if (in.saturate) {
      const bool unsigned_from = !ptx::is_signed(from);
      if (ptx::is_signed(to)) {
        const int64_t high = (int64_t{1} << (to_bits - 1)) - 1;
        if (unsigned_from && truncate_bits(a, from_bits) > static_cast<uint64_t>(high)) return static_cast<uint64_t>(high);
        return truncate_bits(static_cast<uint64_t>(std::clamp<int64_t>(value, -high - 1, high)), to_bits);
      }
      if (!unsigned_from && value < 0) return 0;
      if (to_bits < 64 && static_cast<uint64_t>(value) > truncate_bits(~uint64_t{0}, to_bits)) {
        return truncate_bits(~uint64_t{0}, to_bits);
      }
    }
    return truncate_bits(static_cast<uint64_t>(value), to_bits);
  }
  if (ptx::is_float(from) && ptx::is_float(to)) {
    const double value = from == Type::F64 ? as_f64(a) : as_f32(a);
    const double rounded = round_integral(in.rounding, flush_subnormal(value, in.ftz && from == Type::F32));
    if (to == Type::F64) return bits_of(rounded);
    float narrowed = with_rounding(in.rounding, [&] { return static_cast<float>(rounded); });
    if (in.saturate) narrowed = std::isnan(narrowed) ? 0.0f : std::clamp(narrowed, 0.0f, 1.0f);
    return bits_of(flush_subnormal(narrowed, in.ftz));
  }
  if (ptx::is_float(from)) {  // float -> integer
    const double value = from == Type::F64 ? as_f64(a) : as_f32(a);
    return float_to_integer(round_integral(in.rounding, value), to);
  }
  // integer -> float
  const bool s = ptx::is_signed(from);
  const int64_t signed_value = sign_extend(a, from_bits);
  const uint64_t unsigned_value = truncate_bits(a, from_bits);
  if (to == Type::F64) {
    return bits_of(with_rounding(in.rounding, [&] {
      return s ? static_cast<double>(signed_value) : static_cast<double>(unsigned_value);
    }));
  }
  return bits_of(with_rounding(in.rounding, [&] {
    return s ? static_cast<float>(signed_value) : static_cast<float>(unsigned_value);
  }));
}

}  // namespace tilecamp::emu
