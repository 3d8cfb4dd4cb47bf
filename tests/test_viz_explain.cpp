// `tilecamp explain` on the course's own stubs: the grader runs the exercise with a
// WorstAccessFinder watching the performance case, and the maps show the known faults.
#include <doctest/doctest.h>

#include <sstream>

#include "checker/compile/nvrtc_compiler.h"
#include "checker/emu/emulator_backend.h"
#include "checker/grade/grade.h"
#include "checker/viz/access_map.h"
#include "runner/explain_text.h"
#include "tests/test_support.h"

namespace tilecamp {
namespace {

// The exercise's shipped stub graded on the emulator, every access of its performance case seen.
void watch_stub(const std::string& exercise_name, viz::WorstAccessFinder& finder) {
  auto exercise = grade::find_exercise(test::source_path(""), exercise_name);
  REQUIRE_MESSAGE(exercise, (exercise ? "" : exercise.error()));
  const std::string relative = "exercises/" + exercise_name + "/kernel.cu";
  const SourceFile source{relative, test::read_text(test::source_path(relative))};
  NvrtcCompiler compiler;
  emu::EmulatorBackend backend;
  grade::GradeOptions options;
  options.cases_only = true;
  options.observer = &finder;
  grade::grade_exercise(*exercise, source, compiler, backend, options);
  REQUIRE_FALSE(finder.lines().empty());
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

TEST_CASE("explain 04-transpose-padded: the stub's column read puts all 32 lanes on one bank") {
  viz::WorstAccessFinder finder;
  watch_stub("04-transpose-padded", finder);
  const viz::LineAccesses* line = finder.worst_shared_line();
  REQUIRE(line != nullptr);
  CHECK(line->line == 44);  // out[...] = tile[threadIdx.x][threadIdx.y + j];
  const viz::RecordedAccess& worst = *line->worst_shared;
  CHECK_FALSE(worst.is_store);
  CHECK(worst.variable == "tile");
  CHECK(worst.cost == 32);
  CHECK(worst.excess() == 31);
  CHECK(line->shared_wavefronts == 32 * line->shared_requests);  // every request of the line is as bad

  const std::string text = runner::explain_line(*line, test::read_text(test::source_path(
                                                           "exercises/04-transpose-padded/kernel.cu")),
                                                report::Style(false));
  CHECK(test::contains(text, "32 wavefronts where 1 would do (31 bank conflicts)"));
  CHECK(test::contains(text, "the busiest bank is 0: 32 different words, so 32 wavefronts"));
  int conflicted_rows = 0;
  for (const std::string& row : lines_of(text)) {
    if (row.starts_with("  lane ") && row.substr(10, 32) == "X" + std::string(31, '.')) ++conflicted_rows;
  }
  CHECK(conflicted_rows == 32);  // 32 lanes, each an X in the column of bank 0
  CHECK(test::contains(text, "word 992 of `tile`"));  // lane 31: row 31 of a [32][32] tile
  CHECK(test::contains(text, "fix: Consecutive lanes are 32 words apart"));
}

TEST_CASE("explain 02-transpose-tiled: the naive stub's store gives each lane a sector of its own") {
  viz::WorstAccessFinder finder;
  watch_stub("02-transpose-tiled", finder);
  const viz::LineAccesses* line = finder.worst_global_line();
  REQUIRE(line != nullptr);
  CHECK(line->line == 28);  // out[x * height + y] = in[y * width + x];
  const viz::RecordedAccess& worst = *line->worst_global;
  CHECK(worst.is_store);
  CHECK(worst.cost == 32);
  CHECK(worst.ideal == 4);
  const viz::SectorMap map = viz::map_sectors(worst.addresses, worst.lanes, worst.bytes);
  CHECK(map.sectors.size() == 32);
  for (int lane = 0; lane < emu::k_warp_size; ++lane) CHECK(map.columns(lane) == std::vector<size_t>{size_t(lane)});

  const std::string text = runner::explain_line(*line, "", report::Style(false));
  CHECK(test::contains(text, "global store, the costliest of line 28's"));
  CHECK(test::contains(text, "32 sectors of 32 bytes where 4 would do"));
  CHECK(test::contains(text, "  lane  0 #" + std::string(31, '.') + "  +0 bytes"));
  CHECK(test::contains(text, "  lane 31 " + std::string(31, '.') + "#"));
  CHECK(finder.worst_shared_line() == nullptr);  // the stub uses no shared memory
}

TEST_CASE("explain without a line names a kind of access that wastes nothing in one sentence") {
  viz::WorstAccessFinder finder;
  watch_stub("04-transpose-padded", finder);
  const std::string text = runner::explain_kernel(finder, "", report::Style(false));
  CHECK(test::contains(text, "the worst shared-memory access:\nline 44"));
  CHECK(test::contains(text, "global memory: coalesced; every request touches the fewest sectors it can"));
}

}  // namespace
}  // namespace tilecamp
