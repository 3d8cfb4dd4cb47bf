// The grading engine's parts: the expressions of the metadata, how cases are drawn, how one
// case's buffers are made and judged, the built-in references, and an exercise whose reference is
// a kernel file and which promotes a warning to an error.
#include <doctest/doctest.h>

#include <algorithm>

#include <cmath>
#include <cstring>
#include <set>

#include "checker/compile/nvrtc_compiler.h"
#include "checker/emu/emulator_backend.h"
#include "checker/grade/cases.h"
#include "checker/grade/expression.h"
#include "checker/grade/grade.h"
#include "checker/grade/judge.h"
#include "checker/grade/metrics.h"
#include "checker/grade/reference.h"
#include "checker/report/verdict_report.h"
#include "tests/test_support.h"

namespace tilecamp {
namespace {

using grade::CheckStatus;

grade::Exercise load(const std::string& name) {
  auto exercise = grade::load_exercise(test::data_path(name));
  REQUIRE_MESSAGE(exercise.has_value(), (exercise ? "" : exercise.error()));
  return *exercise;
}

std::vector<float> floats(const std::vector<uint8_t>& bytes) {
  std::vector<float> values(bytes.size() / 4);
  std::memcpy(values.data(), bytes.data(), bytes.size());
  return values;
}

std::vector<uint8_t> bytes_of(const std::vector<float>& values) {
  std::vector<uint8_t> bytes(values.size() * 4);
  std::memcpy(bytes.data(), values.data(), bytes.size());
  return bytes;
}

TEST_CASE("expressions: precedence, functions, names, and errors that quote the expression") {
  const grade::Bindings names = {{"width", 50}, {"TILE_DIM", 32}, {"BM", 64}, {"TM", 8}};
  CHECK(grade::evaluate("ceil_div(width, TILE_DIM)", names).value() == 2);
  CHECK(grade::evaluate("(BM / TM) * (BM / TM)", names).value() == 64);
  CHECK(grade::evaluate("1 + 2 * 3 - 4 % 3", names).value() == 6);
  CHECK(grade::evaluate("-width + max(3, min(7, 5))", names).value() == -45);
  CHECK(grade::evaluate("width / 3", names).value() == 16);  // truncates

  auto unknown = grade::evaluate("ceil_div(width, TILE)", names);
  REQUIRE_FALSE(unknown.has_value());
  CHECK(unknown.error() == "unknown name `TILE` (known: BM, TILE_DIM, TM, width) in `ceil_div(width, TILE)`");
  CHECK(grade::evaluate("width / (TILE_DIM - 32)", names).error() == "division by zero in `width / (TILE_DIM - 32)`");
  CHECK(grade::evaluate("width *", names).error() == "the expression ends too early in `width *`");
  CHECK(grade::evaluate("width 2", names).error() == "unexpected `2` in `width 2`");
  CHECK(grade::evaluate("sqrt(width)", names).error() == "unknown function `sqrt` (known: ceil_div, min, max) in `sqrt(width)`");
}

TEST_CASE("expressions over a learner's constants are checked arithmetic: overflow is an error, never a crash") {
  const grade::Bindings names = {{"MIN", INT64_MIN}, {"MAX", INT64_MAX}, {"MINUS_ONE", -1}};
  const std::string overflow = "a value beyond a 64-bit integer's range";
  CHECK(grade::evaluate("MIN / MINUS_ONE", names).error() == overflow + " in `MIN / MINUS_ONE`");
  CHECK(grade::evaluate("MIN % MINUS_ONE", names).error().starts_with(overflow));
  CHECK(grade::evaluate("MAX + 1", names).error().starts_with(overflow));
  CHECK(grade::evaluate("MIN - 1", names).error().starts_with(overflow));
  CHECK(grade::evaluate("MAX * 2", names).error().starts_with(overflow));
  CHECK(grade::evaluate("-MIN", names).error().starts_with(overflow));
  CHECK(grade::evaluate("99999999999999999999", names).error().starts_with(overflow));
  CHECK(grade::evaluate("ceil_div(MAX, 2)", names).value() == INT64_MAX / 2 + 1);
  CHECK(grade::evaluate("ceil_div(-7, 2)", names).value() == -3);
  CHECK(grade::evaluate(std::string(65, '(') + "1" + std::string(65, ')'), names).error().starts_with("nesting deeper than 64"));
  CHECK(grade::evaluate(std::string(100000, '-') + "1", names).error().starts_with("nesting deeper than 64"));
  CHECK(grade::evaluate(std::string(64, '(') + "1" + std::string(64, ')'), names).value() == 1);
}

// Whatever the seed, a kernel wrong only for some residue of a size is caught: over one seed's
// hidden cases, every dimension of every course exercise whose range allows it takes residues 0 and
// not 0 modulo 2, 3, 4, 5, 7, 8, 16 and 32, an odd multiple of 3, 1, a prime and a partial tile.
TEST_CASE("every seed's hidden cases cover the residues a kernel could be wrong on, for every course exercise") {
  auto course = grade::load_course(test::source_path(""));
  REQUIRE(course.has_value());
  for (const grade::CourseEntry& entry : course->exercises) {
    auto exercise = grade::load_course_exercise(entry);
    REQUIRE(exercise.has_value());
    const grade::ProblemSpec& problem = exercise->problem;
    for (uint64_t seed = 1; seed <= 40; ++seed) {
      std::vector<std::vector<int64_t>> values(problem.dims.size());
      for (const grade::ProblemCase& c : grade::draw_cases(problem, seed)) {
        if (!c.hidden || c.performance) continue;
        for (size_t d = 0; d < c.dims.size(); ++d) values[d].push_back(c.dims[d]);
      }
      for (size_t d = 0; d < problem.dims.size(); ++d) {
        const auto range = problem.ranges.find(problem.dims[d]);
        if (range == problem.ranges.end() || range->second.second < 100) continue;  // too narrow to hold them all
        INFO(entry.id, " ", problem.dims[d], " seed ", seed);
        const std::vector<int64_t>& v = values[d];
        auto any = [&](auto predicate) { return std::any_of(v.begin(), v.end(), predicate); };
        for (int64_t m : {2, 3, 4, 5, 7, 8, 16, 32}) {
          CAPTURE(m);
          CHECK(any([m](int64_t x) { return x % m == 0; }));
          CHECK(any([m](int64_t x) { return x % m != 0; }));
        }
        CHECK(any([](int64_t x) { return x % 6 == 3; }));
        CHECK(any([](int64_t x) { return x == 1; }));
        CHECK(any([](int64_t x) { return x > 32 && x % 32 != 0; }));
        CHECK(any([](int64_t x) {
          bool prime = x > 1;
          for (int64_t k = 2; k * k <= x; ++k) prime &= x % k != 0;
          return prime;
        }));
      }
    }
  }
}

TEST_CASE("hidden cases: partial tiles, each dimension 1, odd multiples of 3, primes, whole tiles, then the performance case") {
  const grade::Exercise exercise = load("transpose-exercise");
  const std::vector<grade::ProblemCase> cases = grade::draw_cases(exercise.problem, 7);
  REQUIRE(cases.size() == 8);
  CHECK(cases[0].dims == std::vector<int64_t>{64, 64});
  CHECK_FALSE(cases[0].hidden);
  CHECK(cases[1].dims == std::vector<int64_t>{50, 37});
  for (size_t i = 2; i < cases.size(); ++i) CHECK(cases[i].hidden);
  for (int64_t dim : cases[2].dims) CHECK((dim % 2 != 0 && dim % 3 != 0));  // a partial tile for any tile
  CHECK(cases[3].dims[0] == 1);  // 1 wide, its height an odd multiple of 3 and 7
  CHECK(cases[3].dims[1] % 42 == 21);
  CHECK(cases[4].dims[1] == 1);  // 1 tall
  CHECK(cases[4].dims[0] % 42 == 21);
  for (int64_t dim : cases[5].dims) {
    CAPTURE(dim);
    bool prime = dim > 1;
    for (int64_t d = 2; d * d <= dim; ++d) prime &= dim % d != 0;
    CHECK(prime);
  }
  for (int64_t dim : cases[6].dims) CHECK(dim % 160 == 0);  // whole tiles of every size, and a multiple of 5
  CHECK(cases[7].performance);
  CHECK(cases[7].dims == std::vector<int64_t>{768, 544});

  auto dims_of = [](const std::vector<grade::ProblemCase>& drawn) {
    std::vector<std::vector<int64_t>> all;
    for (const auto& c : drawn) all.push_back(c.dims);
    return all;
  };
  CHECK(dims_of(grade::draw_cases(exercise.problem, 7)) == dims_of(cases));
  std::set<std::vector<std::vector<int64_t>>> distinct;
  for (uint64_t seed = 1; seed <= 5; ++seed) distinct.insert(dims_of(grade::draw_cases(exercise.problem, seed)));
  CHECK(distinct.size() == 5);
}

TEST_CASE("a dimension with choices takes a value from its list in every hidden case") {
  grade::ProblemSpec problem;
  problem.dims = {"n", "block"};
  problem.public_cases = {{100, 64}};
  problem.ranges["n"] = {1, 5000};
  problem.choices["block"] = {32, 128, 1024};
  for (const grade::ProblemCase& c : grade::draw_cases(problem, 11)) {
    CHECK((c.dims[1] == 32 || c.dims[1] == 128 || c.dims[1] == 1024 || c.dims[1] == 64));
  }
}

TEST_CASE("case data: inputs in their range and never 0, outputs poisoned with NaN, scalars evaluated") {
  const grade::Exercise exercise = load("transpose-exercise");
  auto data = grade::make_case_data(exercise, {{50, 37}, false, false}, 3);
  REQUIRE(data.has_value());
  REQUIRE(data->buffers.size() == 2);
  CHECK(data->buffers[0].name == "in");
  for (float value : floats(data->buffers[0].bytes)) CHECK((value != 0.0f && value >= -100 && value <= 100));
  CHECK(floats(data->buffers[0].bytes).size() == 50 * 37);
  for (float value : floats(data->buffers[1].bytes)) CHECK(std::isnan(value));
  REQUIRE(data->arguments.size() == 4);
  int32_t width;
  std::memcpy(&width, data->arguments[2].scalar.data(), 4);
  CHECK(width == 50);
  CHECK(data->arguments[1].buffer == 1);
}

TEST_CASE("launch configurations from expressions, a block over 1024 threads names its expressions") {
  const grade::Exercise exercise = load("transpose-exercise");
  grade::Bindings names = {{"width", 50}, {"height", 37}, {"TILE_DIM", 16}, {"BLOCK_ROWS", 4}};
  auto config = grade::launch_config(exercise.launch, names);
  REQUIRE(config.has_value());
  CHECK(config->grid.x == 4);
  CHECK(config->grid.y == 3);
  CHECK(config->block.y == 4);
  names["TILE_DIM"] = 64;
  names["BLOCK_ROWS"] = 64;
  auto too_big = grade::launch_config(exercise.launch, names);
  REQUIRE_FALSE(too_big.has_value());
  CHECK(too_big.error() == "the block (TILE_DIM, BLOCK_ROWS) = (64, 64) is 4096 threads; a block has 1 to 1024 "
                           "threads, each side at least 1 (z at most 64)");
  names["TILE_DIM"] = INT64_MAX;  // a learner's constant may be anything: the product would overflow
  names["BLOCK_ROWS"] = INT64_MAX;
  auto absurd = grade::launch_config(exercise.launch, names);
  REQUIRE_FALSE(absurd.has_value());
  CHECK(absurd.error().find("a block has 1 to 1024 threads") != std::string::npos);
}

// Judges a transpose of a 40 x 40 matrix where `wrong` rewrites the kernel's output.
grade::CaseJudgement judge_transpose(void (*wrong)(std::vector<float>& out, const std::vector<float>& in)) {
  const grade::Exercise exercise = load("transpose-exercise");
  auto data = grade::make_case_data(exercise, {{40, 40}, false, false}, 5);
  REQUIRE(data.has_value());
  const std::vector<std::vector<uint8_t>> expected = grade::run_builtin_reference(exercise, *data);
  std::vector<float> out = floats(expected[1]);
  wrong(out, floats(data->buffers[0].bytes));
  const std::vector<std::vector<uint8_t>> actual = {data->buffers[0].bytes, bytes_of(out)};
  LaunchConfig config;
  config.block = {32, 8, 1};
  return grade::judge_case(exercise, *data, expected, actual, config);
}

TEST_CASE("a judgement names the first wrong coordinates and recognises the mismatch pattern") {
  SUBCASE("correct") { CHECK(judge_transpose([](std::vector<float>&, const std::vector<float>&) {}).passed); }
  SUBCASE("unwritten partial tiles at the edges") {
    auto judgement = judge_transpose([](std::vector<float>& out, const std::vector<float>&) {
      for (size_t row = 0; row < 40; ++row) {
        for (size_t col = 32; col < 40; ++col) out[row * 40 + col] = std::nanf("");
      }
    });
    CHECK_FALSE(judgement.passed);
    INFO(judgement.message);
    CHECK(judgement.message.starts_with("320 of 1600 elements of `out` are wrong (`out` is 40 rows x 40 columns):"));
    CHECK(test::contains(judgement.message, "\n    out[0][32]: expected "));
    CHECK(test::contains(judgement.message, ", got NaN (never written)"));
    CHECK(test::contains(judgement.message, "... and 316 more"));
    CHECK(test::contains(judgement.message, "every wrong element was never written, all in the partial tiles at the edges"));
  }
  SUBCASE("copied instead of transposed") {
    auto judgement = judge_transpose([](std::vector<float>& out, const std::vector<float>& in) { out = in; });
    CHECK_FALSE(judgement.passed);
    INFO(judgement.message);
    CHECK(test::contains(judgement.message, "row and column swapped: a transposed index"));
  }
  SUBCASE("one wrong value") {
    auto judgement = judge_transpose([](std::vector<float>& out, const std::vector<float>&) { out[41] += 1.0f; });
    CHECK_FALSE(judgement.passed);
    CHECK(judgement.message.starts_with("1 of 1600 elements of `out` are wrong"));
    CHECK(test::contains(judgement.message, "out[1][1]: expected"));
  }
}

TEST_CASE("a kernel that writes its input fails, naming the input") {
  const grade::Exercise exercise = load("transpose-exercise");
  auto data = grade::make_case_data(exercise, {{8, 8}, false, false}, 5);
  REQUIRE(data.has_value());
  const auto expected = grade::run_builtin_reference(exercise, *data);
  std::vector<std::vector<uint8_t>> actual = expected;
  actual[0][0] ^= 1;
  const auto judgement = grade::judge_case(exercise, *data, expected, actual, {});
  CHECK_FALSE(judgement.passed);
  CHECK(judgement.message == "the kernel wrote to its input `in`; only `out` may change");
}

// A small exercise of one built-in reference with float buffers `names` sized by `sizes`.
grade::Exercise builtin_exercise(const std::string& builtin, const std::vector<std::string>& dims,
                                 const std::vector<std::pair<std::string, std::string>>& inputs,
                                 const std::vector<std::pair<std::string, std::string>>& outputs) {
  grade::Exercise exercise;
  exercise.reference.builtin = builtin;
  exercise.problem.dims = dims;
  for (const auto& [name, size] : inputs) exercise.params.push_back({name, "const float*", grade::ElementType::F32, true, grade::ParamRole::In, size, {}, "", 1, 4});
  for (const auto& [name, size] : outputs) exercise.params.push_back({name, "float*", grade::ElementType::F32, true, grade::ParamRole::Out, size, {}, "", -1, 1});
  REQUIRE(grade::check_builtin_reference(builtin, exercise).has_value());
  return exercise;
}

std::vector<float> reference_output(const grade::Exercise& exercise, const std::vector<int64_t>& dims,
                                    std::vector<std::vector<float>> inputs) {
  auto data = grade::make_case_data(exercise, {dims, false, false}, 1);
  REQUIRE(data.has_value());
  for (size_t i = 0; i < inputs.size(); ++i) data->buffers[i].bytes = bytes_of(inputs[i]);
  return floats(grade::run_builtin_reference(exercise, *data).back());
}

TEST_CASE("the SGEMM reference split over threads gives every element a single thread would") {
  // 640 x 512 x 512 is 168 M multiply-adds: two threads' share, where the machine has two cores or
  // more. Checked against a plain triple loop summing in double in the same order.
  const auto sgemm = builtin_exercise("sgemm", {"M", "N", "K"}, {{"A", "M * K"}, {"B", "K * N"}}, {{"C", "M * N"}});
  const size_t m = 640, n = 512, k = 512;
  auto data = grade::make_case_data(sgemm, {{640, 512, 512}, false, false}, 3);
  REQUIRE(data.has_value());
  const std::vector<float> a = floats(data->buffers[0].bytes), b = floats(data->buffers[1].bytes);
  const std::vector<float> c = floats(grade::run_builtin_reference(sgemm, *data).back());
  REQUIRE(c.size() == m * n);
  size_t differing = 0;
  for (size_t i = 0; i < m; ++i) {
    for (size_t j = 0; j < n; ++j) {
      double sum = 0;
      for (size_t p = 0; p < k; ++p) sum += static_cast<double>(a[i * k + p]) * b[p * n + j];
      differing += c[i * n + j] != static_cast<float>(sum);
    }
  }
  CHECK(differing == 0);
}

TEST_CASE("the built-in references compute what docs/exercise-format.md says") {
  const auto sgemm = builtin_exercise("sgemm", {"M", "N", "K"}, {{"A", "M * K"}, {"B", "K * N"}}, {{"C", "M * N"}});
  // A = [[1 2 3] [4 5 6]] (2x3), B = [[1 0] [0 1] [1 1]] (3x2): C = [[4 5] [10 11]]
  CHECK(reference_output(sgemm, {2, 2, 3}, {{1, 2, 3, 4, 5, 6}, {1, 0, 0, 1, 1, 1}}) == std::vector<float>{4, 5, 10, 11});

  auto stencil = builtin_exercise("stencil_1d", {"n"}, {{"in", "n"}}, {{"out", "n"}});
  stencil.reference.options["radius"] = 1;
  CHECK(reference_output(stencil, {4}, {{3, 6, 9, 3}}) == std::vector<float>{3, 6, 6, 4});  // zeros outside

  const auto sums = builtin_exercise("block_sum", {"n", "block"}, {{"in", "n"}}, {{"out", "ceil_div(n, block)"}});
  CHECK(reference_output(sums, {5, 2}, {{1, 2, 3, 4, 5}}) == std::vector<float>{3, 7, 5});

  const auto rows = builtin_exercise("row_sum", {"width", "height"}, {{"in", "width * height"}}, {{"out", "height"}});
  CHECK(reference_output(rows, {3, 2}, {{1, 2, 3, 10, 20, 30}}) == std::vector<float>{6, 60});

  const auto add = builtin_exercise("vector_add", {"n"}, {{"a", "n"}, {"b", "n"}}, {{"c", "n"}});
  CHECK(reference_output(add, {3}, {{1, 2, 3}, {10, 20, 30}}) == std::vector<float>{11, 22, 33});
}

// Compaction in segments of 4: out (n floats) and counts (one int per segment).
grade::Exercise compact_exercise() {
  grade::Exercise compact;
  compact.reference.builtin = "compact_positive";
  compact.problem.dims = {"n"};
  compact.params.push_back({"in", "const float*", grade::ElementType::F32, true, grade::ParamRole::In, "n", {}, "", 1, 4});
  compact.params.push_back({"out", "float*", grade::ElementType::F32, true, grade::ParamRole::Out, "n", {}, "", -1, 1});
  compact.params.push_back({"counts", "int*", grade::ElementType::I32, true, grade::ParamRole::Out, "ceil_div(n, 4)", {}, "", -1, 1});
  compact.reference.options["segment"] = 4;
  REQUIRE(grade::check_builtin_reference("compact_positive", compact).has_value());
  return compact;
}

TEST_CASE("compact_positive keeps each segment's positive elements in order, counts them, and leaves the rest") {
  auto compact = compact_exercise();
  auto data = grade::make_case_data(compact, {{6}, false, false}, 1);
  REQUIRE(data.has_value());
  data->buffers[0].bytes = bytes_of({-1, 2, -3, 4, 5, -6});
  const auto result = grade::run_builtin_reference(compact, *data);
  const std::vector<float> out = floats(result[1]);
  CHECK(out[0] == 2);  // segment 0 keeps 2 and 4...
  CHECK(out[1] == 4);
  CHECK(std::isnan(out[2]));  // ...and leaves its other slots as they were (poisoned)
  CHECK(std::isnan(out[3]));
  CHECK(out[4] == 5);  // segment 1, partial, keeps 5
  CHECK(std::isnan(out[5]));
  std::vector<int32_t> counts(2);
  std::memcpy(counts.data(), result[2].data(), 8);
  CHECK(counts == std::vector<int32_t>{2, 1});

  compact.params.back().element = grade::ElementType::F32;  // counts must be integers
  CHECK_FALSE(grade::check_builtin_reference("compact_positive", compact).has_value());
}

TEST_CASE("an element the reference leaves unwritten may hold any NaN (a GPU poisons with all ones), and nothing else") {
  const auto compact = compact_exercise();
  auto data = grade::make_case_data(compact, {{6}, false, false}, 1);
  REQUIRE(data.has_value());
  data->buffers[0].bytes = bytes_of({-1, 2, -3, 4, 5, -6});
  const auto expected = grade::run_builtin_reference(compact, *data);
  std::vector<std::vector<uint8_t>> actual = expected;
  std::memset(actual[1].data() + 2 * 4, 0xFF, 4);  // out[2]: all ones, as a GPU's memset poisons
  LaunchConfig config;
  config.block = {256, 1, 1};
  CHECK(grade::judge_case(compact, *data, expected, actual, config).passed);
  const float written = 0.0f;
  std::memcpy(actual[1].data() + 3 * 4, &written, 4);  // out[3]: written, where the reference left it
  const auto judgement = grade::judge_case(compact, *data, expected, actual, config);
  CHECK_FALSE(judgement.passed);
  CHECK(test::contains(judgement.message, "out[3]: expected NaN (never written), got 0"));
}

TEST_CASE("barriers_per_warp divides the barriers the warps passed by the grid's warps, an upper bound") {
  Counters counters;
  counters.barriers = 288;  // lesson 7's tree: 9 barriers for each of 4 blocks of 8 warps
  grade::MetricInputs inputs;
  inputs.counters = &counters;
  inputs.warps = 32;
  CHECK(grade::metric_value(inputs, "barriers_per_warp") == 9.0);
  CHECK_FALSE(grade::metric_is_lower_bound("barriers_per_warp"));
  CHECK(grade::is_known_metric("barriers_per_warp", "emulator"));
  CHECK_FALSE(grade::metric_has_lines("barriers_per_warp"));  // a line has no warps to divide by
  inputs.warps = 0;
  CHECK_FALSE(grade::metric_value(inputs, "barriers_per_warp").has_value());
}

TEST_CASE("global_ld_requests_per_kib counts warp-wide loads per KiB read: 8 for floats, 2 for float4, an upper bound") {
  Counters counters;
  counters.global_ld_requests = 64;  // 64 warp-wide float loads: 8 KiB
  counters.global_ld_bytes = 64 * 32 * 4;
  grade::MetricInputs inputs;
  inputs.counters = &counters;
  CHECK(grade::metric_value(inputs, "global_ld_requests_per_kib") == 8.0);
  counters.global_ld_requests = 16;  // the same bytes as 16 float4 loads
  CHECK(grade::metric_value(inputs, "global_ld_requests_per_kib") == 2.0);
  CHECK_FALSE(grade::metric_is_lower_bound("global_ld_requests_per_kib"));
  CHECK(grade::is_known_metric("global_ld_requests_per_kib", "emulator"));
  counters.global_ld_bytes = 0;
  CHECK_FALSE(grade::metric_value(inputs, "global_ld_requests_per_kib").has_value());
}

TEST_CASE("shared_ld_requests_per_fma_instruction counts shared load instructions per warp-wide FMA, an upper bound") {
  Counters counters;
  counters.shared_ld_requests = 16;  // one warp, one k: 16 float loads for 8 x 8 outputs a thread
  grade::MetricInputs inputs;
  inputs.counters = &counters;
  inputs.fmas = 64 * 32;  // 64 FMA instructions of 32 multiply-adds
  CHECK(grade::metric_value(inputs, "shared_ld_requests_per_fma_instruction") == 0.25);
  counters.shared_ld_requests = 4;  // the same values as four float4
  CHECK(grade::metric_value(inputs, "shared_ld_requests_per_fma_instruction") == 0.0625);
  CHECK_FALSE(grade::metric_is_lower_bound("shared_ld_requests_per_fma_instruction"));
  CHECK(grade::is_known_metric("shared_ld_requests_per_fma_instruction", "emulator"));
}

grade::Verdict grade_difference(const std::string& fixture) {
  NvrtcCompiler compiler;
  emu::EmulatorBackend backend;
  const SourceFile source{test::fixture_path(fixture), test::read_text(test::source_path(test::fixture_path(fixture)))};
  return grade::grade_exercise(load("difference-exercise"), source, compiler, backend, {});
}

TEST_CASE("an exercise whose reference is a kernel file grades against that kernel's outputs") {
  const grade::Verdict verdict = grade_difference("difference_guarded.cu");
  INFO(report::verdict_text(verdict, report::Style(false)));
  CHECK(verdict.status == grade::VerdictStatus::Pass);
  int cases = 0;
  for (const grade::Check& check : verdict.checks) cases += check.kind == grade::CheckKind::Correctness;
  CHECK(cases == 7);  // 2 public, partial, n = 1, an odd multiple of 3, prime, whole tiles
}

TEST_CASE("a warning the exercise lists in `errors` fails the safety check, saying so") {
  const grade::Verdict verdict = grade_difference("difference_early_exit.cu");
  INFO(report::verdict_text(verdict, report::Style(false)));
  CHECK(verdict.status == grade::VerdictStatus::Fail);
  const grade::Check& first_unsafe = [&]() -> const grade::Check& {
    for (const grade::Check& check : verdict.checks) {
      if (check.kind == grade::CheckKind::Safety) return check;
    }
    FAIL("no safety check");
    return verdict.checks.front();
  }();
  CHECK(first_unsafe.status == CheckStatus::Fail);
  CHECK(first_unsafe.name == "public case n=300");  // n=256 fills its only block
  CHECK(test::contains(first_unsafe.message, "exited (a return, or the end of the kernel) without reaching the barrier at line 10"));
  CHECK(test::contains(first_unsafe.message, "(this exercise treats `early-exit-barrier` as an error)"));
}

}  // namespace
}  // namespace tilecamp
