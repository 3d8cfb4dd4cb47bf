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

// Byte `k` of what `lane` stores, or nothing if the caller gave no value for it.
std::optional<uint8_t> stored_byte(const SharedAccess& access, int lane, uint32_t k) {
  const auto* values = k < 8 ? access.values_low : access.values_high;
  if (values == nullptr || k >= 16) return std::nullopt;
  return static_cast<uint8_t>((*values)[lane] >> (8 * (k % 8)));
}

}  // namespace

void RaceDetector::start_block(uint32_t shared_bytes) {
  if (m_shadow.size() != shared_bytes) {
    m_shadow.assign(shared_bytes, ByteShadow{});
    m_epoch = 1;
    return;
  }
  next_epoch();  // a fresh epoch makes every byte's record stale: no need to clear them
}

void RaceDetector::barrier_released() { next_epoch(); }

void RaceDetector::next_epoch() {
  if (++m_epoch == 0) {  // wrapped: a stale record could look current again
    std::fill(m_shadow.begin(), m_shadow.end(), ByteShadow{});
    m_epoch = 1;
  }
}

std::optional<RaceReport> RaceDetector::record(const SharedAccess& access) {
  std::optional<RaceReport> first;
  for (uint32_t mask = access.lanes; mask != 0; mask &= mask - 1) {
    const int lane = std::countr_zero(mask);
    const uint64_t start = (*access.addresses)[lane];
    const uint64_t end = std::min<uint64_t>(start + access.bytes, m_shadow.size());
    for (uint64_t address = start; address < end; ++address) {
      // Every byte is recorded even after a race is found, so that later reports stay exact.
      std::optional<RaceReport> race = record_byte(access, lane, address);
      if (race && !first) first = std::move(race);
    }
  }
  if (first) return first;
  if (access.is_write && !access.is_atomic) return conflicting_write(access);
  return std::nullopt;
}

std::optional<RaceReport> RaceDetector::record_byte(const SharedAccess& access, int lane,
                                                    uint64_t address) {
  ByteShadow& shadow = m_shadow[address];
  if (shadow.epoch != m_epoch) shadow = ByteShadow{m_epoch, {}, {}, {}};
  const Accessor self{access.pc, thread_of(access.warp, lane)};

  // The earlier access among `slots` made by a warp other than this one, if any.
  auto other_warp = [&](const std::array<Accessor, 2>& slots) -> const Accessor* {
    if (slots[0].thread == k_nobody) return nullptr;
    if (warp_of(slots[0].thread) != access.warp) return &slots[0];
    return slots[1].thread == k_nobody ? nullptr : &slots[1];  // slots[1] is of another warp
  };
  auto add = [&](std::array<Accessor, 2>& slots) {
    if (slots[0].thread == k_nobody) {
      slots[0] = self;
    } else if (slots[1].thread == k_nobody && warp_of(slots[0].thread) != access.warp) {
      slots[1] = self;
    }
  };

  const Accessor* other = nullptr;
  bool other_writes = true, other_atomic = false;
  if (shadow.writer.thread != k_nobody && warp_of(shadow.writer.thread) != access.warp) {
    other = &shadow.writer;
  }
  if (other == nullptr && (access.is_write || access.is_atomic)) {
    other = other_warp(shadow.readers);
    other_writes = false;
  }
  if (other == nullptr && !access.is_atomic) {
    other = other_warp(shadow.atomics);
    other_writes = other_atomic = true;
  }

  std::optional<RaceReport> race;
  if (other != nullptr) {
    race = RaceReport{"race", access.pc, other->pc, access.warp, warp_of(other->thread), lane,
                      lane_of(other->thread), address, access.is_write || access.is_atomic,
                      other_writes, access.is_atomic, other_atomic};
  }
  if (access.is_atomic) {
    add(shadow.atomics);
  } else if (access.is_write) {
    shadow.writer = self;
  } else {
    add(shadow.readers);
  }
  return race;
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
      const auto byte_a = stored_byte(access, a, static_cast<uint32_t>(k));
      const auto byte_b = stored_byte(access, b, static_cast<uint32_t>(k - gap));
      if (!byte_a || !byte_b || *byte_a == *byte_b) continue;
      return RaceReport{"conflicting-write", access.pc, access.pc, access.warp, access.warp,
                        std::max(a, b), std::min(a, b), addresses[a] + k, true, true, false, false};
    }
  }
  return std::nullopt;
}

}  // namespace tilecamp::emu
