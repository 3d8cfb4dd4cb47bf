// The emulator's memory model against hardware: every row of tests/data/h200-access-rules.tsv
// (Nsight Compute on an H200) is reproduced by running the very kernels that produced it.
#include <doctest/doctest.h>

#include <cstring>
#include <regex>
#include <sstream>

#include "checker/emu/emulator.h"
#include "checker/ptx/kernel_lookup.h"
#include "tests/test_support.h"

namespace tilecamp {
namespace {

struct CalibrationRow {
  std::string kernel;
  std::string case_name;
  Counters expected;
};

std::vector<CalibrationRow> read_rows() {
  std::istringstream table(test::read_text(test::data_path("h200-access-rules.tsv")));
  std::string line;
  std::getline(table, line);  // header
  std::vector<CalibrationRow> rows;
  while (std::getline(table, line)) {
    if (line.empty()) continue;
    std::istringstream fields(line);
    CalibrationRow row;
    std::getline(fields, row.kernel, '\t');
    std::getline(fields, row.case_name, '\t');
    fields >> row.expected.shared_ld_wavefronts >> row.expected.shared_ld_bank_conflicts >>
        row.expected.global_ld_requests >> row.expected.global_ld_sectors >>
        row.expected.global_st_requests >> row.expected.global_st_sectors;
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

Counters run_row(const ptx::Module& module, const CalibrationRow& row) {
  emu::DeviceMemory memory;
  emu::Emulator emulator(module, memory);
  const uint64_t input = memory.allocate("in", std::vector<uint8_t>(64 << 20, 0));
  const uint64_t output = memory.allocate("out", std::vector<uint8_t>(1 << 20, 0));
  const int32_t s = case_value(row.case_name, "s");
  const int32_t off = case_value(row.case_name, "off");
  std::vector<std::vector<uint8_t>> parameters;
  if (row.kernel.starts_with("gl_f")) parameters.push_back(bytes_of(input, 8));
  parameters.push_back(bytes_of(output, 8));
  if (row.kernel.find("stride") != std::string::npos || row.kernel.starts_with("gl_")) {
    parameters.push_back(bytes_of(static_cast<uint32_t>(s), 4));
  }
  if (row.kernel == "gl_f32") parameters.push_back(bytes_of(static_cast<uint32_t>(off), 4));

  auto mangled = ptx::resolve_kernel_name(module, row.kernel);
  REQUIRE_MESSAGE(mangled.has_value(), (mangled ? "" : mangled.error()));
  LaunchConfig config;
  config.block = {32, 1, 1};
  auto result = emulator.launch(*mangled, config, parameters);
  REQUIRE_MESSAGE(result.has_value(), (result ? "" : result.error()));
  REQUIRE(result->completed);
  Counters counted = result->totals;
  // The table covers shared loads and global traffic; the setup stores are not part of it.
  Counters compared;
  compared.shared_ld_wavefronts = counted.shared_ld_wavefronts;
  compared.shared_ld_bank_conflicts = counted.shared_ld_bank_conflicts;
  compared.global_ld_requests = counted.global_ld_requests;
  compared.global_ld_sectors = counted.global_ld_sectors;
  compared.global_st_requests = counted.global_st_requests;
  compared.global_st_sectors = counted.global_st_sectors;
  return compared;
}

TEST_CASE("the emulator reproduces every row of the H200 access-rules table") {
  const ptx::Module module = test::compile_to_module(
      "h200-access-rules.cu", test::read_text(test::data_path("h200-access-rules.cu")));
  const std::vector<CalibrationRow> rows = read_rows();
  REQUIRE(rows.size() == 27);
  for (const CalibrationRow& row : rows) {
    CAPTURE(row.kernel);
    CAPTURE(row.case_name);
    const Counters counted = run_row(module, row);
    CHECK(counted.shared_ld_wavefronts == row.expected.shared_ld_wavefronts);
    CHECK(counted.shared_ld_bank_conflicts == row.expected.shared_ld_bank_conflicts);
    CHECK(counted.global_ld_requests == row.expected.global_ld_requests);
    CHECK(counted.global_ld_sectors == row.expected.global_ld_sectors);
    CHECK(counted.global_st_requests == row.expected.global_st_requests);
    CHECK(counted.global_st_sectors == row.expected.global_st_sectors);
  }
}

}  // namespace
}  // namespace tilecamp
