// The transpose kernels run on the emulator: results against a CPU reference, and the counters
// that make the lesson's point (32-way conflicts without padding, none with it).
#include <doctest/doctest.h>

#include <cstring>
#include <random>

#include "checker/emu/emulator.h"
#include "checker/ptx/kernel_lookup.h"
#include "tests/test_support.h"

namespace tilecamp {
namespace {

struct TransposeRun {
  std::vector<float> input;
  std::vector<float> output;
  LaunchResult result;
};

std::vector<uint8_t> pointer_bytes(uint64_t address) {
  std::vector<uint8_t> bytes(8);
  std::memcpy(bytes.data(), &address, 8);
  return bytes;
}

std::vector<uint8_t> int_bytes(int32_t value) {
  std::vector<uint8_t> bytes(4);
  std::memcpy(bytes.data(), &value, 4);
  return bytes;
}

const ptx::Module& transpose_module() {
  static const ptx::Module module = test::compile_to_module(
      "transpose_kernels.cu", test::read_text(test::source_path("tests/fixtures/transpose_kernels.cu")));
  return module;
}

TransposeRun run_transpose(const std::string& kernel, int width, int height, Dim3 block) {
  TransposeRun run;
  run.input.resize(static_cast<size_t>(width) * height);
  std::mt19937 random(7);
  std::uniform_real_distribution<float> values(-1.0f, 1.0f);
  for (float& v : run.input) v = values(random);
  std::vector<uint8_t> input_bytes(run.input.size() * 4), output_bytes(run.input.size() * 4, 0xff);
  std::memcpy(input_bytes.data(), run.input.data(), input_bytes.size());

  emu::DeviceMemory memory;
  emu::Emulator emulator(transpose_module(), memory);
  const uint64_t in = memory.allocate("in", input_bytes);
  const uint64_t out = memory.allocate("out", output_bytes);
  LaunchConfig config;
  config.block = block;
  config.grid = {static_cast<uint32_t>((width + 31) / 32), static_cast<uint32_t>((height + 31) / 32), 1};
  auto mangled = ptx::resolve_kernel_name(transpose_module(), kernel);
  REQUIRE(mangled.has_value());
  auto result = emulator.launch(*mangled, config, {pointer_bytes(in), pointer_bytes(out), int_bytes(width), int_bytes(height)});
  REQUIRE_MESSAGE(result.has_value(), (result ? "" : result.error()));
  run.result = std::move(*result);
  run.output.resize(run.input.size());
  std::memcpy(run.output.data(), memory.find(out, 1)->bytes.data(), output_bytes.size());
  return run;
}

void check_transposed(const TransposeRun& run, int width, int height) {
  for (int row = 0; row < height; ++row) {
    for (int col = 0; col < width; ++col) {
      const float expected = run.input[row * width + col];
      const float actual = run.output[col * height + row];
      if (std::memcmp(&expected, &actual, 4) != 0) {
        FAIL("out[" << col << "][" << row << "] = " << actual << ", expected " << expected);
      }
    }
  }
}

TEST_CASE("every transpose kernel transposes matrices with partial tiles exactly") {
  for (const char* kernel : {"transposeNaive", "transposeTiled", "transposePadded"}) {
    for (auto [width, height] : {std::pair{50, 37}, {1, 45}, {45, 1}, {64, 64}}) {
      CAPTURE(kernel);
      CAPTURE(width);
      CAPTURE(height);
      TransposeRun run = run_transpose(kernel, width, height, {32, 32, 1});
      REQUIRE(run.result.completed);
      CHECK(run.result.diagnostics.empty());
      check_transposed(run, width, height);
    }
  }
}

TEST_CASE("the unpadded tile costs 32 wavefronts per shared load, the padded tile 1") {
  const TransposeRun tiled = run_transpose("transposeTiled", 64, 64, {32, 32, 1});
  const TransposeRun padded = run_transpose("transposePadded", 64, 64, {32, 32, 1});
  const Counters& t = tiled.result.totals;
  const Counters& p = padded.result.totals;
  REQUIRE(t.shared_ld_requests == 4 * 32);  // 4 blocks x 32 warps
  CHECK(t.shared_ld_wavefronts == 32 * t.shared_ld_requests);
  CHECK(t.shared_ld_bank_conflicts == 31 * t.shared_ld_requests);
  CHECK(p.shared_ld_wavefronts == p.shared_ld_requests);
  CHECK(p.shared_ld_bank_conflicts == 0);
  CHECK(t.shared_st_wavefronts == t.shared_st_requests);  // row-wise stores never conflict
}

TEST_CASE("the naive transpose's stores touch 32 sectors per request, the tiled one's 4") {
  const TransposeRun naive = run_transpose("transposeNaive", 64, 64, {32, 32, 1});
  const TransposeRun tiled = run_transpose("transposePadded", 64, 64, {32, 32, 1});
  CHECK(naive.result.totals.global_st_sectors == 32 * naive.result.totals.global_st_requests);
  CHECK(tiled.result.totals.global_st_sectors == 4 * tiled.result.totals.global_st_requests);
  CHECK(naive.result.totals.global_ld_sectors == 4 * naive.result.totals.global_ld_requests);
}

TEST_CASE("counters are attributed to the source line of the access") {
  const TransposeRun padded = run_transpose("transposePadded", 64, 64, {32, 32, 1});
  bool found_load_line = false;
  for (const LineProfile& line : padded.result.lines) {
    if (line.counters.shared_ld_requests > 0) {
      CHECK(line.line == 36);  // `out[...] = tile[threadIdx.x][threadIdx.y];`
      found_load_line = true;
    }
  }
  CHECK(found_load_line);
}

}  // namespace
namespace {

TEST_CASE("requested bytes against sector bytes show the useful share of the traffic") {
  const TransposeRun naive = run_transpose("transposeNaive", 64, 64, {32, 32, 1});
  const Counters& t = naive.result.totals;
  CHECK(t.global_ld_bytes == 64 * 64 * 4);
  CHECK(t.global_st_bytes == 64 * 64 * 4);
  CHECK(t.global_ld_bytes == t.global_ld_sectors * 32);      // coalesced reads: every byte used
  CHECK(t.global_st_bytes * 8 == t.global_st_sectors * 32);  // column writes: 4 of every 32 bytes
}

}  // namespace
}  // namespace tilecamp
