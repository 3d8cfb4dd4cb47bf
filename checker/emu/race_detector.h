// Finds shared-memory races inside one block: two threads touching the same bytes between two
// barriers where at least one writes (read-after-write, write-after-read, write-after-write),
// and lanes of one warp instruction writing different values to the same address.
//
// The emulator runs one warp at a time until it blocks, so a race never changes the emulator's
// own result; on a GPU the same kernel's result would depend on timing. KernelRun calls this
// for every shared access, at every bar.warp.sync and at every barrier release and block start.
//
// Two threads race when they are of different warps, or of one warp (different lanes) at
// different instructions with no bar.warp.sync (__syncwarp) naming both lanes between them: since
// Volta the lanes of a warp do not run in lockstep. The lanes of one instruction do run together,
// so they never race with each other (except a store whose lanes put different values in one
// byte, a conflicting write). Atomics do not race with atomics, but do with plain loads and stores.
#pragma once

#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <optional>
#include <string>
#include <unordered_map>
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
  //
  // A read races only with a write or an atomic, so a plain read in an epoch where nothing has
  // been written yet (the usual tile read between two barriers) completes no race: it is only
  // logged, and entered in the shadows if and when the epoch's first write or bar.warp.sync
  // comes. An epoch that only reads, as the loop over a tile does, never enters its reads.
  std::optional<RaceReport> record(const SharedAccess& access);
  // The lanes `members` of `warp` executed a bar.warp.sync (__syncwarp) at `step` (the warp's
  // SharedAccess::step): their accesses before it no longer race with each other's after it.
  void warp_synced(uint32_t warp, uint32_t members, uint32_t step);
  // Since the last barrier, a warp other than `warp` wrote the byte at `address` (a store, an
  // atomic or a cp.async), or a lane wrote it racing with an earlier read by another lane of its
  // warp: a read of it by `warp` in that time races with the write (and was reported as a race).
  bool written_by_other_warp(uint64_t address, uint32_t warp) const;

  // Acquire and release through one shared word (the memory model's synchronizes-with), as
  // cooperative groups' tile barriers and hand-written flags use them: a warp that acquires what a
  // release stored has everything the releasing warp did before it ordered before what it does
  // next. Tracked per warp (a vector clock of steps), so any lane's acquire counts for its warp.
  // `continues`: a read-modify-write, which adds to what the word released before (a release
  // sequence) rather than replacing it. A plain store to the word ends what it released.
  void release(uint32_t warp, uint32_t step, uint64_t address, bool continues);
  void acquire(uint32_t warp, uint64_t address);
  void plain_stores(const LaneAddresses& addresses, uint32_t lanes) {
    if (m_released.empty() || m_clock_epoch != m_epoch) return;  // the usual store: nothing released
    for (uint32_t rest = lanes; rest != 0; rest &= rest - 1) m_released.erase(addresses[std::countr_zero(rest)] / k_word_bytes);
  }

 private:
  // One thread's access in the current epoch: its instruction and its thread (warp * k_warp_size +
  // lane, below 1024; the instruction below 2^22) in one word, k_nobody when unused; 8 bytes, as a
  // shadow holds 12 of them.
  struct Accessor {
    static constexpr uint32_t k_thread_bits = 10;
    uint32_t pc_thread = k_nobody;
    uint32_t step = 0;  // SharedAccess::step
    Accessor() = default;
    static constexpr uint32_t k_max_pc = (1u << (32 - k_thread_bits)) - 2;  // k_nobody stays unused
    // An instruction past k_max_pc (a kernel of over four million PTX instructions) is recorded as
    // k_max_pc: a report may then name the wrong line, never miss the race.
    Accessor(uint32_t pc, uint32_t thread, uint32_t step_)
        : pc_thread(std::min(pc, k_max_pc) << k_thread_bits | thread), step(step_) {}
    bool used() const { return pc_thread != k_nobody; }
    uint32_t pc() const { return pc_thread >> k_thread_bits; }
    uint32_t thread() const { return pc_thread & ((1u << k_thread_bits) - 1); }
    void set_thread(uint32_t thread) { pc_thread = (pc_thread & ~((1u << k_thread_bits) - 1)) | thread; }
  };
  // The accesses of one kind (plain writes, plain reads or atomics) one word or byte saw this
  // epoch. Between warps: the first one and the first one from another warp (enough to name a warp
  // other than any given one). Within the warp of the first one: the latest one and the latest one
  // from another lane (enough to name, for any lane, the latest access of another lane).
  struct Kind {
    std::array<Accessor, 2> first;
    std::array<Accessor, 2> latest;
  };
  // What one word (or one byte) saw since the last barrier, and which bytes every plain store
  // agreed on.
  struct Shadow {
    uint32_t epoch = 0;  // words: stale (and so empty) unless equal to m_epoch
    bool split = false;  // words: touched by a sub-word access this epoch; m_bytes holds the state
    bool read_then_written_in_warp = false;  // a write raced with another lane's earlier read
    uint8_t agreed = 0;  // bit b: every plain store so far put the same value in byte b...
    uint32_t stored = 0; // ...namely byte b of this
    Kind writers;
    Kind readers;
    Kind atomics;
  };
  // The bar.warp.sync a warp executed this epoch, oldest first; one whose members are all in a
  // later one's is dropped (the later one orders everything it did).
  struct WarpSyncs {
    uint32_t epoch = 0;  // stale (and so empty) unless equal to m_epoch
    std::vector<std::pair<uint32_t, uint32_t>> syncs;  // (step, members)
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

  using Clock = std::array<uint32_t, k_warp_size>;  // per warp: the step of its last ordered access
  // `other` happens before what `warp` does now, through an acquire of what it released.
  bool ordered_by_release(const Accessor& other, uint32_t warp) const;
  void start_clocks();

  void record_lane(const SharedAccess& access, const Accessor& self, int lane, bool repeat, Found& found);
  void check_repeated_read(Shadow& shadow, const Accessor& self, int lane, uint64_t address, Found& found);
  void check_and_record(Shadow& shadow, const SharedAccess& access, const Accessor& self, int lane,
                        uint64_t address, uint32_t granule_bytes, Found& found);
  // Of `kind`'s latest accesses, one by another lane of `self`'s warp that no bar.warp.sync (nor
  // the instruction itself) orders against `self`, if any.
  const Accessor* unordered_in_warp(const Kind& kind, const Accessor& self) const;
  // A bar.warp.sync naming both lanes ran in `warp` after step `step`.
  bool synced_since(uint32_t warp, int lane, int other_lane, uint32_t step) const;
  void add_latest(Kind& kind, const Accessor& self);
  std::optional<RaceReport> conflicting_write(const SharedAccess& access,
                                             const std::array<int, k_warp_size>& lanes) const;
  static bool lanes_overlap(const SharedAccess& access, std::array<int, k_warp_size>& lanes);
  void enter_write(Shadow& shadow, const Accessor& writer, std::optional<uint32_t> value, uint32_t all_bytes);
  Shadow& current_word(uint64_t word);
  void split(Shadow& word_shadow, uint64_t word);
  void next_epoch();

  // Whole-word accesses (the usual 32/64/128-bit ones) are tracked per word; a word that a
  // sub-word access touches is split into per-byte shadows until the next barrier.
  uint32_t m_shared_bytes = 0;
  std::vector<Shadow> m_words;
  std::vector<Shadow> m_bytes;  // one per byte, allocated on the first split
  uint32_t m_epoch = 1;         // bumped at every barrier release and block start
  std::vector<WarpSyncs> m_warp_syncs;  // by warp index
  uint32_t m_sync_epoch = 0;            // m_epoch once a warp ran a bar.warp.sync in it
  // A plain store's lanes, entered in the latest writers and the agreed bytes once all its lanes
  // are checked: each lane is checked against what the warp did before the store, not the store.
  struct PendingWrite {
    Shadow* shadow;
    Accessor writer;
    std::optional<uint32_t> value;
    uint32_t all_bytes;
  };
  std::vector<PendingWrite> m_pending_writes;
  // The plain reads of this epoch not yet entered in the shadows (while m_written_epoch !=
  // m_epoch): their byte offsets, which fit 32 bits in any shared window.
  struct LoggedRead {
    uint32_t warp, lanes, bytes, pc, step;
    std::array<uint32_t, k_warp_size> addresses;
  };
  std::vector<LoggedRead> m_read_log;
  uint32_t m_written_epoch = 0;  // m_epoch once a write, an atomic or a bar.warp.sync came in it
  std::optional<RaceReport> record_now(const SharedAccess& access);
  // Enters the logged reads, in order, and marks the epoch written: from now on every access is
  // entered as it comes.
  void enter_logged_reads();
  // Acquire and release this epoch: m_clocks[w][v] is the step of warp v up to which warp w has
  // acquired v's accesses; m_released, what a word's releases carry. Both stale unless
  // m_clock_epoch == m_epoch (the usual kernel never acquires and never looks at them).
  uint32_t m_clock_epoch = 0;
  std::array<Clock, k_warp_size> m_clocks{};
  std::unordered_map<uint64_t, Clock> m_released;
  bool m_defer_writes = false;  // this store's lanes share bytes: its writes go to m_pending_writes
};

}  // namespace tilecamp::emu
