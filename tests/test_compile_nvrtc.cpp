// NvrtcCompiler against the real NVRTC (no GPU needed): what reaches the PTX and what reaches the
// learner when their file does not compile.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>

#include "checker/compile/builtin_headers.h"
#include "checker/compile/nvrtc_compiler.h"
#include "checker/compile/source_text.h"

namespace tilecamp {
namespace {

constexpr std::string_view k_saxpy = R"(__global__ void saxpy(int n, float a, const float* x, float* y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}
)";

CompileResult compile_or_fail(const SourceFile& source, const CompileOptions& options = {}) {
  NvrtcCompiler compiler;
  Expected<CompileResult> result = compiler.compile(source, options);
  if (!result) FAIL(result.error());
  return std::move(*result);
}

// The first PTX line containing `needle`, or "" if none does.
std::string_view line_containing(std::string_view text, std::string_view needle) {
  const std::size_t at = text.find(needle);
  if (at == std::string_view::npos) return {};
  const std::size_t begin = text.rfind('\n', at) + 1;  // npos + 1 == 0 on the first line
  return text.substr(begin, text.find('\n', at) - begin);
}

TEST_CASE("a kernel that compiles yields PTX with .loc lines and a .file naming the source") {
  const std::string path = "exercises/saxpy/kernel.cu";
  const CompileResult result = compile_or_fail({path, std::string(k_saxpy)});

  CHECK(result.ok);
  CHECK(result.diagnostics.empty());
  CHECK(result.ptx.find(".visible .entry _Z5saxpyifPKfPf(") != std::string::npos);
  CHECK(result.ptx.find(".loc\t1 3 ") != std::string::npos);
  // NVRTC makes a relative name absolute by prefixing the working directory.
  CHECK(line_containing(result.ptx, ".file\t1 ").ends_with("/" + path + "\""));
}

TEST_CASE("a syntax error is reported with the learner's file, line, column and message") {
  const CompileResult result = compile_or_fail({"kernel.cu", R"(__global__ void k(float* a) {
  int i = threadIdx.x
  a[i] = 1.0f;
}
)"});

  CHECK_FALSE(result.ok);
  CHECK(result.ptx.empty());
  CHECK(result.log.find("kernel.cu(3): error: expected a \";\"") != std::string::npos);
  REQUIRE(!result.diagnostics.empty());
  const CompileDiagnostic& error = result.diagnostics.front();
  CHECK(error.file == "kernel.cu");
  CHECK(error.line == 3);
  CHECK(error.column == 3);
  CHECK(error.severity == "error");
  CHECK(error.message == "expected a \";\"");
  CHECK(error.source_line == "  a[i] = 1.0f;");
}

TEST_CASE("printf, assert and fixed-width integers from the usual headers compile to vprintf and __assertfail") {
  const CompileResult result = compile_or_fail({"kernel.cu", R"(#include <cstdio>
#include <cassert>
#include <cstdint>
#include <cuda_runtime.h>
__global__ void k(const uint32_t* in, int64_t* out, uint32_t n) {
  uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  assert(i < n);
  printf("thread %u reads %u\n", i, in[i]);
  out[i] = static_cast<std::int64_t>(in[i]) - INT32_MAX;
}
)"});

  REQUIRE(result.ok);
  CHECK(result.ptx.find("call.uni (retval0), \n\tvprintf,") != std::string::npos);
  CHECK(result.ptx.find("call.uni \n\t__assertfail,") != std::string::npos);
  // int64_t is `long`, as with nvcc on Linux, so the kernel mangles the same way.
  CHECK(result.ptx.find(".entry _Z1kPKjPlj(") != std::string::npos);
}

TEST_CASE("every builtin header compiles when included on its own") {
  for (const BuiltinHeader& header : builtin_headers()) {
    CAPTURE(header.name);
    const CompileResult result = compile_or_fail(
        {"kernel.cu", std::string("#include <") + header.name + ">\n" + std::string(k_saxpy)});
    CHECK(result.ok);
    CHECK(result.diagnostics.empty());
  }
}

TEST_CASE("defining NDEBUG compiles assert away") {
  const SourceFile source{"kernel.cu", R"(#include <cassert>
__global__ void k(int* a) { assert(a[0] == 1); }
)"};
  CompileOptions options;
  options.defines = {"NDEBUG"};

  const CompileResult result = compile_or_fail(source, options);

  REQUIRE(result.ok);
  CHECK(result.ptx.find("__assertfail") == std::string::npos);
}

TEST_CASE("defines become macros of the program") {
  CompileOptions options;
  options.defines = {"TILE=16", "USE_SHARED"};

  const CompileResult result = compile_or_fail({"kernel.cu", R"(
static_assert(TILE == 16, "TILE");
#ifndef USE_SHARED
#error USE_SHARED
#endif
__global__ void k(float* a) { a[0] = TILE; }
)"}, options);

  CHECK(result.ok);
}

TEST_CASE("the builtin headers' limit and math macros are constant expressions") {
  const CompileResult result = compile_or_fail({"kernel.cu", R"(#include <cfloat>
#include <climits>
#include <cmath>
constexpr float k_lowest = -FLT_MAX;
constexpr float k_infinity = INFINITY;
static_assert(k_infinity > k_lowest && INT_MAX == 2147483647 && M_PI > 3.14, "");
__global__ void k(float* a) { a[0] = std::fmax(a[0], k_lowest) + (isnan(NAN) ? 1.0f : 0.0f); }
)"});

  CHECK(result.ok);
}

TEST_CASE("math macros need no include, as nvcc pre-includes cuda_runtime.h") {
  const CompileResult result = compile_or_fail({"kernel.cu", R"(
__global__ void k(float* a) { a[0] = a[0] < INFINITY ? static_cast<float>(M_PI) : 0.0f; }
)"});

  CHECK(result.ok);
}

TEST_CASE("a name expression for a template kernel returns the mangled name of a PTX entry") {
  CompileOptions options;
  options.name_expressions = {"scale<4>"};

  const CompileResult result = compile_or_fail({"kernel.cu", R"(template <int N>
__global__ void scale(float* a) { a[threadIdx.x] *= N; }
)"}, options);

  REQUIRE(result.ok);
  REQUIRE(result.lowered_names.count("scale<4>") == 1);
  const std::string& lowered = result.lowered_names.at("scale<4>");
  CHECK(lowered == "_Z5scaleILi4EEvPf");
  CHECK(result.ptx.find(".entry " + lowered + "(") != std::string::npos);
}

TEST_CASE("appended source is compiled into the same PTX after the learner's kernels") {
  CompileOptions options;
  options.appended_source = "__global__ void report_tile(int* out) { out[0] = 16; }\n";

  const CompileResult result = compile_or_fail({"kernel.cu", std::string(k_saxpy)}, options);

  REQUIRE(result.ok);
  CHECK(result.ptx.find(".entry _Z5saxpyifPKfPf(") != std::string::npos);
  CHECK(result.ptx.find(".entry _Z11report_tilePi(") != std::string::npos);
}

TEST_CASE("an error in the learner's text keeps its line when source is appended") {
  CompileOptions options;
  options.appended_source = "__global__ void report_tile(int* out) { out[0] = 16; }\n";

  const CompileResult result = compile_or_fail({"kernel.cu", R"(__global__ void k(float* a) {
  a[0] = undefined_value;
}
)"}, options);

  CHECK_FALSE(result.ok);
  REQUIRE(result.diagnostics.size() == 1);
  CHECK(result.diagnostics[0].file == "kernel.cu");
  CHECK(result.diagnostics[0].line == 2);
}

TEST_CASE("an error in the appended source names the appended file, not the learner's") {
  CompileOptions options;
  options.appended_source = "__global__ void report_tile(int* out) { out[0] = TILE; }\n";

  const CompileResult result = compile_or_fail({"kernel.cu", std::string(k_saxpy)}, options);

  CHECK_FALSE(result.ok);
  REQUIRE(result.diagnostics.size() == 1);
  CHECK(result.diagnostics[0].file == k_appended_source_name);
  CHECK(result.diagnostics[0].line == 1);
}

TEST_CASE("an unused variable is a warning and the kernel still compiles") {
  const CompileResult result = compile_or_fail({"kernel.cu", R"(__global__ void k(float* a) {
  int unused = 3;
  a[0] = 1.0f;
}
)"});

  CHECK(result.ok);
  CHECK_FALSE(result.ptx.empty());
  REQUIRE(result.diagnostics.size() == 1);
  CHECK(result.diagnostics[0].severity == "warning");
  CHECK(result.diagnostics[0].line == 2);
  CHECK(result.diagnostics[0].message == "variable \"unused\" was declared but never referenced");
}

TEST_CASE("a function without __device__ or __global__ is host code: said so, without NVRTC's flag advice") {
  const CompileResult result = compile_or_fail({"kernel.cu", R"(int square(int x) { return x * x; }
__global__ void k(int* a) { a[0] = 1; }
)"});

  CHECK_FALSE(result.ok);
  REQUIRE_FALSE(result.diagnostics.empty());
  CHECK(result.diagnostics[0].line == 1);
  CHECK(result.diagnostics[0].message.starts_with("`square` has no __device__ (or __global__), so it is host code"));
  CHECK(result.diagnostics[0].message.find("-default-device") == std::string::npos);
}

TEST_CASE("an include NVRTC cannot find is a compile error at the include") {
  const CompileResult result = compile_or_fail({"kernel.cu", R"(#include "helpers.cuh"
__global__ void k(float* a) { a[0] = 1.0f; }
)"});

  CHECK_FALSE(result.ok);
  REQUIRE(result.diagnostics.size() == 1);
  CHECK(result.diagnostics[0].severity == "error");
  CHECK(result.diagnostics[0].line == 1);
  CHECK(result.diagnostics[0].message == "cannot open source file \"helpers.cuh\"");
}

TEST_CASE("a header beside the kernel is never opened, while the toolkit's headers find their own siblings") {
  // An attack: a second file of the student's, beside kernel.cu, quoted by its bare name (which
  // the include policy lets through, as it may name a toolkit header).
  const std::filesystem::path folder = std::filesystem::temp_directory_path() / "tilecamp-beside-test";
  std::filesystem::create_directories(folder);
  std::ofstream(folder / "secret.h") << "#error the secret is 31337\n";
  const CompileResult beside = compile_or_fail({(folder / "kernel.cu").string(), R"(#include "secret.h"
__global__ void k(float* a) { a[0] = 1.0f; }
)"});
  std::filesystem::remove_all(folder);
  CHECK_FALSE(beside.ok);
  REQUIRE(beside.diagnostics.size() == 1);
  CHECK(beside.diagnostics[0].message == "cannot open source file \"secret.h\"");
  CHECK(beside.log.find("31337") == std::string::npos);

  // cooperative_groups/details/driver_abi.h includes "info.h" beside itself, as under nvcc.
  const CompileResult groups = compile_or_fail({"kernel.cu", R"(#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
namespace cg = cooperative_groups;
__global__ void k(const float* in, float* out) {
  auto tile = cg::tiled_partition<32>(cg::this_thread_block());
  out[threadIdx.x] = cg::reduce(tile, in[threadIdx.x], cg::plus<float>());
}
)"});
  CHECK(groups.ok);
  CHECK(groups.diagnostics.empty());
}

TEST_CASE("an architecture NVRTC does not know is an error of the compiler, not of the kernel") {
  CompileOptions options;
  options.arch = "compute_1";
  NvrtcCompiler compiler;

  const Expected<CompileResult> result = compiler.compile({"kernel.cu", std::string(k_saxpy)}, options);

  REQUIRE_FALSE(result.has_value());
  CHECK(result.error().starts_with("nvrtcCompileProgram for kernel.cu: NVRTC_ERROR_INVALID_OPTION"));
  CHECK(result.error().find("--gpu-architecture") != std::string::npos);
}

}  // namespace
}  // namespace tilecamp

namespace tilecamp {
namespace {

TEST_CASE("a NUL byte or a byte that is not UTF-8 is refused at its line and column before NVRTC reads it") {
  const std::string text = std::string("// caf\xC3\xA9 is fine\n__global__ void k(float* a) {\n  a[0] = 1; // \xFF\xFE\n") +
                           std::string(1, '\0') + "}\n";
  const CompileResult result = compile_or_fail({"kernel.cu", text});
  CHECK_FALSE(result.ok);
  REQUIRE(result.diagnostics.size() == 2);
  CHECK(result.diagnostics[0].line == 3);
  CHECK(result.diagnostics[0].column == 16);
  CHECK(result.diagnostics[0].message.starts_with("byte 0xFF is not text"));
  CHECK(result.diagnostics[1].line == 4);
  CHECK(result.diagnostics[1].column == 1);
  CHECK(result.diagnostics[1].message.starts_with("byte 0x00 is not text"));
  // Overlong and surrogate forms are not UTF-8 either.
  CHECK(compile_or_fail({"kernel.cu", "// \xC0\xAF\n"}).diagnostics.size() == 1);
  CHECK(compile_or_fail({"kernel.cu", "// \xED\xA0\x80\n"}).diagnostics.size() == 1);
}

}  // namespace
}  // namespace tilecamp

namespace tilecamp {
namespace {

TEST_CASE("a compiler message for a student quotes only words of their own file") {
  const std::string source = "__global__ void vectorAdd(float* out) { out[0] = missing_name; }\n";
  CHECK(mask_foreign_quotes("identifier \"missing_name\" is undefined", source) == "identifier \"missing_name\" is undefined");
  CHECK(mask_foreign_quotes("a value of type \"const float *\" cannot be assigned to \"float *\"", source) ==
        "a value of type \"const float *\" cannot be assigned to \"float *\"");
  // A file the kernel included (were the sandbox not there) could only be quoted: never shown.
  CHECK(mask_foreign_quotes("static assertion failed with \"the hidden answer is 42\"", source) ==
        "static assertion failed with \"(not from your file)\"");
  CHECK(mask_foreign_quotes("identifier \"SECRET_TOKEN\" is undefined", source) ==
        "identifier \"(not from your file)\" is undefined");
  CHECK(mask_foreign_quotes("expected a \";\"", source) == "expected a \";\"");
  CHECK(mask_foreign_quotes("an unpaired \" quote", source) == "an unpaired \" quote");
}

}  // namespace
}  // namespace tilecamp
