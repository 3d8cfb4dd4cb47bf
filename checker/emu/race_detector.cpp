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
    m_warp_syncs.clear();
    m_sync_epoch = 0;
    m_pending_writes.reserve(k_warp_size * 16);
    m_read_log.clear();
    m_written_epoch = 0;
    m_epoch = 1;
    return;
  }
  next_epoch();  // a fresh epoch makes every word's record stale: no need to clear them
}

void RaceDetector::barrier_released() { next_epoch(); }

void RaceDetector::next_epoch() {
  m_read_log.clear();
  if (++m_epoch == 0) {  // wrapped: a stale record could look current again
    std::fill(m_words.begin(), m_words.end(), Shadow{});
    std::fill(m_warp_syncs.begin(), m_warp_syncs.end(), WarpSyncs{});
    m_sync_epoch = 0;
    m_epoch = 1;
  }
}

void RaceDetector::warp_synced(uint32_t warp, uint32_t members, uint32_t step) {
  enter_logged_reads();  // a read entered after it would be ordered as if after the sync
  m_sync_epoch = m_epoch;
  if (warp >= m_warp_syncs.size()) m_warp_syncs.resize(warp + 1);
  WarpSyncs& warp_syncs = m_warp_syncs[warp];
  if (warp_syncs.epoch != m_epoch) {
    warp_syncs.epoch = m_epoch;
    warp_syncs.syncs.clear();
  }
  std::erase_if(warp_syncs.syncs, [&](const auto& sync) { return (sync.second & ~members) == 0; });
  warp_syncs.syncs.emplace_back(step, members);
}

void RaceDetector::start_clocks() {
  if (m_clock_epoch == m_epoch) return;
  m_clock_epoch = m_epoch;
  m_clocks = {};
  m_released.clear();
}

void RaceDetector::release(uint32_t warp, uint32_t step, uint64_t address, bool continues) {
  start_clocks();
  Clock& released = m_released[address / k_word_bytes];
  if (!continues) released = {};
  Clock mine = m_clocks[warp % k_warp_size];
  mine[warp % k_warp_size] = step;
  for (size_t v = 0; v < released.size(); ++v) released[v] = std::max(released[v], mine[v]);
}

void RaceDetector::acquire(uint32_t warp, uint64_t address) {
  if (m_clock_epoch != m_epoch) return;  // nothing released this epoch
  auto it = m_released.find(address / k_word_bytes);
  if (it == m_released.end()) return;
  Clock& mine = m_clocks[warp % k_warp_size];
  for (size_t v = 0; v < mine.size(); ++v) mine[v] = std::max(mine[v], it->second[v]);
}

bool RaceDetector::ordered_by_release(const Accessor& other, uint32_t warp) const {
  if (m_clock_epoch != m_epoch) return false;
  const uint32_t acquired = m_clocks[warp % k_warp_size][warp_of(other.thread()) % k_warp_size];
  return acquired != 0 && acquired >= other.step;  // steps start at 1: 0 is nothing acquired
}

bool RaceDetector::synced_since(uint32_t warp, int lane, int other_lane, uint32_t step) const {
  if (warp >= m_warp_syncs.size() || m_warp_syncs[warp].epoch != m_epoch) return false;
  const uint32_t both = (1u << lane) | (1u << other_lane);
  const auto& syncs = m_warp_syncs[warp].syncs;
  for (auto sync = syncs.rbegin(); sync != syncs.rend() && sync->first > step; ++sync) {
    if ((sync->second & both) == both) return true;
  }
  return false;
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
  if (m_written_epoch != m_epoch) {
    if (!access.is_write && !access.is_atomic) {
      LoggedRead& read = m_read_log.emplace_back();
      read.warp = access.warp;
      read.lanes = access.lanes;
      read.bytes = access.bytes;
      read.pc = access.pc;
      read.step = access.step;
      uint64_t all_bits = 0;  // any address past 32 bits
      const LaneAddresses& addresses = *access.addresses;
      if (access.lanes == UINT32_MAX) {  // the usual whole warp, in one vectorised pass
        for (int lane = 0; lane < k_warp_size; ++lane) {
          all_bits |= addresses[lane];
          read.addresses[lane] = static_cast<uint32_t>(addresses[lane]);
        }
      } else {
        for (uint32_t rest = access.lanes; rest != 0; rest &= rest - 1) {
          const int lane = std::countr_zero(rest);
          all_bits |= addresses[lane];
          read.addresses[lane] = static_cast<uint32_t>(addresses[lane]);
        }
      }
      if (all_bits <= UINT32_MAX) return std::nullopt;
      m_read_log.pop_back();
    }
    enter_logged_reads();
  }
  return record_now(access);
}

void RaceDetector::enter_logged_reads() {
  if (m_written_epoch == m_epoch) return;
  m_written_epoch = m_epoch;
  LaneAddresses addresses{};
  for (const LoggedRead& read : m_read_log) {
    for (uint32_t rest = read.lanes; rest != 0; rest &= rest - 1) {
      const int lane = std::countr_zero(rest);
      addresses[lane] = read.addresses[lane];
    }
    // Nothing written yet when it was read: it completes no race now either.
    record_now({.warp = read.warp, .lanes = read.lanes, .addresses = &addresses, .bytes = read.bytes,
                .pc = read.pc, .step = read.step});
  }
  m_read_log.clear();
}

std::optional<RaceReport> RaceDetector::record_now(const SharedAccess& access) {
  Found found;
  Accessor self{access.pc, 0, access.step};  // each lane's record, once its thread is set
  // Every lane is recorded even after a race is found, so that later reports stay exact. A read
  // of the address the previous lane read (a broadcast) adds nothing: the warp is already
  // recorded as its reader, and any race it completes was found for that lane.
  // Two lanes of it are recorded, so that a write by either lane races with one of them.
  const bool plain_read = !access.is_write && !access.is_atomic;
  const bool plain_write = access.is_write && !access.is_atomic;
  // A store whose lanes share bytes waits to enter its lanes in the shadows until all are checked
  // (the usual store, every lane its own bytes, enters each lane at once).
  std::array<int, k_warp_size> sorted_lanes;
  m_defer_writes = plain_write && lanes_overlap(access, sorted_lanes);
  uint64_t previous_address = ~uint64_t{0};
  bool broadcast = false;
  m_pending_writes.clear();
  for (uint32_t mask = access.lanes; mask != 0; mask &= mask - 1) {
    const int lane = std::countr_zero(mask);
    const bool repeat = plain_read && (*access.addresses)[lane] == previous_address;
    if (repeat && broadcast) continue;
    broadcast = repeat;
    previous_address = (*access.addresses)[lane];
    self.set_thread(thread_of(access.warp, lane));
    record_lane(access, self, lane, repeat, found);
  }
  for (const PendingWrite& write : m_pending_writes) {
    enter_write(*write.shadow, write.writer, write.value, write.all_bytes);
  }
  auto report = [&](const Conflict& conflict) {
    return RaceReport{"race", access.pc, conflict.other.pc(), access.step, conflict.other.step, access.warp,
                      warp_of(conflict.other.thread()), conflict.lane, lane_of(conflict.other.thread()),
                      conflict.address, access.is_write || access.is_atomic, conflict.other_writes,
                      access.is_atomic, conflict.other_atomic, conflict.same_value};
  };
  if (found.race) return report(*found.race);
  if (m_defer_writes) {  // only lanes that share bytes can disagree on them
    if (std::optional<RaceReport> conflict = conflicting_write(access, sorted_lanes)) return conflict;
  }
  if (found.benign) return report(*found.benign);
  return std::nullopt;
}

bool RaceDetector::written_by_other_warp(uint64_t address, uint32_t warp) const {
  if (address >= m_shared_bytes) return false;
  const Shadow& word = m_words[address / k_word_bytes];
  if (word.epoch != m_epoch) return false;
  const Shadow& shadow = word.split ? m_bytes[address] : word;
  auto other_warp = [&](const Kind& kind) {  // first[1]: a warp other than first[0]'s
    return kind.first[0].used() && (warp_of(kind.first[0].thread()) != warp || kind.first[1].used());
  };
  return other_warp(shadow.writers) || other_warp(shadow.atomics) || shadow.read_then_written_in_warp;
}

// Adds `self` to the latest accesses of `kind`: latest[0] the latest, latest[1] the latest of
// latest[0]'s warp from a lane other than latest[0]'s (or none).
//
// Only the warp of first[0] (the first to access the word in this kind) is followed: once another
// warp has, any conflicting access races with the access of a warp other than its own, which the
// first slots name. And while no warp runs a bar.warp.sync, a thread already among the latest is
// left as it is: every later access is ordered against its old access exactly as against the new
// one (only the line a report names changes). So a tile many lanes of many warps read costs no
// store per read.
[[gnu::always_inline]] inline void RaceDetector::add_latest(Kind& kind, const Accessor& self) {
  std::array<Accessor, 2>& latest = kind.latest;
  if (warp_of(kind.first[0].thread()) != warp_of(self.thread())) return;  // first[0]: set by now
  if (latest[0].used() && m_sync_epoch != m_epoch &&
      (latest[0].thread() == self.thread() || (latest[1].used() && latest[1].thread() == self.thread()))) {
    return;
  }
  if (latest[0].used() && warp_of(latest[0].thread()) == warp_of(self.thread())) {
    if (latest[0].thread() != self.thread()) latest[1] = latest[0];
  } else {
    latest[1] = Accessor{};
  }
  latest[0] = self;
}

[[gnu::always_inline]] inline const RaceDetector::Accessor* RaceDetector::unordered_in_warp(const Kind& kind,
                                                                                         const Accessor& self) const {
  const uint32_t warp = warp_of(self.thread());
  const int lane = lane_of(self.thread());
  for (const Accessor& other : kind.latest) {  // both of one warp, latest[1] the older
    if (!other.used() || warp_of(other.thread()) != warp) return nullptr;
    if (other.thread() == self.thread() || other.step == self.step) continue;  // its own, or the same instruction
    if (!synced_since(warp, lane, lane_of(other.thread()), other.step)) return &other;
  }
  return nullptr;
}

// A plain store's value enters the bytes every store agreed on, and its writer the latest ones.
inline void RaceDetector::enter_write(Shadow& shadow, const Accessor& writer, std::optional<uint32_t> value,
                                      uint32_t all_bytes) {
  const uint32_t changed = value ? (nonzero_bytes(*value ^ shadow.stored) | ~shadow.agreed) & all_bytes : all_bytes;
  shadow.agreed = static_cast<uint8_t>(!shadow.writers.latest[0].used() ? (value ? all_bytes : 0)
                                                                        : shadow.agreed & ~changed);
  shadow.stored = value.value_or(0);
  add_latest(shadow.writers, writer);
}

// Puts the access's lanes in `lanes` by address (ties by lane, the rest unset) and says whether
// two of them touch a byte in common. Sorted by address, the lanes covering any one byte are
// consecutive (all ranges have the same length), so comparing neighbours is enough.
bool RaceDetector::lanes_overlap(const SharedAccess& access, std::array<int, k_warp_size>& lanes) {
  const LaneAddresses& addresses = *access.addresses;
  int count = 0;
  for (uint32_t mask = access.lanes; mask != 0; mask &= mask - 1) lanes[count++] = std::countr_zero(mask);
  auto by_address = [&](int a, int b) {
    return addresses[a] < addresses[b] || (addresses[a] == addresses[b] && a < b);
  };
  if (!std::is_sorted(lanes.begin(), lanes.begin() + count, by_address)) {
    std::sort(lanes.begin(), lanes.begin() + count, by_address);
  }
  for (int i = 0; i + 1 < count; ++i) {
    if (addresses[lanes[i + 1]] - addresses[lanes[i]] < access.bytes) return true;
  }
  return false;
}

// The second lane of a broadcast read: the other warps and the other lanes but the first lane were
// checked for that lane, and the first slots hold it; what is left is the first lane's own writes.
[[gnu::always_inline]] inline void RaceDetector::check_repeated_read(Shadow& shadow, const Accessor& self, int lane,
                                                                     uint64_t address, Found& found) {
  if (!found.race && (shadow.writers.latest[0].used() || shadow.atomics.latest[0].used())) {
    const Accessor* writer = unordered_in_warp(shadow.writers, self);
    const Accessor* atomic = writer == nullptr ? unordered_in_warp(shadow.atomics, self) : nullptr;
    if (writer != nullptr) found.race = Conflict{*writer, lane, address, true, false, false};
    if (atomic != nullptr) found.race = Conflict{*atomic, lane, address, true, true, false};
  }
  add_latest(shadow.readers, self);
}

// Checks the access to the `granule_bytes` (4 or 1) at `address` against what `shadow` saw this
// epoch, keeping the first conflict in `found`, then adds it there.
// Inlined into record_lane: a call per lane and word costs more than the checks.
[[gnu::always_inline]] inline void RaceDetector::check_and_record(Shadow& shadow, const SharedAccess& access,
                                                                  const Accessor& self, int lane, uint64_t address,
                                                                  uint32_t granule_bytes, Found& found) {
  // The earlier access of `kind` made by a warp other than this one, if any.
  // One the warp acquired after it was released does not count (it may hide a later access of
  // the same warp: only kernels that acquire and release can miss a race by that).
  auto other_warp = [&](const Kind& kind) -> const Accessor* {
    const std::array<Accessor, 2>& slots = kind.first;
    if (!slots[0].used()) return nullptr;
    const Accessor* other = warp_of(slots[0].thread()) != access.warp ? &slots[0]
                            : slots[1].used()                         ? &slots[1]  // of another warp
                                                                      : nullptr;
    return other != nullptr && ordered_by_release(*other, access.warp) ? nullptr : other;
  };
  auto add_first = [&](Kind& kind) {
    std::array<Accessor, 2>& slots = kind.first;
    if (!slots[0].used()) {
      slots[0] = self;
    } else if (!slots[1].used() && warp_of(slots[0].thread()) != access.warp) {
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

  // First the other warps (the first of their accesses), then the other lanes of this warp (the
  // latest of theirs, which are the most likely not to be ordered by a __syncwarp()).
  auto check = [&](const Accessor* writer, const Accessor* reader, const Accessor* atomic) {
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
  };
  if (!found.race) {
    check(other_warp(shadow.writers), other_warp(shadow.readers), other_warp(shadow.atomics));
  }
  // Another lane of this warp: only where a conflicting kind has latest accesses (the common case,
  // a tile read between barriers, costs two tests).
  const bool writes = access.is_write || access.is_atomic;
  if (!found.race && (shadow.writers.latest[0].used() || (!access.is_atomic && shadow.atomics.latest[0].used()) ||
                      (writes && shadow.readers.latest[0].used()))) {
    const Accessor* writer = unordered_in_warp(shadow.writers, self);
    const Accessor* reader = writes ? unordered_in_warp(shadow.readers, self) : nullptr;
    const Accessor* atomic = access.is_atomic ? nullptr : unordered_in_warp(shadow.atomics, self);
    if (writer != nullptr || reader != nullptr || atomic != nullptr) {
      check(writer, reader, atomic);
      if (found.race && !found.race->other_writes) shadow.read_then_written_in_warp = true;  // with a read
    }
  }

  if (access.is_atomic) {
    add_first(shadow.atomics);
    add_latest(shadow.atomics, self);
  } else if (access.is_write) {
    add_first(shadow.writers);
    if (m_defer_writes) {
      m_pending_writes.push_back({&shadow, self, value, all_bytes});
    } else {
      enter_write(shadow, self, value, all_bytes);
    }
  } else {
    add_first(shadow.readers);
    add_latest(shadow.readers, self);
  }
}

void RaceDetector::record_lane(const SharedAccess& access, const Accessor& self, int lane, bool repeat,
                               Found& found) {
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
      if (repeat) {
        check_repeated_read(granules[i], self, lane, address + i, found);
      } else {
        check_and_record(granules[i], access, self, lane, address + i, granule_bytes, found);
      }
    }
  }
}

// Lanes of one store whose ranges overlap and disagree on a byte; `lanes` as lanes_overlap sorted
// them.
std::optional<RaceReport> RaceDetector::conflicting_write(const SharedAccess& access,
                                                          const std::array<int, k_warp_size>& lanes) const {
  if (access.values_low == nullptr) return std::nullopt;
  const LaneAddresses& addresses = *access.addresses;
  const int count = std::popcount(access.lanes);
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
