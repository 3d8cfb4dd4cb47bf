// The roofline of `tilecamp profile`: the FLOP counters, counted as Nsight Compute counts them
// and checked against a kernel counted by hand; a kernel's intensity and its roof; and where the
// text plot puts it.
#include <doctest/doctest.h>

#include <algorithm>
#include <sstream>
#include <string>
#include <vector>

#include "checker/model/roofline.h"
#include "checker/report/roofline_text.h"
#include "tests/test_support.h"

namespace tilecamp {
namespace {

model::GpuSpec h200() { return *model::find_gpu("h200"); }

TEST_CASE("fp32_flops and fp64_flops count add, sub and mul once and fma twice, per active thread") {
  // The _rn intrinsics keep each operation as written (no contraction into an FMA).
  const std::string source =
      "__global__ void flops(const float* a, const double* d, float* out, double* dout) {\n"
      "  int t = threadIdx.x;\n"
      "  float x = a[t];\n"
      "  float y = __fmul_rn(x, x);\n"                  // 1
      "  y = __fadd_rn(y, 1.0f);\n"                     // 1
      "  y = __fmaf_rn(y, x, 2.0f);\n"                  // 2
      "  y = __fsub_rn(y, x);\n"                        // 1
      "  y = y / x;\n"                                  // a division: not counted
      "  if (t < 20) y = __fmaf_rn(y, y, y);\n"         // 2, on 20 threads
      "  out[t] = y;\n"
      "  double e = __fma_rn(d[t], d[t], 1.0);\n"       // 2
      "  dout[t] = __dmul_rn(e, 3.0);\n"                // 1
      "}\n";
  const auto report = test::run_kernel("flops.cu", source, "flops", {1, 1, 1}, {64, 1, 1},
                                       {"f32[64]", "f64[64]", "f32[64]=zeros", "f64[64]=zeros"});
  REQUIRE_FALSE(report.result.has_error());
  CHECK(report.result.totals.fp32_flops == 64 * 5 + 20 * 2);
  CHECK(report.result.totals.fp64_flops == 64 * 3);
}

TEST_CASE("the FLOP counters are in profile --json's totals under stable names") {
  const std::string source =
      "__global__ void axpy(const float* x, float* y) { y[threadIdx.x] = __fmaf_rn(2.0f, x[threadIdx.x], y[threadIdx.x]); }\n";
  const auto report = test::run_kernel("axpy.cu", source, "axpy", {1, 1, 1}, {32, 1, 1}, {"f32[32]", "f32[32]"});
  std::vector<std::string> names;
  report.result.totals.for_each([&](const char* name, uint64_t) { names.emplace_back(name); });
  CHECK(std::find(names.begin(), names.end(), "fp32_flops") != names.end());
  CHECK(std::find(names.begin(), names.end(), "fp64_flops") != names.end());
  CHECK(report.result.totals.fp32_flops == 64);
}

TEST_CASE("intensity is FLOPs over DRAM bytes, and the roof the lower of the peak and intensity x bandwidth") {
  Counters c;
  c.fp32_flops = 1 << 20;
  const model::Roofline memory = model::place_on_roofline(h200(), c, 1 << 20, 1e-3);
  CHECK(memory.intensity == doctest::Approx(1.0));
  CHECK(memory.peak_flops_per_s == doctest::Approx(132 * 1.98e9 * 256));  // 66.9 TFLOP/s
  CHECK(memory.ridge == doctest::Approx(66.9e12 / 4.0e12).epsilon(0.01));
  CHECK(memory.attainable_flops_per_s == doctest::Approx(4.0e12));
  CHECK(memory.bound == "memory");
  CHECK(memory.achieved_flops_per_s == doctest::Approx((1 << 20) / 1e-3));

  const model::Roofline compute = model::place_on_roofline(h200(), c, 1 << 14, 1e-3);  // 64 FLOP/B
  CHECK(compute.bound == "compute");
  CHECK(compute.attainable_flops_per_s == doctest::Approx(compute.peak_flops_per_s));

  Counters mixed;
  mixed.fp32_flops = 1000;
  mixed.fp64_flops = 1000;
  const model::Roofline both = model::place_on_roofline(h200(), mixed, 1000, 1e-3);
  // Half the work at 66.9 TFLOP/s and half at 33.5: 44.6 TFLOP/s together.
  CHECK(both.peak_name == "fp32+fp64");
  CHECK(both.peak_flops_per_s == doctest::Approx(2 / (1 / 66.9e12 + 1 / 33.45e12)).epsilon(0.01));

  const model::Roofline copy = model::place_on_roofline(h200(), Counters{}, 1 << 20, 1e-3);
  CHECK(copy.bound == "no flops");
  CHECK(copy.intensity == 0);
  CHECK(copy.achieved_dram_bytes_per_s == doctest::Approx((1 << 20) / 1e-3));
}

// The plot's lines: the rows of the plot, after the header, up to the axis.
std::vector<std::string> plot_rows(const std::string& text) {
  std::vector<std::string> rows;
  std::istringstream in(text);
  bool inside = false;
  for (std::string line; std::getline(in, line);) {
    if (line == "  FLOP/s") {
      inside = true;
    } else if (inside && line.find(" +---") != std::string::npos) {
      break;
    } else if (inside) {
      rows.push_back(line);
    }
  }
  return rows;
}

TEST_CASE("the plot puts the kernel at its intensity and FLOP rate, under its roof, in 80 columns") {
  CHECK(report::roofline_column(1.0) == 24);     // 4 columns per doubling from 1/64
  CHECK(report::roofline_column(1.0 / 64) == 0);
  CHECK(report::roofline_column(1e6) == report::k_roofline_columns - 1);
  CHECK(report::roofline_row(66.9e12) == 0);     // the FP32 peak: the top row
  CHECK(report::roofline_row(1e12) == 4);        // 2 rows per decade
  CHECK(report::roofline_row(1.0) == report::k_roofline_rows - 1);

  Counters c;
  c.fp32_flops = 1'000'000'000;  // 1 GFLOP over 1 GB: intensity 1, roof 4 TFLOP/s
  const model::Roofline r = model::place_on_roofline(h200(), c, 1e9, 1e-3);  // 1 TFLOP/s
  const std::string text = report::roofline_text(r, "h200", report::Style(false));
  const std::vector<std::string> rows = plot_rows(text);
  REQUIRE(rows.size() == static_cast<size_t>(report::k_roofline_rows));
  const size_t column = report::k_roofline_margin + 24;
  CHECK(rows[4][column] == '*');
  CHECK(rows[3][column] == ':');  // from the kernel up to its roof, 4 TFLOP/s in row 2
  CHECK(rows[2][column] == '/');
  CHECK(rows[0].find('_') != std::string::npos);  // the flat roof right of the ridge
  CHECK(test::contains(text, "ridge point 16.7 FLOP/B; this kernel 1 FLOP/B: memory-bound"));
  CHECK(test::contains(text, "roof there 4.00 TFLOP/s; modelled 1.00 TFLOP/s (25% of it), 1.00 TB/s DRAM"));
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) CHECK_MESSAGE(line.size() <= 80, line);
}

TEST_CASE("a kernel without floating-point work is judged by its bandwidth and drawn without a point") {
  const model::Roofline r = model::place_on_roofline(h200(), Counters{}, 2e9, 1e-3);  // 2 TB/s
  const std::string text = report::roofline_text(r, "h200", report::Style(false));
  CHECK(test::contains(text, "no floating-point work: judged by bandwidth alone"));
  CHECK(test::contains(text, "modelled 2.00 TB/s of DRAM (50% of the copy)"));
  for (const std::string& row : plot_rows(text)) CHECK(row.find('*') == std::string::npos);
}

}  // namespace
}  // namespace tilecamp
