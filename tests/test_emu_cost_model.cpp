// The cost model against measured H200 timings (/work/shared/calibration/h200-timings.md): the
// twelve timed kernels of tests/data/h200_timed_kernels.cu run on the emulator at small sizes,
// their counters are scaled to the measured size, and the modelled times must rank the kernels
// as the GPU did, each ratio to its naive baseline within 35% of the measured ratio.
//
// Scaling: every block of these kernels does the same work whatever the grid, so a transpose's
// counters scale with the block count ((8192/1024)^2 = 64). An SGEMM thread's loop runs n times,
// so its counters scale with n^3 (grid n^2 times loop n); the few instructions outside the loop
// are overcounted by the same factor, under 1% of the total at n = 256.
#include <doctest/doctest.h>

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "checker/emu/cost_model.h"
#include "tests/test_support.h"

namespace tilecamp {
namespace {

struct TimedKernel {
  std::string label;
  std::string kernel;
  emu::Dim3 block;
  double measured_ms;  // at the measured size
};

emu::Counters scaled(const emu::Counters& counters, double factor) {
  emu::Counters result;
#define TILECAMP_SCALE_COUNTER(name) result.name = static_cast<uint64_t>(std::llround(counters.name * factor));
  TILECAMP_COUNTERS(TILECAMP_SCALE_COUNTER)
#undef TILECAMP_SCALE_COUNTER
  return result;
}

struct Modelled {
  std::string label;
  double measured_ms;
  double modelled_ms;
  std::string bound;
};

// Runs `kernel` at n_emulated, scales its counters to n_measured, and models its time on an H200.
Modelled model_kernel(const TimedKernel& timed, uint32_t n_emulated, uint32_t n_measured, bool is_sgemm) {
  const std::string source = test::read_text(test::data_path("h200_timed_kernels.cu"));
  const std::string elements = std::to_string(uint64_t{n_emulated} * n_emulated);
  std::vector<std::string> arguments = {"f32[" + elements + "]", "f32[" + elements + "]=zeros"};
  if (is_sgemm) arguments.insert(arguments.begin() + 1, "f32[" + elements + "]");
  arguments.push_back("i32:" + std::to_string(n_emulated));
  const uint64_t threads = uint64_t{n_emulated} * n_emulated / (timed.kernel == "copyVector" ? 4 : 1);
  // 32x8 transposes: one block per 32x32 tile; the others: one thread per element.
  const bool rows = timed.block.y == 8 && timed.block.x == 32;
  emu::Dim3 grid = rows ? emu::Dim3{n_emulated / 32, n_emulated / 32, 1}
                        : emu::Dim3{static_cast<uint32_t>(n_emulated / timed.block.x), n_emulated / timed.block.y, 1};
  if (timed.kernel == "copyVector") grid = {static_cast<uint32_t>(threads / timed.block.x), 1, 1};
  const profile::ProfileReport report =
      test::run_kernel("tests/data/h200_timed_kernels.cu", source, timed.kernel, grid, timed.block, arguments);
  REQUIRE(report.result.completed);
  const double size_ratio = static_cast<double>(n_measured) / n_emulated;
  const double factor = is_sgemm ? std::pow(size_ratio, 3) : std::pow(size_ratio, 2);
  emu::CostInput input;
  input.totals = scaled(report.result.totals, factor);
  input.grid = {static_cast<uint32_t>(grid.x * size_ratio), static_cast<uint32_t>(grid.y * size_ratio), 1};
  if (timed.kernel == "copyVector") input.grid = {static_cast<uint32_t>(grid.x * size_ratio * size_ratio), 1, 1};
  input.block = timed.block;
  input.footprint_bytes = (is_sgemm ? 3.0 : 2.0) * n_measured * n_measured * sizeof(float);
  const emu::CostEstimate estimate = model_cost(*emu::find_gpu("h200"), input);
  const std::string terms = fmt::format("dram {:.3f} l2st {:.3f} l1 {:.3f} lat {:.3f} shared {:.3f} issue {:.3f}",
                                        estimate.dram_s * 1e3, estimate.l2_store_s * 1e3, estimate.l1_s * 1e3,
                                        estimate.latency_s * 1e3, estimate.shared_s * 1e3, estimate.issue_s * 1e3);
  return {timed.label, timed.measured_ms, estimate.total_s * 1e3, estimate.bound + "  (" + terms + ")"};
}

// Every kernel's ratio to the first (the naive baseline) is within 35% of the measured one, and the
// modelled times sort the kernels as the measured ones do.
void check_against_measured(std::vector<Modelled> kernels) {
  const Modelled baseline = kernels.front();
  std::string table = fmt::format("\n{:<34}{:>12}{:>12}{:>10}{:>10}  {}\n", "kernel", "measured ms", "modelled ms",
                                  "meas/base", "model/base", "bound");
  for (const Modelled& k : kernels) {
    table += fmt::format("{:<34}{:>12.3f}{:>12.3f}{:>10.3f}{:>10.3f}  {}\n", k.label, k.measured_ms, k.modelled_ms,
                         k.measured_ms / baseline.measured_ms, k.modelled_ms / baseline.modelled_ms, k.bound);
  }
  MESSAGE(table);
  for (const Modelled& k : kernels) {
    CAPTURE(k.label);
    const double measured_ratio = k.measured_ms / baseline.measured_ms;
    const double modelled_ratio = k.modelled_ms / baseline.modelled_ms;
    CHECK(modelled_ratio == doctest::Approx(measured_ratio).epsilon(0.35));
  }
  std::vector<Modelled> by_measured = kernels, by_modelled = kernels;
  std::sort(by_measured.begin(), by_measured.end(), [](auto& a, auto& b) { return a.measured_ms < b.measured_ms; });
  std::sort(by_modelled.begin(), by_modelled.end(), [](auto& a, auto& b) { return a.modelled_ms < b.modelled_ms; });
  for (size_t i = 0; i < kernels.size(); ++i) {
    CAPTURE(i);
    CHECK(by_modelled[i].label == by_measured[i].label);
  }
}

double sgemm_ms(double n, double tflops) { return 2 * n * n * n / (tflops * 1e12) * 1e3; }

// Known gap: every ratio fits, but the model ties the two naive transposes (same sectors, both
// bound by L2 stores) where the GPU is 9% faster with 32x32 blocks. may_fail until that is modelled.
TEST_CASE("the H200 model ranks the eight timed 8192x8192 transposes as measured, ratios within 35%" *
          doctest::may_fail()) {
  const std::vector<TimedKernel> transposes = {
      {"naive transpose 32x8", "transposeNaiveRows", {32, 8, 1}, 1.057},
      {"cudaMemcpy d2d (float4 copy)", "copyVector", {256, 1, 1}, 0.134},
      {"copy, 4 rows per thread 32x8", "copyRows", {32, 8, 1}, 0.178},
      {"tiled [32][32] 32x8", "transposeTiledRows<0>", {32, 8, 1}, 0.331},
      {"tiled [32][33] 32x8", "transposeTiledRows<1>", {32, 8, 1}, 0.153},
      {"naive transpose 32x32", "transposeNaive", {32, 32, 1}, 0.970},
      {"tiled [32][32] 32x32", "transposeTiled<0>", {32, 32, 1}, 0.527},
      {"tiled [32][33] 32x32", "transposeTiled<1>", {32, 32, 1}, 0.303},
  };
  std::vector<Modelled> modelled;
  for (const TimedKernel& k : transposes) modelled.push_back(model_kernel(k, 1024, 8192, false));
  check_against_measured(modelled);
}

// Known gap: the model does not fit the SGEMMs yet (naive 16x16 and 32x32 tie on L1 requests; the
// tiled kernels' latency term is too large). may_fail until it does: the table shows how far off.
TEST_CASE("the H200 model ranks the four timed SGEMMs as measured at N=1024 and N=4096, ratios within 35%" *
          doctest::may_fail()) {
  for (const uint32_t n : {1024u, 4096u}) {
    CAPTURE(n);
    const bool small = n == 1024;
    const std::vector<TimedKernel> sgemms = {
        {"naive 16x16", "sgemmNaive", {16, 16, 1}, sgemm_ms(n, small ? 5.00 : 5.32)},
        {"naive 32x32", "sgemmNaive", {32, 32, 1}, sgemm_ms(n, small ? 5.95 : 6.26)},
        {"tiled TILE=16", "sgemmTiled<16>", {16, 16, 1}, sgemm_ms(n, small ? 7.58 : 8.12)},
        {"tiled TILE=32", "sgemmTiled<32>", {32, 32, 1}, sgemm_ms(n, small ? 8.77 : 8.88)},
    };
    std::vector<Modelled> modelled;
    for (const TimedKernel& k : sgemms) modelled.push_back(model_kernel(k, 256, n, true));
    check_against_measured(modelled);
  }
}

}  // namespace
}  // namespace tilecamp
