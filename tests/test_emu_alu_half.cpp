// Half-precision instructions on the emulator (the PTX that cuda_fp16.h and cuda_bf16.h wrap, as
// inline PTX so the kernels need no toolkit headers): conversions in every rounding mode, f16 and
// bf16 arithmetic rounded to nearest even, the packed .f16x2/.bf16x2 forms, comparisons, and
// cvt's .satfinite and .relu.
// References: the host's _Float16 for f16, and bf16 rounded by hand from the float's upper half.
#include <doctest/doctest.h>

#include <cmath>

#include "checker/ptx/instruction_decoder.h"
#include "tests/test_emu_alu_support.h"

namespace tilecamp {
namespace {

using test::bits_of;
using test::float_of;
using test::run_elementwise;

constexpr char k_kernels[] = R"(
#define CVT(op, k) asm(op " %0, %1;" : "=h"(h) : "f"(a)); o[k] = h;

extern "C" __global__ void convert(const float* in, u32* out, int n) {
  THREAD
  float a = in[i], w;
  u32* o = out + 12 * i;
  u16 h;
  CVT("cvt.rn.f16.f32", 0) CVT("cvt.rz.f16.f32", 1) CVT("cvt.rm.f16.f32", 2) CVT("cvt.rp.f16.f32", 3)
  CVT("cvt.rn.bf16.f32", 4) CVT("cvt.rz.bf16.f32", 5) CVT("cvt.rm.bf16.f32", 6) CVT("cvt.rp.bf16.f32", 7)
  asm("cvt.f32.f16 %0, %1;" : "=f"(w) : "h"((u16)o[0])); o[8] = __float_as_uint(w);
  asm("cvt.f32.bf16 %0, %1;" : "=f"(w) : "h"((u16)o[4])); o[9] = __float_as_uint(w);
  u32 r;
  asm("cvt.rn.f16x2.f32 %0, %1, %2;" : "=r"(r) : "f"(a), "f"(-a)); o[10] = r;
  asm("cvt.rn.bf16x2.f32 %0, %1, %2;" : "=r"(r) : "f"(a), "f"(0.5f)); o[11] = r;
}

#define OP2(op, k) asm(op " %0, %1, %2;" : "=h"(h) : "h"(a), "h"(b)); o[k] = h;
#define OP1(op, k) asm(op " %0, %1;" : "=h"(h) : "h"(a)); o[k] = h;

extern "C" __global__ void arithmetic_f16(const u16* in, u16* out, int n) {
  THREAD
  u16 a = in[3 * i], b = in[3 * i + 1], c = in[3 * i + 2], h;
  u16* o = out + 10 * i;
  OP2("add.f16", 0) OP2("sub.f16", 1) OP2("mul.f16", 2) OP2("min.f16", 3) OP2("max.f16", 4)
  OP1("neg.f16", 5) OP1("abs.f16", 6)
  asm("fma.rn.f16 %0, %1, %2, %3;" : "=h"(h) : "h"(a), "h"(b), "h"(c)); o[7] = h;
  OP2("mul.ftz.f16", 8) OP2("add.sat.f16", 9)
}

extern "C" __global__ void arithmetic_bf16(const u16* in, u16* out, int n) {
  THREAD
  u16 a = in[3 * i], b = in[3 * i + 1], c = in[3 * i + 2], h;
  u16* o = out + 6 * i;
  OP2("add.rn.bf16", 0) OP2("sub.rn.bf16", 1) OP2("mul.rn.bf16", 2) OP2("max.bf16", 3) OP1("neg.bf16", 4)
  asm("fma.rn.bf16 %0, %1, %2, %3;" : "=h"(h) : "h"(a), "h"(b), "h"(c)); o[5] = h;
}

extern "C" __global__ void packed(const u32* in, u32* out, int n) {
  THREAD
  u32 a = in[3 * i], b = in[3 * i + 1], c = in[3 * i + 2], r, p, q;
  u32* o = out + 6 * i;
  asm("add.f16x2 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b)); o[0] = r;
  asm("fma.rn.bf16x2 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(c)); o[1] = r;
  asm("{ .reg .pred x, y; setp.lt.f16x2 x|y, %2, %3; selp.u32 %0, 1, 0, x; selp.u32 %1, 1, 0, y; }"
      : "=r"(p), "=r"(q) : "r"(a), "r"(b));
  o[2] = p | q << 1;
  float lo, hi;  // as cuda_fp16.h's __low2float and __high2float write it
  asm("{.reg .f16 low,high;\n mov.b32 {low,high},%1;\n cvt.f32.f16 %0, low;}" : "=f"(lo) : "r"(a));
  asm("{.reg .f16 low,high;\n mov.b32 {low,high},%1;\n cvt.f32.f16 %0, high;}" : "=f"(hi) : "r"(a));
  o[3] = __float_as_uint(lo);
  o[4] = __float_as_uint(hi);
  asm("{ .reg .pred x; setp.gtu.bf16 x, %1, %2; selp.u32 %0, 1, 0, x; }" : "=r"(r) : "h"((u16)b), "h"((u16)c));
  o[5] = r;
}

extern "C" __global__ void clamped(const float* in, u32* out, int n) {
  THREAD
  float a = in[i];
  u32* o = out + 7 * i;
  u16 h;
  u32 r;
  CVT("cvt.rn.satfinite.f16.f32", 0) CVT("cvt.rz.satfinite.f16.f32", 1) CVT("cvt.rn.satfinite.bf16.f32", 2)
  CVT("cvt.rn.relu.f16.f32", 3) CVT("cvt.rz.relu.bf16.f32", 4)
  asm("cvt.rn.relu.satfinite.f16x2.f32 %0, %1, %2;" : "=r"(r) : "f"(a), "f"(-a)); o[5] = r;
  asm("cvt.rz.satfinite.bf16x2.f32 %0, %1, %2;" : "=r"(r) : "f"(a), "f"(-a)); o[6] = r;
}
)";

const ptx::Module& half_module() {
  static const ptx::Module module = test::compile_kernels("alu_half.cu", k_kernels);
  return module;
}

// ---- references ----

uint16_t f16_bits(_Float16 value) { return std::bit_cast<uint16_t>(value); }
double f16_value(uint16_t bits) { return static_cast<double>(std::bit_cast<_Float16>(bits)); }
double bf16_value(uint16_t bits) { return float_of(uint32_t{bits} << 16); }

// A double rounded to nearest even in bf16: the float's upper half, corrected where rounding to
// float made a tie that the exact value is not.
uint16_t bf16_nearest(double exact) {
  if (std::isnan(exact)) return 0x7fff;
  const float single = static_cast<float>(exact);
  const uint32_t bits = bits_of(single);
  const uint32_t low = bits & 0xffff;
  uint32_t upper = bits >> 16;
  const bool tie = low == 0x8000;
  const bool up = low > 0x8000 || (tie && (single == exact ? (upper & 1) != 0 : std::fabs(exact) > std::fabs(single)));
  return static_cast<uint16_t>(up ? upper + 1 : upper);
}

uint16_t f16_nearest(double exact) { return std::isnan(exact) ? 0x7fff : f16_bits(static_cast<_Float16>(exact)); }

// Directed rounding: the nearest value, stepped once where it lies on the wrong side.
enum class Mode { Nearest, TowardZero, Down, Up };
uint16_t round_16(double exact, Mode mode, uint16_t (*nearest)(double), double (*value)(uint16_t)) {
  const uint16_t bits = nearest(exact);
  const double v = value(bits);
  if (std::isnan(exact) || v == exact || mode == Mode::Nearest) return bits;
  const bool zero = (bits & 0x7fff) == 0;
  const uint16_t smaller = zero ? bits : static_cast<uint16_t>(bits - 1);  // one step toward zero
  const uint16_t larger = zero ? (exact < 0 ? 0x8001 : 0x0001) : static_cast<uint16_t>(bits + 1);
  switch (mode) {
    case Mode::TowardZero: return std::fabs(v) > std::fabs(exact) ? smaller : bits;
    case Mode::Down: return v < exact ? bits : v > 0 ? smaller : larger;
    case Mode::Up: return v > exact ? bits : v < 0 ? smaller : larger;
    default: return bits;
  }
}

// Whether x + y (or a product plus y) is exact in a double: close exponents, or a special operand.
bool sum_is_exact(double x, double y, int max_exponent_gap) {
  if (!std::isfinite(x) || !std::isfinite(y) || x == 0 || y == 0) return true;
  return std::abs(std::ilogb(x) - std::ilogb(y)) < max_exponent_gap;
}

// `value` rounded to `bits` significant bits as if the exponent were unbounded (for .ftz's
// tininess test).
double round_unbounded(double value, int bits) {
  if (!std::isfinite(value) || value == 0) return value;
  int exponent = 0;
  const double fraction = std::frexp(value, &exponent);
  return std::ldexp(std::nearbyint(std::ldexp(fraction, bits)), exponent - bits);
}

// Every pattern class of a 16-bit float: zeros, subnormals, normals at both ends, infinities, NaNs.
std::vector<uint16_t> half_operands(size_t random_count, uint32_t seed, bool bf16) {
  std::vector<uint16_t> values = bf16 ? std::vector<uint16_t>{0x0000, 0x0001, 0x007f, 0x0080, 0x3f80, 0x3f81, 0x3fc0, 0x4000,
                                                               0x7f7f, 0x7f80, 0x7fc0, 0x7fff, 0x4049, 0x3c00}
                                      : std::vector<uint16_t>{0x0000, 0x0001, 0x03ff, 0x0400, 0x3c00, 0x3c01, 0x3e00, 0x4000,
                                                               0x7bff, 0x7c00, 0x7e00, 0x7fff, 0x3555, 0x0200};
  const size_t edges = values.size();
  for (size_t i = 0; i < edges; ++i) values.push_back(values[i] | 0x8000);
  for (uint32_t r : test::random_values<uint32_t>(random_count, seed)) values.push_back(static_cast<uint16_t>(r));
  return values;
}

std::vector<uint16_t> half_triples(const std::vector<uint16_t>& values) {
  std::vector<uint16_t> triples;
  for (size_t x = 0; x < values.size(); ++x) {
    for (size_t y = 0; y < values.size(); y += 3) {
      triples.insert(triples.end(), {values[x], values[y], values[(x + y) % values.size()]});
    }
  }
  return triples;
}

TEST_CASE("cvt rounds f32 to f16 and bf16 in each of .rn/.rz/.rm/.rp and widens them back exactly") {
  std::vector<float> in;
  for (uint32_t bits : test::edge_f32()) in.push_back(float_of(bits));
  for (float v : {65504.0f, 65519.99f, 65520.0f, 0x1p-24f, 0x1p-25f, 0x1.8p-25f, 0x1.004p0f, 0x1.002p0f, 0x1.01p0f, 0x1.008p0f}) {
    in.insert(in.end(), {v, -v});
  }
  for (float r : test::random_values<float>(3000, 31)) in.push_back(r);
  const int n = static_cast<int>(in.size());
  const auto out = run_elementwise<uint32_t>(half_module(), "convert", in, n, 12);
  const Mode modes[] = {Mode::Nearest, Mode::TowardZero, Mode::Down, Mode::Up};
  for (int i = 0; i < n; ++i) {
    const float a = in[i];
    CAPTURE(bits_of(a));
    const uint32_t* o = &out[12 * static_cast<size_t>(i)];
    for (int m = 0; m < 4; ++m) {
      CAPTURE(m);
      CHECK(o[m] == round_16(a, modes[m], f16_nearest, f16_value));
      CHECK(o[4 + m] == round_16(a, modes[m], bf16_nearest, bf16_value));
    }
    // f16 NaN widens to the canonical f32 NaN; bf16 widens by a plain shift, NaN payloads included.
    const double nearest = f16_value(static_cast<uint16_t>(o[0]));
    CHECK(o[8] == (std::isnan(nearest) ? 0x7fffffffu : bits_of(static_cast<float>(nearest))));
    CHECK(o[9] == o[4] << 16);
    CHECK(o[10] == (uint32_t{f16_nearest(a)} << 16 | f16_nearest(-a)));  // the first operand in the upper half
    CHECK(o[11] == (uint32_t{bf16_nearest(a)} << 16 | 0x3f00));
  }
}

// cvt's .satfinite: an infinite result (a NaN stays NaN) becomes the largest finite value of its
// sign; .relu: a NaN result becomes the canonical NaN, a negative one +0 (-0 is not negative).
uint16_t satfinite(uint16_t bits, uint16_t infinity) {
  return (bits & 0x7fff) == infinity ? static_cast<uint16_t>(bits - 1) : bits;
}

uint16_t relu(uint16_t bits, uint16_t infinity) {
  if ((bits & 0x7fff) > infinity) return 0x7fff;
  return (bits & 0x8000) && (bits & 0x7fff) ? 0 : bits;
}

TEST_CASE("cvt .satfinite turns an overflow to f16 or bf16 into the largest finite value, and .relu clamps negatives to +0") {
  std::vector<float> in;
  for (uint32_t bits : test::edge_f32()) in.push_back(float_of(bits));
  for (float v : {65504.0f, 65519.99f, 65520.0f, 1e10f, 0x1.fep127f, 0x1.ffp127f, 0x1p-30f}) in.insert(in.end(), {v, -v});
  for (float r : test::random_values<float>(1000, 36)) in.push_back(r);
  const int n = static_cast<int>(in.size());
  const auto out = run_elementwise<uint32_t>(half_module(), "clamped", in, n, 7);
  for (int i = 0; i < n; ++i) {
    const float a = in[i];
    CAPTURE(bits_of(a));
    const uint32_t* o = &out[7 * static_cast<size_t>(i)];
    const uint16_t f16_rn = round_16(a, Mode::Nearest, f16_nearest, f16_value);
    const uint16_t f16_rz = round_16(a, Mode::TowardZero, f16_nearest, f16_value);
    const uint16_t bf16_rn = round_16(a, Mode::Nearest, bf16_nearest, bf16_value);
    const uint16_t bf16_rz = round_16(a, Mode::TowardZero, bf16_nearest, bf16_value);
    CHECK(o[0] == satfinite(f16_rn, 0x7c00));
    CHECK(o[1] == satfinite(f16_rz, 0x7c00));
    CHECK(o[2] == satfinite(bf16_rn, 0x7f80));
    CHECK(o[3] == relu(f16_rn, 0x7c00));
    CHECK(o[4] == relu(bf16_rz, 0x7f80));
    const uint16_t f16_negated = round_16(-a, Mode::Nearest, f16_nearest, f16_value);
    CHECK(o[5] == (uint32_t{relu(satfinite(f16_rn, 0x7c00), 0x7c00)} << 16 | relu(satfinite(f16_negated, 0x7c00), 0x7c00)));
    const uint16_t bf16_negated = round_16(-a, Mode::TowardZero, bf16_nearest, bf16_value);
    CHECK(o[6] == (uint32_t{satfinite(bf16_rz, 0x7f80)} << 16 | satfinite(bf16_negated, 0x7f80)));
  }
  // Worked by hand: 65520 rounds to nearest f16 as infinity, so .satfinite gives 65504 (0x7bff);
  // -infinity gives -65504; the largest float's bf16 is infinity, so 0x7f7f.
  const std::vector<float> worked = {65520.0f, -INFINITY, 0x1.fffffep127f};
  const auto hand = run_elementwise<uint32_t>(half_module(), "clamped", worked, 3, 7);
  CHECK(hand[0] == 0x7bffu);
  CHECK(hand[7] == 0xfbffu);
  CHECK(hand[14 + 2] == 0x7f7fu);
}

TEST_CASE("cvt .satfinite and .relu where the emulator does not run them are refused: other types, roundings") {
  for (const char* conversion : {"cvt.rn.satfinite.f32.f64", "cvt.rm.satfinite.f16.f32", "cvt.rzi.relu.s32.f32",
                                 "cvt.rn.satfinite.tf32.f32", "cvt.rn.relu.f16.f64"}) {
    const std::string word = conversion;
    CAPTURE(word);
    ptx::Instruction instruction;
    ptx::decode_opcode(conversion, instruction);
    CHECK(instruction.opcode == ptx::Opcode::Unsupported);
    CHECK_FALSE(instruction.unsupported_reason.empty());
  }
  ptx::Instruction runs;
  ptx::decode_opcode("cvt.rz.relu.satfinite.bf16x2.f32", runs);
  CHECK(runs.opcode == ptx::Opcode::Cvt);
  CHECK((runs.relu && runs.satfinite));
}

// f16 and bf16 min and max: -0 below +0, one NaN gives the other operand, two the canonical NaN.
uint16_t min_max_16(uint16_t a, uint16_t b, bool is_min, double (*value)(uint16_t)) {
  const double x = value(a), y = value(b);
  if (std::isnan(x) && std::isnan(y)) return 0x7fff;
  if (std::isnan(x)) return b;
  if (std::isnan(y)) return a;
  const bool a_smaller = x < y || (x == y && (a & 0x8000));
  return is_min == a_smaller ? a : b;
}

TEST_CASE("f16 add, sub, mul, fma, min, max, neg and abs round to nearest even, NaN results are 0x7fff") {
  const std::vector<uint16_t> in = half_triples(half_operands(90, 32, false));
  const int n = static_cast<int>(in.size() / 3);
  const auto out = run_elementwise<uint16_t>(half_module(), "arithmetic_f16", in, n, 10);
  for (int i = 0; i < n; ++i) {
    const uint16_t a = in[3 * i], b = in[3 * i + 1], c = in[3 * i + 2];
    const double x = f16_value(a), y = f16_value(b), z = f16_value(c);
    CAPTURE(a);
    CAPTURE(b);
    CAPTURE(c);
    const uint16_t* o = &out[10 * static_cast<size_t>(i)];
    CHECK(o[0] == f16_nearest(x + y));  // exact in a double, then rounded once
    CHECK(o[1] == f16_nearest(x - y));
    CHECK(o[2] == f16_nearest(x * y));
    CHECK(o[3] == min_max_16(a, b, true, f16_value));
    CHECK(o[4] == min_max_16(a, b, false, f16_value));
    CHECK(o[5] == (std::isnan(x) ? 0x7fff : a ^ 0x8000));
    CHECK(o[6] == (std::isnan(x) ? 0x7fff : a & 0x7fff));
    CHECK(o[7] == f16_nearest(std::fma(x, y, z)));
    // .ftz: subnormal operands and results below the smallest normal (2^-14) become signed zeros.
    auto flush = [](double v) { return std::fabs(v) < 0x1p-14 ? std::copysign(0.0, v) : v; };
    const double product = flush(x) * flush(y);
    const bool tiny = product != 0 && std::fabs(round_unbounded(product, 11)) < 0x1p-14;
    CHECK(o[8] == (tiny ? (std::signbit(product) ? 0x8000 : 0) : f16_nearest(product)));
    const double sum = f16_value(f16_nearest(x + y));
    CHECK(o[9] == (std::isnan(sum) || !(sum > 0) ? 0 : sum >= 1 ? 0x3c00 : f16_nearest(sum)));  // .sat
  }
}

TEST_CASE("bf16 add, sub, mul, fma, max and neg round to nearest even, NaN results are 0x7fff") {
  const std::vector<uint16_t> in = half_triples(half_operands(90, 33, true));
  const int n = static_cast<int>(in.size() / 3);
  const auto out = run_elementwise<uint16_t>(half_module(), "arithmetic_bf16", in, n, 6);
  for (int i = 0; i < n; ++i) {
    const uint16_t a = in[3 * i], b = in[3 * i + 1], c = in[3 * i + 2];
    const double x = bf16_value(a), y = bf16_value(b), z = bf16_value(c);
    CAPTURE(a);
    CAPTURE(b);
    CAPTURE(c);
    const uint16_t* o = &out[6 * static_cast<size_t>(i)];
    if (sum_is_exact(x, y, 40)) {
      CHECK(o[0] == bf16_nearest(x + y));
      CHECK(o[1] == bf16_nearest(x - y));
    }
    CHECK(o[2] == bf16_nearest(x * y));
    CHECK(o[3] == min_max_16(a, b, false, bf16_value));
    CHECK(o[4] == (std::isnan(x) ? 0x7fff : a ^ 0x8000));
    if (sum_is_exact(x * y, z, 30)) CHECK(o[5] == bf16_nearest(std::fma(x, y, z)));
  }
}

TEST_CASE("f16x2 and bf16x2 operate on both halves, setp.f16x2 p|q compares the low halves into p") {
  std::vector<uint32_t> in;
  const std::vector<uint16_t> halves = half_operands(40, 34, false);
  const std::vector<uint16_t> brain = half_operands(40, 35, true);
  for (size_t x = 0; x < halves.size(); ++x) {
    for (size_t y = 0; y < halves.size(); y += 2) {
      const size_t z = (x * 3 + y) % halves.size();
      in.insert(in.end(), {uint32_t{halves[x]} | uint32_t{halves[y]} << 16,
                           uint32_t{halves[y]} | uint32_t{brain[x % brain.size()]} << 16,
                           uint32_t{brain[z % brain.size()]} | uint32_t{halves[z]} << 16});
    }
  }
  const int n = static_cast<int>(in.size() / 3);
  const auto out = run_elementwise<uint32_t>(half_module(), "packed", in, n, 6);
  auto half = [](uint32_t v, int k) { return static_cast<uint16_t>(v >> (16 * k)); };
  for (int i = 0; i < n; ++i) {
    const uint32_t a = in[3 * i], b = in[3 * i + 1], c = in[3 * i + 2];
    CAPTURE(a);
    CAPTURE(b);
    CAPTURE(c);
    const uint32_t* o = &out[6 * static_cast<size_t>(i)];
    for (int k = 0; k < 2; ++k) {
      CAPTURE(k);
      CHECK(half(o[0], k) == f16_nearest(f16_value(half(a, k)) + f16_value(half(b, k))));
      const double product = bf16_value(half(a, k)) * bf16_value(half(b, k)), addend = bf16_value(half(c, k));
      if (sum_is_exact(product, addend, 30)) {
        CHECK(half(o[1], k) == bf16_nearest(std::fma(bf16_value(half(a, k)), bf16_value(half(b, k)), addend)));
      }
      CHECK((o[2] >> k & 1) == (f16_value(half(a, k)) < f16_value(half(b, k)) ? 1u : 0u));
    }
    const double low = f16_value(half(a, 0)), high = f16_value(half(a, 1));
    CHECK(o[3] == (std::isnan(low) ? 0x7fffffffu : bits_of(static_cast<float>(low))));
    CHECK(o[4] == (std::isnan(high) ? 0x7fffffffu : bits_of(static_cast<float>(high))));
    const double bx = bf16_value(half(b, 0)), cx = bf16_value(half(c, 0));
    CHECK(o[5] == (std::isnan(bx) || std::isnan(cx) || bx > cx ? 1u : 0u));  // gtu: true when unordered
  }
}

}  // namespace
}  // namespace tilecamp
