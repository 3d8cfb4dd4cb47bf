// A cooperative launch (cudaLaunchCooperativeKernel): every block of the grid is resident at
// once, so blocks may wait for each other, as cooperative groups' this_grid().sync() does.
//
// The driver hands such a launch a grid workspace, whose address the kernel reads from
// %envreg1 (high half) and %envreg2 (low half); the header's grid barrier is an atomic counter
// in it that the blocks' first threads add to and then poll. The emulator allocates the
// workspace and runs the blocks in turns on one host thread: a block runs until it finishes or
// until every warp it still has waits in a loop (the poll), then the next block takes its turn.
// The order is fixed, so every run gives the same result.
//
// A round of turns in which no thread stored, arrived at a barrier or exited cannot be followed
// by one that does: every thread left waits for something none of them will do. That is
// reported as a deadlock naming where the blocks wait, rather than spinning to the budget.
#include <algorithm>
#include <map>

#include "checker/emu/kernel_run.h"

namespace tilecamp::emu {

void KernelRun::swap_block(BlockState& state) {
  std::swap(m_block_index, state.index);
  std::swap(m_block_linear, state.linear);
  std::swap(m_block_exited, state.exited);
  std::swap(m_shared, state.shared);
  std::swap(m_shared_written, state.shared_written);
  std::swap(m_uninitialized_reads, state.uninitialized_reads);
  std::swap(m_block_sectors, state.sectors);
  std::swap(m_local, state.local);
  std::swap(m_registers, state.registers);
  std::swap(m_mbarriers, state.mbarriers);
  std::swap(m_warps, state.warps);
  std::swap(m_reductions, state.reductions);
  std::swap(m_arrivals, state.arrivals);
  std::swap(m_races, state.races);
  std::swap(m_pending_warp_races, state.pending_warp_races);
  m_block_warps = &m_warps;
}

void KernelRun::run_cooperative() {
  const Dim3& grid = m_config.grid;
  const uint64_t blocks = grid.count();
  const std::vector<uint8_t> ignored = shared_bytes_not_named();
  std::vector<BlockState> states(blocks);
  for (uint64_t linear = 0; linear < blocks; ++linear) {
    states[linear].linear = linear;
    states[linear].index = block_in_grid(linear, grid);
    states[linear].shared_written.set_ignored(ignored);
  }
  uint64_t running = blocks;
  while (running > 0 && !m_failed) {
    const uint64_t progress = m_progress;
    for (BlockState& state : states) {
      if (state.done) continue;
      swap_block(state);
      if (!std::exchange(state.started, true)) start_block();  // `state` holds the KernelRun's old members now
      const bool finished = step_block(true);
      swap_block(state);
      if (finished) {
        const uint64_t linear = state.linear;
        state = BlockState{};  // its memory back
        state.done = true;
        state.linear = linear;
        --running;
      }
      if (m_failed) return;
    }
    if (running > 0 && m_progress == progress) {
      BlockState* first = &*std::find_if(states.begin(), states.end(), [](const BlockState& s) { return !s.done; });
      swap_block(*first);
      const Warp& waiting = *std::find_if(m_warps.begin(), m_warps.end(),
                                          [](const Warp& w) { return w.state == Warp::State::Running; });
      fail(m_code[waiting.stack.back().pc], "deadlock", cooperative_deadlock(states));
      swap_block(*first);
    }
  }
}

// Where the blocks left wait, and which blocks ended: "blocks (0,0,0), (2,0,0) wait at line 102 of
// sync.h). Block (1,0,0) has already ended: ...".
std::string KernelRun::cooperative_deadlock(const std::vector<BlockState>& states) const {
  std::map<std::string, std::vector<uint64_t>> waiting;  // where -> blocks
  std::vector<uint64_t> ended;
  for (const BlockState& state : states) {
    if (state.done) {
      ended.push_back(state.linear);
      continue;
    }
    // The swapped-in block's warps are the KernelRun's own; the others' are in their state.
    const std::vector<Warp>& warps = state.warps.empty() ? m_warps : state.warps;
    for (const Warp& warp : warps) {
      if (warp.state != Warp::State::Running || warp.stack.empty()) continue;
      waiting[where(warp.stack.back().pc)].push_back(state.linear);
      break;
    }
  }
  auto list = [&](const std::vector<uint64_t>& linear) {
    std::string text = linear.size() == 1 ? "block " : "blocks ";
    for (size_t i = 0; i < linear.size() && i < 4; ++i) {
      text += (i ? ", " : "") + block_text(block_in_grid(linear[i], m_config.grid));
    }
    if (linear.size() > 4) text += " and " + std::to_string(linear.size() - 4) + " more";
    return text;
  };
  std::string text = "deadlock in a cooperative launch: every thread still running waits in a loop for something no "
                     "thread will do any more (";
  bool first = true;
  for (const auto& [at, blocks] : waiting) {
    text += (first ? "" : "; ") + list(blocks) + " wait at " + at;
    first = false;
  }
  text += ")";
  if (!ended.empty()) {
    text += ". " + list(ended) + (ended.size() == 1 ? " has" : " have") +
            " already ended: a grid-wide barrier (this_grid().sync()) waits for every block of the grid, so every "
            "block must reach each one, as every thread of a block must reach a __syncthreads()";
  }
  return text;
}

}  // namespace tilecamp::emu
