// `tilecamp explain` on the course's own stubs: the grader runs the exercise with a
// WorstAccessFinder watching the performance case, and the maps show the known faults.
#include <doctest/doctest.h>

#include <sstream>

#include "checker/compile/nvrtc_compiler.h"
#include "checker/emu/emulator_backend.h"
#include "checker/grade/grade.h"
#include "checker/viz/access_map.h"
#include "runner/tools/explain_text.h"
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
  const viz::RecordedAccess& worst = *line->shared_load.worst;
  CHECK(line->worst(true) == &line->shared_load);
  CHECK_FALSE(worst.is_store);
  CHECK(worst.variable == "tile");
  CHECK(worst.cost == 32);
  CHECK(worst.excess() == 31);
  CHECK(line->shared_load.cost == 32 * line->shared_load.requests);  // every request of the line is as bad

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
  const viz::RecordedAccess& worst = *line->global_store.worst;
  CHECK(line->worst(false) == &line->global_store);
  CHECK(worst.is_store);
  CHECK(worst.cost == 32);
  CHECK(worst.ideal == 4);
  // Loads and stores counted apart, as profile counts them: 13056 of each, 4 and 32 sectors.
  CHECK(line->global_store.requests == 13056);
  CHECK(line->global_store.cost == 417792);
  CHECK(line->global_load.requests == 13056);
  CHECK(line->global_load.cost == 52224);
  const viz::SectorMap map = viz::map_sectors(worst.addresses, worst.lanes, worst.bytes);
  CHECK(map.sectors.size() == 32);
  for (int lane = 0; lane < emu::k_warp_size; ++lane) CHECK(map.columns(lane) == std::vector<size_t>{size_t(lane)});

  const std::string text = runner::explain_line(*line, "", report::Style(false));
  CHECK(test::contains(text, "global store, the costliest of line 28's 13056 global stores (417792 sectors):"));
  CHECK_FALSE(test::contains(text, "global load"));  // the load is coalesced: only the store is drawn
  CHECK(test::contains(text, "32 sectors of 32 bytes where 4 would do"));
  CHECK(test::contains(text, "  lane  0 #" + std::string(31, '.') + "  +0 bytes"));
  CHECK(test::contains(text, "  lane 31 " + std::string(31, '.') + "#"));
  CHECK(finder.worst_shared_line() == nullptr);  // the stub uses no shared memory
}

TEST_CASE("explain 01-copy-coalesced --line 24: a load and a store that both waste are both drawn") {
  viz::WorstAccessFinder finder;
  watch_stub("01-copy-coalesced", finder);
  const viz::LineAccesses* line = finder.find_line(24);  // out[row * width + col] = in[row * width + col];
  REQUIRE(line != nullptr);
  REQUIRE(line->global_load.worst);
  REQUIRE(line->global_store.worst);
  CHECK(line->global_load.worst->excess() > 0);
  CHECK(line->global_store.worst->excess() > 0);
  const std::string text = runner::explain_line(*line, "", report::Style(false));
  CHECK(test::contains(text, "global load, the costliest of line 24's"));
  CHECK(test::contains(text, "global store, the costliest of line 24's"));  // where check's store hint leads
}

TEST_CASE("explain's heading of a long source line is cut to 80 columns") {
  viz::WorstAccessFinder finder;
  watch_stub("02-transpose-tiled", finder);
  const viz::LineAccesses* line = finder.find_line(28);
  REQUIRE(line != nullptr);
  const std::string source = std::string(27, '\n') + "    out[x * height + y] = in[y * width + x];" + std::string(60, ' ') + "// a long comment\n";
  const std::string heading = lines_of(runner::explain_line(*line, source, report::Style(false))).front();
  CHECK(heading.size() == 80);
  CHECK(heading.starts_with("line 28  out[x * height + y] = in[y * width + x];"));
  CHECK(heading.ends_with("..."));
}

TEST_CASE("a --line past the end of the file says how long the file is") {
  viz::WorstAccessFinder finder;
  watch_stub("02-transpose-tiled", finder);
  const std::string source = test::read_text(test::source_path("exercises/02-transpose-tiled/kernel.cu"));
  const size_t count = lines_of(source).size();
  CHECK(runner::no_access_at(finder, 9999, source) ==
        "line 9999 is past the end of the kernel: the file has " + std::to_string(count) + " lines");
  CHECK(test::contains(runner::no_access_at(finder, 1, source), "the lines that do: 28"));
  CHECK(runner::check_line_number("0") != "");
  CHECK(runner::check_line_number("-1") != "");
  CHECK(runner::check_line_number("abc") != "");
  CHECK(runner::check_line_number("12") == "");
}

TEST_CASE("explain 02-stencil-1d: the misaligned loads are explained as one extra sector at most") {
  viz::WorstAccessFinder finder;
  watch_stub("02-stencil-1d", finder);
  const viz::LineAccesses* line = finder.worst_global_line();
  REQUIRE(line != nullptr);
  const viz::RecordedAccess& worst = *line->worst(false)->worst;
  CHECK(worst.cost == worst.ideal + 1);
  const std::string advice = viz::sector_advice(viz::map_sectors(worst.addresses, worst.lanes, worst.bytes));
  CHECK(test::contains(advice, "One sector more is all a contiguous access can lose to misalignment"));
  // The re-reads of a narrow 1-D window hit L1: a tile is recommended only where reuse outgrows it.
  CHECK(test::contains(advice, "the re-reads mostly hit L1"));
  CHECK(test::contains(advice, "a shared-memory tile pays when the reuse outgrows what L1 keeps"));
}

TEST_CASE("explain 04-transpose-swizzled: the stub's column read offers the swizzle as well as padding") {
  viz::WorstAccessFinder finder;
  watch_stub("04-transpose-swizzled", finder);
  const viz::LineAccesses* line = finder.worst_shared_line();
  REQUIRE(line != nullptr);
  const viz::RecordedAccess& worst = *line->worst(true)->worst;
  const auto map = viz::map_banks(worst.addresses, worst.lanes, worst.bytes, worst.fused_bytes, worst.fused_first);
  REQUIRE(map);
  const std::string advice = viz::bank_advice(*map);
  CHECK(test::contains(advice, "column c ^ r of row r"));
  CHECK(test::contains(advice, "[..][33]"));
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
