// The shared-memory race detector on hand-made warp accesses, as KernelRun would feed it.
#include <doctest/doctest.h>

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
  const auto race = detector.record(store(1, 1).at(0, 4).shared());
  REQUIRE(race);
  CHECK(race->is_write);
  CHECK(race->other_is_write);
  CHECK(race->other_warp == 0);
}

TEST_CASE("accesses by one warp never race with each other") {
  RaceDetector detector = fresh_detector();
  CHECK_FALSE(detector.record(store(3, 1).at(0, 4).shared()));
  CHECK_FALSE(detector.record(load(3, 2).at(4, 4).shared()));
  CHECK_FALSE(detector.record(store(3, 3).at(8, 4).shared()));
  CHECK_FALSE(detector.record(store(3, 4).at(0, 4).shared()));
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

}  // namespace
}  // namespace tilecamp::emu
