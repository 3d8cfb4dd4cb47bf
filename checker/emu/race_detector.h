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
  uint32_t bytes = 0;           // per lane
  bool is_write = false;
  bool is_atomic = false;       // atom/red: a read and a write that other atomics do not race with
  uint32_t pc = 0;              // instruction index, for the report
  // For plain writes: the bytes each lane stores, as they land in memory (little-endian): bytes
  // 0-7 in values_low, 8-15 in values_high. Null: the conflicting-write check is skipped.
  const std::array<uint64_t, k_warp_size>* values_low = nullptr;
  const std::array<uint64_t, k_warp_size>* values_high = nullptr;
};

struct RaceReport {
  std::string kind;      // "race" or "conflicting-write"
  uint32_t pc = 0;       // the later access
  uint32_t other_pc = 0; // the earlier access it races with
  uint32_t warp = 0, other_warp = 0;
  int lane = 0, other_lane = 0;
  uint64_t address = 0;  // shared byte offset
  bool is_write = false, other_is_write = false;    // atomics count as writes
  bool is_atomic = false, other_is_atomic = false;
};

class RaceDetector {
 public:
  // A new block: forget everything; `shared_bytes` is the block's shared memory size.
  void start_block(uint32_t shared_bytes);
  // Every thread of the block passed a barrier: accesses before it cannot race with later ones.
  void barrier_released();
  // Records the access; returns the first race it completes, if any. Bytes past `shared_bytes`
  // are ignored (the emulator reports those accesses as out of bounds).
  std::optional<RaceReport> record(const SharedAccess& access);

 private:
  // One thread's access to one byte in the current epoch; thread == k_nobody when unused.
  struct Accessor {
    uint32_t pc = 0;
    uint32_t thread = k_nobody;  // warp * k_warp_size + lane
  };
  // What one byte saw since the last barrier: the last plain writer, and of the plain readers and
  // of the atomics, the first one and the first one from another warp (enough to name a warp
  // other than any given one).
  struct ByteShadow {
    uint32_t epoch = 0;  // stale (and so empty) unless equal to m_epoch
    Accessor writer;
    std::array<Accessor, 2> readers;
    std::array<Accessor, 2> atomics;
  };
  static constexpr uint32_t k_nobody = UINT32_MAX;

  std::optional<RaceReport> record_byte(const SharedAccess& access, int lane, uint64_t address);
  std::optional<RaceReport> conflicting_write(const SharedAccess& access) const;
  void next_epoch();

  std::vector<ByteShadow> m_shadow;  // one per shared byte
  uint32_t m_epoch = 1;              // bumped at every barrier release and block start
};

}  // namespace tilecamp::emu
