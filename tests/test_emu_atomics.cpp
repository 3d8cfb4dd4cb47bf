// Atomics against the H200: every row of tests/data/h200-atomics.tsv (Nsight Compute's counters of
// the small launches of bench/atomics_gpu.cu, bench/model/h200/atomics/) is reproduced by running
// the same kernels on the emulator; and the cost model orders the access patterns and the
// histograms as the H200's timings did (bench/model/h200/atomics/atomics_time.txt).
#include <doctest/doctest.h>

#include <algorithm>
#include <cstring>
#include <map>
#include <regex>
#include <sstream>

#include "checker/emu/emulator.h"
#include "checker/model/cost_model.h"
#include "checker/model/sampling.h"
#include "checker/ptx/kernel_lookup.h"
#include "tests/test_support.h"

namespace tilecamp {
namespace {

struct AtomicRow {
  std::string kernel;
  std::string case_name;
  Counters expected;
};

std::vector<AtomicRow> read_rows() {
  std::istringstream table(test::read_text(test::data_path("h200-atomics.tsv")));
  std::string line;
  std::getline(table, line);  // header
  std::vector<AtomicRow> rows;
  while (std::getline(table, line)) {
    if (line.empty()) continue;
    std::istringstream fields(line);
    AtomicRow row;
    std::getline(fields, row.kernel, '\t');
    std::getline(fields, row.case_name, '\t');
    fields >> row.expected.global_atom_requests >> row.expected.global_atom_sectors >> row.expected.shared_atom_requests >>
        row.expected.shared_atom_wavefronts >> row.expected.shared_atom_bank_conflicts;
    rows.push_back(row);
  }
  return rows;
}

int case_value(const std::string& case_name, const std::string& key) {
  std::smatch match;
  if (std::regex_search(case_name, match, std::regex(key + "=(\\d+)"))) return std::stoi(match[1]);
  return 0;
}

std::vector<uint8_t> bytes_of(uint64_t value, size_t size) {
  std::vector<uint8_t> bytes(size);
  std::memcpy(bytes.data(), &value, size);
  return bytes;
}

// bench/atomics_gpu.cu's histogram inputs: a hash of i below 256; skewed, 7 in 8 are the value 7;
// half, uniform then skewed.
std::vector<uint8_t> histogram_data(const std::string& kind, uint32_t n) {
  std::vector<uint8_t> bytes(size_t{n} * 4);
  for (uint32_t i = 0; i < n; ++i) {
    const uint32_t uniform = (i * 2654435761u) >> 24;
    const bool skewed = kind == "skewed" || (kind == "half" && i >= n / 2);
    const uint32_t value = skewed && ((i * 2246822519u) >> 29) != 0 ? 7u : uniform;
    std::memcpy(bytes.data() + size_t{i} * 4, &value, 4);
  }
  return bytes;
}

struct Launch {
  Dim3 grid, block;
  std::vector<Dim3> sample;  // sampled blocks, or every block
};

Expected<LaunchResult> run_kernel(const ptx::Module& module, const std::string& kernel, const std::string& case_name,
                                  const Launch& launch) {
  emu::DeviceMemory memory;
  emu::Emulator emulator(module, memory);
  const uint64_t threads = uint64_t{launch.grid.count()} * launch.block.count();
  const uint32_t iters = static_cast<uint32_t>(case_value(case_name, "iters"));
  std::vector<std::vector<uint8_t>> parameters;
  if (kernel.starts_with("atom")) {
    parameters.push_back(bytes_of(memory.allocate_zeroed("p", threads * 8 * 4), 8));
    if (kernel == "atomSameAddressReturn") parameters.push_back(bytes_of(memory.allocate_zeroed("out", threads * 4), 8));
    parameters.push_back(bytes_of(iters, 4));
  } else if (kernel.starts_with("shared")) {
    parameters.push_back(bytes_of(memory.allocate_zeroed("out", uint64_t{launch.grid.count()} * 4096), 8));
    parameters.push_back(bytes_of(static_cast<uint32_t>(case_value(case_name, "way")), 4));
    parameters.push_back(bytes_of(static_cast<uint32_t>(case_value(case_name, "stride")), 4));
    parameters.push_back(bytes_of(iters, 4));
  } else {
    std::smatch kind;
    std::regex_search(case_name, kind, std::regex("data=(\\w+)"));
    const uint32_t n = static_cast<uint32_t>(case_value(case_name, "n"));
    parameters.push_back(bytes_of(memory.allocate("data", histogram_data(kind[1], n)), 8));
    parameters.push_back(bytes_of(memory.allocate_zeroed("bins", 1024), 8));
    parameters.push_back(bytes_of(n, 4));
  }
  auto mangled = ptx::resolve_kernel_name(module, kernel);
  if (!mangled) return make_error(mangled.error());
  LaunchConfig config;
  config.grid = launch.grid;
  config.block = launch.block;
  config.sample_blocks = launch.sample;
  if (!launch.sample.empty()) config.sample_uniform_after = model::k_uniform_after;
  return emulator.launch(*mangled, config, parameters);
}

ptx::Module atomics_module() {
  return test::compile_to_module("h200-atomics.cu", test::read_text(test::data_path("h200-atomics.cu")) +
                                                        test::read_text(test::source_path("exercises/10-histogram/baseline.cu")) +
                                                        test::read_text(test::source_path("solutions/10-histogram/kernel.cu")));
}

TEST_CASE("the emulator counts atomics as Nsight Compute did on the H200, row by row") {
  const ptx::Module module = atomics_module();
  const std::vector<AtomicRow> rows = read_rows();
  REQUIRE(rows.size() == 22);
  for (const AtomicRow& row : rows) {
    // ptxas adds a float in shared memory with a compare-and-swap loop that the H200 repeats more
    // often than one trip per lane on the address (48 trips for 32 where no two lanes share a
    // word): the emulator's one-trip-per-lane rule is a floor there, not a match.
    const bool float_loop = row.kernel == "sharedAtomWaysF32";
    CAPTURE(row.kernel);
    CAPTURE(row.case_name);
    const std::string& kernel = row.kernel;
    const int grid = case_value(row.case_name, "grid"), block = case_value(row.case_name, "block");
    auto result = run_kernel(module, kernel, row.case_name,
                             {{static_cast<uint32_t>(grid), 1, 1}, {static_cast<uint32_t>(block), 1, 1}, {}});
    REQUIRE_MESSAGE(result.has_value(), (result ? "" : result.error()));
    REQUIRE(result->completed);
    const Counters& c = result->totals;
    CHECK(c.global_atom_requests == row.expected.global_atom_requests);
    CHECK(c.global_atom_sectors == row.expected.global_atom_sectors);
    if (float_loop) {
      CHECK(c.shared_atom_requests <= row.expected.shared_atom_requests);
      CHECK(c.shared_atom_wavefronts <= row.expected.shared_atom_wavefronts);
      continue;
    }
    CHECK(c.shared_atom_requests == row.expected.shared_atom_requests);
    if (row.kernel == "histogramAggregated") {
      // The leaders' ATOMS.ADD: the H200 counts 1 to 5% more wavefronts than the same words in
      // the POPC.INC of the plain histogram, which the addresses do not explain.
      CHECK(c.shared_atom_wavefronts <= row.expected.shared_atom_wavefronts);
      CHECK(c.shared_atom_wavefronts * 105 >= row.expected.shared_atom_wavefronts * 100);
      continue;
    }
    CHECK(c.shared_atom_wavefronts == row.expected.shared_atom_wavefronts);
    CHECK(c.shared_atom_bank_conflicts == row.expected.shared_atom_bank_conflicts);
  }
}

model::CostEstimate modelled(const ptx::Module& module, const std::string& kernel, const std::string& case_name,
                             const Launch& launch, double footprint_bytes) {
  auto result = run_kernel(module, kernel, case_name, launch);
  REQUIRE_MESSAGE(result.has_value(), (result ? "" : result.error()));
  REQUIRE(result->completed);
  model::CostInput input;
  input.totals = launch.sample.empty() ? result->totals : model::extrapolate(launch.grid, launch.sample, result->block_counters);
  input.grid = launch.grid;
  input.block = launch.block;
  input.footprint_bytes = footprint_bytes;
  return model::model_cost(*model::find_gpu("h200"), input);
}

TEST_CASE("the cost model prices atomic contention as the H200 measured it, and orders the patterns alike") {
  const ptx::Module module = atomics_module();
  // bench/model/h200/atomics/atomics_time.txt: 1056 blocks of 256 threads, 64 atomics each. The
  // model runs 16 each (a quarter of the emulator's time) against a quarter of the H200's times.
  const Launch launch{{1056, 1, 1}, {256, 1, 1}, {}};
  const double footprint = 1056.0 * 256 * 8 * 4;
  std::map<std::string, double> h200_ms = {{"atomSameSector", 1.271}, {"atomSameAddress", 0.402},
                                           {"atomWarpAddress", 0.225}, {"atomSpread", 0.183}, {"atomCoalesced", 0.034}};
  std::map<std::string, double> model_ms;
  for (const auto& [kernel, measured] : h200_ms) {
    const model::CostEstimate e = modelled(module, kernel, "iters=16", launch, footprint);
    model_ms[kernel] = 4 * e.total_s * 1e3;
    CAPTURE(kernel);
    CAPTURE(e.bound);
    CAPTURE(model_ms[kernel]);
    CHECK(model_ms[kernel] < 1.6 * measured);  // each within 1.6x of the H200
    CHECK(model_ms[kernel] > measured / 1.6);
  }
  // Same order as the H200 (a warp on a word of its own and a lane per sector take 0.225 and
  // 0.183 ms there: close enough that the model need not order them).
  CHECK(model_ms["atomSameSector"] > model_ms["atomSameAddress"]);
  CHECK(model_ms["atomSameAddress"] > std::max(model_ms["atomWarpAddress"], model_ms["atomSpread"]));
  CHECK(std::min(model_ms["atomWarpAddress"], model_ms["atomSpread"]) > 2 * model_ms["atomCoalesced"]);
}

TEST_CASE("the cost model orders the global-atomic and privatized histograms as the H200 did") {
  const ptx::Module module = atomics_module();
  // 2^22 values (the H200 ran 2^26), 528 blocks of 256, sampled as the grader samples.
  const uint32_t n = 1u << 22;
  const Dim3 grid{528, 1, 1};
  const Launch launch{grid, {256, 1, 1}, model::sample_blocks(grid)};
  const std::string size = " n=" + std::to_string(n);
  std::map<std::string, double> us;
  for (const std::string kind : {"uniform", "skewed", "half"}) {
    for (const std::string kernel : {"histogramGlobal", "histogram"}) {
      const model::CostEstimate e = modelled(module, kernel, "data=" + kind + size, launch, n * 4.0 + 1024);
      us[kernel + " " + kind] = e.total_s * 1e6;
      MESSAGE(kernel << " " << kind << ": " << e.total_s * 1e6 << " us, " << e.bound);
    }
  }
  // The H200 at 2^26: global 45.99 (skewed) > 33.70 (half) > 21.40 ms (uniform); privatized
  // 0.196 to 0.197 ms on all three, 109 to 233 times faster.
  CHECK(us["histogramGlobal skewed"] > us["histogramGlobal half"]);
  CHECK(us["histogramGlobal half"] > us["histogramGlobal uniform"]);
  for (const std::string kind : {"uniform", "skewed", "half"}) {
    CAPTURE(kind);
    CHECK(us["histogramGlobal " + kind] > 20 * us["histogram " + kind]);
  }
}

}  // namespace
}  // namespace tilecamp
