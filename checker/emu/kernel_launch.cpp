// A launch's blocks on several host threads, with the result of running them one after another.
//
// Block 0 runs first, alone: it says whether the launch is worth splitting (a few instructions
// are not) and, on the checks' usual kernels, finds a broken kernel before any thread starts. The
// other blocks are cut into one contiguous range per thread, each run by its own KernelRun (its
// own registers, shared memory, race detector and counters) on the one global memory. While they
// run, each records the global words it read and wrote (GlobalFootprint).
//
// The ranges are then joined in block order, which is what one thread would have done, provided
// no range wrote a word that another read or wrote: blocks that share data without atomics race
// on a GPU, and atomics whose order matters (a float sum, a counter handing out work) touch the
// same words. When ranges did overlap, the global memory goes back to how block 0 left it and
// the rest runs on one thread, so the result never depends on the threads' timing.
//
// A range that fails (an out-of-bounds access, a trap...) stops the ranges after it; the ranges
// before it and its own blocks up to the failure are what one thread would have run, and the
// words the later ranges wrote are put back. Whatever is left to say once per launch (a race per
// pair of lines, a barrier warning) is said by the earliest block, as in order.
#include <sched.h>
#include <sys/resource.h>

#include <algorithm>
#include <atomic>
#include <bit>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <memory>
#include <thread>

#include "checker/emu/kernel_run.h"

namespace tilecamp::emu {

namespace {

// Below this many warp instructions left to run (from block 0's count), threads cost more than
// they save: starting one and copying the global memory aside take about a millisecond.
constexpr uint64_t k_min_split_instructions = 100'000;
// The copy of the global memory kept to go back to costs as much memory again: not past this.
constexpr uint64_t k_max_snapshot_bytes = 1ull << 30;
constexpr unsigned k_max_host_threads = 16;

std::atomic<unsigned> g_default_host_threads{0};  // 0: not chosen yet

unsigned cores_available() {
  cpu_set_t set;
  if (::sched_getaffinity(0, sizeof set, &set) == 0) return static_cast<unsigned>(std::max(1, CPU_COUNT(&set)));
  return std::max(1u, std::thread::hardware_concurrency());
}

}  // namespace

unsigned default_host_threads() {
  unsigned threads = g_default_host_threads.load(std::memory_order_relaxed);
  if (threads != 0) return threads;
  threads = cores_available();
  if (const char* text = std::getenv("TILECAMP_EMULATOR_THREADS"); text != nullptr && *text != '\0') {
    char* end = nullptr;
    const unsigned long wanted = std::strtoul(text, &end, 10);
    if (end != nullptr && *end == '\0' && wanted >= 1) threads = static_cast<unsigned>(wanted);
  }
  threads = std::clamp(threads, 1u, k_max_host_threads);
  g_default_host_threads.store(threads, std::memory_order_relaxed);
  return threads;
}

void set_default_host_threads(unsigned threads) {
  g_default_host_threads.store(std::clamp(threads, 1u, k_max_host_threads), std::memory_order_relaxed);
}

GlobalFootprint::GlobalFootprint(const DeviceMemory& memory) {
  for (const DeviceBuffer& buffer : memory.buffers()) {
    const size_t words = (buffer.size() + 3) / 4;
    m_read.emplace_back((words + 63) / 64, 0);
    m_written.emplace_back((words + 63) / 64, 0);
  }
}

bool GlobalFootprint::overlap(const GlobalFootprint& a, const GlobalFootprint& b) {
  for (size_t buffer = 0; buffer < a.m_written.size(); ++buffer) {
    const auto &a_read = a.m_read[buffer], &a_written = a.m_written[buffer];
    const auto &b_read = b.m_read[buffer], &b_written = b.m_written[buffer];
    for (size_t i = 0; i < a_written.size(); ++i) {
      if ((a_written[i] & (b_read[i] | b_written[i])) != 0 || (b_written[i] & a_read[i]) != 0) return true;
    }
  }
  return false;
}

void GlobalFootprint::restore_written(DeviceMemory& memory, const std::vector<std::vector<uint8_t>>& snapshot) const {
  for (size_t buffer = 0; buffer < m_written.size(); ++buffer) {
    DeviceBuffer& target = memory.buffers()[buffer];
    const std::vector<uint8_t>& saved = snapshot[buffer];
    for (size_t i = 0; i < m_written[buffer].size(); ++i) {
      for (uint64_t bits = m_written[buffer][i]; bits != 0; bits &= bits - 1) {
        const uint64_t offset = (i * 64 + static_cast<uint64_t>(std::countr_zero(bits))) * 4;
        const uint64_t bytes = std::min<uint64_t>(4, saved.size() - offset);
        std::memcpy(target.data() + offset, saved.data() + offset, bytes);
      }
    }
  }
}

void KernelRun::absorb(KernelRun& later) {
  for (size_t pc = 0; pc < m_counters.size(); ++pc) m_counters[pc] += later.m_counters[pc];
  // The later blocks' global atomics, counted as if this run had done them.
  for (const AtomicHotSpots::Passes& passes : later.m_atomic_hot.recorded) {
    count_atomic_passes(passes.pc, passes.key, passes.passes, passes.region);
  }
  size_t races = static_cast<size_t>(std::count_if(m_once_keys.begin(), m_once_keys.end(),
                                                   [](const std::string& key) { return key.starts_with("race:"); }));
  for (size_t i = 0; i < later.m_diagnostics.size(); ++i) {
    const std::string& key = later.m_once_keys[i];
    if (!key.empty()) {
      if (std::find(m_once_keys.begin(), m_once_keys.end(), key) != m_once_keys.end()) continue;
      if (key.starts_with("race:") && races++ >= k_max_race_reports) continue;
    }
    m_diagnostics.push_back(std::move(later.m_diagnostics[i]));
    m_once_keys.push_back(key);
  }
  for (PrintedLine& line : later.m_printed) m_printed.push_back(std::move(line));
  m_printed_bytes += later.m_printed_bytes;
  m_failed = m_failed || later.m_failed;
}

// Runs the launch `first` was made for; `make_run` makes another KernelRun of the same launch.
LaunchResult run_split(KernelRun& first, const LaunchConfig& config, DeviceMemory& memory,
                       const std::function<std::unique_ptr<KernelRun>()>& make_run) {
  const uint64_t blocks = config.grid.count();
  const unsigned threads = config.host_threads != 0 ? std::min(config.host_threads, k_max_host_threads)
                                                     : default_host_threads();
  uint64_t memory_bytes = 0;
  for (const DeviceBuffer& buffer : memory.buffers()) memory_bytes += buffer.zeroed ? k_max_snapshot_bytes : buffer.size();
  // The copy must fit beside the buffers, with room to spare, in the sandbox's address space.
  rlimit address_space{};
  const bool room = memory_bytes <= k_max_snapshot_bytes &&
                    (::getrlimit(RLIMIT_AS, &address_space) != 0 || address_space.rlim_cur == RLIM_INFINITY ||
                     memory_bytes * 4 < address_space.rlim_cur);
  if (threads < 2 || blocks < 3 || !config.sample_blocks.empty() || config.observer != nullptr || config.cooperative ||
      !room) {
    return first.run();
  }
  const uint64_t budget = first.instructions_left();
  first.run_blocks(0, 1);
  const uint64_t per_block = budget - first.instructions_left();
  if (first.failed() || per_block * (blocks - 1) < k_min_split_instructions) {
    first.run_blocks(1, blocks);
    return first.finish();
  }
  std::vector<std::vector<uint8_t>> snapshot;
  for (DeviceBuffer& buffer : memory.buffers()) snapshot.emplace_back(buffer.data(), buffer.data() + buffer.size());

  const uint64_t ranges = std::min<uint64_t>(threads, blocks - 1);
  std::vector<std::unique_ptr<KernelRun>> runs;
  std::vector<std::unique_ptr<GlobalFootprint>> footprints;
  std::vector<std::unique_ptr<std::atomic<bool>>> stops;
  for (uint64_t r = 0; r < ranges; ++r) {
    runs.push_back(make_run());
    footprints.push_back(std::make_unique<GlobalFootprint>(memory));
    stops.push_back(std::make_unique<std::atomic<bool>>(false));
    runs.back()->track_footprint(footprints.back().get());
    runs.back()->defer_atomic_hot_spots();
    runs.back()->set_instruction_budget(first.instructions_left());
    runs.back()->set_deadline(first.deadline());
  }
  auto range_begin = [&](uint64_t r) { return 1 + (blocks - 1) * r / ranges; };
  auto run_range = [&](uint64_t r) {
    runs[r]->run_blocks(range_begin(r), range_begin(r + 1), stops[r].get());
    if (runs[r]->failed()) {
      for (uint64_t later = r + 1; later < ranges; ++later) stops[later]->store(true, std::memory_order_relaxed);
    }
  };
  {
    std::vector<std::jthread> workers;
    for (uint64_t r = 1; r < ranges; ++r) workers.emplace_back(run_range, r);
    run_range(0);
  }
  // The ranges one thread would have run: up to and including the first that failed.
  uint64_t kept = 0;
  while (kept < ranges && !runs[kept]->failed()) ++kept;
  if (kept < ranges) ++kept;
  bool in_order = true;
  uint64_t instructions = 0, printed = first.printed_bytes();
  for (uint64_t a = 0; a < ranges && in_order; ++a) {
    for (uint64_t b = a + 1; b < ranges && in_order; ++b) in_order = !GlobalFootprint::overlap(*footprints[a], *footprints[b]);
  }
  for (uint64_t r = 0; r < kept; ++r) {
    instructions += first.instructions_left() - runs[r]->instructions_left();
    printed += runs[r]->printed_bytes();
  }
  // Past the launch's budget or the printf limit, what stops the launch depends on the order of
  // every block: run them in order.
  in_order = in_order && instructions <= first.instructions_left() && printed <= KernelRun::k_max_printed_bytes;
  if (!in_order) {
    for (size_t buffer = 0; buffer < snapshot.size(); ++buffer) {
      std::memcpy(memory.buffers()[buffer].data(), snapshot[buffer].data(), snapshot[buffer].size());
    }
    first.run_blocks(1, blocks);
    return first.finish();
  }
  for (uint64_t r = kept; r < ranges; ++r) footprints[r]->restore_written(memory, snapshot);
  const uint64_t budget_left = first.instructions_left() - instructions;
  for (uint64_t r = 0; r < kept; ++r) first.absorb(*runs[r]);
  first.set_instruction_budget(budget_left);
  LaunchResult result = first.finish();
  result.host_threads = static_cast<uint32_t>(ranges);
  return result;
}

}  // namespace tilecamp::emu
