// The tensor-core instructions on the emulator: mma.sync, ldmatrix, movmatrix and WMMA against the
// H200's own outputs (tests/data/h200-tensor-core.cu, run there into tests/data/h200-tensor-core-
// *.bin), fragment layouts on matrices whose product can be stated, the warp-wide rule, and what
// ldmatrix costs in shared-memory wavefronts.
#include <doctest/doctest.h>

#include <cstring>
#include <sstream>
#include <string>
#include <vector>

#include "checker/emu/emulator.h"
#include "checker/emu/tensor_math.h"
#include "checker/ptx/kernel_lookup.h"
#include "checker/ptx/parser.h"
#include "tests/test_support.h"

namespace tilecamp {
namespace {

std::vector<uint32_t> reference_words(const std::string& name) {
  const std::string bytes = test::read_text(test::data_path(name));
  std::vector<uint32_t> words(bytes.size() / 4);
  std::memcpy(words.data(), bytes.data(), words.size() * 4);
  return words;
}

std::vector<uint32_t> run_reference_kernel(const std::string& kernel, uint32_t blocks, size_t words) {
  const std::string file = "tests/data/h200-tensor-core.cu";
  const profile::ProfileReport report = test::run_kernel(file, test::read_text(test::source_path(file)), kernel,
                                                         {blocks, 1, 1}, {32, 1, 1},
                                                         {"u32[" + std::to_string(words) + "]=zeros"});
  REQUIRE(report.result.completed);
  REQUIRE(report.result.diagnostics.empty());
  return test::buffer_of<uint32_t>(report, 0);
}

// What word `word` (of 38) of an mmaForms lane holds.
std::string mma_word_name(size_t word) {
  static const char* const forms[] = {"m16n8k8 tf32",  "m16n8k16 bf16", "m16n8k16 f16",
                                      "m16n8k8 bf16",  "m16n8k4 tf32",  "m16n8k8 f16"};
  if (word < 24) return std::string("mma ") + forms[word / 4] + " d" + std::to_string(word % 4);
  if (word < 26) return "mma m16n8k16 f16 accumulators d" + std::to_string(word - 24);
  if (word == 26) return "ldmatrix.x1";
  if (word < 29) return "ldmatrix.x2 r" + std::to_string(word - 27);
  if (word < 33) return "ldmatrix.x4 r" + std::to_string(word - 29);
  if (word < 37) return "ldmatrix.x4.trans r" + std::to_string(word - 33);
  return "movmatrix";
}

std::string hex(uint32_t value) {
  char text[16];
  std::snprintf(text, sizeof text, "0x%08x", value);
  return text;
}

TEST_CASE("mma.sync in seven forms, ldmatrix and movmatrix give the H200's words, every one of 116736") {
  const std::vector<uint32_t> expected = reference_words("h200-tensor-core-mma.bin");
  REQUIRE(expected.size() == 96 * 32 * 38);
  const std::vector<uint32_t> got = run_reference_kernel("mmaForms", 96, expected.size());
  REQUIRE(got.size() == expected.size());
  size_t differing = 0;
  std::string first;
  for (size_t i = 0; i < got.size(); ++i) {
    if (got[i] == expected[i]) continue;
    if (differing++ == 0) {
      const size_t lane = i / 38 % 32, trial = i / 38 / 32;
      first = "trial " + std::to_string(trial) + " (block), lane " + std::to_string(lane) + ", " +
              mma_word_name(i % 38) + ": emulator " + hex(got[i]) + ", H200 " + hex(expected[i]);
    }
  }
  INFO("first difference: " << first);
  CHECK(differing == 0);
}

TEST_CASE("WMMA m16n16k16 f16 and bf16 and m16n16k8 tf32 give the H200's words, every one of 24576") {
  const std::vector<uint32_t> expected = reference_words("h200-tensor-core-wmma.bin");
  REQUIRE(expected.size() == 32 * 768);
  const std::vector<uint32_t> got = run_reference_kernel("wmmaForms", 32, expected.size());
  REQUIRE(got.size() == expected.size());
  static const char* const forms[] = {"m16n16k16 f16", "m16n16k16 bf16", "m16n16k8 tf32"};
  size_t differing = 0;
  std::string first;
  for (size_t i = 0; i < got.size(); ++i) {
    if (got[i] == expected[i]) continue;
    if (differing++ == 0) {
      const size_t at = i % 256;
      first = std::string("trial ") + std::to_string(i / 768) + ", " + forms[i % 768 / 256] + ", D[" +
              std::to_string(at / 16) + "][" + std::to_string(at % 16) + "]: emulator " + hex(got[i]) + ", H200 " +
              hex(expected[i]);
    }
  }
  INFO("first difference: " << first);
  CHECK(differing == 0);
}

// Fragments built by hand from the PTX ISA's layouts (groupID g = lane / 4, t = lane % 4), times
// a shifted identity, so that D = (the columns `shift` to `shift` + 7 of A) + C exactly.
const char* const k_layout_source = R"(
#include <cuda_fp16.h>
__device__ unsigned h(float x) { return __half_as_ushort(__float2half(x)); }
__device__ float a_at(unsigned i, unsigned k) { return float(i * 16 + k); }
__device__ float c_at(unsigned i, unsigned j) { return float((i * 8 + j) * 1024); }

__global__ void f16Layout(float* out, unsigned shift) {
  const unsigned lane = threadIdx.x, g = lane / 4, t = lane % 4;
  auto pa = [&](unsigned i, unsigned k) { return h(a_at(i, k)) | h(a_at(i, k + 1)) << 16; };
  auto b = [&](unsigned k, unsigned n) { return k == n + shift ? 0x3c00u : 0u; };
  const unsigned a0 = pa(g, 2 * t), a1 = pa(g + 8, 2 * t), a2 = pa(g, 2 * t + 8), a3 = pa(g + 8, 2 * t + 8);
  const unsigned b0 = b(2 * t, g) | b(2 * t + 1, g) << 16, b1 = b(2 * t + 8, g) | b(2 * t + 9, g) << 16;
  float d[4];
  asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%10,%11,%12,%13};"
               : "=f"(d[0]), "=f"(d[1]), "=f"(d[2]), "=f"(d[3])
               : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1),
                 "f"(c_at(g, 2 * t)), "f"(c_at(g, 2 * t + 1)), "f"(c_at(g + 8, 2 * t)), "f"(c_at(g + 8, 2 * t + 1)));
  out[g * 8 + 2 * t] = d[0];
  out[g * 8 + 2 * t + 1] = d[1];
  out[(g + 8) * 8 + 2 * t] = d[2];
  out[(g + 8) * 8 + 2 * t + 1] = d[3];
}

__global__ void tf32Layout(float* out, unsigned shift) {
  const unsigned lane = threadIdx.x, g = lane / 4, t = lane % 4;
  auto b = [&](unsigned k, unsigned n) { return k == n + shift ? 1.0f : 0.0f; };
  float d[4];
  asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%10,%11,%12,%13};"
               : "=f"(d[0]), "=f"(d[1]), "=f"(d[2]), "=f"(d[3])
               : "f"(a_at(g, t)), "f"(a_at(g + 8, t)), "f"(a_at(g, t + 4)), "f"(a_at(g + 8, t + 4)),
                 "f"(b(t, g)), "f"(b(t + 4, g)),
                 "f"(c_at(g, 2 * t)), "f"(c_at(g, 2 * t + 1)), "f"(c_at(g + 8, 2 * t)), "f"(c_at(g + 8, 2 * t + 1)));
  out[g * 8 + 2 * t] = d[0];
  out[g * 8 + 2 * t + 1] = d[1];
  out[(g + 8) * 8 + 2 * t] = d[2];
  out[(g + 8) * 8 + 2 * t + 1] = d[3];
}

// Four 8x8 matrices of 16-bit elements, element (r, c) of matrix m holding m * 64 + r * 8 + c;
// lane L names row L % 8 of matrix L / 8, its rows `row_bytes` apart.
__global__ void ldmatrixIota(unsigned* out, unsigned row_bytes) {
  __shared__ unsigned short tile[2048];
  const unsigned lane = threadIdx.x;
  for (unsigned i = lane; i < 256; i += 32) {
    const unsigned m = i / 64, r = i / 8 % 8, c = i % 8;
    tile[(m * 8 + r) * row_bytes / 2 + c] = static_cast<unsigned short>(i);
  }
  __syncwarp();
  const unsigned row = static_cast<unsigned>(__cvta_generic_to_shared(tile)) + (lane / 8 * 8 + lane % 8) * row_bytes;
  unsigned r[4], s[4], moved;
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];"
               : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3]) : "r"(row));
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0,%1,%2,%3}, [%4];"
               : "=r"(s[0]), "=r"(s[1]), "=r"(s[2]), "=r"(s[3]) : "r"(row));
  asm volatile("movmatrix.sync.aligned.m8n8.trans.b16 %0, %1;" : "=r"(moved) : "r"(r[1]));
  for (int i = 0; i < 4; ++i) out[lane * 9 + i] = r[i];
  for (int i = 0; i < 4; ++i) out[lane * 9 + 4 + i] = s[i];
  out[lane * 9 + 8] = moved;
}

__global__ void halfWarpMma(float* out) {
  float d = 0.0f;
  if (threadIdx.x < 16) {
    asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%0,%0,%0,%0}, {%1,%1,%1,%1}, {%1,%1}, {%1,%1,%1,%1};"
                 : "+f"(d) : "f"(1.0f));
  }
  out[threadIdx.x] = d;
}

__global__ void integerMma(int* out) {
  int d = 0;
  asm volatile("mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32 {%0,%0,%0,%0}, {%1,%1,%1,%1}, {%1,%1}, {%1,%1,%1,%1};"
               : "+r"(d) : "r"(1));
  out[threadIdx.x] = d;
}
)";

profile::ProfileReport run_layout(const std::string& kernel, const std::vector<std::string>& arguments) {
  return test::run_kernel("layout.cu", k_layout_source, kernel, {1, 1, 1}, {32, 1, 1}, arguments);
}

TEST_CASE("mma's A, B, C and D fragments sit where the PTX ISA puts them: f16 m16n8k16 and tf32 m16n8k8") {
  for (const char* kernel : {"f16Layout", "tf32Layout"}) {
    const int k = std::string(kernel) == "f16Layout" ? 16 : 8;
    for (int shift : {0, k - 8}) {
      CAPTURE(kernel);
      CAPTURE(shift);
      const profile::ProfileReport report = run_layout(kernel, {"f32[128]=zeros", "u32:" + std::to_string(shift)});
      REQUIRE(report.result.diagnostics.empty());
      const std::vector<float> d = test::buffer_of<float>(report, 0);
      REQUIRE(d.size() == 128);
      int wrong = 0;
      for (int i = 0; i < 16; ++i) {
        for (int j = 0; j < 8; ++j) wrong += d[i * 8 + j] != float(i * 16 + j + shift + (i * 8 + j) * 1024);
      }
      CHECK(wrong == 0);
    }
  }
}

TEST_CASE("ldmatrix hands each lane its row's pair of elements (.trans: its column's), movmatrix transposes") {
  const profile::ProfileReport report = run_layout("ldmatrixIota", {"u32[288]=zeros", "u32:16"});
  REQUIRE(report.result.diagnostics.empty());
  const std::vector<uint32_t> out = test::buffer_of<uint32_t>(report, 0);
  REQUIRE(out.size() == 288);
  int wrong = 0;
  for (uint32_t lane = 0; lane < 32; ++lane) {
    const uint32_t g = lane / 4, t = lane % 4;
    for (uint32_t m = 0; m < 4; ++m) {
      const uint32_t row = m * 64 + g * 8 + 2 * t, column = m * 64 + 2 * t * 8 + g;
      wrong += out[lane * 9 + m] != (row | (row + 1) << 16);
      wrong += out[lane * 9 + 4 + m] != (column | (column + 8) << 16);
    }
    // movmatrix of matrix 1 as ldmatrix gave it (row-wise): its transpose, as ldmatrix.trans gave it.
    wrong += out[lane * 9 + 8] != out[lane * 9 + 5];
  }
  CHECK(wrong == 0);
  // Shared memory: the tile's 8 stores, then two ldmatrix.x4 of 4 wavefronts each: 32 rows of 16
  // bytes, 8 rows a wavefront, no two rows of 8 in the same banks.
  CHECK(report.result.totals.shared_ld_requests == 2);
  CHECK(report.result.totals.shared_ld_wavefronts == 8);
  CHECK(report.result.totals.shared_ld_bank_conflicts == 0);
}

TEST_CASE("ldmatrix rows 128 bytes apart fall in the same banks: 8 wavefronts a matrix") {
  const profile::ProfileReport report = run_layout("ldmatrixIota", {"u32[288]=zeros", "u32:128"});
  REQUIRE(report.result.diagnostics.empty());
  CHECK(report.result.totals.shared_ld_requests == 2);
  CHECK(report.result.totals.shared_ld_wavefronts == 2 * 4 * 8);
  CHECK(report.result.totals.shared_ld_bank_conflicts == 2 * 4 * 7);
}

TEST_CASE("an mma.sync that half a warp executes is reported: it is warp-wide") {
  const profile::ProfileReport report = run_layout("halfWarpMma", {"f32[32]=zeros"});
  REQUIRE(report.result.diagnostics.size() == 1);
  const Diagnostic& d = report.result.diagnostics[0];
  CHECK(d.kind == "warp-sync");
  CHECK(test::contains(d.message, "mma.sync.aligned.m16n8k8"));
  CHECK(test::contains(d.message, "threads 0-15"));
  CHECK(test::contains(d.message, "without threads 16-31"));
}

TEST_CASE("an mma form the emulator does not run is refused by name before the kernel runs") {
  const profile::ProfileReport report = run_layout("integerMma", {"i32[32]=zeros"});
  REQUIRE(!report.result.diagnostics.empty());
  const Diagnostic& d = report.result.diagnostics[0];
  CHECK(d.kind == "unsupported");
  CHECK(test::contains(d.message, "mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32"));
}

TEST_CASE("WMMA's load, mma and store agree: A times the identity, loaded from shared memory, is A") {
  const char* source = R"(
#include <mma.h>
#include <cuda_fp16.h>
using namespace nvcuda;
__global__ void wmmaIdentity(float* out) {
  __shared__ __half a[256], b[256];
  for (int i = threadIdx.x; i < 256; i += 32) {
    a[i] = __float2half(float(i));
    b[i] = __float2half(i / 16 == i % 16 ? 1.0f : 0.0f);
  }
  __syncwarp();
  wmma::fragment<wmma::matrix_a, 16, 16, 16, __half, wmma::row_major> fa;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, __half, wmma::col_major> fb;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
  wmma::fill_fragment(acc, 0.5f);
  wmma::load_matrix_sync(fa, a, 16);
  wmma::load_matrix_sync(fb, b, 16);
  wmma::mma_sync(acc, fa, fb, acc);
  wmma::store_matrix_sync(out, acc, 16, wmma::mem_row_major);
})";
  const profile::ProfileReport report =
      test::run_kernel("wmma.cu", source, "wmmaIdentity", {1, 1, 1}, {32, 1, 1}, {"f32[256]=zeros"});
  REQUIRE(report.result.diagnostics.empty());
  const std::vector<float> d = test::buffer_of<float>(report, 0);
  REQUIRE(d.size() == 256);
  int wrong = 0;
  for (int i = 0; i < 256; ++i) wrong += d[i] != float(i) + 0.5f;
  CHECK(wrong == 0);
  // Two loads from shared memory, each an ldmatrix.x4 whose 8 x 8 matrices have rows 32 bytes
  // apart (16 halves a row): rows r and r + 4 share banks, 2 wavefronts a matrix, 8 a load, as
  // Nsight Compute counts on an H200 (h200-tensor-wavefronts.tsv, wmmaLoadHalfA with ldm 16).
  CHECK(report.result.totals.shared_ld_requests == 2);
  CHECK(report.result.totals.shared_ld_wavefronts == 16);
  // One wmma.mma: one tensor instruction of 2 x 16 x 16 x 16 flops.
  CHECK(report.result.totals.tensor_instructions == 1);
  CHECK(report.result.totals.tensor_flops == 8192);
}

// One kernel around `body` (registers %r1-%r40, %f1-%f40, %rd1-%rd4 declared).
Expected<ptx::Module> parse_body(const std::string& body) {
  return ptx::parse_module(".version 8.0\n.target sm_90\n.address_size 64\n.visible .entry k()\n{\n"
                           "  .reg .b32 %r<41>;\n  .reg .f32 %f<41>;\n  .reg .b64 %rd<5>;\n" +
                           body + "\n  ret;\n}\n");
}

TEST_CASE("the parser reads WMMA's 8-register fragments and the matrix instructions' shapes and types") {
  auto module = parse_body(
      "  wmma.mma.sync.aligned.row.col.m16n16k16.f32.f32 {%f1,%f2,%f3,%f4,%f5,%f6,%f7,%f8}, "
      "{%r1,%r2,%r3,%r4,%r5,%r6,%r7,%r8}, {%r9,%r10,%r11,%r12,%r13,%r14,%r15,%r16}, {%f9,%f10,%f11,%f12,%f13,%f14,%f15,%f16};\n"
      "  wmma.load.b.sync.aligned.col.m16n16k8.shared.tf32 {%r1,%r2,%r3,%r4}, [%rd1], %r5;\n"
      "  ldmatrix.sync.aligned.m8n8.x2.trans.shared::cta.b16 {%r1,%r2}, [%r3];\n"
      "  mma.sync.aligned.m16n8k8.row.col.f32.bf16.bf16.f32 {%f1,%f2,%f3,%f4}, {%r1,%r2}, {%r3}, {%f5,%f6,%f7,%f8};");
  REQUIRE_MESSAGE(module.has_value(), (module ? "" : module.error()));
  const std::vector<ptx::Instruction>& code = module->functions[0].instructions;
  REQUIRE(code.size() == 5);
  CHECK(code[0].opcode == ptx::Opcode::WmmaMma);
  CHECK(code[0].operands[1].count == 8);
  CHECK(code[0].operands[3].elements[7] >= 0);
  CHECK((code[0].matrix.m == 16 && code[0].matrix.n == 16 && code[0].matrix.k == 16));
  CHECK((code[0].matrix.a == ptx::MatrixType::F16 && code[0].matrix.d == ptx::MatrixType::F32));
  CHECK(code[1].opcode == ptx::Opcode::WmmaLoad);
  CHECK(code[1].matrix.matrix == 'b');
  CHECK_FALSE(code[1].matrix.row_major);
  CHECK(code[1].space == ptx::Space::Shared);
  CHECK(code[2].opcode == ptx::Opcode::Ldmatrix);
  CHECK((code[2].matrix.count == 2 && code[2].matrix.trans));
  CHECK(code[3].opcode == ptx::Opcode::Mma);
  CHECK(code[3].matrix.b == ptx::MatrixType::BF16);
}

TEST_CASE("a vector of 9 registers is refused, and fragments of the wrong size and forms not run are named") {
  auto nine = parse_body("  mov.b32 %r1, 0;\n  wmma.load.a.sync.aligned.row.m16n16k16.f16 "
                         "{%r1,%r2,%r3,%r4,%r5,%r6,%r7,%r8,%r9}, [%rd1];");
  REQUIRE_FALSE(nine.has_value());
  CHECK(test::contains(nine.error(), "more than 8 elements"));
  auto module = parse_body(
      "  mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%f1,%f2,%f3,%f4}, {%r1,%r2}, {%r3,%r4}, {%f5,%f6,%f7,%f8};\n"
      "  wmma.load.a.sync.aligned.row.m32n8k16.f16 {%r1,%r2,%r3,%r4,%r5,%r6,%r7,%r8}, [%rd1];\n"
      "  mma.sync.aligned.m16n8k8.col.row.f32.tf32.tf32.f32 {%f1,%f2,%f3,%f4}, {%r1,%r2,%r3,%r4}, {%r5,%r6}, {%f5,%f6,%f7,%f8};");
  REQUIRE_MESSAGE(module.has_value(), (module ? "" : module.error()));
  const std::vector<ptx::Instruction>& code = module->functions[0].instructions;
  for (const ptx::Instruction& in : {code[0], code[1], code[2]}) CHECK(in.opcode == ptx::Opcode::Unsupported);
  CHECK(test::contains(code[0].unsupported_reason, "its a fragment is 4 register(s)"));
  CHECK(test::contains(code[1].unsupported_reason, "m32n8k16"));
  CHECK(test::contains(code[2].unsupported_reason, "the emulator runs mma.sync.aligned.m16n8k8"));
}

TEST_CASE("the tensor core's sum: terms cut 25 bits below the largest, never under 2^-149, one rounding") {
  using ptx::MatrixType;
  auto f32 = [](uint32_t a0, uint32_t b0, uint32_t a1, uint32_t b1, uint32_t c) {
    const uint32_t a[2] = {a0, a1}, b[2] = {b0, b1};
    return emu::tensor_dot(MatrixType::TF32, a, b, 2, MatrixType::F32, c, MatrixType::F32);
  };
  // 1 + 2^-24 + 2^-24: exact sum 1 + 2^-23, which an f32 holds; each 2^-24 is 24 bits below 1, kept.
  CHECK(f32(0x3f800000u, 0x3f800000u, 0x33800000u, 0x3f800000u, 0x33800000u) == 0x3f800001u);
  // 1 - 2^-30: the small term is cut away (25 bits below 1), leaving 1; an FMA would give 1 - ulp.
  CHECK(f32(0x3f800000u, 0x3f800000u, 0xb0800000u, 0x3f800000u, 0) == 0x3f800000u);
  // 1 + 3 * 2^-25 rounds toward zero to 1 (round to nearest would give 1 + 2^-23).
  CHECK(f32(0x3f800000u, 0x3f800000u, 0x33c00000u, 0x3f800000u, 0) == 0x3f800000u);
  // An H200 case: 453 * 2^-149 minus about 2^-159 stays 453 * 2^-149 (nothing under 2^-149 counts).
  CHECK(f32(0x00800000u, 0x386283b1u, 0xaf0d8ec9u, 0x00800000u, 0) == 0x1c5u);
  // A sum under 2^-149 is +0, whatever its sign; the TF32 operand 0x00000001 reads as 0.
  CHECK(f32(0xa7083cc0u, 0x00800000u, 0x00000001u, 0x007fffffu, 0) == 0u);
  // Overflow gives infinity though the rounding is toward zero; NaN is 0x7fffffff; inf - inf too.
  CHECK(f32(0x7f7fffffu, 0x40000000u, 0, 0, 0) == 0x7f800000u);
  CHECK(f32(0x7fc00000u, 0x3f800000u, 0, 0, 0) == 0x7fffffffu);
  CHECK(f32(0x7f800000u, 0x3f800000u, 0x7f800000u, 0xbf800000u, 0) == 0x7fffffffu);
  CHECK(f32(0x7f800000u, 0x00000000u, 0, 0, 0) == 0x7fffffffu);
  // An f16 D rounds to nearest: 1 + 2^-11 + 2^-12 (above halfway) gives 1 + 2^-10.
  const uint32_t a[2] = {0x3c00u, 0x1000u}, b[2] = {0x3c00u, 0x3e00u};  // 1 * 1 + 2^-11 * 1.5
  CHECK(emu::tensor_dot(MatrixType::F16, a, b, 2, MatrixType::F16, 0, MatrixType::F16) == 0x3c01u);
  CHECK(emu::tensor_dot(MatrixType::F16, a, b, 2, MatrixType::F16, 0, MatrixType::F32) == 0x3f801800u);
}

// Shared-memory traffic of ldmatrix and WMMA's loads and stores against Nsight Compute: every
// row of tests/data/h200-tensor-wavefronts.tsv (one launch of one warp on an H200, by
// bench/tensor_wavefronts_gpu.sh) run on the emulator with the same kernel and arguments. The
// emulator has one shared-load counter where ncu separates ldmatrix's instructions (ldsm) from
// other shared loads (lds); its wavefronts ncu counts as shared loads either way.
TEST_CASE("ldmatrix and WMMA's shared loads and stores count the wavefronts Nsight Compute counted on an H200") {
  const std::string file = "tests/data/h200-tensor-wavefronts.cu";
  const ptx::Module module = test::compile_to_module(file, test::read_text(test::source_path(file)));
  std::istringstream table(test::read_text(test::data_path("h200-tensor-wavefronts.tsv")));
  std::string line;
  int rows = 0;
  while (std::getline(table, line)) {
    if (line.empty() || line.starts_with("#") || line.starts_with("kernel\t")) continue;
    std::istringstream fields(line);
    std::string kernel;
    std::getline(fields, kernel, '\t');
    int32_t arg1 = 0, arg2 = 0;
    uint64_t ldsm = 0, lds = 0, ld_wavefronts = 0, ld_conflicts = 0, sts = 0, st_wavefronts = 0, st_conflicts = 0;
    fields >> arg1 >> arg2 >> ldsm >> lds >> ld_wavefronts >> ld_conflicts >> sts >> st_wavefronts >> st_conflicts;
    REQUIRE_MESSAGE(!fields.fail(), "unreadable row: " << line);
    CAPTURE(kernel);
    CAPTURE(arg1);
    CAPTURE(arg2);
    emu::DeviceMemory memory;
    emu::Emulator emulator(module, memory);
    const uint64_t out = memory.allocate("out", std::vector<uint8_t>(4096, 0));
    std::vector<std::vector<uint8_t>> parameters(1, std::vector<uint8_t>(8));
    std::memcpy(parameters[0].data(), &out, 8);
    for (int32_t value : kernel.starts_with("ldmatrix") ? std::vector<int32_t>{arg1, arg2} : std::vector<int32_t>{arg1}) {
      parameters.emplace_back(4);
      std::memcpy(parameters.back().data(), &value, 4);
    }
    auto mangled = ptx::resolve_kernel_name(module, kernel);
    REQUIRE_MESSAGE(mangled.has_value(), (mangled ? "" : mangled.error()));
    LaunchConfig config;
    config.block = {32, 1, 1};
    auto result = emulator.launch(*mangled, config, parameters);
    REQUIRE_MESSAGE(result.has_value(), (result ? "" : result.error()));
    REQUIRE(result->completed);
    const Counters& counted = result->totals;
    CHECK(counted.shared_ld_requests == ldsm + lds);
    CHECK(counted.shared_ld_wavefronts == ld_wavefronts);
    CHECK(counted.shared_ld_bank_conflicts == ld_conflicts);
    CHECK(counted.shared_st_requests == sts);
    CHECK(counted.shared_st_wavefronts == st_wavefronts);
    CHECK(counted.shared_st_bank_conflicts == st_conflicts);
    ++rows;
  }
  CHECK(rows == 64);
}

}  // namespace
}  // namespace tilecamp
