// What the emulator counts for each kernel and each source line, named as tilecamp's reports
// name them (and as close as possible to the Nsight Compute metrics they correspond to).
#pragma once

#include <cstdint>

namespace tilecamp {

// X-macro so that reports iterate over the counters by name without repeating the list.
// fp32_flops and fp64_flops count as Nsight Compute's roofline does (smsp__sass_thread_inst_
// executed_op_{fadd,fmul,ffma}_pred_on, FFMA twice): per active thread, add, sub and mul once,
// fma and mad twice; division, square roots and the special functions not at all.
// tensor_instructions counts the warp-level matrix multiplies (mma.sync, wmma.mma) executed, and
// tensor_flops their work, 2 m n k each (an m16n8k16 is 4096): PTX instructions, not SASS ones
// (ptxas makes two HMMAs of a WMMA m16n16k16).
// global_atom_sectors counts as Nsight Compute does: per request, for each sector, as many as
// the most lanes on one of its words (L2 updates one word once a pass), 1 for an atomic ptxas
// aggregates over the warp (address and operand the same in every lane). global_atom_chain is
// the most passes the launch makes on any one word (those wait for each other in L2), and
// global_atom_region_chain the most sector passes on any one 1 KB-aligned region.
#define TILECAMP_COUNTERS(X)      \
  X(global_ld_requests)           \
  X(global_ld_sectors)            \
  X(global_st_requests)           \
  X(global_st_sectors)            \
  X(shared_ld_requests)           \
  X(shared_ld_wavefronts)         \
  X(shared_ld_bank_conflicts)     \
  X(shared_st_requests)           \
  X(shared_st_wavefronts)         \
  X(shared_st_bank_conflicts)     \
  X(warp_instructions)            \
  X(divergent_warp_instructions)  \
  X(barriers)                     \
  X(global_atom_requests)         \
  X(global_atom_sectors)          \
  X(global_atom_bytes)            \
  X(global_atom_chain)            \
  X(global_atom_region_chain)     \
  X(shared_atom_requests)         \
  X(shared_atom_wavefronts)       \
  X(shared_atom_bank_conflicts)   \
  X(const_ld_requests)            \
  X(const_ld_wavefronts)          \
  X(local_ld_requests)            \
  X(local_ld_sectors)             \
  X(local_st_requests)            \
  X(local_st_sectors)             \
  X(global_ld_bytes)              \
  X(global_st_bytes)              \
  X(global_ld_distinct_bytes)     \
  X(global_st_distinct_bytes)     \
  X(global_ld_unique_sectors)     \
  X(global_ld_sector_pairs)       \
  X(global_ld_rounds)             \
  X(loading_warps)                \
  X(shared_async_st_requests)     \
  X(fp32_flops)                   \
  X(fp64_flops)                   \
  X(tensor_instructions)          \
  X(tensor_flops)

struct Counters {
#define TILECAMP_DECLARE_COUNTER(name) uint64_t name = 0;
  TILECAMP_COUNTERS(TILECAMP_DECLARE_COUNTER)
#undef TILECAMP_DECLARE_COUNTER

  Counters& operator+=(const Counters& other) {
#define TILECAMP_ADD_COUNTER(name) name += other.name;
    TILECAMP_COUNTERS(TILECAMP_ADD_COUNTER)
#undef TILECAMP_ADD_COUNTER
    return *this;
  }
  // Adds `times` copies of `other`: a sampled block standing for a class of the grid's blocks.
  Counters& add_times(const Counters& other, uint64_t times) {
#define TILECAMP_ADD_COUNTER_TIMES(name) name += other.name * times;
    TILECAMP_COUNTERS(TILECAMP_ADD_COUNTER_TIMES)
#undef TILECAMP_ADD_COUNTER_TIMES
    return *this;
  }
  Counters operator-(const Counters& other) const {
    Counters difference;
#define TILECAMP_SUBTRACT_COUNTER(name) difference.name = name - other.name;
    TILECAMP_COUNTERS(TILECAMP_SUBTRACT_COUNTER)
#undef TILECAMP_SUBTRACT_COUNTER
    return difference;
  }
  bool operator==(const Counters&) const = default;

  // Calls visit(name, value) for every counter, in the order above.
  template <typename Visitor>
  void for_each(Visitor&& visit) const {
#define TILECAMP_VISIT_COUNTER(name) visit(#name, name);
    TILECAMP_COUNTERS(TILECAMP_VISIT_COUNTER)
#undef TILECAMP_VISIT_COUNTER
  }
};

}  // namespace tilecamp
