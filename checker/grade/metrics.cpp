#include "checker/grade/metrics.h"

namespace tilecamp::grade {
namespace {

enum class Per { Nothing, Counter, Output, Fma, Speedup, SectorBytes, Warp };

struct Metric {
  const char* name;
  const char* backend;
  uint64_t Counters::*numerator;    // nullptr for the speedups and the block's shared memory
  uint64_t Counters::*also;         // a second path to add to the numerator, or nullptr
  Per per;
  uint64_t Counters::*denominator;  // when per == Counter, or the sectors when per == SectorBytes
  double scale;                     // the numerator's unit: 0.25 turns bytes into 4-byte elements
  bool at_least;                    // a lower bound (speedups, efficiencies); else an upper bound
  const char* label;
  const char* explanation;
};

// Reads from global memory come by loads (ld, ld.global.nc, cp.async: all in global_ld_*) and
// by atomics (an atomicAdd(p, 0) reads too): the figures about reuse count both.
constexpr Metric k_metrics[] = {
    {"global_ld_sectors_per_request", "emulator", &Counters::global_ld_sectors, nullptr, Per::Counter,
     &Counters::global_ld_requests, 1, false, "global loads are coalesced",
     "32-byte sectors each warp-wide global load touches: 4 when 32 lanes read 32 consecutive floats"},
    {"global_st_sectors_per_request", "emulator", &Counters::global_st_sectors, nullptr, Per::Counter,
     &Counters::global_st_requests, 1, false, "global stores are coalesced",
     "32-byte sectors each warp-wide global store touches: 4 when 32 lanes write 32 consecutive floats"},
    {"global_ld_efficiency", "emulator", &Counters::global_ld_distinct_bytes, nullptr, Per::SectorBytes,
     &Counters::global_ld_sectors, 1, true, "global loads use every byte they move",
     "distinct bytes the threads asked for over the bytes the 32-byte sectors of their loads moved: 1 when "
     "warps read whole, aligned runs; neither small extra requests nor many lanes reading one word can raise it"},
    {"global_st_efficiency", "emulator", &Counters::global_st_distinct_bytes, nullptr, Per::SectorBytes,
     &Counters::global_st_sectors, 1, true, "global stores use every byte they move",
     "distinct bytes the threads wrote over the bytes the 32-byte sectors of their stores moved: 1 when "
     "warps write whole, aligned runs; small extra requests cannot raise it"},
    {"global_ld_requests_per_kib", "emulator", &Counters::global_ld_requests, nullptr, Per::Counter,
     &Counters::global_ld_bytes, 1024, false, "global loads are wide",
     "warp-wide global load instructions per KiB the threads read: 8 when 32 lanes load a float each, 2 when they "
     "load a float4 each (16 bytes)"},
    {"shared_ld_wavefronts_per_request", "emulator", &Counters::shared_ld_wavefronts, nullptr, Per::Counter,
     &Counters::shared_ld_requests, 1, false, "shared loads avoid bank conflicts",
     "passes each warp-wide shared load needs: 1 without bank conflicts, 32 when all lanes hit one bank"},
    {"shared_st_wavefronts_per_request", "emulator", &Counters::shared_st_wavefronts, nullptr, Per::Counter,
     &Counters::shared_st_requests, 1, false, "shared stores avoid bank conflicts",
     "passes each warp-wide shared store needs: 1 without bank conflicts, 32 when all lanes hit one bank"},
    {"shared_ld_bank_conflicts", "emulator", &Counters::shared_ld_bank_conflicts, nullptr, Per::Nothing, nullptr, 1,
     false, "shared loads have no bank conflicts", "extra shared-load wavefronts caused by bank conflicts"},
    {"shared_st_bank_conflicts", "emulator", &Counters::shared_st_bank_conflicts, nullptr, Per::Nothing, nullptr, 1,
     false, "shared stores have no bank conflicts", "extra shared-store wavefronts caused by bank conflicts"},
    {"shared_bytes_per_output", "emulator", nullptr, nullptr, Per::Output, nullptr, 1, false,
     "the shared tile is no larger than its data",
     "bytes of shared memory the blocks declare (static and dynamic) per output element: 4 for a tile of floats "
     "that holds each element once, 4.125 for a 32 x 33 tile padded by a column"},
    {"global_ld_elements_per_output", "emulator", &Counters::global_ld_bytes, &Counters::global_atom_bytes, Per::Output,
     nullptr, 0.25, false, "each input is loaded from global memory about once",
     "4-byte elements read from global memory (loads and atomics) per output element: about 1 when every input is "
     "read once"},
    {"global_ld_bytes_per_fma", "emulator", &Counters::global_ld_bytes, &Counters::global_atom_bytes, Per::Fma, nullptr,
     1, false, "global loads are reused through shared memory",
     "bytes read from global memory (loads and atomics) per multiply-add: 8 when each multiply-add loads both "
     "operands, 8 / TILE when a tile reuses them"},
    {"shared_ld_wavefronts_per_fma_instruction", "emulator", &Counters::shared_ld_wavefronts, nullptr, Per::Fma, nullptr,
     32, false, "operands are reused from registers",
     "shared-load wavefronts per warp-wide FMA instruction (32 multiply-adds): 1.5 for the one-output-per-thread tiled "
     "kernel, 0.625 with 8 outputs per thread, because each loaded value is reused from a register"},
    {"shared_ld_requests_per_fma_instruction", "emulator", &Counters::shared_ld_requests, nullptr, Per::Fma, nullptr,
     32, false, "operands come from shared memory in wide loads",
     "warp-wide shared load instructions per warp-wide FMA instruction: 0.25 when a thread with 8 x 8 outputs reads "
     "its 16 values one float at a time, 0.0625 when it reads them as four float4"},
    {"barriers_per_warp", "emulator", &Counters::barriers, nullptr, Per::Warp, nullptr, 1, false,
     "few __syncthreads() per warp",
     "__syncthreads() each warp of the grid passes, on average: 1 + log2(threads) for a shared-memory tree sum, 1 when "
     "each warp adds its values with shuffles and only the warps' sums go through shared memory"},
    {"modelled_speedup", "emulator", nullptr, nullptr, Per::Speedup, nullptr, 1, true, "faster than the baseline (modelled)",
     "the baseline kernel's modelled time over yours, on the cost model of the GPU named above"},
    {"speedup", "gpu", nullptr, nullptr, Per::Speedup, nullptr, 1, true, "faster than the baseline (measured)",
     "the baseline kernel's measured time over yours, in the same run"},
};

const Metric* find_metric(const std::string& name) {
  for (const Metric& metric : k_metrics) {
    if (name == metric.name) return &metric;
  }
  return nullptr;
}

}  // namespace

std::optional<double> metric_value(const MetricInputs& inputs, const std::string& name) {
  const Metric* metric = find_metric(name);
  if (metric == nullptr) return std::nullopt;
  if (metric->per == Per::Speedup) return name == "speedup" ? inputs.speedup : inputs.modelled_speedup;
  if (metric->numerator == nullptr && !inputs.shared_bytes_per_block) return std::nullopt;
  if (metric->numerator != nullptr && inputs.counters == nullptr) return std::nullopt;
  double numerator = metric->numerator != nullptr ? static_cast<double>(inputs.counters->*metric->numerator)
                                                  : *inputs.shared_bytes_per_block * inputs.blocks;
  if (metric->also != nullptr) numerator += static_cast<double>(inputs.counters->*metric->also);
  numerator *= metric->scale;
  double denominator = 1;
  switch (metric->per) {
    case Per::Nothing: break;
    case Per::Counter: denominator = static_cast<double>(inputs.counters->*metric->denominator); break;
    case Per::SectorBytes: denominator = 32.0 * static_cast<double>(inputs.counters->*metric->denominator); break;
    case Per::Output: denominator = inputs.outputs; break;
    case Per::Fma: denominator = inputs.fmas; break;
    case Per::Warp: denominator = inputs.warps; break;
    case Per::Speedup: break;
  }
  if (denominator <= 0) return std::nullopt;
  return numerator / denominator;
}

bool is_known_metric(const std::string& name, const std::string& backend) {
  const Metric* metric = find_metric(name);
  return metric != nullptr && backend == metric->backend;
}

std::vector<std::string> known_metrics(const std::string& backend) {
  std::vector<std::string> names;
  for (const Metric& metric : k_metrics) {
    if (backend == metric.backend) names.emplace_back(metric.name);
  }
  return names;
}

bool metric_is_lower_bound(const std::string& name) {
  const Metric* metric = find_metric(name);
  return metric != nullptr && metric->at_least;
}

bool metric_is_speedup(const std::string& name) {
  const Metric* metric = find_metric(name);
  return metric != nullptr && metric->per == Per::Speedup;
}

bool metric_has_lines(const std::string& name) {
  const Metric* metric = find_metric(name);
  return metric != nullptr && metric->numerator != nullptr &&
         (metric->per == Per::Counter || metric->per == Per::Nothing || metric->per == Per::SectorBytes);
}

std::string metric_label(const std::string& name) {
  const Metric* metric = find_metric(name);
  return metric == nullptr ? name : metric->label;
}

std::string metric_explanation(const std::string& name) {
  const Metric* metric = find_metric(name);
  return metric == nullptr ? "" : metric->explanation;
}

}  // namespace tilecamp::grade
