#include "checker/grade/metrics.h"

namespace tilecamp::grade {
namespace {

struct Metric {
  const char* name;
  uint64_t emu::Counters::*numerator;
  uint64_t emu::Counters::*denominator;  // nullptr: the numerator is a total
  const char* label;                     // what staying under a threshold means
  const char* explanation;
};

constexpr Metric k_metrics[] = {
    {"global_ld_sectors_per_request", &emu::Counters::global_ld_sectors, &emu::Counters::global_ld_requests,
     "global loads are coalesced", "32-byte sectors each warp-wide global load touches: 4 when 32 lanes read 32 consecutive floats"},
    {"global_st_sectors_per_request", &emu::Counters::global_st_sectors, &emu::Counters::global_st_requests,
     "global stores are coalesced", "32-byte sectors each warp-wide global store touches: 4 when 32 lanes write 32 consecutive floats"},
    {"shared_ld_wavefronts_per_request", &emu::Counters::shared_ld_wavefronts, &emu::Counters::shared_ld_requests,
     "shared loads avoid bank conflicts", "passes each warp-wide shared load needs: 1 without bank conflicts, 32 when all lanes hit one bank"},
    {"shared_st_wavefronts_per_request", &emu::Counters::shared_st_wavefronts, &emu::Counters::shared_st_requests,
     "shared stores avoid bank conflicts", "passes each warp-wide shared store needs: 1 without bank conflicts, 32 when all lanes hit one bank"},
    {"shared_ld_bank_conflicts", &emu::Counters::shared_ld_bank_conflicts, nullptr,
     "shared loads avoid bank conflicts", "extra shared-load wavefronts caused by bank conflicts"},
    {"shared_st_bank_conflicts", &emu::Counters::shared_st_bank_conflicts, nullptr,
     "shared stores avoid bank conflicts", "extra shared-store wavefronts caused by bank conflicts"},
};

const Metric* find_metric(const std::string& name) {
  for (const Metric& metric : k_metrics) {
    if (name == metric.name) return &metric;
  }
  return nullptr;
}

}  // namespace

std::optional<double> metric_value(const emu::Counters& counters, const std::string& name) {
  const Metric* metric = find_metric(name);
  if (metric == nullptr) return std::nullopt;
  const double numerator = static_cast<double>(counters.*metric->numerator);
  if (metric->denominator == nullptr) return numerator;
  const uint64_t denominator = counters.*metric->denominator;
  if (denominator == 0) return std::nullopt;
  return numerator / static_cast<double>(denominator);
}

bool is_known_metric(const std::string& name) { return find_metric(name) != nullptr; }

std::vector<std::string> known_metrics() {
  std::vector<std::string> names;
  for (const Metric& metric : k_metrics) names.emplace_back(metric.name);
  return names;
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
