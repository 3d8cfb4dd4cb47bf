// Finds shared-memory races inside one block: two warps touching the same bytes between two
// barriers where at least one writes (read-after-write, write-after-read, write-after-write),
// and lanes of one warp instruction writing different values to the same address.
//
// The emulator runs one warp at a time until it blocks, so a race never changes the emulator's
// own result; on a GPU the same kernel's result would depend on timing. KernelRun calls this
// for every shared access and at every barrier release and block start.
//
// Lanes of one warp are taken to run in lockstep, so their accesses never race with each other
// (except a store whose lanes put different values in one byte). Atomics do not race with
// atomics, but do with plain loads and stores of other warps.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "checker/emu/access_rules.h"

namespace tilecamp::emu {

struct SharedAccess {
  uint32_t warp = 0;            // warp index in the block
  uint32_t lanes = 0;           // active lanes
  const LaneAddresses* addresses = nullptr;  // shared-window byte offsets, per lane
  uint32_t bytes = 0;           // per lane (1 to 16); accesses aligned to 4 bytes take the fast path
  bool is_write = false;
  bool is_atomic = false;       // atom/red: read and write (is_write is then ignored); atomics of
                                // different warps do not race with each other
  uint32_t pc = 0;              // instruction index, for the report
  // The warp's instructions since the barrier that began the epoch: which of two racing accesses
  // comes first in program order, and so which barrier is missing between them.
  uint32_t step = 0;
  // For plain writes: the bytes each lane stores, as they land in memory (little-endian): bytes
  // 0-7 in values_low, 8-15 in values_high. Null: the conflicting-write check is skipped.
  const std::array<uint64_t, k_warp_size>* values_low = nullptr;
  const std::array<uint64_t, k_warp_size>* values_high = nullptr;
};

struct RaceReport {
  std::string kind;      // "race" or "conflicting-write"
  uint32_t pc = 0;       // the access that completed the race
  uint32_t other_pc = 0; // the access the emulator ran before it
  uint32_t step = 0, other_step = 0;  // their SharedAccess::step: their order in the program
  uint32_t warp = 0, other_warp = 0;
  int lane = 0, other_lane = 0;
  uint64_t address = 0;  // shared byte offset
  bool is_write = false, other_is_write = false;    // atomics count as writes
  bool is_atomic = false, other_is_atomic = false;
  // Two plain stores of identical bytes (every warp setting `found = true`): still a race by the
  // CUDA memory model, but harmless on today's GPUs. Reported only when the access has no other
  // race and no conflicting write.
  bool same_value = false;
};

class RaceDetector {
 public:
  // A new block: forget everything; `shared_bytes` is the block's shared memory size.
  void start_block(uint32_t shared_bytes);
  // Every thread of the block passed a barrier: accesses before it cannot race with later ones.
  // Also call it when a named barrier with a thread count releases only some warps: treating it
  // as a whole-block barrier can hide a race between warps outside it, never invent one.
  void barrier_released();
  // Records the access; returns the first race it completes, if any. Bytes past `shared_bytes`
  // are ignored (the emulator reports those accesses as out of bounds).
  std::optional<RaceReport> record(const SharedAccess& access);
  // Since the last barrier, a warp other than `warp` wrote the byte at `address` (a store, an
  // atomic or a cp.async): a read of it by `warp` in that time races with the write.
  bool written_by_other_warp(uint64_t address, uint32_t warp) const;

 private:
  // One thread's access in the current epoch; pc == k_nobody when unused.
  struct Accessor {
    uint32_t pc = k_nobody;
    uint32_t thread = 0;  // warp * k_warp_size + lane
    uint32_t step = 0;    // SharedAccess::step
    bool used() const { return pc != k_nobody; }
  };
  // What one word (or one byte) saw since the last barrier: of the plain writers, of the plain
  // readers and of the atomics, the first one and the first one from another warp (enough to name
  // a warp other than any given one); and which bytes every plain store agreed on.
  struct Shadow {
    uint32_t epoch = 0;  // words: stale (and so empty) unless equal to m_epoch
    bool split = false;  // words: touched by a sub-word access this epoch; m_bytes holds the state
    uint8_t agreed = 0;  // bit b: every plain store so far put the same value in byte b...
    uint32_t stored = 0; // ...namely byte b of this
    std::array<Accessor, 2> writers;
    std::array<Accessor, 2> readers;
    std::array<Accessor, 2> atomics;
  };
  // A race found on one word or byte, before it becomes a RaceReport (which the hot path avoids).
  struct Conflict {
    Accessor other;
    int lane = 0;
    uint64_t address = 0;
    bool other_writes = false, other_atomic = false, same_value = false;
  };
  // The first race of an access, and the first same-value write-after-write in case there is none.
  struct Found {
    std::optional<Conflict> race, benign;
  };
  static constexpr uint32_t k_nobody = UINT32_MAX;
  static constexpr uint32_t k_word_bytes = 4;

  void record_lane(const SharedAccess& access, const Accessor& self, int lane, Found& found);
  static void check_and_record(Shadow& shadow, const SharedAccess& access, const Accessor& self, int lane,
                               uint64_t address, uint32_t granule_bytes, Found& found);
  std::optional<RaceReport> conflicting_write(const SharedAccess& access) const;
  Shadow& current_word(uint64_t word);
  void split(Shadow& word_shadow, uint64_t word);
  void next_epoch();

  // Whole-word accesses (the usual 32/64/128-bit ones) are tracked per word; a word that a
  // sub-word access touches is split into per-byte shadows until the next barrier.
  uint32_t m_shared_bytes = 0;
  std::vector<Shadow> m_words;
  std::vector<Shadow> m_bytes;  // one per byte, allocated on the first split
  uint32_t m_epoch = 1;         // bumped at every barrier release and block start
};

}  // namespace tilecamp::emu
