// The charging rules themselves, on hand-made warp address patterns.
#include <doctest/doctest.h>

#include "checker/emu/access_rules.h"

namespace tilecamp::emu {
namespace {

constexpr uint32_t k_all = 0xffffffffu;

LaneAddresses strided(uint64_t base, uint64_t stride_bytes) {
  LaneAddresses addresses{};
  for (int lane = 0; lane < k_warp_size; ++lane) addresses[lane] = base + lane * stride_bytes;
  return addresses;
}

TEST_CASE("a warp reading consecutive floats touches 4 sectors") {
  CHECK(count_sectors(strided(0, 4), k_all, 4) == 4);
}

TEST_CASE("inactive lanes cost no sectors") {
  CHECK(count_sectors(strided(0, 128), 0x0000000fu, 4) == 4);
  CHECK(count_sectors(strided(0, 4), 0, 4) == 0);
}

TEST_CASE("a column of a 32-float-wide tile is a 32-way bank conflict") {
  const SharedCost cost = count_shared_wavefronts(strided(0, 32 * 4), k_all, 4);
  CHECK(cost.wavefronts == 32);
  CHECK(cost.bank_conflicts() == 31);
}

TEST_CASE("padding a tile row to 33 floats removes the conflict") {
  const SharedCost cost = count_shared_wavefronts(strided(0, 33 * 4), k_all, 4);
  CHECK(cost.wavefronts == 1);
  CHECK(cost.bank_conflicts() == 0);
}

TEST_CASE("lanes reading the same word share one wavefront") {
  CHECK(count_shared_wavefronts(strided(20, 0), k_all, 4).wavefronts == 1);
}

TEST_CASE("a half-active warp of 64-bit accesses costs one phase") {
  const SharedCost cost = count_shared_wavefronts(strided(0, 8), 0x0000ffffu, 8);
  CHECK(cost.wavefronts == 1);
  CHECK(cost.ideal_wavefronts == 1);
}

TEST_CASE("one pass over a global request counts what three count_segments calls count") {
  uint64_t state = 12345;
  auto next = [&] {  // a fixed-seed xorshift: every run checks the same 20,000 requests
    state ^= state << 13;
    state ^= state >> 7;
    state ^= state << 17;
    return state;
  };
  for (int trial = 0; trial < 20000; ++trial) {
    const uint32_t bytes = 1u << (next() % 5);  // 1 to 16
    const uint32_t mask = static_cast<uint32_t>(next()) | (trial % 7 == 0 ? 0xffffffffu : 0u);
    LaneAddresses addresses{};
    const uint64_t base = (next() % 4096) * 16;
    const int pattern = static_cast<int>(next() % 4);
    for (int lane = 0; lane < k_warp_size; ++lane) {
      switch (pattern) {
        case 0: addresses[lane] = base + uint64_t{bytes} * lane; break;                   // coalesced
        case 1: addresses[lane] = base; break;                                            // broadcast
        case 2: addresses[lane] = base + uint64_t{bytes} * (next() % 64); break;          // scattered, aligned
        default: addresses[lane] = base + next() % 256; break;                            // misaligned too
      }
    }
    CAPTURE(trial);
    const GlobalSegments segments = count_global_segments(addresses, mask, bytes);
    CHECK(segments.sectors == count_segments(addresses, mask, bytes, k_sector_bytes));
    CHECK(segments.elements == count_segments(addresses, mask, bytes, bytes));
    CHECK(segments.pairs == count_segments(addresses, mask, bytes, 2 * k_sector_bytes));
  }
}

}  // namespace
}  // namespace tilecamp::emu
