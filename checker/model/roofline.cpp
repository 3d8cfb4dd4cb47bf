#include "checker/model/roofline.h"

#include <algorithm>

namespace tilecamp::model {

Roofline place_on_roofline(const GpuSpec& gpu, const Counters& totals, double dram_bytes, double time_s) {
  Roofline r;
  r.fp32_flops = static_cast<double>(totals.fp32_flops);
  r.fp64_flops = static_cast<double>(totals.fp64_flops);
  r.flops = r.fp32_flops + r.fp64_flops;
  r.dram_bytes = dram_bytes;
  r.dram_bytes_per_s = gpu.dram_bytes_per_s;
  r.time_s = time_s;
  const double per_s = gpu.sms * gpu.clock_hz;
  const double fp32_peak = gpu.fp32_flops_per_clock * per_s;
  const double fp64_peak = gpu.fp64_flops_per_clock * per_s;
  // A mix of precisions: the peak at which both parts together would take the least time.
  if (r.fp64_flops == 0 || r.fp32_flops == 0) {
    r.peak_name = r.fp64_flops > 0 ? "fp64" : "fp32";
    r.peak_flops_per_s = r.fp64_flops > 0 ? fp64_peak : fp32_peak;
  } else {
    r.peak_name = "fp32+fp64";
    r.peak_flops_per_s = r.flops / (r.fp32_flops / fp32_peak + r.fp64_flops / fp64_peak);
  }
  r.ridge = r.peak_flops_per_s / r.dram_bytes_per_s;
  if (time_s > 0) {
    r.achieved_flops_per_s = r.flops / time_s;
    r.achieved_dram_bytes_per_s = dram_bytes / time_s;
  }
  if (r.flops == 0 || dram_bytes == 0) {
    r.bound = r.flops == 0 ? "no flops" : "compute";
    r.attainable_flops_per_s = r.flops == 0 ? 0 : r.peak_flops_per_s;
    return r;
  }
  r.intensity = r.flops / dram_bytes;
  r.attainable_flops_per_s = std::min(r.peak_flops_per_s, r.intensity * r.dram_bytes_per_s);
  r.bound = r.intensity < r.ridge ? "memory" : "compute";
  return r;
}

}  // namespace tilecamp::model
