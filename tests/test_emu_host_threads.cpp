// A launch split over host threads gives exactly the result of running its blocks in order:
// outputs, counters, diagnostics (said once, by the earliest block), printf, and the memory a
// failed launch leaves; blocks that share global words run in order instead.
#include <doctest/doctest.h>

#include <cstring>
#include <string>
#include <vector>

#include "checker/emu/emulator.h"
#include "tests/test_emu_launcher.h"
#include "tests/test_support.h"

namespace tilecamp {
namespace {

// 40 blocks of 64 threads; each thread loops enough that the launch is worth splitting.
constexpr uint32_t k_blocks = 40, k_threads = 64;

const char* const k_source = R"(
extern "C" __global__ void tiles(const float* in, float* out, int rounds) {
  __shared__ float tile[64];
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  tile[threadIdx.x] = in[i];
  __syncthreads();
  float sum = 0.0f;
  for (int r = 0; r < rounds; ++r) sum += tile[(threadIdx.x + r) % 64] * 0.5f;
  out[i] = sum;
}

// Blocks from 25 on race on `tile` (no barrier between the store and the neighbour's load); blocks
// from 35 on also read a word nobody wrote.
extern "C" __global__ void racy(const float* in, float* out, int rounds) {
  __shared__ float tile[65];
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  float sum = 0.0f;
  for (int r = 0; r < rounds; ++r) sum += in[i] * 0.25f;
  tile[threadIdx.x] = sum;
  if (blockIdx.x >= 25) sum += tile[(threadIdx.x + 32) % 64];
  sum += tile[blockIdx.x >= 35 ? 64 : threadIdx.x];  // before 35: the thread's own word
  out[i] = sum;
}

// Each block takes a ticket: the tickets follow the order the blocks ran in.
extern "C" __global__ void tickets(unsigned* counter, unsigned* order, int rounds) {
  float spin = 0.0f;
  for (int r = 0; r < rounds; ++r) spin += r;
  if (threadIdx.x == 0) order[blockIdx.x] = atomicAdd(counter, 1u) + (spin < 0.0f ? 1u : 0u);
}

// No bounds check: the last block runs past the end of `out` (n is not a multiple of 64).
extern "C" __global__ void unguarded(const float* in, float* out, int rounds) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  float sum = 0.0f;
  for (int r = 0; r < rounds; ++r) sum += in[i % 64] * 0.5f;
  out[i] = sum;
}

// One block writes far past the end of `out`.
extern "C" __global__ void faulty(float* out, int rounds, int bad_block) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  float sum = 0.0f;
  for (int r = 0; r < rounds; ++r) sum += 0.5f;
  out[blockIdx.x == bad_block ? i + 100000 : i] = sum;
}

extern "C" __global__ void chatty(float* out, int rounds) {
  float sum = 0.0f;
  for (int r = 0; r < rounds; ++r) sum += 1.0f;
  out[blockIdx.x * blockDim.x + threadIdx.x] = sum;
  if (threadIdx.x % 32 == 0) printf("block %d warp %d\n", blockIdx.x, threadIdx.x / 32);
}
)";

// The launch of every test here, its blocks on `threads` host threads.
LaunchConfig on(uint32_t threads) {
  LaunchConfig config;
  config.grid = {k_blocks, 1, 1};
  config.block = {k_threads, 1, 1};
  config.host_threads = threads;
  return config;
}

test::Launcher& launcher() {
  static test::Launcher instance("host_threads.cu", k_source);
  return instance;
}

std::vector<uint8_t> floats(size_t count) {
  std::vector<uint8_t> bytes(count * 4);
  for (size_t i = 0; i < count; ++i) {
    const float value = static_cast<float>(i % 13) - 6.0f;
    std::memcpy(bytes.data() + i * 4, &value, 4);
  }
  return bytes;
}

void check_same(const test::Run& in_order, const test::Run& split) {
  CHECK(split.buffers == in_order.buffers);
  CHECK(split.result.totals == in_order.result.totals);
  CHECK(split.result.completed == in_order.result.completed);
  CHECK(split.result.output == in_order.result.output);
  REQUIRE(split.result.lines.size() == in_order.result.lines.size());
  for (size_t i = 0; i < split.result.lines.size(); ++i) {
    CHECK(split.result.lines[i].line == in_order.result.lines[i].line);
    CHECK(split.result.lines[i].counters == in_order.result.lines[i].counters);
  }
  REQUIRE(split.result.diagnostics.size() == in_order.result.diagnostics.size());
  for (size_t i = 0; i < split.result.diagnostics.size(); ++i) {
    CHECK(split.result.diagnostics[i].kind == in_order.result.diagnostics[i].kind);
    CHECK(split.result.diagnostics[i].line == in_order.result.diagnostics[i].line);
    CHECK(split.result.diagnostics[i].message == in_order.result.diagnostics[i].message);
  }
}

constexpr size_t k_elements = size_t{k_blocks} * k_threads;

TEST_CASE("independent blocks split over four host threads give the in-order result") {
  const test::Run in_order = launcher().run("tiles", on(1), {floats(k_elements), floats(k_elements)}, {300});
  const test::Run split = launcher().run("tiles", on(4), {floats(k_elements), floats(k_elements)}, {300});
  CHECK(in_order.result.host_threads == 1);
  CHECK(split.result.host_threads == 4);
  check_same(in_order, split);
  CHECK(split.result.diagnostics.empty());
  float first = 0;  // thread 0: the tile's 300 reads, each input element 0-63 of block 0 (i % 13 - 6) halved
  std::memcpy(&first, split.buffers[1].data(), 4);
  float expected = 0;
  for (int r = 0; r < 300; ++r) expected += (static_cast<float>(r % 64 % 13) - 6.0f) * 0.5f;
  CHECK(first == expected);
}

TEST_CASE("a race first found by a later thread's blocks is reported once, by the earliest block, as in order") {
  const test::Run in_order = launcher().run("racy", on(1), {floats(k_elements), floats(k_elements)}, {4000});
  const test::Run split = launcher().run("racy", on(4), {floats(k_elements), floats(k_elements)}, {4000});
  CHECK(split.result.host_threads == 4);
  check_same(in_order, split);
  REQUIRE(split.result.diagnostics.size() == 2);
  CHECK(split.result.diagnostics[0].kind == "race");
  CHECK(test::contains(split.result.diagnostics[0].message, "block (25,0,0)"));
  CHECK(split.result.diagnostics[1].kind == "uninitialized-shared");
  CHECK(test::contains(split.result.diagnostics[1].message, "block (35,0,0)"));
}

TEST_CASE("blocks that share a global word (an atomic ticket) run in order, whatever the host threads") {
  const test::Run split = launcher().run("tickets", on(4), {std::vector<uint8_t>(4, 0), std::vector<uint8_t>(k_blocks * 4, 0)}, {2000});
  CHECK(split.result.host_threads == 1);  // the threads' blocks touched one word: run again in order
  for (uint32_t b = 0; b < k_blocks; ++b) {
    uint32_t ticket = 0;
    std::memcpy(&ticket, split.buffers[1].data() + b * 4, 4);
    CHECK(ticket == b);
  }
  const test::Run in_order = launcher().run("tickets", on(1), {std::vector<uint8_t>(4, 0), std::vector<uint8_t>(k_blocks * 4, 0)}, {2000});
  check_same(in_order, split);
}

TEST_CASE("a launch that fails in its last block reports and leaves memory as in order") {
  const size_t n = k_elements - 10;
  const test::Run in_order = launcher().run("unguarded", on(1), {floats(64), std::vector<uint8_t>(n * 4, 0)}, {300});
  const test::Run split = launcher().run("unguarded", on(4), {floats(64), std::vector<uint8_t>(n * 4, 0)}, {300});
  check_same(in_order, split);
  REQUIRE(split.result.diagnostics.size() == 1);
  CHECK(split.result.diagnostics[0].kind == "out-of-bounds");
  CHECK(test::contains(split.result.diagnostics[0].message, "block (39,0,0)"));
  CHECK_FALSE(split.result.completed);
}

TEST_CASE("a launch that fails in a middle block leaves the later blocks' memory untouched, as in order") {
  for (int32_t bad_block : {5, 15, 27}) {
    CAPTURE(bad_block);
    const test::Run in_order = launcher().run("faulty", on(1), {std::vector<uint8_t>(k_elements * 4, 0)}, {300, bad_block});
    const test::Run split = launcher().run("faulty", on(4), {std::vector<uint8_t>(k_elements * 4, 0)}, {300, bad_block});
    check_same(in_order, split);
    REQUIRE(split.result.diagnostics.size() == 1);
    CHECK(test::contains(split.result.diagnostics[0].message, "block (" + std::to_string(bad_block) + ",0,0)"));
    float last = -1;  // block 39 never ran in order
    std::memcpy(&last, split.buffers[0].data() + (k_elements - 1) * 4, 4);
    CHECK(last == 0.0f);
  }
}

TEST_CASE("printf from blocks on several host threads comes out in block order") {
  const test::Run in_order = launcher().run("chatty", on(1), {std::vector<uint8_t>(k_elements * 4, 0)}, {6000});
  const test::Run split = launcher().run("chatty", on(4), {std::vector<uint8_t>(k_elements * 4, 0)}, {6000});
  CHECK(split.result.host_threads == 4);
  check_same(in_order, split);
  CHECK(test::contains(split.result.output, "block 0 warp 0\nblock 0 warp 1\nblock 1 warp 0\n"));
  CHECK(test::contains(split.result.output, "block 39 warp 1\n"));
}

}  // namespace
}  // namespace tilecamp
