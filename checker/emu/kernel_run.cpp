#include "checker/emu/kernel_run.h"

#include <algorithm>
#include <bit>
#include <cstdio>
#include <map>
#include <tuple>
#include <utility>

#include "checker/emu/alu.h"

namespace tilecamp::emu {

using ptx::Instruction;
using ptx::Opcode;
using ptx::Operand;

namespace {

constexpr uint32_t k_sm_count = 132;  // an H200's SMs, for %smid and %nsmid

// What a block finds in its registers, shared and local memory before it writes them: on a GPU,
// whatever was there before. 0xcd bytes make that visible as absurd but finite numbers (-431602080
// as a float), never as the NaN or -1 the grader puts in outputs to spot elements never written.
constexpr uint8_t k_garbage_byte = 0xcd;
constexpr uint64_t k_garbage_register = 0xcdcd'cdcd'cdcd'cdcdull;

}  // namespace

// "0-15", "0-3,8,31": lane sets for messages.
std::string lane_list(uint32_t mask) {
  std::string text;
  for (int lane = 0; lane < k_warp_size;) {
    if (!(mask >> lane & 1u)) {
      ++lane;
      continue;
    }
    int end = lane;
    while (end + 1 < k_warp_size && (mask >> (end + 1) & 1u)) ++end;
    if (!text.empty()) text += ",";
    text += std::to_string(lane);
    if (end > lane) text += "-" + std::to_string(end);
    lane = end + 1;
  }
  return text;
}

std::string hex_mask(uint32_t mask) {
  char text[16];
  std::snprintf(text, sizeof text, "0x%08x", mask);
  return text;
}

KernelRun::KernelRun(const Emulator& emulator, const ptx::Function& function,
                     const LaunchConfig& config, std::vector<uint8_t> parameter_buffer,
                     DeviceMemory& memory)
    : m_emulator(emulator),
      m_module(emulator.module()),
      m_function(function),
      m_code(function.instructions),
      m_config(config),
      m_parameters(std::move(parameter_buffer)),
      m_memory(memory),
      m_warned_uninitialized(function.instructions.size(), 0),
      m_budget_left(config.instruction_budget),
      m_time_limit_at(config.time_limit_ms == 0
                          ? std::chrono::steady_clock::time_point::max()
                          : std::chrono::steady_clock::now() + std::chrono::milliseconds(config.time_limit_ms)),
      m_counters(function.instructions.size()) {}

LaunchResult KernelRun::run() {
  run_blocks(0, m_config.grid.count());
  return finish();
}

void KernelRun::run_blocks(uint64_t first, uint64_t end, const std::atomic<bool>* stop) {
  if (!std::exchange(m_prepared, true)) {
    for (const Instruction& in : m_code) {  // refuse up front rather than run part of a kernel
      if (in.opcode == Opcode::Unsupported) {
        fail(in, "unsupported", "tilecamp's emulator does not support " + in.unsupported_reason +
                                    " (in `" + in.text + "`)");
      }
      if (m_failed) return;
    }
    m_shared_written.set_ignored(shared_bytes_not_named());
  }
  if (m_config.cooperative) {
    run_cooperative();
    return;
  }
  const Dim3& grid = m_config.grid;
  if (!m_config.sample_blocks.empty()) {
    Counters before;
    for (const Dim3& block : m_config.sample_blocks) {
      if (m_failed) break;
      m_block_index = block;
      m_block_linear = (uint64_t{block.z} * grid.y + block.y) * grid.x + block.x;
      run_block();
      const Counters after = sum_of_counters();
      m_sampled_block_counters.push_back(after - before);
      before = after;
      const std::vector<Counters>& ran = m_sampled_block_counters;
      if (ran.size() == m_config.sample_uniform_after && ran.size() < m_config.sample_blocks.size() &&
          std::all_of(ran.begin(), ran.end(), [&](const Counters& c) { return c == ran.front(); })) {
        break;
      }
    }
    return;
  }
  for (uint64_t linear = first; linear < end && !m_failed; ++linear) {
    if (stop != nullptr && stop->load(std::memory_order_relaxed)) return;
    m_block_linear = linear;
    m_block_index = block_in_grid(linear, grid);
    run_block();
  }
}

LaunchResult KernelRun::finish() {
  LaunchResult result;
  result.block_counters = std::move(m_sampled_block_counters);
  result.completed = !m_failed;
  result.shared_bytes_per_block = m_function.static_shared_bytes + m_config.dynamic_shared_bytes;
  std::stable_sort(m_printed.begin(), m_printed.end(), [](const PrintedLine& a, const PrintedLine& b) {
    return std::tie(a.block, a.warp, a.sequence) < std::tie(b.block, b.warp, b.sequence);
  });
  for (const PrintedLine& line : m_printed) result.output += line.text;
  result.diagnostics = std::move(m_diagnostics);
  std::map<std::pair<int, int>, Counters> by_line;
  for (size_t pc = 0; pc < m_code.size(); ++pc) {
    result.totals += m_counters[pc];
    if (m_counters[pc].warp_instructions == 0) continue;
    by_line[{m_code[pc].location.file, m_code[pc].location.line}] += m_counters[pc];
  }
  for (const auto& [key, counters] : by_line) {
    const std::string& file = key.first < static_cast<int>(m_module.files.size()) ? m_module.files[key.first] : "";
    result.lines.push_back({file, key.second, counters});
  }
  return result;
}

Counters KernelRun::sum_of_counters() const {
  Counters sum;
  for (const Counters& counters : m_counters) sum += counters;
  return sum;
}

void KernelRun::run_block() {
  start_block();
  step_block(false);
}

void KernelRun::start_block() {
  const Dim3& block = m_config.block;
  const uint32_t threads = static_cast<uint32_t>(block.count());
  const uint32_t warp_count = (threads + k_warp_size - 1) / k_warp_size;
  const size_t register_count = m_function.register_names.size();
  m_registers.assign(warp_count * register_count * k_warp_size, k_garbage_register);
  m_shared.assign(m_function.static_shared_bytes + m_config.dynamic_shared_bytes, k_garbage_byte);
  // The reserved region starts zeroed: cooperative groups counts on it (its barrier words).
  if (m_function.reserved_shared_bytes != 0) m_shared.resize(reserved_shared_begin() + m_function.reserved_shared_bytes, 0);
  m_shared_written.start_block();
  m_uninitialized_reads.clear();
  m_block_sectors.clear();
  m_races.start_block(static_cast<uint32_t>(m_shared.size()));
  m_local.assign(size_t{threads} * m_function.local_bytes, k_garbage_byte);
  m_block_exited = 0;
  m_reductions = {};
  m_warps.assign(warp_count, Warp{});
  m_block_warps = &m_warps;
  m_mbarriers.clear();
  m_arrivals.fill(0);
  for (uint32_t w = 0; w < warp_count; ++w) {
    Warp& warp = m_warps[w];
    warp.index = w;
    warp.registers = m_registers.data() + w * register_count * k_warp_size;
    for (int lane = 0; lane < k_warp_size; ++lane) {
      const uint32_t linear = w * k_warp_size + lane;
      if (linear >= threads) break;
      warp.live_mask |= 1u << lane;
      const Dim3 tid = thread_in_block(linear, block);
      warp.tid_x[lane] = tid.x;
      warp.tid_y[lane] = tid.y;
      warp.tid_z[lane] = tid.z;
    }
    warp.stack.push_back({0, static_cast<uint32_t>(m_code.size()), warp.live_mask});
  }
}

bool KernelRun::step_block(bool suspend_when_waiting) {
  std::vector<Warp>& warps = m_warps;
  while (!m_failed) {
    for (Warp& warp : warps) {
      if (warp.state == Warp::State::Running) run_warp(warp);
      if (m_failed) {
        flush_warp_races();
        return true;
      }
    }
    // A warp that yielded in a wait loop runs again, after the others have had their turn.
    if (std::any_of(warps.begin(), warps.end(), [](const Warp& w) { return w.state == Warp::State::Running; })) {
      if (suspend_when_waiting) return false;
      continue;
    }
    if (std::none_of(warps.begin(), warps.end(),
                     [](const Warp& w) { return w.state == Warp::State::AtBarrier; })) {
      flush_warp_races();
      warn_uninitialized_reads();
      return true;  // every warp is done
    }
    release_barrier(warps);
  }
  return true;
}

void KernelRun::run_warp(Warp& warp) {
  while (warp.state == Warp::State::Running && !m_failed) {
    if (warp.stack.empty()) {
      warp.state = Warp::State::Done;
      return;
    }
    const StackEntry& top = warp.stack.back();
    if (top.mask == 0 || top.pc == top.reconverge_pc) {
      warp.stack.pop_back();
      continue;
    }
    if (top.pc >= m_code.size()) {  // ran off the end of the function: the lanes are done
      exit_lanes(warp, top.mask);
      continue;
    }
    if (out_of_budget(warp, top.pc)) return;
    const Instruction& next = m_code[top.pc];
    const bool waits = next.ordered || next.opcode == Opcode::Nanosleep ||
                       (next.opcode == Opcode::Mbarrier &&
                        (next.sub_op == ptx::SubOp::MbTryWait || next.sub_op == ptx::SubOp::MbTestWait));
    if (waits && warp.last_wait_pc != UINT32_MAX && top.pc <= warp.last_wait_pc) {
      // Back at a wait loop's flag: let the other warps run (one of them may be the one to set
      // it) before this one reads it again. Each warp keeps its turn until it yields, so a kernel
      // without such a loop runs exactly as before.
      warp.last_wait_pc = UINT32_MAX;
      return;
    }
    if (waits) warp.last_wait_pc = top.pc;
    execute(warp);
  }
}

bool KernelRun::out_of_budget(const Warp& warp, uint32_t pc) {
  const bool one_warp = warp.executed >= m_config.warp_instruction_budget;
  if (m_budget_left-- == 0 || one_warp) {
    fail(m_code[pc], "runaway",
         (one_warp ? "warp " + std::to_string(warp.index) + " of block " + block_name() + " ran more than " +
                         std::to_string(m_config.warp_instruction_budget) + " instructions"
                   : "the kernel ran more than " + std::to_string(m_config.instruction_budget) +
                         " warp instructions") +
             " without finishing: an infinite loop? It was at " + where(pc) + "; its instructions went to " +
             hottest_lines());
    return true;
  }
  // The clock is read once in 16384 instructions: a few microseconds apart, and no cost to count.
  if ((m_budget_left & 0x3fff) != 0 || std::chrono::steady_clock::now() < m_time_limit_at) return false;
  fail(m_code[pc], "time-limit",
       "the kernel was still running when the check's time ran out, and was stopped in block " + block_name() +
           ". Its instructions went to " + hottest_lines() +
           ": a loop that runs far more often than it should, or one that never ends?");
  return true;
}

// A trap in a kernel that reads the driver's grid workspace (%envreg1/2) is cooperative groups'
// grid.sync() finding no cooperative launch.
std::string KernelRun::grid_sync_note() const {
  if (m_config.cooperative || !ptx::reads_special(m_code, {ptx::SpecialRegister::Envreg})) return "";
  return ". This kernel synchronizes its whole grid (cooperative groups' this_grid().sync()), which needs a "
         "cooperative launch (cudaLaunchCooperativeKernel); without one the header traps, on a GPU too: run it "
         "with --cooperative (tilecamp profile), or `cooperative = true` in the exercise's [launch]";
}

uint64_t KernelRun::reserved_shared_begin() const {
  return (uint64_t{m_function.static_shared_bytes} + m_config.dynamic_shared_bytes + 15) / 16 * 16;
}

std::string KernelRun::hottest_lines() const {
  std::map<int, uint64_t> by_line;
  uint64_t total = 0;
  for (size_t pc = 0; pc < m_counters.size(); ++pc) {
    const uint64_t executed = m_counters[pc].warp_instructions;
    if (executed == 0) continue;
    by_line[m_code[pc].location.line] += executed;
    total += executed;
  }
  std::vector<std::pair<uint64_t, int>> ranked;
  for (const auto& [line, executed] : by_line) ranked.emplace_back(executed, line);
  std::sort(ranked.begin(), ranked.end(), [](const auto& a, const auto& b) {
    return a.first != b.first ? a.first > b.first : a.second < b.second;
  });
  std::string text;
  for (size_t i = 0; i < ranked.size() && i < 3; ++i) {
    const auto [executed, line] = ranked[i];
    const uint64_t percent = executed * 100 / total;
    if (i > 0 && percent == 0) break;
    if (i > 0) text += ", ";
    text += (line == 0 ? std::string("PTX without a source line") : "line " + std::to_string(line)) + " (" +
            std::to_string(percent) + "%)";
  }
  return text.empty() ? "no line yet" : text;
}

uint32_t KernelRun::guard_mask(const Warp& warp, const Instruction& in, uint32_t active) const {
  if (in.guard < 0) return active;
  uint32_t result = 0;
  for_each_lane(active, [&](int lane) {
    const bool value = (warp.registers[in.guard * k_warp_size + lane] & 1) != 0;
    if (value != in.guard_negated) result |= 1u << lane;
  });
  return result;
}

namespace {

// The floating-point work of one instruction, as Nsight Compute's roofline counts it (counters.h).
void count_flops(const Instruction& in, uint32_t lanes, Counters& counters) {
  if (in.type != ptx::Type::F32 && in.type != ptx::Type::F64) return;
  uint64_t per_lane = 0;
  switch (in.opcode) {
    case Opcode::Add: case Opcode::Sub: case Opcode::Mul: per_lane = 1; break;
    case Opcode::Fma: case Opcode::Mad: per_lane = 2; break;
    default: return;
  }
  const uint64_t flops = per_lane * static_cast<uint64_t>(std::popcount(lanes));
  (in.type == ptx::Type::F32 ? counters.fp32_flops : counters.fp64_flops) += flops;
}

}  // namespace

void KernelRun::execute(Warp& warp) {
  StackEntry& top = warp.stack.back();
  const uint32_t pc = top.pc;
  const Instruction& in = m_code[pc];
  const uint32_t lanes = guard_mask(warp, in, top.mask);
  Counters& counters = m_counters[pc];
  ++counters.warp_instructions;
  if (top.mask != warp.live_mask) ++counters.divergent_warp_instructions;
  ++warp.executed;
  switch (in.opcode) {
    case Opcode::Bra:
      branch(warp, in, lanes);
      return;
    case Opcode::Ret:
    case Opcode::Exit:
      m_progress += lanes != 0;
      exit_lanes(warp, lanes);
      if (!warp.stack.empty()) ++warp.stack.back().pc;  // lanes a guard kept go on
      return;
    case Opcode::Bar:
    case Opcode::BarRed:
      if (lanes != 0) {
        ++m_progress;
        ++counters.barriers;
        warp.load_round_open = warp.round_ended_by_store = false;
        barrier(warp, in, lanes);
        if (warp.state == Warp::State::Running && !m_failed) ++warp.stack.back().pc;  // bar.arrive goes on
        return;
      }
      break;
    case Opcode::Membar:
      break;
    case Opcode::Call:
      m_progress += lanes != 0;
      if (lanes != 0) call_extern(warp, in, lanes);
      break;
    case Opcode::Shfl: case Opcode::Vote: case Opcode::Match: case Opcode::Activemask: case Opcode::BarWarp:
    case Opcode::Redux:
      if (lanes != 0) execute_warp_operation(warp, in, lanes);
      break;
    case Opcode::Ld:
    case Opcode::St:
      m_progress += in.opcode == Opcode::St && lanes != 0;
      if (lanes != 0) memory_access(warp, in, lanes);
      break;
    case Opcode::Mma: case Opcode::Ldmatrix: case Opcode::Movmatrix: case Opcode::WmmaLoad: case Opcode::WmmaMma:
    case Opcode::WmmaStore:
      m_progress += in.opcode == Opcode::WmmaStore && lanes != 0;
      if (lanes != 0 && (in.opcode == Opcode::Mma || in.opcode == Opcode::WmmaMma)) {
        ++counters.tensor_instructions;
        counters.tensor_flops += uint64_t{2} * in.matrix.m * in.matrix.n * in.matrix.k;
      }
      if (lanes != 0) execute_matrix(warp, in, lanes);
      break;
    case Opcode::Atom:
    case Opcode::Red:
      m_progress += lanes != 0;
      if (lanes != 0) atomic_access(warp, in, lanes);
      break;
    case Opcode::Prefetch:
    case Opcode::Nanosleep:
      break;
    case Opcode::CpAsync:
    case Opcode::CpAsyncCommit:
    case Opcode::CpAsyncWait:
      m_progress += in.opcode == Opcode::CpAsync && lanes != 0;
      if (lanes != 0) execute_async_copy(warp, in, lanes);
      break;
    case Opcode::Mbarrier:
    case Opcode::CpAsyncMbarrierArrive:
      m_progress += lanes != 0 && in.sub_op != ptx::SubOp::MbTryWait && in.sub_op != ptx::SubOp::MbTestWait;
      if (lanes != 0) execute_mbarrier(warp, in, lanes);
      break;
    case Opcode::Trap:
      if (lanes != 0) {
        fail(in, "trap", "the kernel executed a trap (`__trap()` or `asm(\"trap;\")`) in " +
                             thread_name(warp, std::countr_zero(lanes)) + grid_sync_note());
      }
      break;
    default:
      count_flops(in, lanes, counters);
      execute_alu(warp, in, lanes);
      break;
  }
  if (!m_failed) ++warp.stack.back().pc;
}

void KernelRun::branch(Warp& warp, const Instruction& in, uint32_t taken) {
  StackEntry& top = warp.stack.back();
  const uint32_t not_taken = top.mask & ~taken;
  const uint32_t pc = top.pc;
  if (taken != 0 && in.target <= pc) warp.load_round_open = warp.round_ended_by_store = false;  // a loop's next iteration
  if (not_taken == 0) {
    top.pc = in.target;
  } else if (taken == 0) {
    top.pc = pc + 1;
  } else {
    // Divergence: the current entry waits at the reconvergence point while each path runs.
    const uint32_t reconverge = m_function.reconvergence_pc[pc];
    top.pc = reconverge;
    warp.stack.push_back({pc + 1, reconverge, not_taken});
    warp.stack.push_back({in.target, reconverge, taken});
  }
}

void KernelRun::exit_lanes(Warp& warp, uint32_t lanes) {
  warp.live_mask &= ~lanes;
  m_block_exited += std::popcount(lanes);
  for (StackEntry& entry : warp.stack) entry.mask &= ~lanes;
}

// Of `lanes`, those whose next instruction is an unguarded `ret` or `exit`: they will do nothing
// but exit. An early `return` compiles to a branch to the kernel's final `ret`, which is also the
// reconvergence point, so the returning lanes wait there while the others run on to a barrier.
uint64_t KernelRun::read(const Warp& warp, const Operand& operand, int lane) const {
  switch (operand.kind) {
    case Operand::Kind::Register: return warp.registers[operand.reg * k_warp_size + lane];
    case Operand::Kind::Immediate: return operand.bits;
    case Operand::Kind::Special: return special(warp, operand, lane);
    case Operand::Kind::Symbol: return symbol_value(operand.symbol) + operand.offset;
    default: return 0;
  }
}

bool KernelRun::read_predicate(const Warp& warp, const Operand& operand, int lane) const {
  return ((read(warp, operand, lane) & 1) != 0) != operand.negate;
}

uint64_t KernelRun::special(const Warp& warp, const Operand& operand, int lane) const {
  using ptx::SpecialRegister;
  auto component = [&](const Dim3& d) { return operand.component == 0 ? d.x : operand.component == 1 ? d.y : d.z; };
  const uint32_t warps_per_block = static_cast<uint32_t>((m_config.block.count() + k_warp_size - 1) / k_warp_size);
  switch (operand.special) {
    case SpecialRegister::Tid:
      return operand.component == 0 ? warp.tid_x[lane] : operand.component == 1 ? warp.tid_y[lane] : warp.tid_z[lane];
    case SpecialRegister::Ntid: return component(m_config.block);
    case SpecialRegister::Ctaid: return component(m_block_index);
    case SpecialRegister::Nctaid: return component(m_config.grid);
    case SpecialRegister::Laneid: return static_cast<uint64_t>(lane);
    case SpecialRegister::Warpid: return warp.index;
    case SpecialRegister::Nwarpid: return warps_per_block;
    case SpecialRegister::Smid: return m_block_linear % k_sm_count;
    case SpecialRegister::Nsmid: return k_sm_count;
    case SpecialRegister::Gridid: return 1;
    case SpecialRegister::LanemaskEq: return 1u << lane;
    case SpecialRegister::LanemaskLt: return (1u << lane) - 1;
    case SpecialRegister::LanemaskLe: return (2ull << lane) - 1;
    case SpecialRegister::LanemaskGe: return ~((1u << lane) - 1) & 0xffffffffu;
    case SpecialRegister::LanemaskGt: return ~((2ull << lane) - 1) & 0xffffffffu;
    case SpecialRegister::Clock: return modelled_cycles(warp) & 0xffffffffu;
    case SpecialRegister::Clock64: return modelled_cycles(warp);
    case SpecialRegister::Globaltimer: return modelled_nanoseconds(warp);
    case SpecialRegister::GlobaltimerLo: return modelled_nanoseconds(warp) & 0xffffffffu;
    case SpecialRegister::GlobaltimerHi: return modelled_nanoseconds(warp) >> 32;
    case SpecialRegister::Envreg:  // the grid workspace's address, high half in 1, low in 2; 0 without one
      if (!m_config.cooperative) return 0;
      return operand.component == 1 ? m_emulator.grid_workspace() >> 32
             : operand.component == 2 ? m_emulator.grid_workspace() & 0xffffffffu
                                      : 0;
    case SpecialRegister::ReservedSmemBegin: return reserved_shared_begin();
    case SpecialRegister::ReservedSmemEnd: return reserved_shared_begin() + m_function.reserved_shared_bytes;
    case SpecialRegister::ReservedSmemCap: return m_function.reserved_shared_bytes;
    // Two regions of the reserved memory: the second is cooperative groups' (at least 288 bytes).
    case SpecialRegister::ReservedSmemOffset: return reserved_shared_begin() + (operand.component == 0 ? 0 : 256);
    case SpecialRegister::DynamicSmemSize: return m_config.dynamic_shared_bytes;
    case SpecialRegister::TotalSmemSize: return m_function.static_shared_bytes + m_config.dynamic_shared_bytes;
    case SpecialRegister::AggrSmemSize: return reserved_shared_begin() + m_function.reserved_shared_bytes;
  }
  return 0;
}

// The clocks a kernel can read, modelled and deterministic (the same kernel reads the same values
// everywhere) but plausible, so that a kernel cannot tell the emulator from a GPU by one read: an
// SM's cycle counter starts where a GPU's has counted for some seconds since boot and advances
// k_cycles_per_instruction per warp instruction of the reading warp, each later wave of blocks
// starting later; the global timer counts nanoseconds at the H200's 1.98 GHz from a fixed
// date (2025-12-01, in Unix time) and, like a GPU's, ticks in steps of 32 ns.
uint64_t KernelRun::modelled_cycles(const Warp& warp) const {
  constexpr uint64_t k_boot_cycles = 9'537'062'912;  // about 4.8 s at 1.98 GHz
  constexpr uint64_t k_cycles_per_instruction = 4, k_cycles_per_wave = 250'000;
  const uint64_t wave = m_block_linear / k_sm_count;
  return k_boot_cycles + wave * k_cycles_per_wave + warp.executed * k_cycles_per_instruction;
}

uint64_t KernelRun::modelled_nanoseconds(const Warp& warp) const {
  constexpr uint64_t k_epoch_ns = 1'764'547'200'000'000'000;
  const uint64_t nanoseconds = k_epoch_ns + modelled_cycles(warp) * 100 / 198;
  return nanoseconds / 32 * 32;
}

uint64_t KernelRun::symbol_value(int symbol) const {
  const ptx::Symbol& s = m_module.symbols[symbol];
  if (s.space == ptx::Space::Global || s.space == ptx::Space::Const) return m_emulator.symbol_address(symbol);
  return s.offset;  // shared, local and param symbols: their address in their own space
}

void KernelRun::fail(const Instruction& in, std::string kind, std::string message) {
  m_failed = true;
  warn_or_error(in, Severity::Error, std::move(kind), std::move(message));
}

void KernelRun::warn_or_error(const Instruction& in, Severity severity, std::string kind, std::string message,
                              std::string once_key) {
  const std::string& file = in.location.file < static_cast<int>(m_module.files.size()) ? m_module.files[in.location.file] : "";
  m_diagnostics.push_back({severity, std::move(kind), file, in.location.line, std::move(message)});
  m_once_keys.push_back(std::move(once_key));
}

void KernelRun::warn(const Instruction& in, std::string kind, std::string message, std::string once_key) {
  warn_or_error(in, Severity::Warning, std::move(kind), std::move(message), std::move(once_key));
}

std::string KernelRun::thread_name(const Warp& warp, int lane) const {
  return thread_name(warp.index, lane) + " of block " + block_name();
}

std::string block_text(const Dim3& index) {
  return "(" + std::to_string(index.x) + "," + std::to_string(index.y) + "," + std::to_string(index.z) + ")";
}

std::string KernelRun::block_name() const { return block_text(m_block_index); }

std::string KernelRun::where(uint32_t pc) const {
  if (pc >= m_code.size()) return "the end of the kernel";
  const ptx::SourceLocation& location = m_code[pc].location;
  if (location.line == 0) return "PTX `" + m_code[pc].text + "`";
  // A line of another file than the kernel's (a toolkit header the code was inlined from) says which.
  if (location.file != m_function.location.file && location.file < static_cast<int>(m_module.files.size())) {
    const std::string& path = m_module.files[location.file];
    return "line " + std::to_string(location.line) + " of " + path.substr(path.find_last_of('/') + 1);
  }
  return "line " + std::to_string(location.line);
}

}  // namespace tilecamp::emu
