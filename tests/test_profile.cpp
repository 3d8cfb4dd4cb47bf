// `tilecamp profile` below the command line: reading --arg specs, running a kernel with them on the
// emulator, and the JSON object that scripts and the course's tooling read (its keys are a contract).
#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include <cstring>
#include <string>
#include <vector>

#include "checker/compile/nvrtc_compiler.h"
#include "checker/emu/emulator_backend.h"
#include "checker/profile/profile.h"
#include "checker/report/profile_report.h"
#include "tests/test_support.h"

namespace tilecamp {
namespace {

using profile::ElementType;
using profile::Fill;

template <typename T>
std::vector<uint8_t> bytes_of(T value) {
  std::vector<uint8_t> bytes(sizeof(T));
  std::memcpy(bytes.data(), &value, sizeof(T));
  return bytes;
}

profile::ArgSpec parsed(const std::string& text) {
  auto spec = profile::parse_arg_spec(text);
  REQUIRE_MESSAGE(spec.has_value(), (spec ? "" : spec.error()));
  return *spec;
}

// The arguments of `kernel(const float* in, float* out, int width, int height)` on a 64x64 matrix.
std::vector<std::string> transpose_arguments() {
  return {"f32[4096]", "f32[4096]=zeros", "i32:64", "i32:64"};
}

Expected<profile::ProfileReport> profile_fixture(const std::string& fixture, const std::string& kernel,
                                                 const std::vector<std::string>& arguments) {
  profile::ProfileRequest request;
  request.path = test::fixture_path(fixture);
  request.text = test::read_text(test::source_path(request.path));
  request.kernel = kernel;
  request.grid = {2, 2, 1};
  request.block = {32, 32, 1};
  for (const std::string& argument : arguments) request.arguments.push_back(parsed(argument));
  NvrtcCompiler compiler;
  emu::EmulatorBackend backend;
  return profile::profile_kernel(compiler, backend, request);
}

nlohmann::ordered_json profile_json_of(const std::string& kernel) {
  auto report = profile_fixture("transpose_kernels.cu", kernel, transpose_arguments());
  REQUIRE_MESSAGE(report.has_value(), (report ? "" : report.error()));
  REQUIRE(report->compiled);
  return report::profile_json(*report);
}

TEST_CASE("a scalar spec of each type gives the value's bytes") {
  struct Case {
    const char* text;
    ElementType type;
    std::vector<uint8_t> bytes;
  };
  const Case cases[] = {
      {"i32:-7", ElementType::I32, bytes_of<int32_t>(-7)},
      {"u32:0xff", ElementType::U32, bytes_of<uint32_t>(255)},
      {"i64:-5000000000", ElementType::I64, bytes_of<int64_t>(-5'000'000'000)},
      {"u64:18446744073709551615", ElementType::U64, bytes_of<uint64_t>(UINT64_MAX)},
      {"f32:1.5", ElementType::F32, bytes_of<float>(1.5f)},
      {"f64:-0.25", ElementType::F64, bytes_of<double>(-0.25)},
      {"i16:-7", ElementType::I16, bytes_of<int16_t>(-7)},
      {"u16:65535", ElementType::U16, bytes_of<uint16_t>(65535)},
      {"f16:1.5", ElementType::F16, bytes_of<uint16_t>(0x3e00)},
      {"f16:0.1", ElementType::F16, bytes_of<uint16_t>(0x2e66)},    // 0.0999755859375, the nearest half
      {"bf16:-2.5", ElementType::BF16, bytes_of<uint16_t>(0xc020)},
  };
  for (const Case& c : cases) {
    CAPTURE(c.text);
    const profile::ArgSpec spec = parsed(c.text);
    CHECK_FALSE(spec.is_buffer);
    CHECK(spec.type == c.type);
    CHECK(spec.scalar == c.bytes);
    CHECK(spec.text == c.text);
  }
}

TEST_CASE("a buffer spec gives its element type, count and fill, =rand by default") {
  struct Case {
    const char* text;
    ElementType type;
    Fill fill;
  };
  const Case cases[] = {
      {"f32[8]", ElementType::F32, Fill::Rand},
      {"f64[8]=rand", ElementType::F64, Fill::Rand},
      {"i32[8]=zeros", ElementType::I32, Fill::Zeros},
      {"u64[8]=iota", ElementType::U64, Fill::Iota},
  };
  for (const Case& c : cases) {
    CAPTURE(c.text);
    const profile::ArgSpec spec = parsed(c.text);
    CHECK(spec.is_buffer);
    CHECK(spec.type == c.type);
    CHECK(spec.count == 8);
    CHECK(spec.fill == c.fill);
  }
}

TEST_CASE("=zeros fills a buffer with zeros and =iota with 0, 1, 2, ...") {
  CHECK(*profile::fill_buffer(parsed("f64[5]=zeros"), 1) == std::vector<uint8_t>(40, 0));
  const std::vector<uint8_t> iota = *profile::fill_buffer(parsed("i32[5]=iota"), 1);
  REQUIRE(iota.size() == 20);
  for (int32_t i = 0; i < 5; ++i) {
    int32_t value;
    std::memcpy(&value, iota.data() + i * 4, 4);
    CHECK(value == i);
  }
}

TEST_CASE("=rand is seeded: the same seed gives the same buffer, another seed another") {
  const profile::ArgSpec spec = parsed("f32[64]");
  CHECK(*profile::fill_buffer(spec, 3) == *profile::fill_buffer(spec, 3));
  CHECK(*profile::fill_buffer(spec, 3) != *profile::fill_buffer(spec, 4));
}

TEST_CASE("a malformed spec is an error that quotes the spec") {
  for (const char* text : {"x32:1", "i32", "i32:", "i32:seven", "i32:4294967296", "u32:-1", "f32:1.5x",
                           "f32[", "f32[0]", "f32[many]", "f32[8]=ones", "q8[8]", "i16:32768", "u16:65536",
                           "i16:-32769", "f16:one"}) {
    CAPTURE(text);
    auto spec = profile::parse_arg_spec(text);
    REQUIRE_FALSE(spec.has_value());
    CHECK(spec.error().starts_with("--arg '" + std::string(text) + "': "));
  }
}

TEST_CASE("the profile JSON has the contract's keys: kernel, grid, block, totals, lines, diagnostics") {
  const nlohmann::ordered_json json = profile_json_of("transposeTiled");

  for (const char* key : {"kernel", "grid", "block", "totals", "lines", "diagnostics"}) {
    CHECK_MESSAGE(json.contains(key), key);
  }
  CHECK(json["kernel"] == "transposeTiled");
  CHECK(json["grid"] == nlohmann::ordered_json::array({2, 2, 1}));
  CHECK(json["block"] == nlohmann::ordered_json::array({32, 32, 1}));
  CHECK(json["diagnostics"].empty());
}

TEST_CASE("the profile JSON's totals hold the 11 contract counters by name, first and in order") {
  const nlohmann::ordered_json totals = profile_json_of("transposeTiled")["totals"];

  for (const char* counter :
       {"global_ld_requests", "global_ld_sectors", "global_st_requests", "global_st_sectors", "shared_ld_requests",
        "shared_ld_wavefronts", "shared_ld_bank_conflicts", "shared_st_requests", "shared_st_wavefronts",
        "shared_st_bank_conflicts", "warp_instructions"}) {
    CHECK_MESSAGE(totals.contains(counter), counter);
  }
  // Later counters extend the object compatibly: the contract's eleven come first, in order.
  REQUIRE(totals.size() >= 11);
  auto it = totals.begin();
  CHECK(it.key() == "global_ld_requests");
  std::advance(it, 10);
  CHECK(it.key() == "warp_instructions");
}

TEST_CASE("every per-line entry of the profile JSON names its file and line") {
  const nlohmann::ordered_json lines = profile_json_of("transposeTiled")["lines"];

  REQUIRE(!lines.empty());
  for (const nlohmann::ordered_json& line : lines) {
    CHECK(line["file"] == test::fixture_path("transpose_kernels.cu"));
    CHECK(line["line"].get<int>() > 0);
    CHECK(line.contains("warp_instructions"));
  }
}

TEST_CASE("transposeTiled's shared loads take 32 wavefronts per request, transposePadded's 1") {
  const nlohmann::ordered_json tiled = profile_json_of("transposeTiled")["totals"];
  const nlohmann::ordered_json padded = profile_json_of("transposePadded")["totals"];

  REQUIRE(tiled["shared_ld_requests"] == 128);  // 4 blocks x 32 warps
  CHECK(tiled["shared_ld_wavefronts"] == 32 * 128);
  REQUIRE(padded["shared_ld_requests"] == 128);
  CHECK(padded["shared_ld_wavefronts"] == 128);
}

TEST_CASE("a wrong number of arguments is an error naming both counts") {
  auto report = profile_fixture("transpose_kernels.cu", "transposeTiled", {"f32[4096]", "f32[4096]", "i32:64"});

  REQUIRE_FALSE(report.has_value());
  CHECK(report.error() ==
        "`transposeTiled` takes 4 parameter(s), but 3 --arg were given (one --arg per parameter, in order)");
}

TEST_CASE("a scalar of the wrong size for its parameter is an error") {
  auto report =
      profile_fixture("transpose_kernels.cu", "transposeTiled", {"f32[4096]", "f32[4096]", "i64:64", "i32:64"});

  REQUIRE_FALSE(report.has_value());
  CHECK(report.error() == "parameter 3 of `transposeTiled` has 4 bytes, but --arg 'i64:64' gives 8");
}

TEST_CASE("a buffer for a scalar parameter is an error") {
  auto report =
      profile_fixture("transpose_kernels.cu", "transposeTiled", {"f32[4096]", "f32[4096]", "i32[4]", "i32:64"});

  REQUIRE_FALSE(report.has_value());
  CHECK(test::contains(report.error(), "parameter 3 of `transposeTiled` is a 4-byte value, not a pointer"));
}

TEST_CASE("a file that does not compile gives a report with compiled=false and the compiler's diagnostics") {
  auto report = profile_fixture("compile_error.cu", "transposeTiled", transpose_arguments());

  REQUIRE_MESSAGE(report.has_value(), (report ? "" : report.error()));
  CHECK_FALSE(report->compiled);
  REQUIRE(!report->compile_diagnostics.empty());
  CHECK(report->compile_diagnostics[0].line == 9);
  const nlohmann::ordered_json json = report::profile_json(*report);
  REQUIRE(!json["diagnostics"].empty());
  CHECK(json["diagnostics"][0]["kind"] == "compile");
  CHECK(json["diagnostics"][0]["severity"] == "error");
  CHECK(json["diagnostics"][0]["file"] == test::fixture_path("compile_error.cu"));
  CHECK(json["diagnostics"][0]["line"] == 9);
}

TEST_CASE("a kernel that deadlocks is a report with an error diagnostic, not an Error") {
  auto report = profile_fixture("divergent_barrier.cu", "transposeTiled", transpose_arguments());

  REQUIRE_MESSAGE(report.has_value(), (report ? "" : report.error()));
  CHECK_FALSE(report->result.completed);
  CHECK(report->result.has_error());
  const nlohmann::ordered_json json = report::profile_json(*report);
  REQUIRE(json["diagnostics"].size() == 1);
  CHECK(json["diagnostics"][0]["kind"] == "deadlock");
  CHECK(json["diagnostics"][0]["line"] == 13);
}

}  // namespace
}  // namespace tilecamp
