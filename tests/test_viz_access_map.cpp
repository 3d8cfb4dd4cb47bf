// The maps `tilecamp explain` draws, on hand-made warp address patterns: each must show what the
// charging rules (emu/access_rules) count, lane by lane.
#include <doctest/doctest.h>

#include "checker/viz/access_map.h"
#include "tests/test_support.h"

namespace tilecamp::viz {
namespace {

using emu::k_warp_size;
constexpr uint32_t k_all = 0xffffffffu;

emu::LaneAddresses strided(uint64_t base, uint64_t stride_bytes) {
  emu::LaneAddresses addresses{};
  for (int lane = 0; lane < k_warp_size; ++lane) addresses[lane] = base + uint64_t(lane) * stride_bytes;
  return addresses;
}

int lanes_on_bank(const BankMap& map, uint32_t bank, BankCell kind) {
  int count = 0;
  for (int lane = 0; lane < k_warp_size; ++lane) count += map.cells[size_t(lane)][bank] == kind;
  return count;
}

TEST_CASE("a column of a [32][32] float tile puts all 32 lanes on bank 0, a 32-way conflict") {
  const auto map = map_banks(strided(0, 32 * 4), k_all, 4);
  REQUIRE(map);
  CHECK(lanes_on_bank(*map, 0, BankCell::Conflict) == 32);
  for (uint32_t bank = 1; bank < emu::k_bank_count; ++bank) CHECK(lanes_on_bank(*map, bank, BankCell::Empty) == 32);
  CHECK(map->words_per_bank.at(0)[0] == 32);
  CHECK(map->wavefronts == 32);
  CHECK(map->ideal_wavefronts == 1);
  CHECK(test::contains(bank_advice(*map), "pad each row by one word ([..][33])"));
}

TEST_CASE("a padded column puts each lane alone on a bank of its own") {
  const auto map = map_banks(strided(0, 33 * 4), k_all, 4);
  REQUIRE(map);
  for (uint32_t bank = 0; bank < emu::k_bank_count; ++bank) CHECK(lanes_on_bank(*map, bank, BankCell::Alone) == 1);
  CHECK(map->wavefronts == 1);
  CHECK(test::contains(bank_advice(*map), "Nothing to fix"));
}

TEST_CASE("lanes reading one word are drawn as a broadcast, one wavefront") {
  const auto map = map_banks(strided(40, 0), k_all, 4);
  REQUIRE(map);
  CHECK(lanes_on_bank(*map, 10, BankCell::Broadcast) == 32);
  CHECK(map->wavefronts == 1);
  CHECK(test::contains(bank_advice(*map), "broadcast"));
}

TEST_CASE("a 64-bit access is drawn in two phases of 16 lanes, as it is charged") {
  const auto map = map_banks(strided(0, 8), k_all, 8);
  REQUIRE(map);
  CHECK(map->phases == 2);
  CHECK(map->lanes_per_phase() == 16);
  CHECK(map->words_per_bank.size() == 2);
  CHECK(map->cells[0][0] == BankCell::Alone);
  CHECK(map->cells[0][1] == BankCell::Alone);
  CHECK(map->cells[16][0] == BankCell::Alone);  // a new phase starts over at bank 0
  CHECK(map->wavefronts == 2);
}

TEST_CASE("a map costs exactly what the charging rules count, for every stride and access size") {
  for (uint32_t bytes : {4u, 8u, 16u}) {
    for (uint64_t stride = 0; stride <= 160; stride += 4) {
      for (uint32_t lanes : {k_all, 0x0000ffffu, 0x55555555u, 0x80000001u}) {
        emu::LaneAddresses addresses = strided(0, stride);
        for (auto& address : addresses) address -= address % bytes;  // aligned, as the emulator requires
        const auto map = map_banks(addresses, lanes, bytes);
        REQUIRE(map);
        const emu::SharedCost cost = emu::count_shared_wavefronts(addresses, lanes, bytes);
        CAPTURE(bytes);
        CAPTURE(stride);
        CAPTURE(lanes);
        CHECK(map->wavefronts == cost.wavefronts);
        CHECK(map->ideal_wavefronts == cost.ideal_wavefronts);
      }
    }
  }
}

TEST_CASE("a member of a merged shared access that another member charges draws nothing") {
  // Two 4-byte loads merged into one 8-byte access: the member at offset 4 costs nothing.
  CHECK_FALSE(map_banks(strided(4, 8), k_all, 4, 8, 0));
  const auto charged = map_banks(strided(0, 8), k_all, 4, 8, 0);
  REQUIRE(charged);
  CHECK(charged->bytes == 8);
}

TEST_CASE("a warp storing down a column touches 32 sectors, one lane in each") {
  const SectorMap map = map_sectors(strided(4096, 2176), k_all, 4);
  CHECK(map.sectors.size() == 32);
  CHECK(map.sectors.size() == emu::count_sectors(strided(4096, 2176), k_all, 4));
  CHECK(map.ideal_sectors == 4);
  for (int lane = 0; lane < k_warp_size; ++lane) CHECK(map.columns(lane) == std::vector<size_t>{size_t(lane)});
  CHECK(test::contains(sector_advice(map), "2176 bytes apart"));
}

TEST_CASE("a coalesced warp fills 4 sectors, 8 lanes to a sector") {
  const SectorMap map = map_sectors(strided(4096, 4), k_all, 4);
  CHECK(map.sectors.size() == 4);
  CHECK(map.ideal_sectors == 4);
  CHECK(map.columns(7) == std::vector<size_t>{0});
  CHECK(map.columns(8) == std::vector<size_t>{1});
  CHECK(test::contains(sector_advice(map), "Nothing to fix"));
}

TEST_CASE("a contiguous warp off a sector boundary spills into a fifth sector") {
  const SectorMap map = map_sectors(strided(4100, 4), k_all, 4);
  CHECK(map.sectors.size() == 5);
  CHECK(map.ideal_sectors == 4);
  CHECK(test::contains(sector_advice(map), "start 4 bytes into a sector"));
  CHECK(test::contains(sector_advice(map), "touch 5 sectors where 4 would hold them"));
  CHECK(test::contains(sector_advice(map), "One sector more is all a contiguous access can lose"));
}

TEST_CASE("64-bit lanes 16 bytes apart (float2 at 2 * threadIdx.x): the advice counts elements and phases") {
  const auto map = map_banks(strided(0, 16), k_all, 8);
  REQUIRE(map);
  CHECK(map->phases == 2);
  CHECK(map->wavefronts == 4);  // 2 words on a bank in each of 2 phases
  const std::string advice = bank_advice(*map);
  CHECK(test::contains(advice, "Each lane accesses 8 bytes (2 words), so the warp is served in 2 phases of 16 lanes"));
  CHECK(test::contains(advice, "2 elements (4 words) apart"));
  CHECK(test::contains(advice, "crowd into 16 of the 32 banks, 2 words on the busiest"));
  CHECK(test::contains(advice, "odd number of 8-byte elements"));
  CHECK_FALSE(test::contains(advice, "odd number of words"));  // impossible for an aligned float2
}

TEST_CASE("a column read backwards (tile[31 - threadIdx.x][c]): the distance is given without its sign") {
  emu::LaneAddresses addresses{};
  for (int lane = 0; lane < k_warp_size; ++lane) addresses[lane] = uint64_t(31 - lane) * 128;
  const auto map = map_banks(addresses, k_all, 4);
  REQUIRE(map);
  CHECK(map->wavefronts == 32);
  const std::string advice = bank_advice(*map);
  CHECK(test::contains(advice, "Consecutive lanes are 32 words apart (128 bytes, counting down"));
  CHECK(test::contains(advice, "[..][33]"));
  CHECK(test::contains(advice, "column c ^ r of row r"));
  CHECK_FALSE(test::contains(advice, "-3"));
  const SectorMap sectors = map_sectors(addresses, k_all, 4);
  CHECK(test::contains(sector_advice(sectors), "128 bytes apart, counting down"));
  CHECK_FALSE(test::contains(sector_advice(sectors), "-128"));
}

TEST_CASE("lanes sharing addresses (two rows of a block reading A in a naive SGEMM) waste nothing") {
  emu::LaneAddresses addresses{};
  for (int lane = 0; lane < k_warp_size; ++lane) addresses[lane] = lane < 16 ? 0 : 4096;
  const SectorMap map = map_sectors(addresses, k_all, 4);
  CHECK(map.sectors.size() == 2);
  CHECK(map.ideal_sectors == 2);  // no more than the 4 sectors 32 consecutive floats would take
  CHECK(test::contains(sector_advice(map), "Nothing to fix: 2 sectors for 32 lanes of 4 bytes"));
}

TEST_CASE("the stride between lanes is found across inactive lanes, and only when it is uniform") {
  CHECK(lane_stride(strided(0, 12), 0x00000505u) == 12);
  emu::LaneAddresses uneven = strided(0, 4);
  uneven[3] = 1000;
  CHECK_FALSE(lane_stride(uneven, k_all));
}

}  // namespace
}  // namespace tilecamp::viz
