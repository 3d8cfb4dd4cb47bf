#include "tests/test_support.h"

#include <doctest/doctest.h>

#include <fstream>
#include <sstream>

#include "checker/compile/nvrtc_compiler.h"
#include "checker/emu/emulator_backend.h"
#include "checker/ptx/parser.h"

namespace tilecamp::test {

std::filesystem::path data_path(const std::string& name) {
  return std::filesystem::path(TILECAMP_TEST_DATA_DIR) / name;
}

std::filesystem::path source_path(const std::string& relative) {
  return std::filesystem::path(TILECAMP_SOURCE_DIR) / relative;
}

std::string read_text(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  REQUIRE_MESSAGE(in.good(), "cannot open " << path);
  std::stringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}

std::string fixture_path(const std::string& name) { return "tests/fixtures/" + name; }

bool contains(std::string_view text, std::string_view part) { return text.find(part) != std::string_view::npos; }

std::string compile_to_ptx(const std::string& file_name, const std::string& source) {
  NvrtcCompiler compiler;
  auto result = compiler.compile({file_name, source}, {});
  REQUIRE_MESSAGE(result.has_value(), (result ? "" : result.error()));
  REQUIRE_MESSAGE(result->ok, result->log);
  return result->ptx;
}

ptx::Module compile_to_module(const std::string& file_name, const std::string& source) {
  auto module = ptx::parse_module(compile_to_ptx(file_name, source));
  REQUIRE_MESSAGE(module.has_value(), (module ? "" : module.error()));
  return std::move(*module);
}

profile::ProfileReport run_kernel(const std::string& file_name, const std::string& source, const std::string& kernel,
                                  Dim3 grid, Dim3 block, const std::vector<std::string>& arguments,
                                  uint32_t dynamic_shared_bytes, bool sample) {
  profile::ProfileRequest request;
  request.path = file_name;
  request.text = source;
  request.kernel = kernel;
  request.grid = grid;
  request.block = block;
  request.dynamic_shared_bytes = dynamic_shared_bytes;
  request.sample = sample;
  for (const std::string& text : arguments) {
    auto spec = profile::parse_arg_spec(text);
    REQUIRE_MESSAGE(spec.has_value(), (spec ? "" : spec.error()));
    request.arguments.push_back(*spec);
  }
  NvrtcCompiler compiler;
  emu::EmulatorBackend backend;
  auto report = profile::profile_kernel(compiler, backend, request);
  REQUIRE_MESSAGE(report.has_value(), (report ? "" : report.error()));
  REQUIRE_MESSAGE(report->compiled, report->compile_log);
  return std::move(*report);
}

}  // namespace tilecamp::test
