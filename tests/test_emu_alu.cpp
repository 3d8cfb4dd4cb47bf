// Integer and bit instructions on the emulator: CUDA kernels that apply an intrinsic (or, where
// NVRTC would not emit the instruction by itself, inline PTX) to edge cases and seeded random
// operands, against CPU references written from the PTX ISA's definitions.
#include <doctest/doctest.h>

#include <algorithm>
#include <bit>
#include <climits>
#include <filesystem>
#include <fstream>

#include "tests/test_emu_alu_support.h"

namespace tilecamp {
namespace {

using test::all_pairs;
using test::edge_u32;
using test::edge_u64;
using test::random_values;
using test::run_elementwise;

constexpr char k_kernels[] = R"(

extern "C" __global__ void count_bits(const u32* in, u32* out, int n) {
  THREAD
  u32 a = in[i];
  out[4 * i] = __popc(a);
  out[4 * i + 1] = __clz(a);
  out[4 * i + 2] = __brev(a);
  out[4 * i + 3] = __ffs(a);  // brev + bfind.shiftamt
}

extern "C" __global__ void count_bits64(const u64* in, u64* out, int n) {
  THREAD
  u64 a = in[i];
  out[4 * i] = __popcll(a);
  out[4 * i + 1] = __clzll(a);
  out[4 * i + 2] = __brevll(a);
  u32 b;
  asm("bfind.s64 %0, %1;" : "=r"(b) : "l"(a));
  out[4 * i + 3] = b;
}

extern "C" __global__ void bit_fields(const u32* in, u32* out, int n) {
  THREAD
  u32 a = in[3 * i], pos = in[3 * i + 1], len = in[3 * i + 2], r;
  asm("bfe.u32 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(pos), "r"(len)); out[4 * i] = r;
  asm("bfe.s32 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(pos), "r"(len)); out[4 * i + 1] = r;
  asm("bfi.b32 %0, %1, %2, %3, %4;" : "=r"(r) : "r"(a), "r"(~a * 7u), "r"(pos), "r"(len)); out[4 * i + 2] = r;
  u64 w;
  asm("bfe.s64 %0, %1, %2, %3;" : "=l"(w) : "l"((u64)a << 32 | (a ^ 0x5a5a5a5au)), "r"(pos), "r"(len));
  out[4 * i + 3] = (u32)(w ^ (w >> 32));
}

extern "C" __global__ void permute(const u32* in, u32* out, int n) {
  THREAD
  u32 a = in[3 * i], b = in[3 * i + 1], c = in[3 * i + 2], r;
  u32* o = out + 8 * i;
  o[0] = __byte_perm(a, b, c);  // masks each selector to its low three bits
  asm("prmt.b32 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(c)); o[1] = r;
  asm("prmt.b32.f4e %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(c)); o[2] = r;
  asm("prmt.b32.b4e %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(c)); o[3] = r;
  asm("prmt.b32.rc8 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(c)); o[4] = r;
  asm("prmt.b32.ecl %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(c)); o[5] = r;
  asm("prmt.b32.ecr %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(c)); o[6] = r;
  asm("prmt.b32.rc16 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(c)); o[7] = r;
}

extern "C" __global__ void funnel_shifts(const u32* in, u32* out, int n) {
  THREAD
  u32 lo = in[3 * i], hi = in[3 * i + 1], shift = in[3 * i + 2];
  out[4 * i] = __funnelshift_l(lo, hi, shift);
  out[4 * i + 1] = __funnelshift_lc(lo, hi, shift);
  out[4 * i + 2] = __funnelshift_r(lo, hi, shift);
  out[4 * i + 3] = __funnelshift_rc(lo, hi, shift);
}

extern "C" __global__ void logic3(const u32* in, u32* out, int n) {
  THREAD
  u32 a = in[3 * i], b = in[3 * i + 1], c = in[3 * i + 2], r;
  asm("lop3.b32 %0, %1, %2, %3, 0x96;" : "=r"(r) : "r"(a), "r"(b), "r"(c)); out[4 * i] = r;      // a ^ b ^ c
  asm("lop3.b32 %0, %1, %2, %3, 0xe8;" : "=r"(r) : "r"(a), "r"(b), "r"(c)); out[4 * i + 1] = r;  // majority
  asm("lop3.b32 %0, %1, %2, %3, 0xca;" : "=r"(r) : "r"(a), "r"(b), "r"(c)); out[4 * i + 2] = r;  // a ? b : c
  asm("lop3.b32 %0, %1, %2, %3, 0x01;" : "=r"(r) : "r"(a), "r"(b), "r"(c)); out[4 * i + 3] = r;  // ~(a | b | c)
}

extern "C" __global__ void multiply(const u32* in, u32* out, int n) {
  THREAD
  u32 a = in[3 * i], b = in[3 * i + 1], c = in[3 * i + 2], r;
  out[10 * i] = __umulhi(a, b);
  out[10 * i + 1] = __mulhi((int)a, (int)b);
  out[10 * i + 2] = __sad((int)a, (int)b, c);
  out[10 * i + 3] = __usad(a, b, c);
  asm("mul24.lo.s32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b)); out[10 * i + 4] = r;
  asm("mul24.hi.u32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b)); out[10 * i + 5] = r;
  asm("mad24.hi.sat.s32 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(c)); out[10 * i + 6] = r;
  asm("mad.hi.sat.s32 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(c)); out[10 * i + 7] = r;
  u64 w;
  asm("mad.wide.s32 %0, %1, %2, %3;" : "=l"(w) : "r"(a), "r"(b), "l"((u64)c << 20)); out[10 * i + 8] = (u32)(w >> 32);
  out[10 * i + 9] = (u32)w;
}

extern "C" __global__ void multiply64(const u64* in, u64* out, int n) {
  THREAD
  u64 a = in[2 * i], b = in[2 * i + 1];
  out[2 * i] = __umul64hi(a, b);
  out[2 * i + 1] = __mul64hi((long long)a, (long long)b);
}

extern "C" __global__ void divide(const int* in, int* out, int n) {
  THREAD
  int a = in[2 * i], b = in[2 * i + 1], r;
  out[4 * i] = a / b;
  asm("rem.s32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b));  // `a % b` would be a - (a / b) * b here
  out[4 * i + 1] = r;
  out[4 * i + 2] = (int)((unsigned)a / (unsigned)b);
  long long q;
  asm("div.s64 %0, %1, %2;" : "=l"(q) : "l"((long long)((u64)(u32)a << 32)), "l"((long long)b));
  out[4 * i + 3] = (int)(q >> 32);
}

extern "C" __global__ void arithmetic16(const unsigned short* in, unsigned short* out, int n) {
  THREAD
  unsigned short a = in[2 * i], b = in[2 * i + 1], r;
  asm("mul.lo.u16 %0, %1, %2;" : "=h"(r) : "h"(a), "h"(b)); out[8 * i] = r;
  asm("mul.hi.s16 %0, %1, %2;" : "=h"(r) : "h"(a), "h"(b)); out[8 * i + 1] = r;
  asm("div.s16 %0, %1, %2;" : "=h"(r) : "h"(a), "h"(b)); out[8 * i + 2] = r;
  asm("rem.u16 %0, %1, %2;" : "=h"(r) : "h"(a), "h"(b)); out[8 * i + 3] = r;
  asm("shr.s16 %0, %1, %2;" : "=h"(r) : "h"(a), "r"((u32)b & 31)); out[8 * i + 4] = r;
  asm("min.s16 %0, %1, %2;" : "=h"(r) : "h"(a), "h"(b)); out[8 * i + 5] = r;
  u32 w;
  asm("mul.wide.s16 %0, %1, %2;" : "=r"(w) : "h"(a), "h"(b)); out[8 * i + 6] = (unsigned short)w;
  out[8 * i + 7] = (unsigned short)(w >> 16);
}

extern "C" __global__ void shifts_and_limits(const u32* in, u32* out, int n) {
  THREAD
  u32 a = in[2 * i], b = in[2 * i + 1], r;
  asm("shl.b32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b)); out[6 * i] = r;
  asm("shr.u32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b)); out[6 * i + 1] = r;
  asm("shr.s32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b)); out[6 * i + 2] = r;
  out[6 * i + 3] = abs((int)a);
  asm("add.sat.s32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b)); out[6 * i + 4] = r;
  asm("sub.sat.s32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b)); out[6 * i + 5] = r;
}

)";

const ptx::Module& integer_module() {
  static const ptx::Module module = test::compile_kernels("alu_integer.cu", k_kernels);
  return module;
}

// Operands for 3-operand bit-field and shift kernels: every edge value with positions and
// lengths around the register width (and past 255), plus random triples.
std::vector<uint32_t> value_position_length() {
  const std::vector<uint32_t> small = {0, 1, 7, 8, 16, 31, 32, 33, 40, 64, 200, 255, 256, 300, 0xffffffff};
  std::vector<uint32_t> triples;
  for (uint32_t a : edge_u32()) {
    for (uint32_t p : small) {
      for (uint32_t l : small) triples.insert(triples.end(), {a, p, l});
    }
  }
  for (uint32_t r : random_values<uint32_t>(3000, 11)) triples.insert(triples.end(), {r, r % 70, (r >> 8) % 40});
  return triples;
}

std::vector<uint32_t> random_triples(size_t count, uint32_t seed) {
  std::vector<uint32_t> triples = random_values<uint32_t>(3 * count, seed);
  const std::vector<uint32_t> edges = edge_u32();
  for (size_t i = 0; i < edges.size(); ++i) triples[3 * i] = edges[i], triples[3 * i + 1] = edges[edges.size() - 1 - i];
  return triples;
}

uint32_t reverse32(uint32_t a) {
  uint32_t r = 0;
  for (int i = 0; i < 32; ++i) r |= (a >> i & 1) << (31 - i);
  return r;
}

TEST_CASE("popc, clz, brev and __ffs count and reverse the bits of 32- and 64-bit values") {
  std::vector<uint32_t> in = edge_u32();
  for (uint32_t r : random_values<uint32_t>(500, 1)) in.push_back(r);
  const auto out = run_elementwise<uint32_t>(integer_module(), "count_bits", in, static_cast<int>(in.size()), 4);
  for (size_t i = 0; i < in.size(); ++i) {
    CAPTURE(in[i]);
    CHECK(out[4 * i] == static_cast<uint32_t>(std::popcount(in[i])));
    CHECK(out[4 * i + 1] == static_cast<uint32_t>(std::countl_zero(in[i])));
    CHECK(out[4 * i + 2] == reverse32(in[i]));
    CHECK(out[4 * i + 3] == (in[i] == 0 ? 0u : static_cast<uint32_t>(std::countr_zero(in[i]) + 1)));
  }
  std::vector<uint64_t> wide = edge_u64();
  for (uint64_t r : random_values<uint64_t>(500, 2)) wide.push_back(r);
  const auto out64 = run_elementwise<uint64_t>(integer_module(), "count_bits64", wide, static_cast<int>(wide.size()), 4);
  for (size_t i = 0; i < wide.size(); ++i) {
    const uint64_t a = wide[i];
    CAPTURE(a);
    CHECK(out64[4 * i] == static_cast<uint64_t>(std::popcount(a)));
    CHECK(out64[4 * i + 1] == static_cast<uint64_t>(std::countl_zero(a)));
    CHECK(out64[4 * i + 2] == (uint64_t{reverse32(static_cast<uint32_t>(a))} << 32 | reverse32(static_cast<uint32_t>(a >> 32))));
    const uint64_t non_sign = (a >> 63) ? ~a : a;  // bfind.s64: the highest bit unlike the sign
    CHECK(out64[4 * i + 3] == (non_sign == 0 ? 0xffffffffu : static_cast<uint64_t>(63 - std::countl_zero(non_sign))));
  }
}

// The PTX ISA's bfe: bits pos..pos+len-1, extended by the field's top bit (.s) or zero (.u).
uint64_t reference_bfe(uint64_t a, uint64_t pos, uint64_t len, bool is_signed, int width) {
  const int msb = width - 1;
  const bool sign = is_signed && len != 0 && (a >> std::min<uint64_t>(pos + len - 1, msb) & 1);
  uint64_t d = 0;
  for (int i = 0; i <= msb; ++i) {
    const bool bit = (static_cast<uint64_t>(i) < len && pos + i <= static_cast<uint64_t>(msb)) ? (a >> (pos + i) & 1) : sign;
    d |= uint64_t{bit} << i;
  }
  return d;
}

TEST_CASE("bfe and bfi extract and insert bit fields, with zero lengths and positions past the msb") {
  const std::vector<uint32_t> in = value_position_length();
  const int n = static_cast<int>(in.size() / 3);
  const auto out = run_elementwise<uint32_t>(integer_module(), "bit_fields", in, n, 4);
  for (int i = 0; i < n; ++i) {
    const uint32_t a = in[3 * i], pos = in[3 * i + 1], len = in[3 * i + 2];
    CAPTURE(a);
    CAPTURE(pos);
    CAPTURE(len);
    // 32-bit: positions and lengths modulo 256, as the ISA's "restricted to 0..255" reads on the GPU.
    CHECK(out[4 * i] == reference_bfe(a, pos & 0xff, len & 0xff, false, 32));
    CHECK(out[4 * i + 1] == reference_bfe(a, pos & 0xff, len & 0xff, true, 32));
    uint32_t inserted = ~a * 7u;
    for (uint32_t k = 0; k < (len & 0xff) && (pos & 0xff) + k < 32; ++k) {
      inserted = (inserted & ~(1u << ((pos & 0xff) + k))) | ((a >> k & 1) << ((pos & 0xff) + k));
    }
    CHECK(out[4 * i + 2] == inserted);
    // 64-bit: larger positions and lengths clamp, so 256 is past the msb rather than 0.
    const uint64_t wide = reference_bfe(uint64_t{a} << 32 | (a ^ 0x5a5a5a5au), std::min<uint32_t>(pos, 255),
                                        std::min<uint32_t>(len, 255), true, 64);
    CHECK(out[4 * i + 3] == static_cast<uint32_t>(wide ^ (wide >> 32)));
  }
}

// prmt's table for each mode and c & 3: the source byte (of {b, a}) for destination bytes 0..3.
constexpr uint8_t k_prmt_modes[6][4][4] = {
    {{0, 1, 2, 3}, {1, 2, 3, 4}, {2, 3, 4, 5}, {3, 4, 5, 6}}, {{0, 7, 6, 5}, {1, 0, 7, 6}, {2, 1, 0, 7}, {3, 2, 1, 0}},
    {{0, 0, 0, 0}, {1, 1, 1, 1}, {2, 2, 2, 2}, {3, 3, 3, 3}}, {{0, 1, 2, 3}, {1, 1, 2, 3}, {2, 2, 2, 3}, {3, 3, 3, 3}},
    {{0, 0, 0, 0}, {0, 1, 1, 1}, {0, 1, 2, 2}, {0, 1, 2, 3}}, {{0, 1, 0, 1}, {2, 3, 2, 3}, {0, 1, 0, 1}, {2, 3, 2, 3}},
};

TEST_CASE("prmt (__byte_perm) picks and sign-replicates bytes, and its six modes follow their tables") {
  const std::vector<uint32_t> in = random_triples(2000, 3);
  const int n = static_cast<int>(in.size() / 3);
  const auto out = run_elementwise<uint32_t>(integer_module(), "permute", in, n, 8);
  for (int i = 0; i < n; ++i) {
    const uint64_t source = uint64_t{in[3 * i + 1]} << 32 | in[3 * i];
    const uint32_t c = in[3 * i + 2];
    CAPTURE(source);
    CAPTURE(c);
    const uint32_t* o = &out[8 * static_cast<size_t>(i)];
    uint32_t masked = 0, replicated = 0;
    for (int byte = 0; byte < 4; ++byte) {
      const uint32_t selector = c >> (4 * byte) & 0xf;
      const uint32_t picked = static_cast<uint32_t>(source >> (8 * (selector & 7)) & 0xff);
      masked |= picked << (8 * byte);
      replicated |= ((selector & 8) ? (picked & 0x80 ? 0xffu : 0u) : picked) << (8 * byte);  // bit 3: the byte's sign
    }
    CHECK(o[0] == masked);
    CHECK(o[1] == replicated);
    for (int mode = 0; mode < 6; ++mode) {
      uint32_t moded = 0;
      for (int byte = 0; byte < 4; ++byte) {
        moded |= static_cast<uint32_t>(source >> (8 * k_prmt_modes[mode][c & 3][byte]) & 0xff) << (8 * byte);
      }
      CHECK(o[2 + mode] == moded);
    }
  }
}

TEST_CASE("funnel shifts (__funnelshift_l/lc/r/rc) take the shift modulo 32 or clamp it at 32") {
  const std::vector<uint32_t> in = value_position_length();
  const int n = static_cast<int>(in.size() / 3);
  const auto out = run_elementwise<uint32_t>(integer_module(), "funnel_shifts", in, n, 4);
  for (int i = 0; i < n; ++i) {
    const uint64_t joined = uint64_t{in[3 * i + 1]} << 32 | in[3 * i];
    const uint32_t shift = in[3 * i + 2];
    CAPTURE(joined);
    CAPTURE(shift);
    const uint32_t wrap = shift & 31, clamp = std::min<uint32_t>(shift, 32);
    CHECK(out[4 * i] == static_cast<uint32_t>((joined << wrap) >> 32));
    CHECK(out[4 * i + 1] == static_cast<uint32_t>((joined << clamp) >> 32));
    CHECK(out[4 * i + 2] == static_cast<uint32_t>(joined >> wrap));
    CHECK(out[4 * i + 3] == static_cast<uint32_t>(joined >> clamp));
  }
}

TEST_CASE("lop3 computes any three-input function from its truth table immLut") {
  const std::vector<uint32_t> in = random_triples(1000, 4);
  const int n = static_cast<int>(in.size() / 3);
  const auto out = run_elementwise<uint32_t>(integer_module(), "logic3", in, n, 4);
  for (int i = 0; i < n; ++i) {
    const uint32_t a = in[3 * i], b = in[3 * i + 1], c = in[3 * i + 2];
    CHECK(out[4 * i] == (a ^ b ^ c));
    CHECK(out[4 * i + 1] == ((a & b) | (a & c) | (b & c)));
    CHECK(out[4 * i + 2] == ((a & b) | (~a & c)));
    CHECK(out[4 * i + 3] == ~(a | b | c));
  }
}

int64_t low24(uint32_t value, bool is_signed) {
  return is_signed ? (static_cast<int64_t>(static_cast<int32_t>(value << 8)) >> 8) : (value & 0xffffff);
}

TEST_CASE("mul.hi, sad, 24-bit multiplies and mad.hi/.wide give the PTX ISA's full-width results") {
  const std::vector<uint32_t> in = random_triples(2000, 5);
  const int n = static_cast<int>(in.size() / 3);
  const auto out = run_elementwise<uint32_t>(integer_module(), "multiply", in, n, 10);
  for (int i = 0; i < n; ++i) {
    const uint32_t a = in[3 * i], b = in[3 * i + 1], c = in[3 * i + 2];
    const int64_t sa = static_cast<int32_t>(a), sb = static_cast<int32_t>(b);
    CAPTURE(a);
    CAPTURE(b);
    CAPTURE(c);
    CHECK(out[10 * i] == static_cast<uint32_t>((uint64_t{a} * b) >> 32));
    CHECK(out[10 * i + 1] == static_cast<uint32_t>(static_cast<uint64_t>(sa * sb) >> 32));
    CHECK(out[10 * i + 2] == static_cast<uint32_t>(c + static_cast<uint32_t>(sa < sb ? sb - sa : sa - sb)));
    CHECK(out[10 * i + 3] == c + (a < b ? b - a : a - b));
    CHECK(out[10 * i + 4] == static_cast<uint32_t>(low24(a, true) * low24(b, true)));
    CHECK(out[10 * i + 5] == static_cast<uint32_t>((low24(a, false) * low24(b, false)) >> 16));
    const int64_t hi24 = static_cast<int32_t>(static_cast<uint32_t>((low24(a, true) * low24(b, true)) >> 16));
    CHECK(out[10 * i + 6] == static_cast<uint32_t>(std::clamp<int64_t>(hi24 + static_cast<int32_t>(c), INT_MIN, INT_MAX)));
    const int64_t hi = (sa * sb) >> 32;
    CHECK(out[10 * i + 7] == static_cast<uint32_t>(std::clamp<int64_t>(hi + static_cast<int32_t>(c), INT_MIN, INT_MAX)));
    const uint64_t wide = static_cast<uint64_t>(sa * sb) + (uint64_t{c} << 20);
    CHECK(out[10 * i + 8] == static_cast<uint32_t>(wide >> 32));
    CHECK(out[10 * i + 9] == static_cast<uint32_t>(wide));
  }
  const std::vector<uint64_t> pairs = all_pairs(edge_u64());
  const auto high = run_elementwise<uint64_t>(integer_module(), "multiply64", pairs, static_cast<int>(pairs.size() / 2), 2);
  __extension__ typedef __int128 int128;
  __extension__ typedef unsigned __int128 uint128;
  for (size_t i = 0; i < pairs.size() / 2; ++i) {
    const uint64_t a = pairs[2 * i], b = pairs[2 * i + 1];
    CAPTURE(a);
    CAPTURE(b);
    CHECK(high[2 * i] == static_cast<uint64_t>((uint128{a} * b) >> 64));
    CHECK(high[2 * i + 1] == static_cast<uint64_t>((int128{static_cast<int64_t>(a)} * static_cast<int64_t>(b)) >> 64));
  }
}

TEST_CASE("division: INT_MIN / -1 is INT_MIN (32 and 64 bits), and division by zero gives all ones, as on the GPU") {
  const std::vector<int32_t> values = {0, 1, -1, 2, -2, 3, 7, -7, 1000, INT_MAX, INT_MIN, INT_MIN + 1, 0x12345};
  std::vector<int32_t> in;
  for (int32_t a : values) {
    for (int32_t b : values) in.insert(in.end(), {a, b});
  }
  const int n = static_cast<int>(in.size() / 2);
  const auto out = run_elementwise<int32_t>(integer_module(), "divide", in, n, 4);
  for (int i = 0; i < n; ++i) {
    const int32_t a = in[2 * i], b = in[2 * i + 1];
    CAPTURE(a);
    CAPTURE(b);
    const int64_t wide = static_cast<int64_t>(static_cast<uint64_t>(static_cast<uint32_t>(a)) << 32);
    if (b == 0) {  // undefined in PTX; the GPU answers all ones for quotient and remainder alike
      CHECK(out[4 * i] == -1);
      CHECK(out[4 * i + 1] == -1);
      CHECK(out[4 * i + 2] == -1);
      CHECK(out[4 * i + 3] == -1);
      continue;
    }
    const bool overflows = a == INT_MIN && b == -1;
    CHECK(out[4 * i] == (overflows ? INT_MIN : a / b));
    CHECK(out[4 * i + 1] == (overflows ? 0 : a % b));
    CHECK(out[4 * i + 2] == static_cast<int32_t>(static_cast<uint32_t>(a) / static_cast<uint32_t>(b)));
    CHECK(out[4 * i + 3] == (wide == INT64_MIN && b == -1 ? INT_MIN : static_cast<int32_t>((wide / b) >> 32)));
  }
}

TEST_CASE("16-bit integer arithmetic wraps, widens and sign-extends at 16 bits") {
  std::vector<uint16_t> values = {0, 1, 2, 3, 0x7f, 0x80, 0xff, 0x7ffe, 0x7fff, 0x8000, 0x8001, 0xfffe, 0xffff, 0x1234};
  for (uint32_t r : random_values<uint32_t>(20, 6)) values.push_back(static_cast<uint16_t>(r));
  const std::vector<uint16_t> in = all_pairs(values);
  const int n = static_cast<int>(in.size() / 2);
  const auto out = run_elementwise<uint16_t>(integer_module(), "arithmetic16", in, n, 8);
  for (int i = 0; i < n; ++i) {
    const uint16_t a = in[2 * i], b = in[2 * i + 1];
    const int32_t sa = static_cast<int16_t>(a), sb = static_cast<int16_t>(b);
    CAPTURE(a);
    CAPTURE(b);
    CHECK(out[8 * i] == static_cast<uint16_t>(a * b));
    CHECK(out[8 * i + 1] == static_cast<uint16_t>((sa * sb) >> 16));
    CHECK(out[8 * i + 2] == (b == 0 ? 0xffff : static_cast<uint16_t>(sa / sb)));  // 0x8000 / -1 wraps to 0x8000
    CHECK(out[8 * i + 3] == (b == 0 ? 0xffff : static_cast<uint16_t>(a % b)));
    CHECK(out[8 * i + 4] == static_cast<uint16_t>(sa >> std::min(b & 31, 15)));
    CHECK(out[8 * i + 5] == static_cast<uint16_t>(std::min(sa, sb)));
    CHECK(out[8 * i + 6] == static_cast<uint16_t>(sa * sb));
    CHECK(out[8 * i + 7] == static_cast<uint16_t>((sa * sb) >> 16));
  }
}

TEST_CASE("shifts past the width fill with zeros or the sign, abs and .sat arithmetic clamp at INT_MIN") {
  std::vector<uint32_t> values = edge_u32();
  for (uint32_t s : {34u, 63u, 64u, 255u, 256u, 1000u}) values.push_back(s);
  const std::vector<uint32_t> in = all_pairs(values);
  const int n = static_cast<int>(in.size() / 2);
  const auto out = run_elementwise<uint32_t>(integer_module(), "shifts_and_limits", in, n, 6);
  for (int i = 0; i < n; ++i) {
    const uint32_t a = in[2 * i], b = in[2 * i + 1];
    const int64_t sa = static_cast<int32_t>(a), sb = static_cast<int32_t>(b);
    CAPTURE(a);
    CAPTURE(b);
    CHECK(out[6 * i] == (b >= 32 ? 0 : a << b));
    CHECK(out[6 * i + 1] == (b >= 32 ? 0 : a >> b));
    CHECK(out[6 * i + 2] == static_cast<uint32_t>(sa >> std::min<uint32_t>(b, 31)));
    CHECK(out[6 * i + 3] == static_cast<uint32_t>(sa < 0 ? -sa : sa));  // abs(INT_MIN) is INT_MIN
    CHECK(out[6 * i + 4] == static_cast<uint32_t>(std::clamp<int64_t>(sa + sb, INT_MIN, INT_MAX)));
    CHECK(out[6 * i + 5] == static_cast<uint32_t>(std::clamp<int64_t>(sa - sb, INT_MIN, INT_MAX)));
  }
}

TEST_CASE("carry chains add and subtract 128-bit numbers as four 32-bit words, carries and borrows included") {
  // Lane i adds x = 2^96 - 1 - i and y = i + 1 word by word through the carry flag: x + y is
  // exactly 2^96 (every word carries); y - x is negative, so the borrow runs through every word.
  const char* source = R"(
__global__ void wide(unsigned* sums, unsigned* differences, unsigned long long* mads) {
  unsigned i = threadIdx.x;
  unsigned x0 = 0xffffffffu - i, x1 = 0xffffffffu, x2 = 0xffffffffu, x3 = 0u;
  unsigned y0 = i + 1, y1 = 0, y2 = 0, y3 = 0;
  unsigned s0, s1, s2, s3, d0, d1, d2, d3;
  asm("add.cc.u32 %0, %4, %8;\n\taddc.cc.u32 %1, %5, %9;\n\taddc.cc.u32 %2, %6, %10;\n\taddc.u32 %3, %7, %11;"
      : "=r"(s0), "=r"(s1), "=r"(s2), "=r"(s3)
      : "r"(x0), "r"(x1), "r"(x2), "r"(x3), "r"(y0), "r"(y1), "r"(y2), "r"(y3));
  // y - x: negative, so the borrow runs through every word and the result is 2^128 - (x - y).
  asm("sub.cc.u32 %0, %4, %8;\n\tsubc.cc.u32 %1, %5, %9;\n\tsubc.cc.u32 %2, %6, %10;\n\tsubc.u32 %3, %7, %11;"
      : "=r"(d0), "=r"(d1), "=r"(d2), "=r"(d3)
      : "r"(y0), "r"(y1), "r"(y2), "r"(y3), "r"(x0), "r"(x1), "r"(x2), "r"(x3));
  sums[4 * i] = s0; sums[4 * i + 1] = s1; sums[4 * i + 2] = s2; sums[4 * i + 3] = s3;
  differences[4 * i] = d0; differences[4 * i + 1] = d1; differences[4 * i + 2] = d2; differences[4 * i + 3] = d3;
  // A 64 x 64 -> 128-bit product, high word by mad.hi with the low word's carry: (2^64 - 1)^2.
  unsigned long long a = 0xffffffffffffffffull - i, lo, hi;
  asm("mad.lo.cc.u64 %0, %2, %2, 0;\n\tmadc.hi.u64 %1, %2, %2, 0;" : "=l"(lo), "=l"(hi) : "l"(a));
  mads[2 * i] = lo; mads[2 * i + 1] = hi;
})";
  auto report = test::run_kernel("wide.cu", source, "wide", {1, 1, 1}, {32, 1, 1},
                                 {"u32[128]=zeros", "u32[128]=zeros", "u64[64]=zeros"});
  REQUIRE(report.result.diagnostics.empty());
  const auto sums = test::buffer_of<uint32_t>(report, 0), differences = test::buffer_of<uint32_t>(report, 1);
  const auto mads = test::buffer_of<uint64_t>(report, 2);
  for (uint32_t i = 0; i < 32; ++i) {
    CAPTURE(i);
    CHECK(sums[4 * i] == 0);  // 2^96: words 0, 0, 0, 1
    CHECK(sums[4 * i + 1] == 0);
    CHECK(sums[4 * i + 2] == 0);
    CHECK(sums[4 * i + 3] == 1);
    // y - x = 2i + 2 - 2^96 = 2^128 - 2^96 + 2i + 2: words 2i + 2, 0, 0, 0xffffffff
    CHECK(differences[4 * i] == 2 * i + 2);
    CHECK(differences[4 * i + 1] == 0);
    CHECK(differences[4 * i + 2] == 0);
    CHECK(differences[4 * i + 3] == 0xffffffffu);
    __extension__ typedef unsigned __int128 uint128;
    const uint128 a = 0xffffffffffffffffull - i;
    const uint128 square = a * a;
    CHECK(mads[2 * i] == static_cast<uint64_t>(square));
    CHECK(mads[2 * i + 1] == static_cast<uint64_t>(square >> 64));
  }
}

TEST_CASE("fns finds the n-th set bit up or down from a base, as the PTX ISA's examples say") {
  const char* source = R"(
__global__ void nth(const int* base, const int* offset, unsigned* out) {
  unsigned mask = 0xaaaaaaaau, d;
  asm("fns.b32 %0, %1, %2, %3;" : "=r"(d) : "r"(mask), "r"(base[threadIdx.x]), "r"(offset[threadIdx.x]));
  out[threadIdx.x] = d;
})";
  const std::vector<int> bases{3, 3, 2, 2, 2, 3, 30, 31, 1, 0};
  const std::vector<int> offsets{1, -1, 1, -1, 0, 0, 2, 1, -1, -1};
  std::string base_arg = "i32[10]=file:", offset_arg = "i32[10]=file:";
  const auto write = [](const std::string& path, const std::vector<int>& values) {
    std::ofstream(path, std::ios::binary).write(reinterpret_cast<const char*>(values.data()),
                                                static_cast<std::streamsize>(values.size() * sizeof(int)));
  };
  const std::string folder = std::filesystem::temp_directory_path().string();
  write(folder + "/fns_base.bin", bases);
  write(folder + "/fns_offset.bin", offsets);
  auto report = test::run_kernel("fns.cu", source, "nth", {1, 1, 1}, {10, 1, 1},
                                 {base_arg + folder + "/fns_base.bin", offset_arg + folder + "/fns_offset.bin",
                                  "u32[10]=zeros"});
  REQUIRE(report.result.diagnostics.empty());
  const auto out = test::buffer_of<uint32_t>(report, 2);
  // 3,1 -> 3; 3,-1 -> 3; 2,1 -> 3; 2,-1 -> 1 (the ISA's examples); 2,0 -> none; 3,0 -> 3;
  // 30,2 -> none above 31; 31,1 -> 31; 1,-1 -> 1; 0,-1 -> none.
  const std::vector<uint32_t> expected{3, 3, 3, 1, 0xffffffffu, 3, 0xffffffffu, 31, 1, 0xffffffffu};
  for (size_t i = 0; i < expected.size(); ++i) {
    CAPTURE(i);
    CHECK(out[i] == expected[i]);
  }
}

}  // namespace
}  // namespace tilecamp
