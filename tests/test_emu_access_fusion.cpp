// Shared accesses that ptxas merges into LDS.64/LDS.128 (STS.64/STS.128), and what wide shared
// accesses cost when lanes share addresses, against Nsight Compute on an H200: every row of
// tests/data/h200-shared-fusion.tsv, and the SGEMM kernels of bench/ncu whose counts showed it.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstring>
#include <map>
#include <sstream>

#include "checker/emu/access_rules.h"
#include "checker/emu/emulator.h"
#include "checker/profile/arg_spec.h"
#include "checker/ptx/kernel_lookup.h"
#include "tests/test_support.h"

namespace tilecamp {
namespace {

struct MeasuredRow {
  std::string file;
  std::string kernel;
  Dim3 block;
  uint32_t dynamic_shared = 0;
  std::vector<std::string> arguments;
  Counters expected;  // the shared-memory counters
};

// The rows the emulator does not reproduce, and why. The table's sass_nvcc and sass_nvrtc columns
// hold the LDS/STS instructions ptxas made of nvcc's PTX (measured) and of NVRTC's (what the
// emulator runs): where they differ, the emulator follows the latter.
const std::map<std::string, std::string>& known_divergences() {
  static const std::map<std::string, std::string> divergences = {
      {"loop_unroll2", "NVRTC's PTX steps a base 4 bytes into the row: ptxas, like the emulator, cannot "
                       "prove the pairs 8-byte aligned (LDS; nvcc's PTX gets LDS.64)"},
      {"column<32,8>", "ptxas peels an iteration of nvcc's PTX and unrolls the rest by 5 (LDS.64); "
                       "NVRTC's PTX it unrolls by 4 (LDS.128), as the emulator does"},
      {"column_wide<32,8>", "as column<32,8>"},
      {"column_wide<16,12>", "nvcc's PTX stays rolled (LDS.64); ptxas unrolls NVRTC's by 4 (LDS.128), as the "
                             "emulator does"},
      {"column_wide<16,16>", "ptxas unrolls this 16-load body by 6 and merges nothing; the emulator's "
                             "unrolling heuristic merges by 4"},
      {"uchar4words", "NVRTC turns the byte arithmetic into dp4a, which the emulator does not run yet"},
  };
  return divergences;
}

Dim3 parse_dim3(const std::string& text) {
  Dim3 dim;
  char comma = 0;
  std::istringstream in(text);
  in >> dim.x;
  if (in >> comma) in >> dim.y;
  if (in >> comma) in >> dim.z;
  return dim;
}

std::vector<MeasuredRow> read_rows() {
  std::istringstream table(test::read_text(test::data_path("h200-shared-fusion.tsv")));
  std::string line, field;
  std::getline(table, line);  // header
  std::vector<MeasuredRow> rows;
  while (std::getline(table, line)) {
    std::istringstream fields(line);
    MeasuredRow row;
    std::string block, shared, arguments;
    std::getline(fields, row.file, '\t');
    std::getline(fields, row.kernel, '\t');
    std::getline(fields, block, '\t');
    std::getline(fields, shared, '\t');
    std::getline(fields, arguments, '\t');
    row.block = parse_dim3(block);
    row.dynamic_shared = static_cast<uint32_t>(std::stoul(shared));
    std::istringstream words(arguments);
    while (words >> field) row.arguments.push_back(field);
    fields >> row.expected.shared_ld_requests >> row.expected.shared_ld_wavefronts >>
        row.expected.shared_ld_bank_conflicts >> row.expected.shared_st_requests >>
        row.expected.shared_st_wavefronts;
    rows.push_back(row);
  }
  return rows;
}

const ptx::Module& module_of(const std::string& file) {
  static std::map<std::string, ptx::Module> modules;
  auto it = modules.find(file);
  if (it == modules.end()) {
    it = modules.emplace(file, test::compile_to_module(file, test::read_text(test::data_path(file)))).first;
  }
  return it->second;
}

Counters shared_counters(const Counters& counted) {
  Counters shared;
  shared.shared_ld_requests = counted.shared_ld_requests;
  shared.shared_ld_wavefronts = counted.shared_ld_wavefronts;
  shared.shared_ld_bank_conflicts = counted.shared_ld_bank_conflicts;
  shared.shared_st_requests = counted.shared_st_requests;
  shared.shared_st_wavefronts = counted.shared_st_wavefronts;
  return shared;
}

Counters run_row(const MeasuredRow& row) {
  const ptx::Module& module = module_of(row.file);
  emu::DeviceMemory memory;
  emu::Emulator emulator(module, memory);
  std::vector<std::vector<uint8_t>> parameters;
  for (const std::string& text : row.arguments) {
    auto spec = profile::parse_arg_spec(text);
    REQUIRE_MESSAGE(spec.has_value(), (spec ? "" : spec.error()));
    if (!spec->is_buffer) {
      parameters.push_back(spec->scalar);
      continue;
    }
    auto bytes = profile::fill_buffer(*spec, 1);
    REQUIRE(bytes.has_value());
    const uint64_t address = memory.allocate(text, *bytes);
    parameters.emplace_back(8);
    std::memcpy(parameters.back().data(), &address, 8);
  }
  auto mangled = ptx::resolve_kernel_name(module, row.kernel);
  REQUIRE_MESSAGE(mangled.has_value(), (mangled ? "" : mangled.error()));
  LaunchConfig config;
  config.block = row.block;
  config.dynamic_shared_bytes = row.dynamic_shared;
  auto result = emulator.launch(*mangled, config, parameters);
  REQUIRE_MESSAGE(result.has_value(), (result ? "" : result.error()));
  REQUIRE(result->completed);
  return shared_counters(result->totals);
}

TEST_CASE("the emulator counts the H200's shared requests and wavefronts for every measured access pattern") {
  const std::vector<MeasuredRow> rows = read_rows();
  REQUIRE(rows.size() == 139);
  for (const MeasuredRow& row : rows) {
    if (known_divergences().contains(row.kernel)) continue;
    CAPTURE(row.kernel);
    CAPTURE(row.arguments.back());
    const Counters counted = run_row(row);
    CHECK(counted.shared_ld_requests == row.expected.shared_ld_requests);
    CHECK(counted.shared_ld_wavefronts == row.expected.shared_ld_wavefronts);
    CHECK(counted.shared_ld_bank_conflicts == row.expected.shared_ld_bank_conflicts);
    CHECK(counted.shared_st_requests == row.expected.shared_st_requests);
    CHECK(counted.shared_st_wavefronts == row.expected.shared_st_wavefronts);
  }
}

TEST_CASE("every known divergence from the H200 table names a measured kernel") {
  const std::vector<MeasuredRow> rows = read_rows();
  for (const auto& [kernel, reason] : known_divergences()) {
    CAPTURE(kernel);
    CHECK(std::any_of(rows.begin(), rows.end(), [&](const MeasuredRow& row) { return row.kernel == kernel; }));
  }
}

// The two SGEMM kernels of bench/ncu/kernels.cu, launched as bench/ncu/compare.py launches them.
Counters run_sgemm(const std::string& kernel, Dim3 grid, Dim3 block) {
  const int n = 256;
  const std::string matrix = "f32[" + std::to_string(n * n) + "]";
  const profile::ProfileReport report =
      test::run_kernel("bench/ncu/kernels.cu", test::read_text(test::source_path("bench/ncu/kernels.cu")), kernel, grid,
                       block, {matrix, matrix, matrix + "=zeros", "i32:" + std::to_string(n)});
  REQUIRE(report.result.completed);
  return report.result.totals;
}

TEST_CASE("sgemmTiled<16> makes the H200's shared requests and wavefronts: 16 loads of a tile row become 4 LDS.128") {
  const Counters counted = run_sgemm("sgemmTiled<16>", {16, 16, 1}, {16, 16, 1});
  // Nsight Compute on an H200: bench/ncu/h200/ncu.csv, launch 4.
  CHECK(counted.shared_ld_requests == 655360);
  CHECK(counted.shared_ld_wavefronts == 786432);
  CHECK(counted.shared_st_requests == 65536);
  CHECK(counted.shared_st_wavefronts == 65536);
}

TEST_CASE("sgemmColumn8 makes the H200's shared requests and wavefronts: ptxas unrolls its k loop and merges across it") {
  const Counters counted = run_sgemm("sgemmColumn8", {4, 4, 1}, {512, 1, 1});
  // Nsight Compute on an H200: bench/ncu/h200/ncu.csv, launch 5.
  CHECK(counted.shared_ld_requests == 196608);
  CHECK(counted.shared_ld_wavefronts == 327680);
  CHECK(counted.shared_st_requests == 16384);
  CHECK(counted.shared_st_wavefronts == 16384);
}

emu::LaneAddresses lanes_at(uint64_t (*address_of)(int lane)) {
  emu::LaneAddresses addresses{};
  for (int lane = 0; lane < emu::k_warp_size; ++lane) addresses[lane] = address_of(lane);
  return addresses;
}

TEST_CASE("a 128-bit load that every lane makes at one address costs two wavefronts, a 64-bit one one") {
  const emu::LaneAddresses same = lanes_at([](int) -> uint64_t { return 64; });
  CHECK(emu::count_shared_wavefronts(same, 0xffffffffu, 16).wavefronts == 2);
  CHECK(emu::count_shared_wavefronts(same, 0xffffffffu, 8).wavefronts == 1);
}

TEST_CASE("wide loads whose lanes do not come in pairs run in quarter-warp (128-bit) or half-warp (64-bit) phases") {
  // Lanes 8 apart share an address: 8 distinct 16-byte chunks, 128 bytes, yet 4 wavefronts.
  const emu::LaneAddresses repeated = lanes_at([](int lane) -> uint64_t { return (lane % 8) * 16; });
  CHECK(emu::count_shared_wavefronts(repeated, 0xffffffffu, 16).wavefronts == 4);
  // Adjacent lanes share an address: the same 8 chunks in 2 wavefronts.
  const emu::LaneAddresses paired = lanes_at([](int lane) -> uint64_t { return (lane / 4) * 16; });
  CHECK(emu::count_shared_wavefronts(paired, 0xffffffffu, 16).wavefronts == 2);
}

TEST_CASE("a merged access is charged once, by the member at the chunk's first word read, over the whole chunk") {
  const emu::LaneAddresses rows = lanes_at([](int lane) -> uint64_t { return lane * 64 + 4; });
  emu::LaneAddresses leader = rows;
  CHECK(emu::fused_access_bytes(leader, 0xffffffffu, 4, 16, 4) == 16);
  CHECK(leader[3] == 3 * 64);
  emu::LaneAddresses member = lanes_at([](int lane) -> uint64_t { return lane * 64 + 8; });
  CHECK(emu::fused_access_bytes(member, 0xffffffffu, 4, 16, 4) == 0);
  emu::LaneAddresses unmerged = rows;
  CHECK(emu::fused_access_bytes(unmerged, 0xffffffffu, 4, 0, 0) == 4);
}

}  // namespace
}  // namespace tilecamp
