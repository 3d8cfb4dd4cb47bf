// The state of one kernel launch on the emulator. Internal to checker/emu: Emulator::launch is
// the public entry point.
#pragma once

#include <array>
#include <atomic>
#include <bit>
#include <chrono>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "checker/emu/access_rules.h"
#include "checker/emu/emulator.h"
#include "checker/emu/race_detector.h"
#include "checker/emu/shared_write_map.h"

namespace tilecamp::emu {

// Calls body(lane) for every set bit of mask, lowest lane first.
template <typename Body>
void for_each_lane(uint32_t mask, Body body) {
  while (mask) {
    const int lane = std::countr_zero(mask);
    body(lane);
    mask &= mask - 1;
  }
}

// A thread's (x, y, z) in its block from its linear index (x fastest), as warps are formed.
inline Dim3 thread_in_block(uint64_t linear, const Dim3& block) {
  return {static_cast<uint32_t>(linear % block.x), static_cast<uint32_t>(linear / block.x % block.y),
          static_cast<uint32_t>(linear / (uint64_t{block.x} * block.y))};
}

// A block's (x, y, z) in the grid from its linear index (x fastest), the order blocks run in.
inline Dim3 block_in_grid(uint64_t linear, const Dim3& grid) {
  return {static_cast<uint32_t>(linear % grid.x), static_cast<uint32_t>(linear / grid.x % grid.y),
          static_cast<uint32_t>(linear / (uint64_t{grid.x} * grid.y))};
}

// The state space a generic address falls in (the shared or the local window, else global), and
// the address within that space.
ptx::Space classify_generic(uint64_t address);
uint64_t space_address(ptx::Space space, uint64_t generic);

// "(3,0,0)": a block's index as messages show it.
std::string block_text(const Dim3& index);

// Lane sets and masks as messages show them: "0-15,31", "0x0000ffff".
std::string lane_list(uint32_t mask);
std::string hex_mask(uint32_t mask);

struct StackEntry {
  uint32_t pc;
  uint32_t reconverge_pc;  // pop this entry when pc reaches it
  uint32_t mask;
};

// A cp.async copy waiting for its group to complete: the bytes read at issue, where they go.
struct PendingCopy {
  uint32_t shared_offset = 0;
  uint32_t bytes = 0;
  uint32_t pc = 0;    // the cp.async, for race reports
  int lane = 0;
  std::array<uint8_t, 16> data{};
};

struct Warp {
  enum class State { Running, AtBarrier, Done };
  uint32_t index = 0;
  uint32_t live_mask = 0;  // lanes that exist and have not exited
  uint32_t leaving_mask = 0;  // at a barrier: live lanes that will exit without reaching it
  State state = State::Running;
  uint32_t barrier_pc = 0;
  uint32_t barrier_id = 0;
  uint32_t barrier_expected = 0;  // threads the barrier waits for; 0: every thread of the block
  bool load_round_open = false;  // a global load issued since the last barrier, global store or loop back-edge
  bool has_loaded = false;       // counted in loading_warps
  bool round_ended_by_store = false;  // the last round ended at a store, which a read-only load may pass
  uint64_t executed = 0;   // warp instructions so far (drives %clock)
  uint64_t epoch_start = 0;  // `executed` when the race detector's epoch began (block start, barrier)
  // The last ordered access (a flag a loop may wait on) or nanosleep this warp executed: reaching
  // one again at or before it means the warp is waiting in a loop, so it yields to the others.
  uint32_t last_wait_pc = UINT32_MAX;
  uint32_t carry = 0;  // the condition code's carry flag, a bit per lane (add.cc, addc...)
  uint64_t* registers = nullptr;  // registers[reg * 32 + lane]
  std::vector<StackEntry> stack;
  std::vector<PendingCopy> open_copies;                 // cp.async not yet committed
  std::deque<std::vector<PendingCopy>> committed_copies;  // committed groups, oldest first
  std::array<uint32_t, k_warp_size> tid_x{}, tid_y{}, tid_z{};
};

// The global sectors one block has loaded (open addressing: a lookup per load must stay cheap).
// clear() forgets them all at once by starting a new generation.
class BlockSectorSet {
 public:
  void clear();
  bool insert(uint64_t sector);  // true when `sector` was not in the set

 private:
  struct Slot {
    uint64_t sector = 0;
    uint32_t generation = 0;  // the slot holds a sector of the set only in the set's generation
  };
  void grow();
  std::vector<Slot> m_slots = std::vector<Slot>(1024);
  uint32_t m_generation = 1;
  size_t m_size = 0;
};

// What bar.red accumulates from every arriving thread until the barrier releases.
struct BarrierReduction {
  uint32_t count = 0;
  bool all = true;
  bool any = false;
};

// An mbarrier's state (kernel_mbarrier.cpp), kept by its shared-memory offset.
struct Mbarrier {
  uint32_t expected = 0;  // arrivals a phase needs
  uint32_t pending = 0;   // arrivals this phase still needs
  uint64_t phase = 0;     // phases completed; an arrival's state token
  std::vector<PendingCopy> copies;  // landing when the phase completes
};

// The global memory one host thread's blocks read and wrote during a parallel launch, in 4-byte
// words, one read and one write bitmap per buffer (kernel_launch.cpp). Two threads' blocks are
// independent, and so may run at once with the result of running them in order, when neither
// wrote a word the other read or wrote.
class GlobalFootprint {
 public:
  explicit GlobalFootprint(const DeviceMemory& memory);
  void mark(size_t buffer, uint64_t offset, uint32_t bytes, bool write) {
    std::vector<uint64_t>& bits = write ? m_written[buffer] : m_read[buffer];
    for (uint64_t word = offset / 4, last = (offset + bytes - 1) / 4; word <= last; ++word) {
      bits[word / 64] |= uint64_t{1} << (word % 64);
    }
  }
  // Some word one of `a` wrote, the other read or wrote.
  static bool overlap(const GlobalFootprint& a, const GlobalFootprint& b);
  // Puts back, from `snapshot` (every buffer's bytes as they were), each word this footprint wrote.
  void restore_written(DeviceMemory& memory, const std::vector<std::vector<uint8_t>>& snapshot) const;

 private:
  std::vector<std::vector<uint64_t>> m_read, m_written;  // by buffer index
};

class KernelRun {
 public:
  KernelRun(const Emulator& emulator, const ptx::Function& function, const LaunchConfig& config,
            std::vector<uint8_t> parameter_buffer, DeviceMemory& memory);
  LaunchResult run();  // every block, one after another, then the result
  Counters sum_of_counters() const;

  static constexpr uint64_t k_max_printed_bytes = 1 << 20;  // printf output a launch keeps

  // For a launch split over host threads (kernel_launch.cpp): the blocks [first, end) in order
  // (blockIdx.x fastest), stopping early once `stop` says so; then the result.
  void run_blocks(uint64_t first, uint64_t end, const std::atomic<bool>* stop = nullptr);
  LaunchResult finish();
  void track_footprint(GlobalFootprint* footprint) { m_footprint = footprint; }
  void set_instruction_budget(uint64_t budget) { m_budget_left = budget; }
  // The wall-clock time the launch must stop by: the first run's, for every range (a range made
  // later would otherwise count its time limit from when it was made).
  std::chrono::steady_clock::time_point deadline() const { return m_time_limit_at; }
  void set_deadline(std::chrono::steady_clock::time_point deadline) { m_time_limit_at = deadline; }
  uint64_t instructions_left() const { return m_budget_left; }
  bool failed() const { return m_failed; }
  uint64_t printed_bytes() const { return m_printed_bytes; }
  // Takes in what a run of later blocks found, as if this run had gone on to run them: counters
  // add up, printed lines join, and a diagnostic said once per launch (a race per pair of lines,
  // a barrier warning per barrier...) stays with the earliest block that said it.
  void absorb(KernelRun& later);
  // For a range run on another host thread: keep the passes of global atomics for absorb to
  // count, so the joined counters are the ones of one thread running every block in order.
  void defer_atomic_hot_spots() { m_atomic_hot.deferred = true; }

 private:
  // scheduling (kernel_run.cpp)
  void run_block();
  void start_block();
  // Runs the current block's warps; returns true when the block has finished (or the launch
  // failed). With `suspend_when_waiting`, returns false instead once every warp still running
  // waits in a loop (a cooperative launch's other blocks may be the ones to end the wait).
  bool step_block(bool suspend_when_waiting);
  void run_warp(Warp& warp);
  // A cooperative launch (kernel_cooperative.cpp): every block resident, run in turns.
  void run_cooperative();
  struct BlockState;
  void swap_block(BlockState& state);
  std::string cooperative_deadlock(const std::vector<BlockState>& states) const;
  void release_barrier(std::vector<Warp>& warps);
  void execute(Warp& warp);
  uint32_t guard_mask(const Warp& warp, const ptx::Instruction& in, uint32_t active) const;
  void branch(Warp& warp, const ptx::Instruction& in, uint32_t taken);
  void exit_lanes(Warp& warp, uint32_t lanes);
  void barrier(Warp& warp, const ptx::Instruction& in, uint32_t lanes);
  bool is_leaving(uint32_t pending, uint32_t barrier) const;
  void warn_split_barrier(const std::vector<Warp*>& group);
  void warn_early_exit(const std::vector<Warp*>& group);
  void deliver_reduction(Warp& warp, const ptx::Instruction& in, const BarrierReduction& reduction);
  void execute_alu(Warp& warp, const ptx::Instruction& in, uint32_t lanes);

  // operands
  uint64_t read(const Warp& warp, const ptx::Operand& operand, int lane) const;
  bool read_predicate(const Warp& warp, const ptx::Operand& operand, int lane) const;
  uint64_t special(const Warp& warp, const ptx::Operand& operand, int lane) const;
  uint64_t modelled_cycles(const Warp& warp) const;
  uint64_t modelled_nanoseconds(const Warp& warp) const;
  void write(Warp& warp, int reg, int lane, uint64_t value) { warp.registers[reg * k_warp_size + lane] = value; }

  // memory (kernel_memory.cpp)
  void memory_access(Warp& warp, const ptx::Instruction& in, uint32_t lanes);
  uint8_t* resolve(Warp& warp, const ptx::Instruction& in, ptx::Space space, uint64_t address,
                   uint32_t bytes, int lane);
  // The lanes of one warp-wide access, by counted space: 0 global, 1 shared, 2 local.
  // The lanes of an access by where their addresses fell: global, shared, local, constant.
  enum AccessSlot { k_global_slot = 0, k_shared_slot = 1, k_local_slot = 2, k_const_slot = 3 };
  struct WarpAccess {  // filled for active lanes only: not zeroed, as this is built per access
    std::array<LaneAddresses, 4> addresses;
    std::array<uint32_t, 4> lanes{};
    std::array<uint8_t*, k_warp_size> pointers;
  };
  bool resolve_access(Warp& warp, const ptx::Instruction& in, const ptx::Operand& address_operand, uint32_t lanes,
                      uint32_t bytes, WarpAccess& access);
  // What count_access charged: the global and the shared part.
  struct ChargedAccess {
    ChargedCost global, shared;
  };
  // Charges a load or store to the counters of `in`'s line, as Nsight Compute counts it.
  ChargedAccess count_access(const ptx::Instruction& in, const WarpAccess& access, uint32_t bytes, bool is_store);
  // Shows the launch's AccessObserver an access, with what the counters charged for it, or a
  // barrier release (kernel_observe.cpp). `fragment`: see ObservedAccess.
  void observe_access(const Warp& warp, const ptx::Instruction& in, const WarpAccess& access, uint32_t bytes,
                      const ChargedAccess& charged, bool fragment = false) const;
  void observe_barrier(const ptx::Instruction& in) const;
  void check_shared_written(const Warp& warp, const ptx::Instruction& in, const LaneAddresses& addresses,
                            uint32_t lanes, uint32_t bytes, uint32_t element_bytes);
  // What a warp-wide shared access tells the checks beside the counters: the race detector
  // (`strong`: a .relaxed/.acquire/.release access, which races as an atomic does; `values_*`: a
  // plain store's bytes for the conflicting-write check, null to skip it) and the record of the
  // bytes the block has written (a load of bytes nobody wrote is noted).
  void track_shared_access(const Warp& warp, const ptx::Instruction& in, const LaneAddresses& addresses,
                           uint32_t lanes, uint32_t bytes, uint32_t element_bytes, bool is_store, bool strong = false,
                           const std::array<uint64_t, k_warp_size>* values_low = nullptr,
                           const std::array<uint64_t, k_warp_size>* values_high = nullptr);
  void warn_uninitialized_reads();
  uint32_t epoch_step(const Warp& warp) const { return static_cast<uint32_t>(warp.executed - warp.epoch_start); }
  uint32_t count_new_block_sectors(const LaneAddresses& addresses, uint32_t lanes);
  void atomic_access(Warp& warp, const ptx::Instruction& in, uint32_t lanes);
  uint8_t* resolve_generic(Warp& warp, const ptx::Instruction& in, uint64_t address, uint32_t bytes, int lane);
  uint64_t symbol_value(int symbol) const;
  std::string shared_variable_overrun(uint64_t address) const;
  std::vector<uint8_t> shared_bytes_not_named() const;
  const ptx::Symbol* shared_variable_before(uint64_t address) const;
  uint64_t shared_variable_bytes(const ptx::Symbol& symbol) const;

  // the warp-wide matrix instructions: mma, ldmatrix, movmatrix, wmma.* (kernel_tensor.cpp)
  void execute_matrix(Warp& warp, const ptx::Instruction& in, uint32_t lanes);
  void load_matrix_rows(Warp& warp, const ptx::Instruction& in);
  void wmma_memory(Warp& warp, const ptx::Instruction& in);

  // warp-level operations (kernel_warp.cpp)
  void execute_warp_operation(Warp& warp, const ptx::Instruction& in, uint32_t lanes);
  void execute_with_carry(Warp& warp, const ptx::Instruction& in, uint32_t lanes);
  // Each lane's member mask of a .sync instruction (lanes that do not execute it: 0). Several groups
  // may execute one instruction together, each with its own mask (tiled partitions, match_any
  // groups). Returns false (after reporting) when a mask is broken: see kernel_warp.cpp.
  using LaneMasks = std::array<uint32_t, k_warp_size>;
  bool check_member_masks(Warp& warp, const ptx::Instruction& in, uint32_t lanes, const ptx::Operand& mask_operand,
                          LaneMasks& masks);
  void shuffle(Warp& warp, const ptx::Instruction& in, uint32_t lanes, const LaneMasks& masks);

  // cp.async (kernel_async.cpp)
  void execute_async_copy(Warp& warp, const ptx::Instruction& in, uint32_t lanes);
  void copy_async(Warp& warp, const ptx::Instruction& in, uint32_t lanes);
  void commit_copies(Warp& warp);
  void copies_still_in_flight(std::vector<Warp>& warps);
  // A cp.async's shared bytes written, for the race detector, at `step` of its warp's epoch.
  void record_copy_write(uint32_t warp, const PendingCopy& copy, uint32_t step);
  void land_copy(const PendingCopy& copy);  // its bytes into shared memory, marked written
  void execute_mbarrier(Warp& warp, const ptx::Instruction& in, uint32_t lanes);
  void arrive_on(Mbarrier& barrier, uint32_t count);
  void wait_copies(Warp& warp, size_t keep);

  // calls of extern functions: vprintf, __assertfail (kernel_calls.cpp)
  void call_extern(Warp& warp, const ptx::Instruction& in, uint32_t lanes);
  bool print(Warp& warp, const ptx::Instruction& in, int lane, std::string& text);
  bool read_c_string(Warp& warp, const ptx::Instruction& in, int lane, uint64_t address, std::string& text);
  uint8_t* call_parameter(Warp& warp, const ptx::Instruction& in, int32_t symbol, int lane);

  // reporting
  void fail(const ptx::Instruction& in, std::string kind, std::string message);
  // `once_key`: a diagnostic the launch says once (the first block to find it says it); blocks run
  // on other host threads are matched by it when their results are joined (absorb).
  void warn(const ptx::Instruction& in, std::string kind, std::string message, std::string once_key = {});
  std::string thread_name(const Warp& warp, int lane) const;
  std::string thread_name(uint32_t warp, int lane) const;
  void report_race(const RaceReport& race);
  // Reports the races between lanes of one warp held back this epoch, but not those on a pair of
  // lines where threads of different warps race too: a __syncthreads() is the fix there, and a
  // __syncwarp() would only hide the first symptom. Called when the epoch ends.
  void flush_warp_races();
  void emit_race(const RaceReport& race);
  static constexpr size_t k_max_race_reports = 8;  // pairs of lines a launch reports races on
  bool on_two_sides_of_a_branch(uint32_t a, uint32_t b) const;
  bool in_a_loop(uint32_t pc) const;
  // A diagnostic that does not stop the kernel (a race does not change what the emulator computes).
  void warn_or_error(const ptx::Instruction& in, Severity severity, std::string kind, std::string message,
                     std::string once_key = {});
  // "word 12 of `tile`": in 4-byte bank words by default, or in elements of another size.
  std::string shared_element(uint64_t address, uint32_t unit_bytes = 4, const char* unit = "word") const;
  std::string block_name() const;
  std::string where(uint32_t pc) const;
  // "line 12 (71%), line 14 (20%)": the source lines this launch's warp instructions went to, most first.
  std::string hottest_lines() const;
  uint64_t reserved_shared_begin() const;  // where the driver's reserved shared memory starts
  std::string grid_sync_note() const;      // what a trap means in a kernel that syncs its grid, or ""
  // Ends the launch with a "runaway" or "time-limit" finding when a budget is spent.
  bool out_of_budget(const Warp& warp, uint32_t pc);

  const Emulator& m_emulator;
  const ptx::Module& m_module;
  const ptx::Function& m_function;
  const std::vector<ptx::Instruction>& m_code;
  LaunchConfig m_config;
  std::vector<uint8_t> m_parameters;
  DeviceMemory& m_memory;

  Dim3 m_block_index;
  uint64_t m_block_linear = 0;
  uint32_t m_block_exited = 0;   // threads of the current block that have exited
  std::vector<uint8_t> m_shared;
  SharedWriteMap m_shared_written;
  // A load of shared bytes no thread had written yet. Warned about at the end of its epoch, unless
  // another warp wrote them by then: that is a race, which the race detector reports.
  struct UninitializedRead {
    uint32_t pc = 0, warp = 0;
    int lane = 0;
    uint64_t address = 0;  // the first byte nobody had written
    uint32_t element_bytes = 0;
  };
  std::vector<UninitializedRead> m_uninitialized_reads;  // this epoch's, one per line at most
  static constexpr uint8_t k_read_pending = 1, k_line_warned = 2;
  std::vector<uint8_t> m_warned_uninitialized;  // per instruction: 0, k_read_pending or k_line_warned
  BlockSectorSet m_block_sectors;
  std::vector<Warp> m_warps;  // the block's
  std::vector<uint8_t> m_local;  // block threads x local_bytes
  std::vector<uint64_t> m_registers;
  uint64_t m_budget_left = 0;
  std::map<uint32_t, Mbarrier> m_mbarriers;  // this block's, by shared offset
  std::vector<Warp>* m_block_warps = nullptr;  // the block being run
  std::chrono::steady_clock::time_point m_time_limit_at;  // max() when the launch has no time limit
  bool m_failed = false;
  bool m_prepared = false;  // the kernel checked for unsupported instructions, shared memory laid out
  std::vector<uint32_t> m_warned_barriers;
  std::array<BarrierReduction, 16> m_reductions{};
  std::array<uint32_t, 16> m_arrivals{};  // per barrier: threads that arrived with bar.arrive, not yet counted
  RaceDetector m_races;
  std::vector<std::pair<uint32_t, uint32_t>> m_reported_races;  // pairs of lines already reported
  std::vector<RaceReport> m_pending_warp_races;  // this epoch's races within one warp, one per pair of lines

  struct PrintedLine {
    uint64_t block;
    uint32_t warp;
    uint64_t sequence;
    std::string text;
  };
  std::vector<PrintedLine> m_printed;  // vprintf output, ordered at the end
  uint64_t m_printed_bytes = 0;

  std::vector<Counters> m_counters;  // per instruction
  // Global atomics by word and by 1 KB region (kernel_atomic.cpp): the passes L2 makes on each,
  // and the most on any one so far (global_atom_chain and global_atom_region_chain grow with
  // that most, at the instruction that raises it). A range run on another host thread records
  // its passes instead (deferred), and absorb adds them in block order.
  struct AtomicHotSpots {
    std::unordered_map<uint64_t, uint64_t> words, regions;
    uint64_t word_most = 0, region_most = 0;
    struct Passes {
      uint64_t key;
      uint32_t passes;
      uint32_t pc;
      bool region;
    };
    bool deferred = false;
    std::vector<Passes> recorded;
  };
  AtomicHotSpots m_atomic_hot;
  void count_atomic_passes(uint32_t pc, uint64_t key, uint64_t passes, bool region);
  // Per instruction: 1 when ptxas aggregates the atomic over the warp (the address and the added
  // value are the same in every lane by construction), 0 when not, -1 not yet known.
  std::vector<int8_t> m_warp_uniform_atomic;
  bool warp_uniform_atomic(const ptx::Instruction& in);
  // The bank cost of recent shared accesses, by instruction (a small cache indexed by pc: a miss
  // only costs the count).
  struct SharedCostSlot {
    uint32_t pc = UINT32_MAX;
    SharedCostMemo memo;
  };
  static constexpr size_t k_shared_cost_slots = 64;
  std::vector<SharedCostSlot> m_shared_costs = std::vector<SharedCostSlot>(k_shared_cost_slots);
  std::vector<Diagnostic> m_diagnostics;
  std::vector<Counters> m_sampled_block_counters;  // with sample_blocks: each sampled block's
  std::vector<std::string> m_once_keys;  // beside m_diagnostics: each one's once_key
  GlobalFootprint* m_footprint = nullptr;  // set when other host threads run other blocks at once
  // Instructions that change what other threads can see or do (stores, atomics, barrier
  // arrivals, exits): a cooperative launch in which a round of every block adds none is stuck.
  uint64_t m_progress = 0;

  // One block's state while the other blocks of a cooperative launch take their turn: what
  // swap_block exchanges with the KernelRun's own members.
  struct BlockState {
    Dim3 index;
    uint64_t linear = 0;
    uint32_t exited = 0;
    bool started = false, done = false;
    std::vector<uint8_t> shared;
    SharedWriteMap shared_written;
    std::vector<UninitializedRead> uninitialized_reads;
    BlockSectorSet sectors;
    std::vector<uint8_t> local;
    std::vector<uint64_t> registers;
    std::map<uint32_t, Mbarrier> mbarriers;
    std::vector<Warp> warps;
    std::array<BarrierReduction, 16> reductions{};
    std::array<uint32_t, 16> arrivals{};
    RaceDetector races;
    std::vector<RaceReport> pending_warp_races;
  };
};

// Runs the launch `first` was made for, its blocks split over host threads where that pays
// (kernel_launch.cpp); `make_run` makes another KernelRun of the same launch.
LaunchResult run_split(KernelRun& first, const LaunchConfig& config, DeviceMemory& memory,
                       const std::function<std::unique_ptr<KernelRun>()>& make_run);

}  // namespace tilecamp::emu
