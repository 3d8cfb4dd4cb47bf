// Grading exercise 02-transpose-tiled end to end: the exercise as the repository ships it, the
// real NVRTC, the emulator, and learner files (the stub, the solution, tests/fixtures/*.cu) as data.
#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include <map>
#include <string>
#include <vector>

#include "checker/compile/nvrtc_compiler.h"
#include "checker/emu/emulator_backend.h"
#include "checker/grade/grade.h"
#include "checker/report/verdict_report.h"
#include "tests/test_support.h"

namespace tilecamp {
namespace {

using grade::CheckStatus;
using grade::VerdictStatus;

const grade::Exercise& transpose_exercise() {
  static const grade::Exercise exercise = [] {
    auto loaded = grade::load_exercise(test::data_path("transpose-exercise"));
    REQUIRE_MESSAGE(loaded.has_value(), (loaded ? "" : loaded.error()));
    return *loaded;
  }();
  return exercise;
}

// `relative` is a path inside the repository; the verdict's messages show it as given.
grade::Verdict grade_file(const std::string& relative, uint64_t seed = 1) {
  NvrtcCompiler compiler;
  emu::EmulatorBackend backend;
  const SourceFile source{relative, test::read_text(test::source_path(relative))};
  grade::GradeOptions options;
  options.seed = seed;
  return grade::grade_exercise(transpose_exercise(), source, compiler, backend, options);
}

std::string verdict_text(const grade::Verdict& verdict) {
  return report::verdict_text(verdict, report::Style(false));
}

// The first check whose name contains `part`: "compiles", "public case width=64 height=64", a metric's name.
grade::Check check_named(const grade::Verdict& verdict, const std::string& part) {
  for (const grade::Check& check : verdict.checks) {
    if (test::contains(check.name, part)) return check;
  }
  FAIL("no check named `..." << part << "...` in\n" << verdict_text(verdict));
  return {};
}

bool is_case(const grade::Check& check) {
  return check.name.starts_with("public case") || check.name.starts_with("hidden case") ||
         check.name.starts_with("performance case");
}

bool is_threshold(const grade::Check& check) { return check.kind == grade::CheckKind::Performance; }

std::vector<grade::Check> checks_where(const grade::Verdict& verdict, bool (*keep)(const grade::Check&)) {
  std::vector<grade::Check> kept;
  for (const grade::Check& check : verdict.checks) {
    if (keep(check)) kept.push_back(check);
  }
  return kept;
}

std::vector<Diagnostic> diagnostics_of_kind(const grade::Verdict& verdict, const std::string& kind) {
  std::vector<Diagnostic> found;
  for (const Diagnostic& diagnostic : verdict.diagnostics) {
    if (diagnostic.kind == kind) found.push_back(diagnostic);
  }
  return found;
}

TEST_CASE("a correct naive transpose fails the store-coalescing and speedup thresholds, and only those") {
  const grade::Verdict verdict = grade_file(test::fixture_path("transpose_stub.cu"));
  INFO(verdict_text(verdict));

  CHECK(verdict.status == VerdictStatus::Fail);
  CHECK(check_named(verdict, "compiles").status == CheckStatus::Pass);
  const std::vector<grade::Check> cases = checks_where(verdict, is_case);
  CHECK(cases.size() == 8);
  for (const grade::Check& check : cases) CHECK_MESSAGE(check.status == CheckStatus::Pass, check.name);
  CHECK(check_named(verdict, "global_ld_sectors_per_request").status == CheckStatus::Pass);
  const grade::Check stores = check_named(verdict, "global_st_sectors_per_request");
  CHECK(stores.status == CheckStatus::Fail);
  CHECK(stores.message.starts_with("32.00, at most 4 needed"));
  CHECK(test::contains(stores.message, "worst: line 28 `out[x * height + y] = in[y * width + x];`"));
  CHECK(stores.value == 32.0);
  // The baseline is a naive transpose too: the same modelled time.
  const grade::Check speedup = check_named(verdict, "modelled_speedup");
  CHECK(speedup.status == CheckStatus::Fail);
  CHECK(speedup.kind == grade::CheckKind::Performance);
  CHECK(speedup.message.starts_with("1.00x: "));
  CHECK(verdict.diagnostics.empty());
}

TEST_CASE("the solution passes every check for several seeds") {
  for (uint64_t seed : {1u, 7u, 20240601u}) {
    CAPTURE(seed);
    const grade::Verdict verdict = grade_file(test::fixture_path("transpose_solution.cu"), seed);
    INFO(verdict_text(verdict));
    CHECK(verdict.status == VerdictStatus::Pass);
    CHECK(checks_where(verdict, is_case).size() == 8);
    CHECK(checks_where(verdict, is_threshold).size() == 3);
    for (const grade::Check& check : verdict.checks) CHECK_MESSAGE(check.status == CheckStatus::Pass, check.name);
    CHECK(verdict.constants == std::map<std::string, int64_t>{{"BLOCK_ROWS", 32}, {"TILE_DIM", 32}});
  }
}

TEST_CASE("a correct padded transpose passes every check") {
  const grade::Verdict verdict = grade_file(test::fixture_path("passes.cu"));
  INFO(verdict_text(verdict));

  CHECK(verdict.status == VerdictStatus::Pass);
  for (const grade::Check& check : verdict.checks) CHECK_MESSAGE(check.status == CheckStatus::Pass, check.name);
  CHECK(verdict.diagnostics.empty());
}

TEST_CASE("a file that does not compile fails the compiles check, naming the file and line") {
  const std::string path = test::fixture_path("compile_error.cu");
  const grade::Verdict verdict = grade_file(path);
  INFO(verdict_text(verdict));

  CHECK(verdict.status == VerdictStatus::Fail);
  REQUIRE(verdict.checks.size() == 1);  // nothing runs without a kernel
  CHECK(verdict.checks[0].name == "compiles");
  CHECK(verdict.checks[0].status == CheckStatus::Fail);
  CHECK(verdict.checks[0].message.starts_with(path + ":9:46: expected a \";\""));
  // The offending line is shown with a caret under column 46.
  CHECK(test::contains(verdict.checks[0].message, "threadIdx.x);\n  " + std::string(45, ' ') + "^"));
  const std::vector<Diagnostic> errors = diagnostics_of_kind(verdict, "compile");
  REQUIRE(!errors.empty());
  CHECK(errors[0].severity == Severity::Error);
  CHECK(errors[0].file == path);
  CHECK(errors[0].line == 9);
  CHECK(test::contains(errors[0].message, "expected a \";\""));
}

TEST_CASE("a transpose that writes the wrong elements fails, naming mismatched coordinates") {
  const grade::Verdict verdict = grade_file(test::fixture_path("wrong_result.cu"));
  INFO(verdict_text(verdict));

  CHECK(verdict.status == VerdictStatus::Fail);
  const grade::Check square = check_named(verdict, "public case width=64 height=64");
  CHECK(square.status == CheckStatus::Fail);
  // The off-diagonal tiles are swapped: out[0][32] should hold in[32][0] but holds in[0][32].
  CHECK(test::contains(square.message, "2048 of 4096 elements of `out` are wrong"));
  CHECK(test::contains(square.message, "out[0][32]: expected "));
  // Wrong, and nothing the emulator calls an error; only a warning: in the partial tiles at the
  // edges it reads entries of `tile` that no thread loaded.
  for (const Diagnostic& diagnostic : verdict.diagnostics) CHECK(diagnostic.kind == "uninitialized-shared");
}

TEST_CASE("a barrier that half of each warp skips fails with a deadlock naming the barrier's line") {
  const std::string path = test::fixture_path("divergent_barrier.cu");
  const grade::Verdict verdict = grade_file(path);
  INFO(verdict_text(verdict));

  CHECK(verdict.status == VerdictStatus::Fail);
  const std::vector<grade::Check> cases = checks_where(verdict, is_case);
  REQUIRE(cases.size() == 1);  // the same error would repeat in every case
  CHECK(cases[0].status == CheckStatus::Fail);
  CHECK(cases[0].message.starts_with("line 13: deadlock"));
  const std::vector<Diagnostic> deadlocks = diagnostics_of_kind(verdict, "deadlock");
  REQUIRE(deadlocks.size() == 1);
  CHECK(deadlocks[0].severity == Severity::Error);
  CHECK(deadlocks[0].file == path);
  CHECK(deadlocks[0].line == 13);
  CHECK(test::contains(deadlocks[0].message, "threads 0-15 of warp 0 in block (0,0,0) wait at the barrier at line 13"));
  CHECK(test::contains(deadlocks[0].message, "threads 16-31 of the same warp took another path (at line 15)"));
}

TEST_CASE("threads that return before a barrier the rest reach give a warning, not an error") {
  const std::string path = test::fixture_path("early_exit.cu");
  const grade::Verdict verdict = grade_file(path);
  INFO(verdict_text(verdict));

  CHECK(verdict.status == VerdictStatus::Pass);
  const std::vector<Diagnostic> warnings = diagnostics_of_kind(verdict, "early-exit-barrier");
  REQUIRE(!warnings.empty());
  CHECK(warnings[0].severity == Severity::Warning);
  CHECK(warnings[0].file == path);
  CHECK(warnings[0].line == 19);
  // In block (1,0) of the 50x37 case, threads with threadIdx.x and threadIdx.y both >= 18 return.
  CHECK(test::contains(warnings[0].message, "196 thread(s) of block (1,0,0) exited (a return, or the end of the kernel) "
                                            "without reaching the barrier at line 19 that the other 828 wait at"));
  CHECK(test::contains(warnings[0].message, "PTX defines this"));
  for (const Diagnostic& diagnostic : verdict.diagnostics) CHECK(diagnostic.severity == Severity::Warning);
}

TEST_CASE("a load without a bounds guard fails with an out-of-bounds error naming the buffer `in`") {
  const std::string path = test::fixture_path("out_of_bounds.cu");
  const grade::Verdict verdict = grade_file(path);
  INFO(verdict_text(verdict));

  CHECK(verdict.status == VerdictStatus::Fail);
  CHECK(check_named(verdict, "public case width=64 height=64").status == CheckStatus::Pass);  // no partial tiles
  const grade::Check partial = check_named(verdict, "public case width=50 height=37");
  CHECK(partial.status == CheckStatus::Fail);
  CHECK(test::contains(partial.message, "out-of-bounds global load"));
  CHECK(test::contains(partial.message, "element 1850 of `in` (it has 1850 elements of 4 bytes, indices 0 to 1849)"));
  const std::vector<Diagnostic> errors = diagnostics_of_kind(verdict, "out-of-bounds");
  REQUIRE(errors.size() == 1);
  CHECK(errors[0].severity == Severity::Error);
  CHECK(errors[0].file == path);
  CHECK(errors[0].line == 11);
}

TEST_CASE("a kernel whose loop never ends fails as a runaway once the instruction budget is spent") {
  const grade::Verdict verdict = grade_file(test::fixture_path("infinite_loop.cu"));
  INFO(verdict_text(verdict));

  CHECK(verdict.status == VerdictStatus::Fail);
  const grade::Check first = check_named(verdict, "public case width=64 height=64");
  CHECK(first.status == CheckStatus::Fail);
  CHECK(test::contains(first.message, "an infinite loop?"));
  const std::vector<Diagnostic> runaways = diagnostics_of_kind(verdict, "runaway");
  REQUIRE(runaways.size() == 1);
  CHECK(runaways[0].severity == Severity::Error);
  CHECK(runaways[0].line == 12);
}

TEST_CASE("performance checks are skipped, not failed, when a case fails") {
  for (const char* fixture : {"wrong_result.cu", "out_of_bounds.cu"}) {
    CAPTURE(fixture);
    const grade::Verdict verdict = grade_file(test::fixture_path(fixture));
    INFO(verdict_text(verdict));
    const std::vector<grade::Check> thresholds = checks_where(verdict, is_threshold);
    CHECK(thresholds.size() == 3);
    for (const grade::Check& check : thresholds) {
      CHECK_MESSAGE(check.status == CheckStatus::Skip, check.name);
      CHECK(check.message == "skipped: every case must be correct first");
    }
  }
}

TEST_CASE("a file that does not define TILE_DIM fails with a message naming TILE_DIM") {
  const grade::Verdict verdict = grade_file(test::fixture_path("missing_tile_dim.cu"));
  INFO(verdict_text(verdict));

  CHECK(verdict.status == VerdictStatus::Fail);
  const grade::Check compiles = check_named(verdict, "compiles");
  CHECK(compiles.status == CheckStatus::Fail);
  CHECK(test::contains(compiles.message, "TILE_DIM is not defined"));
  // The #error is in code the checker appends; it must not be blamed on a line of the learner's.
  for (const Diagnostic& diagnostic : verdict.diagnostics) {
    CHECK(diagnostic.file == test::fixture_path("missing_tile_dim.cu"));
    CHECK(diagnostic.line == 0);
  }
}

TEST_CASE("a file without the exercise's kernel fails a check naming it and listing the kernels found") {
  const grade::Verdict verdict = grade_file(test::fixture_path("misnamed_kernel.cu"));
  INFO(verdict_text(verdict));

  CHECK(verdict.status == VerdictStatus::Fail);
  const grade::Check defined = check_named(verdict, "kernel `transposeTiled` is defined");
  CHECK(defined.status == CheckStatus::Fail);
  CHECK(test::contains(defined.message, "no kernel named `transposeTiled`"));
  CHECK(test::contains(defined.message, "transposeTile,"));
  CHECK(test::contains(defined.message, "fillZeros"));
  CHECK(checks_where(verdict, is_case).empty());
}

TEST_CASE("grading is deterministic: the same file and seed give the same verdict") {
  const std::string path = test::fixture_path("wrong_result.cu");  // its messages quote values
  const auto first = report::verdict_json(grade_file(path, 4242));
  const auto second = report::verdict_json(grade_file(path, 4242));

  CHECK(first.dump(2) == second.dump(2));
}

}  // namespace
}  // namespace tilecamp
