// Every diagnostic of the emulator on a kernel that provokes it: its kind, severity, line and the
// words a learner needs (which threads, where the others are, which buffer and element).
#include <doctest/doctest.h>

#include <vector>

#include "checker/emu/emulator.h"
#include "checker/ptx/parser.h"
#include "tests/test_emu_alu_support.h"
#include "tests/test_support.h"

namespace tilecamp {
namespace {

profile::ProfileReport run_fixture(const std::string& name, const std::string& kernel, Dim3 block,
                                   const std::vector<std::string>& arguments) {
  const std::string path = test::fixture_path(name);
  return test::run_kernel(path, test::read_text(test::source_path(path)), kernel, {1, 1, 1}, block, arguments);
}

const Diagnostic& only_diagnostic(const profile::ProfileReport& report) {
  REQUIRE(report.result.diagnostics.size() == 1);
  return report.result.diagnostics[0];
}

TEST_CASE("warps waiting at two different __syncthreads() are released together, with a warning naming both lines") {
  const auto report = run_fixture("barrier_mismatch.cu", "split_barriers", {128, 1, 1}, {"f32[128]=iota"});
  const Diagnostic& d = only_diagnostic(report);
  CHECK(d.severity == Severity::Warning);
  CHECK(d.kind == "split-barrier");
  CHECK(d.line == 12);
  CHECK(test::contains(d.message, "warps 0-1 wait at the barrier at line 9, warps 2-3 wait at the barrier at line 12"));
  CHECK(test::contains(d.message, "a GPU counts their arrivals together and releases them as one barrier"));
  CHECK(report.result.completed);
  const auto data = test::buffer_of<float>(report, 0);  // as on the H200: each half read the other's stores
  for (int t = 0; t < 128; ++t) CHECK(data[t] == static_cast<float>(t < 64 ? 127 - t : t - 64));
}

TEST_CASE("a barrier that can never gather its thread count is a deadlock") {
  const auto report = run_fixture("barrier_never_full.cu", "never_full", {64, 1, 1}, {"f32[64]"});
  const Diagnostic& d = only_diagnostic(report);
  CHECK(d.kind == "deadlock");
  CHECK(d.line == 4);
  CHECK(test::contains(d.message, "64 thread(s) wait at barrier 1 (line 4) for 128"));
}

TEST_CASE("a barrier inside a branch taken by half a warp is a deadlock naming both groups") {
  const auto report = run_fixture("divergent_barrier.cu", "transposeTiled", {32, 32, 1},
                                  {"f32[1024]", "f32[1024]=zeros", "i32:32", "i32:32"});
  const Diagnostic& d = only_diagnostic(report);
  CHECK(d.kind == "deadlock");
  CHECK(d.line == 13);
  CHECK(test::contains(d.message, "threads 0-15 of warp 0 in block (0,0,0) wait at the barrier at line 13"));
  CHECK(test::contains(d.message, "threads 16-31 of the same warp took another path (at line 15)"));
  CHECK(test::contains(d.message, "undefined (PTX's barriers are .aligned)"));
}

TEST_CASE("threads that return before a barrier give a warning and the kernel completes") {
  const auto report = run_fixture("early_exit.cu", "transposeTiled", {32, 32, 1},
                                  {"f32[400]", "f32[400]=zeros", "i32:20", "i32:20"});
  const Diagnostic& d = only_diagnostic(report);
  CHECK(d.severity == Severity::Warning);
  CHECK(d.kind == "early-exit-barrier");
  CHECK(report.result.completed);
}

TEST_CASE("out-of-bounds accesses name the space, the element, the size and the thread") {
  const char* source = R"(
__global__ void overrun(const float* in, float* out, int shift) {
  __shared__ float tile[32];
  float local[4];
  for (int i = 0; i < 4; ++i) local[i] = in[threadIdx.x + i];
  if (shift == 1) out[threadIdx.x] = in[threadIdx.x + 30];
  if (shift == 2) { tile[threadIdx.x + 8] = local[threadIdx.x % 4]; out[threadIdx.x] = tile[threadIdx.x]; }
  if (shift == 3) out[threadIdx.x] = local[(threadIdx.x + shift * 7) % 64];
  if (shift == 4) out[threadIdx.x] = in[(int)threadIdx.x - 1];
})";
  auto diagnostic_for = [&](int shift) {
    const auto report = test::run_kernel("overrun.cu", source, "overrun", {1, 1, 1}, {32, 1, 1},
                                         {"f32[40]", "f32[32]=zeros", "i32:" + std::to_string(shift)});
    CAPTURE(shift);
    return only_diagnostic(report);
  };
  const Diagnostic global = diagnostic_for(1);
  CHECK(global.kind == "out-of-bounds");
  CHECK(global.line == 6);
  CHECK(test::contains(global.message, "out-of-bounds global load of 4 bytes at element 40 of `arg0` (it has 40 elements"));
  CHECK(test::contains(global.message, "by thread (10,0,0) of block (0,0,0)"));
  const Diagnostic shared = diagnostic_for(2);
  CHECK(shared.line == 7);
  CHECK(test::contains(shared.message, "out-of-bounds shared store of 4 bytes at byte 128 of shared memory (the block has 128 bytes; past the end of `tile` (128 bytes)) by thread (24,0,0)"));
  const Diagnostic local = diagnostic_for(3);
  CHECK(local.line == 8);
  CHECK(test::contains(local.message, "out-of-bounds local load"));
  const Diagnostic before = diagnostic_for(4);
  CHECK(test::contains(before.message, "element -1 of `arg0`"));
}

// tile[-1] and local[-1] compute 64-bit addresses just below 2^64: a bounds test written
// `address + bytes > size` wraps to 0 there, lets them through and reads before the buffer.
TEST_CASE("an index of -1 into shared or local memory is out of bounds, before the start of the variable") {
  const char* source = R"(
__global__ void underrun(const float* in, float* out, int which) {
  __shared__ float tile[32];
  float local[4];
  for (int i = 0; i < 4; ++i) local[i] = in[threadIdx.x + i];
  tile[threadIdx.x] = local[threadIdx.x % 4];
  __syncthreads();
  if (which == 0) out[threadIdx.x] = tile[(int)threadIdx.x - 1];
  if (which == 1) out[threadIdx.x] = local[(int)threadIdx.x % 4 - 1];
})";
  auto diagnostic_for = [&](int which) {
    const auto report = test::run_kernel("underrun.cu", source, "underrun", {1, 1, 1}, {32, 1, 1},
                                         {"f32[40]", "f32[32]=zeros", "i32:" + std::to_string(which)});
    CAPTURE(which);
    return only_diagnostic(report);
  };
  const Diagnostic shared = diagnostic_for(0);
  CHECK(shared.kind == "out-of-bounds");
  CHECK(shared.line == 8);
  CHECK(test::contains(shared.message, "out-of-bounds shared load of 4 bytes at byte -4 of shared memory (the block "
                                       "has 128 bytes; before the start of `tile` (128 bytes)) by thread (0,0,0)"));
  const Diagnostic local = diagnostic_for(1);
  CHECK(local.kind == "out-of-bounds");
  CHECK(local.line == 9);
  CHECK(test::contains(local.message, "out-of-bounds local load of 4 bytes at byte -4 of the thread's local memory"));
}

TEST_CASE("a lane whose pointer wraps below address 0 is out of bounds even after another lane hit a buffer") {
  const char* source = R"(
__global__ void wild(const float* in, float* out, unsigned long long wrapped) {
  const float* p = threadIdx.x == 0 ? in : reinterpret_cast<const float*>(wrapped);
  out[threadIdx.x] = *p;
})";
  const auto report = test::run_kernel("wild.cu", source, "wild", {1, 1, 1}, {32, 1, 1},
                                       {"f32[32]", "f32[32]=zeros", "u64:18446744073709551612"});  // 2^64 - 4
  const Diagnostic& d = only_diagnostic(report);
  CHECK(d.kind == "out-of-bounds");
  CHECK(test::contains(d.message, "out-of-bounds global load of 4 bytes"));
  CHECK(test::contains(d.message, "by thread (1,0,0)"));
}

TEST_CASE("a shared load of words no thread of the block wrote warns once and reads garbage, not zeros") {
  const std::string path = test::fixture_path("uninitialized_shared.cu");
  const auto report = test::run_kernel(path, test::read_text(test::source_path(path)), "half_filled", {2, 1, 1},
                                       {32, 1, 1}, {"f32[64]=iota", "f32[64]=zeros"});
  const Diagnostic& d = only_diagnostic(report);  // both blocks do it: one warning for the line
  CHECK(d.severity == Severity::Warning);
  CHECK(d.kind == "uninitialized-shared");
  CHECK(d.line == 8);
  CHECK(test::contains(d.message, "line 8 reads element 16 of `tile` (thread (16,0,0) of block (0,0,0)) before any "
                                  "thread of the block wrote it; shared memory starts with whatever the previous "
                                  "block left there"));
  CHECK(report.result.completed);
  const std::vector<float> out = test::buffer_of<float>(report, 1);
  REQUIRE(out.size() == 64);
  CHECK(out[47] == 47.0f);
  CHECK(out[16] == -431602080.0f);  // 0xcd bytes: absurd, and neither 0 nor the grader's NaN
  CHECK(out[63] == -431602080.0f);
}

TEST_CASE("stores, atomics and cp.async copies that landed all count as writes of shared memory") {
  const char* source = R"(
#include <cuda_pipeline.h>
__global__ void all_written(const float* in, float* out) {
  __shared__ float copied[64];
  __shared__ int counted[64];
  __shared__ float stored[64];
  int t = threadIdx.x;
  __pipeline_memcpy_async(&copied[t], &in[t], sizeof(float));
  __pipeline_commit();
  atomicExch(&counted[t], 1);
  stored[t] = 2.0f;
  __pipeline_wait_prior(0);
  __syncthreads();
  out[t] = copied[63 - t] + counted[63 - t] + stored[63 - t];
})";
  const auto report = test::run_kernel("all_written.cu", source, "all_written", {1, 1, 1}, {64, 1, 1},
                                       {"f32[64]=iota", "f32[64]=zeros"});
  CHECK(report.result.diagnostics.empty());
  CHECK(test::buffer_of<float>(report, 1)[0] == 63.0f + 1.0f + 2.0f);
}

TEST_CASE("reading a cp.async destination before waiting for the copy reads memory not written yet") {
  const char* source = R"(
#include <cuda_pipeline.h>
__global__ void too_early(const float* in, float* out) {
  __shared__ float tile[32];
  __pipeline_memcpy_async(&tile[threadIdx.x], &in[threadIdx.x], sizeof(float));
  __pipeline_commit();
  float early = tile[threadIdx.x];
  __pipeline_wait_prior(0);
  out[threadIdx.x] = early;
})";
  const auto report = test::run_kernel("too_early.cu", source, "too_early", {1, 1, 1}, {32, 1, 1},
                                       {"f32[32]=iota", "f32[32]=zeros"});
  const Diagnostic& d = only_diagnostic(report);  // one warp: no race, only the read of the copy not landed
  CHECK(d.kind == "uninitialized-shared");
  CHECK(d.line == 7);
}

TEST_CASE("a register read before any instruction writes it holds garbage, not zero") {
  const char* source = R"(
__global__ void unset(unsigned* out) {
  unsigned value;
  asm volatile("{ .reg .b32 r; mov.b32 %0, r; }" : "=r"(value));
  out[threadIdx.x] = value;
})";
  const auto report = test::run_kernel("unset.cu", source, "unset", {1, 1, 1}, {32, 1, 1}, {"u32[32]=zeros"});
  CHECK(report.result.diagnostics.empty());
  CHECK(test::buffer_of<uint32_t>(report, 0)[5] == 0xcdcdcdcdu);
}

TEST_CASE("a misaligned vector access is reported with the thread") {
  const char* source = R"(
__global__ void misaligned(const float* in, float4* out) {
  out[threadIdx.x] = *reinterpret_cast<const float4*>(in + 1 + threadIdx.x * 4);
})";
  const auto report = test::run_kernel("misaligned.cu", source, "misaligned", {1, 1, 1}, {32, 1, 1},
                                       {"f32[256]", "f32[128]=zeros"});
  const Diagnostic& d = only_diagnostic(report);
  CHECK(d.kind == "misaligned");
  CHECK(d.line == 3);
  CHECK(test::contains(d.message, "misaligned load of 16 bytes"));
  CHECK(test::contains(d.message, "thread (0,0,0) of block (0,0,0)"));
}

TEST_CASE("an infinite loop is stopped as a runaway kernel naming the loop's line") {
  const auto report = run_fixture("infinite_loop.cu", "transposeTiled", {32, 32, 1},
                                  {"f32[1024]", "f32[1024]=zeros", "i32:32", "i32:32"});
  const Diagnostic& d = only_diagnostic(report);
  CHECK(d.kind == "runaway");
  CHECK(d.line > 0);
  CHECK(test::contains(d.message, "without finishing: an infinite loop?"));
}

TEST_CASE("inline PTX missing its operands is refused at its line, never run (NVRTC passes asm on unchecked)") {
  const char* source = R"(
__global__ void short_of_operands(unsigned* out) {
  unsigned value = threadIdx.x;
  asm volatile("redux.sync.add.u32 %0;" : "+r"(value));
  asm volatile("madc.lo.cc.u32 %0;" : "+r"(value));
  out[threadIdx.x] = value;
})";
  const auto report = test::run_kernel("short.cu", source, "short_of_operands", {1, 1, 1}, {32, 1, 1}, {"u32[32]=zeros"});
  REQUIRE_FALSE(report.result.diagnostics.empty());
  const Diagnostic& d = report.result.diagnostics[0];
  CHECK(d.kind == "unsupported");
  CHECK(d.line == 4);
  CHECK(test::contains(d.message, "`redux.sync.add.u32` with 1 operand(s): it needs at least 3"));
  CHECK(report.result.totals.warp_instructions == 0);
}

TEST_CASE("PTX the emulator does not implement is refused up front with its line") {
  const char* source = R"(
__global__ void texture_like(float* out) {
  unsigned value;
  asm volatile("cvt.rna.tf32.f32 %0, %1;" : "=r"(value) : "f"((float)threadIdx.x));
  out[threadIdx.x] = value;
})";
  const auto report = test::run_kernel("tf32.cu", source, "texture_like", {1, 1, 1}, {32, 1, 1}, {"f32[32]=zeros"});
  const Diagnostic& d = only_diagnostic(report);
  CHECK(d.kind == "unsupported");
  CHECK(d.line == 4);
  CHECK(test::contains(d.message, "tf32"));
  CHECK(report.result.totals.warp_instructions == 0);
}

TEST_CASE("a tile read without a barrier after it is filled is a race naming both lines") {
  const auto report = run_fixture("missing_barrier.cu", "transposeTiled", {32, 32, 1},
                                  {"f32[1024]", "f32[1024]=zeros", "i32:32", "i32:32"});
  const Diagnostic& d = only_diagnostic(report);
  CHECK(d.severity == Severity::Error);
  CHECK(d.kind == "race");
  CHECK(d.line == 10);
  CHECK(test::contains(d.message, "shared-memory race (read-after-write): thread (0,1,0) of block (0,0,0) writes "
                                  "word 33 of `tile` at line 10 and thread (1,0,0) (another warp) reads it at line 13 "
                                  "with no __syncthreads() between them"));
  CHECK(test::contains(d.message, "Put a __syncthreads() after the write at line 10 and before the read at line 13"));
  CHECK(report.result.completed);  // a race does not stop the emulator: its own result is defined
}

TEST_CASE("a tile overwritten by the next loop iteration before all warps read it is a race") {
  const auto report = run_fixture("reused_tile.cu", "running_sum", {128, 1, 1}, {"f32[512]", "f32[128]", "i32:4"});
  const Diagnostic& d = only_diagnostic(report);
  CHECK(d.kind == "race");
  CHECK(test::contains(d.message, "(write-after-read)"));
  CHECK(test::contains(d.message, "reads word 63 of `tile` at line 10"));
  CHECK(test::contains(d.message, "writes it at line 8"));
}

// One block of 8 warps, 4 trips round the loop.
Diagnostic loop_race(const std::string& kernel) {
  return only_diagnostic(run_fixture("loop_missing_barrier.cu", kernel, {256, 1, 1},
                                     {"f32[1024]", "f32[1024]=zeros", "i32:4"}));
}

// The emulator ran warp 3 to its next barrier before warp 4, so it met warp 3's read of word 128
// (line 13) before warp 4's write of it (line 12); on a GPU either may come first. The report
// goes by program order: the write comes first in every thread, so the barrier is missing after it.
TEST_CASE("a loop without the barrier between its store and its load is a read-after-write race") {
  const Diagnostic d = loop_race("withoutFirstBarrier");
  CHECK(d.line == 12);
  CHECK(test::contains(d.message, "shared-memory race (read-after-write): thread (128,0,0) of block (0,0,0) writes "
                                  "word 128 of `buffer` at line 12 and thread (127,0,0) (another warp) reads it at "
                                  "line 13 with no __syncthreads() between them: on a GPU the read may run before the "
                                  "write. Put a __syncthreads() after the write at line 12 and before the read at "
                                  "line 13"));
}

// Here the emulator met warp 3's write of the next chunk (line 23) before warp 4's read of the
// current one (line 25): by execution order a read-after-write, by program order the read comes
// first in the trip and the write after it.
TEST_CASE("a loop without the barrier at the end of its body is a write-after-read race") {
  const Diagnostic d = loop_race("withoutSecondBarrier");
  CHECK(d.line == 25);
  CHECK(test::contains(d.message, "shared-memory race (write-after-read): thread (128,0,0) of block (0,0,0) reads "
                                  "word 127 of `buffer` at line 25 and thread (127,0,0) (another warp) writes it at "
                                  "line 23 with no __syncthreads() between them: on a GPU the write may run before the "
                                  "read. Put a __syncthreads() after the read at line 25, before the loop comes back "
                                  "to the write at line 23"));
}

// The reduction without its barrier: the add and the store it feeds are one line in a loop, so
// the barrier goes at the end of each trip, not "between" them inside the `if`.
TEST_CASE("a race between two trips of one line in a loop says the barrier goes at the end of each trip, outside the if") {
  const std::string source =
      "__global__ void reduce(const float* in, float* out) {\n"
      "  __shared__ float partial[256];\n"
      "  partial[threadIdx.x] = in[threadIdx.x];\n"
      "  __syncthreads();\n"
      "  for (unsigned stride = blockDim.x / 2; stride > 0; stride /= 2) {\n"
      "    if (threadIdx.x < stride) partial[threadIdx.x] += partial[threadIdx.x + stride];\n"
      "  }\n"
      "  if (threadIdx.x == 0) out[0] = partial[0];\n"
      "}\n";
  const auto report = test::run_kernel("reduce.cu", source, "reduce", {1, 1, 1}, {256, 1, 1}, {"f32[256]=iota", "f32[1]=zeros"});
  const Diagnostic* race = nullptr;
  for (const Diagnostic& d : report.result.diagnostics) {
    if (d.kind == "race" && race == nullptr) race = &d;
  }
  REQUIRE(race != nullptr);
  CHECK(race->line == 6);
  CHECK(test::contains(race->message, "at the end of each trip of the loop, outside any `if` around line 6"));
  CHECK_FALSE(test::contains(race->message, "(split the line)"));
}

TEST_CASE("a write then a read is read-after-write whichever warp the emulator runs first") {
  const char* source = R"(
__global__ void handoff(float* out, int writer) {
  __shared__ float slot[32];
  int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  if (warp == writer) slot[lane] = lane;
  if (warp != writer) out[lane] = slot[lane];
})";
  for (int writer : {0, 1}) {  // warp 0 runs first: it writes, or it reads
    CAPTURE(writer);
    const auto report = test::run_kernel("handoff.cu", source, "handoff", {1, 1, 1}, {64, 1, 1},
                                         {"f32[32]=zeros", "i32:" + std::to_string(writer)});
    const Diagnostic& d = only_diagnostic(report);  // the race; the early read is not also "uninitialized"
    CHECK(d.line == 5);
    CHECK(test::contains(d.message, "(read-after-write)"));
    CHECK(test::contains(d.message, "Put a __syncthreads() after the write at line 5 and before the read at line 6"));
  }
}

TEST_CASE("one store whose threads write different values to one word is reported") {
  const auto report = run_fixture("conflicting_write.cu", "last_writer_wins", {64, 1, 1}, {"i32[64]"});
  const Diagnostic& d = only_diagnostic(report);
  CHECK(d.kind == "race");
  CHECK(d.line == 5);
  CHECK(test::contains(d.message, "write different values to word 0 of `winner` in the same store at line 5"));
}

TEST_CASE("atomics and barriers between accesses are not races") {
  const char* source = R"(
__global__ void careful(const int* in, int* out) {
  __shared__ int bins[16];
  __shared__ int tile[128];
  if (threadIdx.x < 16) bins[threadIdx.x] = 0;
  tile[threadIdx.x] = in[threadIdx.x];
  __syncthreads();
  atomicAdd(&bins[tile[127 - threadIdx.x] % 16], 1);
  __syncthreads();
  out[threadIdx.x] = bins[threadIdx.x % 16];
})";
  const auto report = test::run_kernel("careful.cu", source, "careful", {1, 1, 1}, {128, 1, 1}, {"i32[128]=iota", "i32[128]=zeros"});
  CHECK(report.result.diagnostics.empty());
}

// Lanes of one warp: warp_tail_race.cu's kernels, and the same fixed with __syncwarp().
profile::ProfileReport run_warp_fixture(const std::string& name, const std::string& kernel, uint32_t threads) {
  return run_fixture(name, kernel, {threads, 1, 1}, {"f32[64]", "f32[64]=zeros"});
}

TEST_CASE("a lane reading what its neighbour in the warp wrote with no __syncwarp() is a race in the warp") {
  const Diagnostic d = only_diagnostic(run_warp_fixture("warp_tail_race.cu", "neighbourSum", 32));
  CHECK(d.severity == Severity::Error);
  CHECK(d.kind == "race");
  CHECK(d.line == 10);
  CHECK(d.message ==
        "shared-memory race (read-after-write): thread (1,0,0) of block (0,0,0) writes word 1 of `partial` at line 10 "
        "and thread (0,0,0) (the same warp) reads it at line 11 with no __syncwarp() between them: since Volta the "
        "lanes of a warp do not run in lockstep, so the read may run before the write. Put a __syncwarp() after the "
        "write at line 10 and before the read at line 11");
}

TEST_CASE("a race between warps on the same lines as one within a warp is reported once, with __syncthreads()") {
  // Warp 0 meets its own lanes' words first; the other warps' words come later in the epoch.
  const auto report = run_fixture("transpose_missing_barrier.cu", "transposeNoBarrier", {32, 8, 1},
                                  {"f32[1024]", "f32[1024]=zeros", "i32:32", "i32:32"});
  std::vector<const Diagnostic*> races;
  for (const Diagnostic& d : report.result.diagnostics) {
    if (d.kind == "race") races.push_back(&d);
  }
  REQUIRE(races.size() == 1);
  CHECK(races[0]->line == 14);
  CHECK(test::contains(races[0]->message, "(another warp)"));
  CHECK(test::contains(races[0]->message, "Put a __syncthreads() after the write at line 14 and before the read at line 18"));
  CHECK_FALSE(test::contains(races[0]->message, "__syncwarp"));
}

TEST_CASE("the warp-synchronous tail of a reduction is a race at every step, named by program order") {
  const auto report = run_warp_fixture("warp_tail_race.cu", "warpTail", 64);
  const auto& diagnostics = report.result.diagnostics;
  REQUIRE(diagnostics.size() == 4);  // one per pair of lines: 24-26, 26-27, 27-28, 28-29
  for (const Diagnostic& d : diagnostics) {
    CHECK(d.kind == "race");
    CHECK(test::contains(d.message, "(the same warp)"));
    CHECK(test::contains(d.message, "with no __syncwarp() between them"));
    CHECK_FALSE(test::contains(d.message, "__syncthreads()"));
  }
  CHECK(diagnostics[0].line == 24);
  CHECK(test::contains(diagnostics[0].message, "(read-after-write): thread (16,0,0) of block (0,0,0) writes word 16 "
                                               "of `partial` at line 24 and thread (0,0,0) (the same warp) reads it "
                                               "at line 26"));
  CHECK(diagnostics[1].line == 26);
  CHECK(test::contains(diagnostics[1].message, "(write-after-read): thread (0,0,0) of block (0,0,0) reads word 16 of "
                                               "`partial` at line 26 and thread (16,0,0) (the same warp) writes it "
                                               "at line 27"));
  CHECK(test::contains(diagnostics[1].message, "the write may run before the read. Put a __syncwarp() after the read "
                                               "at line 26 and before the write at line 27"));
}

TEST_CASE("a loop whose next trip reads what other lanes wrote, with no __syncwarp() at the end, is a race") {
  const Diagnostic d = only_diagnostic(run_warp_fixture("warp_tail_race.cu", "warpTailLoop", 64));
  CHECK(d.line == 49);
  CHECK(test::contains(d.message, "(read-after-write)"));
  CHECK(test::contains(d.message, "(the same warp) reads it at line 47"));
  CHECK(test::contains(d.message, "Put a __syncwarp() after the write at line 49, before the loop comes back to the "
                                  "read at line 47"));
}

TEST_CASE("a __syncwarp() whose mask leaves out the reading lane does not order it after the write") {
  const Diagnostic d = only_diagnostic(run_warp_fixture("warp_tail_race.cu", "halfMask", 32));
  CHECK(d.line == 62);
  CHECK(test::contains(d.message, "thread (0,0,0) of block (0,0,0) writes word 0 of `partial` at line 62 and thread "
                                  "(16,0,0) (the same warp) reads it at line 65"));
}

TEST_CASE("lanes on the two sides of a branch race, named in source order, and suggest moving an access") {
  const Diagnostic d = only_diagnostic(run_warp_fixture("warp_tail_race.cu", "twoSides", 32));
  CHECK(d.line == 74);
  CHECK(test::contains(d.message, "(read-after-write): thread (0,0,0) of block (0,0,0) writes word 0 of `slot` at "
                                  "line 74 and thread (16,0,0) (the same warp) reads it at line 76"));
  CHECK(test::contains(d.message, "they are on the two sides of a branch"));
  CHECK(test::contains(d.message, "move the read at line 76 after the point where the two sides meet, behind a "
                                  "__syncwarp()"));
}

TEST_CASE("a read on the side of a branch the warp runs first is the race alone, not also uninitialized") {
  const char* source = R"(
__global__ void sides(const float* in, float* out) {
  __shared__ float slot[32];
  int t = threadIdx.x;
  if (t >= 16) {
    out[t] = slot[t - 16];
  } else {
    slot[t] = in[t];
  }
})";
  const auto report =
      test::run_kernel("sides.cu", source, "sides", {1, 1, 1}, {32, 1, 1}, {"f32[32]", "f32[32]=zeros"});
  const Diagnostic& d = only_diagnostic(report);
  CHECK(d.kind == "race");
  CHECK(d.line == 6);
  CHECK(test::contains(d.message, "(write-after-read)"));
  CHECK(test::contains(d.message, "(the same warp) writes it at line 8"));
}

TEST_CASE("the same kernels with their __syncwarp() calls, own words, broadcasts and atomics are clean") {
  for (const char* kernel : {"neighbourSum", "warpTail", "warpTailLoop", "halfMask"}) {
    CAPTURE(kernel);
    const uint32_t threads = std::string(kernel).starts_with("warpTail") ? 64 : 32;
    const auto report = run_warp_fixture("warp_tail_syncwarp.cu", kernel, threads);
    CHECK(report.result.completed);
    CHECK(report.result.diagnostics.empty());
  }
  const auto report = run_fixture("warp_tail_syncwarp.cu", "ownWordsAndBroadcast", {32, 1, 1},
                                  {"f32[32]", "f32[32]=zeros", "i32[1]=zeros"});
  CHECK(report.result.diagnostics.empty());
  const std::vector<int32_t> count = test::buffer_of<int32_t>(report, 2);
  REQUIRE(count.size() == 1);
  CHECK(count[0] == 64);  // every lane's two atomics ran
}

TEST_CASE("a block of one warp sharing words through __syncthreads() is clean") {
  const char* source = R"(
__global__ void reverse(const float* in, float* out) {
  __shared__ float tile[32];
  tile[threadIdx.x] = in[threadIdx.x];
  __syncthreads();
  out[threadIdx.x] = tile[31 - threadIdx.x];
})";
  const auto report =
      test::run_kernel("reverse.cu", source, "reverse", {1, 1, 1}, {32, 1, 1}, {"f32[32]", "f32[32]=zeros"});
  CHECK(report.result.diagnostics.empty());
}

TEST_CASE("the same kernel gives byte-identical figures and diagnostics on every run") {
  const char* source = R"(
__global__ void mixed(const float* in, float* out, int* counter) {
  __shared__ float tile[64];
  tile[threadIdx.x] = in[threadIdx.x * 3 % 64];
  __syncthreads();
  if (threadIdx.x % 3 == 0) atomicAdd(counter, 1);
  out[threadIdx.x] = tile[(threadIdx.x * 5) % 64] + __shfl_xor_sync(0xffffffff, tile[threadIdx.x], 1);
})";
  auto run = [&] {
    return test::run_kernel("mixed.cu", source, "mixed", {1, 1, 1}, {64, 1, 1}, {"f32[64]", "f32[64]=zeros", "i32[1]=zeros"});
  };
  const auto first = run(), second = run();
  CHECK(first.result.totals == second.result.totals);
  REQUIRE(first.buffers.size() == second.buffers.size());
  for (size_t i = 0; i < first.buffers.size(); ++i) CHECK(first.buffers[i].bytes == second.buffers[i].bytes);
}

TEST_CASE("a kernel whose local arrays exceed a thread's 512 KiB is refused at launch, as a GPU refuses it") {
  // 1 MiB of local memory per thread: 1024 threads would have made the emulator allocate 1 GiB.
  constexpr const char* k_ptx = R"(.version 8.0
.target sm_90
.address_size 64
.visible .entry bigLocal(.param .u64 out_param)
{
  .local .align 4 .b8 __local_depot0[1048576];
  .reg .b32 %r<2>;
  .reg .b64 %rd<3>;
  mov.u64 %rd1, __local_depot0;
  mov.u32 %r1, 7;
  st.local.u32 [%rd1], %r1;
  ret;
}
)";
  auto module = ptx::parse_module(k_ptx);
  REQUIRE_MESSAGE(module.has_value(), (module ? "" : module.error()));
  emu::DeviceMemory memory;
  emu::Emulator emulator(*module, memory);
  const uint64_t out = memory.allocate("out", std::vector<uint8_t>(4, 0));
  LaunchConfig config;
  config.block = {1024, 1, 1};
  const auto result = emulator.launch("bigLocal", config, {test::scalar_bytes(out)});
  REQUIRE_FALSE(result.has_value());
  CHECK(result.error() ==
        "the kernel needs 1048576 bytes of local memory per thread (its local arrays); a thread may have at most "
        "524288: keep large arrays in global memory");
}

// A kernel that checks the clocks it reads could tell the emulator from a GPU by one read (a
// %globaltimer of 0, a cycle count that starts at 0): the emulator's clocks are modelled instead,
// plausible and still the same on every run.
TEST_CASE("the clocks a kernel reads are plausible: a realistic epoch, counting up, ticking like a GPU's") {
  const std::string source =
      "__global__ void clocks(unsigned long long* out) {\n"
      "  unsigned long long t0, t1, lo, hi;\n"
      "  asm volatile(\"mov.u64 %0, %%globaltimer;\" : \"=l\"(t0));\n"
      "  long long c0 = clock64();\n"
      "  float s = 0;\n"
      "  for (int k = 0; k < 1000; ++k) s += k * 0.5f;\n"
      "  long long c1 = clock64();\n"
      "  asm volatile(\"mov.u64 %0, %%globaltimer;\" : \"=l\"(t1));\n"
      "  unsigned l, h;\n"
      "  asm volatile(\"mov.u32 %0, %%globaltimer_lo;\" : \"=r\"(l));\n"
      "  asm volatile(\"mov.u32 %0, %%globaltimer_hi;\" : \"=r\"(h));\n"
      "  lo = l; hi = h;\n"
      "  out[0] = t0; out[1] = t1; out[2] = c0; out[3] = c1; out[4] = lo; out[5] = hi; out[6] = (unsigned long long)s;\n"
      "}\n";
  const auto report = test::run_kernel("clocks.cu", source, "clocks", {1, 1, 1}, {32, 1, 1}, {"u64[7]=zeros"});
  const std::vector<uint64_t> out = test::buffer_of<uint64_t>(report, 0);
  REQUIRE(out.size() == 7);
  CHECK(out[0] > 1'700'000'000'000'000'000ull);  // nanoseconds since 1970: after 2023
  CHECK(out[0] < 2'000'000'000'000'000'000ull);
  CHECK(out[1] > out[0]);
  CHECK(out[0] % 32 == 0);
  CHECK(out[2] > 1'000'000'000ull);  // a cycle counter that has run since the GPU started
  CHECK(out[3] - out[2] > 1000);     // a thousand trips of a loop take cycles
  CHECK(((out[5] << 32) | out[4]) >= out[1]);
  const auto again = test::run_kernel("clocks.cu", source, "clocks", {1, 1, 1}, {32, 1, 1}, {"u64[7]=zeros"});
  CHECK(test::buffer_of<uint64_t>(again, 0) == out);  // deterministic
}

TEST_CASE("a grid-wide sync without a cooperative launch traps, and the finding says why") {
  const char* source = R"(
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__global__ void whole_grid(int* out) {
  out[blockIdx.x] = 1;
  cg::this_grid().sync();
})";
  const auto report = test::run_kernel("grid.cu", source, "whole_grid", {2, 1, 1}, {32, 1, 1}, {"i32[2]=zeros"});
  REQUIRE(report.result.diagnostics.size() == 1);
  const Diagnostic& d = report.result.diagnostics[0];
  CHECK(d.kind == "trap");
  CHECK(test::contains(d.message, "this_grid().sync()), which needs a cooperative launch"));
}

}  // namespace
}  // namespace tilecamp
