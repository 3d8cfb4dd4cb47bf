// A cooperative launch: cooperative groups' grid-wide barrier as the toolkit's header writes it,
// the grid a GPU could not hold refused, a block that never reaches the barrier reported as a
// deadlock, and the trap without a cooperative launch, as on a GPU.
#include <doctest/doctest.h>

#include <cstring>
#include <numeric>
#include <string>
#include <vector>

#include "tests/test_emu_launcher.h"
#include "tests/test_support.h"

namespace tilecamp {
namespace {

const char* const k_source = R"(
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

// Three phases: each block sums its slice, the grid syncs, every block adds all partials into its
// own slot of `totals`, the grid syncs again, then block 0 checks that every slot agrees.
extern "C" __global__ void phases(const int* in, int* partial, int* totals, int* agree) {
  cg::grid_group grid = cg::this_grid();
  __shared__ int s[64];
  s[threadIdx.x] = in[grid.thread_rank()];
  __syncthreads();
  for (int stride = 32; stride > 0; stride /= 2) {
    if (threadIdx.x < stride) s[threadIdx.x] += s[threadIdx.x + stride];
    __syncthreads();
  }
  if (threadIdx.x == 0) partial[blockIdx.x] = s[0];
  grid.sync();
  if (threadIdx.x == 0) {
    int total = 0;
    for (int b = 0; b < gridDim.x; ++b) total += partial[b];
    totals[blockIdx.x] = total;
  }
  grid.sync();
  if (grid.thread_rank() == 0) {
    int same = 1;
    for (int b = 1; b < gridDim.x; ++b) same &= totals[b] == totals[0];
    *agree = same;
  }
}

// Block 1 leaves before the grid's barrier: the others wait for it for ever.
extern "C" __global__ void deserter(int* out) {
  if (blockIdx.x == 1) return;
  cg::this_grid().sync();
  out[blockIdx.x] = 1;
}
)";

test::Launcher& launcher() {
  static test::Launcher instance("cooperative.cu", k_source);
  return instance;
}

LaunchConfig cooperative(uint32_t blocks, uint32_t threads = 64) {
  LaunchConfig config;
  config.grid = {blocks, 1, 1};
  config.block = {threads, 1, 1};
  config.cooperative = true;
  return config;
}

std::vector<uint8_t> ints(const std::vector<int32_t>& values) {
  std::vector<uint8_t> bytes(values.size() * 4);
  std::memcpy(bytes.data(), values.data(), bytes.size());
  return bytes;
}

int32_t int_at(const std::vector<uint8_t>& bytes, size_t index) {
  int32_t value = 0;
  std::memcpy(&value, bytes.data() + index * 4, 4);
  return value;
}

TEST_CASE("a cooperative launch runs cooperative groups' grid barrier: every block sees every partial sum") {
  constexpr uint32_t k_blocks = 12;
  std::vector<int32_t> in(k_blocks * 64);
  std::iota(in.begin(), in.end(), 0);
  const test::Run run = launcher().run("phases", cooperative(k_blocks),
                                       {ints(in), ints(std::vector<int32_t>(k_blocks, 0)),
                                        ints(std::vector<int32_t>(k_blocks, -1)), ints({0})},
                                       {});
  CHECK(run.result.completed);
  CHECK(run.result.diagnostics.empty());
  const int32_t expected = static_cast<int32_t>(k_blocks * 64 * (k_blocks * 64 - 1) / 2);
  for (uint32_t b = 0; b < k_blocks; ++b) {
    CHECK(int_at(run.buffers[1], b) == 64 * 64 * static_cast<int32_t>(b) + 2016);  // block b's slice
    CHECK(int_at(run.buffers[2], b) == expected);
  }
  CHECK(int_at(run.buffers[3], 0) == 1);
}

TEST_CASE("without a cooperative launch the grid barrier traps, and the message says what it needs") {
  LaunchConfig plain = cooperative(4);
  plain.cooperative = false;
  const test::Run run = launcher().run("phases", plain,
                                       {ints(std::vector<int32_t>(256, 1)), ints(std::vector<int32_t>(4, 0)),
                                        ints(std::vector<int32_t>(4, 0)), ints({0})},
                                       {});
  REQUIRE(run.result.diagnostics.size() == 1);
  CHECK(run.result.diagnostics[0].kind == "trap");
  CHECK(test::contains(run.result.diagnostics[0].message, "needs a cooperative launch"));
  CHECK(test::contains(run.result.diagnostics[0].message, "--cooperative"));
}

TEST_CASE("a block that leaves before the grid barrier is a deadlock naming it, not a run to the budget") {
  const test::Run run = launcher().run("deserter", cooperative(6), {ints(std::vector<int32_t>(6, 0))}, {});
  CHECK_FALSE(run.result.completed);
  REQUIRE(run.result.diagnostics.size() == 1);
  const Diagnostic& d = run.result.diagnostics[0];
  CHECK(d.kind == "deadlock");
  CHECK(test::contains(d.message, "blocks (0,0,0), (2,0,0), (3,0,0), (4,0,0) and 1 more wait at"));
  CHECK(test::contains(d.message, "block (1,0,0) has already ended"));
  CHECK(run.result.totals.warp_instructions < 10'000);  // found in a round, not by spinning
}

TEST_CASE("a cooperative grid larger than an H200 holds at once is refused, as the driver refuses it") {
  // 1024 threads: two blocks per SM (64 warps), 264 on the GPU.
  std::vector<uint8_t> out(265 * 4, 0);
  auto too_many = launcher().try_run("deserter", cooperative(265, 1024), {out}, {});
  REQUIRE_FALSE(too_many.has_value());
  CHECK(test::contains(too_many.error(), "at most 264 blocks like these (2 on each of its 132 SMs"));
  CHECK(test::contains(too_many.error(), "cudaErrorCooperativeLaunchTooLarge"));
}

}  // namespace
}  // namespace tilecamp
