// Acquire and release order other threads' shared-memory accesses: a warp that acquires a flag
// another warp released sees everything that warp wrote before it, with no race reported; a
// relaxed or plain flag orders nothing, and the race on the data is still reported.
#include <doctest/doctest.h>

#include <cstring>
#include <string>
#include <vector>

#include "tests/test_emu_launcher.h"
#include "tests/test_support.h"

namespace tilecamp {
namespace {

// Warp 1 fills `data`, then raises `flag`; warp 0 waits for the flag, then reads the data.
// `store` and `load` are the flag's two accesses (a statement each, on `flag` and `v`).
std::string handoff(const std::string& store, const std::string& load) {
  return R"(
__device__ void raise(unsigned* flag) { )" + store + R"( }
__device__ unsigned look(unsigned* flag) { unsigned v; )" + load + R"( return v; }
extern "C" __global__ void handoff(int* out) {
  __shared__ int data[32];
  __shared__ unsigned flag;
  if (threadIdx.x == 0) flag = 0;
  __syncthreads();
  const int lane = threadIdx.x % 32;
  if (threadIdx.x >= 32) {
    data[lane] = lane * 3;
    __syncwarp();
    if (lane == 0) raise(&flag);
  } else {
    if (lane == 0) while (look(&flag) == 0) {}
    __syncwarp();
    out[lane] = data[lane];
  }
}
)";
}

test::Run run_handoff(const std::string& store, const std::string& load) {
  test::Launcher launcher("memory_order.cu", handoff(store, load));
  LaunchConfig config;
  config.grid = {1, 1, 1};
  config.block = {64, 1, 1};
  return launcher.run("handoff", config, {std::vector<uint8_t>(32 * 4, 0)}, {});
}

int races(const test::Run& run) {
  int count = 0;
  for (const Diagnostic& d : run.result.diagnostics) count += d.kind == "race";
  return count;
}

TEST_CASE("a flag stored with release and loaded with acquire orders the data: no race, the data arrives") {
  const test::Run run = run_handoff(R"(asm volatile("st.release.cta.shared.u32 [%0], 1;" :: "r"((unsigned)__cvta_generic_to_shared(flag)) : "memory");)",
                                    R"(asm volatile("ld.acquire.cta.shared.u32 %0, [%1];" : "=r"(v) : "r"((unsigned)__cvta_generic_to_shared(flag)) : "memory");)");
  CHECK(run.result.completed);
  CHECK(races(run) == 0);
  int value = 0;
  std::memcpy(&value, run.buffers[0].data() + 5 * 4, 4);
  CHECK(value == 15);
}

TEST_CASE("a read-modify-write release on the flag (red.release) and an acquire load order the data too") {
  const test::Run run = run_handoff(R"(asm volatile("red.release.cta.shared.or.b32 [%0], 1;" :: "r"((unsigned)__cvta_generic_to_shared(flag)) : "memory");)",
                                    R"(asm volatile("ld.acquire.cta.shared.u32 %0, [%1];" : "=r"(v) : "r"((unsigned)__cvta_generic_to_shared(flag)) : "memory");)");
  CHECK(races(run) == 0);
}

TEST_CASE("a relaxed flag orders nothing: the data read races with its write") {
  const test::Run run = run_handoff(R"(asm volatile("st.relaxed.cta.shared.u32 [%0], 1;" :: "r"((unsigned)__cvta_generic_to_shared(flag)) : "memory");)",
                                    R"(asm volatile("ld.relaxed.cta.shared.u32 %0, [%1];" : "=r"(v) : "r"((unsigned)__cvta_generic_to_shared(flag)) : "memory");)");
  REQUIRE(races(run) == 1);  // the data; the flag's relaxed accesses are atomic, and do not race
  for (const Diagnostic& d : run.result.diagnostics) {
    if (d.kind == "race") CHECK(test::contains(d.message, "read-after-write"));
  }
}

TEST_CASE("a volatile flag is no synchronization: the flag and the data both race") {
  const test::Run run = run_handoff("*(volatile unsigned*)flag = 1;", "v = *(volatile unsigned*)flag;");
  CHECK(races(run) == 2);
}

}  // namespace
}  // namespace tilecamp
