// Every path a kernel can move memory by is counted where Nsight Compute counts it: constant
// loads, cp.async's global read and shared write, global and shared atomics. A path counted
// nowhere would let a naive kernel meet a threshold about reuse (issue: "memory the counters do
// not see").
#include <doctest/doctest.h>

#include <map>
#include <sstream>

#include "tests/test_support.h"

namespace tilecamp {
namespace {

TEST_CASE("a load of a __constant__ variable is a constant load: one pass per distinct address") {
  const std::string source =
      "__constant__ float weights[64];\n"
      "__global__ void weigh(float* out) {\n"
      "  out[threadIdx.x] = weights[3] + weights[threadIdx.x % 4];\n"
      "}\n";
  const auto report = test::run_kernel("weigh.cu", source, "weigh", {1, 1, 1}, {32, 1, 1}, {"f32[32]=zeros"});
  // weights[3] is one address for the warp; weights[threadIdx.x % 4] four.
  CHECK(report.result.totals.const_ld_requests == 2);
  CHECK(report.result.totals.const_ld_wavefronts == 5);
  CHECK(report.result.totals.global_ld_requests == 0);
}

TEST_CASE("ld.const of a global pointer reads no constant variable: an error, as a GPU returns zeros there") {
  const std::string source =
      "__global__ void sneak(const float* in, float* out) {\n"
      "  float value;\n"
      "  asm(\"ld.const.f32 %0, [%1];\" : \"=f\"(value) : \"l\"(in + threadIdx.x));\n"
      "  out[threadIdx.x] = value;\n"
      "}\n";
  const auto report = test::run_kernel("sneak.cu", source, "sneak", {1, 1, 1}, {32, 1, 1}, {"f32[32]=iota", "f32[32]=zeros"});
  REQUIRE(report.result.has_error());
  CHECK(report.result.diagnostics[0].kind == "out-of-bounds");
  CHECK(test::contains(report.result.diagnostics[0].message, "outside every __constant__ variable"));
  CHECK(report.result.diagnostics[0].line == 3);
}

TEST_CASE("st.const is refused as ptxas refuses it: a kernel cannot write its constants") {
  const std::string source =
      "__constant__ float c[32];\n"
      "__global__ void scribble(float v) {\n"
      "  asm volatile(\"st.const.f32 [c], %0;\" :: \"f\"(v));\n"
      "}\n";
  const auto report = test::run_kernel("scribble.cu", source, "scribble", {1, 1, 1}, {32, 1, 1}, {"f32:1"});
  REQUIRE(report.result.has_error());
  CHECK(report.result.diagnostics[0].kind == "unsupported");
  CHECK(test::contains(report.result.diagnostics[0].message, "the constant space cannot be written by a kernel"));
}

TEST_CASE("distinct bytes count each byte once, however many lanes name it, extra requests add only their own") {
  const std::string source =
      "__global__ void mix(const float* in, float* out) {\n"
      "  float broadcast = in[0];\n"                          // 32 lanes, one word
      "  float strided = in[threadIdx.x * 8];\n"              // 32 words, a sector each
      "  out[threadIdx.x] = broadcast + strided;\n"           // 32 consecutive words
      "  if (threadIdx.x == 0) out[32] = 1.0f;\n"             // a one-lane request
      "}\n";
  const auto report = test::run_kernel("mix.cu", source, "mix", {1, 1, 1}, {32, 1, 1}, {"f32[256]=iota", "f32[33]=zeros"});
  REQUIRE_FALSE(report.result.has_error());
  const Counters& t = report.result.totals;
  CHECK(t.global_ld_bytes == 2 * 32 * 4);
  CHECK(t.global_ld_distinct_bytes == 4 + 32 * 4);
  CHECK(t.global_ld_sectors == 1 + 32);
  CHECK(t.global_st_distinct_bytes == 33 * 4);
  CHECK(t.global_st_sectors == 4 + 1);
}

TEST_CASE("cp.async counts as a global load in full (bytes, unique sectors), its shared write is no shared store") {
  const std::string source =
      "#include <cuda_pipeline.h>\n"
      "__global__ void stage(const float* in, float* out) {\n"
      "  __shared__ float tile[32];\n"
      "  __pipeline_memcpy_async(&tile[threadIdx.x], &in[threadIdx.x], 4);\n"
      "  __pipeline_commit();\n"
      "  __pipeline_wait_prior(0);\n"
      "  __syncthreads();\n"
      "  out[threadIdx.x] = tile[31 - threadIdx.x];\n"
      "}\n";
  const auto report = test::run_kernel("stage.cu", source, "stage", {1, 1, 1}, {32, 1, 1}, {"f32[32]=iota", "f32[32]=zeros"});
  REQUIRE_FALSE(report.result.has_error());
  const Counters& c = report.result.totals;
  CHECK(c.global_ld_requests == 1);
  CHECK(c.global_ld_sectors == 4);
  CHECK(c.global_ld_bytes == 128);
  CHECK(c.global_ld_unique_sectors == 4);
  CHECK(c.shared_st_requests == 0);  // LDGSTS's shared write is no shared store to Nsight Compute
  CHECK(c.shared_async_st_requests == 1);  // but it writes the tile: `requires = ["shared_memory"]` sees it
  CHECK(test::buffer_of<float>(report, 1)[0] == 31.0f);
}

TEST_CASE("atomics count their bytes, and a shared atomic's lanes on one address are served one after another") {
  const std::string source =
      "__global__ void tally(const float* in, float* out) {\n"
      "  __shared__ float bins[32];\n"
      "  bins[threadIdx.x] = 0;\n"
      "  __syncthreads();\n"
      "  atomicAdd(&bins[threadIdx.x % 4], 1.0f);\n"
      "  float peek = atomicAdd((float*)&in[threadIdx.x], 0.0f);\n"
      "  __syncthreads();\n"
      "  out[threadIdx.x] = bins[threadIdx.x] + peek;\n"
      "}\n";
  const auto report = test::run_kernel("tally.cu", source, "tally", {1, 1, 1}, {32, 1, 1}, {"f32[32]=iota", "f32[32]=zeros"});
  REQUIRE_FALSE(report.result.has_error());
  const Counters& c = report.result.totals;
  CHECK(c.global_atom_requests == 1);
  CHECK(c.global_atom_bytes == 128);  // an atomicAdd(p, 0) that only reads is still 128 bytes from global memory
  // A float add in shared memory is a compare-and-swap loop on an H200: 8 lanes on each of 4
  // addresses take 8 trips, each a shared load and an atomic of 2 wavefronts.
  CHECK(c.shared_atom_requests == 8);
  CHECK(c.shared_atom_wavefronts == 16);
  CHECK(c.shared_ld_requests == 8 + 1);
  CHECK(test::buffer_of<float>(report, 1)[0] == 8.0f);
}

}  // namespace
}  // namespace tilecamp

namespace tilecamp {
namespace {

// The H200's own counts of the memory-path kernels (tests/data/h200-memory-paths.tsv, read by
// Nsight Compute from bench/ncu/kernels.cu built by nvcc): the emulator reproduces every row.
TEST_CASE("the memory paths are counted as Nsight Compute counted them on an H200") {
  const std::string source = test::read_text(test::source_path("bench/ncu/kernels.cu"));
  std::istringstream rows(test::read_text(test::data_path("h200-memory-paths.tsv")));
  std::map<std::string, profile::ProfileReport> reports;
  int checked = 0;
  for (std::string row; std::getline(rows, row);) {
    if (row.empty() || row[0] == '#' || row.starts_with("kernel\t")) continue;
    std::istringstream fields(row);
    std::string kernel, metric;
    uint64_t expected = 0;
    fields >> kernel >> metric >> expected;
    if (!reports.count(kernel)) {  // as host.cu launches them: one warp, (in, out) or (out)
      const std::vector<std::string> arguments = kernel == "sharedAtomics" ? std::vector<std::string>{"f32[1024]=zeros"}
                                                                         : std::vector<std::string>{"f32[1024]=iota", "f32[1024]=zeros"};
      reports.emplace(kernel, test::run_kernel("kernels.cu", source, kernel, {1, 1, 1}, {32, 1, 1}, arguments));
    }
    uint64_t counted = 0;
    bool known = false;
    reports.at(kernel).result.totals.for_each([&](const char* name, uint64_t value) {
      if (metric == name) counted = value, known = true;
    });
    INFO(kernel, " ", metric);
    CHECK(known);
    CHECK(counted == expected);
    ++checked;
  }
  CHECK(checked == 13);
}

}  // namespace
}  // namespace tilecamp
