// The shared-memory race detector on hand-made warp accesses, as KernelRun would feed it.
#include <doctest/doctest.h>

#include <algorithm>
#include <random>
#include <vector>

#include "checker/emu/race_detector.h"

namespace tilecamp::emu {
namespace {

constexpr uint32_t k_all = 0xffffffffu;
constexpr uint32_t k_shared_bytes = 4096;

// One warp instruction's shared access; owns the addresses and values SharedAccess points to.
struct Access {
  SharedAccess fields;
  LaneAddresses addresses{};
  std::array<uint64_t, k_warp_size> low{}, high{};

  Access(uint32_t warp, uint32_t pc, bool is_write, uint32_t bytes) {
    fields.warp = warp;
    fields.pc = pc;
    fields.is_write = is_write;
    fields.bytes = bytes;
    fields.lanes = k_all;
  }
  // Lane i at base + i * stride, storing i (a different value per lane).
  Access& at(uint64_t base, uint64_t stride) {
    for (int lane = 0; lane < k_warp_size; ++lane) {
      addresses[lane] = base + lane * stride;
      low[lane] = high[lane] = static_cast<uint64_t>(lane);
    }
    return *this;
  }
  Access& storing(uint64_t value) {
    low.fill(value);
    high.fill(value);
    return *this;
  }
  Access& atomic() {
    fields.is_atomic = true;
    return *this;
  }
  Access& at_step(uint32_t step) {  // the warp's instructions since the barrier
    fields.step = step;
    return *this;
  }
  // What KernelRun passes: pointers into this object, so taken last.
  SharedAccess shared() const {
    SharedAccess access = fields;
    access.addresses = &addresses;
    if (access.is_write && !access.is_atomic) {
      access.values_low = &low;
      access.values_high = &high;
    }
    return access;
  }
};

Access load(uint32_t warp, uint32_t pc, uint32_t bytes = 4) { return Access(warp, pc, false, bytes); }
Access store(uint32_t warp, uint32_t pc, uint32_t bytes = 4) { return Access(warp, pc, true, bytes); }

RaceDetector fresh_detector() {
  RaceDetector detector;
  detector.start_block(k_shared_bytes);
  return detector;
}

TEST_CASE("a load by one warp of what another warp stored since the barrier is a race") {
  RaceDetector detector = fresh_detector();
  CHECK_FALSE(detector.record(store(0, 7).at(0, 4).shared()));
  // warp 1 lane 0 reads the word warp 0 lane 2 wrote (bytes 8-11)
  const auto race = detector.record(load(1, 9).at(8, 4).shared());
  REQUIRE(race);
  CHECK(race->kind == "race");
  CHECK(race->pc == 9);
  CHECK(race->other_pc == 7);
  CHECK(race->warp == 1);
  CHECK(race->other_warp == 0);
  CHECK(race->lane == 0);
  CHECK(race->other_lane == 2);
  CHECK(race->address == 8);
  CHECK_FALSE(race->is_write);
  CHECK(race->other_is_write);
}

TEST_CASE("a store by one warp over what another warp loaded since the barrier is a race") {
  RaceDetector detector = fresh_detector();
  CHECK_FALSE(detector.record(load(2, 3).at(0, 4).shared()));
  const auto race = detector.record(store(5, 4).at(64, 4).shared());
  REQUIRE(race);
  CHECK(race->warp == 5);
  CHECK(race->other_warp == 2);
  CHECK(race->other_lane == 16);
  CHECK(race->address == 64);
  CHECK(race->is_write);
  CHECK_FALSE(race->other_is_write);
}

TEST_CASE("a store over a word several warps loaded names a warp other than the storing one") {
  RaceDetector detector = fresh_detector();
  CHECK_FALSE(detector.record(load(0, 1).at(0, 0).shared()));
  CHECK_FALSE(detector.record(load(1, 2).at(0, 0).shared()));
  const auto race = detector.record(store(0, 3).at(0, 0).storing(1).shared());
  REQUIRE(race);
  CHECK(race->other_warp == 1);
  CHECK(race->other_pc == 2);
}

TEST_CASE("two warps storing to the same word between barriers is a race") {
  RaceDetector detector = fresh_detector();
  CHECK_FALSE(detector.record(store(0, 1).at(0, 4).shared()));
  const auto race = detector.record(store(1, 1).at(0, 4).storing(99).shared());
  REQUIRE(race);
  CHECK(race->is_write);
  CHECK(race->other_is_write);
  CHECK(race->other_warp == 0);
  CHECK_FALSE(race->same_value);
}

TEST_CASE("two warps storing the same value to one word is a race marked same-value") {
  RaceDetector detector = fresh_detector();
  CHECK_FALSE(detector.record(store(0, 1).at(16, 0).storing(1).shared()));  // found = true
  const auto race = detector.record(store(1, 2).at(16, 0).storing(1).shared());
  REQUIRE(race);
  CHECK(race->same_value);
  CHECK(race->address == 16);
}

TEST_CASE("a real race is reported before a same-value store by an earlier lane") {
  RaceDetector detector = fresh_detector();
  Access first = store(0, 1).storing(1);
  first.fields.lanes = 0b11u;
  first.addresses[1] = 4;
  CHECK_FALSE(detector.record(first.shared()));
  Access second = store(1, 2).storing(1);
  second.fields.lanes = 0b11u;
  second.addresses[1] = 4;
  second.low[1] = 2;  // lane 1 stores 2 where warp 0 stored 1
  const auto race = detector.record(second.shared());
  REQUIRE(race);
  CHECK_FALSE(race->same_value);
  CHECK(race->lane == 1);
  CHECK(race->address == 4);
}

TEST_CASE("lanes of one warp touching only their own words never race") {
  RaceDetector detector = fresh_detector();
  CHECK_FALSE(detector.record(store(3, 1).at(0, 4).at_step(1).shared()));
  CHECK_FALSE(detector.record(load(3, 2).at(0, 4).at_step(2).shared()));
  CHECK_FALSE(detector.record(store(3, 3).at(0, 4).at_step(3).shared()));
  CHECK_FALSE(detector.record(load(3, 4).at(0, 4).at_step(4).atomic().shared()));
}

// One lane of warp `warp` at `address`: the lanes of an access as KernelRun passes them.
Access one_lane(Access access, int lane, uint64_t address, uint32_t step) {
  access.addresses[lane] = address;
  access.fields.lanes = 1u << lane;
  return access.at_step(step);
}

TEST_CASE("a load by one lane of what another lane of its warp stored at an earlier instruction is a race") {
  RaceDetector detector = fresh_detector();
  CHECK_FALSE(detector.record(store(2, 7).at(0, 4).at_step(3).shared()));  // lane i writes word i
  // lane 0 reads word 1, which lane 1 wrote
  const auto race = detector.record(one_lane(load(2, 9), 0, 4, 5).shared());
  REQUIRE(race);
  CHECK(race->kind == "race");
  CHECK(race->warp == 2);
  CHECK(race->other_warp == 2);
  CHECK(race->lane == 0);
  CHECK(race->other_lane == 1);
  CHECK(race->pc == 9);
  CHECK(race->other_pc == 7);
  CHECK(race->step == 5);
  CHECK(race->other_step == 3);
  CHECK(race->address == 4);
  CHECK_FALSE(race->is_write);
  CHECK(race->other_is_write);
  CHECK_FALSE(race->same_value);
}

TEST_CASE("a store by one lane over what another lane of its warp loaded is a race, and so is another's store") {
  RaceDetector detector = fresh_detector();
  CHECK_FALSE(detector.record(one_lane(load(0, 1), 5, 16, 1).shared()));
  const auto war = detector.record(one_lane(store(0, 2), 6, 16, 2).shared());
  REQUIRE(war);
  CHECK(war->lane == 6);
  CHECK(war->other_lane == 5);
  CHECK_FALSE(war->other_is_write);
  const auto waw = detector.record(one_lane(store(0, 3), 7, 16, 3).storing(99).shared());
  REQUIRE(waw);
  CHECK(waw->other_lane == 6);
  CHECK(waw->other_is_write);
  CHECK_FALSE(waw->same_value);
}

TEST_CASE("a __syncwarp() naming both lanes between their accesses orders them") {
  RaceDetector detector = fresh_detector();
  CHECK_FALSE(detector.record(store(1, 1).at(0, 4).at_step(1).shared()));
  detector.warp_synced(1, k_all, 2);
  CHECK_FALSE(detector.record(load(1, 3).at(4, 4).at_step(3).shared()));  // lane i reads word i + 1
  detector.warp_synced(1, k_all, 4);
  CHECK_FALSE(detector.record(store(1, 5).at(4, 4).at_step(5).shared()));  // and writes over it
  // A __syncwarp() of another warp orders nothing in this one.
  detector.warp_synced(0, k_all, 6);
  CHECK(detector.record(load(1, 7).at(0, 4).at_step(7).shared()));
}

TEST_CASE("a __syncwarp() whose mask leaves out one of the lanes does not order them") {
  RaceDetector detector = fresh_detector();
  CHECK_FALSE(detector.record(one_lane(store(0, 1), 0, 0, 1).shared()));
  detector.warp_synced(0, 0x0000ffffu, 2);
  CHECK_FALSE(detector.record(one_lane(load(0, 3), 15, 0, 3).shared()));  // lane 15 is in the mask
  const auto race = detector.record(one_lane(load(0, 4), 16, 0, 4).shared());  // lane 16 is not
  REQUIRE(race);
  CHECK(race->lane == 16);
  CHECK(race->other_lane == 0);
  CHECK(race->other_pc == 1);
}

TEST_CASE("a __syncwarp() of two lanes orders those two only") {
  RaceDetector detector = fresh_detector();
  CHECK_FALSE(detector.record(one_lane(store(0, 1), 0, 0, 1).shared()));
  detector.warp_synced(0, 0x00010001u, 2);  // lanes 0 and 16
  CHECK_FALSE(detector.record(one_lane(load(0, 3), 16, 0, 3).shared()));
  const auto race = detector.record(one_lane(load(0, 4), 1, 0, 4).shared());
  REQUIRE(race);
  CHECK(race->lane == 1);
  CHECK(race->other_lane == 0);
}

TEST_CASE("a __syncwarp() before both accesses, or one between two other lanes, orders nothing") {
  RaceDetector detector = fresh_detector();
  detector.warp_synced(0, k_all, 1);
  CHECK_FALSE(detector.record(one_lane(store(0, 2), 3, 8, 2).shared()));
  detector.warp_synced(0, 0x3u, 3);  // lanes 0 and 1
  CHECK(detector.record(one_lane(load(0, 4), 4, 8, 4).shared()));
}

TEST_CASE("atomics of two lanes of a warp do not race, an atomic and another lane's load do") {
  RaceDetector detector = fresh_detector();
  CHECK_FALSE(detector.record(one_lane(load(0, 1), 2, 32, 1).atomic().shared()));
  CHECK_FALSE(detector.record(one_lane(load(0, 2), 3, 32, 2).atomic().shared()));
  CHECK_FALSE(detector.record(load(0, 3).at(32, 0).at_step(3).atomic().shared()));  // every lane, one word
  const auto race = detector.record(one_lane(load(0, 4), 2, 32, 4).shared());
  REQUIRE(race);
  CHECK(race->other_is_atomic);
  CHECK(race->other_lane == 31);  // the latest atomic of another lane
}

TEST_CASE("lanes of one instruction reading or storing the same value to one word do not race") {
  RaceDetector detector = fresh_detector();
  CHECK_FALSE(detector.record(store(0, 1).at(0, 0).storing(5).at_step(1).shared()));
  CHECK_FALSE(detector.record(load(0, 2).at(64, 0).at_step(2).shared()));
  CHECK_FALSE(detector.record(load(0, 2).at(64, 0).at_step(3).shared()));
}

TEST_CASE("a store by any lane after a broadcast load of the word races with another lane's load") {
  for (int writer : {0, 1, 2, 31}) {
    CAPTURE(writer);
    RaceDetector detector = fresh_detector();
    CHECK_FALSE(detector.record(load(0, 1).at(8, 0).at_step(1).shared()));  // every lane reads word 2
    const auto race = detector.record(one_lane(store(0, 2), writer, 8, 2).shared());
    REQUIRE(race);
    CHECK(race->other_lane != writer);
  }
}

TEST_CASE("a store of two lanes over what one of them stored before races for the other") {
  RaceDetector detector = fresh_detector();
  CHECK_FALSE(detector.record(one_lane(store(0, 1).storing(1), 0, 0, 1).shared()));
  Access both = store(0, 2).at(0, 0).storing(2).at_step(2);
  both.fields.lanes = 0x3u;
  const auto race = detector.record(both.shared());
  REQUIRE(race);
  CHECK(race->lane == 1);
  CHECK(race->other_lane == 0);
  CHECK(race->other_step == 1);
}

TEST_CASE("two lanes of a warp storing the same value at different instructions are a same-value race") {
  RaceDetector detector = fresh_detector();
  CHECK_FALSE(detector.record(one_lane(store(0, 1).storing(1), 0, 0, 1).shared()));
  const auto race = detector.record(one_lane(store(0, 2).storing(1), 1, 0, 2).shared());
  REQUIRE(race);
  CHECK(race->same_value);
}

TEST_CASE("a barrier release forgets a warp's __syncwarp() calls and its lanes' accesses") {
  RaceDetector detector = fresh_detector();
  CHECK_FALSE(detector.record(store(0, 1).at(0, 4).at_step(1).shared()));
  detector.barrier_released();
  CHECK_FALSE(detector.record(load(0, 2).at(4, 4).at_step(1).shared()));
  detector.warp_synced(0, k_all, 5);
  detector.barrier_released();
  CHECK_FALSE(detector.record(store(0, 3).at(0, 4).at_step(1).shared()));
  CHECK(detector.record(load(0, 4).at(4, 4).at_step(2).shared()));  // the __syncwarp() at step 5 is gone
}

TEST_CASE("written_by_other_warp also sees a store that raced with another lane's earlier load") {
  RaceDetector detector = fresh_detector();
  CHECK_FALSE(detector.record(one_lane(load(0, 1), 1, 0, 1).shared()));
  CHECK_FALSE(detector.written_by_other_warp(0, 0));
  CHECK(detector.record(one_lane(store(0, 2), 0, 0, 2).shared()));
  CHECK(detector.written_by_other_warp(0, 0));
  CHECK_FALSE(detector.written_by_other_warp(4, 0));
}

TEST_CASE("warps touching different bytes do not race") {
  RaceDetector detector = fresh_detector();
  CHECK_FALSE(detector.record(store(0, 1).at(0, 4).shared()));
  CHECK_FALSE(detector.record(store(1, 1).at(128, 4).shared()));
  // bytes next to each other in one word are different bytes
  CHECK_FALSE(detector.record(store(2, 2, 1).at(1024, 2).shared()));
  CHECK_FALSE(detector.record(store(3, 2, 1).at(1025, 2).shared()));
}

TEST_CASE("warps only reading the same word do not race") {
  RaceDetector detector = fresh_detector();
  CHECK_FALSE(detector.record(load(0, 1).at(0, 0).shared()));
  CHECK_FALSE(detector.record(load(1, 1).at(0, 0).shared()));
  CHECK_FALSE(detector.record(load(2, 1).at(0, 4).shared()));
}

TEST_CASE("accesses separated by a barrier release do not race") {
  RaceDetector detector = fresh_detector();
  CHECK_FALSE(detector.record(store(0, 1).at(0, 4).shared()));
  detector.barrier_released();
  CHECK_FALSE(detector.record(load(1, 2).at(0, 4).shared()));
  CHECK_FALSE(detector.record(load(3, 2).at(0, 4).shared()));
  detector.barrier_released();
  CHECK_FALSE(detector.record(store(0, 3).at(0, 4).shared()));
}

TEST_CASE("lanes of one store putting different values in one word are a conflicting write") {
  RaceDetector detector = fresh_detector();
  Access access = store(4, 6).at(0, 4);
  access.addresses[9] = access.addresses[20] = 256;  // lanes 9 and 20 store 9 and 20 there
  const auto conflict = detector.record(access.shared());
  REQUIRE(conflict);
  CHECK(conflict->kind == "conflicting-write");
  CHECK(conflict->pc == 6);
  CHECK(conflict->warp == 4);
  CHECK(conflict->lane == 20);
  CHECK(conflict->other_lane == 9);
  CHECK(conflict->address == 256);
}

TEST_CASE("lanes of one store putting the same value in one word are fine") {
  RaceDetector detector = fresh_detector();
  CHECK_FALSE(detector.record(store(0, 1).at(16, 0).storing(1).shared()));  // every lane: flag = 1
}

TEST_CASE("a conflicting write is reported before a same-value store over another warp's") {
  RaceDetector detector = fresh_detector();
  CHECK_FALSE(detector.record(store(0, 1).at(0, 0).storing(1).shared()));
  Access access = store(1, 2).at(0, 0).storing(1);
  access.addresses[30] = access.addresses[31] = 64;
  access.low[31] = 2;  // lanes 30 and 31 store 1 and 2 at byte 64
  const auto conflict = detector.record(access.shared());
  REQUIRE(conflict);
  CHECK(conflict->kind == "conflicting-write");
  CHECK(conflict->address == 64);
}

TEST_CASE("lanes of a 128-bit store differing only in the upper 8 bytes are a conflicting write") {
  RaceDetector detector = fresh_detector();
  Access access = store(0, 1, 16).at(0, 0).storing(7);
  access.high[31] = 8;
  const auto conflict = detector.record(access.shared());
  REQUIRE(conflict);
  CHECK(conflict->kind == "conflicting-write");
  CHECK(conflict->lane == 31);
  CHECK(conflict->address == 8);
}

TEST_CASE("a 64-bit load overlapping another warp's 32-bit store is a race") {
  RaceDetector detector = fresh_detector();
  CHECK_FALSE(detector.record(store(0, 1, 4).at(0, 4).shared()));
  const auto race = detector.record(load(1, 2, 8).at(120, 8).shared());  // lane 0: bytes 120-127
  REQUIRE(race);
  CHECK(race->address == 120);
  CHECK(race->other_lane == 30);
}

TEST_CASE("a 128-bit store overlapping another warp's 32-bit load is a race") {
  RaceDetector detector = fresh_detector();
  Access word = load(0, 1, 4);
  word.fields.lanes = 1u;
  word.addresses[0] = 44;  // the last word of the first 16-byte vector at 32
  CHECK_FALSE(detector.record(word.shared()));
  const auto race = detector.record(store(1, 2, 16).at(32, 16).shared());
  REQUIRE(race);
  CHECK(race->lane == 0);
  CHECK(race->address == 44);
  CHECK(race->other_pc == 1);
}

TEST_CASE("a 32-bit load over bytes another warp stored one at a time is a race") {
  RaceDetector detector = fresh_detector();
  CHECK_FALSE(detector.record(store(0, 1, 1).at(0, 1).shared()));  // lane i stores byte i
  const auto race = detector.record(load(1, 2, 4).at(0, 4).shared());
  REQUIRE(race);
  CHECK(race->address == 0);
  CHECK(race->lane == 0);
  CHECK(race->other_lane == 0);
}

TEST_CASE("an 8-bit store into a word another warp loaded whole is a race") {
  RaceDetector detector = fresh_detector();
  CHECK_FALSE(detector.record(load(0, 1, 4).at(0, 4).shared()));
  Access byte = store(1, 2, 1).at(6, 0);
  byte.fields.lanes = 1u;
  const auto race = detector.record(byte.shared());
  REQUIRE(race);
  CHECK(race->address == 6);
  CHECK(race->other_lane == 1);
  CHECK_FALSE(race->other_is_write);
}

TEST_CASE("atomics from different warps on one word do not race with each other") {
  RaceDetector detector = fresh_detector();
  CHECK_FALSE(detector.record(store(0, 1, 4).at(0, 0).atomic().shared()));
  CHECK_FALSE(detector.record(store(1, 1, 4).at(0, 0).atomic().shared()));
  CHECK_FALSE(detector.record(store(2, 1, 4).at(0, 0).atomic().shared()));
}

TEST_CASE("an atomic and another warp's plain access to the same word race") {
  RaceDetector detector = fresh_detector();
  CHECK_FALSE(detector.record(store(0, 1, 4).at(0, 0).atomic().shared()));
  CHECK_FALSE(detector.record(store(1, 1, 4).at(0, 0).atomic().shared()));
  // a plain store by warp 1 still races with warp 0's atomic
  const auto race = detector.record(store(1, 2).at(0, 0).storing(5).shared());
  REQUIRE(race);
  CHECK(race->other_warp == 0);
  CHECK(race->other_is_atomic);
  CHECK_FALSE(race->is_atomic);

  RaceDetector other = fresh_detector();
  CHECK_FALSE(other.record(load(3, 1).at(0, 0).shared()));
  const auto war = other.record(store(4, 2).at(0, 0).atomic().shared());
  REQUIRE(war);
  CHECK(war->is_atomic);
  CHECK_FALSE(war->other_is_write);
}

TEST_CASE("a race report carries the program-order step of both accesses") {
  RaceDetector detector = fresh_detector();
  // warp 0 reads late in its program; warp 1, run after it, writes early in its own
  CHECK_FALSE(detector.record(load(0, 9).at(0, 4).at_step(12).shared()));
  const auto race = detector.record(store(1, 7).at(0, 4).at_step(5).shared());
  REQUIRE(race);
  CHECK(race->step == 5);
  CHECK(race->other_step == 12);
  CHECK(race->pc == 7);
  CHECK(race->other_pc == 9);
}

TEST_CASE("written_by_other_warp sees stores, atomics and byte stores of other warps since the barrier") {
  RaceDetector detector = fresh_detector();
  Access word = store(0, 1).at(8, 0);
  word.fields.lanes = 1u;
  CHECK_FALSE(detector.record(word.shared()));
  CHECK(detector.written_by_other_warp(9, 1));
  CHECK_FALSE(detector.written_by_other_warp(9, 0));  // its own write
  CHECK_FALSE(detector.written_by_other_warp(12, 1));  // the next word
  Access byte = store(2, 2, 1).at(13, 0);
  byte.fields.lanes = 1u;
  CHECK_FALSE(detector.record(byte.shared()));
  CHECK(detector.written_by_other_warp(13, 0));
  CHECK_FALSE(detector.written_by_other_warp(12, 0));  // a byte of the same word nobody wrote
  Access atomic = store(3, 3).at(16, 0).atomic();
  atomic.fields.lanes = 1u;
  CHECK_FALSE(detector.record(atomic.shared()));
  CHECK(detector.written_by_other_warp(16, 0));
  CHECK_FALSE(detector.written_by_other_warp(k_shared_bytes, 0));  // past the end
  detector.barrier_released();
  CHECK_FALSE(detector.written_by_other_warp(9, 1));
}

TEST_CASE("a new block forgets the previous block's accesses") {
  RaceDetector detector = fresh_detector();
  CHECK_FALSE(detector.record(store(0, 1).at(0, 4).shared()));
  detector.start_block(k_shared_bytes);
  CHECK_FALSE(detector.record(store(1, 1).at(0, 4).shared()));
  detector.start_block(k_shared_bytes / 2);  // another size
  CHECK_FALSE(detector.record(load(0, 2).at(0, 4).shared()));
}

TEST_CASE("bytes past the block's shared memory are ignored") {
  RaceDetector detector;
  detector.start_block(64);
  CHECK_FALSE(detector.record(store(0, 1).at(60, 4).shared()));
  CHECK_FALSE(detector.record(store(1, 1).at(64, 4).shared()));
}

// The slow, obviously right definition: every access of the epoch kept, every pair compared.
struct PastAccess {
  uint32_t warp;
  int lane;
  uint64_t start, bytes;
  bool writes, atomic;
  std::array<uint8_t, 16> stored;  // what a plain store put there
  uint32_t step = 0;               // the instruction: one per access
};

// The __syncwarp() calls of the epoch: (warp, step); each names every lane.
using SyncList = std::vector<std::pair<uint32_t, uint32_t>>;

// Two accesses by one thread, or by one warp with a __syncwarp() between them, are ordered.
bool ordered(const PastAccess& past, const PastAccess& now, const SyncList& syncs) {
  if (past.warp != now.warp) return false;
  if (past.lane == now.lane) return true;
  return std::any_of(syncs.begin(), syncs.end(), [&](const auto& sync) {
    return sync.first == now.warp && sync.second > past.step && sync.second < now.step;
  });
}

struct BruteForceRace {
  int lane;
  uint64_t address;
  bool same_value;
};

// The first byte where `now` races with an earlier access of the epoch, or failing that the first
// where it stores what an earlier store of another thread stored. A store racing with another is
// same-value only if every plain store of the byte this epoch stored that value.
std::optional<BruteForceRace> brute_force_race(const std::vector<PastAccess>& epoch, const PastAccess& now,
                                               const SyncList& syncs) {
  std::optional<BruteForceRace> benign;
  for (uint64_t byte = now.start; byte < now.start + now.bytes; ++byte) {
    const bool now_plain_store = now.writes && !now.atomic;
    const bool all_agree = std::all_of(epoch.begin(), epoch.end(), [&](const PastAccess& past) {
      const bool covers = byte >= past.start && byte < past.start + past.bytes;
      return !covers || !past.writes || past.atomic || past.stored[byte - past.start] == now.stored[byte - now.start];
    });
    for (const PastAccess& past : epoch) {
      if (ordered(past, now, syncs) || byte < past.start || byte >= past.start + past.bytes) continue;
      if (!(past.writes || now.writes) || (past.atomic && now.atomic)) continue;
      const bool both_plain_stores = past.writes && !past.atomic && now_plain_store;
      if (!both_plain_stores || !all_agree) return BruteForceRace{now.lane, byte, false};
      if (!benign) benign = BruteForceRace{now.lane, byte, true};
    }
  }
  return benign;
}

// Two lanes of one plain store putting different values in the same byte.
bool brute_force_conflicting_write(const std::vector<PastAccess>& lanes) {
  for (const PastAccess& a : lanes) {
    for (const PastAccess& b : lanes) {
      if (!a.writes || a.atomic) return false;
      for (uint64_t byte = a.start; byte < a.start + a.bytes; ++byte) {
        const bool overlaps = byte >= b.start && byte < b.start + b.bytes;
        if (overlaps && a.stored[byte - a.start] != b.stored[byte - b.start]) return true;
      }
    }
  }
  return false;
}

// An access by one of 3 warps, of 1 to 4 lanes, to 64 bytes of shared memory; and its lanes as
// the brute force sees them.
struct RandomAccess {
  Access access;
  std::vector<PastAccess> lanes;
};

RandomAccess random_access(std::mt19937& random, uint32_t pc) {
  auto pick = [&](uint32_t n) { return static_cast<uint32_t>(random() % n); };
  const uint32_t bytes = 1u << pick(5);  // 1 to 16
  const uint32_t warp = pick(3);
  const bool is_write = pick(3) != 0;
  RandomAccess result{Access(warp, pc, is_write, bytes), {}};
  Access& access = result.access;
  if (is_write && (bytes == 4 || bytes == 8) && pick(2) == 0) access.atomic();
  access.at_step(pc);  // one instruction per access, in program order within each warp
  access.fields.lanes = (1u << pick(4)) | (1u << pick(4));
  for (int lane = 0; lane < 4; ++lane) {
    access.addresses[lane] = pick(64 / bytes) * bytes;
    access.low[lane] = pick(2) * 0x0101010101010101u;  // often the same as another store
    access.high[lane] = pick(2) * 0x0101010101010101u;
    if (!(access.fields.lanes >> lane & 1u)) continue;
    PastAccess seen{warp, lane, access.addresses[lane], bytes, is_write, access.fields.is_atomic, {}, pc};
    for (uint32_t k = 0; k < 16; ++k) {
      seen.stored[k] = static_cast<uint8_t>((k < 8 ? access.low : access.high)[lane] >> (8 * (k % 8)));
    }
    result.lanes.push_back(seen);
  }
  return result;
}

// The first real race of any lane; failing that, the first same-value one.
std::optional<BruteForceRace> brute_force_first_race(const std::vector<PastAccess>& epoch,
                                                     const std::vector<PastAccess>& lanes, const SyncList& syncs) {
  std::optional<BruteForceRace> first;
  for (const PastAccess& lane : lanes) {
    const auto race = brute_force_race(epoch, lane, syncs);
    if (race && (!first || (first->same_value && !race->same_value))) first = race;
    if (first && !first->same_value) break;
  }
  return first;
}

// Between warps and between lanes of one warp (with __syncwarp() calls naming every lane; the
// detector keeps only the latest accesses of other lanes, exact for those).
TEST_CASE("the race reported is the one a brute-force comparison of all accesses finds first") {
  std::mt19937 random(7);
  int races_in_warp = 0;
  for (int trial = 0; trial < 5000; ++trial) {
    RaceDetector detector;
    detector.start_block(64);
    std::vector<PastAccess> epoch;
    SyncList syncs;
    for (uint32_t pc = 0; pc < 10; ++pc) {
      if (random() % 6 == 0) {
        detector.barrier_released();
        epoch.clear();
        syncs.clear();
        continue;
      }
      if (random() % 5 == 0) {
        const uint32_t warp = static_cast<uint32_t>(random() % 3);
        detector.warp_synced(warp, k_all, pc);
        syncs.emplace_back(warp, pc);
        continue;
      }
      const RandomAccess now = random_access(random, pc);
      const auto expected = brute_force_first_race(epoch, now.lanes, syncs);
      const auto race = detector.record(now.access.shared());
      if (brute_force_conflicting_write(now.lanes) && (!expected || expected->same_value)) {
        REQUIRE(race);
        CHECK(race->kind == "conflicting-write");
        break;
      }
      if (expected) {
        REQUIRE(race);
        CHECK(race->kind == "race");
        CHECK(race->lane == expected->lane);
        CHECK(race->address == expected->address);
        CHECK(race->same_value == expected->same_value);
        if (race->warp == race->other_warp) ++races_in_warp;
        break;  // after a race, later reports need not name the same pair
      }
      REQUIRE_FALSE(race);
      epoch.insert(epoch.end(), now.lanes.begin(), now.lanes.end());
    }
  }
  CHECK(races_in_warp > 100);  // the trials do exercise races between lanes of one warp
}

}  // namespace
}  // namespace tilecamp::emu
