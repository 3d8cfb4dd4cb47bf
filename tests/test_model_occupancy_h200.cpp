// tilecamp's registers, shared memory and occupancy of every course kernel equal what the CUDA
// driver reported for the same file on an H200 (tests/data/h200_occupancy.tsv, made by
// bench/occupancy_gpu.sh: cuFuncGetAttribute and cuOccupancyMaxActiveBlocksPerMultiprocessor on
// NVRTC's sm_90 cubin; the driver's JIT of the PTX gave the same figures for every kernel). A row
// is compared only while its file is the one that was measured (its SHA-256): a kernel edited
// since needs the script run again on a GPU.
#include <doctest/doctest.h>

#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "checker/compile/nvrtc_compiler.h"
#include "checker/model/occupancy.h"
#include "checker/util/sha256.h"
#include "tests/test_support.h"

namespace tilecamp {
namespace {

struct DriverRow {
  std::string file, sha256, kernel;
  uint32_t registers = 0, shared = 0, local = 0, max_threads = 0;
  std::vector<std::string> blocks;  // per block size 32, 64, ..., 1024; "-" past max_threads
};

std::vector<DriverRow> driver_rows() {
  std::ifstream in(test::data_path("h200_occupancy.tsv"));
  REQUIRE(in.good());
  std::vector<DriverRow> rows;
  for (std::string line; std::getline(in, line);) {
    if (line.empty() || line[0] == '#') continue;
    std::vector<std::string> fields;
    std::istringstream split(line);
    for (std::string field; std::getline(split, field, '\t');) fields.push_back(field);
    REQUIRE(fields.size() == 14);
    if (fields[3] != "cubin") continue;
    DriverRow row{fields[0], fields[1], fields[2]};
    row.registers = std::stoul(fields[4]);
    row.shared = std::stoul(fields[5]);
    row.local = std::stoul(fields[6]);
    row.max_threads = std::stoul(fields[7]);
    row.blocks.assign(fields.begin() + 8, fields.end());
    rows.push_back(row);
  }
  return rows;
}

// The largest block the kernel can launch with: what cuFuncGetAttribute calls its maximum threads.
uint32_t largest_block(const KernelResources& kernel) {
  uint32_t threads = 0;
  for (uint32_t t = 32; t <= 1024; t += 32) {
    if (model::compute_occupancy(model::h200_occupancy(), kernel, t, 0).blocks_per_sm > 0) threads = t;
  }
  return threads;
}

TEST_CASE("every course kernel's registers, shared memory and occupancy are the H200 driver's") {
  std::map<std::string, std::vector<KernelResources>> compiled;  // by file
  NvrtcCompiler compiler;
  int compared = 0;
  for (const DriverRow& row : driver_rows()) {
    const std::filesystem::path path = test::source_path(row.file);
    if (!std::filesystem::exists(path)) continue;
    const std::string text = test::read_text(path);
    if (to_hex(sha256(text)) != row.sha256) {
      MESSAGE(row.file << " changed since it was measured: run bench/occupancy_gpu.sh on a GPU again");
      continue;
    }
    if (!compiled.contains(row.file)) {
      Expected<CompileResult> result = compiler.compile({row.file, text}, {});
      REQUIRE(result.has_value());
      REQUIRE(result->ok);
      compiled[row.file] = result->resources;
    }
    CAPTURE(row.file);
    CAPTURE(row.kernel);
    const KernelResources* kernel = find_resources(compiled[row.file], row.kernel);
    REQUIRE(kernel != nullptr);
    CHECK(kernel->registers == row.registers);
    CHECK(kernel->static_shared_bytes == row.shared);
    CHECK(kernel->local_bytes == row.local);
    CHECK(largest_block(*kernel) == row.max_threads);
    for (size_t i = 0; i < row.blocks.size(); ++i) {
      const uint32_t threads = 32u << i;
      CAPTURE(threads);
      const int blocks = model::compute_occupancy(model::h200_occupancy(), *kernel, threads, 0).blocks_per_sm;
      if (row.blocks[i] == "-") {
        CHECK(blocks == 0);
      } else {
        CHECK(std::to_string(blocks) == row.blocks[i]);
      }
    }
    ++compared;
  }
  // Lessons 1 to 5 alone hold 59 kernels; most must still be the files measured.
  CHECK(compared >= 50);
}

}  // namespace
}  // namespace tilecamp
