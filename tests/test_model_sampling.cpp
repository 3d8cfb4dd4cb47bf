// A launch too large to emulate whole is modelled from a sample of its blocks: one of each kind
// along each axis (first, middle, last). For the course's kernels, whose blocks differ only at the
// grid's edges, the estimate is the whole run's counters exactly.
#include <doctest/doctest.h>

#include "checker/model/sampling.h"
#include "tests/test_support.h"

namespace tilecamp {
namespace {

TEST_CASE("the sample is the first, a middle and the last block along each axis, at most 27, the corners and middle first") {
  CHECK(model::sample_blocks({1, 1, 1}) == std::vector<Dim3>{{0, 0, 0}});
  CHECK(model::sample_blocks({2, 1, 1}) == std::vector<Dim3>{{0, 0, 0}, {1, 0, 0}});
  CHECK(model::sample_blocks({256, 1, 1}) == std::vector<Dim3>{{0, 0, 0}, {255, 0, 0}, {128, 0, 0}});
  const std::vector<Dim3> square = model::sample_blocks({256, 256, 1});
  REQUIRE(square.size() == 9);
  CHECK(square[0] == Dim3{0, 0, 0});
  CHECK(square[1] == Dim3{255, 255, 0});
  CHECK(square[2] == Dim3{128, 128, 0});
  CHECK(model::sample_blocks({7, 5, 3}).size() == 27);
}

TEST_CASE("each sampled block stands for the blocks of its kind") {
  Counters one;
  one.global_ld_requests = 1;
  const Dim3 grid{10, 4, 1};
  const std::vector<Dim3> sampled = model::sample_blocks(grid);
  const Counters total = model::extrapolate(grid, sampled, std::vector<Counters>(sampled.size(), one));
  CHECK(total.global_ld_requests == 40);
}

// Runs the transpose of `width` x `height` on the emulator whole, then sampled, and compares.
void check_sampled_equals_whole(int width, int height) {
  const std::string source = test::read_text(test::source_path("solutions/02-transpose-tiled/kernel.cu"));
  const Dim3 grid{static_cast<uint32_t>((width + 31) / 32), static_cast<uint32_t>((height + 31) / 32), 1};
  const std::vector<std::string> arguments = {"f32[" + std::to_string(width * height) + "]",
                                              "f32[" + std::to_string(width * height) + "]",
                                              "i32:" + std::to_string(width), "i32:" + std::to_string(height)};
  const auto whole = test::run_kernel("kernel.cu", source, "transposeTiled", grid, {32, 8, 1}, arguments);
  const auto sampled = test::run_kernel("kernel.cu", source, "transposeTiled", grid, {32, 8, 1}, arguments, 0, true);
  const bool whole_tiles = width % 32 == 0 && height % 32 == 0;
  CHECK(sampled.sampled_blocks == (whole_tiles ? 3 : std::min<uint64_t>(9, grid.count())));
  CHECK(sampled.result.totals == whole.result.totals);
  CHECK(sampled.modelled.total_s == doctest::Approx(whole.modelled.total_s));
}

TEST_CASE("a sampled transpose with partial tiles on both edges has the whole run's counters exactly") {
  check_sampled_equals_whole(1000, 600);
  check_sampled_equals_whole(64, 33);
}

TEST_CASE("a grid of whole tiles runs three blocks: the corners and the middle count alike") {
  check_sampled_equals_whole(512, 256);
}

}  // namespace
}  // namespace tilecamp
