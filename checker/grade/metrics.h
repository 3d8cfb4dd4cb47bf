// The figures an exercise's thresholds may name, computed from the emulator's counters.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "checker/emu/counters.h"

namespace tilecamp::grade {

// e.g. "global_st_sectors_per_request", "shared_ld_wavefronts_per_request",
// "shared_ld_bank_conflicts". nullopt for an unknown name, or a ratio with no requests.
std::optional<double> metric_value(const emu::Counters& counters, const std::string& metric);
bool is_known_metric(const std::string& metric);
std::vector<std::string> known_metrics();

// What keeping the metric under its threshold shows: "global stores are coalesced".
std::string metric_label(const std::string& metric);

// One sentence on what the metric means and what a good value looks like.
std::string metric_explanation(const std::string& metric);

}  // namespace tilecamp::grade
