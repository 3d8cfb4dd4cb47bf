// Which lane of one warp-wide access touches which shared-memory bank, or which 32-byte global
// sector: the pictures `tilecamp explain` draws. They are built by the same rules that charge
// the access (emu/access_rules: phases, distinct words per bank, distinct sectors), so that a
// map and the counters always agree.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "checker/emu/access_rules.h"

namespace tilecamp::viz {

// What one lane does to one bank in its phase.
enum class BankCell : uint8_t {
  Empty,      // the lane does not touch the bank
  Alone,      // the bank serves this lane's word, and no other lane's
  Broadcast,  // the bank serves one word to several lanes at once
  Conflict,   // the bank must serve several different words: one wavefront each
};

struct BankMap {
  uint32_t lanes = 0;  // the active lanes
  uint32_t bytes = 0;  // per lane, as charged (a merged access: its whole chunk)
  int phases = 1;      // the lanes are served in `phases` groups of 32 / phases lanes
  std::array<std::array<BankCell, emu::k_bank_count>, emu::k_warp_size> cells{};  // [lane][bank]
  std::array<uint64_t, emu::k_warp_size> addresses{};  // per lane: its first byte, as charged
  // Per phase: how many different words each bank serves.
  std::vector<std::array<uint32_t, emu::k_bank_count>> words_per_bank;
  uint32_t wavefronts = 0;        // the sum over phases of the busiest bank's words
  uint32_t ideal_wavefronts = 0;  // one per phase
  int lanes_per_phase() const { return emu::k_warp_size / phases; }
};

// The map of a shared access of `bytes` per lane, merged as ptxas merges it (see
// emu::fused_access_bytes); nullopt when another member of the merged access is the one charged.
std::optional<BankMap> map_banks(emu::LaneAddresses addresses, uint32_t lanes, uint32_t bytes, uint32_t fused_bytes = 0,
                                 uint32_t fused_first = 0);

struct SectorMap {
  uint32_t lanes = 0;
  uint32_t bytes = 0;
  std::vector<uint64_t> sectors;  // the distinct sectors touched (address / 32), ascending
  std::array<uint64_t, emu::k_warp_size> addresses{};
  uint32_t ideal_sectors = 0;     // ideal_sectors(), or fewer when lanes share addresses
  // Columns of `sectors` that `lane` touches (one, or two for an access that straddles sectors).
  std::vector<size_t> columns(int lane) const;
};

// The sectors the same lanes touch when they access consecutive, aligned elements of `bytes`:
// what a coalescing threshold (sectors per request) asks for.
uint32_t ideal_sectors(uint32_t lanes, uint32_t bytes);

SectorMap map_sectors(const emu::LaneAddresses& addresses, uint32_t lanes, uint32_t bytes);

// One sentence: why the access costs what it does and what would make it cheaper.
std::string bank_advice(const BankMap& map);
std::string sector_advice(const SectorMap& map);

// The byte distance between every two consecutive active lanes, when it is the same for all.
std::optional<int64_t> lane_stride(const std::array<uint64_t, emu::k_warp_size>& addresses, uint32_t lanes);

}  // namespace tilecamp::viz
