// Helpers shared by the test files: reading test data, compiling CUDA source to a parsed module.
#pragma once

#include <cstring>
#include <filesystem>
#include <vector>
#include <string>
#include <string_view>

#include "checker/profile/profile.h"
#include "checker/ptx/module.h"

namespace tilecamp::test {

std::filesystem::path data_path(const std::string& name);
std::filesystem::path source_path(const std::string& relative);  // inside the repository
std::string read_text(const std::filesystem::path& path);
// "tests/fixtures/<name>": the path relative to the repository, as reports show it.
std::string fixture_path(const std::string& name);
bool contains(std::string_view text, std::string_view part);

// Compiles CUDA source with NVRTC and parses the PTX; fails the calling test on any error.
std::string compile_to_ptx(const std::string& file_name, const std::string& source);
ptx::Module compile_to_module(const std::string& file_name, const std::string& source);

// Runs a kernel on the emulator as `tilecamp profile` would, with --arg SPECs; fails the calling
// test if it does not compile or the launch is malformed.
profile::ProfileReport run_kernel(const std::string& file_name, const std::string& source, const std::string& kernel,
                                  Dim3 grid, Dim3 block, const std::vector<std::string>& arguments,
                                  uint32_t dynamic_shared_bytes = 0, bool sample = false);
// The elements of a buffer argument after the run (the parameter's position, from 0).
template <typename T>
std::vector<T> buffer_of(const profile::ProfileReport& report, int parameter) {
  for (const profile::BufferResult& buffer : report.buffers) {
    if (buffer.parameter != parameter) continue;
    std::vector<T> values(buffer.bytes.size() / sizeof(T));
    std::memcpy(values.data(), buffer.bytes.data(), values.size() * sizeof(T));
    return values;
  }
  return {};
}

}  // namespace tilecamp::test
