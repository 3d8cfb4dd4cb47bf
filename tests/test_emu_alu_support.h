// Shared by the test_emu_alu_*.cpp files: compiles their kernels, runs an element-wise kernel on
// the emulator, runs many inline-PTX forms over (a, b, c) triples against a reference, parses
// single hand-written instructions, and supplies operand lists (edge cases, then seeded random
// values) and bit-level helpers.
//
// A kernel under test has the signature `(const In* in, Out* out, int n)`: thread i reads its
// operands from `in` and writes its results to `out`, as the kernel itself lays them out.
#pragma once

#include <doctest/doctest.h>

#include <bit>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "checker/emu/emulator.h"
#include "checker/ptx/kernel_lookup.h"
#include "checker/ptx/module.h"
#include "checker/ptx/parser.h"
#include "tests/test_support.h"

namespace tilecamp::test {

// Goes before each file's kernels: the short integer type names, and THREAD, which names the
// thread's index i and returns from threads at or past n.
inline constexpr char k_kernel_prelude[] = R"(
typedef unsigned int u32;
typedef unsigned short u16;
typedef unsigned long long u64;
#define THREAD int i = blockIdx.x * blockDim.x + threadIdx.x; if (i >= n) return;
)";

inline ptx::Module compile_kernels(const std::string& file_name, const char* kernels) {
  return compile_to_module(file_name, std::string(k_kernel_prelude) + kernels);
}

template <typename T>
std::vector<uint8_t> bytes_of(const std::vector<T>& values) {
  std::vector<uint8_t> bytes(values.size() * sizeof(T));
  if (!bytes.empty()) std::memcpy(bytes.data(), values.data(), bytes.size());
  return bytes;
}

template <typename T>
std::vector<uint8_t> scalar_bytes(T value) {
  return bytes_of(std::vector<T>{value});
}

// Runs `kernel` with n threads over `in`; returns `outputs_per_thread * n` results.
template <typename Out, typename In>
std::vector<Out> run_elementwise(const ptx::Module& module, const std::string& kernel, const std::vector<In>& in,
                                 int n, int outputs_per_thread) {
  emu::DeviceMemory memory;
  emu::Emulator emulator(module, memory);
  const uint64_t in_address = memory.allocate("in", bytes_of(in));
  const uint64_t out_address =
      memory.allocate("out", std::vector<uint8_t>(sizeof(Out) * static_cast<size_t>(n) * outputs_per_thread, 0xcd));
  LaunchConfig config;
  config.block = {128, 1, 1};
  config.grid = {static_cast<uint32_t>((n + 127) / 128), 1, 1};
  const auto mangled = ptx::resolve_kernel_name(module, kernel);
  REQUIRE_MESSAGE(mangled.has_value(), "no kernel " << kernel);
  const auto result = emulator.launch(*mangled, config, {scalar_bytes(in_address), scalar_bytes(out_address), scalar_bytes(n)});
  REQUIRE_MESSAGE(result.has_value(), (result ? "" : result.error()));
  REQUIRE_MESSAGE(result->completed, (result->diagnostics.empty() ? "" : result->diagnostics[0].message));
  std::vector<Out> out(static_cast<size_t>(n) * outputs_per_thread);
  std::memcpy(out.data(), memory.find(out_address, 1)->bytes.data(), out.size() * sizeof(Out));
  return out;
}

inline float float_of(uint32_t bits) { return std::bit_cast<float>(bits); }
inline uint32_t bits_of(float value) { return std::bit_cast<uint32_t>(value); }
inline double double_of(uint64_t bits) { return std::bit_cast<double>(bits); }
inline uint64_t bits_of(double value) { return std::bit_cast<uint64_t>(value); }

// Integers that exercise signs, widths and carries.
inline std::vector<uint32_t> edge_u32() {
  return {0, 1, 2, 3, 7, 31, 32, 33, 0x7f, 0x80, 0xff, 0x100, 0x7fff, 0x8000, 0xffff, 0x10000, 0x7fffff, 0x800000,
          0xffffff, 0x1000000, 0x12345678, 0x7fffffff, 0x80000000, 0x80000001, 0xdeadbeef, 0xfffffffe, 0xffffffff};
}

inline std::vector<uint64_t> edge_u64() {
  return {0, 1, 2, 63, 64, 0xffffffff, 0x100000000, 0x123456789abcdef0, 0x7fffffffffffffff, 0x8000000000000000,
          0x8000000000000001, 0xfffffffffffffffe, 0xffffffffffffffff, 0xffffffff00000000};
}

// Floats at the edges: zeros, subnormals, the normal range's ends, infinities, quiet and
// signalling NaNs, ties for rounding to integers and to half precision; each with both signs.
inline std::vector<uint32_t> edge_f32() {
  const uint32_t magnitudes[] = {0x0, 0x1, 0x7fffff, 0x800000, 0x800001, 0x3f800000, 0x3f000000, 0x3fc00000,
                                 0x40200000, 0x40490fdb, 0x3eaaaaab, 0x4b000001, 0x4f000000, 0x5f000000,
                                 0x477fe000, 0x477ff000, 0x33800000, 0x3f801000, 0x3f808000, 0x7f7fffff,
                                 0x7f800000, 0x7fc00000, 0x7fc12345, 0x7f800001};
  std::vector<uint32_t> values;
  for (uint32_t m : magnitudes) values.insert(values.end(), {m, m | 0x80000000u});
  return values;
}

inline std::vector<uint64_t> edge_f64() {
  const uint64_t magnitudes[] = {0x0, 0x1, 0x000fffffffffffff, 0x0010000000000000, 0x3ff0000000000000,
                                 0x3fe0000000000000, 0x4004000000000000, 0x400921fb54442d18, 0x3fd5555555555555,
                                 0x7fefffffffffffff, 0x7ff0000000000000, 0x7ff8000000000000, 0x7ff8000012345678,
                                 0x41e0000000000000, 0x43e0000000000000, 0x47efffffe0000000};
  std::vector<uint64_t> values;
  for (uint64_t m : magnitudes) values.insert(values.end(), {m, m | (uint64_t{1} << 63)});
  return values;
}

// Every pair of `values`, flattened (a0, b0, a1, b1, ...).
template <typename T>
std::vector<T> all_pairs(const std::vector<T>& values) {
  std::vector<T> pairs;
  for (T a : values) {
    for (T b : values) pairs.insert(pairs.end(), {a, b});
  }
  return pairs;
}

// `count` seeded random values of type T: raw bits for integers; for floats, a mix of raw bit
// patterns and values of every magnitude.
template <typename T>
std::vector<T> random_values(size_t count, uint32_t seed) {
  std::mt19937_64 random(seed);
  std::vector<T> values(count);
  for (T& value : values) {
    const uint64_t bits = random();
    if constexpr (std::is_same_v<T, float>) {
      const bool raw = bits & 1;
      value = raw ? float_of(static_cast<uint32_t>(bits >> 32))
                  : std::ldexp(static_cast<float>((bits >> 8) % 4096) / 512 - 4, static_cast<int>(bits >> 56) % 40 - 20);
    } else if constexpr (std::is_same_v<T, double>) {
      value = (bits & 1) ? double_of(bits) : std::ldexp(static_cast<double>((bits >> 8) % 65536) / 4096 - 8,
                                                         static_cast<int>(bits >> 56) % 80 - 40);
    } else {
      value = static_cast<T>(bits >> (bits & 7) * 4);  // all widths of magnitude
    }
  }
  return values;
}

// ---- many forms of one kind of instruction over (a, b, c) triples ----

// A statement that sets `r` from `a`, `b` and `c` through inline PTX: %0 is r, %1 to %3 are a, b, c.
inline std::string inline_ptx(const std::string& ptx) {
  return "asm(\"" + ptx + "\" : \"=r\"(r) : \"r\"(a), \"r\"(b), \"r\"(c));";
}

// Runs `statements` (each sets the u32 `r` from the u32s a, b and c) in one kernel, thread i over
// the (a, b, c) at triples[3i]; returns result k of thread i at [statements.size() * i + k].
inline std::vector<uint32_t> run_statements(const std::string& file_name, const std::vector<std::string>& statements,
                                            const std::vector<uint32_t>& triples) {
  const std::string count = std::to_string(statements.size());
  std::string source = "extern \"C\" __global__ void statements(const u32* in, u32* out, int n) {\n  THREAD\n"
                       "  const u32 a = in[3 * i], b = in[3 * i + 1], c = in[3 * i + 2];\n  u32 r;\n";
  for (size_t k = 0; k < statements.size(); ++k) {
    source += "  " + statements[k] + " out[" + count + " * i + " + std::to_string(k) + "] = r;\n";
  }
  return run_elementwise<uint32_t>(compile_kernels(file_name, (source + "}\n").c_str()), "statements", triples,
                                   static_cast<int>(triples.size() / 3), static_cast<int>(statements.size()));
}

// run_statements, each result checked against expected(k, a, b, c); the first 20 that differ are
// named with their statement and operands.
template <typename Expected>
void check_statements(const std::string& file_name, const std::vector<std::string>& statements,
                      const std::vector<uint32_t>& triples, Expected expected) {
  const auto out = run_statements(file_name, statements, triples);
  int failures = 0;
  for (size_t i = 0; i < triples.size() / 3 && failures < 20; ++i) {
    for (size_t k = 0; k < statements.size(); ++k) {
      const uint32_t a = triples[3 * i], b = triples[3 * i + 1], c = triples[3 * i + 2];
      const uint32_t want = expected(k, a, b, c), got = out[statements.size() * i + k];
      if (got == want) continue;
      ++failures;
      CAPTURE(statements[k]);
      CAPTURE(a);
      CAPTURE(b);
      CAPTURE(c);
      CHECK(got == want);
    }
  }
  CHECK(failures == 0);
}

// A result worked out by hand: the inline PTX, its operands and what it must give.
struct WorkedCase {
  const char* ptx;
  uint32_t a, b, c, expected;
};

inline void check_worked(const std::string& file_name, const std::vector<WorkedCase>& cases) {
  std::vector<std::string> statements;
  std::vector<uint32_t> triples;
  for (const WorkedCase& worked : cases) {
    statements.push_back(inline_ptx(worked.ptx));
    triples.insert(triples.end(), {worked.a, worked.b, worked.c});
  }
  const auto out = run_statements(file_name, statements, triples);
  for (size_t k = 0; k < cases.size(); ++k) {  // case k's operands are thread k's
    const std::string ptx = cases[k].ptx;
    CAPTURE(ptx);
    CHECK(out[cases.size() * k + k] == cases[k].expected);
  }
}

// One instruction of hand-written PTX, parsed in a kernel of its own with registers %r0 to %r3.
inline ptx::Instruction parse_instruction(const std::string& instruction) {
  const std::string text = ".version 8.0\n.target sm_90\n.address_size 64\n.visible .entry k()\n{\n"
                           "  .reg .b32 %r<4>;\n  " + instruction + "\n  ret;\n}\n";
  auto module = ptx::parse_module(text);
  REQUIRE_MESSAGE(module.has_value(), (module ? "" : module.error()));
  return module->functions[0].instructions[0];
}

}  // namespace tilecamp::test
