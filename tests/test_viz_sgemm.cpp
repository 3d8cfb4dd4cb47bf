// `tilecamp viz sgemm`: the trace of the tiled SGEMM on the emulator, the frames made from it,
// and the screens drawn from them.
#include <doctest/doctest.h>
#include <cctype>
#include <fmt/format.h>

#include "checker/compile/nvrtc_compiler.h"
#include "checker/viz/sgemm_frames.h"
#include "runner/learner/ansi_text.h"
#include "runner/tools/viz_screen.h"
#include "tests/test_support.h"

namespace tilecamp::viz {
namespace {

SgemmTrace traced(const SgemmSize& size) {
  NvrtcCompiler compiler;
  auto trace = trace_sgemm(compiler, size);
  REQUIRE_MESSAGE(trace, (trace ? "" : trace.error()));
  return std::move(*trace);
}

TEST_CASE("the notes' worked example: M=N=4, K=8, TILE=2 reads 128 elements tiled against 256 naive") {
  const SgemmTrace trace = traced({4, 4, 8, 2, 1});
  CHECK(trace.tiled_global_reads == 128);  // 2*M*N*K/TILE
  CHECK(trace.naive_global_reads == 256);  // 2*M*N*K
  CHECK(trace.tiled_shared_reads == 256);  // every product reads both tiles
  CHECK(trace.tiled.shared_ld_bank_conflicts == 0);  // why the notes' tiles need no padding
  CHECK(trace.blocks.size() == 4);
  const std::vector<SgemmFrame> frames = sgemm_frames(trace);
  CHECK(frames.back().global_reads == trace.tiled_global_reads);
  CHECK(frames.back().shared_reads == trace.tiled_shared_reads);
  CHECK(frames.back().c_written == 16);
}

TEST_CASE("every traced dot product adds up to what the thread stored in C") {
  const SgemmTrace trace = traced({6, 6, 9, 3, 7});
  for (const BlockRun& block : trace.blocks) {
    for (size_t t = 0; t < block.stored.size(); ++t) {
      float sum = 0;
      for (const TileStep& step : block.steps) {
        for (const auto& [a, b] : step.threads[t].products) sum += a * b;
      }
      REQUIRE(block.stored[t]);
      CHECK(*block.stored[t] == sum);
    }
  }
}

TEST_CASE("a thread's tile slot holds the element it loaded, at the address of that element") {
  const SgemmTrace trace = traced({4, 4, 8, 2, 1});
  const TileStep& step = trace.blocks[1].steps[2];  // block (1,0), tile step 3
  const ThreadStep& thread = step.threads[1 * 2 + 0];  // ty = 1, tx = 0
  CHECK(thread.a.row == 1);
  CHECK(thread.a.col == 4);
  CHECK(thread.a.offset == (1 * 8 + 4) * 4);
  CHECK(thread.a.value == trace.a[1 * 8 + 4]);
  CHECK(step.tile_a[1 * 2 + 0] == thread.a.value);
  CHECK(thread.b.row == 5);
  CHECK(thread.b.col == 2);
  CHECK(step.tile_b[1 * 2 + 0] == trace.b[5 * 4 + 2]);
}

TEST_CASE("partial tiles are zero-filled without a load") {
  const SgemmTrace trace = traced({5, 5, 5, 2, 1});
  CHECK(trace.naive_global_reads == 2 * 5 * 5 * 5);
  // Not 2*M*N*K/TILE = 125: each of the 5 rows of A is read whole (5 elements) by 3 blocks, and
  // each column of B by 3, since threads outside C still load for the others of their block.
  CHECK(trace.tiled_global_reads == 5 * 5 * 3 + 5 * 5 * 3);
  const BlockRun& corner = trace.blocks.back();  // block (2,2): only thread (0,0) is inside C
  CHECK(corner.stored[0].has_value());
  CHECK_FALSE(corner.stored[3].has_value());
  const ThreadStep& outside = corner.steps.back().threads[3];
  CHECK(outside.a.row == -1);
  CHECK(outside.a.value == 0.0f);
}

TEST_CASE("each tile step is load, barrier, one compute frame per k, barrier, each block ends with its store") {
  const SgemmTrace trace = traced({2, 2, 4, 2, 1});
  const std::vector<SgemmFrame> frames = sgemm_frames(trace);
  REQUIRE(frames.size() == 2 * (1 + 1 + 2 + 1) + 1);
  const SgemmPhase expected[] = {SgemmPhase::Load,    SgemmPhase::LoadBarrier, SgemmPhase::Compute,
                                 SgemmPhase::Compute, SgemmPhase::ComputeBarrier};
  for (size_t i = 0; i < 10; ++i) CHECK(frames[i].phase == expected[i % 5]);
  CHECK(frames[3].k == 1);
  CHECK(frames[5].step == 1);
  CHECK(frames.back().phase == SgemmPhase::Store);
  CHECK(frames[0].global_reads == 8);  // 4 threads, one element of A and one of B each
  CHECK(frames[2].shared_reads == 8);
}

TEST_CASE("b moves to the next block's first frame, and the last block's to the last frame") {
  const SgemmTrace trace = traced({4, 4, 4, 2, 1});
  const std::vector<SgemmFrame> frames = sgemm_frames(trace);
  const size_t second = next_block_frame(frames, 0);
  CHECK(frames[second].block == 1);
  CHECK(frames[second].phase == SgemmPhase::Load);
  CHECK(next_block_frame(frames, frames.size() - 2) == frames.size() - 1);
  CHECK(block_start_frame(trace, frames, 1, 1) == 3 * second);
}

// Frame `frame` of the notes' worked example on a screen of `width` x `height`.
std::vector<std::string> screen_of(size_t frame, size_t width, size_t height, bool interactive) {
  const SgemmTrace trace = traced({4, 4, 8, 2, 1});
  runner::SgemmView view;
  view.width = width;
  view.height = height;
  view.interactive = interactive;
  return runner::render_sgemm_frame(trace, sgemm_frames(trace), frame, view, report::Style(false));
}

std::string joined(const std::vector<std::string>& lines) {
  std::string text;
  for (const std::string& line : lines) text += line + "\n";
  return text;
}

TEST_CASE("an 80x24 screen holds the whole frame: matrices, tiles, threads, the dot product and the counters") {
  const std::vector<std::string> screen = screen_of(3, 80, 24, true);
  CHECK(screen.size() == 24);
  for (const std::string& line : screen) CHECK(runner::visible_width(line) <= 80);
  const std::string text = joined(screen);
  CHECK(test::contains(text, "tileA"));
  CHECK(test::contains(text, "[compute]"));
  CHECK(test::contains(text, "thread (0,0) computes C[0][0]"));
  CHECK(test::contains(text, "naive 2*M*N*K = 256 reads; tiled 2*M*N*K/TILE = 128"));
  CHECK(test::contains(screen.back(), "q quit"));
}

TEST_CASE("a larger screen also shows the kernel's source with the lines of the phase marked") {
  const std::string text = joined(screen_of(0, 100, 50, false));
  CHECK(test::contains(text, ">  9     tileA[ty][tx] = (row < M"));
  CHECK(test::contains(text, "  12     for (int k = 0"));
}

TEST_CASE("a screen too small for the frame says so in a sentence and keeps the keys on its last line") {
  for (auto [width, height] : {std::pair<size_t, size_t>{60, 20}, {80, 10}, {40, 24}}) {
    CAPTURE(width);
    CAPTURE(height);
    const std::vector<std::string> screen = screen_of(3, width, height, true);
    CHECK(screen.size() == height);
    for (const std::string& line : screen) CHECK(runner::visible_width(line) <= width);
    CHECK(test::contains(joined(screen), "terminal too small for this frame"));
    std::string words;  // the sentence may wrap: its words one space apart
    for (char c : joined(screen)) {
      if (!std::isspace(static_cast<unsigned char>(c))) words += c;
      else if (!words.empty() && words.back() != ' ') words += ' ';
    }
    CHECK(test::contains(words, fmt::format("this one is {}x{}", width, height)));
    CHECK(test::contains(screen.back(), "q quit"));
  }
}

TEST_CASE("a frame wider than the screen (K=64, or a 16-wide tileB) is not drawn cut off") {
  const SgemmTrace trace = traced({32, 32, 64, 16, 1});
  const std::vector<SgemmFrame> frames = sgemm_frames(trace);
  runner::SgemmView view;
  view.width = 80;
  view.height = 24;
  view.interactive = true;
  const std::vector<std::string> screen = runner::render_sgemm_frame(trace, frames, 5, view, report::Style(false));
  CHECK(test::contains(joined(screen), "terminal too small for this frame"));
  CHECK_FALSE(test::contains(joined(screen), "tileA"));
  CHECK(test::contains(screen.back(), "q quit"));
  // Printed (no height), nothing is cut: every line whole, the last frame's sums in sight.
  view = runner::SgemmView{};
  const std::vector<std::string> printed =
      runner::render_sgemm_frame(trace, frames, frames.size() - 1, view, report::Style(false));
  size_t widest = 0;
  for (const std::string& line : printed) widest = std::max(widest, runner::visible_width(line));
  CHECK(widest > 80);
  CHECK(test::contains(joined(printed), "C 1024 of 1024 written"));
}

}  // namespace
}  // namespace tilecamp::viz
