// f32 and f64 instructions on the emulator: the rounding intrinsics (__fadd_rz, __dmul_ru, ...)
// against the host's IEEE arithmetic in the same rounding mode, the GPU's NaN, .ftz and .sat
// conventions, conversions, and the .approx functions within the PTX ISA's error bounds.
#include <doctest/doctest.h>

#include <array>
#include <cfenv>
#include <cfloat>
#include <climits>
#include <cmath>
#include <functional>
#include <optional>
#include <random>

#include "tests/test_emu_alu_support.h"

namespace tilecamp {
namespace {

using test::bits_of;
using test::double_of;
using test::float_of;
using test::run_elementwise;

constexpr char k_kernels[] = R"(

extern "C" __global__ void rounded_f32(const float* in, float* out, int n) {
  THREAD
  float a = in[3 * i], b = in[3 * i + 1], c = in[3 * i + 2];
  float* o = out + 16 * i;
  o[0] = a + b;            o[1] = __fadd_rz(a, b);    o[2] = __fadd_rd(a, b);    o[3] = __fadd_ru(a, b);
  o[4] = __fmul_rz(a, b);  o[5] = __fmul_ru(a, b);    o[6] = __fmaf_rn(a, b, c); o[7] = __fmaf_rz(a, b, c);
  o[8] = __fmaf_rd(a, b, c); o[9] = __fdiv_rn(a, b);  o[10] = __fdiv_rz(a, b);   o[11] = __fdiv_ru(a, b);
  o[12] = __fsqrt_rn(a);   o[13] = __fsqrt_rd(a);     o[14] = __frcp_rn(a);      o[15] = __frcp_rz(a);
}

extern "C" __global__ void nan_and_signs(const float* in, u32* out, int n) {
  THREAD
  float a = in[2 * i], b = in[2 * i + 1];
  u32* o = out + 8 * i;
  o[0] = __float_as_uint(a * b);
  o[1] = __float_as_uint(fabsf(a));
  o[2] = __float_as_uint(-a);
  o[3] = __float_as_uint(fminf(a, b));
  o[4] = __float_as_uint(fmaxf(a, b));
  o[5] = __float_as_uint(copysignf(a, b));
  float r;
  asm("min.NaN.f32 %0, %1, %2;" : "=f"(r) : "f"(a), "f"(b));
  o[6] = __float_as_uint(r);
  u32 t;
  asm("{ .reg .pred p, q, s; testp.notanumber.f32 p, %1; testp.subnormal.f32 q, %1; testp.normal.f32 s, %1;"
      " selp.u32 %0, 1, 0, p; @q or.b32 %0, %0, 2; @s or.b32 %0, %0, 4; }" : "=r"(t) : "f"(a));
  o[7] = t;
}

extern "C" __global__ void flush_and_clamp(const float* in, float* out, int n) {
  THREAD
  float a = in[2 * i], b = in[2 * i + 1], r;
  float* o = out + 5 * i;
  asm("add.ftz.f32 %0, %1, %2;" : "=f"(r) : "f"(a), "f"(b)); o[0] = r;
  asm("mul.ftz.f32 %0, %1, %2;" : "=f"(r) : "f"(a), "f"(b)); o[1] = r;
  o[2] = __saturatef(a);  // cvt.sat.f32.f32
  asm("mul.sat.f32 %0, %1, %2;" : "=f"(r) : "f"(a), "f"(b)); o[3] = r;
  asm("{ .reg .pred p; setp.lt.ftz.f32 p, %1, %2; selp.f32 %0, 0f3F800000, 0f00000000, p; }" : "=f"(r) : "f"(a), "f"(b));
  o[4] = r;
}

extern "C" __global__ void rounded_f64(const double* in, double* out, int n) {
  THREAD
  double a = in[3 * i], b = in[3 * i + 1], c = in[3 * i + 2];
  double* o = out + 10 * i;
  o[0] = __dadd_rz(a, b);  o[1] = __dadd_ru(a, b);    o[2] = __dmul_rd(a, b);  o[3] = __fma_rz(a, b, c);
  o[4] = __fma_ru(a, b, c); o[5] = __ddiv_rz(a, b);   o[6] = __ddiv_ru(a, b);  o[7] = __dsqrt_rd(a);
  o[8] = __drcp_rz(a);     o[9] = fmin(a, b);
}

extern "C" __global__ void float_to_integer(const float* in, u32* out, int n) {
  THREAD
  float a = in[i];
  u32* o = out + 10 * i;
  o[0] = __float2int_rn(a);  o[1] = __float2int_rz(a);  o[2] = __float2int_rd(a);  o[3] = __float2int_ru(a);
  o[4] = __float2uint_rn(a); o[5] = __float2uint_rz(a);
  long long w = __float2ll_rn(a);
  o[6] = (u32)w; o[7] = (u32)(w >> 32);
  o[8] = __double2int_rz((double)a * 3);
  o[9] = (u32)(signed char)__float2int_rz(a);
}

extern "C" __global__ void integer_to_float(const long long* in, float* out, int n) {
  THREAD
  long long a = in[i];
  float* o = out + 10 * i;
  o[0] = __int2float_rn((int)a);  o[1] = __int2float_rz((int)a);  o[2] = __uint2float_rd((u32)a);
  o[3] = __uint2float_ru((u32)a); o[4] = __ll2float_rn(a);        o[5] = __ll2float_rz(a);
  o[6] = __ull2float_ru((u64)a);
  double d = __ll2double_rz(a);
  o[7] = __double2float_rz(d); o[8] = __double2float_ru(__ull2double_rd((u64)a)); o[9] = __double2float_rd(d);
}

extern "C" __global__ void float_to_float(const double* in, u64* out, int n) {
  THREAD
  double a = in[i];
  float f = (float)a;
  u64* o = out + 8 * i;
  o[0] = __float_as_uint(__double2float_rz(a));
  o[1] = __float_as_uint(__double2float_ru(a));
  o[2] = __double_as_longlong((double)f);
  o[3] = __float_as_uint(rintf(f));
  o[4] = __float_as_uint(floorf(f)) | (u64)__float_as_uint(ceilf(f)) << 32;
  o[5] = __float_as_uint(truncf(f));
  o[6] = __double_as_longlong(rint(a));
  o[7] = __double_as_longlong(floor(a));
}

extern "C" __global__ void approximations(const float* in, float* out, int n) {
  THREAD
  float a = in[i], r;
  float* o = out + 9 * i;
  o[0] = exp2f(a);          // ex2.approx.f32
  o[1] = __log2f(a);        // lg2.approx.f32
  o[2] = __sinf(a);         // sin.approx.f32
  o[3] = __cosf(a);
  o[4] = rsqrtf(a);         // rsqrt.approx.f32
  o[5] = __fdividef(1.5f, a);
  asm("tanh.approx.f32 %0, %1;" : "=f"(r) : "f"(a)); o[6] = r;
  asm("rcp.approx.f32 %0, %1;" : "=f"(r) : "f"(a)); o[7] = r;
  asm("sqrt.approx.f32 %0, %1;" : "=f"(r) : "f"(a)); o[8] = r;
}
)";

const ptx::Module& float_module() {
  static const ptx::Module module = test::compile_kernels("alu_float.cu", k_kernels);
  return module;
}

std::vector<float> edge_floats() {
  std::vector<float> values;
  for (uint32_t bits : test::edge_f32()) values.push_back(float_of(bits));
  return values;
}

// Edge values paired with each other, then random operands: `arity` floats per thread.
std::vector<float> float_operands(int arity, size_t random_count, uint32_t seed) {
  const std::vector<float> edges = edge_floats();
  std::vector<float> in;
  for (size_t x = 0; x < edges.size(); ++x) {
    for (size_t y = 0; y < edges.size(); ++y) {
      in.insert(in.end(), {edges[x], edges[y]});
      if (arity == 3) in.push_back(edges[(x * 7 + y) % edges.size()]);
    }
  }
  for (float r : test::random_values<float>(arity * random_count, seed)) in.push_back(r);
  return in;
}

// What the host computes with its rounding mode set to `mode`: an independent IEEE reference.
template <typename T>
T in_mode(int mode, const std::function<T()>& compute) {
  std::fesetround(mode);
  volatile T result = compute();  // the store orders the arithmetic before the mode is restored
  std::fesetround(FE_TONEAREST);
  return result;
}

// The bits the GPU gives: the canonical NaN for any f32 NaN result.
uint32_t gpu_bits(float value) { return std::isnan(value) ? 0x7fffffffu : bits_of(value); }

TEST_CASE("f32 add, mul, fma, div, sqrt and rcp round as .rn, .rz, .rm and .rp say (__fadd_rz, __fmaf_rd...)") {
  const std::vector<float> in = float_operands(3, 3000, 21);
  const int n = static_cast<int>(in.size() / 3);
  const auto out = run_elementwise<float>(float_module(), "rounded_f32", in, n, 16);
  for (int i = 0; i < n; ++i) {
    const float a = in[3 * i], b = in[3 * i + 1], c = in[3 * i + 2];
    CAPTURE(bits_of(a));
    CAPTURE(bits_of(b));
    CAPTURE(bits_of(c));
    auto host = [&](int mode, std::function<float(float, float, float)> op) {
      return gpu_bits(in_mode<float>(mode, [&] {
        volatile float x = a, y = b, z = c;
        return op(x, y, z);
      }));
    };
    auto add = [](float x, float y, float) { return x + y; };
    auto mul = [](float x, float y, float) { return x * y; };
    auto fma = [](float x, float y, float z) { return std::fma(x, y, z); };
    auto div = [](float x, float y, float) { return x / y; };
    auto sqrt = [](float x, float, float) { return std::sqrt(x); };
    auto rcp = [](float x, float, float) { return 1.0f / x; };
    const float* o = &out[16 * static_cast<size_t>(i)];
    CHECK(gpu_bits(o[0]) == host(FE_TONEAREST, add));
    CHECK(gpu_bits(o[1]) == host(FE_TOWARDZERO, add));
    CHECK(gpu_bits(o[2]) == host(FE_DOWNWARD, add));
    CHECK(gpu_bits(o[3]) == host(FE_UPWARD, add));
    CHECK(gpu_bits(o[4]) == host(FE_TOWARDZERO, mul));
    CHECK(gpu_bits(o[5]) == host(FE_UPWARD, mul));
    CHECK(gpu_bits(o[6]) == host(FE_TONEAREST, fma));
    CHECK(gpu_bits(o[7]) == host(FE_TOWARDZERO, fma));
    CHECK(gpu_bits(o[8]) == host(FE_DOWNWARD, fma));
    CHECK(gpu_bits(o[9]) == host(FE_TONEAREST, div));
    CHECK(gpu_bits(o[10]) == host(FE_TOWARDZERO, div));
    CHECK(gpu_bits(o[11]) == host(FE_UPWARD, div));
    CHECK(gpu_bits(o[12]) == host(FE_TONEAREST, sqrt));
    CHECK(gpu_bits(o[13]) == host(FE_DOWNWARD, sqrt));
    CHECK(gpu_bits(o[14]) == host(FE_TONEAREST, rcp));
    CHECK(gpu_bits(o[15]) == host(FE_TOWARDZERO, rcp));
  }
}

TEST_CASE("f32 NaN results are the GPU's canonical 0x7fffffff, abs and neg included, min/max skip one NaN") {
  const std::vector<float> in = float_operands(2, 1000, 22);
  const int n = static_cast<int>(in.size() / 2);
  const auto out = run_elementwise<uint32_t>(float_module(), "nan_and_signs", in, n, 8);
  for (int i = 0; i < n; ++i) {
    const float a = in[2 * i], b = in[2 * i + 1];
    const uint32_t ua = bits_of(a), ub = bits_of(b);
    CAPTURE(ua);
    CAPTURE(ub);
    const uint32_t* o = &out[8 * static_cast<size_t>(i)];
    CHECK(o[0] == gpu_bits(a * b));
    CHECK(o[1] == (std::isnan(a) ? 0x7fffffffu : (ua & 0x7fffffffu)));
    CHECK(o[2] == (std::isnan(a) ? 0x7fffffffu : (ua ^ 0x80000000u)));
    // One NaN: the other operand. -0 is below +0.
    const bool a_first = std::isnan(b) || (!std::isnan(a) && (a < b || (a == b && std::signbit(a))));
    const bool a_last = std::isnan(b) || (!std::isnan(a) && (a > b || (a == b && !std::signbit(a))));
    const bool both_nan = std::isnan(a) && std::isnan(b);
    CHECK(o[3] == (both_nan ? 0x7fffffffu : a_first ? ua : ub));
    CHECK(o[4] == (both_nan ? 0x7fffffffu : a_last ? ua : ub));
    CHECK(o[5] == ((ua & 0x7fffffffu) | (ub & 0x80000000u)));  // copysignf moves the sign bit only
    CHECK(o[6] == (std::isnan(a) || std::isnan(b) ? 0x7fffffffu : a_first ? ua : ub));
    const uint32_t classes = uint32_t{std::isnan(a)} | uint32_t{std::fpclassify(a) == FP_SUBNORMAL} << 1 |
                             uint32_t{std::isfinite(a) && std::fpclassify(a) != FP_SUBNORMAL} << 2;
    CHECK(o[7] == classes);  // testp: zeros are normal
  }
}

// The PTX ISA's .ftz: subnormal operands become zeros of their sign, and results tiny after
// rounding to 24 bits with an unbounded exponent become zeros of their sign.
float flush_result(double exact) {
  int exponent = 0;
  const double fraction = std::frexp(exact, &exponent);
  const double rounded = std::ldexp(std::nearbyint(std::ldexp(fraction, 24)), exponent - 24);
  if (exact != 0 && std::fabs(rounded) < FLT_MIN) return std::copysign(0.0f, static_cast<float>(exact));
  return static_cast<float>(exact);
}

float flush_operand(float value) {
  return std::fpclassify(value) == FP_SUBNORMAL ? std::copysign(0.0f, value) : value;
}

float saturate(float value) { return std::isnan(value) ? 0.0f : value <= 0 ? 0.0f : std::min(value, 1.0f); }

TEST_CASE(".ftz flushes subnormal operands and tiny results to zero, .sat clamps to [0, 1], NaN to 0") {
  std::vector<float> in = float_operands(2, 1000, 23);
  for (float x : {0x1p-126f, 0x1.fffffep-127f, -0x1p-126f, 0x1p-149f}) {  // results just around the smallest normal
    for (float y : {0.99999994f, 1.0f, 0.5f, 1.00000012f, -0.99999994f}) in.insert(in.end(), {x, y});
  }
  const int n = static_cast<int>(in.size() / 2);
  const auto out = run_elementwise<float>(float_module(), "flush_and_clamp", in, n, 5);
  for (int i = 0; i < n; ++i) {
    const float a = in[2 * i], b = in[2 * i + 1];
    CAPTURE(bits_of(a));
    CAPTURE(bits_of(b));
    const float fa = flush_operand(a), fb = flush_operand(b);
    const float* o = &out[5 * static_cast<size_t>(i)];
    if (std::fabs(std::log2(std::fabs(fa) + 1e-30) - std::log2(std::fabs(fb) + 1e-30)) < 25) {  // exact in a double
      CHECK(gpu_bits(o[0]) == gpu_bits(flush_result(static_cast<double>(fa) + fb)));
    }
    CHECK(gpu_bits(o[1]) == gpu_bits(flush_result(static_cast<double>(fa) * fb)));
    CHECK(bits_of(o[2]) == bits_of(saturate(a)));
    CHECK(bits_of(o[3]) == bits_of(saturate(a * b)));
    CHECK(o[4] == (fa < fb ? 1.0f : 0.0f));
  }
}

// The GPU's f64 NaN: the first NaN operand in its order of preference, quieted.
std::optional<uint64_t> f64_nan(std::initializer_list<double> preference) {
  for (double value : preference) {
    if (std::isnan(value)) return bits_of(value) | (uint64_t{1} << 51);
  }
  return std::nullopt;
}

TEST_CASE("f64 arithmetic rounds as its modifier says (__dadd_rz, __fma_ru, __ddiv_rz...) and passes NaNs on") {
  std::vector<double> in;
  const std::vector<uint64_t> edges = test::edge_f64();
  for (size_t x = 0; x < edges.size(); ++x) {
    for (size_t y = 0; y < edges.size(); ++y) {
      in.insert(in.end(), {double_of(edges[x]), double_of(edges[y]), double_of(edges[(x * 5 + y) % edges.size()])});
    }
  }
  for (double r : test::random_values<double>(3 * 2000, 24)) in.push_back(r);
  const int n = static_cast<int>(in.size() / 3);
  const auto out = run_elementwise<double>(float_module(), "rounded_f64", in, n, 10);
  for (int i = 0; i < n; ++i) {
    const double a = in[3 * i], b = in[3 * i + 1], c = in[3 * i + 2];
    CAPTURE(bits_of(a));
    CAPTURE(bits_of(b));
    CAPTURE(bits_of(c));
    auto host = [&](int mode, std::optional<uint64_t> nan_result, std::function<double(double, double, double)> op) {
      if (nan_result) return *nan_result;
      return bits_of(in_mode<double>(mode, [&] {
        volatile double x = a, y = b, z = c;
        return op(x, y, z);
      }));
    };
    auto add = [](double x, double y, double) { return x + y; };
    auto fma = [](double x, double y, double z) { return std::fma(x, y, z); };
    auto div = [](double x, double y, double) { return x / y; };
    const double* o = &out[10 * static_cast<size_t>(i)];
    CHECK(bits_of(o[0]) == host(FE_TOWARDZERO, f64_nan({b, a}), add));
    CHECK(bits_of(o[1]) == host(FE_UPWARD, f64_nan({b, a}), add));
    CHECK(bits_of(o[2]) == host(FE_DOWNWARD, f64_nan({b, a}), [](double x, double y, double) { return x * y; }));
    CHECK(bits_of(o[3]) == host(FE_TOWARDZERO, f64_nan({b, c, a}), fma));
    CHECK(bits_of(o[4]) == host(FE_UPWARD, f64_nan({b, c, a}), fma));
    CHECK(bits_of(o[5]) == host(FE_TOWARDZERO, f64_nan({a, b}), div));
    CHECK(bits_of(o[6]) == host(FE_UPWARD, f64_nan({a, b}), div));
    CHECK(bits_of(o[7]) == host(FE_DOWNWARD, f64_nan({a}), [](double x, double, double) { return std::sqrt(x); }));
    CHECK(bits_of(o[8]) == host(FE_TOWARDZERO, f64_nan({a}), [](double x, double, double) { return 1 / x; }));
    const bool a_first = !std::isnan(a) && (std::isnan(b) || a < b || (a == b && std::signbit(a)));
    CHECK(bits_of(o[9]) == (std::isnan(a) && std::isnan(b) ? bits_of(b) | (uint64_t{1} << 51) : bits_of(a_first ? a : b)));
  }
}

// Float to integer: rounded as said, clamped to the range; NaN is 0 (for 64-bit integers and
// from f64, the sign bit alone).
template <typename T>
uint64_t to_integer(double value, double (*round)(double)) {
  if (std::isnan(value)) return (sizeof(T) == 8) ? uint64_t{1} << 63 : 0;
  const double rounded = round(value);
  if (rounded <= static_cast<double>(std::numeric_limits<T>::min())) return static_cast<uint64_t>(std::numeric_limits<T>::min());
  if (rounded >= static_cast<double>(std::numeric_limits<T>::max())) return static_cast<uint64_t>(std::numeric_limits<T>::max());
  return static_cast<uint64_t>(static_cast<T>(rounded));
}

TEST_CASE("cvt from float to integer rounds as .rni/.rzi/.rmi/.rpi say and saturates (__float2int_rd...)") {
  std::vector<float> in = edge_floats();
  for (float r : test::random_values<float>(4000, 25)) in.push_back(r);
  for (float v : {0.5f, 1.5f, 2.5f, -0.5f, -1.5f, -2.5f, 2147483520.0f, 2147483648.0f, -2147483904.0f, 4294967040.0f}) {
    in.push_back(v);
  }
  const int n = static_cast<int>(in.size());
  const auto out = run_elementwise<uint32_t>(float_module(), "float_to_integer", in, n, 10);
  for (int i = 0; i < n; ++i) {
    const double a = in[i];
    CAPTURE(bits_of(in[i]));
    const uint32_t* o = &out[10 * static_cast<size_t>(i)];
    auto low = [](uint64_t v) { return static_cast<uint32_t>(v); };
    CHECK(o[0] == (std::isnan(a) ? 0 : low(to_integer<int32_t>(a, std::nearbyint))));
    CHECK(o[1] == (std::isnan(a) ? 0 : low(to_integer<int32_t>(a, std::trunc))));
    CHECK(o[2] == (std::isnan(a) ? 0 : low(to_integer<int32_t>(a, std::floor))));
    CHECK(o[3] == (std::isnan(a) ? 0 : low(to_integer<int32_t>(a, std::ceil))));
    CHECK(o[4] == (std::isnan(a) ? 0 : low(to_integer<uint32_t>(a, std::nearbyint))));
    CHECK(o[5] == (std::isnan(a) ? 0 : low(to_integer<uint32_t>(a, std::trunc))));
    const uint64_t wide = to_integer<int64_t>(a, std::nearbyint);
    CHECK(o[6] == low(wide));
    CHECK(o[7] == static_cast<uint32_t>(wide >> 32));
    CHECK(o[8] == (std::isnan(a) ? 0x80000000u : low(to_integer<int32_t>(a * 3, std::trunc))));
    const int32_t truncated = static_cast<int32_t>(std::isnan(a) ? 0 : to_integer<int32_t>(a, std::trunc));
    CHECK(o[9] == static_cast<uint32_t>(static_cast<int8_t>(truncated)));
  }
}

TEST_CASE("cvt from integer to float rounds as .rn/.rz/.rm/.rp say (__int2float_rz, __ull2float_ru...)") {
  std::vector<int64_t> in;
  for (uint64_t v : test::edge_u64()) in.push_back(static_cast<int64_t>(v));
  for (uint32_t v : test::edge_u32()) in.insert(in.end(), {static_cast<int32_t>(v), static_cast<int64_t>(v) << 20});
  for (uint64_t r : test::random_values<uint64_t>(3000, 26)) in.push_back(static_cast<int64_t>(r));
  const int n = static_cast<int>(in.size());
  const auto out = run_elementwise<float>(float_module(), "integer_to_float", in, n, 10);
  for (int i = 0; i < n; ++i) {
    const int64_t a = in[i];
    const int32_t a32 = static_cast<int32_t>(a);
    const uint32_t u32 = static_cast<uint32_t>(a);
    const uint64_t u64 = static_cast<uint64_t>(a);
    CAPTURE(a);
    auto host = [](int mode, std::function<float()> convert) { return bits_of(in_mode<float>(mode, convert)); };
    auto host_double = [](int mode, std::function<double()> convert) { return in_mode<double>(mode, convert); };
    const float* o = &out[10 * static_cast<size_t>(i)];
    CHECK(bits_of(o[0]) == host(FE_TONEAREST, [&] { volatile int32_t v = a32; return static_cast<float>(v); }));
    CHECK(bits_of(o[1]) == host(FE_TOWARDZERO, [&] { volatile int32_t v = a32; return static_cast<float>(v); }));
    CHECK(bits_of(o[2]) == host(FE_DOWNWARD, [&] { volatile uint32_t v = u32; return static_cast<float>(v); }));
    CHECK(bits_of(o[3]) == host(FE_UPWARD, [&] { volatile uint32_t v = u32; return static_cast<float>(v); }));
    CHECK(bits_of(o[4]) == host(FE_TONEAREST, [&] { volatile int64_t v = a; return static_cast<float>(v); }));
    CHECK(bits_of(o[5]) == host(FE_TOWARDZERO, [&] { volatile int64_t v = a; return static_cast<float>(v); }));
    CHECK(bits_of(o[6]) == host(FE_UPWARD, [&] { volatile uint64_t v = u64; return static_cast<float>(v); }));
    const double toward_zero = host_double(FE_TOWARDZERO, [&] { volatile int64_t v = a; return static_cast<double>(v); });
    const double down = host_double(FE_DOWNWARD, [&] { volatile uint64_t v = u64; return static_cast<double>(v); });
    CHECK(bits_of(o[7]) == host(FE_TOWARDZERO, [&] { volatile double v = toward_zero; return static_cast<float>(v); }));
    CHECK(bits_of(o[8]) == host(FE_UPWARD, [&] { volatile double v = down; return static_cast<float>(v); }));
    CHECK(bits_of(o[9]) == host(FE_DOWNWARD, [&] { volatile double v = toward_zero; return static_cast<float>(v); }));
  }
}

TEST_CASE("cvt between f32 and f64 rounds as said, keeps NaN payloads, and rounds floats to integral values") {
  std::vector<double> in;
  for (uint64_t v : test::edge_f64()) in.push_back(double_of(v));
  for (float v : edge_floats()) in.push_back(v);
  for (double r : test::random_values<double>(3000, 27)) in.push_back(r);
  const int n = static_cast<int>(in.size());
  const auto out = run_elementwise<uint64_t>(float_module(), "float_to_float", in, n, 8);
  for (int i = 0; i < n; ++i) {
    const double a = in[i];
    const uint64_t ua = bits_of(a);
    CAPTURE(ua);
    const uint64_t* o = &out[8 * static_cast<size_t>(i)];
    // f64 NaN to f32 keeps the sign and the payload's top bits, quieted.
    const uint32_t narrowed_nan =
        static_cast<uint32_t>(ua >> 63) << 31 | 0x7fc00000u | static_cast<uint32_t>((ua >> 29) & 0x3fffff);
    auto narrow = [&](int mode) {
      if (std::isnan(a)) return narrowed_nan;
      return bits_of(in_mode<float>(mode, [&] { volatile double v = a; return static_cast<float>(v); }));
    };
    CHECK(o[0] == narrow(FE_TOWARDZERO));
    CHECK(o[1] == narrow(FE_UPWARD));
    const float f = std::isnan(a) ? float_of(narrowed_nan) : static_cast<float>(a);
    CHECK(o[2] == (std::isnan(f) ? (uint64_t{bits_of(f) >> 31} << 63 | 0x7ff8000000000000 | uint64_t{bits_of(f) & 0x3fffff} << 29)
                                 : bits_of(static_cast<double>(f))));  // widening keeps the payload
    CHECK(o[3] == gpu_bits(std::nearbyint(f)));
    CHECK(o[4] == (gpu_bits(std::floor(f)) | uint64_t{gpu_bits(std::ceil(f))} << 32));
    CHECK(o[5] == gpu_bits(std::trunc(f)));
    CHECK(o[6] == (std::isnan(a) ? ua | (uint64_t{1} << 51) : bits_of(std::nearbyint(a))));
    CHECK(o[7] == (std::isnan(a) ? ua | (uint64_t{1} << 51) : bits_of(std::floor(a))));
  }
}

// The .approx instructions against the true functions, within the PTX ISA's bounds (a little
// looser where the ISA states them only for part of the range); their special values exactly.
TEST_CASE("the .approx functions (exp2f, __log2f, __sinf, __cosf, rsqrtf, __fdividef, tanh) stay within the ISA's bounds") {
  std::vector<float> in = edge_floats();
  std::mt19937 random(28);
  std::uniform_real_distribution<float> angle(-3.14159265f, 3.14159265f), exponent(-125, 125), positive(1e-30f, 1e30f);
  for (int k = 0; k < 1500; ++k) {
    in.insert(in.end(), {angle(random), exponent(random), std::fabs(positive(random) * angle(random))});
  }
  const int n = static_cast<int>(in.size());
  const auto out = run_elementwise<float>(float_module(), "approximations", in, n, 9);
  auto within = [](float actual, double truth, double relative, double absolute) {
    if (std::isnan(truth)) return std::isnan(actual) && bits_of(actual) == 0x7fffffffu;
    if (std::isinf(truth) || truth == 0) {
      return static_cast<double>(actual) == truth && std::signbit(actual) == std::signbit(truth);
    }
    return std::fabs(actual - truth) <= absolute + relative * std::fabs(truth);
  };
  for (int i = 0; i < n; ++i) {
    const float a = in[i];
    const double x = a;
    CAPTURE(bits_of(a));
    const float* o = &out[9 * static_cast<size_t>(i)];
    const bool normal = std::fpclassify(a) == FP_NORMAL || a == 0 || std::isinf(a) || std::isnan(a);
    if (normal) {  // the hardware's subnormal handling is not the true function's
      CHECK(within(o[0], std::exp2(x), 0x1p-21, x < -126 ? 0x1p-149 : 0));
      CHECK(within(o[1], std::log2(x), 0x1p-21, 0x1p-21));
      CHECK(within(o[4], 1 / std::sqrt(x), 0x1p-22, 0));
      CHECK(within(o[7], 1 / x, 0x1p-22, 0));
      CHECK(within(o[8], std::sqrt(x), 0x1p-22, 0));
      CHECK(within(o[6], std::tanh(x), std::exp2(-10.9), 0));
    }
    if (std::fabs(x) <= 3.14159265 || std::isinf(x) || std::isnan(x)) {
      CHECK(within(o[2], std::sin(x), 0, std::exp2(-20.5)));
      CHECK(within(o[3], std::cos(x), 0, std::exp2(-20.5)));
    }
    if (std::fabs(x) >= 0x1p-126 && std::fabs(x) <= 0x1p126) CHECK(within(o[5], 1.5 / x, 0x1p-21, 0));
  }
}

// sin.approx's large angles: the GPU scales them to turns with an f32 multiply, so its results are
// far from sin(x) there. {angle, sin, cos}, as an H200 computed them.
TEST_CASE("sin.approx and cos.approx of large angles follow the GPU, which reduces them in f32") {
  const std::vector<std::array<uint32_t, 3>> measured = {
      {0x477fe000, 0x3f7a1e85, 0xbe5a3994},  // 65504: sin 0.977028 (sin(x) 0.975376), cos -0.21311 (-0.220548)
      {0xc77ff000, 0x3f5f8327, 0x3ef9a02a},  // -65520: sin 0.873095 (0.870582), cos 0.48755 (0.492024)
      {0x477fefff, 0xbf604621, 0x3ef6e0ca},  // 65519.996: sin -0.87607 (-0.872497), cos 0.482184 (0.488619)
      {0xc7800000, 0xbf31a81b, 0xbf385214},  // -65536: sin -0.693971 (-0.692065), cos -0.720002 (-0.721835)
  };
  std::vector<float> in;
  for (const auto& row : measured) in.push_back(float_of(row[0]));
  const auto out = run_elementwise<float>(float_module(), "approximations", in, static_cast<int>(in.size()), 9);
  for (size_t i = 0; i < measured.size(); ++i) {
    CAPTURE(measured[i][0]);
    CHECK(std::fabs(out[9 * i + 2] - float_of(measured[i][1])) <= 0x1p-21);
    CHECK(std::fabs(out[9 * i + 3] - float_of(measured[i][2])) <= 0x1p-21);
  }
}

}  // namespace
}  // namespace tilecamp
