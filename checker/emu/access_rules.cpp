#include "checker/emu/access_rules.h"

#include <algorithm>
#include <bit>

namespace tilecamp::emu {

namespace {

// True when the active lanes access one gap-free ascending range (the coalesced case, by far the
// most common): then the range's extent alone gives the cost.
bool is_contiguous(const LaneAddresses& addresses, uint32_t active_mask, uint32_t bytes, uint64_t& first,
                   uint64_t& end) {
  int previous = -1;
  for (int lane = 0; lane < k_warp_size; ++lane) {
    if (!(active_mask >> lane & 1u)) continue;
    if (previous >= 0 && addresses[lane] != addresses[previous] + bytes) return false;
    if (previous < 0) first = addresses[lane];
    previous = lane;
  }
  end = addresses[previous] + bytes;
  return previous >= 0;
}

}  // namespace

uint32_t count_sectors(const LaneAddresses& addresses, uint32_t active_mask, uint32_t bytes) {
  return count_segments(addresses, active_mask, bytes, k_sector_bytes);
}

uint32_t count_segments(const LaneAddresses& addresses, uint32_t active_mask, uint32_t bytes, uint32_t segment_bytes) {
  if (active_mask == 0) return 0;
  uint64_t first = 0, end = 0;
  if (is_contiguous(addresses, active_mask, bytes, first, end)) {
    return static_cast<uint32_t>((end - 1) / segment_bytes - first / segment_bytes + 1);
  }
  std::array<uint64_t, 2 * k_warp_size> sectors;
  int count = 0;
  for (int lane = 0; lane < k_warp_size; ++lane) {
    if (!(active_mask >> lane & 1u)) continue;
    const uint64_t first_sector = addresses[lane] / segment_bytes;
    const uint64_t last_sector = (addresses[lane] + bytes - 1) / segment_bytes;
    sectors[count++] = first_sector;
    if (last_sector != first_sector) sectors[count++] = last_sector;  // only for a misaligned access
  }
  std::sort(sectors.begin(), sectors.begin() + count);
  return static_cast<uint32_t>(std::unique(sectors.begin(), sectors.begin() + count) -
                               sectors.begin());
}

GlobalSegments count_global_segments(const LaneAddresses& addresses, uint32_t active_mask, uint32_t bytes) {
  GlobalSegments result;
  if (active_mask == 0) return result;
  uint64_t first = 0, end = 0;
  if (is_contiguous(addresses, active_mask, bytes, first, end)) {
    auto span = [&](uint64_t size) { return static_cast<uint32_t>((end - 1) / size - first / size + 1); };
    return {span(k_sector_bytes), span(bytes), span(2 * k_sector_bytes)};
  }
  // Aligned lanes (the usual case) each lie in one element, one sector and one pair, so one sort
  // of their addresses gives all three counts; a misaligned lane takes the general way.
  std::array<uint64_t, k_warp_size> sorted;
  int count = 0;
  for (int lane = 0; lane < k_warp_size; ++lane) {
    if (!(active_mask >> lane & 1u)) continue;
    if (addresses[lane] % bytes != 0) {
      return {count_segments(addresses, active_mask, bytes, k_sector_bytes),
              count_segments(addresses, active_mask, bytes, bytes),
              count_segments(addresses, active_mask, bytes, 2 * k_sector_bytes)};
    }
    sorted[count++] = addresses[lane];
  }
  std::sort(sorted.begin(), sorted.begin() + count);
  for (int i = 0; i < count; ++i) {
    const bool first_lane = i == 0;
    result.sectors += first_lane || sorted[i] / k_sector_bytes != sorted[i - 1] / k_sector_bytes;
    result.elements += first_lane || sorted[i] / bytes != sorted[i - 1] / bytes;
    result.pairs += first_lane || sorted[i] / (2 * k_sector_bytes) != sorted[i - 1] / (2 * k_sector_bytes);
  }
  return result;
}

namespace {

// The cost of one phase: the largest number of distinct words any one bank must deliver.
// Lanes reading the same word share it (broadcast/multicast).
uint32_t phase_wavefronts(const LaneAddresses& addresses, uint32_t active_mask, uint32_t bytes,
                          int first_lane, int lane_count) {
  std::array<uint64_t, 4 * k_warp_size> words;
  int count = 0;
  for (int lane = first_lane; lane < first_lane + lane_count; ++lane) {
    if (!(active_mask >> lane & 1u)) continue;
    const uint64_t first_word = addresses[lane] / k_bank_word_bytes;
    const uint64_t last_word = (addresses[lane] + bytes - 1) / k_bank_word_bytes;
    for (uint64_t word = first_word; word <= last_word; ++word) {
      if (count > 0 && words[count - 1] == word) continue;  // a broadcast: the same word again
      words[count++] = word;
    }
  }
  if (count == 0) return 0;
  // Distinct words per bank, by a short scan per bank; only crowded banks need the sort below.
  constexpr int k_slots = 8;
  std::array<std::array<uint64_t, k_slots>, k_bank_count> bank_words;
  std::array<uint8_t, k_bank_count> bank_count{};
  bool crowded = false;
  uint32_t busiest_bank = 0;
  for (int i = 0; i < count && !crowded; ++i) {
    const uint32_t bank = static_cast<uint32_t>(words[i] % k_bank_count);
    auto& slots = bank_words[bank];
    bool seen = false;
    for (int j = 0; j < bank_count[bank]; ++j) seen |= slots[j] == words[i];
    if (seen) continue;
    if (bank_count[bank] == k_slots) {
      crowded = true;
      break;
    }
    slots[bank_count[bank]++] = words[i];
    busiest_bank = std::max<uint32_t>(busiest_bank, bank_count[bank]);
  }
  if (!crowded) return busiest_bank;
  std::sort(words.begin(), words.begin() + count);
  count = static_cast<int>(std::unique(words.begin(), words.begin() + count) - words.begin());
  std::array<uint32_t, k_bank_count> per_bank{};
  uint32_t busiest = 0;
  for (int i = 0; i < count; ++i) {
    busiest = std::max(busiest, ++per_bank[words[i] % k_bank_count]);
  }
  return busiest;
}

// Lanes 2i and 2i+1 read one address, or every even lane one address and every odd lane another.
bool lanes_come_in_pairs(const LaneAddresses& addresses, uint32_t active_mask) {
  bool pairs_share = true;
  int even = -1, odd = -1;
  bool halves_uniform = true;
  for (int lane = 0; lane < k_warp_size; ++lane) {
    if (!(active_mask >> lane & 1u)) continue;
    const int partner = lane ^ 1;
    if ((active_mask >> partner & 1u) && addresses[partner] != addresses[lane]) pairs_share = false;
    int& seen = lane % 2 == 0 ? even : odd;
    if (seen >= 0 && addresses[seen] != addresses[lane]) halves_uniform = false;
    seen = lane;
  }
  return pairs_share || halves_uniform;
}

}  // namespace

int shared_phases(const LaneAddresses& addresses, uint32_t active_mask, uint32_t bytes) {
  if (bytes <= 4) return 1;
  const int phases = static_cast<int>(bytes / 4);
  return lanes_come_in_pairs(addresses, active_mask) ? phases / 2 : phases;
}

SharedCost count_shared_wavefronts(const LaneAddresses& addresses, uint32_t active_mask,
                                   uint32_t bytes) {
  uint64_t first = 0, end = 0;
  if (bytes == 4 && active_mask != 0 && is_contiguous(addresses, active_mask, bytes, first, end) &&
      end - first <= k_bank_count * k_bank_word_bytes) {
    return {1, 1};  // at most 32 consecutive words: one per bank
  }
  const int phases = shared_phases(addresses, active_mask, bytes);
  const int lanes_per_phase = k_warp_size / phases;
  SharedCost cost;
  for (int phase = 0; phase < phases; ++phase) {
    uint32_t wavefronts = phase_wavefronts(addresses, active_mask, bytes,
                                           phase * lanes_per_phase, lanes_per_phase);
    if (wavefronts == 0) continue;
    cost.wavefronts += wavefronts;
    cost.ideal_wavefronts += 1;
  }
  return cost;
}

SharedCost SharedCostMemo::count(const LaneAddresses& addresses, uint32_t active_mask, uint32_t bytes) {
  if (active_mask == 0) return {};
  const uint64_t first = addresses[std::countr_zero(active_mask)];
  bool same = m_valid && active_mask == m_mask && bytes == m_bytes && first % k_bank_word_bytes == m_first_offset;
  for (uint32_t rest = active_mask; same && rest != 0; rest &= rest - 1) {
    const int lane = std::countr_zero(rest);
    same = addresses[lane] - first == m_deltas[lane];
  }
  if (same) return m_cost;
  m_cost = count_shared_wavefronts(addresses, active_mask, bytes);
  for (uint32_t rest = active_mask; rest != 0; rest &= rest - 1) {
    const int lane = std::countr_zero(rest);
    m_deltas[lane] = addresses[lane] - first;
  }
  m_valid = true;
  m_mask = active_mask;
  m_bytes = bytes;
  m_first_offset = first % k_bank_word_bytes;
  return m_cost;
}

uint32_t fused_access_bytes(LaneAddresses& addresses, uint32_t active_mask, uint32_t bytes,
                            uint32_t fused_bytes, uint32_t fused_first) {
  if (fused_bytes == 0 || active_mask == 0) return bytes;
  const uint64_t offset_mask = fused_bytes - 1;  // 8 or 16
  const uint64_t position = addresses[std::countr_zero(active_mask)] & offset_mask;
  for (int lane = 0; lane < k_warp_size; ++lane) {
    if ((active_mask >> lane & 1u) && (addresses[lane] & offset_mask) != position) return bytes;
  }
  if (position != fused_first) return 0;
  for (int lane = 0; lane < k_warp_size; ++lane) addresses[lane] -= position;
  return fused_bytes;
}

uint32_t distinct_addresses(const LaneAddresses& addresses, uint32_t active_mask) {
  std::array<uint64_t, k_warp_size> seen{};
  uint32_t count = 0;
  for (int lane = 0; lane < k_warp_size; ++lane) {
    if (!(active_mask >> lane & 1u)) continue;
    if (std::find(seen.begin(), seen.begin() + count, addresses[lane]) == seen.begin() + count) seen[count++] = addresses[lane];
  }
  return count;
}

SharedAtomicCost count_shared_atomic(const LaneAddresses& addresses, uint32_t active_mask, uint32_t bytes, bool loop) {
  SharedAtomicCost cost;
  if (!loop) {
    const SharedCost banks = count_shared_wavefronts(addresses, active_mask, bytes);
    cost.atomic_requests = 1;
    cost.atomic_wavefronts = banks.wavefronts;
    cost.atomic_bank_conflicts = banks.bank_conflicts();
    return cost;
  }
  uint32_t trips = 0;  // the most lanes on one address: each trip lets one of them through
  for (int lane = 0; lane < k_warp_size; ++lane) {
    if (!(active_mask >> lane & 1u)) continue;
    uint32_t same = 0;
    for (int other = 0; other < k_warp_size; ++other) same += (active_mask >> other & 1u) && addresses[other] == addresses[lane];
    trips = std::max(trips, same);
  }
  cost.atomic_requests = trips;
  cost.atomic_wavefronts = 2 * trips;
  cost.load_requests = trips;
  cost.load_wavefronts = trips;
  return cost;
}

}  // namespace tilecamp::emu
