#include "checker/viz/access_map.h"

#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <cstdlib>
#include <map>
#include <numeric>

namespace tilecamp::viz {

using emu::k_bank_count;
using emu::k_bank_word_bytes;
using emu::k_sector_bytes;
using emu::k_warp_size;

namespace {

bool active(uint32_t lanes, int lane) { return (lanes >> lane & 1u) != 0; }

// Draws one phase into `map`: the distinct words of each bank, then each lane's cells.
void map_phase(BankMap& map, int first_lane, int lane_count) {
  std::array<std::vector<uint64_t>, k_bank_count> bank_words;
  std::map<uint64_t, int> lanes_of_word;
  auto words_of = [&](int lane) {
    const uint64_t first = map.addresses[lane] / k_bank_word_bytes;
    return std::pair{first, (map.addresses[lane] + map.bytes - 1) / k_bank_word_bytes};
  };
  for (int lane = first_lane; lane < first_lane + lane_count; ++lane) {
    if (!active(map.lanes, lane)) continue;
    const auto [first, last] = words_of(lane);
    for (uint64_t word = first; word <= last; ++word) {
      auto& words = bank_words[word % k_bank_count];
      if (std::find(words.begin(), words.end(), word) == words.end()) words.push_back(word);
      ++lanes_of_word[word];
    }
  }
  std::array<uint32_t, k_bank_count> counts{};
  uint32_t busiest = 0;
  for (uint32_t bank = 0; bank < k_bank_count; ++bank) {
    counts[bank] = static_cast<uint32_t>(bank_words[bank].size());
    busiest = std::max(busiest, counts[bank]);
  }
  map.words_per_bank.push_back(counts);
  if (busiest == 0) return;  // no lane of this phase is active: it costs nothing
  map.wavefronts += busiest;
  map.ideal_wavefronts += 1;
  for (int lane = first_lane; lane < first_lane + lane_count; ++lane) {
    if (!active(map.lanes, lane)) continue;
    const auto [first, last] = words_of(lane);
    for (uint64_t word = first; word <= last; ++word) {
      const uint64_t bank = word % k_bank_count;
      map.cells[lane][bank] = counts[bank] > 1 ? BankCell::Conflict
                              : lanes_of_word[word] > 1 ? BankCell::Broadcast
                                                         : BankCell::Alone;
    }
  }
}

// "the lanes are 2176 bytes apart" / "apart by 4 bytes": plain words for a stride.
std::string bytes_text(int64_t bytes) { return fmt::format("{} byte{}", bytes, bytes == 1 || bytes == -1 ? "" : "s"); }

}  // namespace

std::optional<BankMap> map_banks(emu::LaneAddresses addresses, uint32_t lanes, uint32_t bytes, uint32_t fused_bytes,
                                 uint32_t fused_first) {
  const uint32_t charged = emu::fused_access_bytes(addresses, lanes, bytes, fused_bytes, fused_first);
  if (charged == 0 || lanes == 0) return std::nullopt;
  BankMap map;
  map.lanes = lanes;
  map.bytes = charged;
  map.phases = emu::shared_phases(addresses, lanes, charged);
  map.addresses = addresses;
  for (int phase = 0; phase < map.phases; ++phase) {
    map_phase(map, phase * map.lanes_per_phase(), map.lanes_per_phase());
  }
  return map;
}

std::vector<size_t> SectorMap::columns(int lane) const {
  std::vector<size_t> touched;
  if (!active(lanes, lane)) return touched;
  const uint64_t first = addresses[lane] / k_sector_bytes, last = (addresses[lane] + bytes - 1) / k_sector_bytes;
  for (uint64_t sector = first; sector <= last; ++sector) {
    touched.push_back(static_cast<size_t>(std::lower_bound(sectors.begin(), sectors.end(), sector) - sectors.begin()));
  }
  return touched;
}

uint32_t ideal_sectors(uint32_t lanes, uint32_t bytes) {
  return (uint32_t(std::popcount(lanes)) * bytes + k_sector_bytes - 1) / k_sector_bytes;
}

SectorMap map_sectors(const emu::LaneAddresses& addresses, uint32_t lanes, uint32_t bytes) {
  SectorMap map;
  map.lanes = lanes;
  map.bytes = bytes;
  map.addresses = addresses;
  map.ideal_sectors = ideal_sectors(lanes, bytes);
  for (int lane = 0; lane < k_warp_size; ++lane) {
    if (!active(lanes, lane)) continue;
    for (uint64_t sector = addresses[lane] / k_sector_bytes; sector <= (addresses[lane] + bytes - 1) / k_sector_bytes;
         ++sector) {
      map.sectors.push_back(sector);
    }
  }
  std::sort(map.sectors.begin(), map.sectors.end());
  map.sectors.erase(std::unique(map.sectors.begin(), map.sectors.end()), map.sectors.end());
  map.ideal_sectors = std::min(map.ideal_sectors, static_cast<uint32_t>(map.sectors.size()));  // lanes sharing addresses
  return map;
}

std::optional<int64_t> lane_stride(const std::array<uint64_t, k_warp_size>& addresses, uint32_t lanes) {
  std::optional<int64_t> stride;
  int previous = -1;
  for (int lane = 0; lane < k_warp_size; ++lane) {
    if (!active(lanes, lane)) continue;
    if (previous >= 0) {
      const int64_t distance = static_cast<int64_t>(addresses[lane] - addresses[previous]);
      if (distance % (lane - previous) != 0) return std::nullopt;
      const int64_t step = distance / (lane - previous);
      if (stride && *stride != step) return std::nullopt;
      stride = step;
    }
    previous = lane;
  }
  return stride;
}

std::string bank_advice(const BankMap& map) {
  if (map.wavefronts == map.ideal_wavefronts) {
    bool broadcast = false;
    for (const auto& row : map.cells) broadcast |= std::find(row.begin(), row.end(), BankCell::Broadcast) != row.end();
    return broadcast ? "Nothing to fix: lanes that read one word share it (a broadcast), and the other words lie in "
                       "different banks."
                     : "Nothing to fix: no bank serves more than one word per phase.";
  }
  uint32_t busiest = 0, busiest_bank = 0, banks_used = 0;
  for (const auto& counts : map.words_per_bank) {
    for (uint32_t bank = 0; bank < k_bank_count; ++bank) {
      if (counts[bank] > busiest) {
        busiest = counts[bank], busiest_bank = bank;
        banks_used = static_cast<uint32_t>(std::count_if(counts.begin(), counts.end(), [](uint32_t n) { return n > 0; }));
      }
    }
  }
  const std::optional<int64_t> stride = lane_stride(map.addresses, map.lanes);
  const int64_t element_words = std::max<int64_t>(1, map.bytes / k_bank_word_bytes);
  if (stride && *stride != 0 && *stride % k_bank_word_bytes == 0) {
    const int64_t words = std::abs(*stride) / k_bank_word_bytes;
    const char* direction = *stride < 0 ? ", counting down" : "";
    const int64_t sharing = std::gcd(words, int64_t{k_bank_count});
    if (element_words == 1 && sharing == k_bank_count) {
      return fmt::format("Consecutive lanes are {} words apart ({}{}, like going down a column of a [..][{}] "
                         "array), so they all fall in bank {}: pad each row by one word ([..][{}]), or keep the "
                         "rows as they are and swizzle: put element (r, c) at column {} of row r. Either way a "
                         "column spreads over all 32 banks.",
                         words, bytes_text(std::abs(*stride)), direction, words, busiest_bank, words + 1,
                         words == k_bank_count ? "c ^ r" : "c ^ (r % 32)");
    }
    if (element_words == 1 && sharing > 1) {
      return fmt::format("Consecutive lanes are {} words apart{}, so they use only {} of the 32 banks, {} lanes to a "
                         "bank: make the distance an odd number of words (pad each row by one word) or let "
                         "consecutive lanes read consecutive words.",
                         words, direction, k_bank_count / sharing, sharing);
    }
    if (element_words > 1 && words % element_words == 0) {
      const int64_t elements = words / element_words;
      return fmt::format("Each lane accesses {} bytes ({} words), so the warp is served in {} phase{} of {} lanes; "
                         "consecutive lanes are {} elements ({} words) apart{}, so a phase's lanes crowd into {} of "
                         "the 32 banks, {} words on the busiest: make the distance an odd number of {}-byte elements "
                         "(consecutive elements, or pad each row by one element, or XOR-swizzle the column with the "
                         "row) and a phase covers the 32 banks once.",
                         map.bytes, element_words, map.phases, map.phases == 1 ? "" : "s", map.lanes_per_phase(),
                         elements, words, direction, banks_used, busiest, map.bytes);
    }
  }
  return fmt::format("Bank {} must serve {} different words, one wavefront each: change the indexing (padding, or an "
                     "XOR swizzle of the column with the row) so that the lanes of a phase read words in different "
                     "banks.",
                     busiest_bank, busiest);
}

std::string sector_advice(const SectorMap& map) {
  const size_t sectors = map.sectors.size();
  if (sectors <= map.ideal_sectors) {
    return fmt::format("Nothing to fix: {} sector{} for {} lane{} of {} bytes, no more than consecutive elements "
                       "would take.",
                       sectors, sectors == 1 ? "" : "s", std::popcount(map.lanes), std::popcount(map.lanes) == 1 ? "" : "s",
                       map.bytes);
  }
  const std::optional<int64_t> stride = lane_stride(map.addresses, map.lanes);
  const int64_t distance = stride ? std::abs(*stride) : 0;
  const char* direction = stride && *stride < 0 ? ", counting down" : "";
  if (stride && distance >= k_sector_bytes) {
    return fmt::format("Consecutive lanes are {} apart{} (like going down a column of a row-major array), so each "
                       "lane needs a 32-byte sector of its own for {} useful bytes: let threadIdx.x run along a row "
                       "(stage the data through a shared-memory tile to turn it around).",
                       bytes_text(distance), direction, map.bytes);
  }
  if (stride && distance == static_cast<int64_t>(map.bytes)) {
    uint64_t start = ~uint64_t{0};
    for (int lane = 0; lane < k_warp_size; ++lane) {
      if (active(map.lanes, lane)) start = std::min(start, map.addresses[lane]);
    }
    return fmt::format("The lanes' bytes are contiguous but start {} into a sector, so they touch {} sectors where {} "
                       "would hold them. One sector more is all a contiguous access can lose to misalignment, and "
                       "aligning the start saves only that. If the line reads overlapping neighbours again and "
                       "again (a stencil's in[i - R .. i + R]), the re-reads mostly hit L1, which keeps them cheap "
                       "for a narrow 1-D window (on an H200 a shared-memory halo measured 0.86x the naive 7-point "
                       "stencil); a shared-memory tile pays when the reuse outgrows what L1 keeps: a wide radius, "
                       "2-D and 3-D stencils, GEMM.",
                       bytes_text(static_cast<int64_t>(start % k_sector_bytes)), sectors, map.ideal_sectors);
  }
  if (stride && distance > static_cast<int64_t>(map.bytes)) {
    return fmt::format("Consecutive lanes are {} apart{} but each uses {}, so the sectors carry gaps: let consecutive "
                       "lanes access consecutive elements.",
                       bytes_text(distance), direction, bytes_text(map.bytes));
  }
  return fmt::format("The lanes scatter over {} sectors where {} would hold their bytes: let consecutive lanes "
                     "access consecutive addresses.",
                     sectors, map.ideal_sectors);
}

}  // namespace tilecamp::viz
