// `tilecamp profile`'s roofline: the kernel's arithmetic intensity and a small log-log plot of
// where it sits under the GPU's two ceilings, in 80 columns and plain characters (colour only
// marks the kernel's point), and the same as `--json`'s "roofline" object.
#pragma once

#include <nlohmann/json_fwd.hpp>
#include <string>

#include "checker/model/roofline.h"
#include "checker/report/style.h"

namespace tilecamp::report {

// The plot's axes: 4 columns per doubling of intensity from 1/64 to 1024 FLOP/B, 2 rows per
// decade of FLOP/s from 100 TFLOP/s (row 0) down to 3 GFLOP/s (row 9); values outside are put on
// the edge.
inline constexpr int k_roofline_columns = 64;
inline constexpr int k_roofline_rows = 10;
inline constexpr int k_roofline_margin = 8;  // the FLOP/s labels and the axis before column 0
int roofline_column(double intensity);
int roofline_row(double flops_per_s);

std::string roofline_text(const model::Roofline& roofline, const std::string& gpu, const Style& style);
nlohmann::ordered_json roofline_json(const model::Roofline& roofline);

}  // namespace tilecamp::report
