// Helpers shared by the test files: reading test data, compiling CUDA source to a parsed module.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>

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

}  // namespace tilecamp::test
