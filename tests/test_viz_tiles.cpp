// `tilecamp viz tiles`: the element codes, the footprint of the register-blocked SGEMM's block,
// warp and thread (known from its indexing), and the footprint's wire from the sandbox.
#include <doctest/doctest.h>

#include <bit>
#include <cmath>
#include <cstring>
#include <set>

#include "checker/compile/nvrtc_compiler.h"
#include "checker/emu/emulator_backend.h"
#include "checker/grade/grade.h"
#include "checker/ptx/kernel_lookup.h"
#include "checker/sandbox/tile_footprint_wire.h"
#include "checker/viz/tile_footprint.h"
#include "tests/test_support.h"

namespace tilecamp {
namespace {

uint32_t bits_of(float value) { return std::bit_cast<uint32_t>(value); }

TEST_CASE("viz tiles: every element code decodes to its input and element, and other values to nothing") {
  for (int input = 0; input < viz::k_max_coded_inputs; ++input) {
    for (uint64_t element : {uint64_t{0}, uint64_t{1}, uint64_t{4095}, viz::k_max_coded_elements - 1}) {
      const auto decoded = viz::decode_element(bits_of(viz::element_code(input, element)));
      REQUIRE(decoded);
      CHECK(decoded->input == input);
      CHECK(decoded->element == element);
    }
  }
  // Each code is a whole number a float holds exactly: a copy through a float register keeps it.
  CHECK(viz::element_code(3, viz::k_max_coded_elements - 1) == -static_cast<float>((uint64_t{1} << 24) - 1));
  for (float other : {0.0f, 0.5f, -0.25f, 1e30f, -1e30f, std::nanf(""), INFINITY}) {
    CHECK_FALSE(viz::decode_element(bits_of(other)));
  }
}

// The solution of 05-sgemm-register-blocked (BM = BN = 64, BK = 8, TM = TN = 4; thread t computes
// rows t / 16 + 16 m and columns t % 16 + 16 n of its block's 64 x 64 tile), watched in block
// (1,0), warp 2, lane 5: thread 69, rows 4 + 16 m, columns 64 + 5 + 16 n.
struct Watched {
  viz::Footprint footprint;
  std::vector<viz::MatrixFootprint> matrices;
};

Watched watch_register_blocked() {
  auto exercise = grade::find_exercise(test::source_path(""), "05-sgemm-register-blocked");
  REQUIRE_MESSAGE(exercise, (exercise ? "" : exercise.error()));
  const std::string relative = "solutions/05-sgemm-register-blocked/kernel.cu";
  const SourceFile source{relative, test::read_text(test::source_path(relative))};
  NvrtcCompiler compiler;
  emu::EmulatorBackend backend;
  viz::TileFootprint observer({{1, 0, 0}, 2, 5});
  std::vector<viz::MatrixSpec> specs;
  grade::GradeOptions options;
  options.observer = &observer;
  options.performance_case_only = [&](const grade::ProblemCase&, grade::CaseData& data) {
    auto coded = viz::code_case_inputs(*exercise, data);
    REQUIRE(coded);
    specs = *coded;
  };
  const grade::Verdict verdict = grade::grade_exercise(*exercise, source, compiler, backend, options);
  CHECK(verdict.status == grade::VerdictStatus::Pass);  // coded inputs are inputs like any other
  REQUIRE(specs.size() == 3);
  Watched watched{observer.footprint(), {}};
  watched.matrices = viz::matrix_footprints(watched.footprint, specs);
  return watched;
}

std::set<uint64_t> rows_touched(const viz::MatrixFootprint& matrix, int scope) {
  std::set<uint64_t> rows;
  for (uint64_t element = 0; element < matrix.touched[scope].size(); ++element) {
    if (matrix.touched[scope][element]) rows.insert(element / matrix.spec.cols);
  }
  return rows;
}

std::set<uint64_t> columns_touched(const viz::MatrixFootprint& matrix, int scope) {
  std::set<uint64_t> columns;
  for (uint64_t element = 0; element < matrix.touched[scope].size(); ++element) {
    if (matrix.touched[scope][element]) columns.insert(element % matrix.spec.cols);
  }
  return columns;
}

TEST_CASE("viz tiles of the register-blocked SGEMM: the block's, warp's and thread's tiles of A, B and C") {
  const Watched watched = watch_register_blocked();  // M = N = K = 128
  REQUIRE(watched.footprint.block_ran);
  const viz::MatrixFootprint &a = watched.matrices[0], &b = watched.matrices[1], &c = watched.matrices[2];
  REQUIRE((a.spec.name == "A" && b.spec.name == "B" && c.spec.name == "C"));

  // C: the block wrote its 64 x 64 tile; the thread its 4 x 4 outputs, 16 apart.
  CHECK(c.count[viz::k_block] == 64 * 64);
  CHECK(c.box[viz::k_block].row1 == 63);
  CHECK(c.box[viz::k_block].col0 == 64);
  CHECK(rows_touched(c, viz::k_thread) == std::set<uint64_t>{4, 20, 36, 52});
  CHECK(columns_touched(c, viz::k_thread) == std::set<uint64_t>{69, 85, 101, 117});
  // Warp 2 is threads 64-95: rows 4 and 5 (+ 16 m), every column of the block.
  CHECK(rows_touched(c, viz::k_warp) == std::set<uint64_t>{4, 5, 20, 21, 36, 37, 52, 53});
  CHECK(c.count[viz::k_warp] == 8 * 64);

  // A: the block loaded its 64 rows, every k; the warp and the thread read their rows of it from
  // shared memory, which the coded values show.
  CHECK(a.count[viz::k_block] == 64 * 128);
  CHECK(a.through_shared[viz::k_warp]);
  CHECK(rows_touched(a, viz::k_thread) == std::set<uint64_t>{4, 20, 36, 52});
  CHECK(a.count[viz::k_thread] == 4 * 128);
  CHECK(rows_touched(a, viz::k_warp) == std::set<uint64_t>{4, 5, 20, 21, 36, 37, 52, 53});
  // B: the block's 64 columns; the thread's 4.
  CHECK(b.count[viz::k_block] == 128 * 64);
  CHECK(columns_touched(b, viz::k_thread) == std::set<uint64_t>{69, 85, 101, 117});
  CHECK(b.count[viz::k_warp] == 128 * 64);

  // The counts: per k step each thread reads 4 + 4 words of shared memory for 16 multiply-adds.
  const viz::ScopeRecord& thread = watched.footprint.scopes[viz::k_thread];
  CHECK(thread.shared_loads.bytes == 128 * 8 * 4);
  CHECK(thread.global_stores.requests == 16);
  // The exercise's bound, measured the way check measures it: 0.375 wavefronts per FMA instruction.
  const viz::ScopeRecord& block = watched.footprint.scopes[viz::k_block];
  CHECK(block.shared_loads.cost * 32 * 8 == 3 * 64 * 64 * 128);

  const std::vector<std::string> drawn = viz::draw_footprint(c, 16, 32);
  REQUIRE(drawn.size() == 17);
  CHECK(drawn[0] == "C rows 0-63, columns 64-127, 4x4 a mark");
  CHECK(drawn[1] == std::string(16, 'o'));       // rows 0-3: the block's alone
  CHECK(drawn[2] == "w#www#www#www#ww");          // rows 4-7: the warp's, the thread's columns 69, 85...
}

TEST_CASE("viz tiles: a footprint crosses the sandbox's wire whole, and a forged one is refused") {
  viz::Footprint footprint;
  footprint.target = {{1, 2, 0}, 3, 7};
  footprint.buffers = {0x7000, 0x9000};
  footprint.block_ran = true;
  footprint.scopes[viz::k_warp].global_loads = {4, 512, 16};
  footprint.scopes[viz::k_warp].global_loaded = {0x7000, 0x7004, 0x7100};
  footprint.scopes[viz::k_thread].shared_read = {1, 2, 3};
  child::MessageWriter out;
  sandbox::write_footprint(out, footprint);
  child::MessageReader in(out.data());
  auto read = sandbox::read_footprint(in);
  REQUIRE(read);
  CHECK(*read == footprint);
  CHECK(in.at_end());

  // Out of order (a list the parent would search wrongly), or cut short: an error, not a footprint.
  footprint.scopes[viz::k_warp].global_loaded = {0x7100, 0x7000};
  child::MessageWriter unsorted;
  sandbox::write_footprint(unsorted, footprint);
  child::MessageReader unsorted_in(unsorted.data());
  auto refused = sandbox::read_footprint(unsorted_in);
  REQUIRE_FALSE(refused);
  CHECK(test::contains(refused.error(), "not in order"));
  child::MessageReader cut(out.data().substr(0, out.data().size() - 3));
  CHECK_FALSE(sandbox::read_footprint(cut));
  footprint.target.lane = 40;
  child::MessageWriter bad_lane;
  sandbox::write_footprint(bad_lane, footprint);
  child::MessageReader bad_lane_in(bad_lane.data());
  CHECK_FALSE(sandbox::read_footprint(bad_lane_in));
}

}  // namespace
}  // namespace tilecamp

namespace tilecamp {
namespace {

// A tile copied by cp.async reaches the footprint as the block's global loads, and the values a
// warp then reads from shared memory name the elements of `in` they copy.
TEST_CASE("viz tiles: cp.async copies count as the block's global loads, their shared copies decode") {
  const SourceFile source{"async_tile.cu", R"(
#include <cuda_pipeline.h>
__global__ void reversedTile(const float* in, float* out) {
  __shared__ float tile[64];
  int t = threadIdx.x;
  __pipeline_memcpy_async(&tile[t], &in[64 * blockIdx.x + t], sizeof(float));
  __pipeline_commit();
  __pipeline_wait_prior(0);
  __syncthreads();
  out[64 * blockIdx.x + t] = tile[63 - t];
})"};
  NvrtcCompiler compiler;
  auto compiled = compiler.compile(source, CompileOptions{});
  REQUIRE(compiled);
  REQUIRE_MESSAGE(compiled->ok, compiled->log);
  emu::EmulatorBackend backend;
  REQUIRE(backend.load(compiled->ptx));
  auto kernel = ptx::resolve_kernel_name(backend.module(), "reversedTile");
  REQUIRE(kernel);
  std::vector<uint8_t> in(4 * 128), out(4 * 128);
  for (uint64_t element = 0; element < 128; ++element) {
    const float value = viz::element_code(0, element);
    std::memcpy(in.data() + 4 * element, &value, 4);
  }
  viz::TileFootprint observer({{1, 0, 0}, 1, 3});  // block 1, warp 1 (threads 32-63), thread 35
  LaunchRequest request{*kernel, {}, {{"in", in, BufferRole::In, 0}, {"out", out, BufferRole::Out, 0}}, {{{}, 0}, {{}, 1}}, {}, {}};
  request.config.grid = {2, 1, 1};
  request.config.block = {64, 1, 1};
  request.config.observer = &observer;
  auto launched = backend.launch(request);
  REQUIRE(launched);
  const viz::Footprint& footprint = observer.footprint();
  REQUIRE(footprint.buffers.size() == 2);
  const std::vector<viz::MatrixSpec> specs{{"in", true, false, 1, 128, 4, 0, 0}, {"out", false, true, 1, 128, 4, 1, -1}};
  const std::vector<viz::MatrixFootprint> matrices = viz::matrix_footprints(footprint, specs);
  // The block copied elements 64-127 of `in`; warp 1 read the copies of 64-95, thread 35 of 92.
  CHECK(footprint.scopes[viz::k_block].global_loads.requests == 2);
  CHECK(matrices[0].count[viz::k_block] == 64);
  CHECK(matrices[0].box[viz::k_block].col0 == 64);
  CHECK(matrices[0].through_shared[viz::k_warp]);
  CHECK(matrices[0].count[viz::k_warp] == 32);
  CHECK(matrices[0].box[viz::k_warp].col0 == 64);
  CHECK(matrices[0].box[viz::k_warp].col1 == 95);
  CHECK(matrices[0].count[viz::k_thread] == 1);
  CHECK(matrices[0].box[viz::k_thread].col0 == 64 + 63 - 35);
  CHECK(matrices[1].count[viz::k_thread] == 1);
  CHECK(matrices[1].box[viz::k_thread].col0 == 64 + 35);
}

}  // namespace
}  // namespace tilecamp
