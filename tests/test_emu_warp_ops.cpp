// Warp-level operations, atomics, block reductions, calls, printf and assert on the emulator,
// each against what the CUDA Programming Guide and the PTX ISA say the hardware computes.
#include <doctest/doctest.h>

#include <numeric>

#include "tests/test_support.h"

namespace tilecamp {
namespace {

TEST_CASE("shuffles move values between lanes as the PTX ISA's source-lane rule says") {
  const char* source = R"(
__global__ void shuffles(int* down, int* xor4, int* up16, int* idx5) {
  int v = threadIdx.x * 3 + 1;
  down[threadIdx.x] = __shfl_down_sync(0xffffffff, v, 1);
  xor4[threadIdx.x] = __shfl_xor_sync(0xffffffff, v, 4);
  up16[threadIdx.x] = __shfl_up_sync(0xffffffff, v, 2, 16);
  idx5[threadIdx.x] = __shfl_sync(0xffffffff, v, 5);
})";
  auto report = test::run_kernel("shuffles.cu", source, "shuffles", {1, 1, 1}, {32, 1, 1},
                                 {"i32[32]=zeros", "i32[32]=zeros", "i32[32]=zeros", "i32[32]=zeros"});
  REQUIRE(report.result.diagnostics.empty());
  auto value = [](int lane) { return lane * 3 + 1; };
  const auto down = test::buffer_of<int32_t>(report, 0), xor4 = test::buffer_of<int32_t>(report, 1);
  const auto up16 = test::buffer_of<int32_t>(report, 2), idx5 = test::buffer_of<int32_t>(report, 3);
  for (int lane = 0; lane < 32; ++lane) {
    CAPTURE(lane);
    CHECK(down[lane] == value(lane < 31 ? lane + 1 : lane));      // the last lane keeps its own value
    CHECK(xor4[lane] == value(lane ^ 4));
    CHECK(up16[lane] == value(lane % 16 >= 2 ? lane - 2 : lane));  // width 16: segments of 16 lanes
    CHECK(idx5[lane] == value(5));
  }
}

TEST_CASE("a warp-sum by butterfly shuffles gives every lane the total") {
  const char* source = R"(
__global__ void warp_sum(const float* in, float* out) {
  float v = in[threadIdx.x];
  for (int offset = 16; offset > 0; offset /= 2) v += __shfl_xor_sync(0xffffffff, v, offset);
  out[threadIdx.x] = v;
})";
  auto report = test::run_kernel("sum.cu", source, "warp_sum", {1, 1, 1}, {32, 1, 1}, {"f32[32]=iota", "f32[32]=zeros"});
  for (float total : test::buffer_of<float>(report, 1)) CHECK(total == 496.0f);
}

TEST_CASE("votes and matches report the lanes' predicates and equal values") {
  const char* source = R"(
__global__ void votes(unsigned* ballot, int* all, int* not_all, int* any, int* none, unsigned* match, unsigned* active) {
  int lane = threadIdx.x;
  ballot[lane] = __ballot_sync(0xffffffff, lane & 1);
  all[lane] = __all_sync(0xffffffff, lane < 32);
  not_all[lane] = __all_sync(0xffffffff, lane < 31);
  any[lane] = __any_sync(0xffffffff, lane == 7);
  none[lane] = __any_sync(0xffffffff, lane > 40);
  match[lane] = __match_any_sync(0xffffffff, lane / 8);
  if (lane < 10) active[lane] = __activemask();
})";
  auto report = test::run_kernel("votes.cu", source, "votes", {1, 1, 1}, {32, 1, 1},
                                 {"u32[32]=zeros", "i32[32]=zeros", "i32[32]=zeros", "i32[32]=zeros", "i32[32]=zeros",
                                  "u32[32]=zeros", "u32[32]=zeros"});
  REQUIRE(report.result.diagnostics.empty());
  const auto ballot = test::buffer_of<uint32_t>(report, 0), match = test::buffer_of<uint32_t>(report, 5);
  const auto all = test::buffer_of<int32_t>(report, 1), not_all = test::buffer_of<int32_t>(report, 2);
  const auto any = test::buffer_of<int32_t>(report, 3), none = test::buffer_of<int32_t>(report, 4);
  const auto active = test::buffer_of<uint32_t>(report, 6);
  for (int lane = 0; lane < 32; ++lane) {
    CAPTURE(lane);
    CHECK(ballot[lane] == 0xaaaaaaaau);
    CHECK(all[lane] == 1);
    CHECK(not_all[lane] == 0);
    CHECK(any[lane] == 1);
    CHECK(none[lane] == 0);
    CHECK(match[lane] == 0xffu << (lane / 8 * 8));
    if (lane < 10) CHECK(active[lane] == 0x3ffu);
  }
}

TEST_CASE("a shuffle whose mask names lanes on another path is reported, not guessed") {
  const char* source = R"(
__global__ void half_shuffle(int* out) {
  int v = threadIdx.x;
  if (threadIdx.x < 16) {
    v = __shfl_down_sync(0xffffffff, v, 1);
  }
  out[threadIdx.x] = v;
})";
  auto report = test::run_kernel("half.cu", source, "half_shuffle", {1, 1, 1}, {32, 1, 1}, {"i32[32]=zeros"});
  REQUIRE(report.result.diagnostics.size() == 1);
  const Diagnostic& d = report.result.diagnostics[0];
  CHECK(d.kind == "warp-sync");
  CHECK(d.line == 5);
  CHECK(test::contains(d.message, "names threads 16-31 in its member mask 0xffffffff, but they took another path"));
}

TEST_CASE("groups with disjoint member masks execute one shuffle, vote and match together, each on its own") {
  const char* source = R"(
__global__ void groups(const int* in, int* sums, unsigned* ballots, unsigned* matches) {
  int lane = threadIdx.x;
  unsigned mask = lane < 16 ? 0x0000ffffu : 0xffff0000u;  // two halves, as thread_block_tile<16> makes
  int v = in[lane];
  for (int offset = 8; offset > 0; offset /= 2) v += __shfl_xor_sync(mask, v, offset);
  sums[lane] = v;
  ballots[lane] = __ballot_sync(mask, lane % 3 == 0);
  matches[lane] = __match_any_sync(mask, lane % 2);
})";
  auto report = test::run_kernel("groups.cu", source, "groups", {1, 1, 1}, {32, 1, 1},
                                 {"i32[32]=iota", "i32[32]=zeros", "u32[32]=zeros", "u32[32]=zeros"});
  REQUIRE(report.result.diagnostics.empty());
  const auto sums = test::buffer_of<int32_t>(report, 1);
  const auto ballots = test::buffer_of<uint32_t>(report, 2), matches = test::buffer_of<uint32_t>(report, 3);
  for (int lane = 0; lane < 32; ++lane) {
    CAPTURE(lane);
    const uint32_t half = lane < 16 ? 0x0000ffffu : 0xffff0000u;
    CHECK(sums[lane] == (lane < 16 ? 120 : 376));  // 0+..+15, 16+..+31: never the other half's
    CHECK(ballots[lane] == (0x49249249u & half));   // lanes 0, 3, 6, ... of its own half
    CHECK(matches[lane] == ((lane % 2 ? 0xaaaaaaaau : 0x55555555u) & half));
  }
}

TEST_CASE("a full mask in a partial last warp is legal until a lane reads a lane that does not exist") {
  const char* source = R"(
__global__ void partial(const int* in, int* out, int offset) {
  int v = in[threadIdx.x];
  v += __shfl_xor_sync(0xffffffff, v, offset);
  out[threadIdx.x] = v;
})";
  // 48 threads: warp 1 has lanes 0-15 only. XOR 8 stays among them; XOR 16 reads lanes 16-31.
  auto fine = test::run_kernel("partial.cu", source, "partial", {1, 1, 1}, {48, 1, 1},
                               {"i32[48]=iota", "i32[48]=zeros", "i32:8"});
  REQUIRE(fine.result.diagnostics.empty());
  CHECK(test::buffer_of<int32_t>(fine, 1)[40] == 40 + 32);
  auto broken = test::run_kernel("partial.cu", source, "partial", {1, 1, 1}, {48, 1, 1},
                                 {"i32[48]=iota", "i32[48]=zeros", "i32:16"});
  REQUIRE(broken.result.diagnostics.size() == 1);
  CHECK(broken.result.diagnostics[0].kind == "warp-sync");
  CHECK(test::contains(broken.result.diagnostics[0].message,
                       "thread 0 of warp 1 in block (0,0,0) shuffles from lane 16, which has exited or does not exist"));
}

TEST_CASE("lanes whose masks name each other but differ are reported") {
  const char* source = R"(
__global__ void overlapping(int* out) {
  int lane = threadIdx.x;
  unsigned mask = lane < 16 ? 0xffffffffu : 0xffff0000u;  // lanes 0-15 name 16-31, which do not name them
  out[lane] = __shfl_xor_sync(mask, lane, 1);
})";
  auto report = test::run_kernel("overlap.cu", source, "overlapping", {1, 1, 1}, {32, 1, 1}, {"i32[32]=zeros"});
  REQUIRE(report.result.diagnostics.size() == 1);
  CHECK(report.result.diagnostics[0].kind == "warp-sync");
  CHECK(test::contains(report.result.diagnostics[0].message,
                       "thread 0 of warp 0 in block (0,0,0) executed `shfl.sync.bfly.b32"));
  CHECK(test::contains(report.result.diagnostics[0].message,
                       "with member mask 0xffffffff, which names thread 16, but thread 16 executed it with another "
                       "mask, 0xffff0000"));
}

TEST_CASE("atomics from every thread add up exactly, on global and shared memory") {
  const char* source = R"(
__global__ void atomics(int* counters, float* sum, unsigned long long* wide, int* histogram) {
  __shared__ int bins[8];
  if (threadIdx.x < 8) bins[threadIdx.x] = 0;
  __syncthreads();
  atomicAdd(&counters[0], 1);
  atomicMax(&counters[1], (int)(threadIdx.x * 7 % 50));
  atomicMin(&counters[2], -(int)threadIdx.x);
  atomicCAS(&counters[3], 0, 42);
  atomicInc((unsigned*)&counters[4], 9);
  atomicOr(&counters[5], 1 << (threadIdx.x % 31));
  atomicAdd(sum, 0.5f);
  atomicAdd(wide, 1ull << 33);
  atomicAdd(&bins[threadIdx.x % 8], 1);
  __syncthreads();
  if (threadIdx.x < 8) histogram[blockIdx.x * 8 + threadIdx.x] = bins[threadIdx.x];
})";
  auto report = test::run_kernel("atomics.cu", source, "atomics", {3, 1, 1}, {128, 1, 1},
                                 {"i32[6]=zeros", "f32[1]=zeros", "u64[1]=zeros", "i32[24]=zeros"});
  REQUIRE(report.result.diagnostics.empty());
  const auto counters = test::buffer_of<int32_t>(report, 0);
  CHECK(counters[0] == 384);
  CHECK(counters[1] == 49);
  CHECK(counters[2] == -127);
  CHECK(counters[3] == 42);
  CHECK(counters[4] == 384 % 10);  // atomicInc wraps to 0 after reaching 9
  CHECK(static_cast<uint32_t>(counters[5]) == 0x7fffffffu);
  CHECK(test::buffer_of<float>(report, 1)[0] == 192.0f);
  CHECK(test::buffer_of<uint64_t>(report, 2)[0] == 384ull << 33);
  for (int bin : test::buffer_of<int32_t>(report, 3)) CHECK(bin == 16);
  CHECK(report.result.totals.shared_atom_requests == 3 * 4);  // 4 warps per block, one request each
  CHECK(report.result.totals.global_atom_requests == 3 * 4 * 8);
}

TEST_CASE("__syncthreads_count, _and and _or reduce a predicate over the whole block") {
  const char* source = R"(
__global__ void reduce(int* out) {
  int count = __syncthreads_count(threadIdx.x % 3 == 0);
  int all = __syncthreads_and(threadIdx.x < 1000);
  int any = __syncthreads_or(threadIdx.x == 77);
  if (threadIdx.x == 0) { out[0] = count; out[1] = all; out[2] = any; }
})";
  auto report = test::run_kernel("reduce.cu", source, "reduce", {1, 1, 1}, {96, 1, 1}, {"i32[3]=zeros"});
  const auto out = test::buffer_of<int32_t>(report, 0);
  CHECK(out[0] == 32);
  CHECK(out[1] == 1);
  CHECK(out[2] == 1);
  CHECK(report.result.totals.barriers == 3 * 3);
}

TEST_CASE("a named barrier with a thread count synchronises only the warps it counts") {
  const char* source = R"(
__global__ void producers(int* out) {
  __shared__ int stage[64];
  if (threadIdx.x < 64) {
    stage[threadIdx.x] = threadIdx.x * 2;
    asm volatile("bar.sync 1, 64;");
    out[threadIdx.x] = stage[63 - threadIdx.x];
  }
})";
  auto report = test::run_kernel("named.cu", source, "producers", {1, 1, 1}, {128, 1, 1}, {"i32[64]=zeros"});
  REQUIRE(report.result.diagnostics.empty());
  const auto out = test::buffer_of<int32_t>(report, 0);
  for (int i = 0; i < 64; ++i) CHECK(out[i] == (63 - i) * 2);
}

TEST_CASE("device functions that are not inlined run, and their lines are profiled") {
  const char* source = R"(
__device__ __noinline__ float scale(float x, int k) {
  return x * k;
}
__global__ void caller(float* data) {
  data[threadIdx.x] = scale(data[threadIdx.x], 3) + scale(1.0f, 2);
})";
  auto report = test::run_kernel("calls.cu", source, "caller", {1, 1, 1}, {32, 1, 1}, {"f32[32]=iota"});
  REQUIRE(report.result.diagnostics.empty());
  const auto data = test::buffer_of<float>(report, 0);
  for (int i = 0; i < 32; ++i) CHECK(data[i] == i * 3.0f + 2.0f);
  bool callee_line = false;
  for (const LineProfile& line : report.result.lines) callee_line |= line.line == 3 && line.counters.warp_instructions > 0;
  CHECK(callee_line);
}

TEST_CASE("printf output comes block by block, warp by warp, with every format converted") {
  const char* source = R"(
#include <cstdio>
__global__ void hello(const float* x) {
  if (threadIdx.x % 32 == 0) printf("block %d warp %u x=%.2f %s %lld%%\n", blockIdx.x, threadIdx.x / 32, x[threadIdx.x], "ok", -5ll);
})";
  auto report = test::run_kernel("hello.cu", source, "hello", {2, 1, 1}, {64, 1, 1}, {"f32[64]=iota"});
  CHECK(report.result.output ==
        "block 0 warp 0 x=0.00 ok -5%\nblock 0 warp 1 x=32.00 ok -5%\n"
        "block 1 warp 0 x=0.00 ok -5%\nblock 1 warp 1 x=32.00 ok -5%\n");
}

TEST_CASE("a failed assert stops the kernel naming the expression, the thread and the line") {
  const char* source = R"(
#include <cassert>
__global__ void checked(const int* x) {
  int v = x[threadIdx.x];
  assert(v < 20);
})";
  auto report = test::run_kernel("checked.cu", source, "checked", {1, 1, 1}, {32, 1, 1}, {"i32[32]=iota"});
  REQUIRE(report.result.diagnostics.size() == 1);
  const Diagnostic& d = report.result.diagnostics[0];
  CHECK(d.kind == "assert");
  CHECK(d.line == 5);
  CHECK(test::contains(d.message, "assertion `v < 20` failed in thread (20,0,0) of block (0,0,0) (and 11 more threads"));
  CHECK_FALSE(report.result.completed);
}

TEST_CASE("dynamic shared memory takes its size from the launch") {
  const char* source = R"(
__global__ void reverse(float* data, int n) {
  extern __shared__ float buffer[];
  buffer[threadIdx.x] = data[threadIdx.x];
  __syncthreads();
  data[threadIdx.x] = buffer[n - 1 - threadIdx.x];
})";
  auto report = test::run_kernel("dynamic.cu", source, "reverse", {1, 1, 1}, {64, 1, 1}, {"f32[64]=iota", "i32:64"}, 256);
  REQUIRE(report.result.diagnostics.empty());
  const auto data = test::buffer_of<float>(report, 0);
  for (int i = 0; i < 64; ++i) CHECK(data[i] == 63.0f - i);
  auto too_small = test::run_kernel("dynamic.cu", source, "reverse", {1, 1, 1}, {64, 1, 1}, {"f32[64]=iota", "i32:64"}, 128);
  REQUIRE(too_small.result.diagnostics.size() == 1);
  CHECK(too_small.result.diagnostics[0].kind == "out-of-bounds");
  CHECK(test::contains(too_small.result.diagnostics[0].message, "shared memory (the block has 128 bytes; past the end of `buffer` (128 bytes))"));
}

TEST_CASE("a stack array lives in per-thread local memory, and its traffic is counted") {
  const char* source = R"(
__global__ void local_sort(const int* in, int* out, int k) {
  int values[16];
  for (int i = 0; i < 16; ++i) values[i] = in[threadIdx.x * 16 + i];
  out[threadIdx.x] = values[k % 16] + values[(k * 7) % 16];
})";
  auto report = test::run_kernel("local.cu", source, "local_sort", {1, 1, 1}, {32, 1, 1},
                                 {"i32[512]=iota", "i32[32]=zeros", "i32:5"});
  REQUIRE(report.result.diagnostics.empty());
  const auto out = test::buffer_of<int32_t>(report, 1);
  for (int t = 0; t < 32; ++t) CHECK(out[t] == (t * 16 + 5) + (t * 16 + 3));
  CHECK(report.result.totals.local_ld_requests > 0);
}

TEST_CASE("cp.async copies land in shared memory at the wait, not before") {
  const char* source = R"(
#include <cuda_pipeline.h>
__global__ void staged(const float4* in, float4* before, float4* after) {
  __shared__ float4 tile[64];
  tile[threadIdx.x] = make_float4(-1, -1, -1, -1);
  __syncthreads();
  __pipeline_memcpy_async(&tile[threadIdx.x], &in[threadIdx.x], sizeof(float4));
  __pipeline_commit();
  before[threadIdx.x] = tile[threadIdx.x];  // too early: the copy has not landed
  __pipeline_wait_prior(0);
  __syncthreads();
  after[threadIdx.x] = tile[63 - threadIdx.x];
})";
  auto report = test::run_kernel("staged.cu", source, "staged", {1, 1, 1}, {64, 1, 1},
                                 {"f32[256]=iota", "f32[256]=zeros", "f32[256]=zeros"});
  REQUIRE(report.result.diagnostics.empty());
  const auto before = test::buffer_of<float>(report, 1), after = test::buffer_of<float>(report, 2);
  for (int i = 0; i < 256; ++i) {
    CHECK(before[i] == -1.0f);
    CHECK(after[i] == static_cast<float>((63 - i / 4) * 4 + i % 4));
  }
}

TEST_CASE("reading another warp's cp.async destination before it waits for the copy is a race") {
  const char* source = R"(
#include <cuda_pipeline.h>
__global__ void early_read(const float* in, float* out) {
  __shared__ float tile[64];
  __pipeline_memcpy_async(&tile[threadIdx.x], &in[threadIdx.x], sizeof(float));
  __pipeline_commit();
  __syncthreads();                  // orders the issue, not the arrival of the data
  out[threadIdx.x] = tile[63 - threadIdx.x];
  __pipeline_wait_prior(0);
})";
  auto report = test::run_kernel("early_read.cu", source, "early_read", {1, 1, 1}, {64, 1, 1}, {"f32[64]=iota", "f32[64]=zeros"});
  REQUIRE_FALSE(report.result.diagnostics.empty());
  CHECK(report.result.diagnostics[0].kind == "race");
  CHECK(test::contains(report.result.diagnostics[0].message, "of `tile`"));
}

TEST_CASE("cuda::barrier's copies land when its phase completes, reading them before the wait is a race") {
  const char* source = R"(
#include <cuda/barrier>
__global__ void staged(const float* in, float* out, int early) {
  __shared__ float tile[64];
  __shared__ cuda::barrier<cuda::thread_scope_block> bar;
  if (threadIdx.x == 0) init(&bar, blockDim.x);
  __syncthreads();
  cuda::memcpy_async(&tile[threadIdx.x], &in[threadIdx.x], sizeof(float), bar);
  float seen = early ? tile[63 - threadIdx.x] : 0.0f;  // before the wait: the copy may not be there
  bar.arrive_and_wait();
  out[threadIdx.x] = tile[63 - threadIdx.x] + seen;
})";
  auto fine = test::run_kernel("staged.cu", source, "staged", {1, 1, 1}, {64, 1, 1},
                               {"f32[64]=iota", "f32[64]=zeros", "i32:0"});
  REQUIRE(fine.result.diagnostics.empty());
  const auto out = test::buffer_of<float>(fine, 1);
  for (int t = 0; t < 64; ++t) CHECK(out[t] == static_cast<float>(63 - t));
  auto early = test::run_kernel("staged.cu", source, "staged", {1, 1, 1}, {64, 1, 1},
                                {"f32[64]=iota", "f32[64]=zeros", "i32:1"});
  REQUIRE_FALSE(early.result.diagnostics.empty());
  CHECK(early.result.diagnostics[0].kind == "race");
  CHECK(early.result.diagnostics[0].line == 9);
  CHECK(test::contains(early.result.diagnostics[0].message, "shared-memory race with an asynchronous copy"));
}

TEST_CASE("an mbarrier used before any thread initialized it is an error naming the thread") {
  const char* source = R"(
__global__ void uninitialized(unsigned long long* out) {
  __shared__ unsigned long long bar;
  unsigned long long state;
  asm volatile("mbarrier.arrive.shared.b64 %0, [%1];" : "=l"(state) : "r"((unsigned)__cvta_generic_to_shared(&bar)));
  out[threadIdx.x] = state;
})";
  auto report = test::run_kernel("uninit.cu", source, "uninitialized", {1, 1, 1}, {32, 1, 1}, {"u64[32]=zeros"});
  REQUIRE(report.result.diagnostics.size() == 1);
  CHECK(report.result.diagnostics[0].kind == "mbarrier");
  CHECK(report.result.diagnostics[0].line == 5);
  CHECK(test::contains(report.result.diagnostics[0].message,
                       "thread (0,0,0) of block (0,0,0) uses the mbarrier at byte 0 of shared memory before any thread "
                       "initialized it"));
}

TEST_CASE("atomicAdd on __half2 rounds each half to nearest even after every add, as the GPU does") {
  const char* source = R"(
#include <cuda_fp16.h>
__global__ void halves(__half2* sum) {
  if (threadIdx.x == 0) *sum = __halves2half2(__float2half(2048.0f), __float2half(0.0f));
  __syncthreads();
  atomicAdd(sum, __halves2half2(__float2half(1.0f), __float2half(0.5f)));
})";
  // 2048 + 1 is a tie between 2048 and 2050 in half precision: every add rounds back to 2048,
  // while 32 halves of 0.5 add up exactly to 16.
  auto report = test::run_kernel("halves.cu", source, "halves", {1, 1, 1}, {32, 1, 1}, {"u32[1]=zeros"});
  REQUIRE(report.result.diagnostics.empty());
  CHECK(test::buffer_of<uint32_t>(report, 0)[0] == (0x4c00u << 16 | 0x6800u));  // (2048, 16): low half first
}

TEST_CASE("bar.arrive counts towards a named barrier without waiting, a count never reached is a deadlock") {
  const char* source = R"(
__global__ void handoff(const float* in, float* out, int consumers_wait_for) {
  __shared__ float slot[32];
  int lane = threadIdx.x % 32;
  if (threadIdx.x < 32) {
    slot[lane] = 2.0f * in[lane];
    asm volatile("bar.arrive 1, 64;" ::: "memory");
    out[32 + lane] = 1.0f;  // the producer goes on at once
  } else {
    if (consumers_wait_for == 64) asm volatile("bar.sync 1, 64;" ::: "memory");
    else asm volatile("bar.sync 1, 96;" ::: "memory");
    out[lane] = slot[31 - lane];
  }
})";
  auto fine = test::run_kernel("handoff.cu", source, "handoff", {1, 1, 1}, {64, 1, 1},
                               {"f32[32]=iota", "f32[64]=zeros", "i32:64"});
  REQUIRE(fine.result.diagnostics.empty());
  const auto out = test::buffer_of<float>(fine, 1);
  for (int lane = 0; lane < 32; ++lane) {
    CHECK(out[lane] == 2.0f * static_cast<float>(31 - lane));
    CHECK(out[32 + lane] == 1.0f);
  }
  auto stuck = test::run_kernel("handoff.cu", source, "handoff", {1, 1, 1}, {64, 1, 1},
                                {"f32[32]=iota", "f32[64]=zeros", "i32:96"});
  REQUIRE(stuck.result.diagnostics.size() == 1);
  CHECK(stuck.result.diagnostics[0].kind == "deadlock");
  CHECK(test::contains(stuck.result.diagnostics[0].message, "32 thread(s) wait at barrier 1 (line 11) for 96"));
}

}  // namespace
}  // namespace tilecamp
