#include "checker/emu/race_detector.h"

#include <algorithm>
#include <bit>

namespace tilecamp::emu {

namespace {

constexpr uint32_t thread_of(uint32_t warp, int lane) {
  return warp * k_warp_size + static_cast<uint32_t>(lane);
}
constexpr uint32_t warp_of(uint32_t thread) { return thread / k_warp_size; }
constexpr int lane_of(uint32_t thread) { return static_cast<int>(thread % k_warp_size); }

// Bytes [offset, offset + size) of what `lane` stores (size 1 or 4, not straddling byte 8), or
// nothing if the caller gave no value for them.
std::optional<uint32_t> stored_bytes(const SharedAccess& access, int lane, uint64_t offset, uint32_t size) {
  const auto* values = offset < 8 ? access.values_low : access.values_high;
  if (values == nullptr || offset + size > 16) return std::nullopt;
  const uint64_t mask = size >= 4 ? 0xffffffffu : (1u << (8 * size)) - 1;
  return static_cast<uint32_t>(((*values)[lane] >> (8 * (offset % 8))) & mask);
}

// Bit b set where byte b of `x` is not zero (bytes 0-3).
constexpr uint32_t nonzero_bytes(uint32_t x) {
  const uint32_t high_bits = (((x & 0x7f7f7f7fu) + 0x7f7f7f7fu) | x) & 0x80808080u;
  return (high_bits >> 7 & 1u) | (high_bits >> 14 & 2u) | (high_bits >> 21 & 4u) | (high_bits >> 28 & 8u);
}

}  // namespace

void RaceDetector::start_block(uint32_t shared_bytes) {
  if (m_shared_bytes != shared_bytes) {
    m_shared_bytes = shared_bytes;
    m_words.assign((shared_bytes + k_word_bytes - 1) / k_word_bytes, Shadow{});
    m_bytes.clear();
    m_epoch = 1;
    return;
  }
  next_epoch();  // a fresh epoch makes every word's record stale: no need to clear them
}

void RaceDetector::barrier_released() { next_epoch(); }

void RaceDetector::next_epoch() {
  if (++m_epoch == 0) {  // wrapped: a stale record could look current again
    std::fill(m_words.begin(), m_words.end(), Shadow{});
    m_epoch = 1;
  }
}

inline RaceDetector::Shadow& RaceDetector::current_word(uint64_t word) {
  Shadow& shadow = m_words[word];
  if (shadow.epoch != m_epoch) {
    shadow = Shadow{};
    shadow.epoch = m_epoch;
  }
  return shadow;
}

// From now until the next barrier the word's bytes are tracked one by one, each starting from
// what the whole word saw so far.
void RaceDetector::split(Shadow& word_shadow, uint64_t word) {
  if (word_shadow.split) return;
  if (m_bytes.empty()) m_bytes.resize(m_words.size() * k_word_bytes);
  for (uint32_t b = 0; b < k_word_bytes; ++b) {
    Shadow& byte = m_bytes[word * k_word_bytes + b];
    byte = word_shadow;
    byte.agreed = word_shadow.agreed >> b & 1u;
    byte.stored = word_shadow.stored >> (8 * b) & 0xffu;
  }
  word_shadow.split = true;
}

std::optional<RaceReport> RaceDetector::record(const SharedAccess& access) {
  Found found;
  Accessor self{access.pc, 0, access.step};  // each lane's record, once its thread is set
  // Every lane is recorded even after a race is found, so that later reports stay exact. A read
  // of the address the previous lane read (a broadcast) adds nothing: the warp is already
  // recorded as its reader, and any race it completes was found for that lane.
  const bool plain_read = !access.is_write && !access.is_atomic;
  uint64_t previous_address = ~uint64_t{0};
  for (uint32_t mask = access.lanes; mask != 0; mask &= mask - 1) {
    const int lane = std::countr_zero(mask);
    if (plain_read && (*access.addresses)[lane] == previous_address) continue;
    previous_address = (*access.addresses)[lane];
    self.thread = thread_of(access.warp, lane);
    record_lane(access, self, lane, found);
  }
  auto report = [&](const Conflict& conflict) {
    return RaceReport{"race", access.pc, conflict.other.pc, access.step, conflict.other.step, access.warp,
                      warp_of(conflict.other.thread), conflict.lane, lane_of(conflict.other.thread),
                      conflict.address, access.is_write || access.is_atomic, conflict.other_writes,
                      access.is_atomic, conflict.other_atomic, conflict.same_value};
  };
  if (found.race) return report(*found.race);
  if (access.is_write && !access.is_atomic) {
    if (std::optional<RaceReport> conflict = conflicting_write(access)) return conflict;
  }
  if (found.benign) return report(*found.benign);
  return std::nullopt;
}

bool RaceDetector::written_by_other_warp(uint64_t address, uint32_t warp) const {
  if (address >= m_shared_bytes) return false;
  const Shadow& word = m_words[address / k_word_bytes];
  if (word.epoch != m_epoch) return false;
  const Shadow& shadow = word.split ? m_bytes[address] : word;
  auto other_warp = [&](const std::array<Accessor, 2>& slots) {  // slots[1]: a warp other than slots[0]'s
    return slots[0].used() && (warp_of(slots[0].thread) != warp || slots[1].used());
  };
  return other_warp(shadow.writers) || other_warp(shadow.atomics);
}

// Checks the access to the `granule_bytes` (4 or 1) at `address` against what `shadow` saw this
// epoch, keeping the first conflict in `found`, then adds it there.
inline void RaceDetector::check_and_record(Shadow& shadow, const SharedAccess& access, const Accessor& self,
                                           int lane, uint64_t address, uint32_t granule_bytes, Found& found) {
  // The earlier access among `slots` made by a warp other than this one, if any.
  auto other_warp = [&](const std::array<Accessor, 2>& slots) -> const Accessor* {
    if (!slots[0].used()) return nullptr;
    if (warp_of(slots[0].thread) != access.warp) return &slots[0];
    return slots[1].used() ? &slots[1] : nullptr;  // slots[1] is of another warp
  };
  auto add = [&](std::array<Accessor, 2>& slots) {
    if (!slots[0].used()) {
      slots[0] = self;
    } else if (!slots[1].used() && warp_of(slots[0].thread) != access.warp) {
      slots[1] = self;
    }
  };
  const bool plain_write = access.is_write && !access.is_atomic;
  const uint32_t all_bytes = (1u << granule_bytes) - 1;
  const uint64_t offset = address - (*access.addresses)[lane];
  const std::optional<uint32_t> value =
      plain_write ? stored_bytes(access, lane, offset, granule_bytes) : std::nullopt;
  // Bytes where this store puts what not every earlier store put.
  const uint32_t changed =
      value ? (nonzero_bytes(*value ^ shadow.stored) | ~shadow.agreed) & all_bytes : all_bytes;

  if (!found.race) {
    const Accessor* writer = other_warp(shadow.writers);
    const Accessor* reader = other_warp(shadow.readers);
    const Accessor* atomic = other_warp(shadow.atomics);
    if (writer != nullptr && (!plain_write || changed != 0)) {
      const uint32_t first_byte = plain_write ? static_cast<uint32_t>(std::countr_zero(changed)) : 0;
      found.race = Conflict{*writer, lane, address + first_byte, true, false, false};
    } else if (reader != nullptr && (access.is_write || access.is_atomic)) {
      found.race = Conflict{*reader, lane, address, false, false, false};
    } else if (atomic != nullptr && !access.is_atomic) {  // atomics do not race with atomics
      found.race = Conflict{*atomic, lane, address, true, true, false};
    } else if (writer != nullptr && !found.benign) {  // a plain store of what every store stored
      found.benign = Conflict{*writer, lane, address, true, false, true};
    }
  }

  if (access.is_atomic) {
    add(shadow.atomics);
  } else if (access.is_write) {
    shadow.agreed = static_cast<uint8_t>(!shadow.writers[0].used() ? (value ? all_bytes : 0)
                                                                   : shadow.agreed & ~changed);
    shadow.stored = value.value_or(0);
    add(shadow.writers);
  } else {
    add(shadow.readers);
  }
}

void RaceDetector::record_lane(const SharedAccess& access, const Accessor& self, int lane, Found& found) {
  const uint64_t start = (*access.addresses)[lane];
  const uint64_t end = std::min<uint64_t>(start + access.bytes, m_shared_bytes);
  const bool whole_words = start % k_word_bytes == 0 && access.bytes % k_word_bytes == 0;
  for (uint64_t word = start / k_word_bytes; word * k_word_bytes < end; ++word) {
    // The word as one granule, or the bytes of it this lane touches.
    Shadow* granules = &current_word(word);
    uint64_t address = word * k_word_bytes, count = 1;
    uint32_t granule_bytes = k_word_bytes;
    if (!whole_words || granules->split) {
      split(*granules, word);
      address = std::max(start, address);
      count = std::min(end, (word + 1) * k_word_bytes) - address;
      granules = &m_bytes[address];
      granule_bytes = 1;
    }
    for (uint64_t i = 0; i < count; ++i) {
      check_and_record(granules[i], access, self, lane, address + i, granule_bytes, found);
    }
  }
}

// Lanes of one store whose ranges overlap and disagree on a byte. Sorted by address, the lanes
// covering any one byte are consecutive (all ranges have the same length), so comparing
// neighbours is enough.
std::optional<RaceReport> RaceDetector::conflicting_write(const SharedAccess& access) const {
  if (access.values_low == nullptr) return std::nullopt;
  const LaneAddresses& addresses = *access.addresses;
  std::array<int, k_warp_size> lanes{};
  int count = 0;
  for (uint32_t mask = access.lanes; mask != 0; mask &= mask - 1) lanes[count++] = std::countr_zero(mask);
  auto by_address = [&](int a, int b) {
    return addresses[a] < addresses[b] || (addresses[a] == addresses[b] && a < b);
  };
  if (!std::is_sorted(lanes.begin(), lanes.begin() + count, by_address)) {
    std::sort(lanes.begin(), lanes.begin() + count, by_address);
  }
  for (int i = 0; i + 1 < count; ++i) {
    const int a = lanes[i], b = lanes[i + 1];
    const uint64_t gap = addresses[b] - addresses[a];
    for (uint64_t k = gap; k < access.bytes; ++k) {  // byte k of a is byte k - gap of b
      const auto byte_a = stored_bytes(access, a, k, 1);
      const auto byte_b = stored_bytes(access, b, k - gap, 1);
      if (!byte_a || !byte_b || *byte_a == *byte_b) continue;
      return RaceReport{"conflicting-write", access.pc, access.pc, access.step, access.step, access.warp,
                        access.warp, std::max(a, b), std::min(a, b), addresses[a] + k, true, true, false, false,
                        false};
    }
  }
  return std::nullopt;
}

}  // namespace tilecamp::emu
