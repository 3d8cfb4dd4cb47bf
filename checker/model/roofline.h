// Where a kernel sits against a GPU's roofline: its floating-point work over the DRAM bytes it
// moves (arithmetic intensity), the ceiling that intensity allows (the lower of the FLOP peak and
// intensity x DRAM bandwidth) and what the kernel reaches in a given time. The DRAM bytes are the
// cost model's, not measured ones; the bandwidth is the GPU's measured copy rate, the FLOP peak its
// data sheet's (GpuSpec).
#pragma once

#include <string>

#include "checker/backend/counters.h"
#include "checker/model/cost_model.h"

namespace tilecamp::model {

struct Roofline {
  double fp32_flops = 0, fp64_flops = 0;
  double flops = 0;                // both precisions
  double dram_bytes = 0;           // modelled (CostEstimate::dram_bytes)
  double intensity = 0;            // FLOPs per DRAM byte; 0 without FLOPs or bytes
  std::string peak_name;           // "fp32", "fp64" or "fp32+fp64": whose peak is the ceiling
  double peak_flops_per_s = 0;     // for the kernel's mix of precisions
  double dram_bytes_per_s = 0;
  double ridge = 0;                // the intensity where the two ceilings meet: peak / bandwidth
  double attainable_flops_per_s = 0;  // min(peak, intensity x bandwidth)
  double time_s = 0;               // the time the achieved rates divide by
  double achieved_flops_per_s = 0;
  double achieved_dram_bytes_per_s = 0;
  // "memory" (left of the ridge), "compute" (right of it) or "no flops": the roofline does not
  // apply, the kernel is judged by its bandwidth alone.
  std::string bound;
};

// `time_s`: the kernel's time, modelled or measured; `dram_bytes`: what the cost model charged.
Roofline place_on_roofline(const GpuSpec& gpu, const Counters& totals, double dram_bytes, double time_s);

}  // namespace tilecamp::model
