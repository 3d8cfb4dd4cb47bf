// Messages a learner can act on: each names the learner's own mistake in source terms, before
// anything runs, and never an option or a name the learner cannot use.
#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include <string>

#include "checker/compile/nvrtc_compiler.h"
#include "checker/emu/emulator_backend.h"
#include "checker/grade/grade.h"
#include "checker/report/verdict_report.h"
#include "tests/test_support.h"

namespace tilecamp {
namespace {

using grade::CheckKind;
using grade::CheckStatus;

// Graded as tests/data/transpose-exercise (02-transpose-tiled's metadata) on the emulator.
grade::Verdict grade_text(const std::string& text) {
  const auto exercise = grade::load_exercise(test::data_path("transpose-exercise"));
  REQUIRE_MESSAGE(exercise.has_value(), (exercise ? "" : exercise.error()));
  NvrtcCompiler compiler;
  emu::EmulatorBackend backend;
  grade::GradeOptions options;
  options.seed = 3;
  return grade::grade_exercise(*exercise, SourceFile{"kernel.cu", text}, compiler, backend, options);
}

const grade::Check* first_failure(const grade::Verdict& verdict) {
  for (const grade::Check& check : verdict.checks) {
    if (check.status == CheckStatus::Fail) return &check;
  }
  return nullptr;
}

// A copy of the tile-less transpose with the given parameter list and body.
std::string transpose_with(const std::string& parameters, const std::string& element = "float") {
  return "#define TILE_DIM 32\n"
         "__global__ void transposeTiled(" + parameters + ") {\n"
         "  int x = blockIdx.x * 32 + threadIdx.x, y0 = blockIdx.y * 32 + threadIdx.y;\n"
         "  for (int y = y0; y < y0 + 32; y += 8)\n"
         "    if (x < width && y < height) out[x * height + y] = (" + element + ")in[y * width + x];\n"
         "}\n";
}

TEST_CASE("a kernel with a parameter too many is stopped before it runs, in source terms, not a mangled name") {
  const grade::Verdict verdict = grade_text(transpose_with("const float* in, float* out, int width, int height, int pad"));
  INFO(report::verdict_text(verdict, report::Style(false)));
  const grade::Check* failed = first_failure(verdict);
  REQUIRE(failed != nullptr);
  CHECK(failed->kind == CheckKind::Compile);
  CHECK(failed->message == "your `transposeTiled` takes 5 parameters (float const*, float*, int, int, int); the exercise "
                           "passes 4: transposeTiled(const float* in, float* out, int width, int height). Give the "
                           "kernel exactly these parameters, in this order");
  CHECK_FALSE(test::contains(failed->message, "_Z"));
  for (const grade::Check& check : verdict.checks) CHECK(check.kind == CheckKind::Compile);  // no case ran
}

TEST_CASE("a double* where the exercise passes floats is named, not found later as an out-of-bounds access") {
  const grade::Verdict verdict = grade_text(transpose_with("const double* in, float* out, int width, int height"));
  const grade::Check* failed = first_failure(verdict);
  REQUIRE(failed != nullptr);
  CHECK(failed->name == "kernel `transposeTiled` takes the exercise's parameters");
  CHECK(test::contains(failed->message, "parameter 1 of your `transposeTiled` is `double const*`, where the exercise passes "
                                        "`const float* in`"));
  CHECK(verdict.diagnostics.empty());
}

TEST_CASE("qualifiers and the signedness of an int do not count as a different parameter") {
  const grade::Verdict verdict =
      grade_text(transpose_with("const float* __restrict__ in, float* __restrict__ out, unsigned width, const int height"));
  INFO(report::verdict_text(verdict, report::Style(false)));
  const bool compiled_and_matched = first_failure(verdict) == nullptr || first_failure(verdict)->kind != CheckKind::Compile;
  CHECK(compiled_and_matched);
}

TEST_CASE("an empty file compiles but has no kernel: one failure that says so, not a compile error") {
  const grade::Verdict verdict = grade_text("#define TILE_DIM 32  // nothing else yet\n");
  const grade::Check* failed = first_failure(verdict);
  REQUIRE(failed != nullptr);
  CHECK(failed->name == "kernel `transposeTiled` is defined");
  CHECK(test::contains(failed->message, "the file defines no __global__ function"));
}

TEST_CASE("a host function is explained as host code tilecamp never runs, with no compiler flag to pass") {
  const grade::Verdict verdict = grade_text("float twice(float v) { return 2 * v; }\nint main() { return 0; }\n" +
                                            transpose_with("const float* in, float* out, int width, int height"));
  REQUIRE(verdict.diagnostics.size() >= 2);
  CHECK(test::contains(verdict.diagnostics[0].message, "`twice` has no __device__ (or __global__), so it is host code"));
  CHECK(test::contains(verdict.diagnostics[1].message, "main() is host code"));
  for (const Diagnostic& d : verdict.diagnostics) CHECK_FALSE(test::contains(d.message, "-default-device"));
}

TEST_CASE("what the kernel prints in a public case is shown, cut short, a hidden case's never") {
  const std::string source =
      transpose_with("const float* in, float* out, int width, int height") +
      "__global__ void unused() {}\n";
  std::string printing = source;
  printing.replace(printing.find("  int x"), 0, "  if (threadIdx.y == 0) printf(\"lane %d of %d x %d\\n\", threadIdx.x, width, height);\n");
  const grade::Verdict verdict = grade_text(printing);
  REQUIRE(verdict.printed.has_value());
  CHECK(verdict.printed->case_name.starts_with("public case"));
  CHECK(verdict.printed->truncated);
  CHECK(std::count(verdict.printed->text.begin(), verdict.printed->text.end(), '\n') == grade::k_printed_lines);
  CHECK(verdict.printed->text.starts_with("lane "));
  const std::string text = report::verdict_text(verdict, report::Style(false));
  CHECK(test::contains(text, "your kernel printed (public case"));
  CHECK(test::contains(text, "  | lane "));
  const auto json = report::verdict_json(verdict);
  CHECK(json["printed"]["truncated"] == true);
  CHECK(json["printed"]["case"].get<std::string>().starts_with("public case"));
}

}  // namespace
}  // namespace tilecamp
