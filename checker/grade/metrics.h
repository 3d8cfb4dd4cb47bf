// The figures an exercise's thresholds may name: ratios of the emulator's counters, counters per
// output element or per multiply-add, and speedups over the exercise's baseline kernel.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "checker/backend/counters.h"

namespace tilecamp::grade {

// What a metric is computed from, beyond the counters.
struct MetricInputs {
  const Counters* counters = nullptr;
  double outputs = 0;                     // elements of the `out` and `inout` buffers
  double fmas = 0;                        // the exercise's `fmas` expression; 0 when it has none
  std::optional<double> shared_bytes_per_block;  // static and dynamic shared memory of a block
  double blocks = 0;                             // blocks in the grid
  double warps = 0;                              // warps in the grid
  std::optional<double> modelled_speedup;  // baseline modelled time / learner modelled time
  std::optional<double> speedup;           // baseline measured time / learner measured time (GPU)
};

// e.g. "global_st_sectors_per_request", "shared_ld_bank_conflicts", "modelled_speedup".
// nullopt for an unknown name, a ratio with nothing to divide by, or a speedup not measured.
std::optional<double> metric_value(const MetricInputs& inputs, const std::string& metric);

// The metrics a threshold for `backend` ("emulator" or "gpu") may name.
bool is_known_metric(const std::string& metric, const std::string& backend);
std::vector<std::string> known_metrics(const std::string& backend);
// Speedups and efficiencies are lower bounds (at least); every other metric is an upper bound.
bool metric_is_lower_bound(const std::string& metric);
// The speedups: measured against the baseline, not read off the counters.
bool metric_is_speedup(const std::string& metric);
// Per-line figures exist for the counters and their ratios, not for the speedups and the figures
// per output or per multiply-add.
bool metric_has_lines(const std::string& metric);

// What meeting the threshold shows: "global stores are coalesced".
std::string metric_label(const std::string& metric);

// One sentence on what the metric means and what a good value looks like.
std::string metric_explanation(const std::string& metric);

}  // namespace tilecamp::grade
