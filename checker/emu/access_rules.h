// How one warp-wide memory instruction is charged, per the rules measured on an H200 (see
// tests/data/h200-access-rules.tsv and h200-shared-fusion.tsv): global accesses cost one request
// and one 32-byte sector per distinct sector touched; shared accesses cost one wavefront per
// distinct 4-byte word in the busiest of the 32 banks, phase by phase. 64-bit accesses run as 2
// phases of 16 lanes and 128-bit ones as 4 phases of 8 lanes, unless the lanes come in pairs
// (lanes 2i and 2i+1 read one address, or all even lanes one address and all odd lanes another):
// then as 1 phase of 32 and 2 phases of 16.
#pragma once

#include <array>
#include <cstdint>

namespace tilecamp::emu {

constexpr int k_warp_size = 32;
constexpr uint32_t k_sector_bytes = 32;
constexpr uint32_t k_bank_count = 32;
constexpr uint32_t k_bank_word_bytes = 4;

using LaneAddresses = std::array<uint64_t, k_warp_size>;

// Distinct 32-byte sectors touched by the active lanes, each accessing `bytes` at its address.
uint32_t count_sectors(const LaneAddresses& addresses, uint32_t active_mask, uint32_t bytes);
// The same for aligned segments of `segment_bytes`: 64 gives the sector pairs L2 fetches from DRAM
// on a miss (an H200's DRAM reads come in 64-byte pairs: tests/data/h200-timings.md).
uint32_t count_segments(const LaneAddresses& addresses, uint32_t active_mask, uint32_t bytes, uint32_t segment_bytes);

// What a global request touches, counted in one pass: its 32-byte sectors, its distinct elements
// (of `bytes`), and its 64-byte sector pairs; each equals count_segments with that segment size.
struct GlobalSegments {
  uint32_t sectors = 0, elements = 0, pairs = 0;
};
GlobalSegments count_global_segments(const LaneAddresses& addresses, uint32_t active_mask, uint32_t bytes);

// What the counters charged for one warp-wide access in one state space: requests, and sectors
// (global) or wavefronts (shared) with the conflict-free wavefronts of the same access.
struct ChargedCost {
  uint32_t requests = 0;
  uint32_t cost = 0;
  uint32_t ideal = 0;
};

struct SharedCost {
  uint32_t wavefronts = 0;
  uint32_t ideal_wavefronts = 0;  // the conflict-free cost of the same access
  uint32_t bank_conflicts() const { return wavefronts - ideal_wavefronts; }
};

// The phases a shared access is served in, each to 32 / phases consecutive lanes: 1 for 32-bit
// accesses, 2 for 64-bit and 4 for 128-bit ones, half that when the lanes come in pairs.
int shared_phases(const LaneAddresses& addresses, uint32_t active_mask, uint32_t bytes);

SharedCost count_shared_wavefronts(const LaneAddresses& addresses, uint32_t active_mask,
                                   uint32_t bytes);

// count_shared_wavefronts for one instruction, remembering its last pattern. Moving every lane's
// address by the same multiple of 4 bytes moves every word to another bank by the same step, so
// each bank still serves as many distinct words: the cost depends only on the active lanes, the
// size, the first lane's place in its word and the other lanes' distances from it. A loop over a
// tile repeats one pattern at a new base each trip, and the cost is looked up, not counted.
class SharedCostMemo {
 public:
  SharedCost count(const LaneAddresses& addresses, uint32_t active_mask, uint32_t bytes);

 private:
  bool m_valid = false;
  uint32_t m_mask = 0, m_bytes = 0;
  uint64_t m_first_offset = 0;  // the first active lane's address modulo 4
  LaneAddresses m_deltas{};     // each active lane's address minus the first's
  SharedCost m_cost;
};

// A warp-wide shared atomic the hardware does in one instruction (ATOMS: integer operations): the
// banks' wavefronts, as for a store.
// An atomic it does as a compare-and-swap loop (a float add on an H200): one loop trip for each of
// the most lanes that update one address, each trip a shared load (1 wavefront) and an ATOMS
// (2 wavefronts), as Nsight Compute counts them (tests/data/h200-memory-paths.tsv).
struct SharedAtomicCost {
  uint32_t atomic_requests = 0, atomic_wavefronts = 0, atomic_bank_conflicts = 0;
  uint32_t load_requests = 0, load_wavefronts = 0;  // the loop's loads
};
SharedAtomicCost count_shared_atomic(const LaneAddresses& addresses, uint32_t active_mask, uint32_t bytes, bool loop);

// The distinct addresses among the active lanes: the passes a constant-cache load takes (lanes
// reading one address share one pass).
uint32_t distinct_addresses(const LaneAddresses& addresses, uint32_t active_mask);

// A shared access that ptxas merged with its neighbours into one access of `fused_bytes` (see
// checker/ptx/access_fusion.h) is charged once, by the member `fused_first` bytes into the chunk,
// at the chunk's addresses; the other members cost nothing. Returns the bytes to charge, 0 for
// nothing, and moves `addresses` to the start of the chunk. Lanes that disagree on their place in
// the chunk (an alignment the analysis did not foresee) are charged as written.
uint32_t fused_access_bytes(LaneAddresses& addresses, uint32_t active_mask, uint32_t bytes,
                            uint32_t fused_bytes, uint32_t fused_first);

}  // namespace tilecamp::emu
