// Loads and stores: address resolution per state space, bounds and alignment checks, the
// per-request charging of global sectors and shared-memory wavefronts, and loads of shared memory
// that no thread of the block has written yet.
#include <algorithm>
#include <bit>
#include <cstring>
#include <optional>
#include <utility>

#include "checker/emu/alu.h"
#include "checker/emu/race_detector.h"
#include "checker/emu/kernel_run.h"
#include "checker/ptx/kernel_lookup.h"

namespace tilecamp::emu {

using ptx::Instruction;
using ptx::Operand;
using ptx::Space;

Space classify_generic(uint64_t address) {
  if (address >= k_shared_window && address < k_shared_window + k_window_size) return Space::Shared;
  if (address >= k_local_window && address < k_local_window + k_window_size) return Space::Local;
  return Space::Global;
}

uint64_t space_address(Space space, uint64_t generic) {
  if (space == Space::Shared) return generic - k_shared_window;
  if (space == Space::Local) return generic - k_local_window;
  return generic;
}

namespace {

// A store or an atomic: for the footprint of a launch split over host threads.
bool writes_memory(const Instruction& in) {
  return in.opcode == ptx::Opcode::St || in.opcode == ptx::Opcode::Atom || in.opcode == ptx::Opcode::Red ||
         in.opcode == ptx::Opcode::WmmaStore;
}

const char* access_name(const Instruction& in) {
  return in.opcode == ptx::Opcode::St || in.opcode == ptx::Opcode::WmmaStore ? "store" : "load";
}

// [offset, offset + bytes) lies within [0, size). Written so that nothing wraps: an index of -1
// makes a 64-bit offset just below 2^64, and `offset + bytes` would come out small.
bool fits(uint64_t offset, uint64_t bytes, uint64_t size) { return offset < size && bytes <= size - offset; }

// A byte offset as the program computed it: a small negative index wraps to just below 2^64.
std::string signed_offset(uint64_t address) { return std::to_string(static_cast<int64_t>(address)); }

}  // namespace

// Resolves every active lane's address of a warp-wide access: state space, alignment, bounds.
// Returns false after reporting the first bad lane.
bool KernelRun::resolve_access(Warp& warp, const Instruction& in, const Operand& address_operand, uint32_t lanes,
                               uint32_t bytes, WarpAccess& access) {
  // Lanes of one warp nearly always hit the buffer the previous lane hit: that range is checked
  // before searching every buffer. Ranges are held as the first and the last address an access of
  // `bytes` may start at, so that two comparisons decide and nothing wraps (an index of -1 makes
  // an address just below 2^64).
  uint64_t cached_first = 1, cached_last = 0;  // none yet
  uint8_t* cached_base = nullptr;
  size_t cached_buffer = 0;
  const bool writes = writes_memory(in);
  const bool shared_holds_one = m_shared.size() >= bytes;
  const uint64_t shared_last = shared_holds_one ? m_shared.size() - bytes : 0;
  const bool parameters_hold_one = m_parameters.size() >= bytes;
  const uint64_t parameters_last = parameters_hold_one ? m_parameters.size() - bytes : 0;
  // What is the same for every lane: the constant part of the address and the state space.
  uint64_t base = static_cast<uint64_t>(address_operand.offset);
  if (address_operand.symbol >= 0) base += symbol_value(address_operand.symbol);
  const bool call_parameter = address_operand.symbol >= 0 && m_module.symbols[address_operand.symbol].call_parameter;
  const Space instruction_space = in.space == Space::Param && call_parameter ? Space::Local  // per-thread (registers on a GPU)
                                                                              : in.space;
  const uint64_t* registers = address_operand.reg >= 0 ? warp.registers + address_operand.reg * k_warp_size : nullptr;
  if (instruction_space == Space::Shared && shared_holds_one) {
    // The usual shared access (ld.shared, st.shared): every lane aligned and in the window, or
    // the general way below, which reports the first lane that is not.
    bool all_fit = true;
    for (uint32_t rest = lanes; rest != 0; rest &= rest - 1) {
      const int lane = std::countr_zero(rest);
      const uint64_t address = registers ? base + registers[lane] : base;
      all_fit &= (address & (bytes - 1)) == 0 && address <= shared_last;
      access.pointers[lane] = m_shared.data() + (address <= shared_last ? address : 0);  // used only if all fit
      access.addresses[k_shared_slot][lane] = address;
    }
    if (all_fit) {
      access.lanes[k_shared_slot] = lanes;
      return true;
    }
  }
  for (int lane = 0; lane < k_warp_size; ++lane) {
    if (!(lanes >> lane & 1u)) continue;
    uint64_t address = registers ? base + registers[lane] : base;
    Space space = instruction_space;
    if (space == Space::Generic) {
      space = classify_generic(address);
      address = space_address(space, address);
    }
    if ((address & (bytes - 1)) != 0) {  // access sizes are powers of two
      fail(in, "misaligned", "misaligned " + std::string(access_name(in)) + " of " + std::to_string(bytes) +
                                 " bytes at an address that is not a multiple of " + std::to_string(bytes) +
                                 " by " + thread_name(warp, lane));
      return false;
    }
    if (space == Space::Global && address >= cached_first && address <= cached_last) {
      access.pointers[lane] = cached_base + (address - cached_first);
      if (m_footprint) m_footprint->mark(cached_buffer, address - cached_first, bytes, writes);
    } else if (space == Space::Shared && shared_holds_one && address <= shared_last) {
      access.pointers[lane] = m_shared.data() + address;
    } else if (space == Space::Param && !call_parameter && parameters_hold_one && address <= parameters_last) {
      access.pointers[lane] = m_parameters.data() + address;  // a kernel parameter: every lane reads it
    } else if (DeviceBuffer* buffer = space == Space::Global ? m_memory.find(address, bytes) : nullptr) {
      cached_first = buffer->address;
      cached_last = buffer->address + buffer->size() - bytes;  // find: the buffer holds the access
      cached_base = buffer->data();
      cached_buffer = static_cast<size_t>(buffer - m_memory.buffers().data());
      access.pointers[lane] = cached_base + (address - cached_first);
      if (m_footprint) m_footprint->mark(cached_buffer, address - cached_first, bytes, writes);
    } else {  // other spaces, and every miss: resolve checks the bounds and reports
      access.pointers[lane] = resolve(warp, in, space, address, bytes, lane);
      if (access.pointers[lane] == nullptr) return false;
    }
    const int slot = space == Space::Global                         ? k_global_slot
                     : space == Space::Shared                       ? k_shared_slot
                     : space == Space::Local && !call_parameter     ? k_local_slot
                     : space == Space::Const                        ? k_const_slot
                                                                    : -1;
    if (slot >= 0) {
      access.addresses[slot][lane] = address;
      access.lanes[slot] |= 1u << lane;
    }
  }
  return true;
}

void KernelRun::memory_access(Warp& warp, const Instruction& in, uint32_t lanes) {
  const bool is_store = in.opcode == ptx::Opcode::St;
  const Operand& address_operand = in.operands[is_store ? 0 : 1];
  const Operand& value_operand = in.operands[is_store ? 1 : 0];
  const uint32_t element_bytes = static_cast<uint32_t>(std::max(1, ptx::type_bits(in.type) / 8));
  const uint32_t bytes = element_bytes * in.vector;
  const int element_bits = static_cast<int>(element_bytes * 8);

  WarpAccess access;
  if (!resolve_access(warp, in, address_operand, lanes, bytes, access)) return;
  const ChargedAccess charged = count_access(in, access, bytes, is_store);
  // Global loads travel in rounds: those a warp issues before a barrier, a global store (which a
  // later load may not pass: they may alias) or a loop's back-edge wait together, once. A
  // read-only load (ld.global.nc: __restrict__ const) may pass the stores: no store changes it, and
  // ptxas moves it up, so it joins the round the store ended.
  if (access.lanes[0] != 0) {
    if (is_store) {
      warp.round_ended_by_store |= warp.load_round_open;
      warp.load_round_open = false;
    } else if (!warp.load_round_open) {
      warp.load_round_open = true;
      if (!(in.non_coherent && warp.round_ended_by_store)) ++m_counters[&in - m_code.data()].global_ld_rounds;
      if (!std::exchange(warp.has_loaded, true)) ++m_counters[&in - m_code.data()].loading_warps;
    }
  }
  const auto& pointers = access.pointers;

  std::array<uint64_t, k_warp_size> stored_low, stored_high;  // for the race detector: stores only
  if (is_store) {
    stored_low.fill(0);
    stored_high.fill(0);
  }
  if (in.vector == 1 && element_bytes == 4 && value_operand.kind == Operand::Kind::Register && !is_store) {
    // The common scalar 32-bit load, without the general element loop.
    uint64_t* destination = warp.registers + value_operand.reg * k_warp_size;
    const bool is_signed_type = ptx::is_signed(in.type);
    for_each_lane(lanes, [&](int lane) {
      uint32_t value;
      std::memcpy(&value, pointers[lane], 4);
      destination[lane] = is_signed_type ? static_cast<uint64_t>(static_cast<int64_t>(static_cast<int32_t>(value))) : value;
    });
    lanes = 0;  // done: skip the general loop below
  } else if (in.vector == 1 && element_bytes == 4 && value_operand.kind == Operand::Kind::Register && is_store) {
    const uint64_t* source = warp.registers + value_operand.reg * k_warp_size;
    for_each_lane(lanes, [&](int lane) {
      const uint32_t value = static_cast<uint32_t>(source[lane]);
      std::memcpy(pointers[lane], &value, 4);
      stored_low[lane] = value;
    });
    lanes = 0;
  }
  for (int lane = 0; lane < k_warp_size; ++lane) {
    if (!(lanes >> lane & 1u)) continue;
    for (uint32_t e = 0; e < in.vector; ++e) {
      uint8_t* pointer = pointers[lane] + e * element_bytes;
      const int reg = value_operand.kind == Operand::Kind::Vector ? value_operand.elements[e] : value_operand.reg;
      if (is_store) {
        const uint64_t value = value_operand.kind == Operand::Kind::Immediate
                                   ? value_operand.bits
                                   : (reg >= 0 ? warp.registers[reg * k_warp_size + lane] : 0);
        std::memcpy(pointer, &value, element_bytes);  // little-endian: the low bytes
        const uint32_t at = e * element_bytes;  // an element never straddles byte 8
        (at < 8 ? stored_low : stored_high)[lane] |= truncate_bits(value, element_bits) << (8 * (at % 8));
      } else if (reg >= 0) {
        uint64_t value = 0;
        std::memcpy(&value, pointer, element_bytes);
        if (ptx::is_signed(in.type)) value = static_cast<uint64_t>(sign_extend(value, element_bits));
        write(warp, reg, lane, value);
      }
    }
  }
  if (m_config.observer) observe_access(warp, in, access, bytes, charged);
  if (access.lanes[1]) {
    // A .relaxed, .acquire or .release access is atomic in the memory model: it races with plain
    // accesses, not with atomics or other such accesses.
    using Semantics = Instruction::Semantics;
    const bool strong = in.semantics != Semantics::Weak;
    track_shared_access(warp, in, access.addresses[1], access.lanes[1], bytes, element_bytes, is_store, strong,
                        is_store ? &stored_low : nullptr, is_store ? &stored_high : nullptr);
    const uint64_t first = access.addresses[1][std::countr_zero(access.lanes[1])];
    if (in.semantics == Semantics::Release) m_races.release(warp.index, epoch_step(warp), first, false);
    if (in.semantics == Semantics::Acquire) m_races.acquire(warp.index, first);
  }
}

void KernelRun::track_shared_access(const Warp& warp, const Instruction& in, const LaneAddresses& addresses,
                                    uint32_t lanes, uint32_t bytes, uint32_t element_bytes, bool is_store, bool strong,
                                    const std::array<uint64_t, k_warp_size>* values_low,
                                    const std::array<uint64_t, k_warp_size>* values_high) {
  SharedAccess shared{.warp = warp.index, .lanes = lanes, .addresses = &addresses, .bytes = bytes,
                      .is_write = is_store, .is_atomic = strong, .pc = static_cast<uint32_t>(&in - m_code.data()),
                      .step = epoch_step(warp), .values_low = values_low, .values_high = values_high};
  if (auto race = m_races.record(shared)) report_race(*race);
  if (is_store && !strong) m_races.plain_stores(addresses, lanes);
  if (is_store) m_shared_written.mark(addresses, lanes, bytes);
  else check_shared_written(warp, in, addresses, lanes, bytes, element_bytes);
}

// A load of shared bytes no thread of the block has written reads what the previous block left.
// Noted once per line, and judged when the epoch ends (warn_uninitialized_reads).
void KernelRun::check_shared_written(const Warp& warp, const Instruction& in, const LaneAddresses& addresses,
                                     uint32_t lanes, uint32_t bytes, uint32_t element_bytes) {
  const uint32_t pc = static_cast<uint32_t>(&in - m_code.data());
  if (m_shared_written.all_written() || m_warned_uninitialized[pc] ||
      m_shared_written.all_written(addresses, lanes, bytes)) {
    return;  // the usual case, and the cheapest tests first
  }
  for (uint32_t rest = lanes; rest != 0; rest &= rest - 1) {
    const int lane = std::countr_zero(rest);
    if (const std::optional<uint64_t> hole = m_shared_written.first_unwritten(addresses[lane], bytes)) {
      m_uninitialized_reads.push_back({pc, warp.index, lane, *hole, element_bytes});
      m_warned_uninitialized[pc] = k_read_pending;
      return;
    }
  }
}

// At the end of an epoch (a barrier, the end of the block): a read of bytes that another warp
// wrote since is a race, reported as one; the others read garbage on a GPU, whatever the timing.
void KernelRun::warn_uninitialized_reads() {
  for (const UninitializedRead& read : m_uninitialized_reads) {
    if (m_warned_uninitialized[read.pc] == k_line_warned) continue;  // another instruction of its line
    if (m_races.written_by_other_warp(read.address, read.warp)) {
      m_warned_uninitialized[read.pc] = 0;  // a later block may still read it uninitialized
      continue;
    }
    const ptx::SourceLocation& location = m_code[read.pc].location;
    for (size_t pc = 0; pc < m_code.size(); ++pc) {
      if (m_code[pc].location.file == location.file && m_code[pc].location.line == location.line) {
        m_warned_uninitialized[pc] = k_line_warned;
      }
    }
    warn(m_code[read.pc], "uninitialized-shared",
         where(read.pc) + " reads " + shared_element(read.address, read.element_bytes, "element") + " (" +
             thread_name(read.warp, read.lane) + " of block " + block_name() +
             ") before any thread of the block wrote it; shared memory starts with whatever the previous block "
             "left there (the emulator fills it with 0xcd bytes: -431602080 as a float)",
         "uninitialized:" + std::to_string(location.file) + ":" + std::to_string(location.line));
  }
  m_uninitialized_reads.clear();
}

// The shared variable laid out last at or before `address` (the one holding it, or the one it
// ran past), or nullptr.
const ptx::Symbol* KernelRun::shared_variable_before(uint64_t address) const {
  const ptx::Symbol* last = nullptr;
  for (const ptx::Symbol& symbol : m_module.symbols) {
    if (symbol.space != Space::Shared || symbol.offset > address) continue;
    if (last == nullptr || symbol.offset >= last->offset) last = &symbol;
  }
  return last;
}

uint64_t KernelRun::shared_variable_bytes(const ptx::Symbol& symbol) const {
  return symbol.size == 0 ? m_config.dynamic_shared_bytes : symbol.size;  // extern __shared__
}

// "; past the end of `tile` (4096 bytes)": the shared variable an address outside the block's
// shared memory overran, or, for a negative offset, "; before the start of `tile` (4096 bytes)".
std::string KernelRun::shared_variable_overrun(uint64_t address) const {
  const bool before = static_cast<int64_t>(address) < 0;
  const ptx::Symbol* variable = shared_variable_before(before ? 0 : address);
  if (variable == nullptr) return "";
  return std::string(before ? "; before the start of `" : "; past the end of `") +
         ptx::readable_variable_name(variable->name) + "` (" + std::to_string(shared_variable_bytes(*variable)) +
         " bytes)";
}

// A byte per byte of the block's shared memory: 0 in the variables the kernel names, 1 elsewhere
// (the module lays out every kernel's variables, and a kernel reaches only its own).
std::vector<uint8_t> KernelRun::shared_bytes_not_named() const {
  // The reserved region (after the kernel's own) is never named by the kernel: no reads of it
  // are reported as uninitialized, since it starts zeroed.
  std::vector<uint8_t> not_named(
      m_function.reserved_shared_bytes != 0 ? reserved_shared_begin() + m_function.reserved_shared_bytes
                                            : m_function.static_shared_bytes + m_config.dynamic_shared_bytes,
      1);
  for (const Instruction& in : m_code) {
    for (int i = 0; i < in.operand_count; ++i) {
      const int32_t symbol = in.operands[i].symbol;
      if (symbol < 0 || m_module.symbols[symbol].space != Space::Shared) continue;
      const ptx::Symbol& variable = m_module.symbols[symbol];
      const uint64_t begin = std::min<uint64_t>(variable.offset, not_named.size());
      const uint64_t end = std::min<uint64_t>(begin + shared_variable_bytes(variable), not_named.size());
      std::fill(not_named.begin() + static_cast<ptrdiff_t>(begin), not_named.begin() + static_cast<ptrdiff_t>(end), 0);
    }
  }
  return not_named;
}

uint8_t* KernelRun::resolve_generic(Warp& warp, const Instruction& in, uint64_t address, uint32_t bytes, int lane) {
  const Space space = classify_generic(address);
  return resolve(warp, in, space, space_address(space, address), bytes, lane);
}

uint8_t* KernelRun::resolve(Warp& warp, const Instruction& in, Space space, uint64_t address,
                            uint32_t bytes, int lane) {
  auto out_of_bounds = [&](const std::string& what) {
    fail(in, "out-of-bounds", "out-of-bounds " + std::string(ptx::space_name(space)) + " " +
                                  access_name(in) + " of " + std::to_string(bytes) + " bytes at " + what +
                                  " by " + thread_name(warp, lane));
    return nullptr;
  };
  switch (space) {
    case Space::Global: {
      DeviceBuffer* buffer = m_memory.find(address, bytes);
      if (buffer == nullptr) return out_of_bounds(m_memory.describe_miss(address, bytes));
      if (m_footprint) {
        m_footprint->mark(static_cast<size_t>(buffer - m_memory.buffers().data()), address - buffer->address, bytes,
                          writes_memory(in));
      }
      return buffer->data() + (address - buffer->address);
    }
    case Space::Const: {  // the constant bank holds the __constant__ variables, nothing else
      DeviceBuffer* buffer = m_memory.find(address, bytes);
      if (buffer == nullptr || !buffer->constant) {
        return out_of_bounds("an address outside every __constant__ variable (ld.const reads the constant bank, not "
                             "global memory: on an H200 such a load returned zeros)");
      }
      return buffer->data() + (address - buffer->address);
    }
    case Space::Shared:
      if (!fits(address, bytes, m_shared.size())) {
        return out_of_bounds("byte " + signed_offset(address) + " of shared memory (the block has " +
                             std::to_string(m_shared.size()) + " bytes" + shared_variable_overrun(address) + ")");
      }
      return m_shared.data() + address;
    case Space::Local: {
      if (!fits(address, bytes, m_function.local_bytes)) {
        return out_of_bounds("byte " + signed_offset(address) + " of the thread's local memory (" +
                             std::to_string(m_function.local_bytes) + " bytes)");
      }
      const size_t thread = size_t{warp.index} * k_warp_size + static_cast<size_t>(lane);
      return m_local.data() + thread * m_function.local_bytes + address;
    }
    case Space::Param:
      if (!fits(address, bytes, m_parameters.size())) {
        return out_of_bounds("byte " + signed_offset(address) + " of the kernel parameters");
      }
      return m_parameters.data() + address;
    case Space::Generic:
      break;
  }
  return out_of_bounds("an address in no state space");
}

KernelRun::ChargedAccess KernelRun::count_access(const Instruction& in, const WarpAccess& access, uint32_t bytes,
                                                bool is_store) {
  Counters& counters = m_counters[&in - m_code.data()];
  ChargedAccess charged_access;
  if (access.lanes[0]) {
    const GlobalSegments segments = count_global_segments(access.addresses[0], access.lanes[0], bytes);
    const uint32_t sectors = segments.sectors;
    (is_store ? counters.global_st_requests : counters.global_ld_requests) += 1;
    (is_store ? counters.global_st_sectors : counters.global_ld_sectors) += sectors;
    charged_access.global = {1, sectors, 0};
    // The bytes the threads asked for: against sectors * 32 it says how much traffic was useful.
    const uint64_t lane_bytes = uint64_t{bytes} * std::popcount(access.lanes[0]);
    (is_store ? counters.global_st_bytes : counters.global_ld_bytes) += lane_bytes;
    // The same, each byte once however many lanes name it: what the efficiencies divide, so that
    // a broadcast (32 lanes, one word) cannot pass for 32 useful words.
    const uint64_t distinct = uint64_t{segments.elements} * bytes;
    (is_store ? counters.global_st_distinct_bytes : counters.global_ld_distinct_bytes) += std::min(distinct, lane_bytes);
    if (!is_store) {
      counters.global_ld_unique_sectors += count_new_block_sectors(access.addresses[0], access.lanes[0]);
      counters.global_ld_sector_pairs += segments.pairs;
    }
  }
  if (access.lanes[1]) {
    // A member of a merged access charges the chunk or nothing, at the chunk's addresses.
    LaneAddresses fused;
    const LaneAddresses* charged_addresses = &access.addresses[1];
    uint32_t charged = bytes;
    if (in.fused_bytes != 0) {
      fused = access.addresses[1];
      charged = fused_access_bytes(fused, access.lanes[1], bytes, in.fused_bytes, in.fused_first);
      charged_addresses = &fused;
    }
    if (charged != 0) {
      const auto pc = static_cast<uint32_t>(&in - m_code.data());
      SharedCostSlot& slot = m_shared_costs[pc % k_shared_cost_slots];
      if (slot.pc != pc) slot = {pc, {}};
      const SharedCost cost = slot.memo.count(*charged_addresses, access.lanes[1], charged);
      (is_store ? counters.shared_st_requests : counters.shared_ld_requests) += 1;
      (is_store ? counters.shared_st_wavefronts : counters.shared_ld_wavefronts) += cost.wavefronts;
      (is_store ? counters.shared_st_bank_conflicts : counters.shared_ld_bank_conflicts) += cost.bank_conflicts();
      charged_access.shared = {1, cost.wavefronts, cost.ideal_wavefronts};
    }
  }
  if (access.lanes[2]) {
    // Local memory is interleaved by 4-byte words across a warp's threads, so the same offset
    // in every lane is contiguous: word w of lane l sits at (w * 32 + l) * 4.
    LaneAddresses interleaved{};
    uint32_t sectors = 0;
    for (uint32_t word = 0; word < (bytes + 3) / 4; ++word) {
      for (int lane = 0; lane < k_warp_size; ++lane) {
        if (!(access.lanes[2] >> lane & 1u)) continue;
        interleaved[lane] = ((access.addresses[2][lane] / 4 + word) * k_warp_size + static_cast<uint64_t>(lane)) * 4;
      }
      sectors += count_sectors(interleaved, access.lanes[2], std::min<uint32_t>(bytes, 4));
    }
    (is_store ? counters.local_st_requests : counters.local_ld_requests) += 1;
    (is_store ? counters.local_st_sectors : counters.local_ld_sectors) += sectors;
  }
  if (access.lanes[k_const_slot]) {
    // The constant cache serves one address a pass: lanes reading one value share it, different
    // addresses take a pass each.
    ++counters.const_ld_requests;
    counters.const_ld_wavefronts += distinct_addresses(access.addresses[k_const_slot], access.lanes[k_const_slot]);
  }
  return charged_access;
}

void BlockSectorSet::clear() {
  m_size = 0;
  if (++m_generation != 0) return;
  for (Slot& slot : m_slots) slot.generation = 0;  // after 2^32 blocks: start over
  m_generation = 1;
}

bool BlockSectorSet::insert(uint64_t sector) {
  if (2 * (m_size + 1) > m_slots.size()) grow();
  const size_t mask = m_slots.size() - 1;
  for (size_t index = (sector * 0x9E3779B97F4A7C15ull) >> 32 & mask;; index = (index + 1) & mask) {
    Slot& slot = m_slots[index];
    if (slot.generation != m_generation) {
      slot = {sector, m_generation};
      ++m_size;
      return true;
    }
    if (slot.sector == sector) return false;
  }
}

void BlockSectorSet::grow() {
  std::vector<Slot> old(2 * m_slots.size());
  std::swap(old, m_slots);
  const uint32_t generation = std::exchange(m_generation, 1);
  m_size = 0;
  for (const Slot& slot : old) {
    if (slot.generation == generation) insert(slot.sector);
  }
}

// The sectors of a global load that no earlier load of this block touched: all that an L1 which
// keeps what one block reads has to fetch from L2 (the cost model's L1 term). An access is
// aligned to its size, at most 32 bytes, so it stays within one sector.
uint32_t KernelRun::count_new_block_sectors(const LaneAddresses& addresses, uint32_t lanes) {
  uint32_t added = 0;
  uint64_t previous = ~uint64_t{0};  // neighbouring lanes mostly share a sector: skip the lookup
  for_each_lane(lanes, [&](int lane) {
    const uint64_t sector = addresses[lane] / k_sector_bytes;
    if (sector == previous) return;
    previous = sector;
    added += m_block_sectors.insert(sector) ? 1 : 0;
  });
  return added;
}

}  // namespace tilecamp::emu
