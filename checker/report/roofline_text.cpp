#include "checker/report/roofline_text.h"

#include <nlohmann/json.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <vector>

namespace tilecamp::report {
namespace {

constexpr double k_lowest_intensity_log2 = -6;  // 1/64 FLOP/B at column 0's left edge
constexpr double k_columns_per_doubling = 4;
constexpr double k_top_log10 = 14;              // 100 TFLOP/s at row 0's top edge
constexpr double k_rows_per_decade = 2;

// 66.9 T, 4.00 T, 512 M...: three significant digits and an SI prefix.
std::string si(double value) {
  static constexpr const char* k_prefixes[] = {"", "k", "M", "G", "T", "P"};
  int prefix = 0;
  while (std::abs(value) >= 999.5 && prefix < 5) {
    value /= 1000;
    ++prefix;
  }
  const int decimals = std::abs(value) >= 99.95 ? 0 : std::abs(value) >= 9.995 ? 1 : 2;
  return fmt::format("{:.{}f} {}", value, decimals, k_prefixes[prefix]);
}

std::string intensity_text(double value) { return value >= 99.95 ? fmt::format("{:.0f}", value) : fmt::format("{:.3g}", value); }

// The intensity at the middle of column `c`.
double column_intensity(int c) {
  return std::exp2(k_lowest_intensity_log2 + (c + 0.5) / k_columns_per_doubling);
}

std::string percent(double part, double whole) {
  const double value = whole > 0 ? 100 * part / whole : 0;
  return value < 9.95 ? fmt::format("{:.1f}%", value) : fmt::format("{:.0f}%", value);
}

std::vector<std::string> plot_lines(const model::Roofline& r, const Style& style) {
  std::vector<std::string> grid(k_roofline_rows, std::string(k_roofline_columns, ' '));
  for (int c = 0; c < k_roofline_columns; ++c) {
    const double x = column_intensity(c);
    const double roof = std::min(r.peak_flops_per_s, x * r.dram_bytes_per_s);
    const int row = roofline_row(roof);
    if (roof * (1 + 1e-9) >= 1e9) grid[row][c] = x < r.ridge ? '/' : '_';
  }
  int point_row = -1, point_column = -1;
  if (r.flops > 0 && r.dram_bytes > 0 && r.achieved_flops_per_s > 0) {
    point_column = roofline_column(r.intensity);
    point_row = roofline_row(r.achieved_flops_per_s);
    // The gap between the kernel and its roof, drawn as a dotted line up to the roof.
    const int roof_row = roofline_row(r.attainable_flops_per_s);
    for (int row = roof_row + 1; row < point_row; ++row) grid[row][point_column] = ':';
  }
  // Row r holds (10^(14 - (r + 1) / 2), 10^(14 - r / 2)]: a decade's value is in an even row.
  static constexpr const char* k_labels[k_roofline_rows] = {"100T", "", "10T", "", "1T", "", "100G", "", "10G", ""};
  std::vector<std::string> lines;
  for (int row = 0; row < k_roofline_rows; ++row) {
    std::string line = grid[row];
    if (row == point_row) {
      line = line.substr(0, point_column) + style.bold(style.yellow("*")) + line.substr(point_column + 1);
    }
    line.erase(line.find_last_not_of(' ') + 1);
    lines.push_back(fmt::format("  {:>4} |{}", k_labels[row], line));
  }
  lines.push_back(fmt::format("  {:>4} +{}", "", std::string(k_roofline_columns, '-')));
  // A tick every two doublings: 1/64, 1/16, ... 256.
  std::string ticks(k_roofline_columns + 8, ' ');
  static constexpr const char* k_ticks[] = {"1/64", "1/16", "1/4", "1", "4", "16", "64", "256"};
  for (int i = 0; i < 8; ++i) ticks.replace(i * 8, std::string(k_ticks[i]).size(), k_ticks[i]);
  lines.push_back(std::string(k_roofline_margin, ' ') + ticks.substr(0, k_roofline_columns) + "FLOP/B");
  return lines;
}

}  // namespace

int roofline_column(double intensity) {
  if (intensity <= 0) return 0;
  const double c = std::floor((std::log2(intensity) - k_lowest_intensity_log2) * k_columns_per_doubling);
  return static_cast<int>(std::clamp(c, 0.0, static_cast<double>(k_roofline_columns - 1)));
}

int roofline_row(double flops_per_s) {
  if (flops_per_s <= 0) return k_roofline_rows - 1;
  // Row r holds (10^(top - (r + 1) / 2), 10^(top - r / 2)].
  const double r = std::floor((k_top_log10 - std::log10(flops_per_s)) * k_rows_per_decade);
  return static_cast<int>(std::clamp(r, 0.0, static_cast<double>(k_roofline_rows - 1)));
}

std::string roofline_text(const model::Roofline& r, const std::string& gpu, const Style& style) {
  std::string out = style.bold("roofline") + fmt::format(" ({}, DRAM bytes and time from the cost model)\n", gpu);
  out += fmt::format("  fp32_flops {:.0f}, fp64_flops {:.0f}, DRAM bytes {:.0f} (modelled)\n", r.fp32_flops,
                     r.fp64_flops, r.dram_bytes);
  const std::string peak = r.peak_name == "fp32+fp64" ? "FP32+FP64 mix" : r.peak_name == "fp64" ? "FP64" : "FP32";
  out += fmt::format("  peaks: {} {}FLOP/s (data sheet), DRAM {}B/s (measured copy)\n", peak, si(r.peak_flops_per_s),
                     si(r.dram_bytes_per_s));
  if (r.bound == "no flops") {
    out += fmt::format("  ridge point {} FLOP/B; no floating-point work: judged by bandwidth alone\n",
                       intensity_text(r.ridge));
    out += fmt::format("  modelled {}B/s of DRAM ({} of the copy)\n", si(r.achieved_dram_bytes_per_s),
                       percent(r.achieved_dram_bytes_per_s, r.dram_bytes_per_s));
  } else {
    out += fmt::format("  ridge point {} FLOP/B; this kernel {} FLOP/B: {}-bound\n", intensity_text(r.ridge),
                       intensity_text(r.intensity), r.bound);
    out += fmt::format("  roof there {}FLOP/s; modelled {}FLOP/s ({} of it), {}B/s DRAM\n",
                       si(r.attainable_flops_per_s), si(r.achieved_flops_per_s),
                       percent(r.achieved_flops_per_s, r.attainable_flops_per_s), si(r.achieved_dram_bytes_per_s));
  }
  out += "  FLOP/s\n";
  for (const std::string& line : plot_lines(r, style)) out += line + "\n";
  return out;
}

nlohmann::ordered_json roofline_json(const model::Roofline& r) {
  return {{"flops", r.flops},
          {"fp32_flops", r.fp32_flops},
          {"fp64_flops", r.fp64_flops},
          {"dram_bytes", r.dram_bytes},
          {"dram_bytes_source", "modelled"},
          {"intensity_flop_per_byte", r.intensity},
          {"peak", r.peak_name},
          {"peak_flops_per_s", r.peak_flops_per_s},
          {"dram_bytes_per_s", r.dram_bytes_per_s},
          {"ridge_flop_per_byte", r.ridge},
          {"attainable_flops_per_s", r.attainable_flops_per_s},
          {"time_s", r.time_s},
          {"time_source", "modelled"},
          {"achieved_flops_per_s", r.achieved_flops_per_s},
          {"achieved_dram_bytes_per_s", r.achieved_dram_bytes_per_s},
          {"bound", r.bound}};
}

}  // namespace tilecamp::report
